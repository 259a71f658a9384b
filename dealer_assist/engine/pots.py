"""Pots and chip splitting shared by the betting games.

Pots are built from each seat's total put in for the hand. A *capped* seat can win from each
opponent at most what it put in itself, so every capped seat's total is a level that closes a pot
(the main pot, then one side pot per level). A live seat that is not capped contests every pot.

- Hold 'em style games cap every live seat: an unmatched top contribution then forms a pot only
  its owner can win, i.e. the uncalled bet that returns to them.
- Caro Hold 'em caps only the all-in seats: players still in who put in different amounts (they
  hold different numbers of cards) contest all of it, because the difference is the price of
  their extra cards, not an uncalled bet.

Money in a pot only one seat can win goes back to that seat. Splits are made in the table's
smallest chip; the odd chips go one at a time to the tied winners in turn, starting with the first
clockwise from the button.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.engine.evolve import builder
from dealer_assist.engine.seats import from_left


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its cents, the seats that can win it, and the contribution level that closes it.

    ``level`` is ``None`` for the top pot, which no capped seat bounds.
    """

    amount: int
    eligible: tuple[int, ...]
    level: int | None = None

    @property
    def contested(self) -> bool:
        return len(self.eligible) > 1


#: ``Pot(...)`` without the frozen constructor's cost (every replayed hand settles again).
_pot = builder(Pot)


def build_pots(
    contributions: Mapping[int, int],
    *,
    live: Collection[int],
    capped: Collection[int],
    order: Sequence[int] | None = None,
    top_to_every_live: bool = False,
) -> list[Pot]:
    """The main pot then the side pots, from each seat's total for the hand.

    ``contributions`` holds every seat that put chips in (folded seats included); ``live`` the
    seats still in the hand; ``capped`` the live seats whose winnings are bounded by their own
    contribution. ``order`` sorts each pot's eligible seats (default: ascending seat numbers).
    Money above the last level when every live seat is capped (a folded seat's) joins the last
    pot, or, with ``top_to_every_live`` (Caro Hold 'em, ruling caro-6), forms one more pot that
    every live seat contests. The pots always add up to the contributions.
    """
    for seat, amount in contributions.items():
        if amount < 0:
            raise ValueError(f"seat {seat} has a negative contribution {amount}")
    seats_order = list(order) if order is not None else sorted(set(contributions) | set(live))
    rank = {s: i for i, s in enumerate(seats_order)}
    live_set = set(live)
    capped_set = set(capped) & live_set
    if not live_set:
        raise ValueError("a pot needs at least one seat still in the hand")

    def sort(seats: Collection[int]) -> tuple[int, ...]:
        return tuple(sorted(seats, key=lambda s: (rank.get(s, len(rank)), s)))

    if not capped_set:  # no level closes a pot: one pot, every live seat contests it
        return [_pot(sum(contributions.values()), sort(live_set), None)]
    levels = sorted({contributions.get(s, 0) for s in capped_set} - {0})
    pots: list[Pot] = []
    previous = 0
    amounts = list(contributions.values())
    in_order = sort(live_set)  # (each pot's eligible seats are these, some left out)
    for level in levels:
        # what each seat put in between the previous level and this one
        amount = sum([(level if c > level else c) - previous for c in amounts if c > previous])
        eligible = tuple(
            [s for s in in_order if s not in capped_set or contributions.get(s, 0) >= level]
        )
        pots.append(_pot(amount, eligible, level))
        previous = level
    rest = sum([c - previous for c in amounts if c > previous])
    uncapped = tuple([s for s in in_order if s not in capped_set])
    if uncapped:
        if rest or not pots:
            pots.append(_pot(rest, uncapped, None))
    elif pots and rest and top_to_every_live:
        pots.append(_pot(rest, sort(live_set), None))
    elif pots:
        last = pots[-1]
        pots[-1] = _pot(last.amount + rest, last.eligible, last.level)
    else:
        pots.append(_pot(rest, sort(live_set), None))
    return _merge_same_eligible(pots)


def _merge_same_eligible(pots: list[Pot]) -> list[Pot]:
    """Adjacent pots that the same seats contest are one pot."""
    merged: list[Pot] = []
    for pot in pots:
        if merged and merged[-1].eligible == pot.eligible:
            prev = merged[-1]
            merged[-1] = _pot(prev.amount + pot.amount, pot.eligible, pot.level)
        else:
            merged.append(pot)
    return merged


def clockwise_from_button(seats: Sequence[int], button: int) -> list[int]:
    """``seats`` (listed clockwise) starting with the first seat to the button's left."""
    if button not in seats:
        raise ValueError(f"button seat {button} is not at the table")
    return list(from_left(seats, button))


def split_pot(
    amount: int,
    winners: Collection[int],
    *,
    seats: Sequence[int],
    button: int,
    smallest_chip: int = 100,
) -> dict[int, int]:
    """Split ``amount`` equally among ``winners`` in whole smallest chips.

    What cannot be split evenly goes out one chip at a time to the winners in turn, starting with
    the first clockwise from the button; a part of a chip left in the pot (a pot that is not a
    whole number of chips) goes with the last odd chip, so every cent is pushed.
    """
    if amount < 0:
        raise ValueError("a pot cannot be negative")
    if smallest_chip <= 0:
        raise ValueError("the smallest chip must be positive")
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if len(winners) == 1:  # the commonest pot: one winner takes it all
        if button not in seats:
            raise ValueError(f"button seat {button} is not at the table")
        (winner,) = winners
        if winner not in seats:
            raise ValueError("every winner must sit at the table")
        return {winner: amount}
    turn = [s for s in clockwise_from_button(seats, button) if s in set(winners)]
    if len(turn) != len(set(winners)):
        raise ValueError("every winner must sit at the table")
    n = len(turn)
    share = (amount // (smallest_chip * n)) * smallest_chip
    out = {s: share for s in turn}
    left = amount - share * n
    i = 0
    while left > 0:
        give = min(smallest_chip, left)
        out[turn[i % n]] += give
        left -= give
        i += 1
    return out


def odd_chip_seats(
    amount: int,
    winners: Collection[int],
    *,
    seats: Sequence[int],
    button: int,
    smallest_chip: int = 100,
) -> list[int]:
    """The seats that receive an odd chip when ``amount`` is split (for the push steps)."""
    parts = split_pot(amount, winners, seats=seats, button=button, smallest_chip=smallest_chip)
    low = min(parts.values())
    return [s for s in clockwise_from_button(seats, button) if s in parts and parts[s] > low]


def pot_name(i: int, total: int) -> str:
    """What the dealer calls the ``i``-th of ``total`` pots (0 the main pot): "the pot" when
    there is one, "the side pot" when there are two, else "side pot 1", "side pot 2"..."""
    if i == 0:
        return "the main pot" if total > 1 else "the pot"
    return f"side pot {i}" if total > 2 else "the side pot"
