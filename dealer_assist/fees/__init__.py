"""House fees: rake, fixed and per-player collections, time, jackpot drops, and presets.

A game reads the table's fee with :func:`dealer_assist.fees.table.table_policy` (the start
event's ``"fee"`` through :func:`parse_fee_policy`), then calls :func:`pre_deal_fees` and
:func:`pot_fees` with a :class:`FeeContext`, and lists every
:class:`~dealer_assist.engine.base.FeeLine` in its settlement. Schema and rulings: docs/fees.md.
"""

from __future__ import annotations

from dealer_assist.engine.base import FeeLine
from dealer_assist.fees.collect import down_to_chip, pot_fees, pre_deal_fees
from dealer_assist.fees.ledger import LedgerLine, fund_totals, hand_ledger, kind_totals
from dealer_assist.fees.parse import parse_fee_policy, parse_percent
from dealer_assist.fees.policy import (
    BILLINGS,
    DROP_FUNDS,
    KINDS,
    LINE_FUNDS,
    Drop,
    FeeContext,
    FeePolicy,
    fund_of,
)
from dealer_assist.fees.time import (
    TimeState,
    time_apply,
    time_check,
    time_fees,
    time_start,
    timed_events,
)

__all__ = [
    "BILLINGS",
    "DROP_FUNDS",
    "KINDS",
    "LINE_FUNDS",
    "Drop",
    "FeeContext",
    "FeeLine",
    "FeePolicy",
    "LedgerLine",
    "TimeState",
    "down_to_chip",
    "fund_of",
    "fund_totals",
    "hand_ledger",
    "kind_totals",
    "parse_fee_policy",
    "parse_percent",
    "pot_fees",
    "pre_deal_fees",
    "time_apply",
    "time_check",
    "time_fees",
    "time_start",
    "timed_events",
]
