"""Rams' state: the turned card, the declarations from the dealer's left, the dealer taking the
trump card, and the five tricks (``games/tricks``); the rules are ``play.py``'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.events import Start
from dealer_assist.games.carried_pot import NO_FEE, TableFee
from dealer_assist.games.tricks import TrickRules, Tricks
from dealer_assist.games.tricks.table import read_opening

NAME = "rams"
#: Counters: the dealer's ante, the least pot a player may pass with (more than this), a
#: payment (the redeal, a player in without a trick, Rams won or lost, to each).
ANTE = 5
PASS_ABOVE = 5
PAYMENT = 5
TRICKS = 5
RULES = TrickRules(head=True, tag="rams-3")


@dataclass(frozen=True, slots=True)
class RamsState:
    seats: tuple[int, ...]
    dealer: int
    stake: int
    pot_in: int
    #: The declarations' order: from the dealer's left, the dealer last.
    order: tuple[int, ...]
    revoke: str = "floor"
    #: The table's fee (a rake or a collection is taken at settlement, fees ruling).
    fee: TableFee = NO_FEE
    #: The fees paid before the deal.
    fees: tuple[FeeLine, ...] = ()
    turned: Card | None = None
    #: Seat -> its declaration (``play``, ``pass``, ``widow``, ``rams``).
    said: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    widow_by: int | None = None
    rams_by: int | None = None
    gave: Card | None = None
    tricks: Tricks | None = None

    # --- derived ----------------------------------------------------------------------------
    @property
    def ante(self) -> int:
        return ANTE * self.stake

    @property
    def pot(self) -> int:
        """The pot played for: carried in plus this hand's ante."""
        return self.pot_in + self.ante

    @property
    def may_pass(self) -> bool:
        return self.pot > PASS_ABOVE * self.stake and self.rams_by is None

    @property
    def redeal(self) -> bool:
        """Everyone before the dealer passed: the hand ends."""
        return all(self.said.get(s) == "pass" for s in self.order[:-1])

    @property
    def to_declare(self) -> int | None:
        if self.turned is None or self.redeal:
            return None
        return next((s for s in self.order if s not in self.said), None)

    @property
    def declared(self) -> bool:
        # (to_declare is None and no redeal: every seat has said, asked once per card played)
        if self.turned is None or self.redeal:
            return False
        said = self.said
        return all(s in said for s in self.order)

    def players_in(self) -> tuple[int, ...]:
        """The seats that play the tricks, from the dealer's left."""
        if self.rams_by is not None:
            return self.order
        return tuple(s for s in self.order if self.said.get(s) in ("play", "widow", "rams"))

    def others_in(self) -> tuple[int, ...]:
        return tuple(s for s in self.order[:-1]
                     if self.said.get(s) in ("play", "widow", "rams"))

    @property
    def dealer_alone_with_one(self) -> bool:
        """Exactly one other player in, no Rams: the dealer must play (and may take the
        trump card)."""
        return self.rams_by is None and len(self.others_in()) == 1

    @property
    def rams_lost(self) -> bool:
        t = self.tricks
        return (self.rams_by is not None and t is not None
                and any(x.winner != self.rams_by for x in t.done))

    @property
    def over(self) -> bool:
        t = self.tricks
        if t is None:
            return self.redeal
        return t.over or self.rams_lost

    def may_take_trump(self) -> str | None:
        """Why the dealer may not take the turned card now (None: may)."""
        if not self.declared or self.tricks is None:
            return "the dealer takes the trump card once everyone has declared"
        if self.gave is not None:
            return "the dealer has already taken the trump card"
        if self.said.get(self.dealer) not in ("play", "widow") or not self.dealer_alone_with_one:
            return ("the dealer may take the trump card only when one other player plays "
                    "(ruling rams-2)")
        if self.tricks.done or self.tricks.current is not None:
            return "the first card has been led: too late to take the trump card"
        return None


def start_state(event: Start) -> RamsState:
    o = read_opening(event, low=3, high=5)
    return RamsState(seats=o.seats, dealer=o.dealer, stake=o.stake, pot_in=o.pot_in,
                     order=o.order, revoke=o.revoke, fee=o.fee, fees=o.fee.before_deal)
