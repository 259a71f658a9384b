"""What an action takes from the dealer beyond pressing it: typed inputs.

A game's prompt says, for each action, which input it needs: cards of a count, a choice among
options, an amount within a range and step, a hand set into rows (or melds), dice. The screen
has one widget per kind of input (``ui/inputs.py``), so a new game's inputs need no change to
the screen; the event the action records takes the input under the field the input names.

Bids and contracts are a :class:`Choice`; tricks taken or a bid's size an :class:`Amount`
(a count, with no money shown); melds are :class:`Rows` whose sizes range.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Three rows of 3, 5 and 5 cards (front, middle, back), as three-row games set a hand.
THREE_ROWS: tuple[tuple[str, int, int], ...] = (("front", 3, 3), ("middle", 5, 5), ("back", 5, 5))


@dataclass(frozen=True, slots=True)
class Cards:
    """``low`` to ``high`` cards, named (a dealt card, a board of two, a five-card show). With
    ``unseen``, the dealer may give only how many (a discard face down), as ``count``."""

    low: int
    high: int
    unseen: bool = False
    #: The event field the cards fill (``card`` for one card, ``cards`` for several).
    field: str = "cards"

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
    """``count`` dice of ``faces`` faces each, as rolled, into event field ``field``."""

    count: int
    faces: int = 6
    field: str = "dice"


Input = Cards | Choice | Amount | Rows | Dice


def from_needs(needs: str | None) -> Input | None:
    """The typed input of an action written with the older ``needs`` text ("card",
    "board:2", "show:5", "cards:3", "discard", "rows")."""
    if needs is None:
        return None
    if needs == "card":
        return Cards(1, 1, field="card")
    if needs == "discard":
        return Cards(1, 52, unseen=True)
    if needs == "rows":
        return Rows()
    if needs == "kind":
        return Choice("kind", (), free=True)
    name, _, n = needs.partition(":")
    if name in ("board", "show", "cards") and n.isdigit():
        return Cards(int(n), int(n))
    return None


def to_needs(value: Input | None) -> str | None:
    """The ``needs`` text of a typed input, for screens that still read it."""
    if value is None:
        return None
    if isinstance(value, Cards):
        if value.unseen:
            return "discard"
        if value.field == "card" and value.low == value.high == 1:
            return "card"
        return f"cards:{value.low}" if value.exact is not None else "cards"
    if isinstance(value, Rows):
        return "rows"
    if isinstance(value, Choice):
        return value.field
    if isinstance(value, Amount):
        return "amount"
    return "dice"
