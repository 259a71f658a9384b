"""What the dealer and the replay see of a Paiute hand: the prompt (draw, take, discard, call),
the table, the report of ``replay --json`` and the narration."""

from __future__ import annotations

from typing import Any

from dealer_assist.cards import RANK_PLURALS
from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Cards, Choice
from dealer_assist.events import Event, Reshuffle
from dealer_assist.games.ante_pot import shares
from dealer_assist.games.paiute.combos import FIVE, SIX
from dealer_assist.games.paiute.events import Call, Discard, Draw, Pass, Upcard, Wild
from dealer_assist.games.paiute.state import DRAW, DRAWN, NAME, State, cards_text
from dealer_assist.money import format_cents


def _draws(state: State, seat: int) -> list[Action]:
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


def _call(state: State, seat: int, six: bool) -> Action:
    options = SIX if six else FIVE
    if not state.first_turn(seat):
        options = tuple(o for o in options if o != "paiute")
    n = 6 if six else 5
    label = f"Seat {seat} calls ({n} cards)"
    return Action("call", label, seat, key="c", input=Cards(n, n),
                  more=(Choice("combination", options),))


def prompt(state: State) -> Prompt:
    """Whose turn, the legal actions with their inputs, and the instructions for the dealer."""
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
        return Prompt(phase, seat, f"Seat {seat} draws {facts}", tuple(_draws(state,
                                                                               seat)),
                      instructions)
    if state.stage == DRAWN:
        return Prompt(phase, seat, f"Seat {seat} discards, or calls six cards {facts}", (
            Action("discard", f"Seat {seat} discards", seat, key="d",
                   input=Cards(1, 1, field="card")),
            _call(state, seat, six=True),
        ), instructions)
    if state.calls:
        return Prompt(phase, seat, f"Seat {seat} calls five cards or passes {facts}", (
            _call(state, seat, six=False),
            Action("pass", f"Seat {seat} passes", seat, key="n"),
        ), instructions)
    nxt = state.next_seat
    return Prompt(phase, nxt, f"Seat {seat} may call ({seat}, then C); else seat {nxt} "
                  f"draws {facts}", (_call(state, seat, six=False),
                                     *_draws(state, nxt)), instructions)


def view(state: State) -> TableView:
    """The table as the dealer's screen draws it."""
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
            detail=call.description if call else ("took " + cards_text(took) if took else "")))
    info = []
    if state.wild is not None:
        info.append(f"wild: {state.wild.code} ({RANK_PLURALS[state.wild_rank]} wild)")
    if state.started:
        info.append(f"stock: {state.stock} cards; discard pile: {len(state.pile)}")
    return TableView(game=NAME, seats=tuple(seats), to_act=state.to_act,
                     button=state.table.dealer,
                     board=(state.pile[-1].code,) if state.pile else (),
                     pots=(("pot", state.table.pot),), info=tuple(info))


def secret_seats(state: State) -> frozenset[int]:
    """None: every card an event names was face up on the table (the wild card, the pile,
    the calls); a draw from the stock names none."""
    return frozenset()


def report(state: State) -> dict[str, Any]:
    """The hand for ``replay --json``."""
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


def narrate(before: State, event: Event, after: State) -> list[str] | None:
    """The replay's words for one event (None: the engine's plain words)."""
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
        lines = [f"seat {event.seat} calls {event.combination}: {cards_text(made.cards)}, "
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
    return None
