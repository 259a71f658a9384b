"""Preference's rules: each event checked against the hand's state (the ante, the bidding, the
talon and trumps, the defenders' choices, "no aces", the ten tricks) and the state after it."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.engine.evolve import copied, evolver, setter
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Discard, Event, Show
from dealer_assist.games.preference.events import Ante, Bid, Defend, End, NameTrump, NoAces, Talon
from dealer_assist.games.preference.state import (
    ACES,
    BIDS,
    NUMBERS,
    RULES,
    SUIT_RANK,
    TRICKS,
    PrefState,
)
from dealer_assist.games.tricks import PACK, SUIT_WORDS, Revoke, _evolve_tricks, start_tricks

# --- checking ---------------------------------------------------------------------------------


def _no(why: str, rule: str = "pref-2") -> RuleViolation:
    return RuleViolation(why, rule=rule)


def check(state: PrefState, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
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
    """The state after ``event`` (``check`` has passed it)."""
    if isinstance(event, CardDealt):  # (most of a hand's events: asked first)
        assert state.tricks is not None
        n = state.tricks.number
        t = state.tricks.play(event.seat, event.card)
        false = state.false_no_aces
        if state.no_aces and event.seat == state.declarer and event.card in ACES:
            false = (*false, Revoke(event.seat, n, "declared no aces", event.card, n))
        return _card_played(state, t, false)
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
            owner = copied(new.tricks.owner)
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
    if state.k_players is not None:  # (an invitation: the seats that play are worked out anew)
        state = _evolve(state, k_players=None)
    if state.tricks is not None or state.trump is None:
        if state.tricks is not None and state.defenders_spoke and not state.tricks.played:
            order = state.players()
            both = len(state.playing_defenders()) == 2
            d = state.declarer
            assert d is not None
            return _evolve(state, tricks=_evolve_tricks(
                state.tricks, order=order, lowest_beat=(d,) if both else ()), k_players=order)
        return state
    d = state.declarer
    assert d is not None
    owner = dict.fromkeys([c for c in state.talon if c not in state.discard], d)
    owner.update(dict.fromkeys(state.shown, d))
    tricks = start_tricks(state.active, total=TRICKS, trump=state.trump, rules=RULES,
                          leader=d, owner=owner, dead=state.discard)
    return _evolve(state, tricks=tricks)


_evolve = evolver(PrefState)
#: The copy a card played makes (every card of every replay: no keywords matched).
_card_played = setter(PrefState, "tricks", "false_no_aces")


def step(state: PrefState, event: Event) -> PrefState:
    """``event`` checked, then applied: the game's ``apply``."""
    check(state, event)
    return transition(state, event)

