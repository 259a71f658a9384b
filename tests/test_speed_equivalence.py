"""The faster ways of reading, replaying and settling give what the plain definitions give.

Each speed-up keeps one version of the rule: these tests pin the refusals word for word, hold
the pot arithmetic to its definition, and check the pieces the verifier relies on (a card's
hash, the replay loop's handling of starts, voids and misdeals, the paused collector).
"""

from __future__ import annotations

import gc
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import RANK_CHARS, SUITS, Card, parse_card
from dealer_assist.engine.hand import Folded, Refused, parse_lines
from dealer_assist.engine.pots import Pot, build_pots
from dealer_assist.engine.stored import fold
from dealer_assist.errors import BadInput
from dealer_assist.events import Call, Discard, Start, event_from_json, event_from_line
from dealer_assist.games.champs_and_cowards.events import EVENTS as CC_EVENTS
from dealer_assist.gc_pause import paused_gc
from dealer_assist.services.verify import HandInfo, check_hand

# --- reading events: every refusal word for word -----------------------------------------------

REFUSED_LINES = [
    ([], "an event must be a JSON object"),
    ({"type": 5}, 'the line has no "type"'),
    ({"type": "nope"}, 'unknown event type "nope"'),
    ({"type": "call"}, '"call" needs seat'),
    ({"type": "call", "seat": "3"}, "\"call\" field seat must be a whole number, not '3'"),
    ({"type": "call", "seat": True}, '"call" field seat must be a whole number, not True'),
    ({"type": "call", "seat": 3.0}, '"call" field seat must be a whole number, not 3.0'),
    ({"type": "call", "seat": 3, "extra": 1, "also": 2}, '"call" does not take also, extra'),
    ({"type": "board", "cards": "Ah"}, '"board" field cards must be a list'),
    ({"type": "board", "cards": ["Ah", 5]}, '"board" field cards must be a card like "9d"'),
    ({"type": "board"}, '"board" needs cards'),
    ({"type": "discard", "seat": 2, "count": "2"},
     "\"discard\" field count must be a whole number, not '2'"),
    ({"type": "void", "target": 3, "reason": 7}, '"void" field reason must be text'),
    ({"type": "misdeal", "reason": "x", "seat": 1}, '"misdeal" does not take seat'),
    ({"type": "start", "game": 5, "seats": [1]}, '"start" field game must be text'),
    ({"type": "start", "game": "g", "seats": ["1"]},
     "\"start\" field seats must be a whole number, not '1'"),
    ({"type": "start", "seats": [1, 2]}, '"start" needs game'),
    ({"type": "card", "seat": 1, "card": ["Ah"]}, '"card" field card must be a card like "9d"'),
    ({"type": "reshuffle", "x": 1}, '"reshuffle" does not take x'),
]


@pytest.mark.parametrize(("obj", "message"), REFUSED_LINES)
def test_regression_event_refusals_read_as_before(obj: object, message: str) -> None:
    with pytest.raises(BadInput) as exc:
        event_from_json(obj)  # type: ignore[arg-type]
    assert str(exc.value) == message


def test_regression_event_bad_card_names_the_text() -> None:
    with pytest.raises(BadInput, match="'Zz' is not a card"):
        event_from_line('{"type":"board","cards":["Ah","Zz"]}')


def test_regression_event_stored_keys_ignored_and_params_kept() -> None:
    assert event_from_json({"type": "call", "seat": 3, "hash": "x", "seq": 4}) == Call(seat=3)
    start = event_from_json(
        {"type": "start", "game": "g", "seats": [1, 2], "button": 1, "time": "t",
         "fee": {"kind": "none"}}
    )
    assert isinstance(start, Start)
    assert start.seats == (1, 2)
    assert dict(start.params) == {"button": 1, "fee": {"kind": "none"}}
    discard = event_from_json({"type": "discard", "seat": 2, "cards": ["10h", "2c"],
                               "count": None})
    assert discard == Discard(seat=2, cards=(parse_card("Th"), parse_card("2c")), count=None)


# --- a card's hash ----------------------------------------------------------------------------


def test_regression_card_hash_equal_cards_equal_and_all_distinct() -> None:
    cards = [Card(RANK_CHARS.index(r) + 2, s) for r in RANK_CHARS for s in SUITS]
    cards.append(Card.joker())
    assert len({hash(c) for c in cards}) == 53
    assert hash(parse_card("10♥")) == hash(parse_card("th")) == hash(Card(10, "h"))
    moved = pickle.loads(pickle.dumps(frozenset(cards)))
    assert all(c in moved for c in cards)
    assert {parse_card("As"): 1}[pickle.loads(pickle.dumps(parse_card("As")))] == 1


# --- pots: the level arithmetic against its definition ----------------------------------------


