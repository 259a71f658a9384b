"""Issue 41, item 12: refusals and prompts in the words the docs promise, on the screen.

A second declaration at Anaconda says "a declaration is final" (it said "seat 1 has no action
on H here"); the dealer's three-card exchange after its blind three names the blind exchange
(it said the box takes 1 to 2 cards); a per-player fee is said at the deal, not only in the
push steps; a revoke at Rams asks the dealer to call the floor in the instructions, not only
in a small line on the felt."""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.cards import parse_cards
from dealer_assist.engine.registry import get_game
from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_focus_and_seat_keys import _screen


def test_ruling_anaconda_2_a_second_declaration_is_final_on_the_screen(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _screen(qtbot, memory_services, {
        "name": "A-5", "game": "anaconda", "seats": 5, "smallest_chip": 100, "buy_in": 20000,
        "params": {"structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400,
                   "cap": 4}})
    events = get_game("anaconda").sample_hand(random.Random(1), players=5)
    first = next(i for i, e in enumerate(events) if e.TYPE == "declare")
    for ev in events[1:first + 1]:
        assert screen.c.record(ev), screen.c.last_error
    seat = events[first].seat
    assert screen.prompt is not None and screen.prompt.phase == "declaring"
    screen.setFocus()
    qtbot.keyClicks(screen, f"{seat}h")
    assert screen.refusal.text() == (f"seat {seat} has already declared {events[first].way}: a "
                                     "declaration is final (ruling anaconda-2)")
    assert len(screen.c.now.replay.steps) == first + 1  # nothing recorded


def test_ruling_commerce_2_the_dealers_blind_exchange_counts_in_the_refusal(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _screen(qtbot, memory_services, {"name": "CM-1", "game": "commerce", "seats": 3,
                                              "smallest_chip": 100, "params": {"stake": 100}})
    c = screen.c

    def act(seat: int, take: str, give: str) -> bool:
        a = next(a for a in c.now.prompt().actions if a.kind == "exchange" and a.seat == seat)
        return c.record(c.event_for(a, take=parse_cards(take), give=parse_cards(give)))

    assert c.record(c.event_for(c.now.prompt().actions[0], parse_cards("kh 9c 2d")))
    assert act(3, "kh 9c 2d", "5s 6s 7d")  # the dealer's blind three
    assert act(1, "5s", "qc") and act(2, "6s", "qd")
    assert "seat 3 has made its three-card exchange this hand (the dealer's blind one " \
           "counts): one or two cards" in screen.instruction_texts()
    assert not act(3, "qc qd 7d", "kh 9c 2d")
    assert c.last_error == ("seat 3 has made its three-card exchange this hand (the dealer's "
                            "blind one counts): exchange one or two cards")


def test_a_per_player_fee_is_said_at_the_deal(qtbot: Any, memory_services: Services) -> None:
    screen = _screen(qtbot, memory_services, {
        "name": "Guts-F", "game": "guts", "seats": 4, "smallest_chip": 100, "buy_in": 10000,
        "params": {"ante": 100, "max": 2000}, "fee": {"kind": "per-player", "amount": 100}})
    assert screen.instruction_texts()[0] == ("Before the deal, take the fee: $1 from each of "
                                             "seats 1, 2, 3, 4 ($4 in all)")
    assert screen.instructions.isVisible()
    screen.setFocus()
    qtbot.keyClick(screen, Qt.Key.Key_I)  # the first input: the fee is taken by now
    assert len(screen.c.now.replay.steps) == 2
    assert not any("fee" in line for line in screen.instruction_texts())


def test_a_revoke_at_rams_asks_the_dealer_to_call_the_floor(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _screen(qtbot, memory_services, {"name": "Rams-1", "game": "rams", "seats": 3,
                                              "smallest_chip": 100, "params": {"stake": 100}})
    c = screen.c

    def key(kind: str, cards: str = "") -> None:
        a = next(a for a in c.now.prompt().actions if a.kind == kind)
        assert c.record(c.event_for(a, parse_cards(cards)) if cards else c.event_for(a)), \
            c.last_error

    key("trump", "7s")
    for kind in ("play", "play", "play"):
        key(kind)
    for code in ("ah", "8d", "8h", "kd"):
        key("card", code)
    assert not any("floor" in line for line in screen.instruction_texts())
    key("card", "9h")  # seat 2 follows hearts now: it showed out of hearts at trick 1
    call = ("Call the floor: revoke: seat 2 at trick 1 (follow suit (hearts)); 9♥ at trick 2 "
            "shows it; the hand is settled as played, the floor decides")
    assert screen.instruction_texts()[0] == call
    assert screen.instructions.isVisible() and call in screen.instructions.text()
