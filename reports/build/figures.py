"""One hand's money re-derived by replaying its events through its game, compared with the
ledger the store wrote at settlement; a difference is an exception line, never a chosen number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import Folded, Refused
from dealer_assist.engine.stored import earlier_difference, fold, parser_of
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event, Start, Void
from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import MISDEAL_KEY
from dealer_assist.reports.data.lines import HandLine, VoidLine
from dealer_assist.reports.data.records import ExceptionLine, FeeTotal, Record, table_label
from dealer_assist.reports.source import Row, person
from dealer_assist.services.chain import utc
from dealer_assist.services.ledger import ledger_lines, same_lines
from dealer_assist.services.model import Hand, LedgerLine
from dealer_assist.services.verify import ledger_diff


@dataclass(frozen=True, slots=True)
class Figures(Record):
    """One hand's money, re-derived, and what did not add up."""

    line: HandLine
    exceptions: tuple[ExceptionLine, ...]
    voids: tuple[VoidLine, ...]
    ledger_fees: tuple[FeeTotal, ...]


def _parse(text: str, game: str = "") -> Event:
    """An event from its stored canonical text, in the events of ``game`` ("": the start);
    cached per game (verify's readers): most inputs repeat exactly."""
    return parser_of(game)(text)


@lru_cache(maxsize=4096)
def _fee(kind: str, amount: int, base: int = 0) -> FeeTotal:
    """One collection of ``amount`` (records are immutable, so equal ones are shared: a large
    shift's lines then pickle and travel between processes as references); ``base`` is what a
    fee from the pot was worked out on."""
    return FeeTotal(kind, amount, 1, base)


def events_of(rows: Sequence[Row]) -> list[Event]:
    """A hand's events from its rows: the start first, whose game names the rest's events."""
    if not rows:
        return []
    first = _parse(rows[0].text)
    parse = parser_of(first.game if isinstance(first, Start) else "")
    return [first, *[parse(r.text) for r in rows[1:]]]


def _show_money_line(x: LedgerLine) -> str:
    who = "" if x.seat is None else f" seat {x.seat}"
    kind = f"{x.kind} ({x.detail})" if x.detail else x.kind
    return f"{kind}{who} {format_cents(x.amount)}"


def _ledger_diff(derived: list[LedgerLine], stored: list[LedgerLine]) -> str:
    return ledger_diff(derived, stored, show=_show_money_line, ours="replay gives",
                       fallback="the lines differ")


