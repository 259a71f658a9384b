"""The immutable state of one hand of Champs and Cowards, and the table settings it starts from."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.deck import MAX_DECKS, DeckSpec, Shoe
from dealer_assist.engine import start as start_settings
from dealer_assist.engine.evolve import builder, evolver, replaced
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import FeeContext, FeeLine, FeePolicy, pre_deal_fees
from dealer_assist.fees.table import table_policy
from dealer_assist.games.champs_and_cowards.rules import (
    ANTE_CHIPS,
    CHAMP_CHIPS,
    hand_key,
    hand_points,
)

#: A seat still to act, or acting (not stopped, not destroyed).
LIVE = "live"
#: Stopped and ranked among the first three.
STANDING = "standing"
#: A champ's card followed the suit of the card before it or paired an earlier card.
DESTROYED = "destroyed"
#: Stopped, but ranked below third at the moment it stopped.
VOLUNTARILY = "voluntarily_destroyed"
#: Stood, then was pushed below third by a later stop.
DEALER = "dealer_destroyed"
#: Statuses whose hand is turned face down and wins nothing.
FACE_DOWN = frozenset({DESTROYED, VOLUNTARILY, DEALER})

SETTINGS = ("chip", "decks", "carry_in", "fee", "smallest_chip")


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's hand. ``returned`` counts its first cards already shuffled back into the stub
    (only destroyed hands are ever reshuffled)."""

    seat: int
    cards: tuple[Card, ...] = ()
    champs: int = 0
    status: str = LIVE
    reason: str = ""
    returned: int = 0

    @property
    def points(self) -> int:
        return hand_points(self.cards)

    @property
    def face_down(self) -> bool:
        return self.status in FACE_DOWN


