"""Paiute (rulings Paiute 1-2).

Each seat antes and is dealt five cards the app never sees. The card turned up (``wild``)
names the wild rank and stays out of play; the ``upcard`` starts the discard pile. From the
dealer's left a turn draws from the stock (unseen) or takes the top of the discard pile, then
discards one card face up; the card just taken from the pile cannot go straight back. A seat
calls by showing its hand as a combination: five cards after its discard, or six straight
after its draw when the sixth card is part of the combination; a paiute only on the seat's
first turn. After the first call every seat after the caller, through the dealer, has one last
turn (draw, discard, then call or pass) and may call only with a combination that beats or ties
the best call so far. If the dealer calls first, the dealer wins at once. The best call takes
the pot; tied best calls split it (the odd chips from the dealer's left).

The app keeps the discard pile exactly, counts the stock, and knows which seat holds each card
taken from the pile: a discard or a call must not name a card known to be elsewhere, and a call
must show every card its seat took from the pile and kept.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.cards import RANK_PLURALS, Card
from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Prompt,
    SeatView,
    Setting,
    TableView,
)
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.inputs import Cards, Choice
from dealer_assist.engine.seats import after
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Reshuffle, Vocabulary
from dealer_assist.games.ante_pot import AnteGame, AnteTable, seat_in_hand, shares
from dealer_assist.games.paiute.combos import (
    COMBINATIONS,
    FIVE,
    SIX,
    SIZE,
    Value,
    best_of,
    describe,
    strength,
    value_as,
)
from dealer_assist.games.paiute.events import EVENTS, Call, Discard, Draw, Pass, Upcard, Wild
from dealer_assist.money import format_cents

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

NAME = "paiute"
HAND = 5
PLAYERS = (2, 5)
DECK = 52
#: Where a turn is: the seat has yet to draw, has drawn (six cards), or has discarded.
DRAW, DRAWN, DISCARDED = "draw", "drawn", "discarded"
SOURCES = ("stock", "discard")


def _text(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)


def _refuse(text: str, n: int | str) -> RuleViolation:
    return RuleViolation(text, rule=f"Paiute {n}" if isinstance(n, int) else n)


@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    cards: tuple[Card, ...]
    combination: str
    value: Value

    @property
    def strength(self) -> Value:
        return strength(self.combination, self.value)

    @property
    def description(self) -> str:
        return describe(self.combination, self.value)


@dataclass(frozen=True, slots=True)
class State:
    table: AnteTable
    wild: Card | None = None
    #: The discard pile, its top card last.
    pile: tuple[Card, ...] = ()
    started: bool = False
    #: Cards left in the stock.
    stock: int = 0
    #: The turn's place in the turn order (before the first call), and where the turn is.
    turn: int = 0
    stage: str = DRAW
    #: The card the seat to play just took from the discard pile (it cannot go straight back).
    taken: Card | None = None
    #: Cards taken from the discard pile and not discarded: the seat known to hold each.
    where: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Turns each seat has finished (a paiute is called only on the first).
    done: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    calls: tuple[CallMade, ...] = ()
    #: After the first call: the seats still to take their last turn, in order.
    last: tuple[int, ...] = ()
    over: bool = False

    @property
    def wild_rank(self) -> int:
        return self.wild.rank if self.wild is not None else 0

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        if self.calls:
            return self.last[0]
        order = self.table.order
        return order[self.turn % len(order)]

    @property
    def next_seat(self) -> int:
        order = self.table.order
        return order[(self.turn + 1) % len(order)]

    @property
    def drawer(self) -> int | None:
        """The seat that draws next, if a draw may come now."""
        if self.over or not self.started:
            return None
        if self.stage == DRAW:
            return self.seat
        if self.stage == DISCARDED and not self.calls:
            return self.next_seat
        return None

    @property
    def to_act(self) -> int | None:
        if self.over or not self.started:
            return None
        return self.drawer or self.seat

    def known(self, seat: int) -> tuple[Card, ...]:
        return tuple(c for c, s in self.where.items() if s == seat)

    def first_turn(self, seat: int) -> bool:
        return not self.done.get(seat, 0)

    def best(self) -> CallMade | None:
        return max(self.calls, key=lambda c: c.strength) if self.calls else None

    def winners(self) -> list[int]:
        top = self.best()
        if top is None:
            return []
        won = {c.seat for c in self.calls if c.strength == top.strength}
        return [s for s in self.table.order if s in won]

    def holding(self, seat: int) -> int:
        """How many cards ``seat`` holds now (face down, or shown in its call)."""
        if self.started and not self.over and seat == self.seat and self.stage == DRAWN:
            return HAND + 1
        return HAND


class Paiute(AnteGame[State]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Paiute"
    players: ClassVar[tuple[int, int]] = PLAYERS
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (Setting("ante", "ante", "money"),)
    ante_key: ClassVar[str] = "ante"
    ante_what: ClassVar[str] = "each seat's ante"
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 5, "smallest_chip": 100, "stakes": "$1 ante",
                  "params": {"ante": 100}},
        players=(2, 5), sample={"ante": 100},
    )

    # --- start, check, transition -----------------------------------------------------------

    def new_hand(self, table: AnteTable) -> State:
        return State(table=table)

    def check(self, state: State, event: Event) -> None:
        if state.over:
            raise _refuse("the hand is over: settle it", "input")
        if isinstance(event, Wild):
            if event.card.is_joker:
                raise _refuse("Paiute is played without jokers: turn up the wild card as dealt",
                              "cards")
            if state.wild is not None:
                raise _refuse(f"the wild card is already turned ({state.wild.code})", 1)
            return
        if state.wild is None:
            raise _refuse("turn up the wild card first: it names the wild rank", 1)
        if isinstance(event, Upcard):
            if state.started:
                raise _refuse("the upcard is already turned: the discard pile is started", 1)
            if event.card == state.wild:
                raise _refuse(f"{event.card.code} is the wild card, under the stock", 1)
            return
        if not state.started:
            raise _refuse("turn up the card that starts the discard pile first", 1)
        if isinstance(event, Reshuffle):
            self._check_reshuffle(state)
            return
        if not isinstance(event, (Draw, Discard, Call, Pass)):
            raise _refuse(f'"{event.TYPE}" is not an input in Paiute: record a draw, a '
                          "discard, a call or a pass", "input")
        seat = seat_in_hand(state.table, event)
        if isinstance(event, Draw):
            self._check_draw(state, event)
        elif isinstance(event, Discard):
            self._check_turn(state, seat, DRAWN, "discards after its draw")
            self._check_discard(state, event)
        elif isinstance(event, Call):
            self._check_call(state, event)
        else:
            if not state.calls:
                raise _refuse("a pass ends a last turn, after a call: before one, the next "
                              "seat simply draws", 2)
            self._check_turn(state, seat, DISCARDED, "passes after its discard")

    def _check_turn(self, state: State, seat: int, stage: str, what: str) -> None:
        if seat != state.seat:
            raise _refuse(f"it is seat {state.seat}'s turn, not seat {seat}'s", 1)
        if state.stage != stage:
            now = {DRAW: "has not drawn yet", DRAWN: "has drawn: it discards (or calls six "
                   "cards)", DISCARDED: "has discarded"}[state.stage]
            raise _refuse(f"seat {seat} {what}, and it {now}", 1)

    def _check_reshuffle(self, state: State) -> None:
        if state.stock:
            raise _refuse(f"the stock still has {state.stock} cards: reshuffle only when it "
                          "runs out", 1)
        if len(state.pile) < 2:
            raise _refuse("the discard pile has only its top card: nothing to reshuffle", 1)
        if state.drawer is None:
            raise _refuse("reshuffle between turns, before a draw", 1)

    def _check_draw(self, state: State, event: Draw) -> None:
        drawer = state.drawer
        if drawer is None:
            self._check_turn(state, event.seat, DRAW, "draws")
        if event.seat != drawer:
            raise _refuse(f"seat {drawer} draws next, not seat {event.seat}", 1)
        if event.source not in SOURCES:
            raise _refuse(f'a card is drawn from the "stock" or the "discard" pile, not '
                          f'"{event.source}"', 1)
        if event.source == "stock" and not state.stock:
            raise _refuse("the stock is empty: reshuffle the discard pile under its top card "
                          "first", 1)
        if event.source == "discard" and not state.pile:
            raise _refuse("the discard pile is empty", 1)

    def _elsewhere(self, state: State, seat: int, card: Card) -> str | None:
        """Where ``card`` is known to be, if not possibly in ``seat``'s hand."""
        if card == state.wild:
            return "is the wild card, under the stock"
        if card in state.pile:
            return "is in the discard pile"
        holder = state.where.get(card)
        if holder is not None and holder != seat:
            return f"was taken from the discard pile by seat {holder}"
        for call in state.calls:
            if card in call.cards:
                return f"is in seat {call.seat}'s call"
        return None

    def _check_discard(self, state: State, event: Discard) -> None:
        card = event.card
        if card == state.taken:
            raise _refuse(f"{card.code} was just taken from the discard pile: it cannot go "
                          "straight back (the top of the pile must change)", 1)
        where = self._elsewhere(state, event.seat, card)
        if where is not None:
            raise _refuse(f"{card.code} {where}: seat {event.seat} cannot discard it", 1)
        known = state.known(event.seat)
        if card not in known and len(known) >= HAND + 1:
            raise _refuse(f"seat {event.seat} holds {_text(known)}: it discards one of "
                          "them", 1)

    def _check_call(self, state: State, event: Call) -> None:
        seat = event.seat
        if seat != state.seat or state.stage == DRAW:
            raise _refuse(f"seat {seat} calls on its own turn, after its draw (it is seat "
                          f"{state.seat}'s turn" + (", before its draw)" if state.stage == DRAW
                                                    else ")"), 2)
        combination = event.combination
        if combination not in COMBINATIONS:
            raise _refuse(f'"{combination}" is not a combination: '
                          + ", ".join(COMBINATIONS), 2)
        cards = tuple(event.cards)
        size = SIZE[combination]
        if state.stage == DRAWN and size == 5:
            raise _refuse(f"{combination} is five cards: seat {seat} discards its sixth card "
                          "first, then calls", 2)
        if state.stage == DISCARDED and size == 6:
            raise _refuse(f"{combination} is six cards: it is called straight after the draw, "
                          "before the discard", 2)
        if len(cards) != size or len(set(cards)) != size:
            raise _refuse(f"{combination} is {size} different cards, not {len(cards)}", 2)
        if combination == "paiute" and not state.first_turn(seat):
            raise _refuse("a paiute is called only on the caller's first turn, and seat "
                          f"{seat} has had one", 2)
        for card in cards:
            where = self._elsewhere(state, seat, card)
            if where is not None:
                raise _refuse(f"{card.code} {where}: it is not in seat {seat}'s hand", 1)
        missing = [c for c in state.known(seat) if c not in cards]
        if missing:
            raise _refuse(f"seat {seat} took {_text(tuple(missing))} from the discard pile "
                          "and kept it: its call must show it", 1)
        value = value_as(cards, combination, state.wild_rank)
        if value is None:
            made = best_of(cards, state.wild_rank)
            hint = (f" (they make {describe(*made)}: call that)" if made is not None else
                    " (they make no combination)")
            wild = RANK_PLURALS[state.wild_rank]
            raise _refuse(f"{_text(cards)} is not {combination} with {wild} wild{hint}", 2)
        made = best_of(cards, state.wild_rank)
        if made is not None and strength(*made) > strength(combination, value):
            # the cards speak: a call is paid as the best combination they make, so a worse
            # reading (three/three where a wild card makes four/two) is not the dealer's pick
            wild = RANK_PLURALS[state.wild_rank]
            raise _refuse(f"{_text(cards)} make {describe(*made)} with {wild} wild, better than "
                          f"{describe(combination, value)}: call {made[0]}", 2)
        top = state.best()
        if top is not None and strength(combination, value) < top.strength:
            raise _refuse(f"{describe(combination, value)} does not beat or tie seat "
                          f"{top.seat}'s {top.description}: seat {seat} passes", 2)

    def transition(self, state: State, event: Event) -> State:
        if isinstance(event, Wild):
            return replace(state, wild=event.card)
        if isinstance(event, Upcard):
            stock = DECK - HAND * len(state.table.seats) - 2
            return replace(state, pile=(event.card,), started=True, stock=stock)
        if isinstance(event, Reshuffle):
            return replace(state, stock=len(state.pile) - 1, pile=state.pile[-1:])
        if isinstance(event, Draw):
            if state.stage == DISCARDED:  # the seat before did not call: its turn is over
                state = _turn_over(state)
                state = replace(state, turn=state.turn + 1)
            if event.source == "stock":
                return replace(state, stock=state.stock - 1, stage=DRAWN, taken=None)
            top = state.pile[-1]
            return replace(state, pile=state.pile[:-1], stage=DRAWN, taken=top,
                           where=MappingProxyType({**state.where, top: event.seat}))
        if isinstance(event, Discard):
            where = {c: s for c, s in state.where.items() if c != event.card}
            return replace(state, pile=(*state.pile, event.card), stage=DISCARDED, taken=None,
                           where=MappingProxyType(where))
        if isinstance(event, Call):
            value = value_as(event.cards, event.combination, state.wild_rank)
            assert value is not None
            made = CallMade(event.seat, tuple(event.cards), event.combination, value)
            where = {c: s for c, s in state.where.items() if s != event.seat}
            state = _turn_over(replace(state, where=MappingProxyType(where), taken=None))
            if state.calls:
                return _last_done(replace(state, calls=(*state.calls, made)))
            if event.seat == state.table.dealer:  # the dealer called first: wins at once
                return replace(state, calls=(made,), over=True)
            return replace(state, calls=(made,), stage=DRAW,
                           last=after(state.table.order, event.seat))
        if isinstance(event, Pass):
            return _last_done(_turn_over(state))
        raise _refuse(f'"{event.TYPE}" is not an input in Paiute', "input")

    # --- prompt, view, report ---------------------------------------------------------------

    def _draws(self, state: State, seat: int) -> list[Action]:
        top = state.pile[-1].code if state.pile else ""
        empty = "the stock is empty: reshuffle first"
        actions = [
            Action("draw", f"Seat {seat}: draw from the stock", seat, key="s",
                   fields={"from": "stock"}, enabled=state.stock > 0,
                   reason="" if state.stock else empty),
            Action("draw", f"Seat {seat}: take the {top}", seat, key="p",
                   fields={"from": "discard"}, enabled=bool(state.pile)),
        ]
        if not state.stock and len(state.pile) > 1:
            actions.append(Action("reshuffle", "Reshuffle the discards", key="r"))
        return actions

    def _call(self, state: State, seat: int, six: bool) -> Action:
        options = SIX if six else FIVE
        if not state.first_turn(seat):
            options = tuple(o for o in options if o != "paiute")
        n = 6 if six else 5
        label = f"Seat {seat} calls ({n} cards)"
        return Action("call", label, seat, key="c", input=Cards(n, n),
                      more=(Choice("combination", options),))

    def prompt(self, state: State) -> Prompt:
        if state.over:
            return Prompt("over", None, "The calls are settled: settle the hand", done=True)
        if state.wild is None:
            return Prompt("wild", None, "Turn up the wild card and record it", (
                Action("wild", "Wild card", key="w", input=Cards(1, 1, field="card")),))
        if not state.started:
            return Prompt("upcard", None, "Turn up the card that starts the discard pile", (
                Action("upcard", "Upcard", key="u", input=Cards(1, 1, field="card")),))
        seat = state.seat
        wild = f"{RANK_PLURALS[state.wild_rank]} wild"
        pile = f"pile {state.pile[-1].code}" if state.pile else "pile empty"
        top = state.best()
        lasts = (f"; last turns: {', '.join(map(str, state.last))}; best call seat "
                 f"{top.seat}'s {top.description}" if top is not None else "")
        facts = f"({wild}; {pile}; stock {state.stock}{lasts})"
        phase = "last" if state.calls else "turn"
        instructions = (
            "A turn: draw from the stock or take the top of the pile, then discard one card",
            "Call five cards after the discard, or six straight after the draw",
        )
        if state.stage == DRAW:
            return Prompt(phase, seat, f"Seat {seat} draws {facts}", tuple(self._draws(state,
                                                                                   seat)),
                          instructions)
        if state.stage == DRAWN:
            return Prompt(phase, seat, f"Seat {seat} discards, or calls six cards {facts}", (
                Action("discard", f"Seat {seat} discards", seat, key="d",
                       input=Cards(1, 1, field="card")),
                self._call(state, seat, six=True),
            ), instructions)
        if state.calls:
            return Prompt(phase, seat, f"Seat {seat} calls five cards or passes {facts}", (
                self._call(state, seat, six=False),
                Action("pass", f"Seat {seat} passes", seat, key="n"),
            ), instructions)
        nxt = state.next_seat
        return Prompt(phase, nxt, f"Seat {seat} may call ({seat}, then C); else seat {nxt} "
                      f"draws {facts}", (self._call(state, seat, six=False),
                                         *self._draws(state, nxt)), instructions)

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        called = {c.seat: c for c in state.calls}
        seats = []
        for s in state.table.seats:
            call = called.get(s)
            took = state.known(s)
            status = ("called" if call else "last turn" if s in state.last else "")
            seats.append(SeatView(
                seat=s, cards=tuple(c.code for c in call.cards) if call else (),
                hidden=0 if call else state.holding(s), status=status,
                to_act=s == state.to_act, put_in=state.table.ante,
                detail=call.description if call else ("took " + _text(took) if took else "")))
        info = []
        if state.wild is not None:
            info.append(f"wild: {state.wild.code} ({RANK_PLURALS[state.wild_rank]} wild)")
        if state.started:
            info.append(f"stock: {state.stock} cards; discard pile: {len(state.pile)}")
        return TableView(game=NAME, seats=tuple(seats), to_act=state.to_act,
                         button=state.table.dealer,
                         board=(state.pile[-1].code,) if state.pile else (),
                         pots=(("pot", state.table.pot),), info=tuple(info))

    def secret_seats(self, state: State) -> frozenset[int]:
        """None: every card an event names was face up on the table (the wild card, the pile,
        the calls); a draw from the stock names none."""
        return frozenset()

    def report(self, state: State) -> dict[str, Any]:
        winners = state.winners() if state.over else []
        out: dict[str, Any] = {
            "dealer": state.table.dealer, "ante": state.table.ante,
            "wild": state.wild.code if state.wild else None,
            "pile": [c.code for c in state.pile], "stock": state.stock,
            "calls": [{"seat": c.seat, "cards": [x.code for x in c.cards],
                       "combination": c.combination} for c in state.calls],
            "hands": {str(c.seat): {"cards": [x.code for x in c.cards], "rank": c.combination,
                                    "description": c.description} for c in state.calls},
            "last_turns": list(state.last),
            "winners": winners,
        }
        if state.over:
            out["payouts"] = {str(s): c for s, c in shares(state.table, winners).items()}
            out["carry"] = 0
        return out

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        if isinstance(event, Wild):
            return [f"wild card {event.card.code}: {RANK_PLURALS[event.card.rank]} are wild"]
        if isinstance(event, Upcard):
            return [f"upcard {event.card.code} starts the discard pile"]
        if isinstance(event, Reshuffle):
            return [f"the discards are reshuffled into a stock of {after.stock}"]
        if isinstance(event, Draw):
            if event.source == "stock":
                return [f"seat {event.seat} draws from the stock"]
            return [f"seat {event.seat} takes the {before.pile[-1].code} from the discard pile"]
        if isinstance(event, Discard):
            return [f"seat {event.seat} discards {event.card.code}"]
        if isinstance(event, Pass):
            return [f"seat {event.seat} passes"]
        if isinstance(event, Call):
            made = after.calls[-1]
            lines = [f"seat {event.seat} calls {event.combination}: {_text(made.cards)}, "
                     f"{made.description}"]
            if after.over:
                winners = after.winners()
                paid = shares(after.table, winners)
                if len(after.calls) == 1:
                    lines.append("the dealer called first and wins at once")
                lines.append("; ".join(f"seat {s} wins {format_cents(paid[s])}"
                                       for s in winners))
            elif not before.calls:
                lines.append("last turns: " + ", ".join(map(str, after.last)))
            return lines
        return super().narrate(before, event, after)

    # --- money ------------------------------------------------------------------------------

    def won(self, state: State) -> tuple[list[int], str]:
        winners = state.winners()
        top = state.best()
        assert top is not None
        why = ("the best call, " if len(winners) == 1 else "tied best calls, ") + top.description
        return winners, why

    def dossier(self) -> GameDossier:
        from dealer_assist.games.paiute.dossier import DOSSIER

        return DOSSIER

    def deal_sample(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any]) -> list[Event]:
        from dealer_assist.games.paiute.sample import sample_hand

        return sample_hand(self, rng, players=players, params=params)


def _turn_over(state: State) -> State:
    """The seat to play has finished its turn."""
    seat = state.seat
    return replace(state, done=MappingProxyType({**state.done, seat: state.done.get(seat, 0)
                                                 + 1}))


def _last_done(state: State) -> State:
    """A last turn is over (a call or a pass): the next, or the end of the hand."""
    rest = state.last[1:]
    return replace(state, last=rest, stage=DRAW, taken=None, over=not rest)


GAME = Paiute()
