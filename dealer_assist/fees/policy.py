"""The table's fee policy: its kinds, the funds a fee goes to, the policy and the context a game
gives when it asks for fees.

A policy is read from the ``"fee"`` object of a hand's start event (``fees/parse.py``, schema in
docs/fees.md); what it collects in one hand is ``fees/collect.py``'s: the fees paid before the
deal (on top of a seat's put-in) and the fees taken out of the pot at settlement. The game never
needs to know which kind of policy the table uses. Money is int cents; percentages are exact
fractions, never floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

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
