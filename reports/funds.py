"""The jackpot and promotional funds over a report's period: opening balance, the drops in by
table, payouts out, closing balance, and the carry from the report that closed the fund before.

A fund (``jackpot``, ``promo``) is the room's: every table's drop into it is a ledger line of
the hand it was collected in. Its balance at a time is every drop recorded before then; the app
records no payout from a fund (a jackpot is paid, and recorded, outside it), so "out" is always
zero and the closing balance is the balance before any payout. Each report that shows a fund
writes its closing balance into its audit entry (``fund jackpot closed 1234 at <time>``); the
next report checks that the records still give that balance at that time (a mismatch means
drops before it were changed since) and says what was dropped between that time and its own
opening (a span no report showed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.fees import LINE_FUNDS, fund_of
from dealer_assist.money import format_cents
from dealer_assist.reports.data.records import ExceptionLine, Record
from dealer_assist.reports.source import ledgers
from dealer_assist.reports.sql import sql_source
from dealer_assist.services.chain import utc
from dealer_assist.services.model import HandFilter
from dealer_assist.services.reads import Reads

#: What the reports say about payouts out of a fund.
PAYOUTS_NOT_RECORDED = ("payouts are not recorded by the app (a jackpot or promotion is paid "
                        "and recorded outside it): out is $0 and the closing balance is before "
                        "any payout")

_CLOSED = re.compile(r"\bfund (\w+) closed (-?\d+) at (\S+?)(?:[;,]|$)")


@dataclass(frozen=True, slots=True)
class FundDrop(Record):
    """One table's drops into a fund in the period: cents, and in how many hands."""

    table: str
    amount: int
    hands: int


@dataclass(frozen=True, slots=True)
class DropFund(Record):
    """A jackpot or promotional fund over ``[since, until)``."""

    fund: str
    since: datetime
    until: datetime
    opening: int
    drops: tuple[FundDrop, ...]
    paid_out: int
    closing: int

    @property
    def dropped(self) -> int:
        return sum(d.amount for d in self.drops)

    @property
    def balanced(self) -> bool:
        """Closing = opening + drops in - payouts out."""
        return self.closing == self.opening + self.dropped - self.paid_out

    def logged(self) -> str:
        """For the report's audit entry: the closing balance the next report checks."""
        return f"fund {self.fund} closed {self.closing} at {utc(self.until).isoformat()}"


@dataclass(frozen=True, slots=True)
class _Drop:
    fund: str
    table_id: int
    hand_id: int
    at: datetime
    amount: int


def _drops(store: Reads, until: datetime) -> list[_Drop]:
    """Every fund drop recorded in a hand started before ``until``, by the hand's start: one
    query on the database store, whatever its history; hand by hand through any other store."""
    sql = sql_source(store)
    if sql is not None:
        kinds = sorted(k for k, fund in LINE_FUNDS.items() if fund != "house")
        return [_Drop(fund_of(detail), table_id, hand_id, utc(at), amount)
                for hand_id, table_id, at, detail, amount in sql.fee_lines(kinds, until)
                if amount]
    hands = store.list_hands(HandFilter(until=until, limit=None))
    found = ledgers(store, [h.id for h in hands])
    out = []
    for h in hands:
        for line in found.get(h.id, []):
            fund = fund_of(line.detail) if line.kind == "fee" else "house"
            if fund != "house" and line.amount:
                out.append(_Drop(fund, h.table_id, h.id, utc(h.started_at), line.amount))
    return out


def drop_funds(store: Reads, since: datetime, until: datetime
               ) -> tuple[tuple[DropFund, ...], tuple[ExceptionLine, ...]]:
    """Every fund that ever had a drop, over ``[since, until)``, and the exceptions of its
    carry from the last report that closed it."""
    since, until = utc(since), utc(until)
    drops = _drops(store, until)
    names = {t.id: t.name for t in store.list_tables()}
    funds: list[DropFund] = []
    exc: list[ExceptionLine] = []
    for fund in sorted({d.fund for d in drops}):
        mine = [d for d in drops if d.fund == fund]
        opening = sum(d.amount for d in mine if d.at < since)
        by_table: dict[int, list[_Drop]] = {}
        for d in mine:
            if d.at >= since:
                by_table.setdefault(d.table_id, []).append(d)
        rows = tuple(FundDrop(names.get(t, f"table record {t}"), sum(d.amount for d in ds),
                              len({d.hand_id for d in ds}))
                     for t, ds in sorted(by_table.items(), key=lambda kv: names.get(kv[0], "")))
        dropped = sum(r.amount for r in rows)
        funds.append(DropFund(fund, since, until, opening, rows, 0, opening + dropped))
        exc.extend(_carry(store, fund, mine, since, opening))
    return tuple(funds), tuple(exc)


def _carry(store: Reads, fund: str, mine: Sequence[_Drop], since: datetime,
           opening: int) -> list[ExceptionLine]:
    """The balance carried in: the last closing an earlier report logged (at or before this
    opening) must still be what the records give at that time, and what was dropped between
    that time and this opening is said (no report showed it)."""
    from dealer_assist.reports.build.common import when_text

    last: tuple[int, int, datetime] | None = None
    for e in store.audit_log(action="report"):
        for name, cents, at in _CLOSED.findall(e.detail or ""):
            try:
                t = utc(datetime.fromisoformat(at))
            except ValueError:
                continue
            if name == fund and t <= since and (last is None or t >= last[2]):
                last = (e.seq or e.id, int(cents), t)
    if last is None:
        return []
    number, closed, at = last
    now = sum(d.amount for d in mine if d.at < at)
    out = []
    if now != closed:
        out.append(ExceptionLine(None, (
            f"{fund} fund: the report of audit entry {number} closed it at "
            f"{format_cents(closed)} at {when_text(at)}; the records now give "
            f"{format_cents(now)} for that time: drops before it were changed since"),
            "error"))
    between = opening - now
    if at < since and between:
        out.append(ExceptionLine(None, (
            f"{fund} fund: {format_cents(between)} dropped between {when_text(at)} (closed by "
            f"the report of audit entry {number}) and this opening at {when_text(since)}, "
            "on no report: carried in unreported"), "note"))
    return out


def logged(funds: Iterable[DropFund]) -> str:
    """``; fund jackpot closed 1234 at ...`` for a report's audit entry ("" without funds)."""
    text = "; ".join(f.logged() for f in funds)
    return f"; {text}" if text else ""
