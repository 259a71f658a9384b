"""The lines a shift or day report lists: hands, voids, stack changes, reveals, disputes, fund
moves and adjustments, and the totals worked out from them (fees by kind, fees per hour).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from dealer_assist.reports.data.records import FeeTotal, Record, is_fund_kind


@dataclass(frozen=True, slots=True)
class HandLine(Record):
    """One hand in a shift: the line a regulator reads to follow the money hand by hand.

    ``put_in`` is every cent the players put in; ``carry_in``/``carry_out`` come from and go to
    the neighbouring hands; ``pushed`` is paid to players; ``fees`` go to the house or a fund.
    """

    hand_id: int
    number: int
    started_at: datetime
    ended_at: datetime | None
    seats: tuple[int, ...]
    put_in: int
    carry_in: int
    pushed: int
    carry_out: int
    fees: tuple[FeeTotal, ...] = ()
    winners: tuple[tuple[int, int], ...] = ()
    status: str = "settled"
    voids: int = 0
    disputed: bool = False
    revealed: bool = False
    #: Called off as a misdeal: every chip went back to the seat that put it in (no winners).
    misdeal: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def pot(self) -> int:
        """Everything on the table this hand: what the players put in plus the carry-in."""
        return self.put_in + self.carry_in

    @property
    def house_fee(self) -> int:
        return sum(f.amount for f in self.fees if not f.fund)

    @property
    def fund_drop(self) -> int:
        return sum(f.amount for f in self.fees if f.fund)

    @property
    def fee(self) -> int:
        return sum(f.amount for f in self.fees)

    @property
    def raked_from(self) -> int:
        """The pot a rake or collection was taken from (the chips called; 0: none taken)."""
        return max((f.base for f in self.fees), default=0)

    @property
    def conserved(self) -> bool:
        return self.pot == self.pushed + self.carry_out + self.fee


@dataclass(frozen=True, slots=True)
class VoidLine(Record):
    """A correction: an event voided, why, by whom and (after the hand) who approved it.

    A voided seat or period mark has no hand (``hand_number`` None); ``what`` names the mark
    and the money its void moved ("mark 4, period 2; gave back $10")."""

    hand_number: int | None
    at: datetime
    actor: str
    target: int
    reason: str
    approved_by: str = ""
    what: str = ""


@dataclass(frozen=True, slots=True)
class StackChange(Record):
    """What a hand started with other than what the last hand left it, from the ``stacks``
    audit entry: a rebuy (the dealer's), or chips taken off while a pot carries, a carry-in
    changed or a new game, which a floor person approved (``approved_by``)."""

    hand_number: int
    at: datetime
    by: str
    changes: str
    approved_by: str = ""


@dataclass(frozen=True, slots=True)
class RevealLine(Record):
    """A reveal of hidden cards: who, when, the reason they gave, and after which event of
    the hand (0: not known)."""

    hand_number: int
    at: datetime
    by: str
    reason: str = ""
    after_event: int = 0


@dataclass(frozen=True, slots=True)
class DisputeNote(Record):
    at: datetime
    by: str
    text: str


@dataclass(frozen=True, slots=True)
class DisputeLine(Record):
    """A dispute on a hand: its notes, the ruling, who ruled and the money it moved."""

    dispute_id: int
    hand_number: int
    opened_at: datetime
    opened_by: str
    notes: tuple[DisputeNote, ...] = ()
    ruling: str = ""
    ruled_by: str = ""
    ruled_at: datetime | None = None
    adjustments: tuple[tuple[int | None, int, str], ...] = ()

    @property
    def status(self) -> str:
        return "ruled" if self.ruling else "open"


@dataclass(frozen=True, slots=True)
class FundMove(Record):
    """A hand's movement of the fund that carries between hands (a bonus pool, a carried pot):
    the balance carried in, the change, and the balance it carried out."""

    hand_number: int
    at: datetime
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class FundBalance(Record):
    """A carried fund over a span of hands (a table's shift or day): opening balance (carried
    into the first hand), what the hands paid in and out of it, closing balance (carried out of
    the last hand). ``moves`` are the hands that touched it."""

    table: str
    shift_id: int | None
    opening: int
    closing: int
    moves: tuple[FundMove, ...] = ()

    @property
    def paid_in(self) -> int:
        return sum(m.change for m in self.moves if m.change > 0)

    @property
    def paid_out(self) -> int:
        return -sum(m.change for m in self.moves if m.change < 0)

    @property
    def continuous(self) -> bool:
        """Each hand carried in what the one before carried out (else the balance jumps)."""
        return self.opening + self.paid_in - self.paid_out == self.closing


def fund_balance(table: str, shift_id: int | None, hands: Iterable[HandLine]
                 ) -> FundBalance | None:
    """The carried fund over ``hands`` (None when no hand carried anything)."""
    done = [h for h in hands if h.status != "unfinished"]
    if not done or not any(h.carry_in or h.carry_out for h in done):
        return None
    moves = tuple(FundMove(h.number, h.ended_at or h.started_at, h.carry_in, h.carry_out)
                  for h in done if h.carry_in or h.carry_out)
    return FundBalance(table, shift_id, done[0].carry_in, done[-1].carry_out, moves)


@dataclass(frozen=True, slots=True)
class AdjustmentLine(Record):
    """Money a dispute ruling moved outside a hand's settlement: to a seat (``seat``) or
    from/to the house (``seat`` None); positive is paid to that side."""

    table: str
    hand_number: int
    dispute_id: int
    seat: int | None
    amount: int
    note: str = ""


def fees_by_kind(lines: Iterable[FeeTotal]) -> tuple[FeeTotal, ...]:
    """Sum fee lines by kind (house kinds first, then funds, each alphabetical)."""
    amounts: dict[str, int] = {}
    counts: dict[str, int] = {}
    bases: dict[str, int] = {}
    for f in lines:
        amounts[f.kind] = amounts.get(f.kind, 0) + f.amount
        counts[f.kind] = counts.get(f.kind, 0) + max(f.count, 1)
        bases[f.kind] = bases.get(f.kind, 0) + f.base
    order = sorted(amounts, key=lambda k: (is_fund_kind(k), k))
    return tuple(FeeTotal(k, amounts[k], counts[k], bases[k]) for k in order)


def fees_per_hour(
    hands: tuple[HandLine, ...], start: datetime, end: datetime | None,
    extra: Iterable[tuple[datetime, int]] = (),
) -> tuple[tuple[datetime, int], ...]:
    """Every clock hour from the shift's start to its end (or last hand), with its fees;
    ``extra`` adds collections outside hands (time collections) at their times."""
    more = list(extra)
    if not hands and not more and end is None:
        return ()
    first = start.replace(minute=0, second=0, microsecond=0)
    times = [h.ended_at or h.started_at for h in hands]
    last_time = max([*times, *(t for t, _ in more), *([end] if end else []), start])
    buckets: dict[datetime, int] = {}
    t = first
    while t <= last_time:
        buckets[t] = 0
        t += timedelta(hours=1)
    for h, when in zip(hands, times, strict=True):
        key = when.replace(minute=0, second=0, microsecond=0)
        buckets[key] = buckets.get(key, 0) + h.fee
    for when, amount in more:
        key = when.replace(minute=0, second=0, microsecond=0)
        buckets[key] = buckets.get(key, 0) + amount
    return tuple(sorted(buckets.items()))

