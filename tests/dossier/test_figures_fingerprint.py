"""The dossier's figures for a seed never change when the simulation is made faster: the Champs
and Cowards demo table's 2,000 hands at seed 1 give exactly the figures recorded here (a digest
of every tally, and a few figures in the clear so a change says where it is)."""

from __future__ import annotations

import hashlib
from typing import Any

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
