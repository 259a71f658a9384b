"""CSV a board's tools can read: one file per report table, each named by its section (never
two of the same name); every row names the report's kind, serial, table and shift and the chain
head it was built from; amounts are plain numbers (dollars with a point, two decimals), in the
columns headed "($)", never "$11,080.38"."""

from __future__ import annotations

import csv
from pathlib import Path

from dealer_assist.reports import generate
from dealer_assist.reports.csvout import REPORT_COLUMNS, file_names, plain_amounts
from dealer_assist.services import Approval
from dealer_assist.services.counts import (
    record_count,
    record_drop,
    register_box,
    signoff_count,
)
from dealer_assist.services.room import new_count

from .room import make_room

TEAM = ["Cora Cashier", "Carl Counter"]


def test_amounts_become_plain_numbers_with_one_convention() -> None:
    assert plain_amounts("$11,080.38") == ("11080.38", True)
    assert plain_amounts("-$4") == ("-4.00", True)
    assert plain_amounts("SHORT $1") == ("-1.00", True)
    assert plain_amounts("over $2.50") == ("2.50", True)
    assert plain_amounts("7: $8,220, 2: $5,480") == ("7: 8220.00, 2: 5480.00", True)
    assert plain_amounts("Table 10") == ("Table 10", False)


def test_two_tables_of_one_section_get_distinct_names() -> None:
    tables = [("Drop count", ["Fee kind", "Collections", "Amount"], [], None),
              ("Drop count", ["Entry", "Entered", "By"], [], None)]
    assert file_names("shift", tables) == ["shift-01-drop-count.csv",
                                           "shift-02-drop-count-entry-entered.csv"]


def test_shift_report_csv_names_its_report_and_holds_plain_numbers(tmp_path: Path) -> None:
    room = make_room(hands=4)
    room.svc.add_user(room.admin, name="otto", full_name="Otto Auditor", role="auditor",
                      pin="4444")
    room.svc.close_shift(room.dealer, room.shift_id, approval=Approval("fran", "2222"))
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    record_drop(room.svc, room.floor, shift_id=room.shift_id, box="T1-01")
    first = record_count(room.svc, room.floor, new_count(
        table_id=room.table_id, shift_id=room.shift_id, box="T1-01", counted=1_108_038,
        team=TEAM))
    second = record_count(room.svc, room.floor, new_count(
        table_id=room.table_id, shift_id=room.shift_id, box="T1-01", counted=1_108_000,
        team=TEAM, corrects=first.seq, reason="recounted"))
    signoff_count(room.svc, room.svc.sign_in("otto", "4444"), entry=second.seq,
                  explanation="chips found in the lid")
    done = generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf", csv=True)
    names = [p.name for p in done.csv]
    assert len(set(names)) == len(names) == len(done.tables)
    drop = [n for n in names if "-drop-count" in n]
    assert len(drop) >= 3, names  # expected and counted, the entries, the sign-offs
    r = done.report
    head = f"T1 #{r.chain.last_seq} {r.chain.head_hash}"
    for p in done.csv:
        rows = list(csv.reader(p.open(encoding="utf-8")))
        assert rows[0][-4:] == REPORT_COLUMNS, p.name
        for row in rows[1:]:
            assert row[-4:] == ["shift report", str(r.generated.serial),
                                f"table T1, shift {room.shift_id}", head], p.name
            assert not any("$" in x for x in row), (p.name, row)
    entries = next(p for p in done.csv if "drop-count-entry" in p.name)
    rows = list(csv.reader(entries.open(encoding="utf-8")))
    assert "Counted ($)" in rows[0]
    counted = rows[0].index("Counted ($)")
    assert [row[counted] for row in rows[1:]] == ["11080.38", "11080.00"]
