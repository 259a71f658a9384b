"""What the dealer sees: the prompt with each legal action's cost, the passes, the
declarations, the rolls round by round and the showdown order; the table; the
``replay --json`` report and the replay's words."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine import betting
from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.betting import Structure
from dealer_assist.engine.betting.options import option_actions
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import Event, Show
from dealer_assist.games.anaconda.events import Declare, Pass, Roll
from dealer_assist.games.anaconda.settle import best_hands, best_lows, result
from dealer_assist.games.anaconda.state import (
    BETTING,
    DECLARING,
    HIGH,
    KEEP,
    LOW,
    OVER,
    PASSES,
    PASSING,
    ROLLING,
    ROLLS,
    SHOWDOWN,
    State,
    as_json,
)
from dealer_assist.money import format_cents as money


def round_name(state: State, k: int | None = None) -> str:
    """The betting round in words."""
    k = state.bet.round if k is None else k
    if k == 0:
        return "first betting round"
    if k == 1:
        return "betting after the first pass"
    if k == 2:
        return "betting after the second pass"
    if state.table.bet_each_roll:
        return f"betting after roll {k - 2}"
    return "betting with four cards up"


def _betting_prompt(state: State) -> Prompt:
    opts = betting.options(state.bet)
    assert opts is not None
    typed = state.table.rules.structure is not Structure.LIMIT
    actions = option_actions(opts, typed=typed)
    i = state.bet.index(opts.seat)
    message = (f"Seat {opts.seat} to act ({round_name(state)}, "
               f"{money(state.bet.stacks[i])} behind, pot {money(state.bet.pot)}): "
               + ", ".join(opts.labels))
    notes = (opts.note,) if opts.note else ()
    return Prompt(BETTING, opts.seat, message, tuple(actions), notes)


def prompt(state: State) -> Prompt:
    phase = state.phase
    pot = money(state.bet.pot)
    if phase == BETTING:
        return _betting_prompt(state)
    if phase == PASSING:
        which = ("First pass", "Second pass")[state.passes]
        return Prompt(
            PASSING, None,
            f"{which}: every player still in passes {PASSES[state.passes]} (pot {pot})",
            (Action("pass", "Passed", None, None, "p"),),
            ("the cards passed stay face down: the app does not see them",))
    if phase == DECLARING:
        waiting = state.to_declare()
        actions = []
        for s in waiting:
            actions.append(Action("declare", f"Seat {s} high", s, None, "h",
                                  fields={"way": HIGH}))
            actions.append(Action("declare", f"Seat {s} low", s, None, "l",
                                  fields={"way": LOW}))
        return Prompt(
            DECLARING, waiting[0],
            f"Declarations, all at once (pot {pot}): record each, high or low, in any order; "
            f"still to declare: seat {', '.join(map(str, waiting))}", tuple(actions),
            ("every declaration is recorded before anything is rolled",))
    if phase == ROLLING:
        seat = state.to_roll()
        assert seat is not None
        k = state.rolls_done() + 1
        return Prompt(
            ROLLING, seat,
            f"Seat {seat} rolls a card face up (roll {k} of {ROLLS}, pot {pot})",
            (Action("roll", f"Seat {seat} rolls", seat, None, "r",
                    input=Cards(1, 1, field="card")),),
            ("each player still in turns one card, from the button's left, round by round",))
    if phase == SHOWDOWN:
        seat = state.to_show()
        assert seat is not None
        rolled = " ".join(c.code for c in state.rolled.get(seat, ()))
        order = ", ".join(str(s) for s in state.order if s in state.live)
        return Prompt(
            SHOWDOWN, seat,
            f"Showdown (pot {pot}): seat {seat} shows its five; order {order} (the last to bet "
            "or raise first, then clockwise)",
            (Action("show", f"Seat {seat} shows", seat, None, "s",
                    input=Cards(KEEP, KEEP)),),
            (f"its five hold the four it rolled: {rolled}" if rolled else
             "its five cards",))
    r = result(state)
    pushed = "; ".join(f"seat {s} {money(c)}" for s, c in sorted(r.payout.payouts.items())
                       if c)
    left = f"; {money(r.payout.left)} stays in the pot" if r.payout.left else ""
    return Prompt(OVER, None, f"Hand over: push {pushed or 'nothing'}{left}", (), (), True)


def view(state: State, *, reveal: bool = False) -> TableView:
    bet = state.bet
    seats = []
    for i, s in enumerate(bet.seats):
        out = bet.folded[i]
        shown = state.shown.get(s)
        rolled = state.rolled.get(s, ())
        cards = shown if shown is not None else rolled
        kept = s in state.declared and state.phase != DECLARING  # five kept, the rest out
        hidden = 0 if out or shown is not None else (KEEP - len(rolled) if kept else 7)
        way = state.declared.get(s, "")
        to_act = (bet.to_act == i if state.phase == BETTING else
                  s in (state.to_roll(), state.to_show()) or
                  (state.phase == DECLARING and s in state.to_declare()[:1]))
        if out:
            status = "folded"
        elif to_act:
            status = "to act"
        elif bet.stacks[i] == 0:
            status = "all-in"
        else:
            status = way
        seats.append(SeatView(
            seat=s, cards=tuple(c.code for c in cards), hidden=hidden, status=status,
            detail=(f"{way} · " if way and status != way else "")
            + f"{money(bet.in_round[i])} this round, {money(bet.put_in[i])} this hand",
            put_in=bet.put_in[i] - bet.returned[i], stack=bet.stacks[i], face_down=out,
            to_act=to_act,
        ))
    pots = tuple((("Main pot" if k == 0 else f"Side pot {k}"), p.amount)
                 for k, p in enumerate(betting.pots(bet)))
    t = state.table
    info = [f"Anaconda ({t.structure})"
            + (f": {money(t.pot_in)} carried in" if t.pot_in else "")]
    if state.phase == OVER:
        left = result(state).payout.left
        if left:
            info.append(f"Next pot: {money(left)}")
    acting = (bet.seat_to_act if state.phase == BETTING else
              state.to_roll() or state.to_show())
    return TableView(game="anaconda", seats=tuple(seats), to_act=acting, button=t.button,
                     pots=pots, info=tuple(info))


def _act_json(state: State, a: betting.Act) -> dict[str, Any]:
    return {"seat": a.seat, "type": "all-in" if a.all_in and a.kind != "fold" else a.kind,
            "amount": a.amount, "to": a.to, "round": a.round}


def report(state: State) -> dict[str, Any]:
    """The game's part of ``replay --json``."""
    t = state.table
    bet = state.bet
    out: dict[str, Any] = {
        "structure": t.structure,
        "button": t.button,
        "pot_in": t.pot_in,
        "bet_each_roll": t.bet_each_roll,
        "passes": state.passes,
        "actions": [_act_json(state, a) for a in bet.log],
        "put_in": {str(s): bet.put_in[i] for i, s in enumerate(bet.seats)},
        "declarations": as_json(state.declared),
        "rolled": {str(s): [c.code for c in cards] for s, cards in state.rolled.items()},
        "shown": {str(s): [c.code for c in cards] for s, cards in state.shown.items()},
    }
    if state.phase != OVER:
        out["carry"] = 0
        return out
    r = result(state)
    pots = []
    for k, a in enumerate(r.payout.pots):
        pots.append({"amount": a.amount, "eligible": list(a.eligible),
                     "winners": list(a.winners), "fee": a.fee,
                     "high_winners": list(r.high[k]), "low_winners": list(r.low[k]),
                     "shares": {str(s): c for s, c in a.shares.items()}})
    out["pots"] = pots
    out["winners"] = sorted({s for a in r.payout.pots for s in a.winners})
    out["high_winners"] = sorted({s for g in r.high for s in g})
    out["low_winners"] = sorted({s for g in r.low for s in g})
    out["returned"] = {str(s): c for s, c in r.payout.returned.items() if c}
    out["payouts"] = {str(s): c for s, c in r.payout.payouts.items() if c}
    out["carry"] = r.payout.left
    out["fees"] = [{"kind": f.kind, "amount": f.amount, "from": f.from_seat}
                   for f in state.pre_fees + r.fees]
    out["best_hands"] = {
        str(s): {"cards": [c.code for c in v.cards], "category": v.category,
                 "description": v.description}
        for s, v in best_hands(state).items()
    }
    out["best_lows"] = {str(s): {"cards": [c.code for c in v.cards],
                                 "description": v.description}
                        for s, v in best_lows(state).items()}
    return out


