"""Tricks as the dealer records them, card by card: who leads, who must follow, head or trump,
who won each trick, and which earlier play a later card shows to have been a revoke.

Shared by the trick-taking games (each passes its own rules as a :class:`TrickRules`). The app
never sees the players' hands: it refuses a card already played or one the player cannot hold
(a card out of play, or one known to be in another seat's hand), and it remembers what every
play claimed the player did not hold (a player who did not follow suit holds none of it; one who
did not head the trick holds nothing higher; ...). A later card that contradicts a claim is
accepted, and the earlier trick is named as a revoke.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.evolve import builder, evolver, setter
from dealer_assist.errors import RuleViolation

#: The 32-card pack: ace down to seven in each suit.
RANKS = (14, 13, 12, 11, 10, 9, 8, 7)
SUITS = "shdc"
SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
#: The one revoke setting there is: the hand is settled as played and the floor decides.
REVOKE_CHOICES = ("floor",)


def pack32() -> tuple[Card, ...]:
    """The 32 cards, ace to seven, spades, hearts, diamonds, clubs."""
    return tuple(Card(r, s) for s in SUITS for r in RANKS)


PACK = frozenset(pack32())


@lru_cache(maxsize=1024)
def suit_cards(suit: str, above: int = 0, below: int = 99) -> frozenset[Card]:
    """The pack's cards of ``suit`` ranked strictly between ``above`` and ``below``."""
    return frozenset(c for c in _BY_SUIT[suit] if above < c.rank < below)


_BY_SUIT = {s: tuple(Card(r, s) for r in RANKS) for s in SUITS}


@dataclass(frozen=True, slots=True)
class TrickRules:
    """What a game adds to follow suit / trump when unable / anything when unable.

    ``head``: a player must take the trick when able (within following and trumping), and when
    trumping must overtrump if able. The lowest beat: the first to play after a lead by one of
    :attr:`Tricks.lowest_beat` must beat it, when able, with the lowest card that does (only when
    the rule is switched on for the trick: :attr:`Tricks.lowest_beat`). ``tag``: the rule's
    name in a revoke's reason."""

    head: bool = True
    tag: str = ""


@dataclass(frozen=True, slots=True)
class Claim:
    """What a play claimed its player did not hold: ``cards`` none of these; ``trick`` the
    trick it was made in (1-based); ``why`` the rule."""

    seat: int
    trick: int
    cards: frozenset[Card]
    why: str


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...] = ()
    winner: int | None = None
    revoke: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader,
                "cards": [{"seat": s, "card": c.code} for s, c in self.plays],
                "winner": self.winner, **({"revoke": True} if self.revoke else {})}


@dataclass(frozen=True, slots=True)
class Revoke:
    """A revoke the app found: ``seat`` did not keep to ``why`` at ``trick``; ``card``, played
    at trick ``shown_at``, proves it."""

    seat: int
    trick: int
    why: str
    card: Card
    shown_at: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "trick": self.trick, "rule": self.why,
                "card": self.card.code, "shown_at": self.shown_at}

    def text(self) -> str:
        return (f"revoke: seat {self.seat} at trick {self.trick} ({self.why}); "
                f"{self.card.pretty} at trick {self.shown_at} shows it")


def winner_of(plays: Iterable[tuple[int, Card]], trump: str | None) -> int:
    """The seat whose card takes the trick: the highest trump, else the highest of the suit
    led."""
    best: tuple[int, Card] | None = None
    for seat, card in plays:
        if best is None:
            best = (seat, card)
            continue
        b = best[1]
        if card.suit == b.suit:
            if card.rank > b.rank:
                best = (seat, card)
        elif trump is not None and card.suit == trump:
            best = (seat, card)
    assert best is not None
    return best[0]


