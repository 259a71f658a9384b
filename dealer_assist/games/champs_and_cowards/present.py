"""What the dealer sees: the prompt, the table view, the replay report and the narration."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import ONE_CARD
from dealer_assist.events import CardDealt, Event, Reshuffle
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.games.champs_and_cowards.play import coward_block
from dealer_assist.games.champs_and_cowards.rules import (
    CHAMP_CHIPS,
    FIRST_STACK,
    SECOND_STACK,
    THIRD_STACK,
    ordinal,
)
from dealer_assist.games.champs_and_cowards.settle import places, settle
from dealer_assist.games.champs_and_cowards.state import (
    DEALER,
    DESTROYED,
    LIVE,
    STANDING,
    VOLUNTARILY,
    CCState,
    SeatHand,
)
from dealer_assist.money import format_cents as fmt

STATUS_TEXT = {
    LIVE: "to act",
    STANDING: "standing",
    DESTROYED: "destroyed",
    VOLUNTARILY: "voluntarily destroyed",
    DEALER: "dealer destroyed",
}
#: Keyboard keys of the dealer's buttons.
KEY_CHAMP, KEY_COWARD, KEY_RESHUFFLE = "C", "W", "R"


def points_text(n: int) -> str:
    """The points in words: 1 point, 13 points."""
    return f"{n} point" if n == 1 else f"{n} points"


def _turn_down_lines(state: CCState) -> tuple[str, ...]:
    return tuple(f"Turn seat {seat} face down: {why}" for seat, why in state.news)


def _pool_text(state: CCState) -> str:
    burns = state.shoe.burned
    known = len(state.reshuffle_pool())
    return f"shuffle the {known} cards of destroyed hands and {burns} burn cards into a new stub"


def prompt(state: CCState) -> Prompt:
    news = _turn_down_lines(state)
    if state.over:
        s = settle(state)
        head = "The cards ran out: action stopped. " if state.exhausted else "Action is over. "
        return Prompt(
            phase="over",
            to_act=None,
            message=head + "Push the stacks in this order.",
            instructions=news + tuple(f"{p.n}. {p.text}" for p in s.steps),
            done=True,
        )
    seat = state.to_act
    assert seat is not None
    if state.dealing:
        return Prompt(
            phase="deal",
            to_act=seat,
            message=f"Deal the up card to seat {seat}",
            actions=(Action(kind="card", label=f"Up card for seat {seat}", seat=seat,
                            input=ONE_CARD),),
        )
    h = state.hand(seat)
    if state.pending:
        if state.burn_owed or state.shoe.left == 0:
            then = ", burn one" if state.burn_owed else ""
            return Prompt(
                phase="reshuffle",
                to_act=seat,
                message=f"The stub is empty: {_pool_text(state)}{then}, then deal seat {seat}",
                actions=(Action(kind="reshuffle", label="Reshuffle", key=KEY_RESHUFFLE),),
                instructions=news,
            )
        return Prompt(
            phase="card",
            to_act=seat,
            message=f"Burn one card and deal seat {seat} a card face up",
            actions=(Action(kind="card", label=f"Card for seat {seat}", seat=seat,
                            input=ONE_CARD),),
            instructions=news,
        )
    cost = CHAMP_CHIPS * state.chip
    block = coward_block(state, seat)
    return Prompt(
        phase="action",
        to_act=seat,
        message=f"Seat {seat} ({points_text(h.points)}): champ for {fmt(cost)}"
        + (" or coward" if block is None else " (a coward is refused now: see below)"),
        actions=(
            Action(kind="champ", label=f"Champ {fmt(cost)}", seat=seat, amount=cost,
                   key=KEY_CHAMP),
            Action(kind="coward", label="Coward", seat=seat, key=KEY_COWARD,
                   enabled=block is None, reason=block or ""),
        ),
        instructions=news,
    )


def _seat_view(state: CCState, h: SeatHand, rank: dict[int, int], *, reveal: bool) -> SeatView:
    hidden = h.face_down and not reveal
    status = STATUS_TEXT[h.status]
    if h.status == STANDING and h.seat in rank:
        status = f"standing ({ordinal(rank[h.seat])})"
    elif h.status == LIVE and state.dealing:
        status = "up card next" if h.seat == state.to_act else ("dealt" if h.cards else "")
    elif h.status == LIVE and h.seat != state.to_act:
        status = "waiting"
    detail = "" if hidden or h.status == DESTROYED or not h.cards else points_text(h.points)
    return SeatView(
        seat=h.seat,
        cards=() if hidden else tuple(c.pretty for c in h.cards),
        hidden=len(h.cards) if hidden else 0,
        status=status,
        detail=detail,
        put_in=state.put_in(h.seat),
        note=h.reason,
        face_down=h.face_down,
        to_act=h.seat == state.to_act,
    )


def view(state: CCState, *, reveal: bool = False) -> TableView:
    rank = {seat: place for place, seat in places(state).items()}
    c, n = state.chip, state.n
    pots = (
        ("First-place stacks", FIRST_STACK * c * n),
        ("Second-place stacks", SECOND_STACK * c * n),
        ("Third-place stacks", THIRD_STACK * c * n),
        ("Bonus pool", state.bonus_pool),
    )
    info = [f"Cards left in stub: {state.shoe.left}", f"Burn cards: {state.shoe.burned}"]
    if state.shoe.reshuffles:
        info.append(f"Reshuffles: {state.shoe.reshuffles}")
    info.append(f"Chip {fmt(c)}; {state.decks} deck{'s' if state.decks > 1 else ''}")
    if state.fee is not None:
        info.append(f"House fee: {state.fee.describe()}")
    if state.order:
        info.append("Order: " + ", ".join(str(s) for s in state.order))
    return TableView(
        game="champs-and-cowards",
        seats=tuple(_seat_view(state, h, rank, reveal=reveal) for h in state.hands),
        to_act=state.to_act,
        pots=pots,
        info=tuple(info),
    )


def report(state: CCState) -> dict[str, Any]:
    """The game's part of ``replay --json``."""
    seats: dict[str, dict[str, Any]] = {}
    for h in state.hands:
        entry: dict[str, Any] = {"cards": [c.code for c in h.cards]}
        if h.status == DESTROYED:
            entry["status"] = h.status
            entry["note"] = "destroyed: its points no longer count"
            entry["reason"] = h.reason
        else:
            entry["points"] = h.points
            entry["status"] = "waiting" if h.status == LIVE else h.status
            if h.reason:
                entry["reason"] = h.reason
        entry["champs"] = h.champs
        seats[str(h.seat)] = entry
    out: dict[str, Any] = {
        "order": list(state.order),
        "seats": seats,
        "bonus_pool": state.bonus_pool,
        "cards_left": state.shoe.left,
        "burned": state.shoe.burned,
        "reshuffles": state.shoe.reshuffles,
    }
    if state.over:
        s = settle(state)
        out["places"] = {str(k): v for k, v in places(state).items()}
        out["payouts"] = {str(k): v for k, v in sorted(s.payouts.items()) if v}
        out["carry"] = s.carry_out
        out["exhausted"] = state.exhausted
    else:
        out["standing"] = [h.seat for h in state.standing()]
    return out


