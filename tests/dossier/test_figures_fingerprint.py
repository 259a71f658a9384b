"""The dossier's figures for a seed never change when the simulation is made faster: the Champs
and Cowards demo table's 2,000 hands at seed 1 give exactly the figures recorded here (a digest
of every tally, and a few figures in the clear so a change says where it is), and so does every
game's demo table at 120 hands."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from dealer_assist.dossier.simulate import Tally, plan, simulate
from dealer_assist.engine.registry import get_game
from dealer_assist.settings.table import parse_table_settings


def _canonical(t: Tally) -> str:
    """Every figure of a tally (not its timings), in an order that does not depend on how the
    tallies were filled in."""
    def counts(c: Any) -> Any:
        return None if c is None else sorted(c.items())

    parts: list[Any] = [t.hands, t.checked, t.failed, t.failures]
    for key in sorted(t.numbers):
        n = t.numbers[key]
        parts.append((key, n.n, n.total, n.squares, n.low, n.high, counts(n.values)))
    for key in sorted(t.shares):
        s = t.shares[key]
        parts.append((key, s.n, s.k))
    for key in sorted(t.categories):
        c = t.categories[key]
        parts.append((key, c.n, counts(c.counts)))
    r = t.fee_per_second
    parts.append((r.n, r.a, r.b, r.aa, r.bb, r.ab))
    return repr(parts)


def test_regression_champs_2000_hands_seed_1_give_the_recorded_figures() -> None:
    demo = get_game("champs-and-cowards").demo
    assert demo is not None
    document = dict(demo.settings)
    p = plan(document, parse_table_settings(document))
    t = simulate(p, 2000, seed=1, workers=1, chunk=500)
    assert (t.hands, t.checked, t.failed) == (2000, 2000, 0)
    digest = hashlib.sha256(_canonical(t).encode()).hexdigest()[:16]
    clear = (t.numbers["inputs"].total, t.numbers["pot"].total, t.numbers["fee"].total,
             t.numbers["cards_bought"].total, t.shares["any_destroyed"].k,
             t.categories["places"].counts["three places paid"])
    assert (clear, digest) == (RECORDED_CLEAR, RECORDED_DIGEST)


RECORDED_CLEAR = (57438, 26865000, 1600000, 15110, 2000, 1985)
RECORDED_DIGEST = "9aefcfa37bf91e0a"


#: Every game's demo table, 120 hands at seed 1 on one worker (the many-hand games finish the
#: game in progress, so a few more hands): the hands dealt and a digest of every tally,
#: recorded 2026-11-28 after the whole-games simulation. A faster simulation gives exactly these.
RECORDED_EVERY_GAME = {
    "champs-and-cowards": (120, "037d53a9ee69b956"),
    "caro-holdem": (120, "ab152fd67e8c7a20"),
    "ofc": (120, "2d6e126c8c44edfc"),
    "chinese-poker": (120, "592ac6d48e4ad6cb"),
    "pineapple": (120, "eea4b87bf661a0ea"),
    "guts": (149, "8360124cba0a7ee5"),
    "anaconda": (120, "f86e1c967197d3ac"),
    "dicey-poker": (121, "8073975a67a9b9ba"),
    "mille": (121, "24f8db6c8384e13a"),
    "commerce": (120, "93948b29c9a71186"),
    "paiute": (120, "dfbdb49f16154704"),
    "rams": (129, "75e4cc47771dee19"),
    "preference": (228, "e9ad17d447294efa"),
    "markets": (130, "30c84d76695763ea"),
}


def test_every_game_of_the_app_has_a_recorded_fingerprint() -> None:
    """The app's own games (the registry's, less what tests register for themselves)."""
    from dealer_assist.engine import registry

    ours = sorted(n for n, module in registry._MODULES.items()
                  if module.startswith("dealer_assist.games.") and get_game(n).demo is not None)
    assert sorted(RECORDED_EVERY_GAME) == ours


@pytest.mark.parametrize("name", sorted(RECORDED_EVERY_GAME))
def test_regression_every_games_demo_120_hands_seed_1_give_the_recorded_figures(
        name: str) -> None:
    demo = get_game(name).demo
    assert demo is not None
    document = dict(demo.settings)
    t = simulate(plan(document, parse_table_settings(document)), 120, seed=1, workers=1,
                 chunk=60)
    assert t.hands == t.checked and t.failed == 0
    digest = hashlib.sha256(_canonical(t).encode()).hexdigest()[:16]
    assert (t.hands, digest) == RECORDED_EVERY_GAME[name]
