"""The table's fee policy and what it collects in one hand.

A policy is read from the ``"fee"`` object of a hand's start event (schema in docs/fees.md). A game
asks for two lists of :class:`FeeLine`: the fees paid before the deal (on top of a seat's put-in)
and the fees taken out of the pot at settlement. The game never needs to know which kind of
policy the table uses. Money is int cents; percentages are exact fractions, never floats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from dealer_assist.engine.base import FeeLine
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.money import format_cents

#: Policy kinds a start event's ``"fee"`` object may name.
KINDS = ("rake", "fixed", "per-player", "time", "none")
#: Where a fixed collection comes from.
SOURCES = ("pot", "button")
#: Funds a jackpot or promotional drop may go to (each kept apart from the house's money).
DROP_FUNDS = ("jackpot", "promo")
#: Time billing: whole periods paid in advance, or minutes actually seated, paid in arrears.
BILLINGS = ("whole", "prorated")

#: FeeLine kinds this package writes, and the fund each one belongs to.
LINE_FUNDS: dict[str, str] = {
    "rake": "house",
    "collection": "house",
    "button-fee": "house",
    "player-fee": "house",
    "time": "house",
    "jackpot": "jackpot",
    "promo": "promo",
}


def fund_of(kind: str) -> str:
    """The fund a fee line's money goes to: ``house``, ``jackpot`` or ``promo``."""
    return LINE_FUNDS.get(kind, "house")


@dataclass(frozen=True, slots=True)
class Drop:
    """A jackpot or promotional drop: a fixed amount out of a qualifying pot, into its own fund."""

    amount: int
    min_pot: int = 0
    fund: str = "jackpot"
    no_flop_no_drop: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "min_pot": self.min_pot,
            "fund": self.fund,
            "no_flop_no_drop": self.no_flop_no_drop,
        }


