"""Mille's rules as small functions: card values, what a meld is, a hand's score with its
naturals, the end of the game and the settlement at stakes. Each refusal names its ruling
(RULINGS.md, Mille)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.errors import RuleViolation

#: Points that end the game (ruling mille-5).
TARGET = 1200
#: Below this the loser is skunked (payment doubled); below zero double skunked (tripled).
SKUNK = 600
#: Cards dealt to each player; two decks of 52.
HAND_CARDS = 15
DECK_CARDS = 104
COPIES = 2
#: The rank of the wild cards; their own meld is filed under it.
WILD = 2
RANK_WORDS = {2: "2s", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
              8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings",
              14: "aces"}


def value(card: Card) -> int:
    """Q♠ 100, J♦ 50, 2s 20, aces 15, K-10 10, 9-3 5 (ruling mille-2): the two special cards
    take their special value only."""
    if card.rank == 12 and card.suit == "s":
        return 100
    if card.rank == 11 and card.suit == "d":
        return 50
    if card.rank == WILD:
        return 20
    if card.rank == 14:
        return 15
    return 10 if card.rank >= 10 else 5


def points(cards: Iterable[Card]) -> int:
    return sum(value(c) for c in cards)


def codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def meld_rank(cards: Sequence[Card]) -> int:
    """The rank a meld is of (:data:`WILD` for a meld of 2s), or why it is no meld."""
    if len(cards) < 3:
        raise RuleViolation(
            f"a meld is three or more cards, not {len(cards)} ({codes(cards) or 'none'})",
            rule="mille-1")
    if any(c.is_joker for c in cards):
        raise RuleViolation(f"{codes(cards)} is not a meld: Mille is played without jokers",
                            rule="mille-1")
    ranks = sorted({c.rank for c in cards if c.rank != WILD})
    if len(ranks) > 1:
        words = " and ".join(RANK_WORDS[r] for r in ranks)
        raise RuleViolation(
            f"{codes(cards)} is not a meld: it mixes {words}; a meld is one rank, 2s wild",
            rule="mille-1")
    return ranks[0] if ranks else WILD


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One player's hand: the melds by rank, their value with the naturals, the cards left."""

    melded: int
    left: int
    #: Ranks melded as all eight cards without a wild (each doubles its meld).
    eights: tuple[int, ...]
    #: No 2 melded as a wild (a meld of 2s aside): every melded card doubles.
    no_twos: bool
    #: Each meld's value after the naturals, by rank.
    by_rank: Mapping[int, int]

    @property
    def score(self) -> int:
        return self.melded - self.left

    @property
    def naturals(self) -> int:
        return len(self.eights) + (1 if self.no_twos else 0)

    @property
    def chapeau(self) -> bool:
        return self.score < 0


def is_eight(rank: int, cards: Sequence[Card]) -> bool:
    """All eight cards of a rank melded without a wild (ruling mille-3). A meld of 2s is the
    wild cards themselves and is no natural of a rank."""
    return rank != WILD and len(cards) == 8 and all(c.rank == rank for c in cards)


def seat_score(melds: Mapping[int, Sequence[Card]], left: Sequence[Card]) -> SeatScore:
    """A hand's score (rulings mille-3, 4, 6): each rank's meld doubled when it is all eight
    cards without a wild, everything melded doubled when no 2 was melded as a wild (a meld of
    2s aside, itself doubled with the rest), both at once x4; minus the cards left. The "no 2s"
    natural needs at least one meld."""
    wild_used = any(c.rank == WILD for r, cards in melds.items() if r != WILD for c in cards)
    no_twos = bool(melds) and not wild_used
    eights = tuple(sorted(r for r, cards in melds.items() if is_eight(r, cards)))
    by_rank = {
        r: points(cards) * (2 if r in eights else 1) * (2 if no_twos else 1)
        for r, cards in melds.items()
    }
    return SeatScore(melded=sum(by_rank.values()), left=points(left), eights=eights,
                     no_twos=no_twos, by_rank=by_rank)


def rounded(total: int) -> int:
    """To the nearest 100, 50 up toward the higher number: 1,250 -> 1,300, -150 -> -100."""
    return (total + 50) // 100 * 100


def winner_of(totals: Mapping[int, int]) -> int | None:
    """The seat that won the game at the end of a hand (ruling mille-5): someone reached
    1,200 and the totals differ; the higher wins. Otherwise None: the game goes on."""
    if max(totals.values()) < TARGET:
        return None
    ordered = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)
    if ordered[0][1] == ordered[1][1]:
        return None
    return ordered[0][0]


@dataclass(frozen=True, slots=True)
class Line:
    what: str
    stake: int
    times: int

    @property
    def amount(self) -> int:
        return self.stake * self.times

    def to_json(self) -> dict[str, object]:
        return {"what": self.what, "stake": self.stake, "times": self.times,
                "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Payment:
    """What the loser pays the winner at the end of the game (ruling mille-5), in cents."""

    stakes: tuple[int, int]
    lines: tuple[Line, ...]
    multiplier: int
    payer: int
    payee: int

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines) * self.multiplier

    @property
    def why(self) -> str:
        return {1: "", 2: "skunk (under 600): doubled", 3: "double skunk (below 0): tripled"}[
            self.multiplier]

    def to_json(self) -> dict[str, object]:
        return {"stakes": list(self.stakes), "lines": [x.to_json() for x in self.lines],
                "multiplier": self.multiplier, "total": self.total, "payer": self.payer,
                "payee": self.payee}


def payment(*, stakes: tuple[int, int], winner: int, loser: int, totals: Mapping[int, int],
            naturals: Mapping[int, int], chapeaux: Mapping[int, int]) -> Payment:
    """The large stake once for the game, once per natural of the winner and once per chapeau
    of the loser; the small stake once per 100 points between the totals, each rounded to the
    nearest 100; doubled when the loser has under 600, tripled below zero."""
    small, large = stakes
    hundreds = (rounded(totals[winner]) - rounded(totals[loser])) // 100
    lines = (
        Line("the game", large, 1),
        Line(f"naturals of seat {winner}", large, naturals.get(winner, 0)),
        Line(f"chapeaux of seat {loser}", large, chapeaux.get(loser, 0)),
        Line(f"100s between {rounded(totals[winner])} and {rounded(totals[loser])}", small,
             hundreds),
    )
    low = totals[loser]
    multiplier = 3 if low < 0 else 2 if low < SKUNK else 1
    return Payment(stakes=stakes, lines=lines, multiplier=multiplier, payer=loser,
                   payee=winner)