def narrate(before: State, event: Event, after: State) -> list[str]:
    lines: list[str] = []
    if isinstance(event, Pass):
        lines.append(f"Every player still in passes {PASSES[before.passes]}")
    elif isinstance(event, Declare):
        lines.append(f"Seat {event.seat} declares {event.way}")
    elif isinstance(event, Roll):
        lines.append(f"Seat {event.seat} rolls {event.card.code}")
    elif isinstance(event, Show):
        text = f"Seat {event.seat} shows " + " ".join(c.code for c in event.cards)
        way = after.declared.get(event.seat)
        if way == HIGH:
            text += f": {best_hands(after)[event.seat].description}"
        elif way == LOW:
            text += f": {best_lows(after)[event.seat].description}"
        lines.append(text)
    elif len(after.bet.log) > len(before.bet.log):
        a = after.bet.log[-1]
        allin = " (all-in)" if a.all_in else ""
        if a.kind in ("check", "fold"):
            lines.append(f"Seat {a.seat} {a.kind}s")
        elif a.kind == "call":
            lines.append(f"Seat {a.seat} calls {money(a.amount)}{allin}")
        else:
            lines.append(f"Seat {a.seat} {a.kind}s to {money(a.to)}{allin}")
    else:
        lines.append(event.TYPE)
    if after.phase != before.phase or after.phase == OVER:
        lines.append("  " + prompt(after).message)
    return lines
