"""What a simulation counts (Tally): the common figures, the game's own and those of whole
games, failures named, and the time each part took; tallies of sessions merged in any order give
the same figures."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.dossier.stats import Categories, Numbers, Ratio, Shares

#: How many failed hands a tally names (all are counted).
NAMED_FAILURES = 20


@dataclass(slots=True)
class Figures:
    """One namespace of tallies: numbers, yes/no shares and categories, each by its key."""

    numbers: dict[str, Numbers] = field(default_factory=dict)
    shares: dict[str, Shares] = field(default_factory=dict)
    categories: dict[str, Categories] = field(default_factory=dict)

    def merge(self, other: Figures) -> None:
        for key, num in other.numbers.items():
            self.numbers.setdefault(key, Numbers(values=None)).merge(num)
        for key, sh in other.shares.items():
            self.shares.setdefault(key, Shares()).merge(sh)
        for key, cat in other.categories.items():
            self.categories.setdefault(key, Categories()).merge(cat)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Figures) and (self.numbers, self.shares, self.categories) == (
            other.numbers, other.shares, other.categories)


@dataclass(slots=True)
class Tally:
    """What a run of hands gave: its numbers, and how many hands were checked and failed.

    The figures live in three namespaces that never mix: ``common`` (every game's figures per
    hand, :data:`COMMON`, and the seconds per hand), ``own`` (the game's own measures, per
    hand) and ``per_game`` (:data:`PER_GAME`, for each game of many hands that ended by its
    rule). ``numbers``, ``shares`` and ``categories`` read the common and the game's own
    together: a game's measure never takes a common name (refused when it registers)."""

    hands: int = 0
    common: Figures = field(default_factory=Figures)
    own: Figures = field(default_factory=Figures)
    per_game: Figures = field(default_factory=Figures)
    fee_per_second: Ratio = field(default_factory=Ratio)
    #: Games of many hands ended by their rule, and stopped at the game's ``most_hands``.
    games: int = 0
    stopped: int = 0
    checked: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    #: Time spent dealing and settling, and replaying the logs (for the benchmark only).
    simulate_s: float = 0.0
    replay_s: float = 0.0

    @property
    def numbers(self) -> dict[str, Numbers]:
        return {**self.common.numbers, **self.own.numbers}

    @property
    def shares(self) -> dict[str, Shares]:
        return {**self.common.shares, **self.own.shares}

    @property
    def categories(self) -> dict[str, Categories]:
        return {**self.common.categories, **self.own.categories}

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.common.merge(other.common)
        self.own.merge(other.own)
        self.per_game.merge(other.per_game)
        self.fee_per_second.merge(other.fee_per_second)
        self.games += other.games
        self.stopped += other.stopped
        self.checked += other.checked
        self.failed += other.failed
        room = NAMED_FAILURES - len(self.failures)
        self.failures.extend(other.failures[:max(0, room)])
        self.simulate_s += other.simulate_s
        self.replay_s += other.replay_s

    def same_figures(self, other: Tally) -> bool:
        """The same numbers and checks (the timings aside): what reproducibility asks."""
        return (self.hands, self.common, self.own, self.per_game, self.fee_per_second,
                self.games, self.stopped, self.checked, self.failed, self.failures) == (
            other.hands, other.common, other.own, other.per_game, other.fee_per_second,
            other.games, other.stopped, other.checked, other.failed, other.failures)
