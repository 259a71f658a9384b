"""The table's fee as a hand reads it: the start's ``"fee"`` setting read once for every game,
the fees paid before the deal, and what each seat paid of them. A game asks here rather than
parsing the setting itself, so every game reads the table's fee the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.engine.base import FeeLine
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees.collect import pre_deal_fees
from dealer_assist.fees.parse import parse_fee_policy
from dealer_assist.fees.policy import FeeContext, FeePolicy


def table_policy(start: Start) -> FeePolicy | None:
    """The table's fee policy as the hand's start gives it (None: the table takes no fee)."""
    return fee_setting_policy(start.get("fee"))


def fee_setting_policy(setting: Any) -> FeePolicy | None:
    """The policy of a start's ``"fee"`` setting a game has already taken from the start and
    kept (Caro Hold 'em keeps it in its settings): the same reading as :func:`table_policy`."""
    return parse_fee_policy(setting)


def fees_by_seat(seats: tuple[int, ...], fees: Sequence[FeeLine]) -> dict[int, int]:
    """The house fees each seat paid before the deal (every seat listed, 0 if none)."""
    fee_of = dict.fromkeys(seats, 0)
    for line in fees:
        if line.from_seat is not None:
            fee_of[line.from_seat] += line.amount
    return fee_of


def player_to_player_fees(start: Start, seats: tuple[int, ...],
                          button: int) -> tuple[FeeLine, ...]:
    """The table's fee for a game settled player to player (the open-face games, Mille),
    collected before the deal: there is no pot for a rake, a collection or a jackpot drop to
    come out of, so those are refused with what the table may take instead."""
    policy = table_policy(start)
    if policy is None:
        return ()
    if not policy.before_deal or policy.jackpot is not None:
        raise RuleViolation(
            f"{start.game} is settled player to player and has no pot: a rake, a collection "
            "from the pot or a jackpot drop has nothing to come out of; use a per-player fee, "
            "a fixed fee from the button or a time collection", rule="fees")
    chip = start.get("smallest_chip", 1)
    if not isinstance(chip, int) or isinstance(chip, bool) or chip < 1:
        raise RuleViolation(f'"smallest_chip" must be whole cents, at least 1, not {chip!r}',
                            rule="settings")
    return tuple(pre_deal_fees(policy, FeeContext(seats=seats, button=button,
                                                   smallest_chip=chip)))
