"""The game interface (start / check / apply / prompt / settle / view) and what a game declares.

Every game is one package with one :class:`Game` subclass working on an immutable state of its
own. What its functions return lives beside it, one job a module: ``engine/prompt.py`` (the
prompt and its actions), ``engine/settlement.py`` (push steps, fee lines, the settlement) and
``engine/view.py`` (the table and the score sheet the screens draw, the game's settings); they
are given here too, so a game imports the interface from one place. Everything the screen shows,
the replay prints and the reports total is derived from these.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from dealer_assist.engine.prompt import Action, Option, Prompt
from dealer_assist.engine.settlement import EarlierRule, FeeLine, PushStep, Settlement
from dealer_assist.engine.view import (
    SETTING_KINDS,
    ScoreSheet,
    SeatView,
    Setting,
    TableView,
    called_off,
)
from dealer_assist.errors import RuleViolation
from dealer_assist.events import SHARED, Event, Start, Vocabulary
from dealer_assist.money import format_cents

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

__all__ = [
    "PER_HAND_KEYS",
    "SETTING_KINDS",
    "Action",
    "DemoTable",
    "EarlierRule",
    "FeeLine",
    "Game",
    "Option",
    "Prompt",
    "PushStep",
    "SampleDeal",
    "ScoreSheet",
    "SeatView",
    "Setting",
    "Settlement",
    "TableView",
    "Working",
    "called_off",
]

S = TypeVar("S")


#: Start keys a table gives each hand (they change from hand to hand): the button, each seat's
#: stack, the chips carried over from the last hand.
PER_HAND_KEYS = ("button", "stacks", "carry_in")


@dataclass(frozen=True, slots=True)
class DemoTable:
    """How ``dealer-assist demo`` spreads a game: a table settings document
    (docs/table-settings.md, without ``name``), how many players a hand deals to, and whether
    halfway through its hands the table switches to time collection."""

    settings: Mapping[str, Any]
    players: tuple[int, int]
    time_switch: bool = False
    #: Start settings every hand of the table is dealt with (``sample_hand``'s ``params``), so
    #: that the hands match the table's (a variant, a betting structure, the stakes).
    sample: Mapping[str, Any] = field(default_factory=dict)


class Working(ABC, Generic[S]):
    """A hand's state worked on in place while many events are applied, where nobody reads the
    states between them (:meth:`Game.working`): ``put`` is the game's ``apply`` of one event
    (refused alike, with the same message), ``freeze`` the state ``apply`` would have reached.
    After a refusal the working copy is not to be used again."""

    __slots__ = ()

    @abstractmethod
    def put(self, event: Event) -> None:
        """Apply ``event`` in place, or raise the error ``apply`` raises for it."""

    @abstractmethod
    def freeze(self) -> S:
        """The (immutable) state reached so far; the working copy may go on from it."""


@dataclass(frozen=True, slots=True)
class SampleDeal(Generic[S]):
    """A sample hand as dealt (:meth:`Game.sample_deal`): its events, the start first, and the
    state the game's ``apply`` reached after the last of them when the dealing kept it (None:
    not kept; whoever needs the state folds the events)."""

    events: list[Event]
    state: S | None = None


class Game(ABC, Generic[S]):
    """One game. Pure functions of an immutable state; ``apply`` checks before it changes.

    Besides its functions a game declares what the rest of the app needs to know of it, so that
    nothing outside the game's package asks for it by name: how many players it takes, whether
    it has a button, which start keys each hand is given, the events its logs hold, and how the
    demo spreads it. Then :meth:`stacks_left`, :meth:`held` and :meth:`secret_seats` answer
    for a state, and :meth:`sample_hand` deals a random hand the one same way for every game.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    #: The fewest and the most players a hand is dealt to.
    players: ClassVar[tuple[int, int]] = (2, 10)
    #: Whether the game has a dealer's button (a fixed fee from the button needs one).
    has_button: ClassVar[bool] = True
    #: Which of :data:`PER_HAND_KEYS` the table gives each hand's start.
    start_keys: ClassVar[tuple[str, ...]] = ("button",)
    #: The game's own names in its hand logs for the engine's per-hand keys, where they differ
    #: (``{"button": "dealer", "carry_in": "pot_in"}``); every reader asks :meth:`key`.
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: Start keys :meth:`next_hand` may give (in the log's names, beside the button): what the
    #: game carries from hand to hand (a running total, a card chosen for the next hand).
    #: ``verify`` holds each hand's start to what the hand before it gives for these keys.
    carries: ClassVar[tuple[str, ...]] = ()
    #: The events its hand logs may hold: the shared ones and its own (``events.vocabulary``).
    events: ClassVar[Vocabulary] = SHARED
    #: How ``dealer-assist demo`` spreads the game (None: the demo leaves it out).
    demo: ClassVar[DemoTable | None] = None
    #: Further demo tables of the same game (another betting structure or variant).
    more_demos: ClassVar[tuple[DemoTable, ...]] = ()
    #: Event types that are the floor's decisions (a revoke ruled, a dispute the game
    #: raises): the services record one only with a floor person's approval, on the audit
    #: chain beside the event.
    floor_events: ClassVar[frozenset[str]] = frozenset()
    #: Whether the game is played with jokers: the hand's reader refuses a joker in any event
    #: of a game that is not (:func:`dealer_assist.engine.bodies.read_event`).
    jokers: ClassVar[bool] = False
    #: The game's own table settings, described for the screens (:class:`Setting`).
    settings: ClassVar[tuple[Setting, ...]] = ()
    #: Words for the game's own seat statuses (``SeatView.status``) where the status itself,
    #: its underscores read as spaces, would not say it ("dealer_destroyed").
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def setting(self, key: str) -> Setting | None:
        """The description of setting ``key``, if the game declares it."""
        return next((s for s in self.settings if s.key == key), None)

    def status_words(self, status: str) -> str:
        """A seat status as the dealer reads it."""
        return self.statuses.get(status, status.replace("_", " "))

    def demo_tables(self) -> tuple[DemoTable, ...]:
        """Every table the demo spreads of this game: :attr:`demo`, then :attr:`more_demos`."""
        return () if self.demo is None else (self.demo, *self.more_demos)

    def dossier(self) -> GameDossier | None:
        """What the game-approval dossier says of this game beyond what every game has: its
        rules and rulings in our words, its sample hands' strategy, its own numbers
        (:mod:`dealer_assist.dossier`). None: the dossier gives the common sections only."""
        return None

    def key(self, name: str) -> str:
        """The game's name in its logs for the engine's per-hand key ``name`` (one of
        :data:`PER_HAND_KEYS`): ``button`` may be the game's ``dealer``, ``carry_in`` its
        ``pot_in``."""
        return self.start_key_names.get(name, name)

    def per_hand_names(self) -> tuple[str, ...]:
        """The log names of the per-hand keys this game's hands start with."""
        return tuple(self.key(k) for k in PER_HAND_KEYS if k in self.start_keys)

    @property
    def rotates(self) -> bool:
        """Whether the deal moves round the table from hand to hand (the table gives each hand
        its dealer or button, whatever the game calls it)."""
        return "button" in self.start_keys

    @property
    def plays_with_stacks(self) -> bool:
        """Whether each seat brings a stack to a hand (table stakes)."""
        return "stacks" in self.start_keys

    def check_chips(self, params: Mapping[str, Any]) -> None:
        """Every wager a start's ``params`` give (the game's money settings, each seat's stack)
        is a whole number of the table's smallest chip: checked when a hand starts, and by
        verify for every stored hand (a replay of an old hand is not refused for it: verify
        names it). A pot carried in is what the game's own split left, not a wager."""
        from dealer_assist.engine.start import whole_chips

        whole_chips(params, (s.key for s in self.settings if s.kind == "money"),
                    self.key("stacks"))

    @abstractmethod
    def start(self, event: Start) -> S:
        """The state before any card; :class:`RuleViolation` for settings the game refuses."""

    @abstractmethod
    def check(self, state: S, event: Event) -> None:
        """Raise :class:`RuleViolation` with a dealer-facing reason if ``event`` is illegal now."""

    @abstractmethod
    def transition(self, state: S, event: Event) -> S:
        """The state after a legal ``event`` (``check`` has passed)."""

    def apply(self, state: S, event: Event) -> S:
        self.check(state, event)
        return self.transition(state, event)

    def working(self, state: S) -> Working[S] | None:
        """A copy of ``state`` to apply many events to in place (:class:`Working`), for a fold
        that reads only the last state; None (the default): the fold calls :meth:`apply` for
        each event. A game that gives one makes its ``apply`` the same ``put`` on a fresh copy,
        so that the rules are written once."""
        return None

    def can(self, state: S, event: Event) -> bool:
        try:
            self.check(state, event)
        except RuleViolation:
            return False
        return True

    @abstractmethod
    def prompt(self, state: S) -> Prompt:
        """Whose turn, the legal inputs with their costs, and instructions for the dealer."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True when no more input is expected and :meth:`settle` may be called."""

    @abstractmethod
    def settle(self, state: S) -> Settlement:
        """Payouts as push steps, fees and carry-overs; conserves chips."""

    @abstractmethod
    def view(self, state: S, *, reveal: bool = False) -> TableView:
        """The table for the screen; destroyed/folded hands' cards only when ``reveal``."""

    @abstractmethod
    def report(self, state: S) -> dict[str, Any]:
        """The game's part of ``replay --json`` (order, seats, places, pots, payouts...)."""

    def contributions(self, state: S) -> Mapping[int, int]:
        """Every cent each seat has put on the table so far this hand (antes, blinds, wagers,
        champ payments, fees before the deal): what a misdeal gives back. Games that take no
        misdeal leave this refusing."""
        raise RuleViolation(f"{self.title} hands cannot be called off as a misdeal")

    def carried_in(self, state: S) -> int:
        """Chips carried into this hand from the last one (a misdeal carries them on)."""
        return 0

    def refund(self, state: S, reason: str = "") -> Settlement:
        """The settlement of a misdeal: each seat gets back exactly what it put in, no fee is
        taken, and any carry-over passes to the next hand untouched."""
        put_in = {seat: cents for seat, cents in self.contributions(state).items() if cents}
        carry = self.carried_in(state)
        steps = [
            PushStep(n, f"Misdeal: return {format_cents(cents)} to seat {seat}", cents, seat,
                     "return")
            for n, (seat, cents) in enumerate(sorted(put_in.items()), start=1)
        ]
        if carry:
            steps.append(PushStep(len(steps) + 1, f"Leave the carry-over of {format_cents(carry)} "
                                  "for the next hand", carry, None, "carry"))
        if not steps:
            steps.append(PushStep(1, "Misdeal: no chips were put in; gather the cards", 0,
                                  None, "return"))
        return Settlement(
            put_in=put_in, payouts=dict(put_in), carry_in=carry, carry_out=carry,
            steps=tuple(steps), extra={"misdeal": reason},
        ).require_conserved()

    def score_sheet(self, states: Sequence[S]) -> ScoreSheet | None:
        """The score sheet or standings of a game played over many hands, from the finished
        states of its hands so far, in order (the services' ``game_so_far``). None for games
        of one hand."""
        return None

    def earlier_rules(self, state: S) -> Sequence[EarlierRule]:
        """How rules this app applied before would have settled ``state``: verify names a hand
        whose ledger matches one of them as settled under that rule (a genuine record), not as
        tampered. Most games have no earlier rule."""
        return ()

    def redeal(self, state: S) -> dict[str, Any]:
        """Start settings a hand dealt again after a misdeal keeps from the misdealt hand, beyond
        its button (e.g. who plays a bonus hand). Most games keep nothing more."""
        return {}

    def next_hand(self, state: S) -> dict[str, Any]:
        """Start settings the next hand at the same table takes from this finished hand, beyond
        the button rotation and carry-overs every table does (e.g. who plays a bonus hand,
        a button that stays put, a running total), in the log's names. Most games carry
        nothing more. Keys beside the button are listed in :attr:`carries`."""
        return {}

    def next_hand_seats(self, state: S, seats: tuple[int, ...]) -> dict[str, Any]:
        """What the next hand takes from this one when it is dealt to other ``seats`` (a player
        left or joined). By default nothing: a bonus hand or a score sheet belongs to the seats
        that played it. A game whose carry survives a change of seats (standings kept by seat,
        a pot owed to the table) gives it here; the chips carried in (``carry_in``) always
        carry, whatever this says."""
        return {}

    def game_over(self, state: S) -> bool:
        """For a game played over many hands (to a target score, until someone is short): True
        when this finished hand ends the game, so the next hand starts a new one. A game of one
        hand is over with each hand."""
        return True

    def stacks_left(self, state: S) -> Mapping[int, int] | None:
        """Each seat's chips behind (not in the pot) in ``state``: with what the settlement
        pushes to it, what it takes to the next hand. None for games played without stacks."""
        return None

    def held(self, state: S, seat: int) -> int:
        """How many cards ``seat`` holds face down now (what a discard may take from)."""
        for sv in self.view(state).seats:
            if sv.seat == seat:
                return sv.hidden
        return 0

    def secret_seats(self, state: S) -> frozenset[int]:
        """Seats whose cards stay secret in a finished (or stopped) hand: turned down, folded,
        never shown. A report withholds every card their events carry unless revealed."""
        return frozenset(sv.seat for sv in self.view(state).seats if sv.hidden or sv.face_down)

    @abstractmethod
    def sample_hand(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> list[Event]:
        """A complete, legal, random hand (start first): for property tests, demos, benchmarks.

        ``params``: start settings the hand must have (the game's own settings, a ``fee``,
        ``carry_in``), beside those the sample picks at random; a key the game does not take
        is refused (:class:`ValueError`)."""

    def sample_deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[S]:
        """:meth:`sample_hand`'s hand (the same events from the same ``rng``), with the state
        its dealing reached after the last event when the game keeps it: the dossier's
        simulation then settles that state rather than folding the events once more (it still
        replays every hand's log to the same settlement). By default the events alone: a game
        whose ``sample_hand`` applies each event as it deals gives its last state by overriding
        this, and :meth:`sample_hand` returns ``sample_deal(...).events``."""
        return SampleDeal(list(self.sample_hand(rng, players=players, params=params)))

    def narrate(self, before: S, event: Event, after: S) -> list[str]:
        """Lines a dealer reads for one step of a replay; games override to say more."""
        seat = event.seat_of
        who = f"seat {seat} " if seat is not None else ""
        return [f"{who}{event.TYPE}".strip()]
