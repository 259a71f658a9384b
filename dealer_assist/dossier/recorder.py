"""Adding each checked hand's values to a tally: the common values to the common figures, the
game's own to its own, and each whole game's to the figures of games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from dealer_assist.dossier.stats import Categories, Numbers, Shares
from dealer_assist.dossier.tally import Figures, Tally
from dealer_assist.engine.declare import PER_GAME


class Recorder:
    """Adds one checked hand's values to a tally: the common values to its common figures, the
    game's own to its own (the two never share a key's tally), each measure's tally found by
    its key once per session, not looked up by its kind for every hand."""

    def __init__(self, t: Tally, kinds: Mapping[str, str]) -> None:
        self.t = t
        self.kinds = kinds
        self.common: dict[str, Callable[[Any], None] | None] = {}
        self.own: dict[str, Callable[[Any], None] | None] = {}
        self.games: dict[str, Callable[[Any], None] | None] = {}
        self.game_kinds = {m.key: m.kind for m in PER_GAME}

    @staticmethod
    def adder(figures: Figures, kind: str | None, key: str) -> Callable[[Any], None] | None:
        add: Callable[[Any], None] | None = None
        if kind == "share":
            shares = figures.shares.setdefault(key, Shares())
            add = lambda v: shares.add(bool(v))  # noqa: E731
        elif kind == "category":
            cats = figures.categories.setdefault(key, Categories())
            add = lambda v: cats.add(str(v))  # noqa: E731
        elif kind in ("money", "count"):
            numbers = figures.numbers
            money = kind == "money"

            def add(v: Any) -> None:
                if isinstance(v, int):
                    nums = numbers.get(key)
                    if nums is None:
                        nums = numbers[key] = Numbers(values=Counter() if money else None)
                    nums.add(int(v))
        return add

    def _put(self, values: Mapping[str, Any], adders: dict[str, Callable[[Any], None] | None],
             figures: Figures, kinds: Mapping[str, str]) -> None:
        for key, v in values.items():
            if v is None:
                continue
            add = adders[key] if key in adders else adders.setdefault(
                key, self.adder(figures, kinds.get(key), key))
            if add is not None:
                add(v)

    def __call__(self, values: Mapping[str, Any], own: Mapping[str, Any] | None,
                 seconds: int) -> None:
        t = self.t
        self._put(values, self.common, t.common, self.kinds)
        if own is not None:
            self._put(own, self.own, t.own, self.kinds)
        t.fee_per_second.add(int(values["fee"]), seconds)
        sec = t.common.numbers.get("seconds")
        if sec is None:
            sec = t.common.numbers["seconds"] = Numbers(values=None)
        sec.add(seconds)

    def game(self, values: Mapping[str, Any]) -> None:
        """One game of many hands, ended by its rule (:data:`PER_GAME`)."""
        self._put(values, self.games, self.t.per_game, self.game_kinds)
