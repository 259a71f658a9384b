"""verify's look-up of the dealer down at a table for each input answers as ``dealer_at``
does: for a table whose downs follow one another (searched by start), and for one whose downs
overlap or run backwards (searched one by one)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from dealer_assist.db.dealer_box_verify import dealer_finder
from dealer_assist.services.dealer_box import Down, dealer_at

T0 = datetime(2026, 11, 21, 18, tzinfo=UTC)


def _downs(rng: random.Random) -> list[Down]:
    out: list[Down] = []
    at = T0
    for i in range(60):  # table 1: in order, with gaps, a zero-length down, the last running
        start = at + timedelta(minutes=rng.choice([0, 0, 5]))
        end = None if i == 59 else start + timedelta(minutes=rng.choice([0, 20, 30]))
        out.append(Down(f"d{i % 4}", "deal", 1, start, end, len(out) + 1))
        out.append(Down(f"d{(i + 1) % 4}", "break", None, start, end, len(out) + 1))
        at = end or start
    for i in range(30):  # table 2: overlapping downs, one ending before it starts
        start = T0 + timedelta(minutes=rng.randint(0, 600))
        end = start + timedelta(minutes=rng.randint(-5, 60))
        out.append(Down(f"e{i % 3}", "deal", 2, start, end, len(out) + 1))
    return out


def test_the_dealer_finder_answers_as_dealer_at_for_every_input_time() -> None:
    rng = random.Random(7)
    downs = _downs(rng)
    find = dealer_finder(downs)
    times = [T0 + timedelta(minutes=m) for m in range(-10, 2000, 5)]
    times += [d.start for d in downs] + [d.end for d in downs if d.end is not None]
    answers = {(table, t): find(table, t) for table in (1, 2, 3) for t in times}
    assert answers == {(table, t): dealer_at(downs, table, t) for table, t in answers}
    assert sum(a is not None for (table, _), a in answers.items() if table == 1) > 100
    assert any(a is not None for (table, _), a in answers.items() if table == 2)
