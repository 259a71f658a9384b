"""Cards: parsing in every form a dealer types, printing both ways, and the orders games use."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import total_ordering

from dealer_assist.errors import BadInput

RANK_CHARS = "23456789TJQKA"
#: rank number -> ASCII character; 2..14, ace high (games that count the ace low say so).
RANK_CHAR = {i + 2: c for i, c in enumerate(RANK_CHARS)}
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURALS = {r: (n + "es" if n == "six" else n + "s") for r, n in RANK_NAMES.items()}
#: Suits from high to low in the traditional tie-break order: spades, hearts, diamonds, clubs.
SUITS = "shdc"
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
SUIT_STRENGTH = {"s": 4, "h": 3, "d": 2, "c": 1}
_SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()} | {
    "♤": "s", "♡": "h", "♢": "d", "♧": "c",
}
JOKER_RANK = 0
JOKER_SUIT = "*"


@total_ordering
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card. ``rank`` 2..14 (ace high) or 0 for a joker; ``suit`` one of ``shdc``.

    There is one object for each card: ``Card(14, "s")`` is the ace of spades already made
    (pickling and copying go through the constructor too), so two cards are equal when they
    are the same object. Every rule asks whether a card is among others (dealt, face up, in a
    pile) at every event of every replay: compared by identity, that question never runs
    Python code.
    """

    rank: int
    suit: str
    #: The hand evaluator's number for the card, kept here so ranking a hand needs no lookups:
    #: (rank - 2) * 4 + suit with clubs, diamonds, hearts, spades = 0..3; -1 for a joker.
    #: Not part of the constructor, equality, hashing or repr.
    eval_id: int = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: int, suit: str) -> Card:
        made = _MADE.get((rank, suit)) if rank.__class__ is int else None
        if made is not None and suit.__class__ is str:
            return made
        card: Card = object.__new__(cls)
        return card

    def __post_init__(self) -> None:
        if self.is_joker:
            object.__setattr__(self, "eval_id", -1)
        else:
            if self.rank not in RANK_CHAR or self.suit not in SUITS:
                raise BadInput(f"not a card: rank {self.rank}, suit {self.suit!r}")
            object.__setattr__(self, "eval_id", (self.rank - 2) * 4 + "cdhs".index(self.suit))
        if self.rank.__class__ is int and self.suit.__class__ is str:
            _MADE.setdefault((self.rank, self.suit), self)

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __hash__(self) -> int:
        """The evaluator's number, which equal cards share and unequal ones never do: cheaper
        than hashing (rank, suit), and the game checks look cards up in sets at every event."""
        return self.eval_id

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK and self.suit == JOKER_SUIT

    @property
    def is_red(self) -> bool:
        return self.suit in "hd"

    def __str__(self) -> str:
        return self.code

    @property
    def code(self) -> str:
        """ASCII form, as stored in hand logs: ``Td``, ``As``, ``Jk`` for a joker."""
        return "Jk" if self.is_joker else RANK_CHAR[self.rank] + self.suit

    @property
    def pretty(self) -> str:
        """Screen form with the suit symbol and 10 written out: ``10♦``, ``A♠``."""
        if self.is_joker:
            return "Joker"
        rank = "10" if self.rank == 10 else RANK_CHAR[self.rank]
        return rank + SUIT_SYMBOL[self.suit]

    @property
    def name(self) -> str:
        if self.is_joker:
            return "joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def _key(self) -> tuple[int, int]:
        return (self.rank, SUIT_STRENGTH.get(self.suit, 0))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() < other._key()

    @classmethod
    def joker(cls) -> Card:
        return cls(JOKER_RANK, JOKER_SUIT)


#: Every card made, by (rank, suit): :class:`Card` gives the one object of each.
_MADE: dict[tuple[int, str], Card] = {}


def parse_card(text: str) -> Card:
    """Read ``7h``, ``Td``, ``10d``, ``7♥``, ``a S``, any case; ``Jk``/``joker`` for a joker.

    Raises :class:`BadInput` naming the text and the accepted forms.
    """
    raw = text
    t = text.strip().replace(" ", "")
    if t.lower() in ("jk", "joker", "jo", "🃏", "*"):
        return Card.joker()
    if len(t) < 2:
        raise BadInput(_bad(raw))
    suit_part = t[-1]
    rank_part = t[:-1].upper()
    suit = _SYMBOL_SUIT.get(suit_part, suit_part.lower())
    if suit not in SUITS:
        raise BadInput(_bad(raw))
    if rank_part in ("10", "T"):
        rank = 10
    elif rank_part == "1":
        rank = 14
    elif len(rank_part) == 1 and rank_part in RANK_CHARS:
        rank = RANK_CHARS.index(rank_part) + 2
    else:
        raise BadInput(_bad(raw))
    return Card(rank, suit)


def _bad(raw: str) -> str:
    return (
        f"{raw!r} is not a card: type a rank (2-9, T or 10, J, Q, K, A) and a suit "
        "(s, h, d, c or ♠ ♥ ♦ ♣), e.g. 9d or 10h"
    )


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse several cards from a list, or a string separated by spaces or commas (``AsKd``)."""
    if isinstance(text, (list, tuple)):
        return tuple(parse_card(t) for t in text)
    parts = text.replace(",", " ").split()
    cards: list[Card] = []
    for part in parts:
        cards.extend(_split_run(part))
    return tuple(cards)


def _split_run(run: str) -> list[Card]:
    """Split ``AsKd10h`` into cards."""
    out: list[Card] = []
    i = 0
    while i < len(run):
        step = 3 if run[i : i + 2] == "10" else 2
        out.append(parse_card(run[i : i + step]))
        i += step
    return out


def full_deck() -> tuple[Card, ...]:
    """The 52 cards, ranks high to low, suits in tie-break order (made once: cards are
    immutable, and every sample hand starts from this deck)."""
    return _FULL_DECK


_FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(14, 1, -1) for s in SUITS)


def codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]