@dataclass(frozen=True, slots=True)
class Tricks:
    """Every trick of a hand so far, with what the players' plays claimed.

    ``order``: the seats that play, clockwise; ``total``: how many tricks the hand has;
    ``owner``: cards known to be in one seat's hand (only that seat may play them); ``dead``:
    cards out of play (nobody may play them)."""

    order: tuple[int, ...]
    total: int
    trump: str | None
    rules: TrickRules
    leader: int
    done: tuple[Trick, ...] = ()
    current: Trick | None = None
    played: frozenset[Card] = frozenset()
    owner: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    dead: frozenset[Card] = frozenset()
    claims: tuple[Claim, ...] = ()
    revokes: tuple[Revoke, ...] = ()
    #: (seat, its lead) whose first follower must beat it with the lowest card that does.
    lowest_beat: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return len(self.done) >= self.total

    @property
    def number(self) -> int:
        """The trick being played (1-based)."""
        return len(self.done) + 1

    def trick(self) -> Trick:
        return self.current if self.current is not None else _trick(
            leader=self.leader, plays=(), winner=None, revoke=False)

    def to_play(self) -> int | None:
        if self.over:
            return None
        t = self.trick()
        i = self.order.index(t.leader)
        return self.order[(i + len(t.plays)) % len(self.order)]

    def won(self) -> dict[int, int]:
        out = dict.fromkeys(self.order, 0)
        for t in self.done:
            if t.winner is not None:
                out[t.winner] += 1
        return out

    def left_in_hand(self, seat: int) -> int:
        """Cards ``seat`` still holds (each seat starts with ``total``)."""
        n = sum(1 for t in self.done for s, _ in t.plays if s == seat)
        n += sum(1 for s, _ in self.trick().plays if s == seat)
        return self.total - n

    # --- checking a card --------------------------------------------------------------------
    def refusal(self, seat: int, card: Card) -> str | None:
        """Why ``seat`` cannot play ``card`` now, in the dealer's words; None when it may."""
        if len(self.done) >= self.total:
            return "every trick has been played"
        t = self.current  # (self.to_play(), the tricks not being over)
        order = self.order
        if t is None:
            to_play = order[order.index(self.leader) % len(order)]
        else:
            to_play = order[(order.index(t.leader) + len(t.plays)) % len(order)]
        if seat != to_play:
            return f"seat {to_play} plays next, not seat {seat}"
        if card not in PACK:
            return f"{card.pretty} is not in the 32-card pack (ace to seven)"
        if card in self.played:
            return f"{card.pretty} has already been played"
        if card in self.dead:
            return f"{card.pretty} is out of play this hand"
        holder = self.owner.get(card)
        if holder is not None and holder != seat:
            return f"{card.pretty} is in seat {holder}'s hand"
        return None

    def check(self, seat: int, card: Card) -> None:
        why = self.refusal(seat, card)
        if why is not None:
            raise RuleViolation(why, rule="tricks")

    # --- playing a card ---------------------------------------------------------------------
    def play(self, seat: int, card: Card) -> Tricks:
        """The tricks after ``seat`` plays ``card`` (:meth:`check` has passed)."""
        t = self.trick()
        n = self.number
        claims = self.claims
        revokes = self.revokes
        marked: set[int] = set()
        if claims:  # (a card that shows an earlier claim false: a revoke, the claim settled)
            hit = [c for c in claims if c.seat == seat and card in c.cards]
            if hit:
                revokes = (*revokes, *(_revoke(seat=seat, trick=c.trick, why=c.why, card=card,
                                               shown_at=n) for c in hit))
                claims = tuple(c for c in claims if not (c.seat == seat and card in c.cards))
                marked = {c.trick for c in hit}
        if t.plays:
            claims = (*claims, *self._claims(seat, card, t, n))
        plays = (*t.plays, (seat, card))
        done = self.done
        if marked:  # (those claims' tricks are marked revoked)
            done = tuple(
                _trick(leader=old.leader, plays=old.plays, winner=old.winner, revoke=True)
                if i + 1 in marked else old
                for i, old in enumerate(done))
        revoke_now = t.revoke or n in marked
        leader = self.leader
        current: Trick | None
        if len(plays) == len(self.order):
            win = winner_of(plays, self.trump)
            done = (*done, _trick(leader=t.leader, plays=plays, winner=win, revoke=revoke_now))
            current = None
            leader = win
        else:
            current = _trick(leader=t.leader, plays=plays, winner=None, revoke=revoke_now)
        return _played(self, done, current, leader, self.played | {card}, claims, revokes)

    def _claims(self, seat: int, card: Card, t: Trick, n: int) -> list[Claim]:
        """What ``card``, played to trick ``t`` (already led), claims ``seat`` did not hold."""
        led = t.plays[0][1].suit
        trump = self.trump
        out: list[Claim] = []
        trumps = [c for _, c in t.plays if trump is not None and c.suit == trump]
        top_trump = max((c.rank for c in trumps), default=0)
        top_led = max(c.rank for _, c in t.plays if c.suit == led)
        tag = f" ({self.rules.tag})" if self.rules.tag else ""
        first_after = len(t.plays) == 1 and t.leader in self.lowest_beat
        if card.suit == led:
            lead_card = t.plays[0][1]
            if first_after and card.rank > lead_card.rank:
                # beat the lead, but with the lowest card that does
                lower = suit_cards(led, lead_card.rank, card.rank)
                if lower:
                    out.append(_claim(seat, n, lower, "beat the lead with the lowest card "
                                     f"that does{tag}"))
            elif self.rules.head and card.rank < top_led and (not trumps or led == trump):
                out.append(_claim(seat, n, suit_cards(led, top_led),
                                 f"head the trick when able{tag}"))
            return out
        out.append(_claim(seat, n, suit_cards(led), f"follow suit ({SUIT_WORDS[led]})"))
        if trump is None:
            return out
        if card.suit != trump and led != trump:
            out.append(_claim(seat, n, suit_cards(trump), f"trump when unable to follow "
                             f"({SUIT_WORDS[trump]})"))
        elif first_after and not trumps:
            lower = suit_cards(trump, 0, card.rank)
            if lower:
                out.append(_claim(seat, n, lower, "beat the lead with the lowest card that "
                                 f"does{tag}"))
        elif self.rules.head and card.rank < top_trump:
            out.append(_claim(seat, n, suit_cards(trump, top_trump),
                             f"overtrump when able{tag}"))
        return out


