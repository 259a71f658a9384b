"""What the dealer sees: the prompt with every wager's cost per number of cards kept, the table,
the replay report and the narration of each step."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Option, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Cards
from dealer_assist.errors import RuleViolation
from dealer_assist.events import BoardDealt, Discard, Event, Show
from dealer_assist.games.caro_holdem.betting import Cost, cost, owed
from dealer_assist.games.caro_holdem.play import FORCED
from dealer_assist.games.caro_holdem.settings import BOARD_COUNTS, ROUND_NAMES
from dealer_assist.games.caro_holdem.showdown import (
    best_hands,
    current_pots,
    final_pots,
    settle_pots,
    uncalled,
)
from dealer_assist.games.caro_holdem.state import (
    BETTING,
    BOARD,
    OVER,
    SHOWDOWN,
    SeatState,
    State,
    evolve_state,
)
from dealer_assist.money import format_cents as money

TITLE = "Caro Hold 'em"
LABELS = {"check": "Check", "bet": "Bet", "call": "Call", "raise": "Raise", "fold": "Fold"}


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def wager_options(state: State, seat: SeatState, kind: str) -> list[tuple[int, Cost]]:
    """Each number of cards the player could keep (1..held) with what ``kind`` would cost.

    Keeping fewer cards than held means discarding just before the wager. An action is enabled
    when it is possible with the cards held now; its options show the price after a discard.
    """
    out: list[tuple[int, Cost]] = []
    for keep in range(1, seat.held + 1):
        trial = state if keep == seat.held else evolve_state(state, discarding=seat.seat)
        try:
            out.append((keep, cost(trial, seat, kind, keep)))
        except RuleViolation:
            continue
    return out


def _option_label(kind: str, keep: int, c: Cost, seat: SeatState) -> str:
    allin = " all-in" if c.all_in else ""
    if kind == "call":
        return f"keep {keep}: call {money(c.amount)}{allin}"
    word = "bet" if kind == "bet" else "raise to"
    return f"keep {keep}: {word} {money(c.total(seat))}{allin}"


def _betting_prompt(state: State) -> Prompt:
    assert state.to_act is not None
    seat = state.seat(state.to_act)
    due = owed(state, seat)
    actions: list[Action] = []
    lines: dict[int, list[str]] = {}
    discarded = state.discarding == seat.seat
    for kind in ("check", "bet", "call", "raise"):
        if kind == "check":
            reason = ""
            try:
                cost(state, seat, "check")
            except RuleViolation as exc:
                reason = exc.message
            if discarded:
                reason = "a discard is followed by a bet, call or raise"
            actions.append(Action("check", "Check", seat.seat, 0, "k", enabled=not reason,
                                  reason=reason))
            continue
        opts = wager_options(state, seat, kind)
        if discarded:
            opts = [(k, c) for k, c in opts if k == seat.held]
        options = tuple(
            Option(_option_label(kind, k, c, seat), keep=k, amount=c.amount) for k, c in opts
        )
        for k, c in opts:
            lines.setdefault(k, []).append(_option_label(kind, k, c, seat).split(": ", 1)[1])
        now = next((c for k, c in opts if k == seat.held), None)
        reason = ""
        if now is None:
            try:
                cost(state, seat, kind)
            except RuleViolation as exc:
                reason = exc.message
            if opts:
                fewer = ", ".join(_option_label(kind, k, c, seat) for k, c in opts)
                reason = f"discard first ({fewer})"
        label = LABELS[kind]
        if now is not None:
            to = " to" if kind == "raise" else ""
            label += f"{to} {money(now.amount if kind == 'call' else now.total(seat))}"
        actions.append(
            Action(kind, label, seat.seat, now.amount if now is not None else None, kind[0],
                   enabled=now is not None, reason=reason, options=options)
        )
    can_discard = seat.held > 1 and not (state.level == 0 and state.limit > seat.stack)
    actions.append(
        Action("discard", "Discard", seat.seat, None, "d", enabled=can_discard,
               reason="" if can_discard else "no discard possible now",
               input=Cards(1, max(seat.held - 1, 1), unseen=True,
                           keep_notes=tuple((k, tuple(texts)) for k, texts in
                                            sorted(lines.items(), reverse=True))))
    )
    actions.append(
        Action("fold", "Fold", seat.seat, 0, "f", enabled=not discarded,
               reason="a discard is followed by a bet, call or raise" if discarded else "")
    )
    owes = f"owes {money(due)} to call" if state.level else "nothing bet yet"
    message = (
        f"Seat {seat.seat} to act: holds {_cards(seat.held)}, {owes} "
        f"({state.round_name}, level {state.level}, {money(state.limit)} a card)"
    )
    instructions = tuple(
        f"keep {k}: " + ", ".join(texts) for k, texts in sorted(lines.items(), reverse=True)
    )
    return Prompt(BETTING, seat.seat, message, tuple(actions), instructions)


def prompt(state: State) -> Prompt:
    if state.phase == BETTING:
        return _betting_prompt(state)
    pot = f"pot {money(state.pot_total)}"
    if state.phase == BOARD:
        nxt = state.street + 1
        count = BOARD_COUNTS[nxt]
        message = f"Burn one and deal the {ROUND_NAMES[nxt]}: {_cards(count)} ({pot})"
        action = Action("board", f"Deal the {ROUND_NAMES[nxt]}", None, None, "b",
                        input=Cards(count, count))
        return Prompt(BOARD, None, message, (action,))
    if state.phase == SHOWDOWN:
        waiting = [s for s in state.live() if s.shown is None]
        actions: list[Action] = []
        for s in waiting:
            actions.append(Action("show", f"Seat {s.seat} shows", s.seat, None, "s",
                                  input=Cards(s.held, s.held)))
        for s in waiting:
            actions.append(Action("fold", f"Seat {s.seat} mucks", s.seat, 0, "m"))
        first = waiting[0]
        message = (
            f"Showdown ({pot}): seat {first.seat} shows {_cards(first.held)}; "
            "the best five use at most two of a player's cards"
        )
        return Prompt(SHOWDOWN, first.seat, message, tuple(actions))
    results, _ = settle_pots(state)
    # the amounts the dealer pushes (after the rake and drops), as the push steps say them
    won = "; ".join(
        f"{r.name} {money(r.amount - r.fee)} to seat{'s' if len(r.winners) > 1 else ''} "
        + ", ".join(map(str, r.winners))
        for r in results if r.amount - r.fee
    )
    fees = sum(r.fee for r in results)
    after = f" (after {money(fees)} in fees)" if fees else ""
    return Prompt(OVER, None, f"Hand over: push {won or 'nothing'}{after}", (), (), True)


def _status(state: State, s: SeatState) -> str:
    if s.folded:
        return "folded"
    if s.all_in:
        return "all-in"
    if state.to_act == s.seat:
        return "to act"
    if s.shown is not None:
        return "shown"
    return ""


def view(state: State, *, reveal: bool = False) -> TableView:
    seats = []
    for s in state.seats:
        shown = s.shown if s.shown is not None and (reveal or not s.folded) else ()
        detail = f"{money(s.round_in)} this round, {money(s.hand_in)} this hand"
        if s.unseen_discards:
            detail += f"; {s.unseen_discards} discarded unseen"
        seats.append(
            SeatView(
                seat=s.seat,
                cards=tuple(c.code for c in (s.discards + tuple(shown))),
                hidden=0 if shown else (0 if s.folded else s.held),
                status=_status(state, s),
                detail=detail,
                put_in=s.hand_in,
                stack=s.stack,
                note="discards face up" if s.discards else "",
                face_down=s.folded,
                to_act=state.to_act == s.seat,
                rows=(("discards", tuple(c.code for c in s.discards)),
                      ("shown", tuple(c.code for c in shown))),
            )
        )
    pots = tuple(
        (("Main pot" if i == 0 else f"Side pot {i}"), p.amount)
        for i, p in enumerate(current_pots(state) if state.phase != OVER
                              else [p for p, _ in final_pots(state)[0]])
    )
    back = uncalled(state) if state.phase == OVER else None
    if back is not None:  # at the end the pots are as settled: uncalled chips are apart
        pots += ((f"Uncalled, back to seat {back.seat}", back.amount),)
    info = (
        f"{ROUND_NAMES[state.street]}: level {state.level}, {money(state.limit)} a card",
        f"cap {state.settings.cap}" + (
            " (lifted heads-up)" if state.settings.heads_up_uncapped else ""
        ),
    )
    return TableView(
        game="caro-holdem",
        seats=tuple(seats),
        to_act=state.to_act,
        button=state.settings.button,
        board=tuple(c.code for c in state.board),
        pots=pots,
        info=info,
    )


def report(state: State) -> dict[str, Any]:
    """The game's part of ``replay --json``."""
    out: dict[str, Any] = {
        "button": state.settings.button,
        "board": [c.code for c in state.board],
        "forced_bets": [w.to_json() for w in state.actions if w.kind in FORCED],
        "actions": [w.to_json() for w in state.actions if w.kind not in FORCED],
        "discards": {
            str(s.seat): [c.code for c in s.discards] for s in state.seats if s.discards
        },
        "cards_held": {str(s.seat): s.held for s in state.seats},
        "put_in": {str(s.seat): s.hand_in for s in state.seats},
    }
    if state.phase != OVER:
        out["pots"] = [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": []}
            for p in current_pots(state)
        ]
        return out
    results, post = settle_pots(state)
    out["pots"] = [
        {"amount": r.amount, "eligible": list(r.eligible), "winners": list(r.winners),
         "fee": r.fee, "shares": {str(k): v for k, v in r.shares.items()}}
        for r in results
    ]
    payouts: dict[int, int] = {}
    for r in results:
        for seat, amount in r.shares.items():
            payouts[seat] = payouts.get(seat, 0) + amount
    out["payouts"] = {str(k): v for k, v in sorted(payouts.items()) if v}
    out["rake"] = sum(line.amount for line in post)
    out["best_hands"] = {
        str(seat): {
            "cards": [c.code for c in v.cards],
            "category": v.category,
            "description": v.description,
        }
        for seat, v in best_hands(state).items()
    }
    return out