def _pots_by_definition(
    contributions: dict[int, int], live: list[int], capped: list[int], order: list[int]
) -> list[Pot]:
    """Main pot then side pots, one per capped level, written as plainly as possible."""
    rank = {s: i for i, s in enumerate(order)}
    capped_live = set(capped) & set(live)
    levels = sorted({contributions.get(s, 0) for s in capped_live} - {0})
    pots = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions.values())
        eligible = sorted(
            (s for s in live if s not in capped_live or contributions.get(s, 0) >= level),
            key=lambda s: rank[s],
        )
        pots.append(Pot(amount, tuple(eligible), level))
        previous = level
    rest = sum(c - min(c, previous) for c in contributions.values())
    uncapped = sorted((s for s in live if s not in capped_live), key=lambda s: rank[s])
    if uncapped:
        if rest or not pots:
            pots.append(Pot(rest, tuple(uncapped), None))
    elif pots:
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible, pots[-1].level)
    else:  # every live seat capped at nothing: one pot, all of them
        pots.append(Pot(rest, tuple(sorted(live, key=lambda s: rank[s])), None))
    merged: list[Pot] = []
    for pot in pots:
        if merged and merged[-1].eligible == pot.eligible:
            merged[-1] = Pot(merged[-1].amount + pot.amount, pot.eligible, pot.level)
        else:
            merged.append(pot)
    return merged


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 40).map(lambda x: x * 25), min_size=2, max_size=9),
    st.data(),
)
def test_rule_side_pots_match_their_definition(amounts: list[int], data: st.DataObject) -> None:
    seats = list(range(1, len(amounts) + 1))
    order = data.draw(st.permutations(seats))
    contributions = dict(zip(seats, amounts, strict=True))
    live = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    capped = data.draw(st.lists(st.sampled_from(live), unique=True))
    got = build_pots(contributions, live=live, capped=capped, order=order)
    assert got == _pots_by_definition(contributions, live, capped, order)
    assert sum(p.amount for p in got) == sum(amounts)


def test_rule_side_pot_levels_worked_example() -> None:
    pots = build_pots({1: 700, 2: 6650, 3: 1250, 4: 3050, 6: 1825, 7: 4450},
                      live=[1, 2, 4, 6], capped=[1, 6], order=(1, 2, 3, 4, 6, 7))
    assert pots == [Pot(4200, (1, 2, 4, 6), 700), Pot(5050, (2, 4, 6), 1825),
                    Pot(8675, (2, 4), None)]


# --- the replay loop: starts, voids and misdeals told apart from the other events -------------

_CC = '{"type":"start","game":"champs-and-cowards","seats":[1,2,3],"chip":100}'


def _events(*lines: str) -> list[object]:
    return list(parse_lines(lines)[0])


def test_regression_fold_second_start_refused_at_its_place() -> None:
    got = fold(_events(_CC, '{"type":"card","seat":1,"card":"9d"}', _CC))  # type: ignore[arg-type]
    assert got == Refused(2, "a second start event: one hand per log")


def test_regression_fold_event_after_misdeal_refused_and_voids_skipped() -> None:
    events = _events(
        _CC,
        '{"type":"card","seat":1,"card":"9d"}',
        '{"type":"card","seat":2,"card":"Td"}',
        '{"type":"void","target":3,"reason":"wrong card"}',
        '{"type":"card","seat":2,"card":"Jd"}',
        '{"type":"misdeal","reason":"card exposed"}',
    )
    got = fold(events)  # type: ignore[arg-type]
    assert isinstance(got, Folded)
    assert got.misdeal is not None
    assert got.settle().conserved
    after = fold([*events, event_from_line('{"type":"champ","seat":1}', CC_EVENTS)])  # type: ignore[list-item]
    assert isinstance(after, Refused)
    assert after.index == 6
    assert "misdeal" in after.reason


# --- the paused collector ---------------------------------------------------------------------


def test_regression_paused_gc_restores_the_collector() -> None:
    was = gc.isenabled()
    try:
        gc.enable()
        with paused_gc():
            assert not gc.isenabled()
        assert gc.isenabled()
        with pytest.raises(ValueError), paused_gc():
            raise ValueError("a part failed")
        assert gc.isenabled()
        gc.disable()
        with paused_gc():
            pass
        assert not gc.isenabled()  # (left off as it was found)
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def test_regression_hands_starting_alike_each_replay_on_their_own() -> None:
    """The start's state is worked out once per text; each hand still checks its own events."""
    deal = [_CC, '{"type":"card","seat":1,"card":"9d"}', '{"type":"card","seat":2,"card":"Td"}',
            '{"type":"card","seat":3,"card":"Jd"}']
    info = HandInfo(1, 1, "open")
    assert check_hand((1, info, [1, 2, 3, 4], deal, None)) is None
    again = [*deal[:3], '{"type":"card","seat":1,"card":"Jd"}']
    assert check_hand((2, info, [5, 6, 7, 8], again, None)) == (
        8, "hand 1 does not replay: card out of turn: the next up card goes to seat 3, "
           "not seat 1", 2)
    assert check_hand((3, info, [9, 10, 11, 12], deal, None)) is None
    two = '{"type":"start","game":"champs-and-cowards","seats":[1,2],"chip":100}'
    for hand_id in (4, 5):  # a refused start is refused each time, in the same words
        assert check_hand((hand_id, info, [1], [two], None)) == (
            1, "hand 1 does not replay: Champs and Cowards needs at least 3 players, not 2",
            hand_id)
