"""A value the app draws is on the record the moment it is drawn (issue 41 item 7): the input
recorded is the value drawn, a draw not recorded stays on the audit chain, and a second draw
at the same point of the hand needs a floor person's approval (not the dealer's own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from anygame.play import SETTINGS

from dealer_assist.db.bootstrap import open_services
from dealer_assist.errors import RuleViolation
from dealer_assist.services import Approval, ApprovalRequired, NotAllowed
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.draws import draw, draw_cancelled


def test_the_recorded_value_is_the_drawn_one_and_a_redraw_needs_another_floor_person(
    tmp_path: Path,
) -> None:
    import anygame  # noqa: F401  (registers the test game)
    from anygame.events import Roll

    svc = open_services(f"sqlite:///{tmp_path / 'room.db'}", hasher=Argon2PinHasher(fast=True))
    svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="flo", full_name="Flo Floor", role="floor", pin="3333")
    table = svc.add_table(admin, {**SETTINGS, "name": "Tally-1"})
    dealer = svc.sign_in("fran", "2222")  # a floor person dealing
    svc.open_shift(dealer, table.id, floor="flo")
    now = svc.start_hand(dealer, table.id)
    action = now.prompt().action("roll")
    assert action is not None
    first = draw(svc, dealer, now.hand.id, action)["value"]
    other = 1 + first % 6
    with pytest.raises(RuleViolation, match=f"the app drew {first} for Roll the die: record "
                       "what it drew"):
        svc.record(dealer, now.hand.id, Roll(seat=1, die="d6", value=other))
    draw_cancelled(svc, dealer, now.hand.id, action, {"value": first})
    with pytest.raises(ApprovalRequired, match=rf"\(Roll the die: {first}, not recorded\): a "
                       "second draw needs a floor person's approval"):
        draw(svc, dealer, now.hand.id, action)
    with pytest.raises(NotAllowed, match="cannot approve their own second draw of Roll the die"):
        draw(svc, dealer, now.hand.id, action, approval=Approval("fran", "2222"))
    second = draw(svc, dealer, now.hand.id, action, approval=Approval("flo", "3333"))["value"]
    after = svc.record(dealer, now.hand.id, Roll(seat=1, die="d6", value=second))
    assert after.replay.steps[-1].event == Roll(seat=1, die="d6", value=second)
    details = [e.detail for e in svc.store.audit_log(hand_id=now.hand.id)
               if e.action in ("drawn", "draw-cancelled", "approval")]
    assert details == [
        f"hand 1 after event 1: Roll the die: {first}",
        f"hand 1 after event 1: Roll the die: {first} not recorded",
        "second draw of Roll the die in hand 1",
        f"hand 1 after event 1: Roll the die: {second}; draw 2, approved by flo",
    ]


def test_a_drawn_input_voided_makes_the_next_draw_the_floors(tmp_path: Path) -> None:
    """Recording the draw and voiding it (Ctrl+Z needs no approval mid-hand) was another way
    to draw again: the next draw of the hand then needs a floor person's approval too."""
    import anygame  # noqa: F401  (registers the test game)
    from anygame.events import Roll

    svc = open_services(f"sqlite:///{tmp_path / 'room.db'}", hasher=Argon2PinHasher(fast=True))
    svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    table = svc.add_table(admin, {**SETTINGS, "name": "Tally-1"})
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran")
    now = svc.start_hand(dealer, table.id)
    action = now.prompt().action("roll")
    assert action is not None
    first = draw(svc, dealer, now.hand.id, action)["value"]
    now = svc.record(dealer, now.hand.id, Roll(seat=1, die="d6", value=first))
    now = svc.void(dealer, now.hand.id, 2, "keyed too early")
    action = now.prompt().action("roll")
    assert action is not None
    with pytest.raises(ApprovalRequired, match=rf"a value the app drew in hand 1 does not stand "
                       rf"in it \(Roll the die: {first}: voided\): a second draw needs"):
        draw(svc, dealer, now.hand.id, action)
    second = draw(svc, dealer, now.hand.id, action, approval=Approval("fran", "2222"))["value"]
    now = svc.record(dealer, now.hand.id, Roll(seat=1, die="d6", value=second))
    action = now.prompt().action("roll")
    assert action is not None and action.enabled
    draw(svc, dealer, now.hand.id, action)  # the next roll stands on its own: no floor
