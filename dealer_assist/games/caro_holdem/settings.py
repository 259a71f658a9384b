"""Caro Hold 'em table settings, read from the hand's start event.

The unit is the pre-flip limit; each betting round's limit is the unit times that round's
multiplier (1-1-2-4 by default). Forced bets are antes (dead money) or flat blinds (not per card).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine import start as start_settings
from dealer_assist.engine.evolve import builder
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import FeePolicy
from dealer_assist.fees.table import table_policy

ROUND_NAMES = ("pre-flip", "flip", "blip", "reflip")
#: Board cards dealt before each round after the first (each after a burn).
BOARD_COUNTS = (0, 2, 1, 2)
PRIVATE_CARDS = 5
DECK_SIZE = 52
#: 5 private cards each, 5 board cards and 3 burns must fit in one deck.
MAX_SEATS = (DECK_SIZE - 5 - 3) // PRIVATE_CARDS
DEFAULT_MULTIPLIERS = (1, 1, 2, 4)
#: Every setting the start event may carry.
SETTINGS = (
    "button", "unit", "ante", "blinds", "stacks", "cap", "heads_up_uncapped", "multipliers",
    "smallest_chip", "fee",
)


@dataclass(frozen=True, slots=True)
class Settings:
    """One table's settings for one hand; amounts in cents."""

    seats: tuple[int, ...]
    button: int
    unit: int
    stacks: Mapping[int, int]
    ante: int = 0
    blinds: tuple[int, int] | None = None
    cap: int = 4
    heads_up_uncapped: bool = False
    multipliers: tuple[int, int, int, int] = DEFAULT_MULTIPLIERS
    smallest_chip: int = 100
    fee: Any = None
    #: ``fee`` read as a policy (``None`` when the table takes no fee).
    policy: FeePolicy | None = None

    def limit(self, street: int) -> int:
        """The per-card limit of betting round ``street`` (0 pre-flip ... 3 reflip)."""
        return self.unit * self.multipliers[street]

    def left_of(self, seat: int, k: int = 1) -> int:
        i = self.seats.index(seat)
        return self.seats[(i + k) % len(self.seats)]

    @property
    def blind_seats(self) -> tuple[int, int] | None:
        """(small blind, big blind): heads-up the button posts the small blind."""
        if self.blinds is None:
            return None
        if len(self.seats) == 2:
            return self.button, self.left_of(self.button)
        return self.left_of(self.button), self.left_of(self.button, 2)


#: ``Settings(...)`` without the frozen constructor's cost (every replay reads the settings).
_settings = builder(Settings)


#: (the shared reader's whole-cents check)
_int = start_settings.cents


_SETTINGS = frozenset(SETTINGS)


def parse_settings(start: Start) -> Settings:
    """Read and check the settings; the message says which setting is wrong and why."""
    if not _SETTINGS.issuperset(start.params):
        unknown = sorted(set(start.params) - _SETTINGS)
        raise BadInput(
            f"Caro Hold 'em does not take {', '.join(unknown)} (it takes {', '.join(SETTINGS)})"
        )
    seats = tuple(start.seats)
    if len(seats) < 2:
        raise RuleViolation("Caro Hold 'em needs at least 2 seats")
    if len(seats) > MAX_SEATS:
        raise RuleViolation(
            f"Caro Hold 'em seats at most {MAX_SEATS} players: five cards each, five board "
            "cards and three burns must come from one deck"
        )
    if len(set(seats)) != len(seats):
        raise RuleViolation("a seat is listed twice in the start event")
    get = start.params.get  # start.get
    button = get("button")
    if button not in seats:
        raise RuleViolation(f'the button ("button") must be one of the seats {list(seats)}')
    unit = _int(get("unit"), "unit", low=1)
    blinds, ante_cents = start_settings.blinds_or_ante(start)
    stacks = start_settings.stacks(start, seats)
    cap = _int(get("cap", 4), "cap", low=1)
    hu = get("heads_up_uncapped", False)
    if not isinstance(hu, bool):
        raise BadInput('"heads_up_uncapped" must be true or false')
    mult_raw = get("multipliers", list(DEFAULT_MULTIPLIERS))
    if not isinstance(mult_raw, list) or len(mult_raw) != 4:
        raise BadInput('"multipliers" must list four round multipliers, e.g. [1, 1, 2, 4]')
    mult = [_int(m, "multipliers", low=1) for m in mult_raw]
    chip = _int(get("smallest_chip", 100), "smallest_chip", low=1)
    fee = get("fee")
    return _settings(
        seats=seats,
        button=button,
        unit=unit,
        stacks=stacks,
        ante=ante_cents,
        blinds=blinds,
        cap=cap,
        heads_up_uncapped=hu,
        multipliers=(mult[0], mult[1], mult[2], mult[3]),
        smallest_chip=chip,
        fee=fee,
        policy=table_policy(start),
    )
