"""Hand and shift hygiene: one dealer's shift, one hand at a time, no shift closed over a hand
whose chips are not recorded (regressions found by trying them)."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt
from dealer_assist.services import Approval

from .support import Room


def test_regression_a_dealer_cannot_deal_in_another_dealers_shift(room: Room) -> None:
    room.svc.add_user(room.admin, name="dot", full_name="Dot Other", role="dealer", pin="4444")
    dot = room.svc.sign_in("dot", "4444")
    with pytest.raises(RuleViolation, match="T1's open shift is dee's: dee closes it with the "
                       "floor, then open your own shift"):
        room.svc.start_hand(dot, room.table_id)
    assert room.svc.list_hands() == []


def test_regression_no_new_hand_while_the_last_one_is_open(room: Room) -> None:
    room.hand(["9d"])
    with pytest.raises(RuleViolation, match="hand 1 is still being dealt: finish it"):
        room.svc.start_hand(room.dealer, room.table_id)
    now = room.svc.current_hand(room.table_id)
    assert now is not None
    hand_id = now.hand.id
    for seat, code in ((2, "Kc"), (3, "2h")):
        room.svc.record(room.dealer, hand_id, CardDealt(seat=seat, card=parse_card(code)))
    with pytest.raises(RuleViolation, match="hand 1 is finished but not settled: settle it"):
        room.svc.start_hand(room.dealer, room.table_id)
    room.svc.settle(room.dealer, hand_id)
    assert room.svc.start_hand(room.dealer, room.table_id).hand.number == 2


def test_regression_a_shift_does_not_close_over_a_finished_unsettled_hand(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    with pytest.raises(RuleViolation, match="hand 1 is finished but not settled"):
        room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    room.svc.settle(room.dealer, hand_id)
    assert not room.svc.close_shift(room.dealer, shift.id,
                                    approval=Approval("fran", "2222")).open


def test_table_settings_from_any_source_are_bounded(room: Room) -> None:
    from dealer_assist.errors import BadInput

    from .support import settings

    with pytest.raises(BadInput, match="the number 9200000000000000000… is too large"):
        room.svc.add_table(room.admin, {**settings(), "buy_in": 9_200_000_000_000_000_000},
                           name="T9")
    assert [t.name for t in room.svc.list_tables()] == ["T1"]
