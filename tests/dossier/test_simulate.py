"""Simulation: reproducible from the seed whatever the number of workers, every hand checked,
and a game that does not conserve chips named."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dealer_assist.dossier.build import build_dossier
from dealer_assist.dossier.procedure import general
from dealer_assist.dossier.simulate import plan, simulate
from dealer_assist.settings.table import parse_table_settings
from tests.dossier.broken_game import in_place_of_champs

CC: dict[str, Any] = {
    "game": "champs-and-cowards", "seats": 6, "smallest_chip": 100,
    "params": {"chip": 200, "decks": 1}, "fee": {"kind": "rake", "percent": "10"},
}


def test_same_seed_same_figures_with_one_and_two_workers() -> None:
    p = plan(CC, parse_table_settings(CC))
    one = simulate(p, 240, seed=5, workers=1, chunk=40)
    two = simulate(p, 240, seed=5, workers=2, chunk=40)
    assert one.hands == two.hands == 240
    assert one.checked == 240 and one.failed == 0
    assert one.same_figures(two)
    other = simulate(p, 240, seed=6, workers=1, chunk=40)
    assert not one.same_figures(other)


def test_carry_over_runs_through_a_session() -> None:
    # a rake from the bonus pool only when first place takes it: the pool carries when no
    # hand stands, and the carried fund is what the next hand starts with
    p = plan(CC, parse_table_settings(CC))
    t = simulate(p, 400, seed=3, workers=1, chunk=400)
    carried = t.numbers["carry"]
    starts = t.numbers["carry_in"]
    assert carried.n == t.shares["carries"].k > 0
    # every carry but perhaps the session's last is the next hand's carry-in
    assert carried.high is not None
    assert carried.total - carried.high <= starts.total <= carried.total


def test_general_wording_makes_numbers_cards_and_money_general() -> None:
    assert general("7h cannot come from the stub: it is already face up at seat 1") == \
        "<card> cannot come from the stub: it is already face up at seat N"
    assert general("keep 2: call $40.50, raise to $80") == "keep N: call $N, raise to $N"
    assert general("seat 7 shows first (showdown order 7, 9, 1)") == \
        "seat N shows first (showdown order N, …)"


@pytest.fixture
def broken() -> Iterator[None]:
    with in_place_of_champs():
        yield


def test_regression_a_settlement_that_loses_a_chip_is_named(broken: None) -> None:
    settings = parse_table_settings(CC)
    d = build_dossier(CC, settings, source="cc.toml", sha256="0" * 64, hands=30, seed=1,
                      workers=1, chunk=10)
    assert d.failed == 30 and d.checked == 0
    assert d.failures[0].startswith("session 1, hand 1: its settlement does not conserve chips")
    assert "out " in d.failures[0]
    assert len(d.failures) == 20  # named up to twenty, all counted


def test_the_table_check_compares_each_start_once_whatever_its_stacks() -> None:
    # the hands of a game start alike but for their stacks, button and pot: compared once by
    # what the check reads, and a start at other stakes is still named
    from dealer_assist.dossier.handcheck import SettingsCheck
    from dealer_assist.events import Start

    guts = {"game": "guts", "seats": 3, "smallest_chip": 100, "buy_in": 10000,
            "params": {"ante": 100, "max": 2000}}
    settings = parse_table_settings(guts)
    check = SettingsCheck(settings, plan(guts, settings).params)

    def start(ante: int, stack: int) -> Start:
        return Start(game="guts", seats=(1, 2, 3), params={
            "ante": ante, "max": 2000, "smallest_chip": 100, "button": 1, "pot_in": stack // 10,
            "stacks": {"1": stack, "2": stack, "3": stack}})

    for stack in (10000, 9000, 8000):
        ev = start(100, stack)
        assert check(ev.to_line(), ev) == []
    other = start(200, 9000)
    assert check(other.to_line(), other) == [
        "it is not dealt at the table's settings: ante is 200 where the settings say 100"]
    # a setting the table leaves out is held to the value the game plays it at
    mille = {"game": "mille", "seats": 2, "smallest_chip": 100, "params": {"stakes": [100, 500]}}
    settings = parse_table_settings(mille)
    check = SettingsCheck(settings, plan(mille, settings).params)
    turns = Start(game="mille", seats=(1, 2), params={
        "stakes": [100, 500], "smallest_chip": 100, "dealer": 1, "turns": True})
    assert check(turns.to_line(), turns) == [
        "it is not dealt at the table's settings: turns is true where the table plays false"]
