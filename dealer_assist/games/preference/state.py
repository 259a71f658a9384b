"""Preference (Austrian): the ante when the pot is under ten stakes, the bidding, the talon and
trumps, the defenders' choices, "no aces", and the ten tricks (``games/tricks``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.evolve import evolver
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Discard, Event, Show, Start
from dealer_assist.games.carried_pot import NO_FEE, TableFee
from dealer_assist.games.preference.events import (
    Ante,
    Bid,
    Defend,
    End,
    NameTrump,
    NoAces,
    Talon,
)
from dealer_assist.games.tricks import (
    PACK,
    SUIT_WORDS,
    Revoke,
    TrickRules,
    Tricks,
    _evolve_tricks,
    start_tricks,
)
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


# --- checking ---------------------------------------------------------------------------------


def _no(why: str, rule: str = "pref-2") -> RuleViolation:
    return RuleViolation(why, rule=rule)


def check(state: PrefState, event: Event) -> None:
    if state.over:
        raise _no("the hand is over: settle it", "pref")
    if isinstance(event, Ante | End):
        if state.bids or state.ante:
            raise _no("the ante or the end of the game comes before the bidding", "pref-7")
        if isinstance(event, Ante):
            if not state.needs_ante:
                raise _no(f"the pot holds {state.pot // state.stake} stakes: an ante comes "
                          "only when it is under ten", "pref-7")
            n = event.stakes
            if isinstance(n, bool) or not isinstance(n, int) or n < 10 or n % 10:
                raise _no(f"the ante is a multiple of ten stakes, not {n!r}", "pref-1")
        # (the players may end the game before any hand's bidding, whatever the pot holds:
        # what is left is shared, nothing when nothing is; ruling pref-7)
        return
    if state.needs_ante:
        raise _no(f"the pot holds {state.pot // state.stake} stakes, under ten: ante (each "
                  "active player puts in a multiple of ten stakes) or end the game", "pref-5")
    if isinstance(event, Bid):
        _check_bid(state, event)
        return
    if state.k_kind is None and not state.auction_over:
        raise _no(f"seat {state.to_bid()} bids next")
    kind = state.kind
    if isinstance(event, Talon):
        if kind != "numeric":
            raise _no("the talon is taken only after a numeric bid (One to Four)")
        if state.talon:
            raise _no("the talon is already taken")
        if len(event.cards) != 2 or len(set(event.cards)) != 2:
            raise _no("the talon is two cards")
        for c in event.cards:
            if c not in PACK:
                raise _no(f"{c.pretty} is not in the 32-card pack (ace to seven)", "pref-1")
        return
    if isinstance(event, Discard):
        if kind != "numeric" or not state.talon:
            raise _no("the declarer discards two after taking the talon")
        if event.seat != state.numeric_by():
            raise _no(f"the declarer (seat {state.numeric_by()}) discards, not seat "
                      f"{event.seat}")
        if state.discard:
            raise _no("the declarer has already discarded")
        if len(event.cards) != 2 or len(set(event.cards)) != 2 or event.count is not None:
            raise _no("the declarer discards two cards, face up to the dealer")
        for c in event.cards:
            if c not in PACK:
                raise _no(f"{c.pretty} is not in the 32-card pack (ace to seven)", "pref-1")
        return
    if isinstance(event, NameTrump):
        who = state.naming()
        if who is None:
            if kind == "hearts":
                raise _no("hearts are trumps: nobody names a suit after Hearts")
            if kind == "numeric" and len(state.discard) != 2:
                raise _no("the declarer takes the talon and discards two before naming trumps")
            raise _no("trumps are already named")
        if event.seat != who:
            raise _no(f"seat {who} names trumps next, not seat {event.seat}")
        if event.suit not in SUIT_RANK:
            raise _no(f'trumps are "s", "c", "d" or "h", not {event.suit!r}')
        if kind == "numeric" and SUIT_RANK[event.suit] < state.level():
            bid = NUMBERS[state.level() - 1]
            raise _no(f"a bid of {bid.capitalize()} names trumps ranked at least "
                      f"{state.level()} (spades 1, clubs 2, diamonds 3, hearts 4), not "
                      f"{SUIT_WORDS[event.suit]}")
        return
    if state.trump is None:
        who = state.naming()
        if kind == "numeric" and not state.talon:
            raise _no("take the talon first")
        if kind == "numeric" and not state.discard:
            raise _no("the declarer discards two first")
        raise _no(f"seat {who} names trumps first")
    if isinstance(event, Defend):
        _check_defend(state, event)
        return
    d = state.declarer
    if isinstance(event, NoAces):
        if event.seat != d:
            raise _no(f"only the declarer (seat {d}) declares no aces", "pref-3")
        why = no_aces_refusal(state)
        if why:
            raise _no(why, "pref-3")
        return
    if isinstance(event, Show):
        if event.seat != d:
            raise _no(f"only the declarer (seat {d}) shows the hand", "pref-3")
        if not 1 <= len(event.cards) <= TRICKS or len(set(event.cards)) != len(event.cards):
            raise _no("a show is one to ten different cards")
        t = state.tricks
        for c in event.cards:
            if c not in PACK:
                raise _no(f"{c.pretty} is not in the 32-card pack (ace to seven)", "pref-1")
            if c in state.discard or (t is not None and c in t.played):
                raise _no(f"{c.pretty} is not in the declarer's hand", "pref-3")
        if state.no_aces and ACES & set(event.cards):
            raise _no("the declarer declared no aces", "pref-3")
        return
    if isinstance(event, CardDealt):
        if not state.defenders_spoke:
            raise _no(f"seat {state.to_defend()} says play or drop first", "pref-3")
        assert state.tricks is not None
        if event.seat in state.active and event.seat not in state.players():
            raise _no(f"seat {event.seat} dropped: it takes no part in the play, its cards stay "
                      f"face down; seat {state.tricks.to_play()} plays next", "pref-8")
        state.tricks.check(event.seat, event.card)
        return
    raise _no(f"Preference takes no {event.TYPE}", "pref")


def no_aces_refusal(state: PrefState) -> str:
    """Why the declarer may not declare no aces now ("" when it may)."""
    if state.no_aces:
        return "no aces is already declared"
    if state.tricks is not None and state.tricks.played:
        return "no aces is declared before the first lead"
    aces = ACES & (set(state.discard) | set(state.talon) | set(state.shown))
    if aces:
        how = " went through the declarer's hand" if aces - set(state.shown) else " shown"
        return ("the declarer cannot declare no aces: "
                + " ".join(sorted(c.pretty for c in aces)) + how)
    return ""


def _check_bid(state: PrefState, event: Bid) -> None:
    who = state.to_bid()
    if who is None:
        raise _no("the bidding is over")
    if event.seat != who:
        raise _no(f"seat {who} bids next, not seat {event.seat}")
    if event.bid not in BIDS:
        raise _no(f"a bid is one of {', '.join(BIDS)}, not {event.bid!r}")
    if event.bid == "pass":
        return
    allowed = state.allowed_bids(event.seat)
    if event.bid in allowed:
        return
    lv = state.level()
    if event.bid in NUMBERS:
        if state.game_bidders():
            raise _no("Game has been bid: only Game, Hearts or pass")
        want = NUMBERS[lv] if lv < len(NUMBERS) else None
        raise _no(f"no skipping: the next number is {want.capitalize()}" if want
                  else "Four is the highest number: Game, Hearts or pass")
    raise _no(f"seat {event.seat} bid a number: it may only go higher in numbers or pass")


def _check_defend(state: PrefState, event: Defend) -> None:
    if event.choice == "invite":
        host = state.may_invite()
        if host is None:
            if not state.defenders_spoke:
                raise _no("both defenders say play or drop before an invitation", "pref-6")
            raise _no("only the one defender playing may invite, before the first lead",
                      "pref-6")
        if event.seat != host:
            raise _no(f"only seat {host}, the defender playing, may invite", "pref-6")
        return
    if event.choice not in ("play", "drop"):
        raise _no(f'a defender says "play", "drop" or "invite", not {event.choice!r}', "pref-3")
    who = state.to_defend()
    if who is None:
        raise _no("both defenders have spoken", "pref-6")
    if event.seat != who:
        raise _no(f"seat {who} speaks first (the declarer's left), not seat {event.seat}",
                  "pref-6")


# --- applying ---------------------------------------------------------------------------------


def transition(state: PrefState, event: Event) -> PrefState:
    if isinstance(event, CardDealt):  # (most of a hand's events: asked first)
        assert state.tricks is not None
        n = state.tricks.number
        t = state.tricks.play(event.seat, event.card)
        false = state.false_no_aces
        if state.no_aces and event.seat == state.declarer and event.card in ACES:
            false = (*false, Revoke(event.seat, n, "declared no aces", event.card, n))
        return _evolve(state, tricks=t, false_no_aces=false)
    if isinstance(event, Ante):
        return _evolve(state, ante=event.stakes)
    if isinstance(event, End):
        return _evolve(state, ended=True)
    if isinstance(event, Bid):
        # (a Hearts bid ends the auction with hearts trumps: its tricks are set up at once)
        return _start_play(_known(_evolve(state, bids=(*state.bids, (event.seat, event.bid)))))
    if isinstance(event, Talon):
        return _evolve(state, talon=event.cards)
    if isinstance(event, Discard):
        return _evolve(state, discard=event.cards)
    if isinstance(event, NameTrump):
        new = _evolve(state, trumps_named=(*state.trumps_named, (event.seat, event.suit)))
        return _start_play(_known(new))
    if isinstance(event, Defend):
        new = _evolve(state, defends=(*state.defends, (event.seat, event.choice)))
        return _start_play(new)
    if isinstance(event, NoAces):
        return _evolve(state, no_aces=True)
    if isinstance(event, Show):
        new = _evolve(state, shown=(*state.shown, *event.cards))
        if new.tricks is not None:
            owner = dict(new.tricks.owner)
            owner.update(dict.fromkeys(event.cards, event.seat))
            new = _evolve(new, tricks=_evolve_tricks(new.tricks,
                                                     owner=MappingProxyType(owner)))
        return new
    raise AssertionError(event)


def _known(state: PrefState) -> PrefState:
    """``state`` with the contract's kind, the declarer and trumps kept once they are known."""
    if state.k_kind is None:
        kind = state._kind()
        if kind is None:
            return state
        state = _evolve(state, k_kind=kind)
    if state.k_declarer is None:
        d, t = state._declarer(), state._trump()
        if d is not None and t is not None:
            state = _evolve(state, k_declarer=d, k_trump=t)
    return state


def _start_play(state: PrefState) -> PrefState:
    """Once trumps are named, the tricks are set up (the defenders may still speak); once the
    defenders have spoken, the seats that play them (ruling pref-8)."""
    if state.tricks is not None or state.trump is None:
        if state.tricks is not None and state.defenders_spoke and not state.tricks.played:
            order = state.players()
            both = len(state.playing_defenders()) == 2
            d = state.declarer
            assert d is not None
            return _evolve(state, tricks=_evolve_tricks(
                state.tricks, order=order, lowest_beat=(d,) if both else ()))
        return state
    d = state.declarer
    assert d is not None
    owner = dict.fromkeys([c for c in state.talon if c not in state.discard], d)
    owner.update(dict.fromkeys(state.shown, d))
    tricks = start_tricks(state.active, total=TRICKS, trump=state.trump, rules=RULES,
                          leader=d, owner=owner, dead=state.discard)
    return _evolve(state, tricks=tricks)


_evolve = evolver(PrefState)


def step(state: PrefState, event: Event) -> PrefState:
    check(state, event)
    return transition(state, event)


__all__ = ["BIDS", "NAME", "NUMBERS", "PrefState", "check", "start_state", "step",
           "transition"]

