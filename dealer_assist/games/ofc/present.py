"""What the dealer and the replay see of an Open-Face Chinese Poker hand: the prompt (the first
five, each card after, a fantasyland hand set at once), the table, the report of
``replay --json`` and the narration."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import ONE_CARD, THREE_ROW_HAND
from dealer_assist.events import Discard, Event
from dealer_assist.games.ofc.events import Place, SetHand
from dealer_assist.games.ofc.settle import next_button, outcome
from dealer_assist.games.ofc.state import FIRST_DEAL, NAME, OfcState
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    cards_text,
    foul_reason,
    row_name,
    royalties,
    scoring_report,
    seat_keys,
    stakes_info,
    table_report,
)


def prompt(state: OfcState) -> Prompt:
    """Whose turn, the legal actions with their inputs, and the instructions for the dealer."""
    st = state.settings
    set_actions = tuple(
        Action(kind="set", label=f"Seat {s} sets fantasyland", seat=s, key="l",
               input=THREE_ROW_HAND,
               enabled=state.first_five_done,
               reason="" if state.first_five_done else
               "fantasyland sets after the others' first five cards")
        for s in state.pending_sets
    )
    if state.over:
        return Prompt(phase="showdown", to_act=None, done=True,
                      message="Every row is full: settle the hand")
    seat = state.current
    if seat is None:
        waiting = ", ".join(f"seat {s}" for s in state.pending_sets)
        return Prompt(phase="fantasyland", to_act=state.pending_sets[0],
                      message=f"Record the fantasyland set of {waiting} (all thirteen cards)",
                      actions=set_actions)
    rows = state.rows[seat]
    places, discards = state.quota()
    left_place = places - state.placed
    left_discard = discards - state.discarded
    open_rows = rows.open_rows()
    actions: list[Action] = []
    if left_place:
        actions.extend(
            Action(kind="place", label=f"{r} ({rows.space(r)} left)", seat=seat, key=r,
                   input=ONE_CARD, fields={"row": r}) for r in open_rows)
    if left_discard:
        actions.append(Action(kind="discard", label="Discard", seat=seat, key="d",
                              input=ONE_CARD))
    actions.extend(set_actions)
    phase = "first five" if state.round == 0 else f"turn {state.round + 1}"
    parts = []
    if left_place:
        what = "a card" if left_place == 1 else f"{left_place} cards"
        if state.round == 0:
            what = f"card {state.placed + 1} of {FIRST_DEAL}"
        parts.append(f"place {what} in the " + ", ".join(open_rows))
    if left_discard:
        parts.append("discard one card")
    message = f"Seat {seat}: " + " and ".join(parts)
    instructions: tuple[str, ...] = ()
    if set_actions and state.first_five_done:
        instructions = tuple(
            f"Seat {s} (fantasyland) sets thirteen cards face down" for s in state.pending_sets)
    elif st.in_fantasyland and state.round == 0:
        instructions = tuple(f"Seat {s} (fantasyland) is dealt thirteen cards after the "
                             "others' first five" for s in sorted(st.in_fantasyland))
    return Prompt(phase=phase, to_act=seat, message=message, actions=tuple(actions),
                  instructions=instructions)


def view(state: OfcState, *, reveal: bool = False) -> TableView:
    """The table as the dealer's screen draws it."""
    st = state.settings
    seats: list[SeatView] = []
    out = outcome(state) if state.over else None
    for s in st.seats:
        rows = state.rows[s]
        hidden_fl = s in st.in_fantasyland and not state.placing_done and not reveal
        status, detail = "", ""
        if s in st.in_fantasyland:
            status = "fantasyland"
        if rows.complete and not hidden_fl:
            reason = foul_reason(rows)
            if reason is not None:
                status, detail = "fouled", f"fouled: {reason}"
            else:
                roy = royalties(rows, st.table)
                named = ", ".join(f"{r} {p}" for r, p in roy.items() if p)
                detail = f"royalties {sum(roy.values())}" + (f" ({named})" if named else "")
        if out is not None:
            net = sum(p.points if p.a == s else -p.points
                      for p in out.pairs if s in (p.a, p.b))
            detail += f"; net {net:+d} units"
            if s in out.fantasyland:
                detail += "; fantasyland next hand"
        if hidden_fl:
            set_done = s in state.fantasyland_set
            seats.append(SeatView(
                seat=s, status="fantasyland", face_down=True,
                hidden=HAND_SIZE if set_done else 0,
                detail="set face down" if set_done else "waiting to set thirteen cards"))
            continue
        seats.append(SeatView(
            seat=s, status=status, detail=detail,
            to_act=s == state.current, rows=rows.as_view(),
            note=f"discarded {cards_text(state.discards.get(s, ()))}"
            if state.discards.get(s) else ""))
    info = [*stakes_info(st.stakes), f"royalties: {st.table.name} table"]
    if st.pineapple:
        info.append("Pineapple: three cards a turn, one discarded")
    return TableView(game=NAME, seats=tuple(seats), to_act=state.current,
                     button=st.button, info=tuple(info))


