"""Verify's rule (issue 40): a room record (count, drop, drop box, sign-off, room clock) written
in the name of someone who did not hold a role that may write it is named, on any store; on
PostgreSQL the database refuses it outright (tests/db/test_signed_room_records.py)."""

from __future__ import annotations

from dealer_assist.services.counts import register_box
from dealer_assist.services.rulecheck import rule_findings, rule_records
from services.support import make_room


def test_regression_a_count_written_in_a_dealers_name_is_named() -> None:
    room = make_room()
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-0001")  # fran: fine
    room.store.add_audit(at=room.clock(), actor="dee", action="count", detail="drop count {}",
                         table_id=room.table_id)
    room.store.add_audit(at=room.clock(), actor="mallory", action="drop", detail="x")
    room.store.add_audit(at=room.clock(), actor="otto", action="count-signoff", detail="x")
    found = [f for f in rule_findings(rule_records(room.store))
             if f.rule == "room record by a person without the role"]
    assert [f.text.split(" was written")[0] for f in found] == [
        f"count entry {room.store.audit[-3].seq}",
        f"drop entry {room.store.audit[-2].seq}",
    ]
    assert "in the name of dee, a dealer: only a floor or admin writes it" in found[0].text
    assert "mallory, who is not a user" in found[1].text