@dataclass(frozen=True, slots=True)
class FeePolicy:
    """One table's way of paying the house, plus an optional jackpot/promotional drop.

    ``rate`` is the rake as an exact fraction of the pot (5% is ``Fraction(1, 20)``); ``amount``
    is the fixed, per-player or per-period fee in cents; ``source`` says whether a fixed
    collection comes from the pot or from the button seat.
    """

    kind: str
    rate: Fraction = Fraction(0)
    cap: int | None = None
    amount: int = 0
    source: str = "pot"
    min_pot: int = 0
    no_flop_no_drop: bool = True
    period_minutes: int = 30
    billing: str = "whole"
    jackpot: Drop | None = None
    chip: int | None = None

    @property
    def percent(self) -> str:
        """The rake as exact decimal text: ``"5"``, ``"2.5"``."""
        return _percent_text(self.rate)

    @property
    def basis_points(self) -> Fraction:
        return self.rate * 10000

    @property
    def before_deal(self) -> bool:
        """True when every house fee of this policy is fixed and collected before the deal."""
        return self.kind in ("per-player", "time", "none") or (
            self.kind == "fixed" and self.source == "button"
        )

    def per_hour(self) -> Fraction:
        """A time fee per seat per hour, in cents (exact)."""
        return Fraction(self.amount * 60, self.period_minutes)

    def to_json(self) -> dict[str, Any]:
        """The policy as the start event's ``"fee"`` object (parses back to an equal policy)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "rake":
            out["percent"] = self.percent
            if self.cap is not None:
                out["cap"] = self.cap
            out["min_pot"] = self.min_pot
            out["no_flop_no_drop"] = self.no_flop_no_drop
        elif self.kind == "fixed":
            out["amount"] = self.amount
            out["from"] = self.source
            if self.source == "pot":
                out["min_pot"] = self.min_pot
                out["no_flop_no_drop"] = self.no_flop_no_drop
        elif self.kind == "per-player":
            out["amount"] = self.amount
        elif self.kind == "time":
            out["amount"] = self.amount
            out["period_minutes"] = self.period_minutes
            out["billing"] = self.billing
        if self.jackpot is not None:
            out["jackpot"] = self.jackpot.to_json()
        if self.chip is not None:
            out["chip"] = self.chip
        return out

    def describe(self) -> str:
        """One line for a person: ``5% rake, capped at $5, from pots of $10 or more``."""
        if self.kind == "rake":
            text = f"{self.percent}% rake"
            if self.cap is not None:
                text += f", capped at {format_cents(self.cap)}"
            if self.min_pot:
                text += f", from pots of {format_cents(self.min_pot)} or more"
            if self.no_flop_no_drop:
                text += ", no flop no drop"
        elif self.kind == "fixed":
            where = "the pot" if self.source == "pot" else "the button seat"
            text = f"fixed collection of {format_cents(self.amount)} a hand from {where}"
        elif self.kind == "per-player":
            text = f"{format_cents(self.amount)} a player a hand, before the deal"
        elif self.kind == "time":
            text = (
                f"time: {format_cents(self.amount)} a seat every {self.period_minutes} minutes"
                f" ({self.billing})"
            )
        else:
            text = "no house fee"
        if self.jackpot is not None:
            j = self.jackpot
            text += f"; {j.fund} drop {format_cents(j.amount)}"
            if j.min_pot:
                text += f" from pots of {format_cents(j.min_pot)} or more"
        return text


@dataclass(frozen=True, slots=True)
class FeeContext:
    """What a game knows about its hand when it asks for fees.

    ``pot`` is what the fee may come out of (Champs and Cowards: the bonus pool only); ``saw_flop``
    is the game's own "no flop, no drop" test (Caro Hold 'em: the flip was dealt).
    """

    seats: tuple[int, ...]
    button: int | None = None
    pot: int = 0
    saw_flop: bool = True
    smallest_chip: int = 1


def _percent_text(rate: Fraction) -> str:
    """:attr:`FeePolicy.percent` of ``rate``, worked out once per rate (every rake note says it;
    remembered under the rate's numerator and denominator, which hash faster than the rate)."""
    key = (rate.numerator, rate.denominator)
    text = _PERCENTS.get(key)
    if text is None:
        text = fraction_text(rate * 100)
        if len(_PERCENTS) >= 256:
            _PERCENTS.clear()
        _PERCENTS[key] = text
    return text


_PERCENTS: dict[tuple[int, int], str] = {}


def fraction_text(value: Fraction) -> str:
    """An exact decimal rendering of a fraction with a terminating decimal expansion."""
    if value.denominator == 1:
        return str(value.numerator)
    d = Decimal(value.numerator) / Decimal(value.denominator)
    text = format(d.normalize(), "f")
    return text


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


def down_to_chip(amount: int, chip: int) -> int:
    """Round down to a whole number of the table's smallest chip (the house never makes change)."""
    return (amount // chip) * chip


def _check_ctx(policy: FeePolicy, ctx: FeeContext) -> FeeContext:
    """The context to compute with: the policy's own ``chip``, when set, is the table's chip."""
    if policy.chip is not None:
        ctx = replace(ctx, smallest_chip=policy.chip)
    if ctx.smallest_chip <= 0:
        raise RuleViolation(f"the smallest chip must be at least 1 cent, not {ctx.smallest_chip}")
    if ctx.pot < 0:
        raise RuleViolation(f"the pot cannot be negative ({ctx.pot})")
    return ctx


def pre_deal_fees(policy: FeePolicy | None, ctx: FeeContext) -> list[FeeLine]:
    """Fees each seat pays before the deal, on top of its put-in (``from_seat`` set).

    A per-player fee is one line per seat; a fixed collection from the button is one line from the
    button seat. Rake, a fixed collection from the pot and time fees collect nothing here.

    The lines depend on nothing but the policy and the table (seats, button, chip), which repeat
    hand after hand, so they are worked out once for each (the lines are immutable); a refusal is
    worked out, and raised, every time.
    """
    if policy is None:
        return []
    try:  # the context's fields, as its own hash and equality would read them
        key = (id(policy), ctx.seats, ctx.button, ctx.pot, ctx.saw_flop, ctx.smallest_chip)
        known = _PRE_DEAL.get(key)
    except TypeError:  # a context that cannot be hashed (seats in a list): nothing to remember
        return _pre_deal_fees(policy, ctx)
    if known is not None and known[0] is policy:
        return list(known[1])
    lines = _pre_deal_fees(policy, ctx)
    if len(_PRE_DEAL) >= 1024:
        _PRE_DEAL.clear()
    _PRE_DEAL[key] = (policy, tuple(lines))  # holding the policy keeps its id from being reused
    return lines


#: (id of the policy, the context's fields) -> (the policy, its pre-deal lines); see
#: :func:`pre_deal_fees`.
_PRE_DEAL: dict[tuple[Any, ...], tuple[FeePolicy, tuple[FeeLine, ...]]] = {}
if tuple(f.name for f in fields(FeeContext)) != (
    "seats", "button", "pot", "saw_flop", "smallest_chip"
):  # the key above reads every field of the context: a new field must join it
    raise TypeError("pre_deal_fees' key must name every field of FeeContext")


def _pre_deal_fees(policy: FeePolicy, ctx: FeeContext) -> list[FeeLine]:
    ctx = _check_ctx(policy, ctx)
    if policy.kind == "per-player":
        if policy.amount == 0:
            return []
        return [
            FeeLine("player-fee", policy.amount, seat, f"{format_cents(policy.amount)} a player")
            for seat in ctx.seats
        ]
    if policy.kind == "fixed" and policy.source == "button":
        if ctx.button is None:
            raise RuleViolation(
                "this table's fee is paid by the button seat, but this hand has no button: "
                "choose a per-player fee or a collection from the pot for this game"
            )
        if ctx.button not in ctx.seats:
            raise RuleViolation(f"the button, seat {ctx.button}, is not in this hand")
        if policy.amount == 0:
            return []
        return [FeeLine("button-fee", policy.amount, ctx.button, "fixed fee from the button")]
    return []


def _rake(policy: FeePolicy, ctx: FeeContext) -> FeeLine | None:
    if policy.no_flop_no_drop and not ctx.saw_flop:
        return None
    if ctx.pot < policy.min_pot or ctx.pot == 0:
        return None
    rate = policy.rate
    raw = ctx.pot * rate.numerator // rate.denominator  # the exact product, rounded down
    note = f"{policy.percent}% of {format_cents(ctx.pot)}"
    if policy.cap is not None and raw > policy.cap:
        raw = policy.cap
        note += f", capped at {format_cents(policy.cap)}"
    amount = down_to_chip(raw, ctx.smallest_chip)
    if amount != raw:
        note += f", rounded down to the {format_cents(ctx.smallest_chip)} chip"
    return FeeLine("rake", amount, None, note, ctx.pot) if amount > 0 else None


def _collection(policy: FeePolicy, ctx: FeeContext) -> FeeLine | None:
    if policy.no_flop_no_drop and not ctx.saw_flop:
        return None
    if ctx.pot < policy.min_pot:
        return None
    amount = down_to_chip(min(policy.amount, ctx.pot), ctx.smallest_chip)
    note = "fixed collection from the pot"
    if amount < policy.amount:
        note += f" (the pot held only {format_cents(ctx.pot)})"
    return FeeLine("collection", amount, None, note, ctx.pot) if amount > 0 else None


def pot_fees(policy: FeePolicy | None, ctx: FeeContext) -> list[FeeLine]:
    """Fees taken out of ``ctx.pot`` at settlement (``from_seat`` None): rake or a fixed
    collection for the house, then the jackpot/promotional drop for its own fund.

    Every amount is rounded down to the smallest chip and together they never exceed the pot.
    """
    if policy is None:
        return []
    ctx = _check_ctx(policy, ctx)
    lines: list[FeeLine] = []
    house: FeeLine | None = None
    if policy.kind == "rake":
        house = _rake(policy, ctx)
    elif policy.kind == "fixed" and policy.source == "pot":
        house = _collection(policy, ctx)
    if house is not None:
        lines.append(house)
    j = policy.jackpot
    if j is not None and (ctx.saw_flop or not j.no_flop_no_drop) and ctx.pot >= j.min_pot:
        left = ctx.pot - sum(line.amount for line in lines)
        amount = down_to_chip(min(j.amount, left), ctx.smallest_chip)
        if amount > 0:
            lines.append(FeeLine(j.fund, amount, None, f"{j.fund} drop", ctx.pot))
    return lines