def report(state: OfcState) -> dict[str, Any]:
    """The hand for ``replay --json``."""
    st = state.settings
    base: dict[str, Any] = {
        **table_report(st.seats, st.button, st.stakes),
        "royalty_table": st.table.name,
        "pineapple": st.pineapple,
        "in_fantasyland": sorted(st.in_fantasyland),
        "rows": seat_keys({s: state.rows[s].to_json() for s in st.seats}),
    }
    if st.pineapple:
        base["discards"] = seat_keys({
            s: [c.code for c in state.discards.get(s, ())]
            + ["?"] * state.unseen_discards.get(s, 0) for s in st.placers})
    if not state.over:
        return base
    out = outcome(state)
    base.update({
        "royalties": seat_keys({s: out.royalty(s) for s in st.seats}),
        "royalty_rows": seat_keys(dict(out.royalty_rows)),
        **scoring_report(st.seats, out.pairs, st.stakes, st.fees, out.fouled),
        "fantasyland": list(out.fantasyland),
        "next_button": next_button(state),
    })
    return base


def narrate(before: OfcState, event: Event, after: OfcState) -> list[str]:
    """The replay's words for one event."""
    lines: list[str] = []
    if isinstance(event, Place):
        row = row_name(event.row)
        rows = after.rows[event.seat]
        lines.append(f"seat {event.seat}: {event.card.code} to the {row} "
                     f"({cards_text(rows.row(row))})")
    elif isinstance(event, Discard):
        shown = cards_text(event.cards) if event.cards else "one card face down"
        lines.append(f"seat {event.seat} discards {shown}")
    elif isinstance(event, SetHand):
        lines.append(f"seat {event.seat} sets its fantasyland hand face down")
    else:
        lines.append(event.TYPE)
    seat = event.seat_of
    if (seat is not None and not isinstance(event, SetHand)
            and after.rows[seat].complete and not before.rows[seat].complete):
        lines.append(_seat_summary(after, seat))
    if after.over and not before.over:
        for s in after.settings.in_fantasyland:
            lines.append("revealed " + _seat_summary(after, s))
        out = outcome(after)
        for p in out.pairs:
            lines.append(f"seats {p.a} and {p.b}: {p.points:+d} for seat {p.a} ({p.why})")
        if out.fantasyland:
            lines.append("fantasyland next hand: "
                         + ", ".join(f"seat {s}" for s in out.fantasyland))
    elif (before.round == 0 and after.round == 1) and after.pending_sets:
        lines.append("first five placed: fantasyland seats may set now")
    return lines


def _seat_summary(state: OfcState, seat: int) -> str:
    rows = state.rows[seat]
    text = " / ".join(cards_text(rows.row(r)) for r in ROW_NAMES)
    reason = foul_reason(rows)
    if reason is not None:
        return f"seat {seat} {text}: fouled, {reason}"
    roy = royalties(rows, state.settings.table)
    return f"seat {seat} {text}: royalties {sum(roy.values())}"
