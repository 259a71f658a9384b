"""The end of a hand in money: the dealer's push steps, the house's fee lines, the settlement
(chips conserved) and a settlement by a rule the app applied before."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class PushStep:
    """One physical step of paying out, in the order the dealer does them."""

    n: int
    text: str
    amount: int = 0
    to_seat: int | None = None
    kind: str = "push"


@dataclass(frozen=True, slots=True)
class FeeLine:
    """A collection for the house or a fund: a ledger line in every settlement.

    ``base`` is the amount a fee taken from the pot was worked out on (every chip in the pots
    but those returned), so a report can show what each rake was taken from.
    """

    kind: str
    amount: int
    from_seat: int | None = None
    note: str = ""
    base: int | None = field(default=None, compare=False)  # (the note already says it)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "from": self.from_seat}


@dataclass(frozen=True, slots=True)
class EarlierRule:
    """A settlement by a rule the app applied before (``Game.earlier_rules``): ``name`` says
    which rule and until when, as verify and the reports print it."""

    name: str
    settlement: Settlement


@dataclass(frozen=True, slots=True)
class Settlement:
    """The end of a hand in money. Chips are conserved: everything in comes out or carries.

    ``put_in`` is every cent each seat put on the table this hand (antes, wagers, champ payments,
    per-player fees); ``carry_in`` comes from the last hand; ``payouts`` are cents pushed to each
    seat; ``carry_out`` goes to the next hand; ``fees`` go to the house or a fund.
    """

    put_in: Mapping[int, int]
    payouts: Mapping[int, int]
    carry_in: int = 0
    carry_out: int = 0
    fees: tuple[FeeLine, ...] = ()
    steps: tuple[PushStep, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def total_in(self) -> int:
        return sum(self.put_in.values()) + self.carry_in

    @property
    def total_out(self) -> int:
        return sum(self.payouts.values()) + self.carry_out + sum(f.amount for f in self.fees)

    @property
    def conserved(self) -> bool:
        return self.total_in == self.total_out

    def net(self) -> dict[int, int]:
        seats = set(self.put_in) | set(self.payouts)
        return {s: self.payouts.get(s, 0) - self.put_in.get(s, 0) for s in sorted(seats)}

    def require_conserved(self) -> Settlement:
        if not self.conserved:
            raise AssertionError(
                f"settlement does not conserve chips: in {self.total_in}, out {self.total_out}"
            )
        return self
