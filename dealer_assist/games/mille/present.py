"""What the dealer and the replay see of a Mille hand: the prompt, the table, the report of
``replay --json``, the narration and the score sheet of the game so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.engine.base import Action, Prompt, ScoreSheet, SeatView, TableView
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import Event, Reshuffle
from dealer_assist.games.mille.events import Discard, Draw, Left, Meld, Out, Upcard
from dealer_assist.games.mille.rules import (
    RANK_WORDS,
    TARGET,
    WILD,
    codes,
    meld_rank,
)
from dealer_assist.games.mille.settle import settlement_of
from dealer_assist.games.mille.state import DRAW, TAKE, UPCARD, MilleState
from dealer_assist.money import format_cents

#: The most cards a meld line may name (eight of a rank and eight 2s).
MELD_MOST = 16
#: The most cards a player may be left holding (a hand with the pile taken late).
LEFT_MOST = 104 - 3
KEY_MELD, KEY_LEFT, KEY_OUT = "m", "l", "o"
KEY_UPCARD, KEY_STOCK, KEY_PILE, KEY_DISCARD, KEY_RESHUFFLE = "u", "s", "p", "d", "r"


def meld_input() -> Cards:
    return Cards(3, MELD_MOST, repeats=True)


def prompt(state: MilleState) -> Prompt:
    st = state.settings
    if state.over:
        return Prompt("done", None, "Both players' cards are on the sheet: settle the hand",
                      done=True)
    if st.turns:
        return _turn_prompt(state)
    actions: list[Action] = []
    for s in st.seats:
        if state.closed(s):
            if s == state.out and s not in state.left:
                actions.append(Action("left", f"Seat {s}: no cards left", s, key=KEY_LEFT,
                                      fields={"cards": ()}))
            continue
        actions.append(Action("meld", f"Seat {s} melds", s, key=KEY_MELD, input=meld_input()))
        actions.append(Action("left", f"Seat {s}'s cards left", s, key=KEY_LEFT,
                              input=Cards(0, LEFT_MOST, repeats=True)))
    for s in st.seats:
        why = ""
        if state.out is not None:
            why = f"seat {state.out} went out"
        elif state.left.get(s):
            why = "not while it holds cards"
        elif not state.melds.get(s):
            why = "not before it melds"
        if state.out is None:
            actions.append(Action("out", f"Seat {s} went out", s, key=KEY_OUT, enabled=not why,
                                  reason=why))
    waiting = [s for s in st.seats if not state.closed(s)]
    if state.out is None:
        message = "Record each player's melds, the cards left in hand, and who went out"
    else:
        message = (f"Seat {state.out} went out: record seat {st.other(state.out)}'s melds and "
                   "the cards it holds")
    return Prompt("sheet", waiting[0] if len(waiting) == 1 else None, message, tuple(actions),
                  instructions=(
                      "A meld: three or more cards of one rank, 2s wild, or three or more 2s; "
                      "the same card may be typed twice (two decks)",))


def _turn_prompt(state: MilleState) -> Prompt:
    st = state.settings
    if state.phase == UPCARD:
        return Prompt("upcard", None, "Turn the upcard: it starts the discard pile", (
            Action("upcard", "Upcard", key=KEY_UPCARD, input=Cards(1, 1, field="card",
                                                                   repeats=True)),))
    if state.out is not None:
        other = st.other(state.out)
        n = state.held.get(other, 0)
        return Prompt("left", other, f"Seat {state.out} went out: type the {n} cards seat "
                      f"{other} holds", (
                          Action("left", f"Seat {other}'s cards left", other, key=KEY_LEFT,
                                 input=Cards(n, n, repeats=True)),))
    seat = state.turn
    assert seat is not None
    if state.phase == DRAW:
        top = state.pile[-1] if state.pile else None
        pile_why = ("the pile is empty" if top is None else
                    f"{top.pretty} is a 2: the pile is taken only with natural cards"
                    if top.rank == WILD else "")
        return Prompt("draw", seat, f"Seat {seat} draws: the stock ({state.stock} left) or the "
                      "pile", (
                          Action("draw", "From the stock", seat, key=KEY_STOCK,
                                 fields={"from": "stock"}, enabled=state.stock > 0,
                                 reason="the stock is empty: rebuild it"),
                          Action("draw", "Take the pile", seat, key=KEY_PILE,
                                 fields={"from": "pile"}, enabled=not pile_why,
                                 reason=pile_why),
                          Action("reshuffle", "Rebuild the stock", key=KEY_RESHUFFLE,
                                 enabled=state.stock == 0 and len(state.pile) > 1,
                                 reason="only when the stock is empty"),
                      ))
    if state.phase == TAKE:
        top = state.pile[-1]
        return Prompt("take", seat, f"Seat {seat} took the pile: meld {top.pretty} with two or "
                      f"more natural {RANK_WORDS[top.rank]}", (
                          Action("meld", "Meld the top card", seat, key=KEY_MELD,
                                 input=meld_input()),))
    n = state.held.get(seat, 0)
    return Prompt("play", seat, f"Seat {seat} ({n} cards): meld, or discard to end the turn", (
        Action("meld", "Meld", seat, key=KEY_MELD, input=meld_input()),
        Action("discard", "Discard", seat, key=KEY_DISCARD,
               input=Cards(1, 1, field="card", repeats=True)),
    ))


def marks(state: MilleState, seat: int) -> str:
    """A hand score as the sheet writes it: an asterisk per natural, a chapeau in brackets."""
    sc = state.score(seat)
    text = f"{sc.score}" + "*" * sc.naturals
    return f"({text})" if sc.chapeau else text


def view(state: MilleState, game: str) -> TableView:
    st = state.settings
    seats: list[SeatView] = []
    totals = state.totals()
    for s in st.seats:
        sc = state.score(s)
        rows = tuple((RANK_WORDS[r] + (" (natural)" if r in sc.eights else ""), tuple(
            c.code for c in cards)) for r, cards in sorted(state.melds.get(s, {}).items()))
        if s in state.left:
            rows = (*rows, ("left", tuple(c.code for c in state.left[s])))
        status = ("went out" if s == state.out else
                  "chapeau" if state.over and sc.chapeau else "")
        detail = f"melded {sc.melded}"
        if s in state.left:
            detail += f", left {sc.left}, hand {marks(state, s)}"
        if sc.no_twos:
            detail += "; no 2s melded (natural)"
        detail += f"; total {totals[s]}"
        held = state.held.get(s, 0) if st.turns and not state.closed(s) else 0
        seats.append(SeatView(seat=s, status=status, detail=detail, rows=rows, hidden=held,
                              to_act=s == state.turn and st.turns and not state.over))
    small, large = st.stakes
    info = [f"Stakes {format_cents(small)}-{format_cents(large)}, game to {TARGET:,}",
            "Totals: " + ", ".join(f"seat {s} {v}" for s, v in totals.items())]
    if st.turns and state.phase != UPCARD:
        info.append(f"Stock {state.stock}, pile {len(state.pile)}")
    winner = state.winner
    if winner is not None:
        pay = settlement_of(state)
        assert pay is not None
        info.append(f"Game over: seat {pay.payer} pays seat {winner} "
                    f"{format_cents(pay.total)}")
    elif state.over and max(totals.values()) >= TARGET:
        info.append("Totals equal past 1,200: the game goes on")
    return TableView(game=game, seats=tuple(seats), to_act=state.turn if st.turns else None,
                     button=st.dealer, board=(state.pile[-1].code,) if state.pile else (),
                     info=tuple(info))


def report(state: MilleState) -> dict[str, Any]:
    st = state.settings

    def per_seat(m: dict[int, Any]) -> dict[str, Any]:
        return {str(s): m[s] for s in st.seats}

    naturals, chapeaux = state.naturals(), state.chapeaux()
    out: dict[str, Any] = {
        "seats": list(st.seats), "dealer": st.dealer, "stakes": list(st.stakes),
        "melds": {str(s): {RANK_WORDS[r]: [c.code for c in cards]
                           for r, cards in sorted(state.melds.get(s, {}).items())}
                  for s in st.seats},
        "left": {str(s): [c.code for c in cards] for s, cards in state.left.items()},
        "out": state.out,
        "hand_scores": per_seat(state.hand_scores()) if state.over else {},
        "totals": per_seat(state.totals()),
        "naturals": {str(s): {"hand": state.score(s).naturals if state.over else 0,
                              "game": naturals[s]} for s in st.seats},
        "chapeaux": {str(s): {"hand": int(state.over and state.score(s).chapeau),
                              "game": chapeaux[s]} for s in st.seats},
        "game_over": state.winner is not None,
        "winner": state.winner,
    }
    pay = settlement_of(state)
    if pay is not None:
        out["settlement"] = pay.to_json()
        out["payouts"] = {str(pay.payee): pay.total}
    return out


def narrate(before: MilleState, event: Event, after: MilleState) -> list[str]:
    lines: list[str] = []
    if isinstance(event, Meld):
        rank = meld_rank(event.cards)
        lines.append(f"seat {event.seat} melds {codes(event.cards)} ({RANK_WORDS[rank]})")
    elif isinstance(event, Left):
        lines.append(f"seat {event.seat} holds {codes(event.cards) or 'no cards'}")
    elif isinstance(event, Out):
        lines.append(f"seat {event.seat} went out")
    elif isinstance(event, Upcard):
        lines.append(f"upcard {event.card.code}")
    elif isinstance(event, Draw):
        lines.append(f"seat {event.seat} draws from the {event.source}")
    elif isinstance(event, Discard):
        lines.append(f"seat {event.seat} discards {event.card.code}")
    elif isinstance(event, Reshuffle):
        lines.append(f"the stock is rebuilt from the pile ({after.stock} cards)")
    else:
        lines.append(event.TYPE)
    if isinstance(event, (Meld, Discard)) and after.out is not None and before.out is None:
        lines.append(f"seat {after.out} went out")
    if after.over and not before.over:
        scores = ", ".join(f"seat {s} {marks(after, s)}" for s in after.settings.seats)
        lines.append(f"hand: {scores}; totals " + ", ".join(
            f"seat {s} {v}" for s, v in after.totals().items()))
        pay = settlement_of(after)
        if pay is not None:
            lines.append(f"game over: seat {pay.payer} pays seat {pay.payee} "
                         f"{format_cents(pay.total)}")
    return lines


def score_sheet(states: Sequence[MilleState]) -> ScoreSheet | None:
    """A row per hand: each seat's hand score (an asterisk per natural, a chapeau in
    brackets) and the running totals; then the naturals and chapeaux so far and the result."""
    if not states:
        return None
    last = states[-1]
    seats = last.settings.seats
    rows: list[tuple[str, ...]] = []
    for i, st in enumerate(states, start=1):
        if not st.over:
            rows.append((str(i), *("misdeal" for _ in seats), *("" for _ in seats)))
            continue
        totals = st.totals()
        rows.append((str(i), *(marks(st, s) if s in st.settings.seats else "-" for s in seats),
                     *(str(totals.get(s, "")) for s in seats)))
    naturals, chapeaux = last.naturals(), last.chapeaux()
    lines = ["naturals: " + ", ".join(f"seat {s} {naturals[s]}" for s in seats),
             "chapeaux: " + ", ".join(f"seat {s} {chapeaux[s]}" for s in seats)]
    pay = settlement_of(last)
    if pay is not None:
        lines.append(f"game over: seat {pay.payee} wins; seat {pay.payer} pays "
                     f"{format_cents(pay.total)}" + (f" ({pay.why})" if pay.why else ""))
    else:
        lines.append(f"game to {TARGET:,}")
    return ScoreSheet(title="Mille score sheet",
                      columns=("hand", *(f"seat {s}" for s in seats),
                               *(f"total {s}" for s in seats)),
                      rows=tuple(rows), lines=tuple(lines))
