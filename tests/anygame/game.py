"""Tally: a game that exists only in the tests, using every capability the engine offers a game
package, so that each is proved end to end without a real game.

Two decks and two jokers. From the dealer's left each seat in turn draws, melds (three to five
cards of a rank, jokers wild), swaps, rolls the app's die, calls a pair or trips (the cards and
the combination: two inputs), up to six moves, then stops. Points: a meld its cards' pips
(ace 1, faces 10, a joker 0), a swap 1, a roll its value, a call 5 (pair) or 10 (trips). A
running total carries from hand to hand (``totals_in``), and so does the pot (``pot_in``):
each hand every seat antes; when a total reaches the target the game is over and the highest
total takes the pot, odd chips left in it for the next game. The dealer is ``dealer`` in its
logs, the carried pot ``pot_in``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from anygame.events import EVENTS, Call, Choose, Draw, Meld, Roll, Ruling, Stop, Swap
from dealer_assist.cards import Card, parse_card
from dealer_assist.engine import start as read
from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Game,
    Prompt,
    PushStep,
    ScoreSheet,
    SeatView,
    Settlement,
    TableView,
)
from dealer_assist.engine.inputs import Cards, Choice, Drawn
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start

NAME = "tally-test"
MOVES = 6
COMBOS = {"pair": (2, 5), "trips": (3, 10)}


@dataclass(frozen=True, slots=True)
class State:
    seats: tuple[int, ...]
    dealer: int
    ante: int
    target: int
    pot_in: int
    totals_in: Mapping[int, int]
    order: tuple[int, ...]
    turn: int = 0
    moves: int = 0
    points: Mapping[int, int] = field(default_factory=dict)
    used: Mapping[Card, int] = field(default_factory=dict)
    #: A call waiting for the floor's ruling: (seat, its points).
    pending: tuple[int, int] | None = None
    #: The table's choice once every seat stopped ("go on" or "end"), when it is asked.
    choice: str | None = None

    @property
    def turns_done(self) -> bool:
        return self.turn >= len(self.order)

    @property
    def reached(self) -> bool:
        return max(self.totals().values()) >= self.target

    @property
    def over(self) -> bool:
        return self.turns_done and (self.reached or self.choice is not None)

    @property
    def to_act(self) -> int | None:
        return None if self.turns_done else self.order[self.turn]

    def totals(self) -> dict[int, int]:
        return {s: self.totals_in.get(s, 0) + self.points.get(s, 0) for s in self.seats}


def pips(card: Card) -> int:
    if card.is_joker:
        return 0
    return 1 if card.rank == 14 else min(card.rank, 10)


def _cards_of(event: Event) -> tuple[Card, ...]:
    return event.carried_cards()


class Tally(Game[State]):
    name = NAME
    title = "Tally (test)"
    players: ClassVar[tuple[int, int]] = (2, 5)
    has_button = False  # no dealer's button; the deal still moves round
    start_keys: ClassVar[tuple[str, ...]] = ("button", "carry_in")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"button": "dealer", "carry_in": "pot_in"})
    carries: ClassVar[tuple[str, ...]] = ("totals_in",)
    floor_events: ClassVar[frozenset[str]] = frozenset({"ruling"})
    jokers: ClassVar[bool] = True
    events = EVENTS
    demo = DemoTable(settings={"game": NAME, "seats": 4, "smallest_chip": 100,
                               "params": {"ante": 100, "target": 40}},
                     players=(3, 4), sample={"ante": 100, "target": 40})

    # --- start, check, apply ----------------------------------------------------------------
    def start(self, event: Start) -> State:
        read.only(event, ("dealer", "pot_in", "ante", "target", "totals_in"))
        seats = read.seats_between(event, low=2, high=5)
        dealer = read.button(event, seats, self.key("button"))
        ante = read.cents(event.get("ante", 100), "ante", low=1)
        target = read.whole(event, "target", 40, low=1, what="the points that end the game")
        pot_in = read.cents(event.get("pot_in", 0), "pot_in")
        raw = event.get("totals_in") or {}
        if not isinstance(raw, Mapping):
            raise RuleViolation('"totals_in" gives each seat\'s points: {"1": 12, ...}')
        totals = {int(k): int(v) for k, v in raw.items()}
        i = seats.index(dealer)
        order = seats[i + 1:] + seats[:i + 1]
        return State(seats=seats, dealer=dealer, ante=ante, target=target, pot_in=pot_in,
                     totals_in=MappingProxyType(totals), order=order)

    def check(self, state: State, event: Event) -> None:
        if state.over:
            raise RuleViolation("the hand is over")
        if state.pending is not None:
            if not isinstance(event, Ruling):
                raise RuleViolation(f"seat {state.pending[0]}'s call waits for the floor")
            if event.decision not in ("stands", "void") or not event.reason.strip():
                raise RuleViolation('the floor rules the call "stands" or "void", with a reason')
            return
        if isinstance(event, Ruling):
            raise RuleViolation("no call waits for the floor")
        if state.turns_done:
            if not isinstance(event, Choose) or event.choice not in ("go on", "end"):
                raise RuleViolation('the table chooses to "go on" or "end" the game')
            return
        seat = event.seat_of
        if seat != state.to_act:
            raise RuleViolation(f"seat {state.to_act} is to act, not seat {seat}")
        if isinstance(event, Stop):
            return
        if state.moves >= MOVES:
            raise RuleViolation(f"seat {seat} has made its {MOVES} moves: it stops")
        if not isinstance(event, Draw | Meld | Swap | Roll | Call):
            raise RuleViolation(f"{self.title} takes no {event.TYPE}")
        for card in _cards_of(event):
            limit = 2
            if state.used.get(card, 0) + sum(1 for c in _cards_of(event) if c == card) > limit:
                raise RuleViolation(f"{card.pretty} is already out twice (two decks)")
        if isinstance(event, Draw) and event.source not in ("stock", "pile"):
            raise RuleViolation('a card is drawn from the "stock" or the "pile"')
        if isinstance(event, Meld):
            ranks = {c.rank for c in event.cards if not c.is_joker}
            if not 3 <= len(event.cards) <= 5 or len(ranks) > 1:
                raise RuleViolation("a meld is three to five cards of one rank (jokers wild)")
        if isinstance(event, Roll) and (event.die != "d6" or not 1 <= event.value <= 6):
            raise RuleViolation("the roll is a d6 showing 1 to 6")
        if isinstance(event, Call):
            want = COMBOS.get(event.combination)
            ranks = {c.rank for c in event.cards}
            if want is None or len(event.cards) != want[0] or len(ranks) != 1:
                raise RuleViolation(f"{' '.join(c.code for c in event.cards)} is not "
                                    f"{event.combination}")

    def transition(self, state: State, event: Event) -> State:
        if isinstance(event, Ruling):
            assert state.pending is not None
            points = dict(state.points)
            if event.decision == "void":
                seat, gain = state.pending
                points[seat] -= gain
            return replace(state, pending=None, points=points)
        if isinstance(event, Choose):
            return replace(state, choice=event.choice)
        seat = event.seat_of
        assert seat is not None
        if isinstance(event, Stop):
            return replace(state, turn=state.turn + 1, moves=0)
        used = dict(state.used)
        for card in _cards_of(event):
            used[card] = used.get(card, 0) + 1
        gain = 0
        if isinstance(event, Meld):
            gain = sum(pips(c) for c in event.cards)
        elif isinstance(event, Swap):
            gain = 1
        elif isinstance(event, Roll):
            gain = event.value
        elif isinstance(event, Call):
            gain = COMBOS[event.combination][1]
        points = dict(state.points)
        points[seat] = points.get(seat, 0) + gain
        pending = (seat, gain) if isinstance(event, Call) else None  # the floor rules on it
        return replace(state, moves=state.moves + 1, used=MappingProxyType(used),
                       points=MappingProxyType(points), pending=pending)

    # --- what the dealer sees ---------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        if state.over:
            return Prompt("done", None, "settle the hand", done=True)
        if state.pending is not None:
            caller = state.pending[0]
            return Prompt("floor", caller, f"Seat {caller}'s call: the floor rules on it", (
                Action("ruling", "Floor ruling", key="f", floor=True,
                       input=Choice("decision", ("stands", "void")),
                       more=(Choice("reason", (), free=True),)),
            ))
        if state.turns_done:
            return Prompt("choice", None, "Go on with the game, or end it and share the pot", (
                Action("choose", "Go on", key="g", fields={"choice": "go on"}),
                Action("choose", "End the game", key="e", fields={"choice": "end"}),
            ))
        seat = state.to_act
        assert seat is not None
        more = state.moves < MOVES
        why = "" if more else f"{MOVES} moves made: stop"
        cards = Cards(1, 1, field="card", repeats=True, jokers=True)
        actions = (
            Action("draw", "Draw", seat, key="d", enabled=more, reason=why,
                   input=Choice("from", ("stock", "pile")), more=(cards,)),
            Action("meld", "Meld", seat, key="m", enabled=more, reason=why,
                   input=Cards(3, 5, repeats=True, jokers=True)),
            Action("swap", "Swap", seat, key="w", enabled=more, reason=why,
                   input=Cards(1, 1, field="up", repeats=True, jokers=True),
                   more=(Cards(1, 1, field="hole", repeats=True, jokers=True),)),
            Action("roll", "Roll the die", seat, key="r", enabled=more, reason=why,
                   fields={"die": "d6"}, input=Drawn("value", faces=6)),
            Action("call", "Call", seat, key="c", enabled=more, reason=why,
                   input=Cards(2, 3, repeats=True),
                   more=(Choice("combination", tuple(COMBOS)),)),
            Action("stop", "Stop", seat, key="s"),
        )
        return Prompt("turn", seat, f"Seat {seat} to move ({state.moves} of {MOVES})", actions)

    def is_over(self, state: State) -> bool:
        return state.over

    def game_over(self, state: State) -> bool:
        return state.reached or state.choice == "end"

    def settle(self, state: State) -> Settlement:
        put_in = {s: state.ante for s in state.seats}
        pot = state.ante * len(state.seats) + state.pot_in
        payouts: dict[int, int] = {}
        steps: list[PushStep] = []
        if self.game_over(state):
            totals = state.totals()
            best = max(totals.values())
            winners = ([s for s in state.seats if totals[s] == best] if state.reached
                       else list(state.seats))  # the game ended by choice: the pot is shared
            share = pot // len(winners)
            for s in winners:
                payouts[s] = share
                steps.append(PushStep(len(steps) + 1, f"Push {share} to seat {s}", share, s))
        carry = pot - sum(payouts.values())
        if carry:
            steps.append(PushStep(len(steps) + 1, f"Leave {carry} in the pot", carry, None,
                                  "carry"))
        return Settlement(put_in=put_in, payouts=payouts, carry_in=state.pot_in,
                          carry_out=carry, steps=tuple(steps)).require_conserved()

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        totals = state.totals()
        seats = tuple(
            SeatView(seat=s, status="to move" if s == state.to_act else "",
                     detail=f"total {totals[s]}", to_act=s == state.to_act)
            for s in state.seats
        )
        return TableView(game=NAME, seats=seats, to_act=state.to_act, button=state.dealer,
                         pots=(("pot", state.ante * len(state.seats) + state.pot_in),))

    def report(self, state: State) -> dict[str, Any]:
        totals = state.totals()
        over = self.game_over(state)
        best = max(totals.values())
        return {
            "points": {str(s): state.points.get(s, 0) for s in state.seats},
            "totals": {str(s): v for s, v in totals.items()},
            "game_over": over,
            "winners": [s for s in state.seats if totals[s] == best] if state.reached else [],
            "choice": state.choice,
        }

    def carried_in(self, state: State) -> int:
        return state.pot_in

    def contributions(self, state: State) -> Mapping[int, int]:
        return {s: state.ante for s in state.seats}

    def score_sheet(self, states: Sequence[State]) -> ScoreSheet | None:
        """Each hand's points per seat, then the running totals and who won."""
        seats = sorted({s for st in states for s in st.seats})
        rows = tuple(
            (str(i), *(str(st.points.get(s, 0)) if s in st.seats else "-" for s in seats))
            for i, st in enumerate(states, start=1)
        )
        last = states[-1]
        totals = last.totals()
        lines = ["totals: " + ", ".join(f"seat {s} {totals[s]}" for s in last.seats)]
        if self.game_over(last):
            won = self.report(last)["winners"]
            lines.append("game over: " + (", ".join(f"seat {s}" for s in won) + " won"
                                          if won else "ended by the table"))
        else:
            lines.append(f"to {last.target} points")
        return ScoreSheet(title="Tally score sheet", columns=("hand", *map(str, seats)),
                          rows=rows, lines=tuple(lines))

    # --- from hand to hand ------------------------------------------------------------------
    def next_hand(self, state: State) -> dict[str, Any]:
        if self.game_over(state):
            return {}
        return {"totals_in": {str(s): v for s, v in state.totals().items()}}

    def next_hand_seats(self, state: State, seats: tuple[int, ...]) -> dict[str, Any]:
        """Standings are kept by seat: the seats still playing keep their totals."""
        if self.game_over(state):
            return {}
        totals = state.totals()
        kept = {str(s): totals[s] for s in seats if s in totals}
        return {"totals_in": kept} if kept else {}

    def redeal(self, state: State) -> dict[str, Any]:
        return ({"totals_in": {str(s): v for s, v in state.totals_in.items()}}
                if state.totals_in else {})

    # --- sample hands -----------------------------------------------------------------------
    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"ante", "target", "pot_in", "totals_in", "dealer",
                                       "smallest_chip"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        seats = tuple(range(1, players + 1))
        start_params: dict[str, Any] = {"dealer": given.pop("dealer", seats[-1]), "ante": 100,
                                        "target": 40, "pot_in": 0}
        start_params.update(given)
        deck = [parse_card(r + s) for r in "A23456789TJQK" for s in "shdc"] * 2
        deck += [Card.joker(), Card.joker()]
        rng.shuffle(deck)
        start = Start(game=NAME, seats=seats, params=start_params)
        state = self.start(start)
        out: list[Event] = [start]
        for seat in state.order:
            for _ in range(rng.randint(0, 3)):
                kind = rng.choice(("draw", "roll", "swap", "meld", "call"))
                ev: Event
                if kind == "draw":
                    ev = Draw(seat=seat, source=rng.choice(("stock", "pile")), card=deck.pop())
                elif kind == "roll":
                    ev = Roll(seat=seat, die="d6", value=rng.randint(1, 6))
                elif kind == "swap":
                    ev = Swap(seat=seat, up=deck.pop(), hole=deck.pop())
                else:
                    rank = rng.choice("A23456789TJQK")
                    n = rng.randint(3, 4) if kind == "meld" else rng.choice((2, 3))
                    pool = [c for c in deck if not c.is_joker and c.code[0] == rank]
                    if len(pool) < n:
                        continue
                    picked = tuple(pool[:n])
                    for c in picked:
                        deck.remove(c)
                    ev = (Meld(seat=seat, cards=picked) if kind == "meld" else
                          Call(seat=seat, cards=picked,
                               combination="pair" if n == 2 else "trips"))
                out.append(ev)
                state = self.apply(state, ev)
                if isinstance(ev, Call):
                    ruling = Ruling(decision=rng.choice(("stands", "void")), reason="checked")
                    out.append(ruling)
                    state = self.apply(state, ruling)
            out.append(Stop(seat=seat))
            state = self.apply(state, out[-1])
        if not state.over:
            out.append(Choose(choice="end" if rng.random() < 0.2 else "go on"))
        return out


GAME = Tally()
