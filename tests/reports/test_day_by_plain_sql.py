"""The room's day rebuilt from the rows: a demo day of every game (16 tables), each day
summary's totals per table re-derived with plain SQL over the hands and ledger lines, apart from
the report code (issue: what an auditor signs, re-derived to the cent)."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from dealer_assist.db.bootstrap import open_database, open_services
from dealer_assist.db.demo import fill_demo
from dealer_assist.reports.build.day import build_day
from dealer_assist.services import Argon2PinHasher

START = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def _by_sql(path: Path, day: date) -> dict[str, tuple[int, ...]]:
    """Per table: hands, put in, carried in, pushed, carried out, fees; each hand's latest
    settlement, hands started in the UTC day, imported hands (no settings version) left out."""
    since = datetime(day.year, day.month, day.day).isoformat(" ")
    until = (datetime(day.year, day.month, day.day) + timedelta(days=1)).isoformat(" ")
    con = sqlite3.connect(path)
    try:
        hands = con.execute(
            "SELECT h.id, t.name FROM hands h JOIN card_tables t ON t.id = h.table_id "
            "WHERE h.started_at >= ? AND h.started_at < ? AND h.settings_id IS NOT NULL",
            (since, until)).fetchall()
        lines = con.execute(
            "SELECT l.hand_id, l.kind, l.amount FROM ledger_lines l WHERE l.hand_id IS NOT NULL "
            "AND l.settlement = (SELECT MAX(m.settlement) FROM ledger_lines m "
            "WHERE m.hand_id = l.hand_id)").fetchall()
    finally:
        con.close()
    table_of = dict(hands)
    out: dict[str, list[int]] = defaultdict(lambda: [0] * 6)
    for _, name in hands:
        out[name][0] += 1
    col = {"put_in": 1, "carry_in": 2, "push": 3, "carry_out": 4, "fee": 5}
    for hand_id, kind, amount in lines:
        if hand_id in table_of:
            out[table_of[hand_id]][col[kind]] += amount
    return {k: tuple(v) for k, v in out.items()}


def test_the_room_day_re_derives_from_the_rows_with_plain_sql(tmp_path: Path) -> None:
    path = tmp_path / "room.sqlite3"
    url = f"sqlite:///{path}"
    fast = Argon2PinHasher(fast=True)
    done = fill_demo(open_database(url), hands=800, tables=16, start=START, hasher=fast)
    assert done.tables == 16
    svc = open_services(url, hasher=fast, clock=lambda: START + timedelta(days=3))
    con = sqlite3.connect(path)
    days = [date.fromisoformat(d) for (d,) in con.execute(
        "SELECT DISTINCT substr(started_at, 1, 10) FROM hands ORDER BY 1")]
    con.close()
    assert len(days) >= 1
    checked, tables = 0, set()
    for day in days:
        report = build_day(svc.store, day=day, by="auditor", at=START + timedelta(days=3))
        ours = {t.table: (t.hands, t.put_in, t.carried_in, t.pushed, t.carried_out,
                          t.fees_total) for t in report.tables if t.hands}
        assert ours == _by_sql(path, day)
        checked += sum(v[0] for v in ours.values())
        tables |= set(ours)
    assert checked == 800 and len(tables) == 16  # every hand, at every table (every game)