@dataclass(frozen=True, slots=True)
class CCState:
    """A hand of Champs and Cowards between two events.

    ``order`` is empty until every up card is dealt; ``turn`` indexes it. ``pending`` means the
    acting seat has paid for a card that is not dealt yet; ``burn_owed`` that its burn card is still
    to come (the stub was empty when it said champ). ``news`` lists the hands the last event turned
    face down, with why, for the dealer's instructions.
    """

    seats: tuple[int, ...]
    chip: int
    decks: int
    carry_in: int
    smallest_chip: int
    fee: FeePolicy | None
    pre_fees: tuple[FeeLine, ...]
    shoe: Shoe
    hands: tuple[SeatHand, ...]
    order: tuple[int, ...] = ()
    turn: int = 0
    pending: bool = False
    burn_owed: bool = False
    champ_pool: int = 0
    over: bool = False
    exhausted: bool = False
    news: tuple[tuple[int, str], ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def bonus_pool(self) -> int:
        """Champ payments this hand plus the carry-in from the last hand."""
        return self.champ_pool + self.carry_in

    @property
    def champs(self) -> int:
        return sum(h.champs for h in self.hands)

    @property
    def dealing(self) -> bool:
        """True while up cards are still being dealt."""
        return not self.order

    def hand(self, seat: int) -> SeatHand:
        return self.hands[self.seats.index(seat)]

    def index(self, seat: int) -> int:
        return self.seats.index(seat)

    def with_hand(self, new: SeatHand) -> CCState:
        return evolve_state(self, hands=swap_hand(self.hands, self.seats.index(new.seat), new))

    @property
    def next_up_card(self) -> int | None:
        """The seat whose up card comes next, while dealing."""
        return next_up_card_of(self.hands)

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        if self.dealing:
            return self.next_up_card
        return self.order[self.turn]

    @property
    def last_to_act(self) -> int | None:
        return self.order[-1] if self.order else None

    def standing(self) -> list[SeatHand]:
        """Standing hands, best first."""
        return standing_of(self.seats, self.hands)

    def reshuffle_pool(self) -> list[Card]:
        """Known cards a reshuffle returns: every destroyed hand's cards not yet shuffled back."""
        return reshuffle_pool_of(self.hands)

    @property
    def available(self) -> int:
        """Cards that can still come: the stub, plus what a reshuffle would return."""
        return self.shoe.left + len(self.reshuffle_pool()) + self.shoe.burned

    def holders(self, card: Card) -> Iterator[int]:
        """Seats showing ``card`` that has not gone back into the stub."""
        return holders_of(self.hands, card)

    def put_in(self, seat: int) -> int:
        """Everything the seat put on the table: the six-chip ante, champ payments, fees."""
        h = self.hand(seat)
        fee = sum(f.amount for f in self.pre_fees if f.from_seat == seat)
        return (ANTE_CHIPS + CHAMP_CHIPS * h.champs) * self.chip + fee


#: What the state's questions read off its seats and hands, the same for the hand being worked
#: on in place while events are applied (:class:`~dealer_assist.games.champs_and_cowards.play.
#: CCWork`), so the two can never answer differently.


def next_up_card_of(hands: Sequence[SeatHand]) -> int | None:
    """The seat whose up card comes next (the first without a card), while dealing."""
    for h in hands:
        if not h.cards:
            return h.seat
    return None


def standing_of(seats: Sequence[int], hands: Sequence[SeatHand]) -> list[SeatHand]:
    """Standing hands, best first."""
    standing = [h for h in hands if h.status == STANDING]
    return sorted(standing, key=lambda h: hand_key(h.cards, seats.index(h.seat)), reverse=True)


def reshuffle_pool_of(hands: Sequence[SeatHand]) -> list[Card]:
    """Known cards a reshuffle returns: every destroyed hand's cards not yet shuffled back."""
    return [c for h in hands if h.face_down for c in h.cards[h.returned :]]


def holders_of(hands: Sequence[SeatHand], card: Card) -> Iterator[int]:
    """Seats showing ``card`` that has not gone back into the stub."""
    for h in hands:
        for c in h.cards[h.returned :]:
            if c == card:
                yield h.seat


#: ``dataclasses.replace`` for the two records, without its per-call cost (a replay rebuilds the
#: state for every event).
evolve_hand = evolver(SeatHand)
evolve_state = evolver(CCState)
#: ``SeatHand(...)`` and ``CCState(...)`` likewise (every replay starts a hand).
_new_hand = builder(SeatHand)
_new_state = builder(CCState)
_fee_context = builder(FeeContext)


#: ``hands`` with the ``i``-th one replaced by ``new``: ``swap_hand(hands, i, new)``.
swap_hand = replaced


#: (the shared reader of whole-number start settings)
_whole = start_settings.whole


_SETTINGS = frozenset(SETTINGS)


@functools.lru_cache(maxsize=MAX_DECKS)
def _deck_spec(decks: int) -> DeckSpec:
    """The (immutable) shoe of ``decks`` whole decks, one object for every hand that uses it."""
    return DeckSpec(decks=decks)


def start_state(start: Start) -> CCState:
    """Read and check the table settings; the state before the first up card."""
    if not _SETTINGS.issuperset(start.params):
        unknown = sorted(set(start.params) - _SETTINGS)
        raise RuleViolation(
            f'Champs and Cowards does not take {", ".join(unknown)} '
            f'(settings: {", ".join(SETTINGS)})'
        )
    seats = tuple(start.seats)
    if len(seats) < 3:
        raise RuleViolation(f"Champs and Cowards needs at least 3 players, not {len(seats)}")
    bad = [s for s in seats if s <= 0]
    if bad:
        raise RuleViolation(f"seat numbers must be 1 or more, not {bad[0]}")
    if len(set(seats)) != len(seats):
        dup = sorted({s for s in seats if seats.count(s) > 1})
        raise RuleViolation(f"seat {dup[0]} is listed twice: list each seat once, clockwise")
    chip = _whole(start, "chip", None, low=1, what="the chip value in cents, e.g. 200 for $2")
    decks = _whole(start, "decks", 1, low=1, what=f"decks in the shoe, 1 to {MAX_DECKS}")
    if decks > MAX_DECKS:
        raise RuleViolation(f'"decks" must be 1 to {MAX_DECKS}, not {decks}')
    carry_in = _whole(start, "carry_in", 0, low=0, what="cents carried into the bonus pool")
    smallest = _whole(start, "smallest_chip", chip, low=1, what="the smallest chip in cents")
    spec = _deck_spec(decks)
    if len(seats) > spec.size:
        raise RuleViolation(
            f"{len(seats)} players need more up cards than a {spec.size}-card shoe holds"
        )
    try:
        policy = table_policy(start)
        pre = pre_deal_fees(policy, _fee_context(seats=seats, smallest_chip=smallest))
    except DealerAssistError as exc:
        raise RuleViolation(f"the table's fee: {exc}") from exc
    return _new_state(
        seats=seats,
        chip=chip,
        decks=decks,
        carry_in=carry_in,
        smallest_chip=smallest,
        fee=policy,
        pre_fees=tuple(pre),
        shoe=Shoe.new(spec),
        hands=tuple([_new_hand(s) for s in seats]),
    )
