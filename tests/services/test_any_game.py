"""A game package with its own names for the engine's per-hand keys and a running total,
played through the services (Tally, the test game in tests/anygame): the start of each hand
holds the table's dealer and carried pot under the game's names, the deal rotates though the
game has no button, what the game carries is written into the next start, and a change of
seats keeps what the game says survives it."""

from __future__ import annotations

import random

import pytest
from anygame.play import move, play_rolls, tally_table

from dealer_assist.engine.hand import replay
from dealer_assist.services import Approval
from dealer_assist.services.errors import ApprovalRequired, SignInFailed
from dealer_assist.services.model import HandFilter
from dealer_assist.settings import parse_table_settings, start_params

from .support import make_room


def test_start_keys_under_the_games_names_and_the_deal_rotates_without_a_button() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    first = play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    start = first.replay.start
    assert start.get("dealer") == 4 and start.get("pot_in") == 0
    assert "button" not in start.params and "carry_in" not in start.params
    assert first.game.has_button is False and first.game.rotates
    second = room.svc.start_hand(dee, table)
    # the dealer moves on; the ante of 4 x $1 carries (nobody reached 40)
    assert second.replay.start.get("dealer") == 1
    assert second.replay.start.get("pot_in") == 400
    # the running total is carried by next_hand: seat 1 to move first in hand 1 rolled 6
    assert second.replay.start.get("totals_in") == {"1": 6, "2": 5, "3": 4, "4": 3}


def test_table_settings_refuse_the_games_per_hand_keys_in_params() -> None:
    import pytest
    from anygame.play import SETTINGS

    from dealer_assist.errors import BadInput

    doc = {**SETTINGS, "params": {"ante": 100, "pot_in": 300}}
    with pytest.raises(BadInput, match="pot_in changes every hand"):
        parse_table_settings(doc)
    parsed = parse_table_settings(SETTINGS)
    out = start_params(parsed, button=2, carry_in=700)
    assert out["dealer"] == 2 and out["pot_in"] == 700 and "button" not in out


def test_a_change_of_seats_keeps_what_the_game_says_survives_it() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    later = room.svc.start_hand(dee, table, seats=(1, 2, 4))
    # Tally keeps standings by seat: seat 3 left, the others keep theirs; the pot carries
    assert later.replay.start.get("totals_in") == {"1": 6, "2": 5, "4": 3}
    assert later.replay.start.get("pot_in") == 400


def test_a_new_game_takes_nothing_carried_and_is_on_the_record() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    fresh = room.svc.start_hand(dee, table, new_game=True, approval=Approval("fran", "2222"))
    assert fresh.replay.start.get("totals_in") is None
    assert fresh.replay.start.get("pot_in") == 400  # the chips carried in always carry
    entry = room.store.audit_log(action="stacks")[-1]
    assert "new game: totals_in not carried from the last hand" in entry.detail
    approval = room.store.audit_log(action="approval")[-1]
    assert (approval.actor, approval.detail) == (
        "fran", "start at Tally after hand 1: new game: totals_in not carried from the last hand")


def test_a_new_game_that_drops_a_running_total_needs_the_floor_and_stores_nothing_without(
) -> None:
    """Ending a game that is not over drops what the players built up: the floor approves it
    (a wrong PIN is refused, and no hand is started)."""
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    with pytest.raises(ApprovalRequired, match="drops what the last hand carries"):
        room.svc.start_hand(dee, table, new_game=True)
    with pytest.raises(SignInFailed):
        room.svc.start_hand(dee, table, new_game=True, approval=Approval("fran", "0000"))
    assert len(room.store.list_hands(HandFilter(table_id=table))) == 1
    # with nothing carried (the hand before ended its game) a new game needs nobody
    assert room.svc.start_hand(dee, table).replay.start.get("totals_in") is not None


