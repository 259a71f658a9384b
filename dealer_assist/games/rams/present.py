"""What the dealer and the replay see of a Rams hand: the prompt (the declarations, the dealer's
trump card, the tricks), the table, the report of ``replay --json``, the narration and the
pot's hands so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.engine.base import Action, Game, Prompt, ScoreSheet, SeatView, TableView
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import CardDealt, Event
from dealer_assist.games.rams.events import Pass, Play, Rams, TakeTrump, Trump, Widow
from dealer_assist.games.rams.settle import settlement
from dealer_assist.games.rams.state import NAME, RamsState
from dealer_assist.games.tricks import SUIT_WORDS, must_text, trick_line
from dealer_assist.games.tricks.table import (
    money_report,
    played_lines,
    trick_won_line,
    tricks_report,
)
from dealer_assist.money import format_cents as fmt

SAID_WORDS = {"play": "plays this hand", "pass": "passed", "widow": "took the widow",
              "rams": "declared Rams"}


def call_the_floor(state: RamsState) -> tuple[str, ...]:
    """Each revoke found, as the dealer's instruction to call the floor (the hand is settled
    as played and the floor decides), not only a small line on the felt."""
    t = state.tricks
    return tuple(f"Call the floor: {r.text()}; the hand is settled as played, the floor "
                 "decides" for r in (t.revokes if t is not None else ()))


def prompt(state: RamsState) -> Prompt:
    """Whose turn: the declarations, the dealer's trump card, the tricks."""
    if state.over:
        return Prompt("done", None, "The hand is over: settle it", done=True,
                      instructions=call_the_floor(state))
    if state.turned is None:
        return Prompt("trump", None, "Deal five each and five to the widow, then turn the "
                      "next card: its suit is trumps", (
                          Action("trump", "Turned card",
                                 input=Cards(1, 1, field="card")),))
    seat = state.to_declare
    if seat is not None:
        return _declare_prompt(state, seat)
    t = state.tricks
    assert t is not None
    who = t.to_play()
    assert who is not None
    actions = [Action("card", f"Seat {who} plays", who,
                      input=Cards(1, 1, field="card"))]
    why = state.may_take_trump()
    if why is None or (state.gave is None and state.dealer_alone_with_one
                       and not t.done and t.current is None):
        actions.append(Action("take-trump", "Dealer takes the trump card", state.dealer,
                              key="g", input=Cards(1, 1, field="give"),
                              enabled=why is None, reason=why or ""))
    msg = f"Seat {who} {must_text(t)}"
    return Prompt("tricks", who, msg, tuple(actions),
                  instructions=(*call_the_floor(state), trick_line(t)))


def _declare_prompt(state: RamsState, seat: int) -> Prompt:
    dealer = seat == state.dealer
    pass_why = ""
    if state.rams_by is not None:
        pass_why = f"seat {state.rams_by} declared Rams: everyone plays"
    elif dealer and state.dealer_alone_with_one:
        pass_why = "one other player plays: the dealer must play"
    elif not state.may_pass:
        pass_why = (f"the pot holds {state.pot // state.stake} counters: nobody may pass "
                    "with 5 or fewer")
    widow_why = (f"seat {state.widow_by} took the widow" if state.widow_by is not None
                 else "")
    rams_why = (f"seat {state.rams_by} declared Rams" if state.rams_by is not None else "")
    actions = (
        Action("play", "Play", seat, key="p"),
        Action("widow", "Take the widow", seat, key="w", enabled=not widow_why,
               reason=widow_why),
        Action("pass", "Pass", seat, key="s", enabled=not pass_why, reason=pass_why),
        Action("rams", "Rams!", seat, key="r", enabled=not rams_why, reason=rams_why),
    )
    who = "the dealer" if dealer else f"seat {seat}"
    return Prompt("declare", seat, f"Seat {seat} declares" + (" (dealer)" if dealer else ""),
                  actions, instructions=(f"{who}: play, take the widow, pass or Rams",))


