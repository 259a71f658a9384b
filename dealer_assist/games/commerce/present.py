"""What the dealer and the replay see of a Commerce hand: the prompt (the blind exchange, the
exchanges, the knock, the last turns, the shows), the table, the report of ``replay --json``
and the narration."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import BoardDealt, Event, Show
from dealer_assist.games.ante_pot import shares
from dealer_assist.games.commerce.events import Exchange, Knock, Stand
from dealer_assist.games.commerce.rank import rank_hand
from dealer_assist.games.commerce.state import HAND, NAME, State, best, cards_text, three_used
from dealer_assist.money import format_cents


def prompt(state: State) -> Prompt:
    """Whose turn, the legal actions with their inputs, and the instructions for the dealer."""
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
    board = f"board {cards_text(state.board)}"
    if state.knocker is not None:
        left = ", ".join(map(str, state.last))
        return Prompt("last", seat,
                      f"Seat {state.knocker} knocked: seat {seat}'s last turn, exchange or "
                      f"stand ({board}; last turns: {left})",
                      (exchange, Action("stand", f"Seat {seat} stands", seat, key="s")),
                      three_used(state, seat))
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
        *three_used(state, seat)))


def view(state: State) -> TableView:
    """The table as the dealer's screen draws it."""
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
            ("took " + cards_text(took) if took else "")))
    info = []
    if state.blind:
        info.append(f"the dealer (seat {state.table.dealer}) exchanged blind")
    if state.knocker is not None:
        info.append(f"seat {state.knocker} knocked")
    return TableView(game=NAME, seats=tuple(seats), to_act=state.to_act,
                     button=state.table.dealer, board=tuple(c.code for c in state.board),
                     pots=(("pot", state.table.pot),), info=tuple(info))


def secret_seats(state: State) -> frozenset[int]:
    """None: every card an event names was face up on the table (the board's cards, those
    given to it, the hands shown)."""
    return frozenset()


def report(state: State) -> dict[str, Any]:
    """The hand for ``replay --json``."""
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


def narrate(before: State, event: Event, after: State) -> list[str] | None:
    """The replay's words for one event (None: the engine's plain words)."""
    if isinstance(event, BoardDealt):
        return [f"board {cards_text(tuple(event.cards))}"]
    if isinstance(event, Exchange):
        how = "(the dealer) exchanges blind" if event.blind else "exchanges"
        return [f"seat {event.seat} {how}: takes {cards_text(event.take)}, gives "
                f"{cards_text(event.give)} (board {cards_text(after.board)})"]
    if isinstance(event, Knock):
        return [f"seat {event.seat} knocks; last turns: {', '.join(map(str, after.last))}"]
    if isinstance(event, Stand):
        return [f"seat {event.seat} stands"]
    if isinstance(event, Show):
        lines = [f"seat {event.seat} shows {cards_text(tuple(event.cards))}: "
                 f"{rank_hand(event.cards).description}"]
        if after.over:
            winners, hands = best(after)
            paid = shares(after.table, winners)
            lines.append("; ".join(f"seat {s} wins {format_cents(paid[s])} with "
                                   f"{hands[s].description}" for s in winners))
        return lines
    return None