def test_the_game_ends_at_its_target_and_the_pot_leaves_odd_chips() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    sixes = [6] * 6
    play_rolls(room.svc, dee, table, [sixes, sixes, sixes, [1]])
    # hand 2: the dealer is seat 1, so seat 2 moves first; three seats reach 42
    last = play_rolls(room.svc, dee, table, [[6], [6], [1], [6]])
    assert last.replay.start.get("totals_in") == {"1": 36, "2": 36, "3": 36, "4": 1}
    report = last.game.report(room.svc.hand_replay(last.hand.id).state)
    assert report["game_over"] is True and report["winners"] == [1, 2, 3]
    s = room.svc.hand_replay(last.hand.id).settle()
    # $4 carried + $4 of antes: 266 cents each, the odd 2 cents stay for the next game
    assert dict(s.payouts) == {1: 266, 2: 266, 3: 266} and s.carry_out == 2
    nxt = room.svc.start_hand(dee, table)
    assert nxt.replay.start.get("totals_in") is None  # the next game starts afresh
    assert nxt.replay.start.get("pot_in") == 2


def test_an_app_drawn_roll_is_recorded_so_a_replay_gives_the_same() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    now = room.svc.start_hand(dee, table)
    now = move(room.svc, dee, now, "roll", rng=random.Random(9))
    rolled = now.replay.steps[-1].event
    again = replay([s.event for s in room.svc.hand_replay(now.hand.id).steps])
    assert again.steps[-1].event == rolled
    assert now.game.report(again.state)["points"]["1"] == rolled.value  # type: ignore[attr-defined]


def test_a_floor_decision_the_game_raises_needs_the_floors_approval_on_the_record() -> None:
    import pytest
    from anygame.play import move

    from dealer_assist.cards import parse_cards
    from dealer_assist.engine.build import build_event
    from dealer_assist.services import Approval, ApprovalRequired

    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    now = room.svc.start_hand(dee, table)
    now = move(room.svc, dee, now, "call", {"cards": parse_cards("Qs Qs Qh"),
                                            "combination": "trips"})
    prompt = now.prompt()
    assert prompt.phase == "floor" and [a.kind for a in prompt.actions] == ["ruling"]
    ruling = prompt.actions[0]
    assert ruling.floor
    event = build_event(ruling, {"decision": "void", "reason": "Qh was seen in the pile"},
                        vocab=now.game.events)
    with pytest.raises(ApprovalRequired, match="ruling is the floor's decision"):
        room.svc.record(dee, now.hand.id, event)
    now = room.svc.record(dee, now.hand.id, event, approval=Approval("fran", "2222"))
    # the settlement follows the ruling: the call's 10 points are off
    assert now.game.report(now.state)["points"]["1"] == 0
    entry = room.store.audit_log(action="floor-decision")[-1]
    assert entry.detail.startswith("hand 1 event 3: ") and "decided by fran" in entry.detail
    assert '"decision": "void"' in entry.detail


def test_a_choice_between_hands_is_recorded_and_ends_the_game() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    last = play_rolls(room.svc, dee, table, [[1], [1], [1], [1]], choice="End the game")
    rep = room.svc.hand_replay(last.hand.id)
    assert rep.steps[-1].event.to_json() == {"type": "choose", "choice": "end"}
    s = rep.settle()
    # $4 carried + $4 antes shared by the four seats; the game is over, nothing carries
    assert dict(s.payouts) == {1: 200, 2: 200, 3: 200, 4: 200} and s.carry_out == 0
    assert rep.game.game_over(rep.state)
    assert room.svc.start_hand(dee, table).replay.start.get("totals_in") is None


def test_the_game_so_far_is_the_tables_hands_since_the_last_game_over() -> None:
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    assert room.svc.game_so_far(table).hands == ()
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]], choice="End the game")
    first = play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    second = play_rolls(room.svc, dee, table, [[2], [2], [2], [2]])
    so_far = room.svc.game_so_far(table)
    assert [h.id for h in so_far.hands] == [first.hand.id, second.hand.id]
    assert not so_far.over and so_far.sheet is not None
    # hand 2 of the table deals from seat 2: seat 2 rolled 6, seat 1 (the dealer) last, 3
    assert so_far.sheet.rows == (("1", "3", "6", "5", "4"), ("2", "2", "2", "2", "2"))
    assert so_far.sheet.lines == ("totals: seat 1 5, seat 2 8, seat 3 7, seat 4 6",
                                  "to 40 points")


def test_a_game_of_one_hand_is_its_last_hand() -> None:
    room = make_room()
    first = room.hand(["2d", "9c", "3h"])
    room.svc.settle(room.dealer, first)
    so_far = room.svc.game_so_far(room.table_id)
    assert [h.id for h in so_far.hands] == [first] and so_far.over and so_far.sheet is None
