"""The table settings of a Pineapple hand, read from its start event.

``variant`` says when the discard comes (``pineapple``: before the flop; ``crazy`` and
``crazy-hi-lo``: before the turn) and whether the pot is split high-low; ``structure`` how much
a wager may be (the betting engine's fixed limit, pot-limit or no-limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.engine import start as read
from dealer_assist.engine.betting import BettingRules, Structure
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import FeePolicy
from dealer_assist.fees.table import table_policy

HOLE_CARDS = 3
#: The board cards dealt before each betting round after the first: flop, turn, river.
BOARD_COUNTS = (0, 3, 1, 1)
ROUND_NAMES = ("pre-flop", "flop", "turn", "river")
#: The betting round after which each variant discards (0: pre-flop, 1: the flop).
DISCARD_AFTER = {"pineapple": 0, "crazy": 1, "crazy-hi-lo": 1}
VARIANTS = tuple(DISCARD_AFTER)
STRUCTURES = tuple(s.value for s in Structure)
MAX_SEATS = 10
SETTINGS = (
    "variant", "structure", "button", "blinds", "ante", "small_bet", "big_bet", "cap",
    "heads_up_uncapped", "stacks", "smallest_chip", "fee",
)
TITLES = {
    "pineapple": "Pineapple",
    "crazy": "Crazy Pineapple",
    "crazy-hi-lo": "Crazy Pineapple Hi-Lo 8 or better",
}


@dataclass(frozen=True, slots=True)
class Settings:
    """One hand's settings; amounts in cents."""

    seats: tuple[int, ...]
    button: int
    variant: str
    rules: BettingRules
    stacks: dict[int, int]
    smallest_chip: int = 100
    fee: Any = None
    policy: FeePolicy | None = None

    @property
    def discard_after(self) -> int:
        """The betting round after which every player still in discards one hole card."""
        return DISCARD_AFTER[self.variant]

    @property
    def hi_lo(self) -> bool:
        return self.variant == "crazy-hi-lo"

    @property
    def title(self) -> str:
        return f"{TITLES[self.variant]} ({self.rules.structure.value})"


def parse_settings(start: Start) -> Settings:
    """Read and check the settings; a refusal names the setting and what it allows."""
    read.only(start, SETTINGS)
    seats = read.seats_between(start, low=2, high=MAX_SEATS)
    get = start.params.get
    variant = get("variant", "pineapple")
    if not isinstance(variant, str) or variant not in DISCARD_AFTER:
        raise BadInput(f'"variant" must be one of {", ".join(VARIANTS)}, not {variant!r}')
    structure = get("structure", "limit")
    if structure not in STRUCTURES:
        raise BadInput(f'"structure" must be one of {", ".join(STRUCTURES)}, not {structure!r}')
    button = read.button(start, seats)
    blinds, ante = read.blinds_or_ante(start, both=True)  # ruling pineapple-1
    if blinds is None and not ante:
        raise RuleViolation('a Pineapple table needs "blinds" [small, big] or an "ante"')
    stacks = read.stacks(start, seats)
    small_bet = read.cents(get("small_bet", 0), "small_bet")
    big_bet = read.cents(get("big_bet", 0), "big_bet")
    cap = read.cents(get("cap", 4), "cap", low=1)
    hu = get("heads_up_uncapped", True)
    if not isinstance(hu, bool):
        raise BadInput('"heads_up_uncapped" must be true or false')
    chip = read.cents(get("smallest_chip", 100), "smallest_chip", low=1)
    if structure == Structure.LIMIT.value and blinds is None and not small_bet:
        raise RuleViolation('a limit table needs "small_bet" and "big_bet"')
    if structure != Structure.LIMIT.value and (small_bet or big_bet or "cap" in start.params):
        raise BadInput('"small_bet", "big_bet" and "cap" are for limit tables only')
    if structure == Structure.LIMIT.value and blinds is not None and not small_bet:
        small_bet, big_bet = blinds[1], big_bet or 2 * blinds[1]
    rules = BettingRules(
        structure=Structure(structure),
        small_blind=blinds[0] if blinds else 0,
        big_blind=blinds[1] if blinds else 0,
        ante=ante,
        small_bet=small_bet,
        big_bet=big_bet,
        cap=cap,
        heads_up_uncapped=hu,
        min_bet=None if blinds or structure == Structure.LIMIT.value else ante,
        chip=chip,
    )
    fee = get("fee")
    return Settings(
        seats=seats, button=button, variant=str(variant), rules=rules, stacks=stacks,
        smallest_chip=chip, fee=fee, policy=table_policy(start),
    )
