"""Caro Hold 'em: bad hand logs are refused by ``dealer-assist replay`` with the line and ruling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli import main

START: dict[str, Any] = {
    "type": "start", "game": "caro-holdem", "seats": [1, 2, 3], "button": 3, "unit": 1000,
    "ante": 100, "stacks": {"1": 100000, "2": 100000, "3": 1500},
}


def _a(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


CASES = {
    "discard before a check": (
        [_a("discard", 1, cards=["3d"]), _a("check", 1)], 3,
        "a discard comes just before a bet, call or raise, never before a check", 5,
    ),
    "keeping no card": (
        [_a("discard", 1, cards=["2c", "3c", "4c", "5c", "6c"])], 2,
        "seat 1 holds 5 cards and must keep at least one", 5,
    ),
    "a raise past the cap": (
        [_a("bet", 1), _a("raise", 2), _a("fold", 3), _a("raise", 1), _a("raise", 2),
         _a("raise", 1)], 7,
        "the pre-flip is capped at level 4", 1,
    ),
    "a partial raise": (
        [_a("bet", 1), _a("fold", 2), _a("raise", 3)], 4,
        "seat 3 cannot raise: holding 5 cards it costs $100 and they have $14; "
        "no partial raises", 6,
    ),
    "acting out of turn": (
        [_a("check", 2)], 2, "seat 2 acted out of turn: seat 1 is to act", 3,
    ),
    "a board card too early": (
        [_a("check", 1), {"type": "board", "cards": ["Ah", "Kd"]}], 3,
        "too early for the board: the pre-flip betting is not over (seat 2 is to act)", 2,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_bad_log_refused_with_line_and_ruling(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events, line, text, ruling = CASES[name]
    log = tmp_path / "hand.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in [START, *events]))
    code = main(["replay", str(log)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"error: line {line}: ")
    assert text in err
    assert err.rstrip().endswith(f"(ruling caro-{ruling})")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seats": [1]}, "needs at least 2 seats"),
        ({"button": 7}, "the button"),
        ({"blinds": [500, 1000]}, 'either "ante" or "blinds"'),
        ({"stacks": {"1": 100000, "2": 100000}}, 'missing seat 3'),
        ({"unit": "ten"}, '"unit" must be a whole number of cents'),
        ({"seats": list(range(1, 10)), "button": 1}, "at most 8 players"),
        ({"multipliers": [1, 2]}, "four round multipliers"),
        ({"blind": [500, 1000]}, "does not take blind (it takes button, unit, ante, blinds"),
    ],
)
def test_rule_bad_settings_refused_on_line_1(
    change: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "hand.jsonl"
    log.write_text(json.dumps(START | change) + "\n")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: line 1: ") and message in err


def test_rule_replay_json_of_an_unfinished_hand_says_who_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "hand.jsonl"
    log.write_text(json.dumps(START) + "\n" + json.dumps(_a("bet", 1)) + "\n")
    assert main(["replay", "--json", str(log)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is False
    assert out["prompt"].startswith("Seat 2 to act: holds 5 cards, owes $50 to call")
    assert out["pots"] == [{"amount": 5300, "eligible": [1, 2, 3], "winners": []}]
