"""Pots and payouts of a betting hand, the ordinary (hold 'em) way.

A seat that is all-in is capped by what it put in, so each all-in level closes a pot (the main
pot, then the side pots); folded money stays in the pots it reached. A seat still in with chips
behind has matched every bet when a round closes (chips nobody matched have gone back to their
owner then: ``BettingState.returned``), so it contests every pot, antes of different sizes
included (Markets poker: the dealer antes two chips, the others one). The pots
come from :func:`dealer_assist.engine.pots.build_pots`, shared with Caro Hold 'em.

The game says who wins each pot (``winners``): one group of seats, or several groups that share
it in equal parts (hi-lo: the high half, then the low half; the first part takes the odd chip).
Within a part tied winners split in the smallest chip, odd chips one at a time from the first
winner left of the button. The house fee is the game's: ``fee`` gets the pots and returns the
cents to take (the fees engine works it out); it comes out of the pots from the main pot on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.betting.state import BettingState
from dealer_assist.engine.evolve import builder
from dealer_assist.engine.pots import Pot, build_pots, clockwise_from_button, split_pot


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot paid out: its amount, who could win it, the fee taken from it, the winning
    groups (one per equal part) and what each seat got."""

    amount: int
    eligible: tuple[int, ...]
    fee: int
    parts: tuple[tuple[int, ...], ...]
    shares: Mapping[int, int]

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat paid from this pot, in the order of the parts."""
        seen: list[int] = []
        for part in self.parts:
            seen.extend(s for s in part if s not in seen)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Payout:
    """The end of the hand in money: ``won`` is what each seat takes from the pots,
    ``returned`` its uncalled chips (already back in its stack in the state), ``payouts`` the
    two together: everything pushed to the seat, as a settlement lists it against ``put_in``.
    In equals out: sum of ``put_in`` plus ``pot_in`` is payouts plus fee. A seat's stack after
    the hand is its stack in the state plus ``won``."""

    pots: tuple[PotAward, ...]
    put_in: Mapping[int, int]
    returned: Mapping[int, int]
    won: Mapping[int, int]
    payouts: Mapping[int, int]
    fee: int
    pot_in: int
    #: Chips left in the pot for the next hand: the odd chips of a split that a game leaves
    #: (``award(leave_odd=True)``).
    left: int = 0

    @property
    def conserved(self) -> bool:
        return (sum(self.put_in.values()) + self.pot_in
                == sum(self.payouts.values()) + self.fee + self.left)

    def net(self) -> dict[int, int]:
        return {s: self.payouts[s] - self.put_in[s] for s in self.put_in}


def pots(state: BettingState) -> tuple[Pot, ...]:
    """The main pot, then the side pots, as they stand now (bets in front included); money
    brought in from another hand is in the main pot."""
    live = state.live
    all_in = [s for i, s in enumerate(state.seats) if not state.folded[i] and not state.stacks[i]]
    found = build_pots(
        state.contributions(),
        live=live,
        capped=all_in,
        order=clockwise_from_button(state.seats, state.button),
    )
    if state.pot_in and found:
        first = found[0]
        found[0] = Pot(first.amount + state.pot_in, first.eligible, first.level)
    return tuple(found)


def showdown_order(state: BettingState) -> tuple[int, ...]:
    """Who shows first at the showdown: the last to bet or raise in the last betting round,
    or, if that round was checked through, the first seat left of the button; then clockwise.
    Only seats still in."""
    live = state.live
    if state.aggressor is not None and state.aggressor in live:
        k = live.index(state.aggressor)
        return live[k:] + live[:k]
    return live


Winners = Callable[[Pot], Sequence[Sequence[int]]]
Fee = Callable[[tuple[Pot, ...]], int]


def _parts(amount: int, count: int, smallest_chip: int) -> list[int]:
    """``amount`` in ``count`` equal parts of whole chips; the odd chips to the first parts."""
    share = (amount // (smallest_chip * count)) * smallest_chip
    out = [share] * count
    left = amount - share * count
    k = 0
    while left > 0:
        give = min(smallest_chip, left)
        out[k % count] += give
        left -= give
        k += 1
    return out


def award(
    state: BettingState,
    *,
    winners: Winners | None = None,
    smallest_chip: int = 1,
    fee: Fee | None = None,
    leave_odd: bool = False,
) -> Payout:
    """Pay every pot. With one seat left it takes everything and ``winners`` is not asked;
    otherwise the last betting round must be closed (the game knows which round is the last)
    and ``winners(pot)`` names the winning groups among ``pot.eligible``. ``leave_odd``: what
    cannot be split evenly in the smallest chip (between the groups, then among a group's
    seats) stays in the pot for the next hand (:attr:`Payout.left`) instead of going out one
    chip at a time from the button's left."""
    if state.to_act is not None:
        raise ValueError(f"seat {state.seat_to_act} is still to act: no pot can be paid yet")
    found = pots(state)
    alone = state.hand_over
    # Uncalled chips went back when their round closed, so every chip still in a pot was called
    # (a folded player's included): the fee may come out of any pot (fees ruling).
    takeable = [p.amount for p in found]
    to_take = fee(found) if fee is not None else 0
    if to_take < 0 or to_take > sum(takeable):
        raise ValueError(f"a fee of {to_take} cannot come out of pots of {sum(takeable)}")
    seats = state.seats
    won = {s: 0 for s in seats}
    awards: list[PotAward] = []
    left = 0
    for pot, room in zip(found, takeable, strict=True):
        taken = min(to_take, room)
        to_take -= taken
        net = pot.amount - taken
        if alone or len(pot.eligible) == 1:
            groups: tuple[tuple[int, ...], ...] = (
                (state.live[0],) if alone else pot.eligible,
            )
        else:
            if winners is None:
                raise ValueError("more than one player is in: say who wins each pot")
            groups = tuple(tuple(g) for g in winners(pot) if g)
            if not groups:
                raise ValueError("every pot needs a winner")
            for group in groups:
                strangers = [s for s in group if s not in pot.eligible]
                if strangers:
                    raise ValueError(f"seat {strangers[0]} cannot win a pot it is not in")
        shares: dict[int, int] = {}
        parts = _parts(net, len(groups), smallest_chip)
        if leave_odd:
            even = net // (smallest_chip * len(groups)) * smallest_chip
            parts = [even] * len(groups)
            left += net - even * len(groups)
        for group, part in zip(groups, parts, strict=True):
            if leave_odd:
                each = part // (smallest_chip * len(group)) * smallest_chip
                left += part - each * len(group)
                split = dict.fromkeys(group, each)
            else:
                split = split_pot(
                    part, group, seats=seats, button=state.button, smallest_chip=smallest_chip
                )
            for s, cents in split.items():
                shares[s] = shares.get(s, 0) + cents
        for s, cents in shares.items():
            won[s] += cents
        awards.append(
            _pot_award(
                amount=pot.amount, eligible=pot.eligible, fee=taken, parts=groups, shares=shares
            )
        )
    result = _payout(
        pots=tuple(awards),
        put_in={s: state.put_in[i] for i, s in enumerate(seats)},
        returned={s: state.returned[i] for i, s in enumerate(seats)},
        won=won,
        payouts={s: won[s] + state.returned[i] for i, s in enumerate(seats)},
        fee=sum(a.fee for a in awards),
        pot_in=state.pot_in,
        left=left,
    )
    if not result.conserved:
        raise AssertionError("the payout does not conserve chips")
    return result


#: (the payout's records without the frozen constructors' cost: verify and every report settle
#: each hand again)
_pot_award = builder(PotAward)
_payout = builder(Payout)


def best_first(strength: Mapping[int, Any]) -> Winners:
    """A ``winners`` for one-way games: the seats of the pot with the top ``strength``
    (any mutually comparable values, higher is better); seats missing from it cannot win."""

    def pick(pot: Pot) -> Sequence[Sequence[int]]:
        known = [s for s in pot.eligible if s in strength]
        if not known:
            return [pot.eligible]
        top = max(strength[s] for s in known)
        return [[s for s in known if strength[s] == top]]

    return pick
