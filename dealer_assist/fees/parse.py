"""Reading a table's fee policy from the ``"fee"`` object of a hand's start (schema in
docs/fees.md): each refusal says which key is wrong and what it allows; percentages are exact
fractions, never floats. A policy read once is remembered, so a replay reads each table's once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees.policy import (
    BILLINGS,
    DROP_FUNDS,
    KINDS,
    SOURCES,
    Drop,
    FeePolicy,
)

#: A percent is written in at most this many characters, with at most this many decimals.
PERCENT_CHARS = 24
PERCENT_PLACES = 12


def parse_percent(value: Any, *, key: str = "percent") -> Fraction:
    """``"5"``, ``"2.5"`` or ``5`` -> the fraction of the pot; floats are refused (inexact)."""
    if isinstance(value, (bool, float)):
        raise BadInput(
            f'fee "{key}" must be exact: write it as text like "5" or "2.5", '
            f'or use "bps" (basis points, 500 = 5%)'
        )
    if isinstance(value, int):
        pct = Fraction(value)
    elif isinstance(value, str):
        text = value.strip().rstrip("%").strip()
        if len(text) > PERCENT_CHARS:
            raise BadInput(f'fee "{key}" {value[:20]!r}… is too long: write a percent like '
                           '"5" or "2.5"')
        try:
            d = Decimal(text)
        except InvalidOperation as exc:
            raise BadInput(f'fee "{key}" {value!r} is not a number like "5" or "2.5"') from exc
        if not d.is_finite():
            raise BadInput(f'fee "{key}" {value!r} is not a number like "5" or "2.5"')
        exponent = d.as_tuple().exponent
        if not isinstance(exponent, int) or not -PERCENT_PLACES <= exponent <= 3:
            # (an exponent like 1e-999999999 would take forever to turn into a fraction)
            raise BadInput(f'fee "{key}" {value!r} is not a percent like "5" or "2.5" (at '
                           f"most {PERCENT_PLACES} decimal places)")
        pct = Fraction(d)
    else:
        raise BadInput(f'fee "{key}" must be text like "5" or "2.5", not {value!r}')
    if not 0 <= pct <= 100:
        raise RuleViolation(f'fee "{key}" must be between 0 and 100, not {value}')
    return pct / 100


def _cents(obj: Mapping[str, Any], key: str, *, default: int | None = None, where: str) -> int:
    value = obj.get(key, default)
    if value is None:
        raise BadInput(f'{where} needs "{key}" (an amount in cents, e.g. 100 for $1)')
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f'{where} "{key}" must be whole cents (e.g. 100 for $1), not {value!r}')
    if value < 0:
        raise RuleViolation(f'{where} "{key}" cannot be negative ({value})')
    return value


def _flag(obj: Mapping[str, Any], key: str, default: bool, *, where: str) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f'{where} "{key}" must be true or false, not {value!r}')
    return value


def _choice(obj: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str,
            *, where: str) -> str:
    value = obj.get(key, default)
    if value not in allowed:
        raise BadInput(f'{where} "{key}" must be one of {", ".join(allowed)}, not {value!r}')
    return str(value)


def _no_unknown(obj: Mapping[str, Any], allowed: set[str], *, where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise BadInput(
            f'{where} does not take {", ".join(unknown)} (it takes {", ".join(sorted(allowed))})'
        )


def _parse_drop(obj: Any) -> Drop:
    where = 'fee "jackpot"'
    if not isinstance(obj, Mapping):
        raise BadInput(f'{where} must be an object like {{"amount": 100, "min_pot": 2000}}')
    _no_unknown(obj, {"amount", "min_pot", "fund", "no_flop_no_drop"}, where=where)
    amount = _cents(obj, "amount", where=where)
    if amount == 0:
        raise RuleViolation(f'{where} "amount" must be more than 0; leave the drop out instead')
    return Drop(
        amount=amount,
        min_pot=_cents(obj, "min_pot", default=0, where=where),
        fund=_choice(obj, "fund", DROP_FUNDS, "jackpot", where=where),
        no_flop_no_drop=_flag(obj, "no_flop_no_drop", True, where=where),
    )


_COMMON = {"kind", "jackpot", "chip"}
_KEYS: dict[str, set[str]] = {
    "rake": _COMMON | {"percent", "bps", "cap", "min_pot", "no_flop_no_drop"},
    "fixed": _COMMON | {"amount", "from", "min_pot", "no_flop_no_drop"},
    "per-player": _COMMON | {"amount"},
    "time": _COMMON | {"amount", "period_minutes", "billing"},
    "none": _COMMON,
}


def parse_fee_policy(obj: Any) -> FeePolicy | None:
    """The start event's ``"fee"`` object as a policy; ``None`` when the hand has no fee.

    Unreadable values raise :class:`BadInput`; readable but impossible ones (a 120% rake, a
    negative cap) raise :class:`RuleViolation`. Both messages name the key.

    Every hand of a table carries the same object, and a game asks at the start and again at the
    settlement, so a readable object is read once: the (immutable) policy is remembered under
    the object's keys, values and value types (so ``1``, ``1.0`` and ``true`` stay apart).
    Objects that are refused are read, and refused, every time.
    """
    if obj is None:
        return None
    if isinstance(obj, FeePolicy):
        return obj
    if obj.__class__ is dict or isinstance(obj, Mapping):
        try:
            key = _frozen(obj)
            policy = _POLICIES.get(key)
        except TypeError:  # a list or another unhashable value: read it without remembering
            return _parse_fee_policy(obj)
        if policy is None:
            policy = _parse_fee_policy(obj)
            if len(_POLICIES) >= 256:
                _POLICIES.clear()
            _POLICIES[key] = policy
        return policy
    return _parse_fee_policy(obj)


#: Fee objects already read (see :func:`parse_fee_policy`): key -> the policy, never changed.
_POLICIES: dict[tuple[Any, ...], FeePolicy] = {}


def _frozen(obj: Mapping[Any, Any]) -> tuple[Any, ...]:
    """A key for a fee object: its keys, its values' exact types (so ``1``, ``1.0`` and ``true``
    differ) and its values, a nested object (the jackpot) standing as its own key. Hashing the
    key raises :class:`TypeError` for a value that cannot be hashed (a list)."""
    values = tuple(obj.values())
    types = tuple(map(type, values))
    if not _PLAIN.issuperset(types):  # a nested object, or a value of another kind
        values = tuple(_frozen(v) if isinstance(v, Mapping) else v for v in values)
    return (tuple(obj.keys()), types, values)


#: The JSON scalar types: never a mapping (and so not worth an abstract-class test).
_PLAIN = frozenset({str, int, bool, float, type(None)})


def _parse_fee_policy(obj: Any) -> FeePolicy:
    if not isinstance(obj, Mapping):
        raise BadInput('the "fee" must be an object like {"kind": "rake", "percent": "5"}')
    kind = obj.get("kind")
    if kind == "by-limit":
        raise BadInput(
            'a "by-limit" fee must be resolved with the table\'s limit before a hand starts: '
            "start hands from the table settings file"
        )
    if kind not in KINDS:
        raise BadInput(f'fee "kind" must be one of {", ".join(KINDS)}, not {kind!r}')
    where = f"{kind} fee"
    _no_unknown(obj, _KEYS[kind], where=where)
    policy = _parse_kind(obj, str(kind), where)
    if obj.get("chip") is None:
        return policy
    chip = _cents(obj, "chip", where=where)
    if chip == 0:
        raise RuleViolation(f'{where} "chip" (the smallest chip) must be at least 1 cent')
    return replace(policy, chip=chip)


def _parse_kind(obj: Mapping[str, Any], kind: str, where: str) -> FeePolicy:
    jackpot = _parse_drop(obj["jackpot"]) if obj.get("jackpot") is not None else None
    if kind == "rake":
        if ("percent" in obj) == ("bps" in obj):
            raise BadInput('rake fee needs exactly one of "percent" (text like "5") or "bps"')
        if "bps" in obj:
            bps = obj["bps"]
            if isinstance(bps, bool) or not isinstance(bps, int):
                raise BadInput(f'rake fee "bps" must be whole basis points (500 = 5%), not {bps!r}')
            if not 0 <= bps <= 10000:
                raise RuleViolation(f'rake fee "bps" must be between 0 and 10000, not {bps}')
            rate = Fraction(bps, 10000)
        else:
            rate = parse_percent(obj["percent"])
        cap = None if obj.get("cap") is None else _cents(obj, "cap", where=where)
        return FeePolicy(
            kind="rake",
            rate=rate,
            cap=cap,
            min_pot=_cents(obj, "min_pot", default=0, where=where),
            no_flop_no_drop=_flag(obj, "no_flop_no_drop", True, where=where),
            jackpot=jackpot,
        )
    if kind == "fixed":
        source = _choice(obj, "from", SOURCES, "pot", where=where)
        if source == "button" and ("min_pot" in obj or "no_flop_no_drop" in obj):
            raise BadInput(
                'fixed fee "from": "button" is paid before the deal, so it takes no '
                '"min_pot" or "no_flop_no_drop"'
            )
        return FeePolicy(
            kind="fixed",
            amount=_cents(obj, "amount", where=where),
            source=source,
            min_pot=_cents(obj, "min_pot", default=0, where=where),
            no_flop_no_drop=_flag(obj, "no_flop_no_drop", False, where=where),
            jackpot=jackpot,
        )
    if kind == "per-player":
        return FeePolicy(
            kind="per-player", amount=_cents(obj, "amount", where=where), jackpot=jackpot
        )
    if kind == "time":
        minutes = obj.get("period_minutes", 30)
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0:
            raise BadInput(
                f'time fee "period_minutes" must be a whole number above 0, not {minutes!r}'
            )
        return FeePolicy(
            kind="time",
            amount=_cents(obj, "amount", where=where),
            period_minutes=minutes,
            billing=_choice(obj, "billing", BILLINGS, "whole", where=where),
            jackpot=jackpot,
        )
    return FeePolicy(kind="none", jackpot=jackpot)
