"""The immutable state of one Markets poker hand.

The game counts in chips: the bids and the pot are in chips, the betting engine works in cents
(whole chips), and the settlement turns chips into cents with the chip's value (``chip``).
The product cards are dealt face down and typed only when shown: the state knows each seat's
disclosure, the supplier, the externalities, what is shown, and each card that is face up
(``known``), so no card can be typed twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.betting import BettingState
from dealer_assist.fees import FeePolicy

ADVANTAGE = "advantage"
DISCLOSE = "disclose"
SUPPLIER = "supplier"
EXTERNALITY = "externality"
BETTING = "betting"
AUCTION = "auction"
REPLACE = "replace"
SHOW = "show"
DRAW = "draw"
CHOOSE = "choose"
OVER = "over"

#: Below this many chips at the end of a hand, the game is over (ruling markets-1).
GAME_FLOOR = 12
#: The most a player puts in during one betting round, in chips (ruling markets-3).
ROUND_MAX = 5

_EMPTY: Mapping[int, Card] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Auction:
    """The supplier auction: the seats that may bid (still in, clockwise from the dealer's
    left), those that withdrew, the highest bid so far and whose turn it is (None: over)."""

    bidders: tuple[int, ...]
    withdrawn: frozenset[int] = frozenset()
    high: tuple[int, int] | None = None  # (seat, chips)
    turn: int | None = None
    bids: tuple[tuple[int, int | None], ...] = ()  # (seat, chips) or (seat, None): withdrew


@dataclass(frozen=True, slots=True)
class State:
    """The hand after some events.

    - ``order``: the seats clockwise from the dealer's left (the deal, the auction, the shows).
    - ``stacks_in``: each seat's chips when the hand began.
    - ``first``: the first hand of a game (every seat is dealt an advantage card).
    - ``advantage``: each seat's advantage card for this hand (carried in or dealt).
    - ``bet``: the betting engine's state, in cents (whole chips only).
    """

    seats: tuple[int, ...]
    dealer: int
    chip: int
    order: tuple[int, ...]
    stacks_in: Mapping[int, int]
    first: bool
    bet: BettingState
    phase: str
    advantage: Mapping[int, Card] = field(default_factory=lambda: _EMPTY)
    disclosed: Mapping[int, Card] = field(default_factory=lambda: _EMPTY)
    supplier: Card | None = None
    externalities: tuple[Card, ...] = ()
    auction: Auction | None = None
    replaced: Card | None = None
    shown: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    draws: tuple[tuple[int, ...], ...] = ()
    chosen: Mapping[int, Card] = field(default_factory=lambda: _EMPTY)
    known: frozenset[Card] = frozenset()
    #: The table's fee: a rake, a collection or a drop comes out of the pot at settlement.
    policy: FeePolicy | None = None
    #: The fees each seat paid from its stack before the deal.
    pre_fees: tuple[FeeLine, ...] = ()

    @property
    def live(self) -> tuple[int, ...]:
        """Seats still in, clockwise from the dealer's left."""
        return self.bet.live

    @property
    def folded(self) -> tuple[int, ...]:
        """Seats that folded, clockwise from the dealer's left."""
        live = set(self.live)
        return tuple(s for s in self.order if s not in live)

    @property
    def buyer(self) -> int | None:
        a = self.auction
        return a.high[0] if a is not None and a.turn is None and a.high is not None else None

    @property
    def price(self) -> int:
        a = self.auction
        return a.high[1] if a is not None and a.turn is None and a.high is not None else 0

    def behind(self, seat: int) -> int:
        """Chips ``seat`` has behind now (after its antes and bets)."""
        return self.bet.stacks[self.bet.index(seat)] // self.chip

    def to_deal_advantage(self) -> int | None:
        return next((s for s in self.order if s not in self.advantage), None)

    def to_disclose(self) -> int | None:
        return next((s for s in self.order if s not in self.disclosed), None)

    def to_show(self) -> int | None:
        return next((s for s in self.live if s not in self.shown), None)

    def to_choose(self) -> int | None:
        return next((s for s in self.folded if s not in self.chosen), None)

    def product_face_up(self, seat: int) -> tuple[Card, ...]:
        """The product cards of ``seat`` everyone can see: its disclosure (unless the buyer gave
        it up) and, for the buyer, the supplier."""
        out: list[Card] = []
        d = self.disclosed.get(seat)
        if d is not None and not (seat == self.buyer and self.replaced == d):
            out.append(d)
        if seat == self.buyer and self.replaced is not None and self.supplier is not None:
            out.append(self.supplier)
        return tuple(out)