#: Copies without the frozen constructors' cost (a replay plays every card again).
_trick = builder(Trick)
_revoke = builder(Revoke)
_claim = builder(Claim)
_evolve_tricks = evolver(Tricks)
#: The copy a card played makes, its changed fields named once (every card of every replay).
_played = setter(Tricks, "done", "current", "leader", "played", "claims", "revokes")


def start_tricks(order: tuple[int, ...], *, total: int, trump: str | None, rules: TrickRules,
                 leader: int, owner: Mapping[Card, int] | None = None,
                 dead: Iterable[Card] = (), lowest_beat: tuple[int, ...] = ()) -> Tricks:
    """The tricks of a hand before the first lead."""
    return Tricks(order=order, total=total, trump=trump, rules=rules, leader=leader,
                  owner=MappingProxyType(dict(owner or {})), dead=frozenset(dead),
                  lowest_beat=lowest_beat)


def must_text(t: Tricks) -> str:
    """What the player to play must do, in the dealer's words."""
    trick = t.trick()
    if not trick.plays:
        return "leads any card"
    led = trick.plays[0][1]
    trump = t.trump
    suit = SUIT_WORDS[led.suit]
    top = max(c.rank for _, c in trick.plays if c.suit == led.suit)
    trumped = [c for _, c in trick.plays if trump is not None and c.suit == trump]
    parts = [f"must follow {suit}"]
    if t.rules.head and (not trumped or led.suit == trump) and top < max(RANKS):
        best = next(c for _, c in trick.plays if c.suit == led.suit and c.rank == top)
        parts.append(f"beating {best.pretty} if able")
    if trump is not None and led.suit != trump:
        words = f"else trump ({SUIT_WORDS[trump]})"
        if trumped and t.rules.head:
            words += f" above {max(trumped, key=lambda c: c.rank).pretty} if able"
        parts.append(words)
    return ", ".join(parts) + "; else any card"


def trick_line(t: Tricks) -> str:
    trick = t.trick()
    cards = ", ".join(f"seat {s} {c.pretty}" for s, c in trick.plays) or "no card yet"
    return f"Trick {t.number} of {t.total} (seat {trick.leader} leads): {cards}"


def legal_cards(tricks: Tricks, seat: int, hand: Iterable[Card]) -> list[Card]:
    """The cards of ``hand`` ``seat`` may play to the current trick by the rules (for sample
    hands, where the hands are known): follow, head, trump, overtrump, the lowest beat."""
    hand = list(hand)
    t = tricks.trick()
    if not t.plays:
        return hand
    led = t.plays[0][1].suit
    trump = tricks.trump
    trumps_in = [c for _, c in t.plays if trump is not None and c.suit == trump]
    top_trump = max((c.rank for c in trumps_in), default=0)
    top_led = max(c.rank for _, c in t.plays if c.suit == led)
    first_after = len(t.plays) == 1 and t.leader in tricks.lowest_beat
    lead_rank = t.plays[0][1].rank
    follow = [c for c in hand if c.suit == led]
    if follow:
        if first_after:
            beat = [c for c in follow if c.rank > lead_rank]
            if beat:
                return [min(beat, key=lambda c: c.rank)]
            return follow
        if tricks.rules.head and (not trumps_in or led == trump):
            higher = [c for c in follow if c.rank > top_led]
            return higher or follow
        return follow
    if trump is None:
        return hand
    mine = [c for c in hand if c.suit == trump]
    if not mine:
        return hand
    if first_after and not trumps_in:
        return [min(mine, key=lambda c: c.rank)]
    if tricks.rules.head:
        over = [c for c in mine if c.rank > top_trump]
        return over or mine
    return mine


__all__ = [
    "PACK",
    "RANKS",
    "REVOKE_CHOICES",
    "SUITS",
    "SUIT_WORDS",
    "Claim",
    "Revoke",
    "Trick",
    "TrickRules",
    "Tricks",
    "legal_cards",
    "must_text",
    "pack32",
    "start_tricks",
    "suit_cards",
    "trick_line",
    "winner_of",
]
