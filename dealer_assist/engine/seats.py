"""The seat order every game deals, bids and shows in: clockwise from the dealer's left (the
seat after the button), the dealer last. Written once here so that no game works it out again
by index arithmetic of its own."""

from __future__ import annotations

from collections.abc import Sequence


def from_left(seats: Sequence[int], dealer: int) -> tuple[int, ...]:
    """``seats`` (listed clockwise) from the one on ``dealer``'s left round to ``dealer``, who
    comes last. ``dealer`` must be one of ``seats`` (a :class:`ValueError` otherwise)."""
    seats = tuple(seats)
    i = seats.index(dealer) + 1
    return seats[i:] + seats[:i]


def after(order: Sequence[int], seat: int) -> tuple[int, ...]:
    """The seats after ``seat`` in ``order``, to the end of it (through the dealer)."""
    order = tuple(order)
    return order[order.index(seat) + 1:]
