"""Report-data built from a store (in memory, dealt through the services): every total
reconciles with the ledger and with replaying the hands; tampering shows as an exception."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from dealer_assist.reports import generate
from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.hand import build_hand
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.audit import render_audit
from dealer_assist.services import NotAllowed

from .pdftext import pages
from .room import Clock, Room, make_room

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def room() -> Room:
    return make_room(hands=10)


def _ledger_sum(room: Room, hand_id: int, kind: str) -> int:
    return sum(x.amount for x in room.store.ledger(hand_id) if x.kind == kind)


def test_shift_totals_reconcile_with_the_ledger_and_with_replay(room: Room) -> None:
    r = build_shift(room.store, by="test", at=AT)
    assert r.hands_dealt == 10 and r.shift_id == room.shift_id
    for line in r.hands:
        assert line.put_in == _ledger_sum(room, line.hand_id, "put_in")
        assert line.pushed == _ledger_sum(room, line.hand_id, "push")
        assert line.fee == _ledger_sum(room, line.hand_id, "fee")
        assert line.carry_out == _ledger_sum(room, line.hand_id, "carry_out")
        s = replay(hand_events(e.body for e in room.store.hand_events(line.hand_id))).settle()
        assert (line.put_in, line.pushed, line.carry_in, line.carry_out, line.fee) == (
            sum(s.put_in.values()), sum(s.payouts.values()), s.carry_in, s.carry_out,
            sum(f.amount for f in s.fees))
    all_lines = [x for h in room.hand_ids for x in room.store.ledger(h)]
    assert r.put_in == sum(x.amount for x in all_lines if x.kind == "put_in")
    assert r.fees_total == sum(x.amount for x in all_lines if x.kind == "fee")
    assert r.house_fees == 10 * 6 * 100  # one dollar a player, six players, ten hands
    assert r.jackpot_drop == 10 * 100  # a dollar from every hand to the jackpot fund
    assert r.fees_total == r.house_fees + r.jackpot_drop
    assert [(f.kind, f.amount) for f in r.ledger_fees] == [(f.kind, f.amount)
                                                           for f in r.fees_by_kind]
    assert r.conserved and r.chain.verified and r.chain.last_seq == sum(
        len(room.store.hand_events(h)) for h in room.hand_ids)


def test_shift_report_names_the_people_and_lists_void_dispute_and_reveal(room: Room) -> None:
    r = build_shift(room.store, by="test", at=AT, cage="Cora Cashier")
    assert r.dealers == ("Deandra Dealer (dee)",) and r.floor == ("Francesca Floor (fran)",)
    assert [(s.role, s.name) for s in r.signatures] == [
        ("Dealer", "Deandra Dealer"), ("Floor", "Francesca Floor"), ("Cage", "Cora Cashier")]
    assert [(v.hand_number, v.target, v.reason) for v in r.voids] == [
        (2, 2, "card keyed to wrong seat")]
    assert [(d.hand_number, d.status) for d in r.disputes] == [(3, "ruled")]
    assert [x.hand_number for x in r.reveals] == [3]
    assert any(e.severity == "adjustment" and "$4" in e.text for e in r.exceptions)
    assert any(e.severity == "open shift" for e in r.exceptions)


def test_a_ledger_that_differs_from_the_replay_is_an_exception() -> None:
    room = make_room(hands=3)
    hand = room.hand_ids[0]
    lines = room.store.ledgers[hand]
    first_push = next(i for i, x in enumerate(lines) if x.kind == "push")
    room.store.ledgers[hand] = [replace(x, amount=x.amount + 200) if i == first_push else x
                                for i, x in enumerate(lines)]
    r = build_shift(room.store, by="test", at=AT)
    bad = [e for e in r.exceptions if e.severity == "ledger"]
    assert len(bad) == 1 and bad[0].hand_number == 1
    assert "ledger differs from the replay" in bad[0].text
    assert r.conserved  # the figures are the replay's, never the tampered ledger's


def test_an_event_changed_behind_the_apps_back_fails_verification() -> None:
    room = make_room(hands=3)
    chain = room.store.events[room.table_id]
    chain[4] = replace(chain[4], actor="mallory")
    r = build_shift(room.store, by="test", at=AT)
    assert not r.chain.verified
    assert "event 5" in r.chain.message and "hash does not match" in r.chain.message
    assert r.exceptions[0].severity == "integrity"


def test_hand_history_withholds_destroyed_hands_cards(room: Room) -> None:
    r = build_hand(room.store, hand_id=room.hand_ids[2], by="test", at=AT)
    assert r.title == "Dispute report" and r.revealed is None
    hidden = [e for e in r.events if e.hidden]
    assert hidden and all("cards withheld" in e.text for e in hidden)
    final = r.snapshots[-1]
    down = [s for s in final.seats if s.withheld]
    assert down and all(s.cards == () and not s.revealed for s in down)
    assert r.settlement is not None and r.settlement.conserved
    assert r.disputes[0].ruling.startswith("Hand stands")


def test_dispute_report_reveals_destroyed_cards_marked_as_revealed(room: Room) -> None:
    from dealer_assist.reports.data.lines import RevealLine

    auth = RevealLine(3, AT, "Francesca Floor (fran, floor)", "dispute")
    r = build_hand(room.store, hand_id=room.hand_ids[2], by="test", at=AT, reveal=auth)
    revealed = [s for s in r.snapshots[-1].seats if s.revealed]
    assert revealed and all(s.cards for s in revealed)
    assert all("[REVEALED]" in e.text for e in r.events
               if e.kind == "card" and "withheld" not in e.text and "REVEALED" in e.text)
    assert not any(e.hidden for e in r.events)


def test_audit_report_lists_the_sensitive_actions_of_the_period(room: Room) -> None:
    r = build_audit(room.store, since=datetime(2026, 11, 21, tzinfo=UTC),
                    until=datetime(2026, 11, 23, tzinfo=UTC), by="test", at=AT)
    counts = dict(r.counts())
    assert counts["void"] == 1 and counts["reveal"] == 1 and counts["dispute"] == 1
    assert counts["login"] == 3
    reveal = next(e for e in r.entries if e.action == "reveal")
    assert reveal.user == "Francesca Floor (fran)" and reveal.role == "floor"
    assert reveal.target == "Table T1, hand 3"
    empty = build_audit(room.store, since=datetime(2020, 1, 1, tzinfo=UTC),
                        until=datetime(2020, 1, 2, tzinfo=UTC), by="test", at=AT)
    assert empty.entries == ()


def test_audit_report_carries_the_audit_logs_own_chain(room: Room, tmp_path: Path) -> None:
    """The whole audit log's chain is walked for the report and printed with its head."""
    head = room.store.audit_head()
    r = build_audit(room.store, since=datetime(2026, 11, 21, tzinfo=UTC),
                    until=datetime(2026, 11, 23, tzinfo=UTC), by="test", at=AT)
    assert r.audit_chain is not None and r.audit_chain.verified
    assert (r.audit_chain.table, r.audit_chain.last_seq, r.audit_chain.head_hash) == (
        "audit log", head.entries, head.hash)
    assert r.audit_chain.message == f"{head.entries} entries re-checked"
    room.store.audit[1] = replace(room.store.audit[1], detail="nothing happened")
    bad = build_audit(room.store, since=datetime(2026, 11, 21, tzinfo=UTC),
                      until=datetime(2026, 11, 23, tzinfo=UTC), by="test", at=AT)
    assert bad.audit_chain is not None and not bad.audit_chain.verified
    assert "entry 2" in bad.audit_chain.message and "does not match its content" in (
        bad.audit_chain.message)
    out = tmp_path / "audit.pdf"
    render_audit(bad, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "audit log" in text and "FAILED" in text


def test_day_summary_adds_up_the_tables(room: Room) -> None:
    d = build_day(room.store, by="test", at=AT)
    s = build_shift(room.store, by="test", at=AT)
    assert d.day == s.opened_at.date()
    assert len(d.tables) == 1
    t = d.tables[0]
    assert (t.hands, t.put_in, t.pushed, t.house_fees + t.jackpot_drop) == (
        s.hands_dealt, s.put_in, s.pushed, s.fees_total)
    assert (t.voids, t.disputes, t.reveals) == (1, 1, 1) and t.conserved


def test_generating_a_report_is_logged_and_needs_the_right_role(tmp_path: Path) -> None:
    room = make_room(hands=4)
    out = tmp_path / "shift.pdf"
    done = generate.shift_report(room.svc, room.floor, out, cage="Cora Cashier")
    assert done.pages == len(pages(out)) >= 2
    last = room.store.audit[-1]
    assert last.action == "report" and last.actor == "fran"
    assert last.detail.startswith("shift report: table T1, shift") and "4 hands" in last.detail
    with pytest.raises(NotAllowed, match="dee is a dealer"):
        generate.shift_report(room.svc, room.dealer, tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()
    refused = room.store.audit[-1]  # (regression: a refusal used to leave no trace)
    assert (refused.actor, refused.action) == ("dee", "refused")
    assert refused.detail == "dealer tried to generate reports"


def test_a_revealing_dispute_report_is_floor_only_and_logs_the_reveal(tmp_path: Path) -> None:
    room = make_room(hands=4)
    with pytest.raises(NotAllowed):
        generate.hand_report(room.svc, room.admin, tmp_path / "h.pdf", hand_id=room.hand_ids[2],
                             reveal=True)
    before = len(room.store.audit_log(action="reveal"))
    done = generate.hand_report(room.svc, room.floor, tmp_path / "h.pdf",
                                hand_id=room.hand_ids[2], reveal=True, reason="dispute 1")
    assert len(room.store.audit_log(action="reveal")) == before + 1
    text = "\n".join(pages(done.path))
    assert "Dispute report" in text and "REVEALED" in text
    assert "as authorised by Francesca Floor (fran, floor)" in " ".join(text.split())
    assert room.store.audit[-1].detail.startswith("dispute report: table T1, hand 3, hidden")


def test_audit_and_day_reports_render(tmp_path: Path) -> None:
    room = make_room(hands=3)
    a = generate.audit_report(room.svc, room.admin, tmp_path / "a.pdf",
                              since=datetime(2026, 11, 21, tzinfo=UTC),
                              until=datetime(2026, 11, 22, tzinfo=UTC))
    text = " ".join(" ".join(pages(a.path)).split())
    assert "Audit report: sensitive actions" in text and "Reveal" in text
    d = generate.day_report(room.svc, room.admin, tmp_path / "d.pdf", cage="Cora Cashier")
    text = " ".join(" ".join(pages(d.path)).split())
    assert "Day summary: all tables" in text and "Saturday 21 November 2026" in text
    assert "Signature — Cora Cashier" in text and "Signature — Francesca Floor" in text
    assert d.report.total("hands") == 3
    # the room's fixed clock starts on Saturday 21 November 2026 (never the calendar's today)
    day = Clock().now.date().isoformat()
    assert room.store.audit[-1].detail.startswith(f"day summary: {day}, 1 tables, 3 hands")


def test_report_file_must_be_a_pdf_in_an_existing_folder(tmp_path: Path) -> None:
    from dealer_assist.errors import BadInput

    room = make_room(hands=1)
    with pytest.raises(BadInput, match=r"does not end in \.pdf"):
        generate.shift_report(room.svc, room.floor, tmp_path / "shift.txt")
    with pytest.raises(BadInput, match="does not exist"):
        generate.shift_report(room.svc, room.floor, tmp_path / "nope" / "shift.pdf")




def test_a_dispute_note_longer_than_a_page_runs_over_the_page_break(room: Room,
                                                                     tmp_path: Path) -> None:
    from dealer_assist.reports.data.lines import DisputeNote
    from dealer_assist.reports.layouts.hand import render_hand

    r = build_hand(room.store, hand_id=room.hand_ids[2], by="test", at=AT)
    d = r.disputes[0]
    note = "Seat 1 explains what happened at length. " * 400 + "END-OF-NOTE"
    long = replace(r, disputes=(replace(d, notes=(DisputeNote(d.opened_at, d.opened_by, note),)),))
    out = tmp_path / "long.pdf"
    n = render_hand(long, out)
    assert n == len(pages(out)) > render_hand(r, tmp_path / "short.pdf")
    assert "END-OF-NOTE" in "".join(pages(out))


def test_replaying_in_several_processes_gives_the_same_report(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.reports.build import replays

    serial = build_shift(room.store, by="test", at=AT)
    pools: list[int] = []
    real_pool = replays.ProcessPoolExecutor

    def counting_pool(*args: object, **kwargs: object) -> object:
        pools.append(1)
        return real_pool(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replays, "PARALLEL_MIN", 2)
    monkeypatch.setattr(replays, "_idle_processors", lambda: 2)
    monkeypatch.setattr(replays, "ProcessPoolExecutor", counting_pool)
    parallel = build_shift(room.store, by="test", at=AT)
    assert pools == [1]
    assert parallel == serial
