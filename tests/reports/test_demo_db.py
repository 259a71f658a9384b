"""Reports from a `dealer-assist demo` database (SQLite, two tables, a few dozen hands): the CLI
writes the PDFs, the text in them matches the figures, every total reconciles with the ledger
and with replaying the hands, and every generation is in the audit log."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli import main
from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from dealer_assist.money import format_cents
from dealer_assist.reports import generate
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.hand import build_hand
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.services import HandFilter, Session

from .pdftext import pages

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Any]:
    from dealer_assist.db.bootstrap import open_services

    folder = tmp_path_factory.mktemp("demo")
    url = f"sqlite:///{folder / 'demo.sqlite3'}"
    assert main(["demo", "--db", url, "--hands", "30", "--tables", "2", "--seed", "3"]) == 0
    return url, open_services(url)


def _report(url: str, *args: str, user: str = "fran", pin: str = "2000") -> int:
    return main(["report", *args, "--db", url, "--as", user, "--pin", pin])


def _flat(path: Path) -> str:
    return " ".join(" ".join(pages(path)).split())


def test_every_shift_reconciles_with_the_ledger_and_with_replay(demo: tuple[str, Any]) -> None:
    _, svc = demo
    shifts = svc.list_shifts()
    assert len(shifts) >= 2
    hands_seen = 0
    for shift in shifts:
        r = build_shift(svc.store, shift_id=shift.id, by="test", at=AT)
        hands_seen += r.hands_dealt
        assert r.chain.verified, r.chain.message
        assert r.conserved
        ledger = [x for h in r.hands for x in svc.ledger(h.hand_id)]
        assert r.put_in == sum(x.amount for x in ledger if x.kind == "put_in")
        assert r.pushed == sum(x.amount for x in ledger if x.kind == "push")
        assert r.fees_total == sum(x.amount for x in ledger if x.kind == "fee")
        assert r.carried_out == sum(x.amount for x in ledger if x.kind == "carry_out")
        put = pushed = fees = 0
        for h in r.hands:
            s = replay(hand_events(e.body for e in svc.hand_events(h.hand_id))).settle()
            assert s.conserved
            put += sum(s.put_in.values())
            pushed += sum(s.payouts.values())
            fees += sum(f.amount for f in s.fees)
        assert (put, pushed, fees) == (r.put_in, r.pushed, r.fees_total)
        assert not [e for e in r.exceptions if e.severity in ("ledger", "integrity")]
    assert hands_seen == 30


def test_cli_shift_report_prints_the_totals_names_and_pages(demo: tuple[str, Any],
                                                            tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    url, svc = demo
    out = tmp_path / "shift.pdf"
    assert _report(url, "shift", "--table", "Table 1", "--cage", "Cora Cashier",
                   "--out", str(out)) == 0
    printed = capsys.readouterr().out
    n = int(re.search(r"shift report, (\d+) pages?", printed).group(1))  # type: ignore[union-attr]
    text = pages(out)
    assert len(text) == n
    flat = " ".join(" ".join(text).split())
    shift = max(svc.list_shifts(svc.find_table("Table 1").id), key=lambda s: s.opened_at)
    r = build_shift(svc.store, shift_id=shift.id, by="test", at=AT)
    assert f"Hands dealt {r.hands_dealt}" in flat
    assert f"Money put in by players {format_cents(r.put_in)}" in flat
    assert f"Pushed to players {format_cents(r.pushed)}" in flat
    assert f"House fees and rake {format_cents(r.house_fees)}" in flat
    names = {u.name: u.full_name for u in svc.store.list_users()}
    assert f"Signature — {names[shift.dealer]}" in flat
    assert f"Signature — {names[shift.floor]}" in flat
    assert "Signature — Cora Cashier" in flat
    assert "Generated" in flat and "by Fran Flores (fran, floor)" in flat
    assert f"Page {n} of {n}" in flat
    assert f"Chain Table 1 head #{r.chain.last_seq}" in flat and "(verified intact)" in flat


def test_generating_from_the_cli_is_logged(demo: tuple[str, Any], tmp_path: Path) -> None:
    url, svc = demo
    # The demo deals the day before it runs: take its day from the records, never the calendar.
    day = min(s.opened_at for s in svc.list_shifts()).date()
    before = len(svc.store.audit_log(action="report"))
    assert _report(url, "day", "--from", day.isoformat(), "--out", str(tmp_path / "day.pdf")) == 0
    assert _report(url, "audit", "--from", day.isoformat(), "--to", day.isoformat(),
                   "--out", str(tmp_path / "audit.pdf"), user="otto", pin="4000") == 0
    logged = svc.store.audit_log(action="report")
    assert len(logged) == before + 2
    assert logged[-2].actor == "fran" and logged[-2].detail.startswith(f"day summary: {day}")
    assert logged[-1].actor == "otto" and logged[-1].detail.startswith(
        f"audit report: {day} 00:00 to {day + timedelta(days=1)} 00:00 UTC")
    audit = _flat(tmp_path / "audit.pdf")
    assert "Audit report: sensitive actions" in audit and "Login" in audit and "Void" in audit


def test_day_summary_equals_the_sum_of_the_shifts(demo: tuple[str, Any]) -> None:
    _, svc = demo
    d = build_day(svc.store, by="test", at=AT)
    shifts = [build_shift(svc.store, shift_id=s.id, by="test", at=AT) for s in svc.list_shifts()]
    assert d.total("hands") == sum(s.hands_dealt for s in shifts) == 30
    assert d.total("put_in") == sum(s.put_in for s in shifts)
    assert d.total("pushed") == sum(s.pushed for s in shifts)
    assert d.total("house_fees") + d.total("jackpot_drop") == sum(s.fees_total for s in shifts)
    assert all(t.conserved for t in d.tables) and all(c.verified for c in d.chains)


def test_hand_report_defaults_to_the_latest_hand_and_repeats_its_headers(
        demo: tuple[str, Any], tmp_path: Path) -> None:
    _, svc = demo
    out = tmp_path / "hand.pdf"
    otto = next(u for u in svc.store.list_users() if u.name == "otto")
    generate.hand_report(svc, Session(user=otto, signed_in_at=AT), out)
    latest = svc.list_hands(HandFilter(limit=1))[0]
    text = [" ".join(p.split()) for p in pages(out)]
    assert f"hand {latest.number}" in text[0]
    # the longest hand's events table runs over a page break, its header on every page (which
    # hand is longest, and whether the latest is, follows the demo's random deal)
    longest = max(svc.list_hands(HandFilter(limit=None)), key=lambda h: h.events)
    out = tmp_path / "longest.pdf"
    generate.hand_report(svc, Session(user=otto, signed_in_at=AT), out, hand_id=longest.id)
    text = [" ".join(p.split()) for p in pages(out)]
    with_events = [p for p in text if re.search(r" \d+ \d+ \d\d:\d\d:\d\d ", p)]
    assert len(with_events) >= 2  # the events table runs over a page break
    for p in with_events:
        assert "No. Seq. Time (UTC) By Input What happened" in p


def test_dispute_report_reveals_only_for_the_floor(demo: tuple[str, Any], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    url, svc = demo
    disputed = svc.list_hands(HandFilter(disputed=True, limit=None))
    assert disputed
    hand = disputed[0]
    plain = build_hand(svc.store, hand_id=hand.id, by="test", at=AT)
    assert plain.title == "Dispute report" and plain.disputes
    out = tmp_path / "dispute.pdf"
    code = _report(url, "hand", "--hand", str(hand.id), "--reveal", "--out", str(out),
                   user="otto", pin="4000")
    assert code == 2 and "only floor" in capsys.readouterr().err
    assert not out.exists()
    reveals = len(svc.store.audit_log(action="reveal"))
    assert _report(url, "hand", "--hand", str(hand.id), "--reveal", "--reason", "dispute 1",
                   "--out", str(out)) == 0
    assert len(svc.store.audit_log(action="reveal")) == reveals + 1
    flat = _flat(out)
    assert "Dispute report" in flat and "Ruling:" in flat
    assert plain.disputes[0].ruling[:30] in flat
    if any(s.withheld for s in plain.snapshots[-1].seats):
        assert "[REVEALED]" in flat


def test_time_collections_are_in_the_shift_report_pdf_and_the_day_summary(
        demo: tuple[str, Any], tmp_path: Path) -> None:
    url, svc = demo
    table = svc.find_table("Table 2")  # the demo's Caro Hold 'em table switches to time
    lines = svc.time_collections(table.id)
    assert lines and all(x.kind == "fee" and x.detail == "time" for x in lines)
    shift = max(svc.list_shifts(table.id), key=lambda s: s.opened_at)
    r = build_shift(svc.store, shift_id=shift.id, by="test", at=AT)
    in_shift = [x for x in lines if x.at is not None and x.at >= shift.opened_at
                and (shift.closed_at is None or x.at < shift.closed_at)]
    assert r.time_total == sum(x.amount for x in in_shift) > 0
    time_row = next(f for f in r.fees_by_kind if f.kind == "time")
    assert (time_row.amount, time_row.count) == (r.time_total, len(in_shift))
    assert {f.kind: f.amount for f in r.ledger_fees}["time"] == r.time_total
    assert sum(a for _, a in r.fees_per_hour()) == r.fees_total + r.time_total
    assert not [e for e in r.exceptions if e.severity in ("ledger", "integrity")]
    out = tmp_path / "shift.pdf"
    assert _report(url, "shift", "--shift", str(shift.id), "--out", str(out)) == 0
    flat = _flat(out)
    total = format_cents(r.time_total)
    assert f"Time collected from seats {total}" in flat
    assert f"Time house {len(in_shift)} — {total} {total}" in flat
    day = build_day(svc.store, by="test", at=AT)
    assert day.total("time_fees") == sum(x.amount for x in lines)
    assert {f.kind: f.amount for f in day.fees}["time"] == sum(x.amount for x in lines)
    assert _report(url, "day", "--out", str(tmp_path / "day.pdf")) == 0
    assert f"Time house {len(lines)} — {format_cents(sum(x.amount for x in lines))}" in _flat(
        tmp_path / "day.pdf")


def test_misdeal_is_an_exception_of_its_shift_and_refunds_every_chip(
    demo: tuple[str, Any], tmp_path: Path
) -> None:
    """The demo's first table has hand 8 called off as a misdeal: the shift report lists it
    among the exceptions, and its line pushes back exactly what was put in, with no fee."""
    url, svc = demo
    (hand,) = [h for h in svc.list_hands(HandFilter(limit=None))
               if h.number == 8 and svc.hand_replay(h.id).misdeal is not None]
    r = build_shift(svc.store, shift_id=hand.shift_id, by="test", at=AT)
    (line,) = [x for x in r.hands if x.number == 8]
    assert line.put_in == line.pushed > 0 and line.fees == () and line.carry_out == line.carry_in
    notes = [x.text for x in r.exceptions if x.hand_number == 8]
    assert notes == ["called off as a misdeal (card exposed on the deal; approved by Fran Flores "
                     "(fran)): every chip put in was returned to the seat that put it in, no "
                     "fee taken"]
    assert line.misdeal and line.winners == ()  # refunds are not winnings
    out = tmp_path / "shift.pdf"
    assert _report(url, "shift", "--shift", str(hand.shift_id), "--out", str(out)) == 0
    flat = _flat(out)
    assert "called off as a misdeal (card exposed on the deal; approved by Fran Flores" in flat
    assert re.search(r" 8 \d\d:\d\d:\d\d \d+ \$[\d.,]+ — \$0 \$[\d.,]+ \$[\d.,]+ misdeal: all "
                     r"returned VMX| 8 \d\d:\d\d:\d\d \d+ \$[\d.,]+ — \$0 \$[\d.,]+ \$[\d.,]+ "
                     r"misdeal: all returned MX", flat), flat
    audit = svc.store.audit_log(action="misdeal")
    assert len(audit) == 1 and audit[0].hand_id == hand.id and "approved by" in audit[0].detail
