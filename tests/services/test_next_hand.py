"""RULINGS OFC 5 at a live table: the next hand starts with the fantasyland seat named and the
button where the rules put it, taken from the last settled hand."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.engine.hand import read_log
from dealer_assist.services import InMemoryStore, Services, Session
from dealer_assist.services.app import _LastHand

from .support import FAST, Clock

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def _room() -> tuple[Services, Session, int]:
    svc = Services(InMemoryStore(), clock=Clock(), hasher=FAST)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    table = svc.add_table(admin, {
        "game": "ofc", "seats": [1, 2], "smallest_chip": 100,
        "params": {"unit": 100, "royalties": "rules-text",
                   "fantasyland": {"enabled": True, "stay": "rules-text"}},
    }, name="OFC-1")
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran")
    return svc, dealer, table.id


def test_ruling_ofc_5_next_hand_starts_in_fantasyland_and_button_moves_once() -> None:
    svc, dealer, table_id = _room()
    events, _ = read_log(EXAMPLES / "ofc-two-players.jsonl")
    now = svc.start_hand(dealer, table_id, button=2)
    for ev in events[1:]:
        now = svc.record(dealer, now.hand.id, ev)
    svc.settle(dealer, now.hand.id)

    second = svc.start_hand(dealer, table_id)
    assert second.replay.start.get("in_fantasyland") == [1]
    assert second.replay.start.get("button") == 1  # nobody was in fantasyland: it moved on
    assert second.prompt().to_act == 2  # seat 1 sets its thirteen after the others' first five


def test_ruling_ofc_5_after_a_change_of_seats_a_seat_still_playing_keeps_fantasyland() -> None:
    """Seat 1 earned fantasyland: it keeps it when seat 3 sits down in place of seat 2, and it
    goes to nobody when seat 1 leaves (the button moves on as usual: nobody played in it)."""
    svc, dealer, table_id = _room()
    events, _ = read_log(EXAMPLES / "ofc-two-players.jsonl")
    now = svc.start_hand(dealer, table_id, button=2)
    for ev in events[1:]:
        now = svc.record(dealer, now.hand.id, ev)
    svc.settle(dealer, now.hand.id)
    last = _LastHand(svc, svc.store.last_hand(table_id))
    assert svc._carried_from_last(last, "ofc", (1, 3)) == {"in_fantasyland": [1]}
    assert svc._carried_from_last(last, "ofc", (2, 3)) == {}
    assert svc._carried_from_last(last, "ofc", (1, 2)) == {"button": 1, "in_fantasyland": [1]}


def test_next_button_moves_left_and_stays_after_a_misdeal() -> None:
    """The next hand's button, as a pure function of the last hand's."""
    from dealer_assist.services.next_hand import next_button

    assert next_button((1, 3, 5), 3, redealt=False) == 5
    assert next_button((1, 3, 5), 5, redealt=False) == 1  # round the table
    assert next_button((1, 3, 5), 4, redealt=False) == 5  # the last button's seat left
    assert next_button((1, 3, 5), 3, redealt=True) == 3  # dealt again as it was
    assert next_button((1, 3, 5), None, redealt=False) == 5  # no last hand: the last seat


def test_stacks_for_takes_given_then_kept_then_buy_in() -> None:
    import pytest

    from dealer_assist.errors import RuleViolation
    from dealer_assist.services.next_hand import stacks_for

    out, changed = stacks_for({1: 500, 2: 0}, (1, 3), 10000, {3: 20000})
    assert out == {1: 500, 3: 20000}
    assert changed == ["seat 3 $200 (the buy-in of $100)"]
    with pytest.raises(RuleViolation, match="seat 2 has no chips left"):
        stacks_for({1: 500, 2: 0}, (1, 2), 10000, {})
