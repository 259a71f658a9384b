"""Ledger lines: every collection as a record the store keeps and the reports total.

A hand's fees come from its settlement (:func:`hand_ledger`); time collections come from the
time fold (:mod:`dealer_assist.fees.time`). Each line says what was taken, how much, from whom
(a seat, or ``None`` for money out of the pot), for which fund, and for which hand or period.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.engine.base import FeeLine
from dealer_assist.errors import BadInput
from dealer_assist.fees.policy import fund_of


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One collection. ``hand`` is set for hand fees, ``period`` for time collection."""

    kind: str
    amount: int
    from_seat: int | None
    fund: str
    hand: str | None = None
    period: int | None = None
    at: datetime | None = None
    table: str | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "amount": self.amount,
            "from": self.from_seat,
            "fund": self.fund,
            "hand": self.hand,
            "period": self.period,
            "at": self.at.isoformat() if self.at is not None else None,
            "table": self.table,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> LedgerLine:
        """Read a line written by :meth:`to_json`; :class:`BadInput` names what is wrong."""
        try:
            kind, amount, fund = obj["kind"], obj["amount"], obj["fund"]
        except KeyError as exc:
            raise BadInput(f"a ledger line needs {exc.args[0]!r}") from exc
        if not isinstance(kind, str) or not isinstance(fund, str):
            raise BadInput("a ledger line's kind and fund must be text")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise BadInput(f"a ledger line's amount must be whole cents, not {amount!r}")
        seat = obj.get("from")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise BadInput(f"a ledger line's seat must be a number, not {seat!r}")
        at_text = obj.get("at")
        try:
            at = datetime.fromisoformat(at_text) if at_text else None
        except (TypeError, ValueError) as exc:
            raise BadInput(f"a ledger line's time {at_text!r} is not an ISO date-time") from exc
        period = obj.get("period")
        return cls(
            kind=kind,
            amount=amount,
            from_seat=seat,
            fund=fund,
            hand=None if obj.get("hand") is None else str(obj["hand"]),
            period=period if isinstance(period, int) else None,
            at=at,
            table=None if obj.get("table") is None else str(obj["table"]),
            note=str(obj.get("note") or ""),
        )

    def fee_line(self) -> FeeLine:
        return FeeLine(self.kind, self.amount, self.from_seat, self.note)


def hand_ledger(
    fees: Iterable[FeeLine],
    *,
    hand: str,
    table: str | None = None,
    at: datetime | None = None,
) -> list[LedgerLine]:
    """A settled hand's fee lines as ledger lines for hand ``hand``."""
    return [
        LedgerLine(
            kind=f.kind,
            amount=f.amount,
            from_seat=f.from_seat,
            fund=fund_of(f.kind),
            hand=hand,
            at=at,
            table=table,
            note=f.note,
        )
        for f in fees
    ]


def fund_totals(lines: Iterable[LedgerLine]) -> dict[str, int]:
    """Cents per fund (``house``, ``jackpot``, ``promo``), for a shift report."""
    out: dict[str, int] = {}
    for line in lines:
        out[line.fund] = out.get(line.fund, 0) + line.amount
    return out


def kind_totals(lines: Iterable[LedgerLine]) -> dict[str, int]:
    """Cents per collection kind (``rake``, ``time``...)."""
    out: dict[str, int] = {}
    for line in lines:
        out[line.kind] = out.get(line.kind, 0) + line.amount
    return out
