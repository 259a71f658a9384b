"""Every common figure of every game's dossier re-derived from the simulated hands' logs.

The dossier writes each dealt hand's log (``logs``); here those logs are read back line by line,
each hand replayed to its settlement by the engine (as ``verify`` would), and every figure the
dossier prints for every game (per hand, per game, per hour) worked out again with plain
arithmetic: sums, counts, sorted lists. Nothing of the dossier's own tallies is used. A game's
own measure that took a common figure's name (Guts' ``pot``, issue 46) made the dossier print
the wrong number; here it would fail.

Whole games are checked to be whole: each hand's stacks are the last hand's stacks after it (or
the buy-in for a seat that had nothing left, or at a new game of a game that starts every stack
again), each pot carried in is the last hand's carry-over, and every session ends with a game
ended by its rule.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.dossier.build import Dossier, Figure, build_dossier
from dealer_assist.dossier.simulate import plan
from dealer_assist.engine.declare import COMMON, PER_GAME, RESERVED_KEYS, GameDossier, Measure
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.engine.log import hand_events
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.fees.policy import fund_of
from dealer_assist.services.next_hand import carried_from, next_button
from dealer_assist.settings.table import parse_table_settings

SHIPPED = [g for g in game_names()
           if type(get_game(g)).__module__.startswith("dealer_assist.games.")]
#: Hands per game's test: small, so the suite stays fast (a game of many hands plays its
#: sessions' last games to their end, so a few more are dealt).
HANDS = {"dicey-poker": 40, "anaconda": 60}


def _hands(folder: Path) -> list[list[HandReplay]]:
    """Each session's hands, from its log file, replayed: a hand begins at its start line."""
    sessions = []
    for path in sorted(folder.glob("session-*.jsonl")):
        hands: list[list[dict[str, Any]]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            if obj["type"] == "start":
                hands.append([])
            hands[-1].append(obj)
        sessions.append([replay(hand_events(h)) for h in hands])
    return sessions


def _quantile(values: Sequence[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[math.ceil(q * len(ordered)) - 1]


def _figure(figures: Sequence[Figure], label: str) -> Figure | None:
    return next((f for f in figures if f.label == label), None)


def _same_money(f: Figure | None, values: list[int], label: str) -> None:
    if not values or (min(values) == 0 == max(values)):
        assert f is None, f"{label}: printed though nothing was seen"
        return
    assert f is not None, f"{label}: not printed"
    assert f.n == len(values), label
    assert math.isclose(f.mean, sum(values) / len(values), rel_tol=1e-12), label
    assert (f.median, f.p95, f.largest) == (
        _quantile(values, 0.5), _quantile(values, 0.95), max(values)), label


def _same_count(f: Figure | None, values: list[int], label: str) -> None:
    assert f is not None and f.n == len(values), label
    assert math.isclose(f.mean, sum(values) / len(values), rel_tol=1e-12), label
    assert f.largest == max(values), label


def _same_share(f: Figure | None, values: list[bool], label: str) -> None:
    assert f is not None and f.n == len(values), label
    assert math.isclose(f.mean, sum(values) / len(values), rel_tol=1e-12), label


def _dossier(game: str, folder: Path) -> tuple[Dossier, Any]:
    demo = get_game(game).demo
    assert demo is not None
    document = dict(demo.settings)
    settings = parse_table_settings(document)
    d = build_dossier(document, settings, source=f"{game}.toml", sha256="cd" * 32,
                      hands=HANDS.get(game, 150), seed=11, workers=1, chunk=50,
                      logs=str(folder))
    return d, plan(document, settings)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_common_figure_rederived_from_the_hand_logs(name: str, tmp_path: Path) -> None:
    d, p = _dossier(name, tmp_path)
    game = get_game(name)
    spec = game.dossier()
    assert spec is not None
    sessions = _hands(tmp_path)
    hands = [h for s in sessions for h in s]
    assert d.failed == 0 and d.checked == d.hands == len(hands)

    # --- per hand: straight from each replayed hand's settlement ---------------------------
    per: dict[str, list[Any]] = {m.key: [] for m in COMMON}
    seconds: list[int] = []
    for h in hands:
        s = h.settle()
        assert s.conserved
        inputs = len(h.steps) - 1
        house = [f.amount for f in s.fees if fund_of(f.kind) == "house"]
        per["inputs"].append(inputs)
        per["pot"].append(sum(s.put_in.values()) + s.carry_in)
        per["fee"].append(sum(house))
        per["fee_taken"].append(sum(house) > 0)
        per["fund"].append(sum(f.amount for f in s.fees if fund_of(f.kind) != "house"))
        per["carries"].append(s.carry_out > 0)
        if s.carry_out > 0:
            per["carry"].append(s.carry_out)
        per["carry_in"].append(s.carry_in)
        seconds.append(d.pace.per_input * inputs + d.pace.between)
    for m in COMMON:
        f = _figure(d.figures, m.label)
        if m.kind == "money":
            _same_money(f, per[m.key], m.label)
        elif m.kind == "share":
            _same_share(f, per[m.key], m.label)
        else:
            _same_count(f, per[m.key], m.label)

    # --- per hour, at the stated pace ------------------------------------------------------
    hph = _figure(d.pace_figures, "Hands per hour")
    assert hph is not None and hph.n == len(hands)
    assert math.isclose(hph.mean, 3600 * len(seconds) / sum(seconds), rel_tol=1e-12)
    fee_hour = _figure(d.pace_figures, "House fee per hour")
    assert fee_hour is not None
    assert math.isclose(fee_hour.mean, 3600 * sum(per["fee"]) / sum(seconds), rel_tol=1e-12)

    # --- per game: hands grouped into games by the game's own rule -------------------------
    if spec.played == "hand":
        assert d.per_game_figures == () and d.games == 0
        return
    games = _games(sessions, game, spec, p.buy_in, d)
    assert len(games) == d.games and d.games + d.stopped > 0
    if not games:  # (Preference: the players end a game; these never chose to in time)
        assert d.per_game_figures == () and d.stopped > 0
        return
    for m in PER_GAME:
        f = _figure(d.per_game_figures, m.label)
        values = [g[m.key] for g in games]
        if m.key == "rebuys" and not (game.plays_with_stacks and p.buy_in is not None):
            assert f is None  # (no stacks: nobody buys in again)
        elif m.key == "seconds":
            assert f is not None and f.n == len(values)
            assert math.isclose(f.mean, sum(values) / len(values) / 60, rel_tol=1e-12)
        elif m.kind == "money":
            _same_money(f, values, m.label)
        else:
            _same_count(f, values, m.label)


def _games(sessions: list[list[HandReplay]], game: Any, spec: GameDossier,
           buy_in: int | None, d: Dossier) -> list[dict[str, int]]:
    """The games of every session, each from its first hand to the hand its rule ends it at;
    and on the way, every hand's start held to what the hand before it left."""
    out: list[dict[str, int]] = []
    stacks_key, carry_key = game.key("stacks"), game.key("carry_in")
    stacked = game.plays_with_stacks and buy_in is not None
    for session in sessions:
        now = _new()
        after: dict[int, int] | None = None
        carry = 0
        new_game = True
        last: HandReplay | None = None
        for h in session:
            start = h.start
            if "carry_in" in game.start_keys:  # the pot carried in is the last carry-over
                assert start.params.get(carry_key, 0) == carry
            if last is not None:  # what the game carries, and the deal moved round
                _follows(game, last, h, ended=new_game)
            last = h
            if stacked:
                given = {int(k): v for k, v in start.params[stacks_key].items()}
                for seat, chips in given.items():
                    had = buy_in if after is None or (new_game and spec.restack) else after[seat]
                    if had == 0:  # nothing left: bought in again
                        assert chips == buy_in
                        now["rebuys"] += 1
                    else:  # the stack runs on from the hand before
                        assert chips == had, f"seat {seat} starts with {chips}, had {had}"
            s = h.settle()
            inputs = len(h.steps) - 1
            now["hands"] += 1
            now["seconds"] += d.pace.per_input * inputs + d.pace.between
            now["fee"] += sum(f.amount for f in s.fees if fund_of(f.kind) == "house")
            now["net"].update({seat: v for seat, v in s.net().items()})
            carry = s.carry_out
            if stacked:
                left = game.stacks_left(h.state)
                after = {seat: chips + s.payouts.get(seat, 0) for seat, chips in left.items()}
            new_game = bool(game.game_over(h.state))
            if new_game or now["hands"] >= spec.most_hands:
                if new_game:
                    net = now.pop("net")
                    out.append({**now, "won": sum(v for v in net.values() if v > 0)})
                now = _new()
                new_game = True
        assert now["hands"] == 0, "a session ended inside a game: its last game was cut"
    return out


def _follows(game: Any, last: HandReplay, h: HandReplay, *, ended: bool) -> None:
    """``h`` starts as the table starts the hand after ``last``: with what the game carries
    (a running total; nothing once a game ended) and the button moved on (or kept where the
    game keeps it: the same dealer deals again)."""
    carried = {} if ended else carried_from(game, last.start, last.state, last.start.seats,
                                            misdealt=False)
    for key in game.carries:
        assert h.start.params.get(key) == carried.get(key), key
    button = game.key("button")
    if game.rotates:
        kept = {} if ended else game.next_hand(last.state)
        want = kept.get(button, next_button(last.start.seats, last.start.params[button],
                                            redealt=False))
        assert h.start.params[button] == want


def _new() -> dict[str, Any]:
    return {"hands": 0, "seconds": 0, "fee": 0, "rebuys": 0, "net": Counter()}


def test_regression_guts_chips_in_play_are_not_its_pot_played_for(tmp_path: Path) -> None:
    # issue 46: Guts' own "pot" measure overwrote the common one, and "chips in play per hand"
    # printed the pot played for (about half); "carried, when it carries" was a mean over
    # every hand. Now each is its own figure.
    d, _ = _dossier("guts", tmp_path)
    in_play = _figure(d.figures, "Chips in play per hand (put in, with the carry-in)")
    played = _figure(d.game_figures, "The pot played for")
    carried = _figure(d.figures, "Carried to the next hand, over the hands that carry")
    carries = _figure(d.figures, "Hands that carry money to the next hand")
    assert in_play is not None and played is not None and carried is not None
    assert carries is not None
    assert in_play.mean > 1.5 * played.mean
    assert carried.n == round(carries.mean * carries.n) < d.hands


def test_a_game_measure_taking_a_common_name_is_refused() -> None:
    for key in ("pot", "carry", "fee", "seconds"):
        assert key in RESERVED_KEYS
        with pytest.raises(ValueError, match=f"measure '{key}' takes the name of a figure "
                                             "every game has"):
            GameDossier(rules=(), rulings=(), strategy="",
                        measures=(Measure(key, "The pot played for", "money"),))
    with pytest.raises(ValueError, match="labelled 'House fee per hand'"):
        GameDossier(rules=(), rulings=(), strategy="",
                    measures=(Measure("house", "House fee per hand", "money"),))
    with pytest.raises(ValueError, match="declared twice"):
        GameDossier(rules=(), rulings=(), strategy="",
                    measures=(Measure("a", "A", "count"), Measure("a", "B", "count")))


def test_a_game_whose_dossier_clashes_is_refused_when_it_registers() -> None:
    from dealer_assist.engine.registry import _LOADED, _MODULES, register

    register("clashing-game", "tests.dossier.clashing_game")
    try:
        with pytest.raises(TypeError, match="measure 'pot' takes the name of a figure"):
            get_game("clashing-game")
    finally:
        _MODULES.pop("clashing-game", None)
        _LOADED.pop("clashing-game", None)
