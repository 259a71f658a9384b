"""Preference (Austrian): the ante when the pot is under ten stakes, the bidding, the talon and
trumps, the defenders' choices, "no aces", and the ten tricks (``games/tricks``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.seats import from_left
from dealer_assist.events import Start
from dealer_assist.games.carried_pot import NO_FEE, TableFee
from dealer_assist.games.tricks import Revoke, TrickRules, Tricks
from dealer_assist.games.tricks.table import read_opening

NAME = "preference"
NUMBERS = ("one", "two", "three", "four")
BIDS = (*NUMBERS, "game", "hearts", "pass")
#: Suits for the bidding: spades 1, clubs 2, diamonds 3, hearts 4.
SUIT_RANK = {"s": 1, "c": 2, "d": 3, "h": 4}
TRICKS = 10
#: Stakes: the declarer's take from the pot, the penalties, the bonuses.
POT_TAKE = 10
DECLARER_PENALTY = 20
DEFENDER_PENALTY = 10
BONUS = 10
RULES = TrickRules(head=True, tag="pref-4")
ACES = frozenset(Card(14, s) for s in "shdc")


@dataclass(frozen=True, slots=True)
class PrefState:
    seats: tuple[int, ...]
    dealer: int
    stake: int
    pot_in: int
    #: The three active players from the dealer's left (a fourth seat, the dealer, sits out).
    active: tuple[int, ...]
    revoke: str = "floor"
    #: The table's fee (a rake or a collection is taken at settlement, fees ruling).
    fee: TableFee = NO_FEE
    #: The fees paid before the deal.
    fees: tuple[FeeLine, ...] = ()
    ante: int = 0  # stakes each active player put in this hand
    ended: bool = False
    bids: tuple[tuple[int, str], ...] = ()
    trumps_named: tuple[tuple[int, str], ...] = ()
    talon: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    shown: tuple[Card, ...] = ()
    defends: tuple[tuple[int, str], ...] = ()
    no_aces: bool = False
    tricks: Tricks | None = None
    #: Aces the declarer played while "no aces" stood.
    false_no_aces: tuple[Revoke, ...] = ()
    #: The contract's kind, the declarer and trumps once known (worked out once: every event
    #: of a replay asks for them).
    k_kind: str | None = None
    k_declarer: int | None = None
    k_trump: str | None = None
    #: The seats that play the tricks, once both defenders have spoken (:meth:`players`; an
    #: invitation before the first lead changes them; asked at every card played).
    k_players: tuple[int, ...] | None = None

    # --- the pot ----------------------------------------------------------------------------
    @property
    def ten(self) -> int:
        return 10 * self.stake

    @property
    def pot(self) -> int:
        """The pot played for: carried in plus this hand's ante."""
        return self.pot_in + self.ante * self.stake * len(self.active)

    @property
    def needs_ante(self) -> bool:
        """The pot is under ten stakes and nothing was put in or chosen yet."""
        return self.pot < self.ten and not self.ended

    # --- the bidding ------------------------------------------------------------------------
    def passed(self) -> frozenset[int]:
        return frozenset(s for s, b in self.bids if b == "pass")

    def game_bidders(self) -> tuple[int, ...]:
        out: list[int] = []
        for s, b in self.bids:
            if b == "game" and s not in out:
                out.append(s)
        return tuple(out)

    def level(self) -> int:
        """The highest numeric bid so far (0: none)."""
        return max((NUMBERS.index(b) + 1 for _, b in self.bids if b in NUMBERS), default=0)

    def numeric_by(self) -> int | None:
        lv = self.level()
        return next((s for s, b in self.bids if lv and b == NUMBERS[lv - 1]), None)

    def hearts_by(self) -> int | None:
        return next((s for s, b in self.bids if b == "hearts"), None)

    def bid_numeric(self, seat: int) -> bool:
        return any(s == seat and b in NUMBERS for s, b in self.bids)

    @property
    def auction_over(self) -> bool:
        if self.hearts_by() is not None:
            return True
        remaining = [s for s in self.active if s not in self.passed()]
        if not remaining:
            return True
        games = self.game_bidders()
        if all(s in games for s in remaining):
            return True
        return len(remaining) == 1 and (remaining[0] in games
                                        or remaining[0] == self.numeric_by())

    @property
    def all_passed(self) -> bool:
        return len(self.passed()) == len(self.active)

    def to_bid(self) -> int | None:
        if self.k_kind is not None or self.needs_ante or self.ended or self.auction_over:
            return None
        out = self.passed() | frozenset(self.game_bidders())
        if not self.bids:
            return self.active[0]
        last = self.bids[-1][0]
        order = from_left(self.active, last)
        return next(s for s in order if s not in out)

    def allowed_bids(self, seat: int) -> tuple[str, ...]:
        out: list[str] = []
        lv = self.level()
        if not self.game_bidders() and lv < len(NUMBERS):
            out.append(NUMBERS[lv])
        if not self.bid_numeric(seat):
            out.extend(("game", "hearts"))
        return tuple(out)

    # --- the contract -----------------------------------------------------------------------
    @property
    def kind(self) -> str | None:
        """``numeric``, ``game`` or ``hearts`` once the auction is won; None before."""
        if self.k_kind is not None:
            return self.k_kind
        return self._kind()

    def _kind(self) -> str | None:
        if not self.auction_over or self.all_passed or self.ended:
            return None
        if self.hearts_by() is not None:
            return "hearts"
        if self.game_bidders():
            return "game"
        return "numeric"

    def naming(self) -> int | None:
        """The seat that names trumps next (None: nobody)."""
        kind = self.kind
        if kind == "game":
            named = {s for s, _ in self.trumps_named}
            return next((s for s in self.game_bidders() if s not in named), None)
        if kind == "numeric" and len(self.discard) == 2 and not self.trumps_named:
            return self.numeric_by()
        return None

    @property
    def declarer(self) -> int | None:
        if self.k_declarer is not None:
            return self.k_declarer
        return self._declarer()

    def _declarer(self) -> int | None:
        kind = self.kind
        if kind == "hearts":
            return self.hearts_by()
        if kind == "numeric":
            return self.numeric_by()
        if kind == "game":
            if self.naming() is not None:
                return None
            best = max(SUIT_RANK[s] for _, s in self.trumps_named)
            return next(seat for seat in self.active for b, s in self.trumps_named
                        if b == seat and SUIT_RANK[s] == best)
        return None

    @property
    def trump(self) -> str | None:
        if self.k_trump is not None:
            return self.k_trump
        return self._trump()

    def _trump(self) -> str | None:
        kind = self.kind
        if kind == "hearts":
            return "h"
        d = self.declarer
        if d is None:
            return None
        return next((s for b, s in self.trumps_named if b == d), None)

    def defenders(self) -> tuple[int, ...]:
        d = self.declarer
        if d is None:
            return ()
        return _defenders(self.active, d)

    def choice(self, seat: int) -> str | None:
        for s, c in self.defends:
            if s == seat and c != "invite":
                return c
        return None

    def invited(self) -> int | None:
        """The host of an invited pair."""
        return next((s for s, c in self.defends if c == "invite"), None)

    @property
    def defenders_spoke(self) -> bool:
        if self.k_players is not None:  # (kept once they had spoken: they cannot unsay it)
            return True
        if self.trump is None:
            return False
        return all(self.choice(s) for s in self.defenders())

    def playing_defenders(self) -> tuple[int, ...]:
        return tuple(s for s in self.defenders() if self.choice(s) == "play")

    @property
    def both_dropped(self) -> bool:
        return self.defenders_spoke and not self.playing_defenders()

    def to_defend(self) -> int | None:
        if self.trump is None:
            return None
        return next((s for s in self.defenders() if not self.choice(s)), None)

    def players(self) -> tuple[int, ...]:
        """The seats that play the tricks, in turn (ruling pref-8): every active player when
        both defenders play or one invites the other; the declarer and the one defender
        playing when the other drops; before the defenders have spoken, every active
        player."""
        if self.k_players is not None:
            return self.k_players
        playing = self.playing_defenders()
        if len(playing) != 1 or not self.defenders_spoke or self.invited() is not None:
            return self.active
        return tuple(s for s in self.active if s == self.declarer or s in playing)

    def may_invite(self) -> int | None:
        """The lone playing defender who may still invite (before the first card)."""
        if not self.defenders_spoke or self.invited() is not None:
            return None
        playing = self.playing_defenders()
        if len(playing) != 1 or (self.tricks is not None and self.tricks.played):
            return None
        return playing[0]

    @property
    def over(self) -> bool:
        if self.ended:
            return True
        t = self.tricks
        if t is not None:
            return t.over if t.played else self.both_dropped
        return self.k_kind is None and self.all_passed

    def declarer_cards(self) -> frozenset[Card]:
        """The cards the declarer is known to hold or to have held: shown or played."""
        d = self.declarer
        out = set(self.shown)
        if self.tricks is not None:
            out |= {c for tr in (*self.tricks.done, self.tricks.trick()) for s, c in tr.plays
                    if s == d}
        return frozenset(out)


@lru_cache(maxsize=64)
def _defenders(active: tuple[int, ...], declarer: int) -> tuple[int, ...]:
    """The declarer's defenders, from its left (asked several times an event: worked out once
    per seating and declarer)."""
    return tuple(s for s in from_left(active, declarer) if s != declarer)


def start_state(event: Start) -> PrefState:
    o = read_opening(event, low=3, high=4)
    active = o.order[:-1] if len(o.seats) == 4 else o.order
    return PrefState(seats=o.seats, dealer=o.dealer, stake=o.stake, pot_in=o.pot_in,
                     active=active, revoke=o.revoke, fee=o.fee, fees=o.fee.before_deal)
