"""Dicey Poker's immutable state: the settings of the hand, every seat's hole and face-up
cards, the pile and the discards, whose turn it is and what the last roll asks for, the wild
challenge under way, and the challenges already played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.games.carried_pot import NO_FEE, TableFee

_EMPTY: Mapping[int, int] = MappingProxyType({})

#: The steps of a roll: waiting for a roll; a match to put face up; five up: a swap or a chip;
#: a matching card to discard; any card to discard; the card drawn.
ROLL, PLACE, FIVE, DISCARD_MATCH, DISCARD_ANY, DRAW = (
    "roll", "place", "five", "discard_match", "discard_any", "draw")


@dataclass(frozen=True, slots=True)
class Settings:
    seats: tuple[int, ...]
    dealer: int
    target: int
    dice: str  # "app" or "table"
    entry: int  # cents each player puts in on the first hand of a game
    smallest_chip: int
    totals_in: Mapping[int, int]
    carry_in: int
    #: Clockwise from the dealer's left, the dealer last: the deal and every round.
    order: tuple[int, ...]
    deck: Mapping[Card, int]
    jokers: int
    #: The table's fee: before the deal, or out of the entries when they go in (fees ruling).
    fee: TableFee = NO_FEE

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def first_hand(self) -> bool:
        """The first hand of a game, when the entries go in."""
        return not any(self.totals_in.values())


@dataclass(frozen=True, slots=True)
class FaceUp:
    card: Card
    chipped: bool = False


@dataclass(frozen=True, slots=True)
class Challenge:
    """A wild challenge: the challenger, everyone from them clockwise, and each one's
    percentile rolls so far; ``at`` is the index of the player rolling."""

    challenger: int
    order: tuple[int, ...]
    rolls: tuple[tuple[int, ...], ...] = ()
    at: int = 0
    winner: int | None = None

    def total(self, i: int) -> int:
        return sum(self.rolls[i]) if i < len(self.rolls) else 0

    def current_rolls(self) -> tuple[int, ...]:
        return self.rolls[self.at] if self.at < len(self.rolls) else ()

    def least_rolls(self) -> int:
        """Twice for a player who follows only players who went over; else once."""
        if self.at > 0 and all(self.total(i) > 100 for i in range(self.at)):
            return 2
        return 1

    def to_json(self) -> dict[str, object]:
        return {"challenger": self.challenger,
                "rolls": {str(s): list(self.rolls[i]) for i, s in enumerate(self.order)
                          if i < len(self.rolls)},
                "winner": self.winner}


@dataclass(frozen=True, slots=True)
class DiceyState:
    settings: Settings
    hole: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    up: Mapping[int, tuple[FaceUp, ...]] = field(default_factory=dict)
    pile: Mapping[Card, int] = field(default_factory=dict)
    discards: tuple[Card, ...] = ()
    #: Seats dealt so far (in the order of the deal).
    dealt: int = 0
    round: int = 1
    turn: int = 0
    #: Whether the turn began with fewer than five face up (the base and face dice).
    two_rolls: bool = True
    rolled: tuple[str, ...] = ()
    roll: tuple[str, int] | None = None
    #: The hole cards that match the roll being played (as they were when it was rolled).
    match: tuple[Card, ...] = ()
    step: str = ROLL
    #: A card that starts a wild challenge was placed in this roll.
    trigger: bool = False
    challenge: Challenge | None = None
    #: The challenge winner who rolls the wild die, then one who won a joker on it.
    wild: int | None = None
    joker_due: int | None = None
    jokers_taken: int = 0
    challenges: tuple[Challenge, ...] = ()
    #: The first of the last two rounds, once every player has five chipped face-up cards.
    final_from: int | None = None
    over: bool = False
    #: Each seat's score for the round, worked out once when the hand ends.
    scores: Mapping[int, Mapping[str, Any]] | None = None

    @property
    def dealing(self) -> bool:
        return self.dealt < len(self.settings.order)

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        return self.settings.order[self.turn]

    def face_up(self, seat: int) -> tuple[FaceUp, ...]:
        return self.up.get(seat, ())

    def jokers_of(self, seat: int) -> int:
        return sum(1 for f in self.face_up(seat) if f.card.is_joker)

    def all_chipped(self, seat: int) -> bool:
        ups = self.face_up(seat)
        return len(ups) == 5 and all(f.chipped for f in ups)

    @property
    def in_last_rounds(self) -> bool:
        return self.final_from is not None and self.round >= self.final_from