def view(state: RamsState, game: Game[RamsState]) -> TableView:
    """The table: each seat's declaration, the tricks won, the pot; ``game`` says what each
    seat holds and has put in."""
    t = state.tricks
    won = t.won() if t is not None else {}
    to_act = (state.to_declare if state.to_declare is not None
              else (t.to_play() if t is not None and not state.over else None))
    seats = []
    for s in state.seats:
        said = state.said.get(s, "")
        status = SAID_WORDS.get(said, "")
        if state.rams_by is not None and said == "pass":
            status = "in (Rams)"
        cards: tuple[str, ...] = ()
        if t is not None:
            cards = tuple(c.code for x, c in t.trick().plays if x == s)
        detail = f"{won[s]} trick{'s' if won[s] != 1 else ''}" if s in won else ""
        seats.append(SeatView(
            seat=s, cards=cards, hidden=game.held(state, s), status=status, detail=detail,
            put_in=game.contributions(state).get(s, 0), to_act=s == to_act,
            note="dealer" if s == state.dealer else ""))
    info = [f"Pot {fmt(state.pot)} ({state.pot // state.stake} counters of "
            f"{fmt(state.stake)})"]
    if state.turned is not None:
        info.append(f"Trumps: {SUIT_WORDS[state.turned.suit]} (turned {state.turned.pretty}"
                    + (f", taken by the dealer for {state.gave.pretty})"
                       if state.gave else ")"))
    if t is not None:
        if not state.over:
            info.append(trick_line(t))
        for i, x in enumerate(t.done, start=1):
            info.append(f"Trick {i}: " + " ".join(c.pretty for _, c in x.plays)
                        + f", won by seat {x.winner}" + (" (revoke)" if x.revoke else ""))
        info.extend(r.text() for r in t.revokes)
    if state.redeal:
        info.append("Everyone before the dealer passed: the same dealer deals again")
    return TableView(game=NAME, seats=tuple(seats), to_act=to_act, button=state.dealer,
                     board=(state.turned.code,) if state.turned else (),
                     pots=(("pot", state.pot),), info=tuple(info))


def report(state: RamsState) -> dict[str, Any]:
    """The hand for ``replay --json``: the declarations, the tricks and the money."""
    t = state.tricks
    out: dict[str, Any] = {
        "dealer": state.dealer,
        "stake": state.stake,
        "pot": state.pot,
        "trump": state.turned.code if state.turned else None,
        "declarations": {str(s): v for s, v in state.said.items()},
        "widow": state.widow_by,
        "rams": state.rams_by,
        **tricks_report(t),
        "revoke": state.revoke,
    }
    if state.over:
        s = settlement(state)
        out.update(money_report(s))
        out["redeal"] = state.redeal
        if state.rams_by is not None:
            out["rams_won"] = not state.rams_lost
    return out


def narrate(before: RamsState, event: Event, after: RamsState) -> list[str] | None:
    """The replay's words for one event (None: the engine's plain words)."""
    if isinstance(event, Trump):
        return [f"turned {event.card.pretty}: {SUIT_WORDS[event.card.suit]} are trumps"]
    if isinstance(event, Play | Pass | Widow | Rams):
        lines = [f"seat {event.seat} {SAID_WORDS[event.TYPE]}"]
        if after.redeal:
            lines.append("everyone before the dealer passed: the same dealer deals again")
        return lines
    if isinstance(event, TakeTrump):
        return [f"the dealer (seat {event.seat}) takes the trump card, discarding "
                f"{event.give.pretty}"]
    if isinstance(event, CardDealt):
        return [*played_lines(event, before.tricks, after.tricks),
                *trick_won_line(before.tricks, after.tricks)]
    return None


def score_sheet(states: Sequence[RamsState], game: Game[RamsState]) -> ScoreSheet:
    """Each hand's net by seat and the pot left; ``game`` refunds a hand called off."""
    seats = sorted({s for st in states for s in st.seats})
    rows = []
    for i, st in enumerate(states, start=1):
        # (a hand called off as a misdeal is not over: every chip went back, the pot
        # carried on untouched)
        done = settlement(st) if st.over else game.refund(st, "misdeal")
        net = done.net()
        rows.append((f"{i}" if st.over else f"{i} (misdeal)",
                     *(fmt(net.get(s, 0)) for s in seats), fmt(done.carry_out)))
    return ScoreSheet(title="Rams: the pot's hands", columns=("hand", *map(str, seats),
                                                              "pot left"),
                      rows=tuple(rows))
