"""The demo's pace: every hand lasts as long as its own inputs take at the stated pace (2 to 9
seconds an input), however many it has; and a room's demo still closes its day together: where
the even share of the hands would keep a table of long hands dealing past the demo's day, each
table deals in proportion to its pace."""

from __future__ import annotations

from dealer_assist.db.demo_plan import (
    BETWEEN_SECONDS,
    DEMO_DAY,
    INPUT_SECONDS,
    demo_kinds,
    plan_table,
    seconds_per_hand,
    share_hands,
)


def test_regression_a_long_dicey_round_lasts_as_long_as_its_inputs() -> None:
    """A whole round of Dicey Poker (hundreds of inputs) was timed as if it had forty."""
    plan = plan_table("dicey-poker", 4, 11, False)
    long = [h for h in plan if len(h.offsets) > 100]
    assert long
    for h in plan:
        steps = [b - a for a, b in zip(h.offsets, h.offsets[1:], strict=False)]
        assert all(INPUT_SECONDS[0] <= s <= INPUT_SECONDS[1] for s in steps)
        assert h.offsets[-1] >= INPUT_SECONDS[0] * (len(h.offsets) - 1)
    assert max(h.offsets[-1] for h in long) > 40 * INPUT_SECONDS[1]  # more than forty inputs


def test_a_small_demo_shares_its_hands_evenly() -> None:
    kinds = demo_kinds()
    assert share_hands(16, kinds[:2], 3) == [8, 8]
    assert share_hands(7, kinds[:2], 3) == [4, 3]
    assert share_hands(5, kinds[:1], 3) == [5]


def test_a_room_demo_gives_a_table_of_long_hands_fewer_so_every_table_fits_the_day() -> None:
    kinds = demo_kinds()
    tables = [kinds[i % len(kinds)] for i in range(len(kinds))]
    shares = share_hands(1000, tables, 1)
    assert sum(shares) == 1000 and min(shares) >= 1
    dicey = tables.index(("dicey-poker", 0))
    chinese = tables.index(("chinese-poker", 0))
    assert shares[dicey] < 1000 // len(tables) < shares[chinese]
    for n, kind in zip(shares, tables, strict=True):
        assert n * seconds_per_hand(*kind, 1) <= DEMO_DAY.total_seconds()
    # a demo whose hands cannot fit one day at any share keeps the even share
    assert share_hands(10_000, tables[:4], 1) == [2500] * 4
    assert BETWEEN_SECONDS[0] < BETWEEN_SECONDS[1]
