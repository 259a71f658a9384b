"""What the dealer sees: the prompt with each legal action's cost (typed amounts with their
range in pot-limit and no-limit), the discard checklist, the showdown order, the table, the
``replay --json`` report and the replay's words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.engine import betting
from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.betting import Structure
from dealer_assist.engine.betting.options import option_actions
from dealer_assist.engine.inputs import Cards, Choice
from dealer_assist.events import BoardDealt, Discard, Event, Show
from dealer_assist.games.pineapple.events import Kill, Muck
from dealer_assist.games.pineapple.settings import BOARD_COUNTS, ROUND_NAMES
from dealer_assist.games.pineapple.settle import best_hands, best_lows, result
from dealer_assist.games.pineapple.state import BETTING, BOARD, OVER, SHOWDOWN, State
from dealer_assist.money import format_cents as money


def _betting_prompt(state: State) -> Prompt:
    opts = betting.options(state.bet)
    assert opts is not None
    typed = state.settings.rules.structure is not Structure.LIMIT
    actions = option_actions(opts, typed=typed)
    i = state.bet.index(opts.seat)
    message = (
        f"Seat {opts.seat} to act ({ROUND_NAMES[state.street]}, "
        f"{money(state.bet.stacks[i])} behind, pot {money(state.bet.pot)}): "
        + ", ".join(opts.labels)
    )
    # a fouled hand is declared dead when it is found, not only when a discard is missed
    actions.append(kill_action(opts.seat, owing=False))
    notes = (opts.note,) if opts.note else ()
    return Prompt(BETTING, opts.seat, message, tuple(actions), notes)


def kill_action(seat: int, *, owing: bool) -> Action:
    """Declaring seat ``seat``'s hand dead: the dealer picks or types why, and the reason box
    (with Record or Cancel) is the confirmation, since only Undo takes a dead hand back."""
    if owing:
        return Action("kill", f"Kill seat {seat} (no discard)", seat, None, "x",
                      input=Choice("reason", ("missed discard",), free=True))
    return Action("kill", f"Kill seat {seat} (dead, chips stay in)", seat, None, "x",
                  input=Choice("reason", ("fouled hand", "exposed hand"), free=True))


def _board_prompt(state: State) -> Prompt:
    nxt = state.street + 1
    count = BOARD_COUNTS[nxt]
    owing = state.owing()
    actions: list[Action] = []
    for seat in owing:
        actions.append(Action("discard", f"Seat {seat} discards", seat, None, "d",
                              input=Cards(1, 1, unseen=True)))
    for seat in state.live:  # a seat still in may be killed, owing a discard or not
        actions.append(kill_action(seat, owing=seat in owing))
    reason = ""
    if owing:
        reason = "still to discard: " + seats_words(owing)
    name = ROUND_NAMES[nxt]
    actions.append(Action("board", f"Deal the {name}", None, None, "b",
                          enabled=not owing, reason=reason,
                          input=Cards(count, count)))
    if owing:
        d = state.settings.discard_after
        message = (f"Discards after the {ROUND_NAMES[d]} betting: {seats_words(owing)} "
                   f"still to discard one card face down, before the {name}")
    else:
        message = f"Burn one and deal the {name}: {count} card{'s' if count > 1 else ''} " \
                  f"(pot {money(state.bet.pot)})"
    return Prompt(BOARD, None, message, tuple(actions), checklist(state))


def seats_words(seats: Sequence[int]) -> str:
    """"seat 2", or "seats 1, 2, 9": nine seats owing read in one line, not three."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats)


def checklist(state: State) -> tuple[str, ...]:
    """The discard checklist: every player still in, discarded or still owing."""
    d = state.settings.discard_after
    if state.street < d or (state.street == d and state.phase == BETTING):
        return ()
    if state.street > d + 1 or state.phase in (SHOWDOWN, OVER):
        return ()
    held = dict(state.held)
    return tuple(
        f"seat {s}: {'discarded' if held[s] == 2 else 'owes a discard'}" for s in state.live
    )


def _showdown_prompt(state: State) -> Prompt:
    seat = state.to_show()
    assert seat is not None
    must = state.must_show(seat)
    actions = [Action("show", f"Seat {seat} shows", seat, None, "s", input=Cards(2, 2))]
    actions.append(Action("muck", f"Seat {seat} mucks", seat, None, "m", enabled=not must,
                          reason=f"seat {seat} must show" if must else ""))
    order = ", ".join(str(s) for s in state.order if s in state.live)
    message = (f"Showdown (pot {money(state.bet.pot)}): seat {seat} "
               + ("must show" if must else "shows or mucks")
               + f"; order {order} (last to bet or raise first, then clockwise)")
    return Prompt(SHOWDOWN, seat, message, tuple(actions),
                  ("any five of the two hole cards and the board play",))


def prompt(state: State) -> Prompt:
    if state.phase == BETTING:
        return _betting_prompt(state)
    if state.phase == BOARD:
        return _board_prompt(state)
    if state.phase == SHOWDOWN:
        return _showdown_prompt(state)
    r = result(state)
    pushed = "; ".join(f"seat {s} {money(c)}" for s, c in sorted(r.payout.payouts.items()) if c)
    fee = sum(line.amount for line in r.fees)
    after = f" (after {money(fee)} in fees)" if fee else ""
    return Prompt(OVER, None, f"Hand over: push {pushed or 'nothing'}{after}", (), (), True)


