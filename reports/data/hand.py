"""The hand history and dispute report's records: the events, the table after key steps, the
settlement and the ledger of one hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.reports.data.lines import DisputeLine, RevealLine
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    Generated,
    Record,
    Signature,
)


@dataclass(frozen=True, slots=True)
class EventLine(Record):
    """One stored event of a hand as the history prints it."""

    n: int
    seq: int
    at: datetime
    actor: str
    kind: str
    text: str
    voided: bool = False
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class SeatLine(Record):
    """A seat in a snapshot. ``face_down`` cards are unknown to the app at that point (not yet
    shown); ``withheld`` cards are known but kept out of the report (a turned-down hand)."""

    seat: int
    cards: tuple[str, ...]
    face_down: int = 0
    status: str = ""
    detail: str = ""
    put_in: int = 0
    revealed: bool = False
    withheld: int = 0


@dataclass(frozen=True, slots=True)
class Snapshot(Record):
    """The table after a key step of the hand (a phase change, or the end)."""

    after_event: int
    label: str
    seats: tuple[SeatLine, ...]
    board: tuple[str, ...] = ()
    pots: tuple[tuple[str, int], ...] = ()
    info: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SettlementData(Record):
    """A hand's settlement as the engine re-derives it by replay."""

    put_in: Mapping[int, int]
    payouts: Mapping[int, int]
    carry_in: int
    carry_out: int
    #: (kind, amount, paying seat or None, how it was worked out: "5% of $178.25, capped...")
    fees: tuple[tuple[str, int, int | None, str], ...]
    steps: tuple[tuple[int, str, int], ...]

    @property
    def total_in(self) -> int:
        return sum(self.put_in.values()) + self.carry_in

    @property
    def total_out(self) -> int:
        return sum(self.payouts.values()) + self.carry_out + sum(f[1] for f in self.fees)

    @property
    def conserved(self) -> bool:
        return self.total_in == self.total_out


@dataclass(frozen=True, slots=True)
class LedgerEntry(Record):
    kind: str
    amount: int
    seat: int | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class HandReport(Record):
    """Hand history (and, with disputes, the dispute report) of one hand.

    ``revealed`` is set only when a floor member authorised showing destroyed or folded hands;
    then those cards appear and are marked as revealed. Otherwise they are withheld.
    """

    cardroom: str
    table: str
    game: str
    hand_id: int
    number: int
    shift_id: int | None
    started_at: datetime
    ended_at: datetime | None
    dealer: str
    events: tuple[EventLine, ...]
    snapshots: tuple[Snapshot, ...]
    settlement: SettlementData | None
    ledger: tuple[LedgerEntry, ...]
    disputes: tuple[DisputeLine, ...]
    chain: ChainCheck
    generated: Generated
    signatures: tuple[Signature, ...]
    revealed: RevealLine | None = None
    exceptions: tuple[ExceptionLine, ...] = ()

    @property
    def is_dispute_report(self) -> bool:
        return bool(self.disputes) or self.revealed is not None

    @property
    def title(self) -> str:
        return "Dispute report" if self.is_dispute_report else "Hand history"

