"""What the dealer sees: the prompt (the pot and what a loss would cost before each
declaration), the table, the ``replay --json`` report and the replay's words."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import Event, Show
from dealer_assist.games.guts.events import In, Out
from dealer_assist.games.guts.settle import describe, outcome, strength, winners
from dealer_assist.games.guts.state import (
    BARRED,
    DECLARING,
    IN_TURN,
    OVER,
    SHOWDOWN,
    State,
    as_json,
)
from dealer_assist.money import format_cents as money


def stake_line(state: State, seat: int) -> str:
    """What a seat risks by declaring in: the pot, what a loss would cost, what it has."""
    owed = state.owed
    have = state.behind[seat]
    text = f"seat {seat}: {money(have)} behind, a loss costs {money(owed)}"
    if state.barred(seat):
        text += " (cannot cover it: barred from declaring in)"
    elif have < owed:
        text += f" (cannot cover it: would pay {money(have)}, all it has)"
    return text


def _declare_actions(state: State, seat: int) -> tuple[Action, ...]:
    barred = state.barred(seat)
    why = (f"a loss would cost {money(state.owed)} and seat {seat} has "
           f"{money(state.behind[seat])}: barred from declaring in (table setting)"
           if barred else "")
    return (
        Action("in", f"Seat {seat} in", seat, None, "i", enabled=not barred, reason=why),
        Action("out", f"Seat {seat} out", seat, None, "o"),
    )


def prompt(state: State) -> Prompt:
    phase = state.phase
    pot = money(state.pot)
    if phase == DECLARING:
        waiting = state.to_declare
        if state.table.declare == IN_TURN:
            seat = waiting[0]
            return Prompt(
                DECLARING, seat,
                f"Seat {seat} declares in or out (pot {pot}; a loss costs "
                f"{money(state.owed)}, seat {seat} has {money(state.behind[seat])} behind)",
                _declare_actions(state, seat),
                (stake_line(state, seat),))
        actions = tuple(a for s in waiting for a in _declare_actions(state, s))
        return Prompt(
            DECLARING, waiting[0],
            f"Declarations all at once (pot {pot}; a loss costs {money(state.owed)}): record "
            f"each, in any order; still to declare: seat {', '.join(map(str, waiting))}",
            actions, tuple(stake_line(state, s) for s in waiting))
    if phase == SHOWDOWN:
        left = state.to_show
        actions = tuple(Action("show", f"Seat {s} shows", s, None, "s", input=Cards(2, 2))
                        for s in left)
        return Prompt(
            SHOWDOWN, left[0],
            f"Showdown (pot {pot}): every player in shows, in any order; still to show: seat "
            f"{', '.join(map(str, left))}", actions,
            ("pairs beat unpaired hands; then the higher card, then the lower; aces high; "
             "suits never count",))
    o = outcome(state)
    pushed = "; ".join(f"seat {s} {money(c)}" for s, c in sorted(o.payouts.items()) if c)
    return Prompt(OVER, None,
                  f"Hand over: push {pushed or 'nothing'}; next pot {money(o.carry)}", (), (),
                  True)


def _status(state: State, seat: int) -> str:
    said = state.declared.get(seat)
    if said is None:
        if state.table.declare == IN_TURN and state.to_declare[:1] == (seat,):
            return "to act"
        return "to declare"
    if not said:
        return "out"
    if state.phase == OVER and len(state.ins) >= 2:
        return "won" if seat in winners(state) else "lost"
    return "shown" if seat in state.shown else "in"


def view(state: State, *, reveal: bool = False) -> TableView:
    t = state.table
    seats = []
    over = state.phase == OVER
    pays = outcome(state).pays if over else {}
    for s in t.seats:
        cards = state.shown.get(s, ())
        out = state.declared.get(s) is False
        to_act = (state.phase == DECLARING and t.declare == IN_TURN
                  and state.to_declare[:1] == (s,))
        detail = f"ante {money(state.antes[s])}" if state.antes.get(s) else ""
        if cards:
            detail = describe(cards)
        note = f"pays {money(pays[s])} into the next pot" if s in pays else ""
        seats.append(SeatView(
            seat=s, cards=tuple(c.code for c in cards), hidden=0 if cards else 2,
            status=_status(state, s), detail=detail,
            put_in=state.antes.get(s, 0) + pays.get(s, 0),
            stack=state.behind[s] - pays.get(s, 0), note=note, face_down=out,
            to_act=to_act,
        ))
    info = [f"Guts: pot {money(state.pot)}"
            + (" carried in" if t.pot_in else " from the antes")
            + f"; a loss costs {money(state.owed)}"
            + (f" (the maximum {money(t.max)})" if t.max is not None and t.max < state.pot
               else ""),
            "declare " + ("in turn from the dealer's left" if t.declare == IN_TURN
                          else "all at once")
            + ("; a player who cannot cover the pot may not declare in"
               if t.short == BARRED else "")]
    if over:
        info.append(f"Next pot: {money(outcome(state).carry)}")
    return TableView(game="guts", seats=tuple(seats),
                     to_act=state.to_declare[0] if state.phase == DECLARING and
                     t.declare == IN_TURN else None,
                     button=t.button, pots=(("Pot", state.pot),), info=tuple(info))


def report(state: State) -> dict[str, Any]:
    """The game's part of ``replay --json``."""
    t = state.table
    out: dict[str, Any] = {
        "button": t.button,
        "declare": t.declare,
        "short": t.short,
        "max": t.max,
        "pot_in": t.pot_in,
        "antes": as_json(state.antes),
        "pot": state.pot,
        "owed": state.owed,
        "declarations": {str(s): ("in" if v else "out") for s, v in state.declared.items()},
        "shown": {str(s): [c.code for c in cards] for s, cards in state.shown.items()},
        "hands": {str(s): describe(cards) for s, cards in state.shown.items()},
    }
    if state.phase != OVER:
        out["carry"] = 0
        return out
    o = outcome(state)
    out["winners"] = list(o.winners)
    out["payouts"] = {str(s): c for s, c in sorted(o.payouts.items()) if c}
    out["pays"] = as_json(o.pays)
    out["could_not_cover"] = as_json(o.short)
    out["left"] = o.left
    out["carry"] = o.carry
    out["fees"] = [{"kind": f.kind, "amount": f.amount, "from": f.from_seat}
                   for f in state.pre_fees + o.fees]
    return out


def narrate(before: State, event: Event, after: State) -> list[str]:
    lines: list[str] = []
    if isinstance(event, In):
        lines.append(f"Seat {event.seat} is in (pot {money(before.pot)}; a loss costs "
                     f"{money(before.owed)})")
    elif isinstance(event, Out):
        lines.append(f"Seat {event.seat} is out")
    elif isinstance(event, Show):
        cards = tuple(event.cards)
        lines.append(f"Seat {event.seat} shows {' '.join(c.code for c in cards)}: "
                     f"{describe(cards)}")
    else:
        lines.append(event.TYPE)
    if after.phase != before.phase:
        lines.append("  " + prompt(after).message)
    return lines


__all__ = ["narrate", "prompt", "report", "strength", "view"]