def view(state: State, *, reveal: bool = False) -> TableView:
    bet = state.bet
    shown = state.shown_cards()
    held = dict(state.held)
    discards = dict(state.discards)
    owing = set(state.owing())
    seats = []
    for i, s in enumerate(bet.seats):
        out = bet.folded[i]
        cards = shown.get(s, ())
        if s in owing:
            status = "owes a discard"
        elif s in dict(state.killed):
            status = "dead"
        elif s in state.mucked:
            status = "mucked"
        elif out:
            status = "folded"
        elif bet.to_act == i or state.to_show() == s:
            status = "to act"
        elif bet.stacks[i] == 0:
            status = "all-in"
        else:
            status = "shown" if cards else ""
        seats.append(SeatView(
            seat=s,
            cards=tuple(c.code for c in cards),
            hidden=0 if cards or out else held[s],
            status=status,
            detail=f"{money(bet.in_round[i])} this round, {money(bet.put_in[i])} this hand",
            put_in=bet.put_in[i] - bet.returned[i],
            stack=bet.stacks[i],
            note="discarded " + " ".join(c.code for c in discards[s]) if s in discards else "",
            face_down=out,
            to_act=bet.to_act == i or state.to_show() == s,
        ))
    found = betting.pots(bet)
    pots = tuple((("Main pot" if k == 0 else f"Side pot {k}"), p.amount)
                 for k, p in enumerate(found))
    info = (state.settings.title, *checklist(state))
    return TableView(
        game="pineapple", seats=tuple(seats),
        to_act=bet.seat_to_act if state.phase == BETTING else state.to_show(),
        button=state.settings.button, board=tuple(c.code for c in state.board), pots=pots,
        info=info,
    )


def _act_json(a: betting.Act) -> dict[str, Any]:
    return {"seat": a.seat, "type": "all-in" if a.all_in and a.kind != "fold" else a.kind,
            "amount": a.amount, "to": a.to, "round": ROUND_NAMES[min(a.round, 3)]}


def report(state: State) -> dict[str, Any]:
    """The game's part of ``replay --json``."""
    cfg = state.settings
    bet = state.bet
    out: dict[str, Any] = {
        "variant": cfg.variant,
        "structure": cfg.rules.structure.value,
        "button": cfg.button,
        "board": [c.code for c in state.board],
        "actions": [_act_json(a) for a in bet.log
                    if not (a.kind == "kill" and a.seat in state.mucked)],
        "put_in": {str(s): bet.put_in[i] for i, s in enumerate(bet.seats)},
        "discards": {str(s): [c.code for c in cards] for s, cards in state.discards},
        "cards_held": {str(s): h for s, h in state.held},
        "killed": {str(s): why for s, why in state.killed},
        "mucked": sorted(state.mucked),
        "carry": 0,
    }
    if state.phase != OVER:
        out["pots"] = [{"amount": p.amount, "eligible": list(p.eligible), "winners": []}
                       for p in betting.pots(bet)]
        out["returned"] = {str(s): bet.returned[i] for i, s in enumerate(bet.seats)}
        return out
    r = result(state)
    pots = []
    for k, a in enumerate(r.payout.pots):
        pot: dict[str, Any] = {"amount": a.amount, "eligible": list(a.eligible),
                               "winners": list(a.winners), "fee": a.fee,
                               "shares": {str(s): c for s, c in a.shares.items()}}
        if cfg.hi_lo:
            pot["high_winners"] = list(r.high[k])
            pot["low_winners"] = list(r.low[k])
        pots.append(pot)
    out["pots"] = pots
    out["returned"] = {str(s): c for s, c in r.payout.returned.items()}
    out["payouts"] = {str(s): c for s, c in r.payout.payouts.items() if c}
    out["fees"] = [{"kind": f.kind, "amount": f.amount, "from": f.from_seat}
                   for f in state.pre_fees + r.fees]
    out["best_hands"] = {
        str(s): {"cards": [c.code for c in v.cards], "category": v.category,
                 "description": v.description}
        for s, v in best_hands(state).items()
    }
    if cfg.hi_lo:
        out["best_lows"] = {
            str(s): (None if v is None else {"cards": [c.code for c in v.cards]})
            for s, v in best_lows(state).items()
        }
    return out


def narrate(before: State, event: Event, after: State) -> list[str]:
    """Lines a dealer reads for one step."""
    lines: list[str] = []
    if isinstance(event, Discard):
        what = " ".join(c.code for c in event.cards) + " face up" if event.cards else \
            "one card face down"
        lines.append(f"Seat {event.seat} discards {what}")
    elif isinstance(event, BoardDealt):
        lines.append(f"Burn, then the {ROUND_NAMES[after.street]}: "
                     + " ".join(c.code for c in event.cards))
    elif isinstance(event, Show):
        text = f"Seat {event.seat} shows " + " ".join(c.code for c in event.cards)
        hand = best_hands(after).get(event.seat)
        if hand is not None:
            text += f": {hand.description}"
        low = best_lows(after).get(event.seat)
        if after.settings.hi_lo:
            text += f"; low {low.description}" if low is not None else "; no low"
        lines.append(text)
    elif isinstance(event, Muck):
        lines.append(f"Seat {event.seat} mucks")
    elif isinstance(event, Kill):
        lines.append(f"The dealer kills seat {event.seat}'s hand"
                     + (f": {event.reason}" if event.reason else "")
                     + "; it gives up every pot another player still in contests "
                       "(ruling pineapple-4)")
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
