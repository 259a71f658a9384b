"""``dealer-assist replay``: the dealer's reading of a hand log, its JSON outcome, and bad logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_assist.cli import main

EXAMPLE = "champs-and-cowards-rulings-10"


def example_lines(examples_dir: Path) -> list[str]:
    return (examples_dir / f"{EXAMPLE}.jsonl").read_text().splitlines()


def write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "hand.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_replay_prints_each_step_and_the_push(
    examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(examples_dir / f"{EXAMPLE}.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "Action starts at seat 4 (9d); order 4, 5, 6, 7, 8, 1, 2, 3" in out
    assert "Turn seat 3 face down: voluntarily destroyed (2 points ranked 4th, below third)" in out
    assert "2. Push the bonus pool ($36) to seat 1" in out
    assert "Totals: seat 1 $90, seat 4 $30, seat 8 $12" in out


def test_replay_json_matches_the_expected_outcome(
    examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--json", str(examples_dir / f"{EXAMPLE}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads((examples_dir / f"{EXAMPLE}.expected.json").read_text())
    assert out["places"] == expected["places"] == {"1": 1, "2": 4, "3": 8}
    assert out["payouts"] == expected["payouts"]
    assert out["carry"] == 0 and out["conserved"] is True
    assert {k: v["status"] for k, v in out["seats"].items()} == {
        k: v["status"] for k, v in expected["seats"].items()
    }
    assert [p["amount"] for p in out["push_steps"]] == [5400, 3600, 0, 3000, 0, 1200]


def test_replay_of_an_unfinished_hand_says_what_comes_next(
    tmp_path: Path, examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, example_lines(examples_dir)[:10])
    assert main(["replay", path]) == 0
    assert "Hand not finished. Next: Burn one card and deal seat 4 a card face up" in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("line", "replacement", "message"),
    [
        (5, '{"type": "card", "seat": 4, "card": "9x"}', "line 5: '9x' is not a card"),
        (5, '{"type": "card", "seat": 5, "card": "9d"}',
         "line 5: card out of turn: the next up card goes to seat 4, not seat 5"),
        (10, '{"type": "champ", "seat": 5}',
         "line 10: champ out of turn: it is seat 4's turn, not seat 5's"),
        (11, '{"type": "card", "seat": 4, "card": "Kc"}',
         "line 11: Kc cannot come from the stub: it is already face up at seat 2"),
        (7, '{"type": "card", "seat": 6 "card": "Jc"}', "line 7: not valid JSON"),
    ],
)
def test_replay_refuses_a_bad_log_naming_the_line_and_rule(
    tmp_path: Path, examples_dir: Path, capsys: pytest.CaptureFixture[str],
    line: int, replacement: str, message: str,
) -> None:
    lines = example_lines(examples_dir)
    lines[line - 1] = replacement
    assert main(["replay", write(tmp_path, lines)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: " + message), err


def test_replay_refuses_a_coward_the_last_player_may_not_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        '{"type": "start", "game": "champs-and-cowards", "seats": [1, 2, 3], "chip": 200}',
        '{"type": "card", "seat": 1, "card": "9s"}',
        '{"type": "card", "seat": 2, "card": "4h"}',
        '{"type": "card", "seat": 3, "card": "7c"}',
        '{"type": "coward", "seat": 1}',
        '{"type": "champ", "seat": 2}',
        '{"type": "card", "seat": 2, "card": "Kd"}',
        "",
        '{"type": "coward", "seat": 2}',
        '{"type": "coward", "seat": 3}',
    ]
    assert main(["replay", write(tmp_path, lines)]) == 2
    assert capsys.readouterr().err == (
        "error: line 10: seat 3 cannot stop: 7 points is within 3 of the leader's 9 (seat 1); "
        "as the last to act it must take a card (ruling cc-8)\n"
    )


def test_replay_refuses_a_log_without_a_start(
    tmp_path: Path, examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", write(tmp_path, example_lines(examples_dir)[1:])]) == 2
    assert capsys.readouterr().err == "error: line 1: a hand log must begin with a start event\n"
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_replay_runs_as_a_command(examples_dir: Path, tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "dealer-assist"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "dealer_assist.cli"]
    r = subprocess.run(
        [*cmd, "replay", "--json", str(examples_dir / f"{EXAMPLE}.jsonl")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["payouts"] == {"1": 9000, "4": 3000, "8": 1200}
    bad = write(tmp_path, [*example_lines(examples_dir)[:4], '{"type": "coward", "seat": 1}'])
    r = subprocess.run([*cmd, "replay", bad], capture_output=True, text=True, timeout=60,
                       check=False)
    assert r.returncode == 2
    assert r.stderr.startswith("error: line 5: coward out of turn: the up cards are not all dealt")


def test_replay_of_a_misdeal_gives_every_chip_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write(tmp_path, [
        '{"type":"start","game":"champs-and-cowards","seats":[1,2,3],"chip":200,"decks":1}',
        '{"type":"card","seat":1,"card":"7h"}',
        '{"type":"misdeal","reason":"card exposed"}',
    ])
    assert main(["replay", log]) == 0
    out = capsys.readouterr().out
    assert "  3. misdeal: card exposed" in out
    assert "Misdeal: card exposed. Every chip goes back; no fee is taken." in out
    assert "  3. Misdeal: return $12 to seat 3" in out
    assert main(["replay", "--json", log]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["misdeal"] == "card exposed" and data["over"] and data["conserved"]
    assert data["payouts"] == {"1": 1200, "2": 1200, "3": 1200} and data["fees"] == []