def hand_figures(
    hand: Hand, rows: Sequence[Row], ledger: list[LedgerLine], names: dict[str, str],
    *, approvals: dict[tuple[int, int], str] | None = None,
) -> Figures:
    """Replay one hand (no narration, for speed) and compare its settlement with the ledger."""
    n = hand.number
    exc: list[ExceptionLine] = []
    voids: list[VoidLine] = []
    ledger_fees = tuple(_fee(x.detail or "fee", x.amount) for x in ledger if x.kind == "fee")
    started = utc(rows[0].time) if rows else utc(hand.started_at)
    ended = utc(rows[-1].time) if rows else None
    settlement: Settlement | None = None
    if hand.imported:
        exc.append(ExceptionLine(
            n, "imported from a hand log, not dealt at this table: its figures are the log's "
            "own and it fed no live hand", "imported"))
    try:
        events = events_of(rows)
    except (DealerAssistError, ValueError) as e:
        events = []
        exc.append(ExceptionLine(n, f"a stored event cannot be read: {e}", "integrity"))
    for row, ev in zip(rows, events, strict=False):
        if isinstance(ev, Void):
            approved = (approvals or {}).get((hand.id, ev.target), "")
            voids.append(VoidLine(n, utc(row.time), person(names, row.actor), ev.target,
                                  ev.reason, person(names, approved) if approved else ""))
    if events:
        folded = fold(events)  # the same rules as verify and the replay screen
        if isinstance(folded, Refused):
            exc.append(ExceptionLine(
                n, f"does not replay at event {folded.index + 1}: {folded.reason}", "integrity"))
        else:
            if folded.misdeal is not None:
                floor = (approvals or {}).get((hand.id, MISDEAL_KEY), "")
                who = (f"approved by {person(names, floor)}" if floor
                       else "NO APPROVING FLOOR RECORDED")
                exc.append(ExceptionLine(
                    n, f"called off as a misdeal ({folded.misdeal.reason}; {who}): every chip "
                    "put in was returned to the seat that put it in, no fee taken", "misdeal"))
            if folded.over:
                try:
                    settlement = folded.settle()
                except DealerAssistError as e:
                    exc.append(ExceptionLine(n, f"cannot be settled: {e}", "integrity"))
            else:
                exc.append(ExceptionLine(
                    n, "not finished: its money is still on the table and is not counted here",
                    "unfinished"))
    if settlement is not None:
        if not settlement.conserved:
            exc.append(ExceptionLine(
                n, f"settlement does not conserve chips: in {format_cents(settlement.total_in)}, "
                f"out {format_cents(settlement.total_out)}", "integrity"))
        if hand.status != "settled":
            exc.append(ExceptionLine(
                n, "finished but not settled since its last correction: the ledger is not "
                "written for it", "unsettled"))
        elif not ledger and not ledger_lines(hand.id, settlement):
            pass  # no money moved (an OFC or Chinese Poker hand that evened out): nothing owed
        elif not ledger:
            exc.append(ExceptionLine(n, "marked settled but has no ledger lines, though the "
                                     "replay moves money", "ledger"))
        elif not same_lines(ledger_lines(hand.id, settlement), ledger):
            assert isinstance(folded, Folded)  # the settlement is its replay's
            earlier = next((r for r in folded.game.earlier_rules(folded.state)
                            if folded.misdeal is None
                            and same_lines(ledger_lines(hand.id, r.settlement), ledger)), None)
            if earlier is not None:  # a genuine record of an earlier rule, as verify says
                exc.append(ExceptionLine(
                    n, f"settled under {earlier.name}: "
                    + earlier_difference(settlement, earlier.settlement), "earlier rule"))
            else:
                exc.append(ExceptionLine(
                    n, "ledger differs from the replay: "
                    + _ledger_diff(ledger_lines(hand.id, settlement), ledger), "ledger"))
    if settlement is not None:
        s = settlement
        winners = tuple(sorted(((seat, a) for seat, a in s.payouts.items() if a),
                               key=lambda x: (-x[1], x[0])))
        line = HandLine(
            hand_id=hand.id, number=n, started_at=started, ended_at=ended, seats=hand.seats,
            put_in=sum(s.put_in.values()), carry_in=s.carry_in, pushed=sum(s.payouts.values()),
            carry_out=s.carry_out,
            fees=tuple(_fee(f.kind, f.amount, f.base or 0) for f in s.fees if f.amount),
            winners=() if s.extra.get("misdeal") is not None else winners,
            status="settled" if hand.status == "settled" else "unsettled",
            voids=len(voids), disputed=hand.disputed,
            misdeal="misdeal" in s.extra,
        )
    else:
        line = HandLine(
            hand_id=hand.id, number=n, started_at=started, ended_at=None, seats=hand.seats,
            put_in=0, carry_in=0, pushed=0, carry_out=0, status="unfinished", voids=len(voids),
            disputed=hand.disputed,
        )
    return Figures(line, tuple(exc), tuple(voids), ledger_fees)


def replay_vs_ledger(funds: Sequence[Any], table_id: int, table: str,
                     lines: Sequence[HandLine]) -> list[ExceptionLine]:
    """Each fund's drops at this table as the hands' replay gives them must be the drops the
    ledger recorded (what the fund's balance is built from)."""
    from dealer_assist.fees import fund_of

    out = []
    for f in funds:
        replayed = sum(x.amount for h in lines for x in h.fees
                       if x.fund and fund_of(x.kind) == f.fund)
        recorded = sum(d.amount for d in f.drops if d.table == table)
        if replayed != recorded:
            out.append(ExceptionLine(None, (
                f"{f.fund} fund: the ledger records {format_cents(recorded)} dropped at "
                f"{table_label(table)} in the period; the hands' replay gives "
                f"{format_cents(replayed)}"), "error"))
    return out

