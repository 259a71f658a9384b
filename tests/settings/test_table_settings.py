"""Table settings files: validation naming the key, fee fit, presets, start-event params, and
``dealer-assist table check / presets / time``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli import main
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.settings import (
    check_table,
    parse_table_settings,
    read_table_settings,
    start_event,
    start_params,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples" / "tables"

CARO: dict[str, Any] = {
    "name": "Table 4", "game": "caro-holdem", "seats": 6, "smallest_chip": 100, "limit": 1000,
    "buy_in": 100000, "params": {"unit": 1000, "ante": 100, "cap": 4},
    "fee": {"kind": "rake", "percent": "5", "cap": 500, "jackpot": {"amount": 100}},
}
CC: dict[str, Any] = {
    "game": "champs-and-cowards", "seats": [1, 2, 3, 4, 5], "smallest_chip": 100,
    "params": {"chip": 200}, "fee": {"kind": "per-player", "amount": 100},
}


def test_start_params_carry_the_fee_chip_and_game_settings() -> None:
    s = parse_table_settings(CARO)
    params = start_params(s, button=6, stacks=dict.fromkeys(s.seats, 100000))
    assert params["type"] == "start" and params["game"] == "caro-holdem"
    assert params["seats"] == [1, 2, 3, 4, 5, 6]
    assert params["button"] == 6 and params["stacks"]["6"] == 100000
    assert params["unit"] == 1000 and params["smallest_chip"] == 100
    assert params["fee"] == {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 0,
                             "no_flop_no_drop": True,
                             "jackpot": {"amount": 100, "min_pot": 0, "fund": "jackpot",
                                         "no_flop_no_drop": True}}
    ev = start_event(s, button=6, stacks=dict.fromkeys(s.seats, 100000))
    assert isinstance(ev, Start) and ev.get("fee") == params["fee"]


def test_start_params_choose_the_fee_rate_for_the_table_limit() -> None:
    data = dict(CC, limit=500, fee={"kind": "by-limit", "rates": [
        {"up_to": 200, "kind": "per-player", "amount": 100},
        {"kind": "per-player", "amount": 200},
    ]})
    assert start_params(parse_table_settings(data))["fee"] == {"kind": "per-player", "amount": 200}
    low = parse_table_settings(dict(data, limit=200))
    assert start_params(low)["fee"]["amount"] == 100


def test_button_outside_the_seats_is_refused() -> None:
    with pytest.raises(RuleViolation, match="the button must be one of the seats"):
        start_params(parse_table_settings(CARO), button=9)


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"gmae": "x"}, BadInput, "gmae is not a table setting; the settings are name, game"),
        ({"game": "blackjack"}, BadInput, "game must be one of"),
        ({"seats": 0}, BadInput, "seats must be 1 to 12 seats"),
        ({"seats": [1, 1, 2]}, BadInput, "seats lists a seat twice"),
        ({"seats": "six"}, BadInput, "seats must be a number of seats"),
        ({"smallest_chip": 0}, BadInput, "smallest_chip must be at least 1"),
        ({"smallest_chip": None}, BadInput, "smallest_chip is missing"),
        ({"limit": 12.5}, BadInput, "limit must be a whole number"),
        ({"params": {"seats": [1]}}, BadInput, "params: seats is a table setting"),
        ({"params": {"button": 1}}, BadInput, "params: button changes every hand"),
        ({"fee": {"kind": "rake", "percent": 5.0}}, BadInput, "fee: fee \"percent\" must be exact"),
        ({"fee": {"kind": "rake", "percent": "5", "cap": 450}}, RuleViolation,
         "fee cap $4.50 is not a whole number of the $1.00 smallest chip"),
        ({"fee": {"kind": "by-limit", "rates": [{"kind": "time", "amount": 500}]}, "limit": None},
         BadInput, "limit is missing: the fee is set by limit"),
    ],
)
def test_bad_settings_name_the_key_and_what_is_allowed(
    change: dict[str, Any], error: type[Exception], message: str
) -> None:
    data = {k: v for k, v in {**CARO, **change}.items() if v is not None}
    with pytest.raises(error) as info:
        parse_table_settings(data, source="t.toml")
    assert message in str(info.value)
    assert str(info.value).startswith("t.toml: ")


def test_ruling_cc_fee_from_the_button_is_refused_there_is_no_button() -> None:
    with pytest.raises(RuleViolation, match="champs-and-cowards has no button"):
        parse_table_settings(dict(CC, fee={"kind": "fixed", "amount": 300, "from": "button"}))


def test_check_table_applies_the_preset() -> None:
    s = parse_table_settings(dict(CARO, preset="fixed-fees-only"))
    with pytest.raises(RuleViolation) as info:
        check_table(s)
    assert 'preset "fixed-fees-only" rule 2: no percentage of the pot' in str(info.value)


def test_check_table_asks_the_game_about_its_own_settings() -> None:
    s = parse_table_settings(dict(CC, params={"chip": 200, "decks": 99}))
    with pytest.raises(RuleViolation, match="the game refuses"):
        check_table(s)


def test_caro_settings_need_a_buy_in_for_the_first_stacks() -> None:
    s = parse_table_settings({k: v for k, v in CARO.items() if k != "buy_in"})
    with pytest.raises(BadInput, match="buy_in is missing"):
        check_table(s)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")) + sorted(EXAMPLES.glob("*.json")))
def test_every_example_table_passes_check(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: OK" in out and "rules pass" in out


def test_examples_cover_both_games() -> None:
    games = {read_table_settings(p).game for p in EXAMPLES.glob("*.*") if p.suffix != ".jsonl"}
    assert {"champs-and-cowards", "caro-holdem"} <= games


def test_cli_table_check_refusal_exits_non_zero_with_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps(dict(CARO, preset="one-fee-type")), encoding="utf-8")
    assert main(["table", "check", str(f)]) == 2
    err = capsys.readouterr().err
    assert 'preset "one-fee-type" rule 1: one fee type per table' in err
    assert "Traceback" not in err


def test_cli_table_check_bad_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.toml"
    f.write_text('game = "caro-holdem"\nseats = [1, 2\n', encoding="utf-8")
    assert main(["table", "check", str(f)]) == 2
    assert "is not valid TOML" in capsys.readouterr().err
    assert main(["table", "check", str(tmp_path / "missing.toml")]) == 2
    assert "no such table settings file" in capsys.readouterr().err


def test_cli_table_check_start_prints_the_first_start_event(
    capsys: pytest.CaptureFixture[str]
) -> None:
    path = EXAMPLES / "caro-holdem-rake.toml"
    assert main(["table", "check", str(path), "--start"]) == 0
    start = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert start["button"] == 6 and start["fee"]["percent"] == "5"


def test_cli_table_presets_lists_rules_and_a_room_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "room.toml").write_text(
        'title = "Room rules"\n[[rules]]\ntext = "no drop"\nmax_drop = 0\n', encoding="utf-8"
    )
    assert main(["table", "presets", "--presets", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "fixed-fees-only: Fixed fees only, set before the deal" in out
    assert "  rule 2: no percentage of the pot" in out
    assert "room: Room rules" in out and "  rule 1: no drop" in out


def test_cli_table_check_with_a_room_preset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "room.toml").write_text(
        '[[rules]]\ntext = "no jackpot drop"\nmax_drop = 0\n', encoding="utf-8"
    )
    f = tmp_path / "t.json"
    f.write_text(json.dumps(dict(CARO, preset="room")), encoding="utf-8")
    assert main(["table", "check", str(f), "--presets", str(tmp_path)]) == 2
    assert 'preset "room" rule 1: no jackpot drop' in capsys.readouterr().err
    f.write_text(json.dumps(dict(CARO, preset="room", presets_dir=str(tmp_path))),
                 encoding="utf-8")
    assert main(["table", "check", str(f)]) == 2


def test_cli_table_time_totals_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    settings = EXAMPLES / "caro-holdem-time-by-limit.toml"
    log = EXAMPLES / "time-log.jsonl"
    assert main(["table", "time", str(settings), str(log)]) == 0
    out = capsys.readouterr().out
    assert "seat 1 total $15" in out and "seat 3 total $10" in out
    assert "time collected: $50" in out
    assert main(["table", "time", str(settings), str(log), "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)
    assert len(lines) == 10 and lines[0]["period"] == 1 and lines[0]["fund"] == "house"
