"""What the trick games whose pot carries from hand to hand (Rams, Preference) share around the
tricks: the start they read (the seats, the dealer, the stake, the pot carried in, the revoke
setting and the table's fee), the start and the card play of their sample hands, and the
:class:`Game` methods that are the same for both."""

from __future__ import annotations

import random
import types
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, TypeVar

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
from dealer_assist.engine.base import FeeLine, Game, PushStep, Settlement
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Event, Start
from dealer_assist.games.carried_pot import Collected, TableFee, table_fee
from dealer_assist.games.tricks import REVOKE_CHOICES, Tricks, legal_cards
from dealer_assist.money import format_cents

#: The start settings of a hand (beside the fee and the smallest chip).
KEYS = ("dealer", "pot_in", "stake", "revoke")
#: What a sample hand may be asked for.
SAMPLE_KEYS = frozenset({*KEYS, "fee", "smallest_chip"})


@dataclass(frozen=True, slots=True)
class Opening:
    """A hand's start, read: ``order`` is the seats clockwise from the dealer's left, the
    dealer last."""

    seats: tuple[int, ...]
    dealer: int
    stake: int
    pot_in: int
    revoke: str
    order: tuple[int, ...]
    fee: TableFee


def read_opening(event: Start, *, low: int, high: int) -> Opening:
    """The start of a hand of ``low`` to ``high`` players, refused in the dealer's words when a
    setting is unknown or wrong. The fee's smallest chip is the stake unless the table names
    one."""
    read.only(event, KEYS)
    seats = read.seats_between(event, low=low, high=high)
    dealer = read.button(event, seats, "dealer")
    stake = read.cents(event.get("stake", 100), "stake", low=1)
    pot_in = read.cents(event.get("pot_in", 0), "pot_in")
    revoke = event.get("revoke", "floor")
    if revoke not in REVOKE_CHOICES:
        raise RuleViolation(f'"revoke" must be "floor" (the hand is settled as played and the '
                            f'floor decides), not {revoke!r}', rule="settings")
    return Opening(seats=seats, dealer=dealer, stake=stake, pot_in=pot_in, revoke=str(revoke),
                   order=from_left(seats, dealer),
                   fee=table_fee(event, seats, dealer, smallest_chip=stake))


def sample_start(game: str, *, players: int, stake: int = 100, pot_in: int = 0,
                 dealer: int | None = None, revoke: str | None = None,
                 fee: dict[str, Any] | None = None, smallest_chip: int | None = None) -> Start:
    """A sample hand's start: seats 1 to ``players``, the last one dealing unless told."""
    seats = tuple(range(1, players + 1))
    params: dict[str, Any] = {"dealer": seats[-1] if dealer is None else dealer,
                              "stake": stake, "pot_in": pot_in}
    for key, value in (("revoke", revoke), ("fee", fee), ("smallest_chip", smallest_chip)):
        if value is not None:
            params[key] = value
    return Start(game=game, seats=seats, params=types.MappingProxyType(params))


class TrickHand(Protocol):
    """What the shared code reads of a Rams or Preference hand."""

    @property
    def pot_in(self) -> int: ...
    @property
    def fees(self) -> tuple[FeeLine, ...]: ...
    @property
    def tricks(self) -> Tricks | None: ...
    @property
    def over(self) -> bool: ...


H = TypeVar("H", bound=TrickHand)


def play_out(state: H, hands: Mapping[int, list[Card]], rng: random.Random,
             step: Callable[[H, Event], H], events: list[Event]) -> H:
    """A sample hand's tricks: each player in turn a random legal card from its hand, each
    card appended to ``events``."""
    while not state.over:
        assert state.tricks is not None
        nxt = state.tricks.to_play()
        assert nxt is not None
        card = rng.choice(legal_cards(state.tricks, nxt, hands[nxt]))
        hands[nxt].remove(card)
        events.append(CardDealt(seat=nxt, card=card))
        state = step(state, events[-1])
    return state


def with_fees(put_in: dict[int, int], fees: tuple[FeeLine, ...]) -> dict[int, int]:
    """``put_in`` with the fees each seat paid before the deal added."""
    for f in fees:
        if f.from_seat is not None:
            put_in[f.from_seat] = put_in.get(f.from_seat, 0) + f.amount
    return put_in


