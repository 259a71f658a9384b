"""Open-Face Chinese Poker: the settings (unit, royalty table, Pineapple, fantasyland) and the
immutable state of a hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.base import (
    FeeLine,
)
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    Rows,
    RoyaltyTable,
    Stakes,
)

#: The game's name in its hand logs.
NAME = "ofc"
SCOOP_BONUS = 3


FOUL_PENALTY = 6


FIRST_DEAL = 5


PINEAPPLE_MAX_PLAYERS = 3


STAY_RULES = ("rules-text", "never")


ENTRY_RANKS = {"JJ": 11, "QQ": 12, "KK": 13, "AA": 14}


@dataclass(frozen=True, slots=True)
class Fantasyland:
    """Fantasyland settings: whether it is played, who enters and who stays."""

    enabled: bool = True
    #: The lowest front pair that earns it (any trips always do): "QQ" by the rules.
    entry: str = "QQ"
    #: "rules-text": quads+ in back, full house+ in middle or trips in front; "never".
    stay: str = "rules-text"


@dataclass(frozen=True, slots=True)
class OfcSettings:
    seats: tuple[int, ...]
    button: int
    stakes: Stakes
    #: House fees collected before the deal (per-player, or a fixed fee from the button).
    fees: tuple[FeeLine, ...]

    @property
    def unit(self) -> int:
        return self.stakes.unit
    table: RoyaltyTable
    pineapple: bool
    fantasyland: Fantasyland
    #: Seats playing this hand in fantasyland.
    in_fantasyland: frozenset[int]

    @property
    def order(self) -> tuple[int, ...]:
        """Every seat in turn order from the button's left."""
        return from_left(self.seats, self.button)

    @property
    def placers(self) -> tuple[int, ...]:
        """Seats placing card by card (not in fantasyland), in turn order."""
        return _placers(self.seats, self.button, self.in_fantasyland)

    @property
    def rounds(self) -> int:
        """Turns each placer takes: the first five, then 8 single cards or 4 Pineapple pairs."""
        return 1 + (HAND_SIZE - FIRST_DEAL) // (2 if self.pineapple else 1)


@lru_cache(maxsize=256)
def _placers(seats: tuple[int, ...], button: int, in_fantasyland: frozenset[int]
             ) -> tuple[int, ...]:
    """:attr:`OfcSettings.placers` (asked several times an event; a table has few seatings, so
    each is worked out once)."""
    return tuple(s for s in from_left(seats, button) if s not in in_fantasyland)


@dataclass(frozen=True, slots=True)
class OfcState:
    settings: OfcSettings
    rows: Mapping[int, Rows]
    #: Known cards each seat threw away (Pineapple) and how many went unseen.
    discards: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    unseen_discards: Mapping[int, int] = field(default_factory=dict)
    round: int = 0
    turn: int = 0
    placed: int = 0
    discarded: int = 0
    fantasyland_set: frozenset[int] = frozenset()
    #: Where each known card is, for the duplicate check: card -> "seat 2's middle row".
    where: Mapping[Card, str] = field(default_factory=dict)

    @property
    def placing_done(self) -> bool:
        return not self.settings.placers or self.round >= self.settings.rounds

    @property
    def first_five_done(self) -> bool:
        return not self.settings.placers or self.round >= 1

    @property
    def current(self) -> int | None:
        if self.placing_done:
            return None
        return self.settings.placers[self.turn]

    def quota(self) -> tuple[int, int]:
        """Cards to place and to discard in the current turn."""
        if self.round == 0:
            return (FIRST_DEAL, 0)
        return (2, 1) if self.settings.pineapple else (1, 0)

    @property
    def pending_sets(self) -> tuple[int, ...]:
        return tuple(
            s for s in self.settings.order
            if s in self.settings.in_fantasyland and s not in self.fantasyland_set
        )

    @property
    def over(self) -> bool:
        return self.placing_done and not self.pending_sets


def _fantasyland_setting(raw: object, seats: tuple[int, ...]) -> tuple[Fantasyland,
                                                                         frozenset[int]]:
    """``"fantasyland"`` is a list of seats in it this hand, ``false``, or a mapping with
    ``enabled``, ``entry``, ``stay`` and ``seats`` (a table keeps the mapping in its settings
    and names each hand's seats with ``"in_fantasyland"``)."""
    if raw is None:
        return Fantasyland(), frozenset()
    if raw is False:
        return Fantasyland(enabled=False), frozenset()
    if isinstance(raw, list):
        conf: Mapping[str, Any] = {"seats": raw}
    elif isinstance(raw, Mapping):
        conf = raw
    else:
        raise RuleViolation(
            '"fantasyland" is a list of seats, false, or settings like '
            '{"enabled": true, "stay": "rules-text", "seats": [1]}', rule="settings")
    unknown = set(conf) - {"enabled", "entry", "stay", "seats"}
    if unknown:
        raise RuleViolation(f'"fantasyland" does not take {", ".join(sorted(unknown))}',
                            rule="settings")
    enabled = conf.get("enabled", True)
    entry = conf.get("entry", "QQ")
    stay = conf.get("stay", "rules-text")
    chosen = conf.get("seats", [])
    if not isinstance(enabled, bool):
        raise RuleViolation('fantasyland "enabled" must be true or false', rule="settings")
    if entry not in ENTRY_RANKS:
        raise RuleViolation(f'fantasyland "entry" must be one of {", ".join(ENTRY_RANKS)}',
                            rule="settings")
    if stay not in STAY_RULES:
        raise RuleViolation(f'fantasyland "stay" must be one of {", ".join(STAY_RULES)}',
                            rule="settings")
    if not isinstance(chosen, list) or any(s not in seats for s in chosen):
        raise RuleViolation(f"fantasyland seats must be among the seats {list(seats)}",
                            rule="settings")
    if chosen and not enabled:
        raise RuleViolation("fantasyland is switched off at this table, yet seats are in it",
                            rule="settings")
    return Fantasyland(enabled=enabled, entry=entry, stay=stay), frozenset(chosen)