def narrate(before: CCState, event: Event, after: CCState) -> list[str]:
    """What the dealer reads for one step of a replay."""
    lines: list[str] = []
    if isinstance(event, CardDealt):
        h = after.hand(event.seat)
        if before.dealing:
            lines.append(f"Up card to seat {event.seat}: {event.card.code} "
                         f"({points_text(h.points)})")
            if after.order:
                first = after.order[0]
                lines.append(
                    f"Action starts at seat {first} ({after.hand(first).cards[0].code}); "
                    f"order {', '.join(str(s) for s in after.order)}"
                )
        elif h.status == DESTROYED:
            lines.append(f"Seat {event.seat} is dealt {event.card.code}")
        else:
            lines.append(f"Seat {event.seat} is dealt {event.card.code}: {points_text(h.points)}")
    elif isinstance(event, Champ):
        cost = CHAMP_CHIPS * after.chip
        burn = "the stub is empty, reshuffle" if after.burn_owed else "burn one"
        lines.append(
            f"Seat {event.seat}: champ, {fmt(cost)} into the bonus pool "
            f"(now {fmt(after.bonus_pool)}); {burn}"
        )
    elif isinstance(event, Coward):
        h = after.hand(event.seat)
        lines.append(f"Seat {event.seat}: coward, stops at {points_text(h.points)}")
    elif isinstance(event, Reshuffle):
        back = len(before.reshuffle_pool()) + before.shoe.burned
        lines.append(
            f"Reshuffle: {len(before.reshuffle_pool())} cards of destroyed hands and "
            f"{before.shoe.burned} burn cards make a new stub of {back}"
            + ("; burn one" if before.burn_owed else "")
        )
    lines.extend(_turn_down_lines(after))
    if after.exhausted and not before.exhausted:
        lines.append("No card can come even after a reshuffle: action stops; every hand still "
                     "in counts as stopped where it is")
    if after.over and not before.over:
        placed = places(after)
        if placed:
            lines.append("Places: " + ", ".join(
                f"{ordinal(p)} seat {s} ({points_text(after.hand(s).points)})"
                for p, s in placed.items()))
        else:
            lines.append("No hand stands: every stack and the bonus pool carry to the next hand")
    elif not after.dealing and after.to_act != before.to_act and not after.pending:
        lines.append(f"Seat {after.to_act} to act")
    return lines
