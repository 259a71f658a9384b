"""What an action takes from the dealer beyond pressing it: typed inputs.

A game's prompt says, for each action, which input it needs: cards of a count, a choice among
options, an amount within a range and step, a hand set into rows (or melds), dice rolled at
the table, or a value the app draws itself. An action may take several inputs (cards and the
combination they make). The screen has one widget per kind of input (``ui/inputs.py``), so a new
game's inputs need no change to the screen; the event the action records is built by
:func:`dealer_assist.engine.build.build_event`, each input filling the field it names.

Bids and contracts are a :class:`Choice`; tricks taken or a bid's size an :class:`Amount`
(a count, with no money shown); melds are :class:`Rows` whose sizes range.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

#: Three rows of 3, 5 and 5 cards (front, middle, back), as three-row games set a hand.
THREE_ROWS: tuple[tuple[str, int, int], ...] = (("front", 3, 3), ("middle", 5, 5), ("back", 5, 5))


@dataclass(frozen=True, slots=True)
class Cards:
    """``low`` to ``high`` cards, named (a dealt card, a board of two, a five-card show, a meld
    of three or more), into event field ``field``: a field typed as one card takes the one
    card, a field typed as cards the tuple. With ``unseen``, the dealer may give only how many
    (a discard face down), as ``count``. ``repeats``: the same card may be given twice (two
    decks); ``jokers``: a joker may be given."""

    low: int
    high: int
    unseen: bool = False
    #: The event field the cards fill (``card`` for one card, ``cards`` for several, or a name
    #: of the game's: a swap's ``up`` and ``hole``).
    field: str = "cards"
    repeats: bool = False
    jokers: bool = False
    #: For a discard: for each number of cards the player may keep, what the game says that
    #: choice leads to (a wager's price per card kept), shown beside the choice.
    keep_notes: tuple[tuple[int, tuple[str, ...]], ...] = ()

    @property
    def exact(self) -> int | None:
        """The count when exactly one count is taken."""
        return self.low if self.low == self.high else None


@dataclass(frozen=True, slots=True)
class Choice:
    """One of ``options`` (a natural's kind, a bid, a contract), into event field ``field``."""

    field: str
    options: tuple[str, ...]
    #: Whether text outside ``options`` may be typed (the game then judges it).
    free: bool = False


@dataclass(frozen=True, slots=True)
class Amount:
    """A whole number from ``low`` to ``high`` in steps of ``step`` (from ``low``), into event
    field ``field``: cents for a wager's ``to`` (``money``), or a count (tricks, a bid)."""

    field: str
    low: int
    high: int
    step: int = 1
    money: bool = True

    def allows(self, value: int) -> bool:
        return self.low <= value <= self.high and (value - self.low) % self.step == 0


@dataclass(frozen=True, slots=True)
class Rows:
    """Cards set into named rows, each of a size from its low to its high (three-row hands, or
    melds); each row fills the event field of its name."""

    rows: tuple[tuple[str, int, int], ...] = THREE_ROWS


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``faces`` faces each, as rolled at the table, into event field
    ``field``: a field typed as a whole number takes the one die, a tuple all of them. A die
    reads ``low`` and up in steps of ``step`` (a percentile die: ``low=0, step=10``)."""

    count: int
    faces: int = 6
    field: str = "dice"
    low: int = 1
    step: int = 1

    def allows(self, value: int) -> bool:
        top = self.low + (self.faces - 1) * self.step
        return self.low <= value <= top and (value - self.low) % self.step == 0


@dataclass(frozen=True, slots=True)
class Drawn:
    """A value the app draws from its own random source, shows to the table and records in the
    event, so a replay gives the same result: ``count`` dice as :class:`Dice` reads them
    (``faces``, ``low``, ``step``), or, with ``among``, those seats (or items) in a random
    order (who gets the odd chips). Into event field ``field``."""

    field: str
    faces: int = 6
    count: int = 1
    low: int = 1
    step: int = 1
    among: tuple[int, ...] = ()

    def draw(self, rng: random.Random, *, single: bool) -> Any:
        """A fresh value; ``single``: the field takes one die, not a tuple."""
        if self.among:
            order = list(self.among)
            rng.shuffle(order)
            return tuple(order)
        dice = tuple(self.low + self.step * rng.randrange(self.faces) for _ in range(self.count))
        return dice[0] if single else dice


Input = Cards | Choice | Amount | Rows | Dice | Drawn
#: One card named, into the event's ``card`` (a card dealt, placed or thrown).
ONE_CARD = Cards(1, 1, field="card")
#: A hand set into three rows of 3, 5 and 5 cards.
THREE_ROW_HAND = Rows()


def filled(value: Input) -> tuple[str, ...]:
    """The event fields an input fills."""
    if isinstance(value, Rows):
        return tuple(name for name, _, _ in value.rows)
    if isinstance(value, Cards) and value.unseen:
        return (value.field, "count")
    return (value.field,)