def _pots_text(state: State) -> str:
    pots = current_pots(state)
    if len(pots) == 1:
        return f"pot {money(pots[0].amount)}"
    return "; ".join(
        f"{'main pot' if i == 0 else f'side pot {i}'} {money(p.amount)} (seats "
        + ", ".join(map(str, p.eligible)) + ")"
        for i, p in enumerate(pots)
    )


def narrate(before: State, event: Event, after: State) -> list[str]:
    """Lines a dealer reads for one step: who did what, for how much, and what comes next."""
    lines: list[str] = []
    if isinstance(event, Discard):
        s = after.seat(event.seat)
        what = " ".join(c.code for c in event.cards) + " face up" if event.cards else (
            f"{_cards(event.n)} unseen"
        )
        lines.append(f"Seat {event.seat} discards {what}: keeps {_cards(s.held)}")
    elif isinstance(event, BoardDealt):
        name = ROUND_NAMES[after.street]
        lines.append(f"Burn, then the {name}: " + " ".join(c.code for c in event.cards))
        lines.append(f"Board: {' '.join(c.code for c in after.board)}; "
                     f"pot {money(after.pot_total)}")
    elif isinstance(event, Show):
        text = f"Seat {event.seat} shows " + " ".join(c.code for c in event.cards)
        hands = best_hands(after)
        if event.seat in hands:
            v = hands[event.seat]
            text += f": {v.description} ({' '.join(c.code for c in v.cards)})"
        lines.append(text)
    elif after.actions and len(after.actions) > len(before.actions):
        w = after.actions[-1]
        r = ROUND_NAMES[w.street]
        total = after.seat(w.seat).round_in
        if w.kind == "check":
            lines.append(f"Seat {w.seat} checks holding {_cards(w.cards_held)} ({r})")
        elif w.kind == "fold":
            lines.append(f"Seat {w.seat} folds" + (" (mucks)" if before.phase == SHOWDOWN
                                                   else f" ({r}, level {w.level})"))
        else:
            verb = {"bet": "bets", "call": "calls", "raise": f"raises to level {w.level}:"}[
                w.kind
            ]
            allin = ", all-in" if w.all_in else ""
            lines.append(
                f"Seat {w.seat} {verb} {money(w.amount)} holding {_cards(w.cards_held)} "
                f"({r}, level {w.level}, {money(total)} in this round{allin})"
            )
    else:
        lines.append(f"{event.TYPE}")
    if before.phase == BETTING and after.phase != BETTING:
        lines.append(
            f"{ROUND_NAMES[before.street].capitalize()} betting over; {_pots_text(after)}"
        )
    if after.phase == OVER and before.phase != OVER:
        live = after.live()
        if len(live) == 1:
            lines.append(f"Seat {live[0].seat} wins uncontested: no show needed")
        else:
            lines.append(prompt(after).message)
    elif after.phase == BETTING and after.to_act is not None and (
        before.to_act != after.to_act or before.phase != BETTING
    ):
        s = after.seat(after.to_act)
        due = f"owes {money(owed(after, s))}" if after.level else "nothing bet"
        lines.append(f"  next: seat {s.seat} ({_cards(s.held)}, {due})")
    return lines
