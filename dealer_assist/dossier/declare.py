"""What a game declares for its dossier: its rulings in our words, its players' baseline
strategy, and the numbers a board asks of it (measured on each simulated hand)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from dealer_assist.engine.base import Settlement

#: How a measure is counted: ``money`` (cents per hand: mean, median, 95th percentile, largest),
#: ``count`` (a number per hand: mean), ``share`` (yes/no per hand: how often),
#: ``category`` (one name per hand: how often each).
Kind = Literal["money", "count", "share", "category"]
#: One hand's values: a measure's key -> cents or a count (int), yes/no (bool), a category
#: (str), or None where the measure does not apply to that hand (no showdown, say).
Values = Mapping[str, int | bool | str | None]


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling the game applies: ``tag`` as the app cites it in a refusal ("cc-8",
    "caro-6", "OFC 5", "betting-min-raise", "fees"), ``text`` in our words."""

    tag: str
    text: str


@dataclass(frozen=True, slots=True)
class Measure:
    """One of the game's own numbers: ``key`` in the values its ``measure`` gives, ``label``
    as the dossier prints it, ``kind`` (:data:`Kind`), ``note`` under the figure."""

    key: str
    label: str
    kind: Kind
    note: str = ""


@dataclass(frozen=True, slots=True)
class GameDossier:
    """Everything a game says in its dossier beyond what every game has.

    ``rules``: the game in a few paragraphs, our words; ``rulings``: every ruling it applies;
    ``strategy``: the baseline strategy of its ``sample_hand`` in a sentence; ``measures`` and
    ``measure``: its own numbers, ``measure(game, state, settlement)`` giving one finished
    hand's values (a module-level function: simulation runs it in worker processes).
    """

    rules: tuple[str, ...]
    rulings: tuple[Ruling, ...]
    strategy: str
    measures: tuple[Measure, ...] = ()
    measure: Callable[[Any, Any, Settlement], Values] | None = None
