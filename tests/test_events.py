"""Events round-trip through their JSON form; bad lines are named precisely."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.engine.hand import parse_lines
from dealer_assist.errors import BadInput, HandLogError
from dealer_assist.events import CardDealt, Discard, Start, Void, event_from_json


def test_events_round_trip_through_json() -> None:
    for ev in [
        CardDealt(seat=4, card=parse_card("9d")),
        Discard(seat=1, cards=(parse_card("3d"),)),
        Discard(seat=1, count=2),
        Void(target=3, reason="wrong card"),
    ]:
        assert event_from_json(ev.to_json()) == ev


def test_start_keeps_game_settings_flat_in_json() -> None:
    obj = {"type": "start", "game": "champs-and-cowards", "seats": [1, 2, 3], "chip": 200}
    ev = event_from_json(obj)
    assert isinstance(ev, Start) and ev.seats == (1, 2, 3) and ev.get("chip") == 200
    assert ev.to_json() == obj


def test_unknown_fields_and_types_are_named() -> None:
    with pytest.raises(BadInput, match='unknown event type "chmp"'):
        event_from_json({"type": "chmp", "seat": 1})
    with pytest.raises(BadInput, match='"card" does not take colour'):
        event_from_json({"type": "card", "seat": 1, "card": "9d", "colour": "red"})
    with pytest.raises(BadInput, match="not a card"):
        event_from_json({"type": "card", "seat": 1, "card": "9x"})


def test_malformed_line_is_named_by_number() -> None:
    with pytest.raises(HandLogError, match="line 2: not valid JSON"):
        parse_lines(['{"type":"start","game":"champs-and-cowards","seats":[1,2,3]}', "{oops"])


def test_regression_hand_log_void_or_misdeal_without_reason_is_refused() -> None:
    """The dealer screen always asks why; a hand log read by replay or import must say it too."""
    start = '{"type":"start","game":"champs-and-cowards","seats":[1,2]}'
    with pytest.raises(HandLogError, match='line 3: a void needs a reason: write why in "reason"'):
        parse_lines([start, '{"type":"card","seat":1,"card":"9d"}',
                     '{"type":"void","target":2,"reason":"  "}'])
    with pytest.raises(HandLogError, match="line 2: a misdeal needs a reason"):
        parse_lines([start, '{"type":"misdeal","reason":""}'])
    events, _ = parse_lines([start, '{"type":"misdeal","reason":"card exposed"}'])
    assert events[-1].TYPE == "misdeal"
