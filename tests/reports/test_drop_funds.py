"""The jackpot fund's balances (fees ruling: a jackpot or promotional drop kept in its own
fund, every collection a ledger line): opening, drops in by table, payouts out (not recorded by
the app: $0), closing = opening + in - out, on the shift report and the audit report; the
closing each report logs is the carry the next one checks, and drops no report showed are
said."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from dealer_assist.reports import generate
from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.funds import drop_funds
from dealer_assist.services.model import HandFilter

from .pdftext import pages
from .room import make_room


def _flat(path: Path) -> str:
    return " ".join(" ".join(p.split()) for p in pages(path))


def test_ruling_fees_jackpot_fund_opening_drops_by_table_payouts_and_closing(
        tmp_path: Path) -> None:
    room = make_room(hands=6)
    store = room.store
    hands = sorted(store.list_hands(HandFilter(limit=None)), key=lambda h: h.started_at)
    drops = [sum(x.amount for x in store.ledger(h.id) if x.kind == "fee"
                 and x.detail == "jackpot") for h in hands]
    assert sum(drops) > 0 and all(d in (0, 100) for d in drops)
    cut = hands[3].started_at  # the period: from the fourth hand on
    (fund,), exc = drop_funds(store, cut, cut + timedelta(days=1))
    assert exc == ()
    assert fund.fund == "jackpot" and fund.opening == sum(drops[:3])
    assert [(d.table, d.amount, d.hands) for d in fund.drops] == [
        ("T1", sum(drops[3:]), sum(1 for d in drops[3:] if d))]
    assert fund.paid_out == 0 and fund.closing == sum(drops) and fund.balanced

    shift = generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                  shift_id=room.shift_id)
    text = _flat(shift.path)
    total = f"${sum(drops) // 100}"
    assert "Jackpot and promotional funds" in text
    assert "jackpot fund Opening balance" in text and "Payouts out not recorded by the app $0" \
        in text
    assert "Drops in: Table T1" in text and f"Closing = opening + in - out $0 + {total} - $0 yes" \
        in text
    assert "payouts are not recorded by the app" in text
    (entry,) = [e for e in store.audit_log(action="report") if "shift report" in e.detail]
    assert f"fund jackpot closed {sum(drops)} at " in entry.detail

    audit = generate.audit_report(room.svc, room.floor, tmp_path / "a.pdf", since=cut,
                                  until=cut + timedelta(days=1))
    atext = _flat(audit.path)
    assert f"Closing = opening + in - out ${sum(drops[:3]) // 100} + " \
           f"${sum(drops[3:]) // 100} - $0 yes" in atext
    assert "Exceptions" in atext


def test_regression_carried_balance_checked_against_the_report_that_closed_it(
        tmp_path: Path) -> None:
    """The shift report logged the fund's closing; a later audit report opening after it finds
    that closing still true (no exception), says the drops after it that no report showed, and
    flags a closing the records no longer give (a drop before it changed since)."""
    room = make_room(hands=4)
    store = room.store
    generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf", shift_id=room.shift_id)
    (entry,) = [e for e in store.audit_log(action="report")]
    closed = int(entry.detail.split("fund jackpot closed ")[1].split()[0])
    later = room.clock.now + timedelta(hours=1)
    (fund,), exc = drop_funds(store, later, later + timedelta(hours=1))
    assert fund.opening == closed and exc == ()  # nothing dropped since, nothing changed

    # a report that claimed another closing (as if a drop before it was changed since)
    room.svc.log(room.floor, "report", f"audit report: test; fund jackpot closed {closed + 300} "
                 f"at {(later - timedelta(minutes=1)).isoformat()}; checkpoint 9")
    (fund,), exc = drop_funds(store, later, later + timedelta(hours=1))
    assert [e.severity for e in exc] == ["error"]
    assert exc[0].text.startswith("jackpot fund: the report of audit entry ")
    assert f"closed it at ${(closed + 300) // 100}" in exc[0].text
    assert f"the records now give ${closed // 100} for that time" in exc[0].text
    r = build_audit(store, since=later, until=later + timedelta(hours=1), by="fran",
                    at=later + timedelta(hours=2))
    assert r.exceptions == exc

    # drops after the last report's closing and before this opening: on no report
    early = datetime(2026, 11, 21, 17, 0, tzinfo=UTC)
    room.svc.log(room.floor, "report", f"day summary: test; fund jackpot closed 0 at "
                 f"{early.isoformat()}")
    (fund,), exc = drop_funds(store, early + timedelta(hours=1, minutes=5), later)
    assert fund.opening > 0
    assert [e.severity for e in exc] == ["note"]
    assert f"jackpot fund: ${fund.opening // 100} dropped between" in exc[0].text
    assert "on no report: carried in unreported" in exc[0].text
