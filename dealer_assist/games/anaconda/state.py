"""An Anaconda hand: its settings, read from the start, and the state after each event.

The money is the betting engine's :class:`BettingState` (the pot carried in joins its main pot);
the game keeps the phase, the declarations, the cards rolled and the hands shown.

Betting rounds: 0 after the deal, 1 after the first pass, 2 after the second, then one after
each round of rolls (``bet_each_roll``) or one once all four are up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.betting import BettingRules, BettingState, Structure
from dealer_assist.engine.evolve import evolver
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import FeePolicy
from dealer_assist.fees.table import table_policy

MAX_SEATS = 7  # seven cards each from one deck
ROLLS = 4
KEEP = 5
SETTINGS = ("button", "structure", "ante", "small_bet", "big_bet", "cap", "heads_up_uncapped",
            "stacks", "pot_in", "bet_each_roll")
STRUCTURES = tuple(s.value for s in Structure)
HIGH, LOW = "high", "low"

BETTING, PASSING, DECLARING, ROLLING, SHOWDOWN, OVER = (
    "betting", "passing", "declaring", "rolling", "showdown", "over")
#: What the two passing rounds say: to whom each player still in passes three cards.
PASSES = ("three cards to the next player still in on the left",
          "three cards to the second player still in on the right")


@dataclass(frozen=True, slots=True)
class Table:
    seats: tuple[int, ...]
    button: int
    rules: BettingRules
    stacks: Mapping[int, int]
    pot_in: int
    bet_each_roll: bool
    smallest_chip: int
    policy: FeePolicy | None = None

    @property
    def structure(self) -> str:
        return self.rules.structure.value


@dataclass(frozen=True, slots=True)
class State:
    """The hand so far. ``passes``: passing rounds done (0-2); ``rolled``: each seat's cards
    turned face up, in order; ``shown``: the five each shows at the end; ``order``: the
    showdown order, fixed when the last betting round closes."""

    table: Table
    bet: BettingState
    phase: str = BETTING
    passes: int = 0
    declared: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    rolled: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    shown: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    order: tuple[int, ...] = ()
    pre_fees: tuple[FeeLine, ...] = ()

    @property
    def live(self) -> tuple[int, ...]:
        return self.bet.live

    def rolls_done(self) -> int:
        """Complete rounds of rolls (each player still in has turned that many)."""
        live = self.live
        return min((len(self.rolled.get(s, ())) for s in live), default=0)

    def to_roll(self) -> int | None:
        """The next player to turn a card: round by round, from the button's left."""
        if self.phase != ROLLING:
            return None
        n = self.rolls_done()
        return next((s for s in self.live if len(self.rolled.get(s, ())) == n), None)

    def to_declare(self) -> tuple[int, ...]:
        return tuple(s for s in self.live if s not in self.declared)

    def to_show(self) -> int | None:
        if self.phase != SHOWDOWN:
            return None
        return next((s for s in self.order if s in self.live and s not in self.shown), None)

    def known(self) -> frozenset[Card]:
        cards: set[Card] = set()
        for seq in self.rolled.values():
            cards.update(seq)
        for seq in self.shown.values():
            cards.update(seq)
        return frozenset(cards)


def read_table(start: Start, pot_key: str = "pot_in") -> Table:
    """The settings; a refusal names the key and what it allows."""
    read.only(start, SETTINGS)
    seats = read.seats_between(start, low=2, high=MAX_SEATS)
    get = start.params.get
    structure = get("structure", "limit")
    if structure not in STRUCTURES:
        raise BadInput(f'"structure" must be one of {", ".join(STRUCTURES)}, not {structure!r}')
    button = read.button(start, seats)
    if get("ante") is None:
        raise RuleViolation('the start needs "ante": what each player antes, in cents')
    ante = read.cents(get("ante"), "ante", low=1)
    stacks = read.stacks(start, seats)
    pot_in = read.cents(get(pot_key, 0), pot_key)
    chip = read.cents(get("smallest_chip", 100), "smallest_chip", low=1)
    each_roll = get("bet_each_roll", False)
    if not isinstance(each_roll, bool):
        raise BadInput('"bet_each_roll" must be true or false')
    hu = get("heads_up_uncapped", True)
    if not isinstance(hu, bool):
        raise BadInput('"heads_up_uncapped" must be true or false')
    small_bet = read.cents(get("small_bet", 0), "small_bet")
    big_bet = read.cents(get("big_bet", 0), "big_bet")
    cap = read.cents(get("cap", 4), "cap", low=1)
    if structure == Structure.LIMIT.value and not (small_bet and big_bet):
        raise RuleViolation('a limit table needs "small_bet" and "big_bet"')
    if structure != Structure.LIMIT.value and (small_bet or big_bet or "cap" in start.params):
        raise BadInput('"small_bet", "big_bet" and "cap" are for limit tables only')
    rules = BettingRules(
        structure=Structure(structure), ante=ante, small_bet=small_bet, big_bet=big_bet,
        cap=cap, heads_up_uncapped=hu,
        # in pot-limit and no-limit the smallest bet is the ante (as at a Pineapple table
        # with antes)
        min_bet=None if structure == Structure.LIMIT.value else ante,
        chip=chip,
    )
    return Table(seats=seats, button=button, rules=rules, stacks=MappingProxyType(stacks),
                 pot_in=pot_in, bet_each_roll=each_roll, smallest_chip=chip,
                 policy=table_policy(start))


def as_json(mapping: Mapping[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in mapping.items()}


#: ``dataclasses.replace`` for :class:`State`, without re-running its constructor (a replay
#: makes a state per event).
evolve = evolver(State)
