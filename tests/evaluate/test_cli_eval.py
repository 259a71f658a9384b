"""``dealer-assist eval``: ranking, constraints, lows, front rows, errors and the census."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_assist.cli import main
from dealer_assist.evaluate import Census

CENSUS = {
    "royal flush": 4,
    "straight flush": 36,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "pair": 1_098_240,
    "high card": 1_302_540,
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def census_json() -> dict[str, Any]:
    """One real census run (every five-card hand), shared by the census tests."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["eval", "--census", "--json"]) == 0
    data: dict[str, Any] = json.loads(buf.getvalue())
    return data


def test_rule_census_counts_every_category_and_7462_distinct_values(
    census_json: dict[str, Any],
) -> None:
    assert census_json == {"categories": CENSUS, "distinct": 7462}
    assert sum(census_json["categories"].values()) == 2_598_960
    # Royal flushes are their own category here: 4 + 36 = the 40 straight flushes.
    cats = census_json["categories"]
    assert cats["royal flush"] + cats["straight flush"] == 40


def test_census_text_report(
    census_json: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    done = Census(categories=dict(census_json["categories"]), distinct=census_json["distinct"])
    monkeypatch.setattr("dealer_assist.evaluate.five_card_census", lambda: done)
    code, out, _ = run(capsys, "--census")
    assert code == 0
    assert "2,598,960 hands" in out
    assert "full house           3,744" in out
    assert "distinct values      7,462" in out


def test_eval_prints_category_description_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "9s", "9h", "4c", "4d", "As", "2c", "3d")
    assert code == 0
    assert "category:    two pair" in out
    assert "description: two pair, nines and fours, ace kicker" in out
    assert "cards:       9s 9h 4d 4c As" in out


def test_eval_ruling_caro_9_with_max_private(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--board", "As 4h 5h 9c 9d", "--private", "3h 6h 7h 4c Td",
        "--max-private", "2", "--json",
    )
    assert code == 0
    assert json.loads(out) == {
        "category": "two pair",
        "description": "two pair, nines and fours, ace kicker",
        "cards": "9d 9c 4h 4c As",
        "private_used": "4c",
    }


def test_eval_exact_private(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--board", "Ah Kh Qh Jh 2c", "--private", "Th 3s 4d 5c", "--exact-private", "2"
    )
    assert code == 0
    assert "high card, ace-king-queen-ten-five" in out
    assert "private used: Th 5c" in out


def test_eval_low_and_no_low(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--low", "8s", "6h", "4c", "2d", "Ad", "Kc", "8c")
    assert code == 0 and "low:   eight-six low" in out and "ranks: 8-6-4-2-A" in out
    code, out, _ = run(capsys, "--low", "9s 6h 4c 2d Ad Kc Qc")
    assert code == 0 and "no low" in out
    code, out, _ = run(capsys, "--low", "--qualifier", "0", "9s 6h 4c 2d Ad Kc Qc")
    assert "nine-six low" in out


def test_eval_front_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "QsQhAc")
    assert code == 0 and "pair of queens, ace kicker" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Xs", "Kd", "Qd", "Jd", "Td"], "'Xs' is not a card"),
        (["As", "As", "Kd", "Qd", "Jd"], "As is given twice"),
        (["As", "Kd"], "2 cards given"),
        ([], "give the cards to rank"),
        (["--census", "As"], "give it no cards"),
        (["--max-private", "2", "As", "Kd", "Qd", "Jd", "Td"], "need --board and --private"),
        (["Jk", "Kd", "Qd", "Jd", "Td"], "a joker cannot be ranked"),
    ],
)
def test_eval_bad_input_is_a_clear_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