class Payments:
    """A settlement being written: what each seat put in (the antes and the fees before the
    deal to begin with), what is pushed to it, and the dealer's steps in order."""

    def __init__(self, put_in: dict[int, int]) -> None:
        self.put_in = put_in
        self.payouts: dict[int, int] = {}
        self.steps: list[PushStep] = []

    def push(self, text: str, amount: int, to: int | None, kind: str = "push") -> None:
        """A step; a ``push`` to a seat is paid to it."""
        self.steps.append(PushStep(len(self.steps) + 1, text, amount, to, kind))
        if to is not None and kind == "push":
            self.payouts[to] = self.payouts.get(to, 0) + amount

    def owes(self, seat: int, amount: int) -> None:
        """``seat`` puts ``amount`` more in (a payment into the pot or to another player)."""
        self.put_in[seat] = self.put_in.get(seat, 0) + amount

    def settlement(self, *, carry_in: int, before_deal: tuple[FeeLine, ...], got: Collected,
                   extra: Mapping[str, Any]) -> Settlement:
        """The settlement, the fees before the deal as the last steps; chips conserved."""
        for f in before_deal:
            self.push(f"House {f.kind} of {format_cents(f.amount)} from seat {f.from_seat}",
                      f.amount, None, "fee")
        return Settlement(put_in=self.put_in, payouts=self.payouts, carry_in=carry_in,
                          carry_out=got.carry, fees=before_deal + got.fees,
                          steps=tuple(self.steps), extra=dict(extra)).require_conserved()


def tricks_report(t: Tricks | None) -> dict[str, Any]:
    """The report's tricks: each trick, the tricks each seat won, the revokes found."""
    return {
        "tricks": [x.to_json() for x in t.done] if t else [],
        "tricks_won": {str(s): n for s, n in t.won().items()} if t else {},
        "revokes": [r.to_json() for r in t.revokes] if t else [],
    }


def money_report(s: Settlement) -> dict[str, Any]:
    """The report's money of a finished hand: pushed to, put in by, and the next pot."""
    return {
        "payouts": {str(k): v for k, v in sorted(s.payouts.items())},
        "pays": {str(k): v for k, v in sorted(s.put_in.items())},
        "carry": s.carry_out,
    }


def played_lines(event: CardDealt, before: Tricks | None, after: Tricks | None) -> list[str]:
    """A card played, in words, with the revokes it shows and the trick it ends."""
    lines = [f"seat {event.seat} plays {event.card.pretty}"]
    if before is not None and after is not None:
        lines.extend(r.text() for r in after.revokes[len(before.revokes):])
    return lines


def trick_won_line(before: Tricks | None, after: Tricks | None) -> list[str]:
    """"trick 3 to seat 2" when the card ended a trick."""
    if before is not None and after is not None and len(after.done) > len(before.done):
        return [f"trick {len(after.done)} to seat {after.done[-1].winner}"]
    return []


class PotTrickGame(Game[H]):
    """The :class:`Game` methods Rams and Preference share: a hand is over when its state says
    so; the pot carried in is the start's; every card the app records is played face up (the
    dealer's discard for the trump card and the talon's discards are the house's record); a
    seat holds the cards it has yet to play; sample hands take :data:`SAMPLE_KEYS`."""

    has_button: ClassVar[bool] = True
    start_keys: ClassVar[tuple[str, ...]] = ("button", "carry_in")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"button": "dealer", "carry_in": "pot_in"})

    def is_over(self, state: H) -> bool:
        return state.over

    def carried_in(self, state: H) -> int:
        return state.pot_in

    def secret_seats(self, state: H) -> frozenset[int]:
        return frozenset()

    def held(self, state: H, seat: int) -> int:
        t = state.tricks
        if t is None or seat not in t.order or state.over:
            return 0
        return t.left_in_hand(seat)

    @abstractmethod
    def antes(self, state: H) -> dict[int, int]:
        """What each seat put into the pot at the start of the hand."""

    def contributions(self, state: H) -> dict[int, int]:
        """The antes and the fees before the deal."""
        return with_fees(self.antes(state), state.fees)

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - SAMPLE_KEYS)
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return self.sample(rng, players=players, **given)

    @abstractmethod
    def sample(self, rng: random.Random, *, players: int, **params: Any) -> list[Event]:
        """One sample hand (the game's own strategy)."""
