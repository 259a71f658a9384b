"""Importing a hand log: checked against the table's game and settings, marked imported, and
never feeding a live hand (regressions: a log's 9.2e18 stacks became the next live hand's
stacks; a Caro Hold 'em log went into a Champs and Cowards table)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dealer_assist.errors import BadInput
from dealer_assist.services import HandFilter

from .support import Room, settings
from .test_stacks import played  # noqa: F401  (the fixture)


def _log(room: Room) -> list[str]:
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    return room.svc.export_hand(room.floor, hand_id).splitlines()


def test_an_imported_hand_is_marked_and_has_its_own_closed_shift(room: Room) -> None:
    lines = _log(room)
    live_shift = room.svc.current_shift(room.table_id)
    hand = room.svc.import_hand(room.admin, room.table_id, lines)
    assert hand.imported and hand.status == "settled"
    assert hand.shift_id != live_shift.id and not room.svc.shift(hand.shift_id).open
    assert room.svc.current_shift(room.table_id) == live_shift  # the live shift goes on
    assert not room.svc.list_hands(HandFilter(shift_id=live_shift.id))[0].imported
    entry = room.store.audit_log(action="import")[-1]
    assert entry.hand_id == hand.id
    assert re.fullmatch(rf"hand {hand.number}: 4 events imported from a hand log; log sha256 "
                        r"[0-9a-f]{64}", entry.detail)


def test_regression_a_log_of_another_game_is_refused(room: Room) -> None:
    log = ['{"type":"start","game":"champs-and-cowards","seats":[1,2,3],"chip":200,"decks":1}']
    with pytest.raises(BadInput, match="the hand log is champs-and-cowards, but T1 plays "
                       "high-card-test: import it into a champs-and-cowards table"):
        room.svc.import_hand(room.admin, room.table_id, log)
    assert room.store.audit_log(action="import") == []


def test_a_log_with_other_settings_is_refused(room: Room) -> None:
    lines = _log(room)
    start = json.loads(lines[0])
    for key, value, why in (("ante", 500, '"ante" is 500, T1 has 100'),
                            ("seats", [1, 2, 7], "seat 7 is not a seat at T1")):
        bad = [json.dumps({**start, key: value}), *lines[1:]]
        with pytest.raises(BadInput, match=why):
            room.svc.import_hand(room.admin, room.table_id, bad)
    t2 = room.svc.add_table(room.admin, settings(rake=25), name="T2")
    with pytest.raises(BadInput, match="does not match T2's settings"):
        room.svc.import_hand(room.admin, t2.id, lines)


def test_regression_imported_stacks_never_feed_the_next_live_hand(played: Any) -> None:  # noqa: F811
    svc, dealer, table_id, after = played
    floor = svc.sign_in("fran", "2222")
    admin = svc.sign_in("ada", "9999")
    hand = svc.list_hands(HandFilter(table_id=table_id))[0]
    lines = svc.export_hand(floor, hand.id).splitlines()
    start = json.loads(lines[0])
    start["stacks"] = {k: 9_000_000_000 for k in start["stacks"]}
    imported = svc.import_hand(admin, table_id, [json.dumps(start), *lines[1:]])
    assert imported.imported
    assert svc.next_stacks(table_id) == after  # what the live hand left, not the log
    now = svc.start_hand(dealer, table_id)
    assert {int(k): v for k, v in now.replay.start.get("stacks").items()} == after
    assert now.hand.number == imported.number + 1


def test_an_unfinished_imported_hand_is_not_resumed_as_the_live_hand(room: Room) -> None:
    lines = _log(room)[:2]
    hand = room.svc.import_hand(room.admin, room.table_id, lines)
    assert hand.status == "open" and hand.imported
    assert room.svc.current_hand(room.table_id) is None
    now = room.svc.start_hand(room.dealer, room.table_id)  # not blocked by the imported one
    assert now.hand.number == hand.number + 1


def test_an_imported_hand_is_named_imported_in_the_shift_report(room: Room) -> None:
    from dealer_assist.reports.build.shift import build_shift

    hand = room.svc.import_hand(room.admin, room.table_id, _log(room))
    report = build_shift(room.store, shift_id=hand.shift_id, by="fran", at=room.clock())
    notes = [(x.hand_number, x.severity) for x in report.exceptions]
    assert (hand.number, "imported") in notes
