"""What a game declares for its dossier: its rulings in our words, its players' baseline
strategy, how its hands follow on, and the numbers a board asks of it (measured on each
simulated hand).

The figures every game has (:data:`COMMON`) and the game's own (:attr:`GameDossier.measures`)
live apart: a game's measure never takes a common figure's name or label, and a declaration
that tries is refused when the game's dossier is declared, that is when the game registers
(:func:`dealer_assist.engine.registry.get_game` asks every game for its dossier)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from dealer_assist.engine.base import Settlement

#: How a measure is counted: ``money`` (cents per hand: mean, median, 95th percentile, largest),
#: ``count`` (a number per hand: mean), ``share`` (yes/no per hand: how often),
#: ``category`` (one name per hand: how often each).
Kind = Literal["money", "count", "share", "category"]
#: One hand's values: a measure's key -> cents or a count (int), yes/no (bool), a category
#: (str), or None where the measure does not apply to that hand (no showdown, say).
Values = Mapping[str, int | bool | str | None]


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling the game applies: ``tag`` as the app cites it in a refusal ("cc-8",
    "caro-6", "OFC 5", "betting-min-raise", "fees"), ``text`` in our words."""

    tag: str
    text: str


@dataclass(frozen=True, slots=True)
class Measure:
    """One of the game's own numbers: ``key`` in the values its ``measure`` gives, ``label``
    as the dossier prints it, ``kind`` (:data:`Kind`), ``note`` under the figure."""

    key: str
    label: str
    kind: Kind
    note: str = ""


#: The numbers every game has, per hand, as the dossier prints them.
COMMON: tuple[Measure, ...] = (
    Measure("inputs", "Inputs the dealer enters per hand", "count",
            "every card, action and discard typed or pressed"),
    Measure("pot", "Chips in play per hand (put in, with the carry-in)", "money"),
    Measure("fee", "House fee per hand", "money"),
    Measure("fee_taken", "Hands that pay a house fee", "share"),
    Measure("fund", "Jackpot or promotional drop per hand", "money"),
    Measure("carries", "Hands that carry money to the next hand", "share"),
    Measure("carry", "Carried to the next hand, over the hands that carry", "money"),
    Measure("carry_in", "Carried fund as a hand starts", "money",
            "how large the fund carried from hand to hand grows"),
)

#: The numbers every game played over many hands has, per game (a game ended by its rule).
PER_GAME: tuple[Measure, ...] = (
    Measure("hands", "Hands per game", "count"),
    Measure("seconds", "Minutes per game", "count", "at the stated pace"),
    Measure("fee", "House fee per game", "money"),
    Measure("won", "Won per game: every seat's gain over the game, added up", "money",
            "what the players who came out ahead took from the others (the fee aside)"),
    Measure("rebuys", "Rebuys per game", "count",
            "a seat left with nothing buys in again before the next hand"),
)

#: Every name and label a game's own measure may not take.
RESERVED_KEYS = frozenset(m.key for m in COMMON) | {"seconds"}
RESERVED_LABELS = frozenset(m.label.casefold() for m in (*COMMON, *PER_GAME))


def clashes(measures: tuple[Measure, ...]) -> list[str]:
    """What is wrong with a game's own measures: a key or label used twice, or one that a
    common figure has (the game's value would be taken for the common figure)."""
    out = []
    keys: set[str] = set()
    labels: set[str] = set()
    for m in measures:
        if m.key in RESERVED_KEYS:
            out.append(f"measure {m.key!r} takes the name of a figure every game has "
                       f"(reserved: {', '.join(sorted(RESERVED_KEYS))}): name it for what it "
                       "counts in this game")
        if m.label.casefold() in RESERVED_LABELS:
            out.append(f"measure {m.key!r} is labelled {m.label!r}, as a figure every game "
                       "has is")
        if m.key in keys:
            out.append(f"measure {m.key!r} is declared twice")
        if m.label.casefold() in labels:
            out.append(f"the label {m.label!r} is given to two measures")
        keys.add(m.key)
        labels.add(m.label.casefold())
    return out


#: How a game's hands follow on in the simulation: ``hand`` (each hand stands alone, money
#: carried aside), ``game`` (hands follow on as one game until it ends by its rule).
Played = Literal["hand", "game"]


@dataclass(frozen=True, slots=True)
class GameDossier:
    """Everything a game says in its dossier beyond what every game has.

    ``rules``: the game in a few paragraphs, our words; ``rulings``: every ruling it applies;
    ``strategy``: the baseline strategy of its ``sample_hand`` in a sentence; ``measures`` and
    ``measure``: its own numbers, ``measure(game, state, settlement)`` giving one finished
    hand's values (a module-level function: simulation runs it in worker processes).

    ``played``: ``game`` for a game of many hands, simulated as whole games: the deal moves
    round, what :meth:`~dealer_assist.engine.base.Game.next_hand` carries goes into the next
    hand, stacks run down from the table's buy-in, and a game ends when
    :meth:`~dealer_assist.engine.base.Game.game_over` says so. ``restack``: each new game
    starts every stack again from the buy-in (a game that ends when a stack runs short);
    otherwise stacks run on from game to game and a seat left with nothing buys in again.
    ``most_hands``: a game that has not ended by its rule after this many hands is stopped
    there (counted as stopped; its hands are measured, the game is left out of the figures
    per game): the end of a sitting, for a game whose players choose when to end it.
    ``defaults``: the game's own settings as a table that leaves them out plays them (a
    sample hand would otherwise pick one at random), so every hand is dealt as the table
    plays.
    """

    rules: tuple[str, ...]
    rulings: tuple[Ruling, ...]
    strategy: str
    measures: tuple[Measure, ...] = ()
    measure: Callable[[Any, Any, Settlement], Values] | None = None
    played: Played = "hand"
    restack: bool = False
    most_hands: int = 5000
    defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        wrong = clashes(self.measures)
        if wrong:
            raise ValueError("the game's dossier is refused: " + "; ".join(wrong))
        if self.played not in ("hand", "game"):
            raise ValueError(f'played must be "hand" or "game", not {self.played!r}')
