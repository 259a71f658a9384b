"""What the games whose pot carries from hand to hand share: the house fee on the chips put in
during the hand (never again on a pot carried in, fees ruling), taken when the hand settles,
first from the chips that go on to the next pot, then from what is pushed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dealer_assist.engine.base import FeeLine
from dealer_assist.fees import FeeContext, FeePolicy, pot_fees


def hand_fees(policy: FeePolicy | None, *, seats: tuple[int, ...], button: int | None,
              base: int, contested: bool, smallest_chip: int) -> list[FeeLine]:
    """The fees taken from the pot at settlement, worked out on ``base``: the chips put in
    during this hand (antes, wagers, payments into the pot), never the pot carried in.
    ``contested`` stands for "the flop was seen" of a "no flop, no drop" table: in a game with
    no flop, whether the pot was played for."""
    if policy is None or base <= 0:
        return []
    return pot_fees(policy, FeeContext(seats=seats, button=button, pot=base,
                                       saw_flop=contested, smallest_chip=smallest_chip))


def take_from(shares: Mapping[int, int], amount: int, order: Sequence[int],
              smallest_chip: int) -> dict[int, int]:
    """``shares`` with ``amount`` taken out of them as evenly as whole chips allow, the odd chips
    from the first seats of ``order``; a share never goes below zero."""
    out = dict(shares)
    left = amount
    seats = [s for s in order if out.get(s, 0) > 0]
    while left > 0 and seats:
        for s in list(seats):
            if left <= 0:
                break
            chip = min(smallest_chip, left, out[s])
            out[s] -= chip
            left -= chip
            if out[s] == 0:
                seats.remove(s)
    if left > 0:
        raise ValueError(f"{amount} cannot come out of shares of {sum(shares.values())}")
    return out
