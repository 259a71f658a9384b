"""Commerce (rulings Commerce 1-3).

Each seat antes one stake and is dealt three cards the app never sees; three cards go face up in
the middle (the ``board`` line). Before the first turn the dealer may exchange one to three
cards blind with the board. From the dealer's left each turn is an exchange of one to three
cards with the board, or a knock; a three-card exchange once per seat per hand. After a knock
every other seat takes one last turn (an exchange or a stand), ending with the seat on the
knocker's right; then every seat shows its three cards, in any order, and the best hand takes
the pot (a tie splits it in the smallest chip, the odd chips from the dealer's left).

The app keeps the board exactly, and where each card taken from it went: a card given to the
board must not be on it already or known in another hand, and a hand shown must hold every
card its seat took and kept, and no card known to be elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.cards import Card
from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Prompt,
    SeatView,
    Setting,
    TableView,
)
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.inputs import Cards
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import BoardDealt, Event, Show, Vocabulary
from dealer_assist.games.ante_pot import AnteGame, AnteTable, seat_in_hand, shares
from dealer_assist.games.commerce.events import EVENTS, Exchange, Knock, Stand
from dealer_assist.games.commerce.rank import Hand, rank_hand
from dealer_assist.money import format_cents

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

NAME = "commerce"
HAND = 3
PLAYERS = (3, 10)


def _three_used(state: State, seat: int) -> tuple[str, ...]:
    """The line that says a seat has had its three-card exchange (ruling commerce-2)."""
    if seat not in state.threes:
        return ()
    blind = " (the dealer's blind one counts)" if state.blind and seat == state.table.dealer \
        else ""
    return (f"seat {seat} has made its three-card exchange this hand{blind}: one or two cards",)


def _text(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)


def _refuse(text: str, n: int | str) -> RuleViolation:
    return RuleViolation(text, rule=f"Commerce {n}" if isinstance(n, int) else n)


@dataclass(frozen=True, slots=True)
class State:
    table: AnteTable
    #: The cards face up in the middle, in the order they came.
    board: tuple[Card, ...] = ()
    #: Cards taken from the board: the seat known to hold each.
    where: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Turns taken before the knock (the seat to act is the next in turn order).
    turns: int = 0
    #: Whether the dealer made a blind exchange.
    blind: bool = False
    #: Seats that made their three-card exchange.
    threes: frozenset[int] = frozenset()
    knocker: int | None = None
    #: Seats still to take their last turn after the knock, in order.
    last: tuple[int, ...] = ()
    shown: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def dealt(self) -> bool:
        return bool(self.board)

    @property
    def showdown(self) -> bool:
        return self.knocker is not None and not self.last

    @property
    def over(self) -> bool:
        return self.showdown and len(self.shown) == len(self.table.seats)

    @property
    def to_act(self) -> int | None:
        if not self.dealt or self.over:
            return None
        if self.knocker is None:
            order = self.table.order
            return order[self.turns % len(order)]
        if self.last:
            return self.last[0]
        return next(s for s in self.table.order if s not in self.shown)

    def known(self, seat: int) -> tuple[Card, ...]:
        """The cards the app knows ``seat`` holds (taken from the board and kept)."""
        return tuple(c for c, s in self.where.items() if s == seat)


def best(state: State) -> tuple[list[int], dict[int, Hand]]:
    """The winners among the hands shown, and every shown hand ranked."""
    hands = {s: rank_hand(cards) for s, cards in state.shown.items()}
    if not hands:
        return [], hands
    top = max(h.value for h in hands.values())
    return [s for s in state.table.order if s in hands and hands[s].value == top], hands


class Commerce(AnteGame[State]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Commerce"
    players: ClassVar[tuple[int, int]] = PLAYERS
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (Setting("stake", "stake", "money"),)
    ante_key: ClassVar[str] = "stake"
    ante_what: ClassVar[str] = "one stake, the ante"
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 6, "smallest_chip": 100, "stakes": "$1 stake",
                  "params": {"stake": 100}},
        players=(3, 6), sample={"stake": 100},
    )

    # --- start, check, transition -----------------------------------------------------------

    def new_hand(self, table: AnteTable) -> State:
        return State(table=table)

    def check(self, state: State, event: Event) -> None:
        if state.over:
            raise _refuse("every hand is shown: settle the hand", "input")
        if isinstance(event, BoardDealt):
            if state.dealt:
                raise _refuse(f"the board is already out ({_text(state.board)})", 1)
            if len(event.cards) != 3 or len(set(event.cards)) != 3:
                raise _refuse("the board is three different cards face up", 1)
            return
        if not state.dealt:
            raise _refuse("record the three cards face up in the middle first", 1)
        if not isinstance(event, (Exchange, Knock, Stand, Show)):
            raise _refuse(f'"{event.TYPE}" is not an input in Commerce: record an exchange, '
                          "a knock, a stand or a show", "input")
        seat = seat_in_hand(state.table, event)
        if isinstance(event, Exchange) and event.blind:
            self._check_blind(state, event)
            self._check_exchange(state, event)
            return
        if isinstance(event, Show):
            self._check_show(state, event)
            return
        if state.showdown:
            raise _refuse(f"the last turns are over: seat {state.to_act} shows its three "
                          "cards", 2)
        if seat != state.to_act:
            raise _refuse(f"seat {state.to_act} is to play, not seat {seat}", 2)
        if isinstance(event, Knock) and state.knocker is not None:
            raise _refuse(f"seat {state.knocker} has knocked: seat {seat}'s last turn is an "
                          "exchange or a stand", 2)
        if isinstance(event, Stand) and state.knocker is None:
            raise _refuse(f"a stand is only a last turn after a knock: seat {seat} exchanges "
                          "or knocks", 2)
        if isinstance(event, Exchange):
            self._check_exchange(state, event)

    def _check_blind(self, state: State, event: Exchange) -> None:
        dealer = state.table.dealer
        if event.seat != dealer:
            raise _refuse(f"only the dealer (seat {dealer}) exchanges blind", 1)
        if state.blind:
            raise _refuse("the dealer has made the blind exchange already", 1)
        if state.turns or state.knocker is not None:
            raise _refuse("the dealer's blind exchange comes before the first turn", 1)

    def _check_exchange(self, state: State, event: Exchange) -> None:
        seat = event.seat
        n = len(event.take)
        if not 1 <= n <= 3 or len(event.give) != n:
            raise _refuse("an exchange takes one to three cards from the board and gives as "
                          f"many back (here {n} taken, {len(event.give)} given)", 2)
        if len(set(event.take)) != n or len(set(event.give)) != n:
            raise _refuse("a card is named twice in the exchange", 2)
        if n == 3 and seat in state.threes:
            raise _refuse(f"seat {seat} has made its three-card exchange this hand"
                          + (" (the dealer's blind one counts)" if state.blind
                             and seat == state.table.dealer else "")
                          + ": exchange one or two cards", 2)
        for card in event.take:
            if card not in state.board:
                raise _refuse(f"{card.code} is not on the board (it shows {_text(state.board)})",
                              2)
        unknown = 0
        for card in event.give:
            if card in state.board:
                raise _refuse(f"{card.code} is on the board: seat {seat} cannot give it", 2)
            holder = state.where.get(card)
            if holder is not None and holder != seat:
                raise _refuse(f"{card.code} was taken by seat {holder}: seat {seat} cannot "
                              "give it", 2)
            if holder is None:
                unknown += 1
        if unknown > HAND - len(state.known(seat)):
            kept = _text(state.known(seat))
            raise _refuse(f"seat {seat} holds {kept}, taken from the board: give from those",
                          2)

    def _check_show(self, state: State, event: Show) -> None:
        seat = event.seat
        if not state.showdown:
            raise _refuse("hands are shown after the knock and the last turns"
                          + (f": seat {state.to_act} is to play" if state.to_act else ""), 2)
        if seat in state.shown:
            raise _refuse(f"seat {seat}'s hand is already shown", "input")
        cards = event.cards
        if any(c.is_joker for c in cards):
            raise _refuse("Commerce is played without jokers: enter the cards shown", "cards")
        if len(cards) != HAND or len(set(cards)) != HAND:
            raise _refuse("a hand shown is three different cards", "input")
        for card in cards:
            if card in state.board:
                raise _refuse(f"{card.code} is on the board, not in seat {seat}'s hand", 2)
            holder = state.where.get(card)
            if holder is not None and holder != seat:
                raise _refuse(f"{card.code} was taken by seat {holder}, not seat {seat}", 2)
            for other, shown in state.shown.items():
                if card in shown:
                    raise _refuse(f"{card.code} is in seat {other}'s hand", 2)
        missing = [c for c in state.known(seat) if c not in cards]
        if missing:
            raise _refuse(f"seat {seat} took {_text(tuple(missing))} from the board and kept "
                          f"{'it' if len(missing) == 1 else 'them'}: its hand must show "
                          f"{'it' if len(missing) == 1 else 'them'}", 2)

    def transition(self, state: State, event: Event) -> State:
        if isinstance(event, BoardDealt):
            return replace(state, board=tuple(event.cards))
        if isinstance(event, Exchange):
            board = [c for c in state.board if c not in event.take] + list(event.give)
            where = {c: s for c, s in state.where.items() if c not in event.give}
            where.update((c, event.seat) for c in event.take)
            threes = state.threes | {event.seat} if len(event.take) == 3 else state.threes
            moved = replace(state, board=tuple(board), where=MappingProxyType(where),
                            threes=threes)
            if event.blind:
                return replace(moved, blind=True)
            return _turn_done(moved)
        if isinstance(event, Knock):
            order = from_left(state.table.seats, event.seat)
            return replace(state, knocker=event.seat, last=order[:-1])
        if isinstance(event, Stand):
            return _turn_done(state)
        if isinstance(event, Show):
            return replace(state, shown=MappingProxyType({**state.shown,
                                                          event.seat: tuple(event.cards)}))
        raise _refuse(f'"{event.TYPE}" is not an input in Commerce', "input")

    # --- prompt, view, report ---------------------------------------------------------------

    def prompt(self, state: State) -> Prompt:
        if state.over:
            return Prompt("over", None, "Every hand is shown: settle the hand", done=True)
        if not state.dealt:
            return Prompt("board", None, "Record the three cards face up in the middle", (
                Action("board", "Board", key="b", input=Cards(3, 3)),))
        seat = state.to_act
        assert seat is not None
        if state.showdown:
            waiting = [s for s in state.table.order if s not in state.shown]
            return Prompt("showdown", seat,
                          "Showdown: record each hand shown (seats "
                          + ", ".join(map(str, waiting)) + ")",
                          tuple(Action("show", f"Seat {s} shows", s, key="s",
                                       input=Cards(3, 3)) for s in waiting))
        # one to three always: a third card is refused by the rule itself, in its words
        # (the dealer's blind three counted), not as a count the box does not take
        exchange = Action("exchange", f"Seat {seat} exchanges", seat, key="e",
                          input=Cards(1, 3, field="take"), more=(Cards(1, 3, field="give"),))
        board = f"board {_text(state.board)}"
        if state.knocker is not None:
            left = ", ".join(map(str, state.last))
            return Prompt("last", seat,
                          f"Seat {state.knocker} knocked: seat {seat}'s last turn, exchange or "
                          f"stand ({board}; last turns: {left})",
                          (exchange, Action("stand", f"Seat {seat} stands", seat, key="s")),
                          _three_used(state, seat))
        actions = [exchange, Action("knock", f"Seat {seat} knocks", seat, key="k")]
        message = f"Seat {seat} exchanges or knocks ({board})"
        dealer = state.table.dealer
        if not state.turns and not state.blind:
            n = 2 if dealer in state.threes else 3
            actions.append(Action("exchange", f"Dealer {dealer}: blind exchange", dealer,
                                  key="b", fields={"blind": True},
                                  input=Cards(1, n, field="take"),
                                  more=(Cards(1, n, field="give"),)))
            message += f"; first, the dealer (seat {dealer}) may exchange blind"
        return Prompt("turn", seat, message, tuple(actions), instructions=(
            "An exchange takes one to three board cards for as many; three once a hand",
            *_three_used(state, seat)))

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        seats = []
        for s in state.table.seats:
            shown = state.shown.get(s)
            status = ("knocked" if s == state.knocker else
                      "last turn" if s in state.last else "")
            took = state.known(s)
            seats.append(SeatView(
                seat=s, cards=tuple(c.code for c in shown) if shown else (),
                hidden=0 if shown else HAND, status=status, to_act=s == state.to_act,
                put_in=state.table.ante, face_down=False,
                detail=rank_hand(shown).description if shown else
                ("took " + _text(took) if took else "")))
        info = []
        if state.blind:
            info.append(f"the dealer (seat {state.table.dealer}) exchanged blind")
        if state.knocker is not None:
            info.append(f"seat {state.knocker} knocked")
        return TableView(game=NAME, seats=tuple(seats), to_act=state.to_act,
                         button=state.table.dealer, board=tuple(c.code for c in state.board),
                         pots=(("pot", state.table.pot),), info=tuple(info))

    def secret_seats(self, state: State) -> frozenset[int]:
        """None: every card an event names was face up on the table (the board's cards, those
        given to it, the hands shown)."""
        return frozenset()

    def report(self, state: State) -> dict[str, Any]:
        winners, hands = best(state)
        out: dict[str, Any] = {
            "dealer": state.table.dealer, "stake": state.table.ante,
            "board": [c.code for c in state.board], "blind": state.blind,
            "knocker": state.knocker,
            "hands": {str(s): {"cards": [c.code for c in state.shown[s]], "rank": h.cls,
                               "description": h.description} for s, h in hands.items()},
        }
        if state.over:
            out["winners"] = winners
            out["payouts"] = {str(s): c for s, c in shares(state.table, winners).items()}
            out["carry"] = 0
        else:
            out["winners"] = []
        return out

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        if isinstance(event, BoardDealt):
            return [f"board {_text(tuple(event.cards))}"]
        if isinstance(event, Exchange):
            how = "(the dealer) exchanges blind" if event.blind else "exchanges"
            return [f"seat {event.seat} {how}: takes {_text(event.take)}, gives "
                    f"{_text(event.give)} (board {_text(after.board)})"]
        if isinstance(event, Knock):
            return [f"seat {event.seat} knocks; last turns: {', '.join(map(str, after.last))}"]
        if isinstance(event, Stand):
            return [f"seat {event.seat} stands"]
        if isinstance(event, Show):
            lines = [f"seat {event.seat} shows {_text(tuple(event.cards))}: "
                     f"{rank_hand(event.cards).description}"]
            if after.over:
                winners, hands = best(after)
                paid = shares(after.table, winners)
                lines.append("; ".join(f"seat {s} wins {format_cents(paid[s])} with "
                                       f"{hands[s].description}" for s in winners))
            return lines
        return super().narrate(before, event, after)

    # --- money ------------------------------------------------------------------------------

    def won(self, state: State) -> tuple[list[int], str]:
        winners, hands = best(state)
        why = "the best hand, " + hands[winners[0]].description
        if len(winners) > 1:
            why = "a tie, " + hands[winners[0]].description
        return winners, why

    def dossier(self) -> GameDossier:
        from dealer_assist.games.commerce.dossier import DOSSIER

        return DOSSIER

    def deal_sample(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any]) -> list[Event]:
        from dealer_assist.games.commerce.sample import sample_hand

        return sample_hand(self, rng, players=players, params=params)


def _turn_done(state: State) -> State:
    if state.knocker is None:
        return replace(state, turns=state.turns + 1)
    return replace(state, last=state.last[1:])


GAME = Commerce()
