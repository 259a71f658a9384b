"""What the games whose pot carries from hand to hand share: the house fee on the chips put in
during the hand (never again on a pot carried in, fees ruling), taken when the hand settles,
first from the chips that go on to the next pot, then from what is pushed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.engine.base import FeeLine
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import (
    FeeContext,
    FeePolicy,
    down_to_chip,
    pot_fees,
    pre_deal_fees,
)
from dealer_assist.fees.table import table_policy
from dealer_assist.money import format_cents


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


@dataclass(frozen=True, slots=True)
class TableFee:
    """A carried-pot hand's fee settings, read once at the start: the policy, the smallest chip
    a fee taken from the pot is rounded down to, and the fees paid before the deal."""

    policy: FeePolicy | None = None
    smallest_chip: int = 1
    before_deal: tuple[FeeLine, ...] = ()


#: A table without a fee (a state's default).
NO_FEE = TableFee()


def table_fee(start: Start, seats: tuple[int, ...], button: int, *,
              smallest_chip: int) -> TableFee:
    """The table's fee for a hand: a fee per player, a fixed fee from the button (the dealer)
    or a time collection is paid before the deal; a rake, a collection from the pot or a
    jackpot drop is worked out at settlement (:func:`collect`). ``smallest_chip`` is the game's
    own smallest chip, used when the start names none."""
    chip = start.get("smallest_chip", smallest_chip)
    if not isinstance(chip, int) or isinstance(chip, bool) or chip < 1:
        raise RuleViolation(f'"smallest_chip" must be whole cents, at least 1, not {chip!r}',
                            rule="settings")
    policy = table_policy(start)
    if policy is None:
        return TableFee(smallest_chip=chip)
    return TableFee(policy=policy, smallest_chip=chip, before_deal=tuple(pre_deal_fees(
        policy, FeeContext(seats=seats, button=button, smallest_chip=chip))))


@dataclass(frozen=True, slots=True)
class Collected:
    """The fees taken from the pot at settlement and what is left: the next pot and each
    seat's share of the pot after the fees."""

    fees: tuple[FeeLine, ...]
    carry: int
    shares: dict[int, int]

    @property
    def fee(self) -> int:
        return sum(f.amount for f in self.fees)

    def cut(self, seat: int, share: int) -> int:
        """How much of ``seat``'s share of ``share`` went to the fees."""
        return share - self.shares.get(seat, 0)


def collect(fee: TableFee, *, seats: tuple[int, ...], button: int | None, base: int,
            contested: bool, carry: int, shares: Mapping[int, int],
            order: Sequence[int]) -> Collected:
    """The fees worked out on ``base`` (this hand's chips into the pot, :func:`hand_fees`),
    taken first from ``carry`` (what goes on to the next pot), then from the pot's ``shares``
    as evenly as whole chips allow (the odd chips from the first seats of ``order``). A fixed
    amount larger than the pot could give is cut to what there is; chips are conserved."""
    lines = hand_fees(fee.policy, seats=seats, button=button, base=base, contested=contested,
                      smallest_chip=fee.smallest_chip)
    room = carry + sum(shares.values())
    fees: list[FeeLine] = []
    for line in lines:
        take = down_to_chip(min(room, line.amount), fee.smallest_chip)
        room -= take
        if take:
            fees.append(FeeLine(line.kind, take, line.from_seat, line.note, line.base))
    total = sum(f.amount for f in fees)
    from_carry = min(total, carry)
    left = take_from(shares, total - from_carry, order, fee.smallest_chip)
    return Collected(fees=tuple(fees), carry=carry - from_carry, shares=left)


def fee_text(line: FeeLine) -> str:
    """A fee taken from the pot, for the dealer's push steps: ``Drop $1 rake (10% of $10)``."""
    return f"Drop {format_cents(line.amount)} {line.kind}" + (f" ({line.note})"
                                                             if line.note else "")
