"""The dossier's simulation settles the state a game's dealing kept (``Game.sample_deal``) rather
than folding the dealt events again, writes each repeated event's line once, and still replays
every hand's log: the same hands and figures as dealing by ``sample_hand`` and folding, and a
log that does not give the dealt hand's settlement is still named on every hand."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

from dealer_assist.dossier.handcheck import LineWriter
from dealer_assist.dossier.simulate import dealer, plan, simulate
from dealer_assist.engine.base import Game, SampleDeal
from dealer_assist.engine.hand import Folded, fold
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.events import Start
from dealer_assist.games.champs_and_cowards.game import ChampsAndCowards
from dealer_assist.settings.table import parse_table_settings

GAMES = [g for g in game_names() if type(get_game(g)).__module__.startswith("dealer_assist.")]

CC: dict[str, Any] = {
    "game": "champs-and-cowards", "seats": 6, "smallest_chip": 100,
    "params": {"chip": 200, "decks": 1}, "fee": {"kind": "per-player", "amount": 100},
}


def _demo_params(name: str) -> tuple[int, dict[str, Any]]:
    game = get_game(name)
    assert game.demo is not None
    document = dict(game.demo.settings)
    p = plan(document, parse_table_settings(document))
    params = dict(p.params)
    if p.carries:
        params[game.key("carry_in")] = 0
    return p.players, params


@pytest.mark.parametrize("name", GAMES)
def test_sample_deal_deals_sample_hands_hands_and_keeps_the_state_they_fold_to(
    name: str,
) -> None:
    game = get_game(name)
    if game.demo is None:
        pytest.skip("the game has no demo table")
    players, params = _demo_params(name)
    one, two = random.Random(11), random.Random(11)
    for _ in range(15):
        dealt = game.sample_deal(one, players=players, params=params)
        assert dealt.events == list(game.sample_hand(two, players=players, params=params))
        if dealt.state is not None:  # kept: exactly what folding the events gives
            folded = fold(dealt.events)
            assert isinstance(folded, Folded)
            assert dealt.state == folded.state
            assert game.settle(dealt.state) == folded.settle()


@pytest.mark.parametrize("name", GAMES)
def test_each_event_is_written_as_its_own_line_whoever_wrote_an_equal_one(name: str) -> None:
    game = get_game(name)
    if game.demo is None:
        pytest.skip("the game has no demo table")
    players, params = _demo_params(name)
    rng = random.Random(4)
    write = LineWriter()
    for _ in range(10):
        events = game.sample_hand(rng, players=players, params=params)
        assert write(events) == [ev.to_line() for ev in events]
    assert write.memo  # (the events that hash were remembered)


def test_same_figures_whether_the_dealing_keeps_its_state_or_the_events_are_folded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = plan(CC, parse_table_settings(CC))
    kept = simulate(p, 120, seed=8, workers=1, chunk=40)
    monkeypatch.setattr(ChampsAndCowards, "sample_deal", Game.sample_deal)
    assert ChampsAndCowards().sample_deal(random.Random(1), players=3).state is None
    folded = simulate(p, 120, seed=8, workers=1, chunk=40)
    assert kept.checked == folded.checked == 120
    assert kept.same_figures(folded)
    assert kept.numbers["cards_bought"].total == folded.numbers["cards_bought"].total > 0


def test_regression_a_kept_state_the_log_does_not_replay_to_is_named_on_every_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the dealing keeps the finished hand's state but its log loses the last input: the replay
    # of the log (not the state the dealing kept) must be what is checked, hand by hand
    real = ChampsAndCowards.sample_deal

    def short_log(self: ChampsAndCowards, rng: random.Random, *, players: int,
                  params: Any = None) -> SampleDeal[Any]:
        dealt = real(self, rng, players=players, params=params)
        return SampleDeal(dealt.events[:-1], dealt.state)

    monkeypatch.setattr(ChampsAndCowards, "sample_deal", short_log)
    p = plan(CC, parse_table_settings(CC))
    t = simulate(p, 30, seed=2, workers=1, chunk=10)
    assert (t.failed, t.checked) == (30, 0)
    assert t.failures[0].startswith("session 1, hand 1: its log does not replay") or \
        t.failures[0] == ("session 1, hand 1: the replay of its log settles differently from "
                          "the hand as dealt")


def test_a_variant_that_deals_its_own_sample_hands_is_dealt_by_them() -> None:
    class OneDeck(ChampsAndCowards):
        def sample_hand(self, rng: random.Random, *, players: int,
                        params: Any = None) -> list[Any]:
            return super().sample_hand(rng, players=players, params={**(params or {}),
                                                                      "decks": 1})

    deal = dealer(OneDeck())
    dealt = deal(random.Random(3), players=4, params={"chip": 100})
    assert dealt.state is None  # its own sample_hand, folded by the simulation
    assert dealt.events == OneDeck().sample_hand(random.Random(3), players=4,
                                                 params={"chip": 100})
    assert dealer(ChampsAndCowards())(random.Random(3), players=4).state is not None


def test_regression_a_start_line_is_remembered_only_for_a_start_that_writes_the_same_line() -> None:
    def start(**params: Any) -> Start:
        return Start(game="champs-and-cowards", seats=(1, 2, 3),
                     params=types.MappingProxyType(params))

    fee = {"kind": "per-player", "amount": 100}
    starts = [
        start(chip=200, carry_in=0, fee=fee), start(chip=200, carry_in=0, fee=dict(fee)),
        start(chip=200, carry_in=0.0, fee=fee), start(chip=200, carry_in=False, fee=fee),
        start(carry_in=0, chip=200, fee=fee), start(chip=200, carry_in=0, fee={**fee, "x": [1]}),
        start(chip=200, carry_in=0, fee={"amount": 100, "kind": "per-player"}),
        start(chip=200, carry_in=0, fee={"kind": "per-player", "amount": 100.0}),
        start(chip=200, carry_in=0, fee={"kind": "per-player", "amount": 100, "s": {1, 2}}),
    ]
    write = LineWriter()
    for ev in starts:
        if isinstance(ev.params["fee"].get("s"), set):  # (a set writes no JSON line at all)
            with pytest.raises(TypeError):
                write([ev])
            continue
        assert write([ev]) == [ev.to_line()]
        assert write([ev]) == [ev.to_line()]
    assert len(write.starts) == 7  # the first two write one line, the set none
