"""What the dealer and the replay see of a Chinese Poker hand: the prompt (the naturals declared,
each set of thirteen cards), the table, the report of ``replay --json`` and the narration."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import THREE_ROW_HAND, Choice
from dealer_assist.events import Event
from dealer_assist.games.chinese_poker.events import Natural, SetHand, Surrender
from dealer_assist.games.chinese_poker.settle import outcome, row_rate
from dealer_assist.games.chinese_poker.state import (
    NAME,
    NATURAL_NAMES,
    NATURALS,
    SURRENDER_UNITS,
    ChineseState,
)
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    cards_text,
    foul_reason,
    scoring_report,
    seat_keys,
    stakes_info,
    table_report,
)

#: The keys of the dealer's inputs (another seat's: its number first, "3 R").
KEY_ROWS, KEY_NATURAL, KEY_SURRENDER = "r", "n", "s"


def prompt(state: ChineseState) -> Prompt:
    """Whose turn, the legal actions with their inputs, and the instructions for the dealer."""
    if state.over:
        return Prompt(phase="showdown", to_act=None, done=True,
                      message="Every hand is recorded: settle the hand")
    if state.showing is not None:
        s = state.showing
        return Prompt(
            phase="naturals", to_act=s,
            message=f"Seat {s} declared {NATURAL_NAMES[state.naturals[s]]}: "
                    "record its thirteen cards as shown",
            actions=(Action(kind="set", label=f"Seat {s} shows", seat=s, key=KEY_ROWS,
                            input=THREE_ROW_HAND),))
    actions: list[Action] = []
    for s in state.waiting:
        actions.append(Action(kind="set", label=f"Seat {s}'s rows", seat=s, key=KEY_ROWS,
                              input=THREE_ROW_HAND))
        if not state.revealed:
            actions.append(Action(
                kind="natural", label=f"Seat {s}: natural", seat=s, key=KEY_NATURAL,
                input=Choice("kind", tuple(NATURALS)),
                enabled=not state.surrendered,
                reason="naturals come before surrenders" if state.surrendered else ""))
            actions.append(Action(kind="surrender", label=f"Seat {s} surrenders", seat=s,
                                  key=KEY_SURRENDER,
                                  amount=SURRENDER_UNITS * sum(
                                      state.settings.stakes.between(s, o)
                                      for o in state.settings.seats if o != s)))
    waiting = ", ".join(str(s) for s in state.waiting)
    if state.revealed:
        return Prompt(phase="reveal", to_act=state.waiting[0], actions=tuple(actions),
                      message=f"Record the rows of seat{'s' if len(state.waiting) > 1 else ''}"
                              f" {waiting}")
    return Prompt(
        phase="declare", to_act=None, actions=tuple(actions),
        message="Naturals, then surrenders, before any hand is shown; then record each "
                f"hand's rows (seats {waiting})",
        instructions=("A natural is paid at once by every opponent: dragon 13 units, "
                      "others 3",
                      f"A surrender pays {SURRENDER_UNITS} units to every opponent"))


def view(state: ChineseState, *, reveal: bool = False) -> TableView:
    """The table as the dealer's screen draws it."""
    st = state.settings
    out = outcome(state) if state.over else None
    seats: list[SeatView] = []
    for s in st.seats:
        rows = state.sets.get(s)
        status, detail = "", ""
        if s in state.naturals:
            status, detail = "natural", NATURAL_NAMES[state.naturals[s]]
        elif s in state.surrendered:
            status = "surrendered"
            detail = f"pays {SURRENDER_UNITS} units to each opponent"
        elif rows is not None:
            reason = foul_reason(rows)
            if reason is not None:
                status, detail = "fouled", f"fouled: {reason}"
            else:
                bonus = {r: row_rate(rows, r) for r in ROW_NAMES}
                named = ", ".join(f"{r} {u}" for r, u in bonus.items() if u > 1)
                detail = f"bonus rows: {named}" if named else ""
        if out is not None:
            net = sum(p.points if p.a == s else -p.points
                      for p in out.pairs if s in (p.a, p.b))
            detail = (detail + "; " if detail else "") + f"net {net:+d} units"
        waiting = rows is None and s not in state.surrendered
        seats.append(SeatView(
            seat=s, status=status, detail=detail or ("set face down" if waiting else ""),
            rows=rows.as_view() if rows else (),
            face_down=waiting, hidden=HAND_SIZE if waiting else 0,
            to_act=s == state.showing))
    return TableView(game=NAME, seats=tuple(seats), button=st.button,
                     to_act=state.showing, info=stakes_info(st.stakes))


def report(state: ChineseState) -> dict[str, Any]:
    """The hand for ``replay --json``."""
    st = state.settings
    base: dict[str, Any] = {
        **table_report(st.seats, st.button, st.stakes),
        "naturals": seat_keys(dict(state.naturals)),
        "surrendered": list(state.surrendered),
        "rows": seat_keys({s: r.to_json() for s, r in state.sets.items()}),
    }
    if not state.over:
        return base
    out = outcome(state)
    base.update({
        "royalties": seat_keys({s: {r: u for r, u in rates.items() if u > 1}
                                for s, rates in out.rates.items()}),
        **scoring_report(st.seats, out.pairs, st.stakes, st.fees, out.fouled),
    })
    return base


def narrate(before: ChineseState, event: Event, after: ChineseState) -> list[str]:
    """The replay's words for one event."""
    lines: list[str] = []
    if isinstance(event, Natural):
        kind = after.naturals[event.seat]
        lines.append(f"seat {event.seat} declares {NATURAL_NAMES[kind]} "
                     f"({NATURALS[kind][1]} units from each opponent)")
    elif isinstance(event, Surrender):
        lines.append(f"seat {event.seat} surrenders ({SURRENDER_UNITS} units to each "
                     "opponent)")
    elif isinstance(event, SetHand):
        rows = after.sets[event.seat]
        text = " / ".join(cards_text(rows.row(r)) for r in ROW_NAMES)
        if event.seat in after.naturals:
            lines.append(f"seat {event.seat} shows {text}")
        else:
            reason = foul_reason(rows)
            lines.append(f"seat {event.seat} sets {text}"
                         + (f": fouled, {reason}" if reason else ""))
    else:
        lines.append(event.TYPE)
    if after.over and not before.over:
        for p in outcome(after).pairs:
            lines.append(f"seats {p.a} and {p.b}: {p.points:+d} for seat {p.a} ({p.why})")
    return lines
