"""Misdeals: a hand called off with a reason and the floor's PIN. Every chip goes back to the
seat that put it in, no fee is taken, a carry-over passes on untouched, the next hand keeps the
same button (and, in open-face Chinese poker, the same fantasyland seats), nothing more is
entered after it, and voiding the misdeal takes the hand up again."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.engine.hand import replay
from dealer_assist.errors import HandLogError, RuleViolation
from dealer_assist.events import CardDealt, Misdeal, Start, Void
from dealer_assist.games.champs_and_cowards.events import Champ
from dealer_assist.services import (
    Approval,
    ApprovalRequired,
    Argon2PinHasher,
    InMemoryStore,
    NotAllowed,
    Services,
    Session,
    verify_store,
)

FLOOR = Approval(name="fran", pin="2222")
CC: dict[str, Any] = {
    "name": "CC-1", "game": "champs-and-cowards", "seats": 4, "smallest_chip": 100,
    "params": {"chip": 200, "decks": 1}, "fee": {"kind": "per-player", "amount": 100},
}
CARO: dict[str, Any] = {
    "name": "Caro-1", "game": "caro-holdem", "seats": 3, "smallest_chip": 100,
    "buy_in": 100000, "params": {"unit": 1000, "ante": 100, "cap": 4},
}
OFC: dict[str, Any] = {
    "name": "OFC-1", "game": "ofc", "seats": 3, "smallest_chip": 100,
    "params": {"unit": 100}, "fee": {"kind": "per-player", "amount": 100},
}


@pytest.fixture
def room() -> tuple[Services, Session, dict[str, int]]:
    svc = Services(InMemoryStore("Test Room"), hasher=Argon2PinHasher(fast=True))
    admin = svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    ada = Session(user=admin, signed_in_at=svc.clock())
    svc.add_user(ada, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
    svc.add_user(ada, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    tables = {doc["name"]: svc.add_table(ada, doc).id for doc in (CC, CARO, OFC)}
    dealer = svc.sign_in("dana", "1111")
    for i, t in enumerate(tables.values()):  # one dealer at three tables: the floor allows it
        svc.open_shift(dealer, t, floor="fran",
                       approval=Approval(name="fran", pin="2222") if i else None)
    return svc, dealer, tables


def _cards(svc: Services, dealer: Session, hand_id: int, *pairs: tuple[int, str]) -> None:
    for seat, code in pairs:
        svc.record(dealer, hand_id, CardDealt(seat=seat, card=parse_card(code)))


def test_misdeal_needs_a_reason_and_a_floor_persons_pin(room: Any) -> None:
    svc, dealer, tables = room
    hand = svc.start_hand(dealer, tables["CC-1"]).hand
    with pytest.raises(ApprovalRequired, match="floor person's approval"):
        svc.misdeal(dealer, hand.id, "card exposed")
    with pytest.raises(NotAllowed, match="only a floor person can approve"):
        svc.misdeal(dealer, hand.id, "card exposed", approval=Approval("dana", "1111"))
    with pytest.raises(Exception, match="a misdeal needs a reason"):
        svc.misdeal(dealer, hand.id, "  ", approval=FLOOR)
    assert [r.body["type"] for r in svc.hand_events(hand.id)] == ["start"]


def test_misdeal_gives_every_chip_back_and_takes_no_fee(room: Any) -> None:
    svc, dealer, tables = room
    now = svc.start_hand(dealer, tables["CC-1"])
    hand_id = now.hand.id
    _cards(svc, dealer, hand_id, (1, "7h"), (2, "kc"), (3, "2s"), (4, "9d"))
    before = svc.hand_now(hand_id)
    to_act = before.prompt().to_act
    svc.record(dealer, hand_id, Champ(seat=to_act))
    now = svc.misdeal(dealer, hand_id, "two cards stuck together on the deal", approval=FLOOR)
    assert now.over and now.prompt().phase == "misdeal"
    assert now.prompt().message.startswith("Misdeal (two cards stuck together on the deal)")
    s = svc.settle(dealer, hand_id)
    # six-chip ante of $2 chips plus the $1 fee each; the champ paid two chips more
    expected = {seat: 1200 + 100 + (400 if seat == to_act else 0) for seat in (1, 2, 3, 4)}
    assert dict(s.put_in) == expected and dict(s.payouts) == expected
    assert s.fees == () and s.conserved and s.carry_out == s.carry_in == 0
    assert s.steps[0].text == "Misdeal: return $13 to seat 1"
    lines = svc.store.ledger(hand_id)
    assert not [x for x in lines if x.kind == "fee"]
    assert sum(x.amount for x in lines if x.kind == "push") == sum(expected.values())
    audit = svc.store.audit_log(action="misdeal")
    assert len(audit) == 1 and "approved by fran" in audit[0].detail
    assert verify_store(svc.store).ok


def test_nothing_is_entered_after_a_misdeal_but_a_void_of_it(room: Any) -> None:
    svc, dealer, tables = room
    hand_id = svc.start_hand(dealer, tables["CC-1"]).hand.id
    _cards(svc, dealer, hand_id, (1, "7h"))
    svc.misdeal(dealer, hand_id, "dealt out of order", approval=FLOOR)
    with pytest.raises(RuleViolation, match=r"called off as a misdeal \(dealt out of order\): "
                                           "nothing more is entered"):
        _cards(svc, dealer, hand_id, (2, "kc"))
    with pytest.raises(RuleViolation, match="already a misdeal"):
        svc.misdeal(dealer, hand_id, "again", approval=FLOOR)
    now = svc.void(dealer, hand_id, 3, "the floor took it back", approval=FLOOR)
    assert not now.over and now.replay.misdeal is None
    _cards(svc, dealer, hand_id, (2, "kc"))
    assert svc.hand_now(hand_id).prompt().to_act == 3


def test_a_settled_hand_called_off_later_reopens_and_settles_as_refunds(room: Any) -> None:
    svc, dealer, tables = room
    hand_id = svc.start_hand(dealer, tables["Caro-1"]).hand.id
    now = svc.hand_now(hand_id)
    from dealer_assist.events import Fold

    while not now.over:
        now = svc.record(dealer, hand_id, Fold(seat=now.prompt().to_act))
    svc.settle(dealer, hand_id)
    assert svc.hand(hand_id).status == "settled"
    now = svc.misdeal(dealer, hand_id, "deck found one card short", approval=FLOOR)
    assert now.hand.status == "open"
    s = svc.settle(dealer, hand_id)
    assert dict(s.put_in) == dict(s.payouts) == {1: 100, 2: 100, 3: 100}
    assert svc.hand(hand_id).status == "settled" and verify_store(svc.store).ok


def test_next_hand_after_a_misdeal_keeps_the_button(room: Any) -> None:
    svc, dealer, tables = room
    first = svc.start_hand(dealer, tables["Caro-1"])
    button = first.replay.start.params["button"]
    svc.misdeal(dealer, first.hand.id, "exposed card", approval=FLOOR)
    svc.settle(dealer, first.hand.id)
    second = svc.start_hand(dealer, tables["Caro-1"])
    assert second.replay.start.params["button"] == button
    # and an ordinary hand after that moves it on again
    now = second
    from dealer_assist.events import Fold

    while not now.over:
        now = svc.record(dealer, now.hand.id, Fold(seat=now.prompt().to_act))
    svc.settle(dealer, now.hand.id)
    third = svc.start_hand(dealer, tables["Caro-1"])
    assert third.replay.start.params["button"] != button


def test_ofc_misdeal_keeps_fantasyland_and_returns_the_fee(room: Any) -> None:
    svc, dealer, tables = room
    ofc = svc.start_hand(dealer, tables["OFC-1"], button=3)
    hand_id = ofc.hand.id
    s_prompt = ofc.prompt()
    assert s_prompt.to_act == 1
    svc.misdeal(dealer, hand_id, "stub dropped", approval=FLOOR)
    s = svc.settle(dealer, hand_id)
    assert dict(s.put_in) == dict(s.payouts) == {1: 100, 2: 100, 3: 100} and s.fees == ()
    again = svc.start_hand(dealer, tables["OFC-1"])
    assert again.replay.start.params["button"] == 3


def test_replay_of_a_log_with_a_misdeal(room: Any) -> None:
    start = Start(game="champs-and-cowards", seats=(1, 2, 3),
                  params={"chip": 200, "decks": 1, "carry_in": 500})
    events = [start, CardDealt(seat=1, card=parse_card("7h")), Misdeal(reason="exposed")]
    rep = replay(events)
    assert rep.over and rep.misdeal == Misdeal(reason="exposed")
    assert rep.steps[-1].lines == ("misdeal: exposed",)
    s = rep.settle()
    assert dict(s.payouts) == {1: 1200, 2: 1200, 3: 1200}
    assert s.carry_in == s.carry_out == 500 and s.conserved
    assert s.steps[-1].text == "Leave the carry-over of $5 for the next hand"
    with pytest.raises(HandLogError, match="line 4: the hand was called off as a misdeal"):
        replay([*events, CardDealt(seat=2, card=parse_card("kc"))])
    undone = replay([*events, Void(target=3, reason="taken back"),
                     CardDealt(seat=2, card=parse_card("kc"))])
    assert undone.misdeal is None and not undone.over
