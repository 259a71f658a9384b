"""A table's fee schedule: one policy, or several rates chosen by the table's betting limit.

A room often sets its collection by limit ("$3 a half hour up to $10/$20, $5 above"). The table
settings hold the schedule; each hand's start event carries the one policy its limit selects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees.parse import parse_fee_policy
from dealer_assist.fees.policy import FeePolicy
from dealer_assist.money import format_cents


@dataclass(frozen=True, slots=True)
class Rate:
    """One rate of a schedule: applies to limits up to ``up_to`` cents (``None``: any limit)."""

    up_to: int | None
    policy: FeePolicy


@dataclass(frozen=True, slots=True)
class FeeSchedule:
    """The rates in ascending ``up_to`` order; a plain policy is one rate with no bound."""

    rates: tuple[Rate, ...]
    by_limit: bool = False

    @property
    def policies(self) -> tuple[FeePolicy, ...]:
        return tuple(r.policy for r in self.rates)

    def for_limit(self, limit: int | None) -> FeePolicy:
        """The policy for a table whose betting limit is ``limit`` cents."""
        if not self.by_limit:
            return self.rates[0].policy
        if limit is None:
            raise RuleViolation(
                'the fee depends on the limit: give the table\'s "limit" (its bet in cents)'
            )
        for rate in self.rates:
            if rate.up_to is None or limit <= rate.up_to:
                return rate.policy
        top = self.rates[-1].up_to or 0
        raise RuleViolation(
            f"no fee rate covers a {format_cents(limit)} limit: the highest rate is for limits "
            f"up to {format_cents(top)}; add a rate without \"up_to\" for higher limits"
        )

    def to_json(self) -> dict[str, Any]:
        if not self.by_limit:
            return self.rates[0].policy.to_json()
        return {
            "kind": "by-limit",
            "rates": [
                ({"up_to": r.up_to} if r.up_to is not None else {}) | r.policy.to_json()
                for r in self.rates
            ],
        }

    def describe(self) -> str:
        if not self.by_limit:
            return self.rates[0].policy.describe()
        parts = []
        for r in self.rates:
            bound = f"up to {format_cents(r.up_to)}" if r.up_to is not None else "above"
            parts.append(f"limits {bound}: {r.policy.describe()}")
        return "; ".join(parts)


def parse_fee_schedule(obj: Any) -> FeeSchedule | None:
    """A table's ``fee`` setting: a fee object, or ``{"kind": "by-limit", "rates": [...]}``
    whose rates are fee objects each with an ``up_to`` limit in cents (the last may have none).
    """
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise BadInput('the "fee" must be an object like {"kind": "rake", "percent": "5"}')
    if obj.get("kind") != "by-limit":
        policy = parse_fee_policy(obj)
        assert policy is not None
        return FeeSchedule(rates=(Rate(None, policy),))
    unknown = sorted(set(obj) - {"kind", "rates"})
    if unknown:
        raise BadInput(f'a by-limit fee takes only "rates", not {", ".join(unknown)}')
    raw = obj.get("rates")
    if not isinstance(raw, list) or not raw:
        raise BadInput('a by-limit fee needs "rates": a list of fee objects, each with "up_to"')
    rates: list[Rate] = []
    for i, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            raise BadInput(f"fee rate {i} must be an object")
        up_to = item.get("up_to")
        if up_to is not None and (isinstance(up_to, bool) or not isinstance(up_to, int)
                                  or up_to <= 0):
            raise BadInput(f'fee rate {i} "up_to" must be a limit in cents above 0, not {up_to!r}')
        body = {k: v for k, v in item.items() if k != "up_to"}
        try:
            policy = parse_fee_policy(body)
        except BadInput as exc:
            raise BadInput(f"fee rate {i}: {exc}") from exc
        except RuleViolation as exc:
            raise RuleViolation(f"fee rate {i}: {exc}") from exc
        assert policy is not None
        rates.append(Rate(up_to, policy))
    bounded = [r.up_to for r in rates if r.up_to is not None]
    if any(r.up_to is None for r in rates[:-1]):
        raise BadInput('only the last fee rate may leave out "up_to" (it covers higher limits)')
    if bounded != sorted(set(bounded)):
        raise BadInput('fee rates must be in rising "up_to" order, each limit once')
    return FeeSchedule(rates=tuple(rates), by_limit=True)
