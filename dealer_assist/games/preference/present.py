"""What the dealer and the replay see of a Preference hand: the prompt (the ante, the bidding,
the talon, trumps, the defenders, the tricks), the table, the report of ``replay --json``, the
narration and the score sheet of the game so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.engine.base import Action, Game, Prompt, ScoreSheet, SeatView, TableView
from dealer_assist.engine.inputs import Amount, Cards, Choice
from dealer_assist.events import CardDealt, Discard, Event, Show
from dealer_assist.games.preference.events import Ante, Bid, Defend, End, NameTrump, NoAces, Talon
from dealer_assist.games.preference.play import no_aces_refusal
from dealer_assist.games.preference.settle import settlement
from dealer_assist.games.preference.state import NAME, NUMBERS, SUIT_RANK, PrefState
from dealer_assist.games.tricks import SUIT_WORDS, must_text, trick_line
from dealer_assist.games.tricks.table import (
    money_report,
    played_lines,
    trick_won_line,
    tricks_report,
)
from dealer_assist.money import format_cents as fmt


def contract(state: PrefState) -> str:
    """The contract's name ("Two", "Game", "Hearts"); empty before the auction ends."""
    kind = state.kind
    if kind is None:
        return ""
    if kind == "numeric":
        return NUMBERS[state.level() - 1].capitalize()
    return kind.capitalize()


def prompt(state: PrefState) -> Prompt:
    """Whose turn, the legal actions and the auction so far."""
    if state.over:
        return Prompt("done", None, "The hand is over: settle it", done=True)
    if state.needs_ante:
        low = state.pot // state.stake
        return Prompt("ante", None, f"The pot holds {low} stakes, under ten: ante or end the "
                      "game", (
                          Action("ante", "Ante (stakes each)", key="a",
                                 input=Amount("stakes", 10, 1000, step=10, money=False)),
                          _end_action(state),
                      ))
    who = state.to_bid()
    if who is not None:
        allowed = state.allowed_bids(who)
        # (before the first bid the players may still end the game: ruling pref-7)
        end = () if state.bids or state.ante else (_end_action(state),)
        return Prompt("bidding", who, f"Seat {who} bids", (
            Action("bid", "Bid", who, key="b", input=Choice("bid", allowed),
                   enabled=bool(allowed), reason="only pass is left"),
            Action("bid", "Pass", who, key="p", fields={"bid": "pass"}),
            *end,
        ), instructions=(auction_line(state),))
    kind = state.kind
    d = state.declarer
    if kind == "numeric" and not state.talon:
        return Prompt("talon", state.numeric_by(), "Type the two talon cards",
                      (Action("talon", "Talon", input=Cards(2, 2)),))
    if kind == "numeric" and len(state.discard) < 2:
        nb = state.numeric_by()
        return Prompt("discard", nb, f"Seat {nb} discards two", (
            Action("discard", f"Seat {nb} discards", nb, input=Cards(2, 2)),))
    namer = state.naming()
    if namer is not None:
        suits = tuple(s for s in "scdh" if kind != "numeric"
                      or SUIT_RANK[s] >= state.level())
        return Prompt("trumps", namer, f"Seat {namer} names trumps", (
            Action("trump", "Trumps", namer, key="t", input=Choice("suit", suits)),),
            instructions=("suits: s spades 1, c clubs 2, d diamonds 3, h hearts 4",))
    assert d is not None and state.tricks is not None
    extra = _declarer_actions(state, d)
    defender = state.to_defend()
    if defender is not None:
        return Prompt("defend", defender, f"Seat {defender} plays or drops", (
            Action("defend", "Play", defender, key="p", fields={"choice": "play"}),
            Action("defend", "Drop", defender, key="d", fields={"choice": "drop"}),
            *extra))
    t = state.tricks
    nxt = t.to_play()
    assert nxt is not None
    actions = [Action("card", f"Seat {nxt} plays", nxt, input=Cards(1, 1, field="card"))]
    host = state.may_invite()
    if host is not None:
        actions.append(Action("defend", "Invite", host, key="i",
                              fields={"choice": "invite"}))
    actions.extend(extra)
    return Prompt("tricks", nxt, f"Seat {nxt} {must_text(t)}", tuple(actions),
                  instructions=(trick_line(t),))


def _end_action(state: PrefState) -> Action:
    """Ending the game, always offered between hands (ruling pref-7): the pot is shared,
    nothing when it is empty."""
    label = ("End the game: share the pot" if state.pot_in else
             "End the game (the pot is empty: nothing to share)")
    return Action("end", label, key="e")


def _declarer_actions(state: PrefState, d: int) -> tuple[Action, ...]:
    t = state.tricks
    if t is None or t.played:
        return ()
    return (
        Action("no-aces", "No aces", d, key="n", enabled=not no_aces_refusal(state),
               reason=no_aces_refusal(state)),
        Action("show", "Show (four aces)", d, key="w", input=Cards(4, 4)),
    )


def auction_line(state: PrefState) -> str:
    """The bids so far, for the screen's instructions and the table's info."""
    said = ", ".join(f"seat {s} {b}" for s, b in state.bids)
    return "Bids: " + (said or "none yet")


def view(state: PrefState, game: Game[PrefState]) -> TableView:
    """The table: each seat's bid or part, the tricks won, the pot; ``game`` says what each
    seat holds and has put in."""
    t = state.tricks
    won = t.won() if t is not None else {}
    to_act = prompt(state).to_act
    d = state.declarer
    seats = []
    for s in state.seats:
        if s not in state.active:
            seats.append(SeatView(seat=s, status="sits out (dealer)", note="dealer"))
            continue
        status = ""
        bid = next((b for x, b in reversed(state.bids) if x == s), None)
        if d == s:
            status = f"declarer: {contract(state)}"
        elif state.choice(s):
            status = {"play": "plays", "drop": "drops: out of the play"}[
                state.choice(s) or "play"]
            host = state.invited()
            if host == s:
                status = "plays (host)"
            elif host is not None:
                status = "plays (invited guest)"
        elif bid:
            status = f"bid {bid}"
        cards = tuple(c.code for x, c in t.trick().plays if x == s) if t else ()
        seats.append(SeatView(
            seat=s, cards=cards, hidden=game.held(state, s), status=status,
            detail=f"{won[s]} trick{'s' if won[s] != 1 else ''}" if s in won else "",
            put_in=game.contributions(state).get(s, 0), to_act=s == to_act,
            note="dealer" if s == state.dealer else ""))
    info = [f"Pot {fmt(state.pot)} ({state.pot // state.stake} stakes of "
            f"{fmt(state.stake)})"]
    if state.bids:
        info.append(auction_line(state))
    if state.trump is not None and d is not None:
        info.append(f"Seat {d} declares {contract(state)}, trumps "
                    f"{SUIT_WORDS[state.trump]}" + (", no aces" if state.no_aces else ""))
    if t is not None:
        if not state.over and t.played:
            info.append(trick_line(t))
        for i, x in enumerate(t.done, start=1):
            info.append(f"Trick {i}: " + " ".join(c.pretty for _, c in x.plays)
                        + f", won by seat {x.winner}" + (" (revoke)" if x.revoke else ""))
        info.extend(r.text() for r in (*t.revokes, *state.false_no_aces))
    return TableView(game=NAME, seats=tuple(seats), to_act=to_act, button=state.dealer,
                     board=tuple(c.code for c in state.talon),
                     pots=(("pot", state.pot),), info=tuple(info))


def report(state: PrefState) -> dict[str, Any]:
    """The hand for ``replay --json``: the auction, the contract, the tricks and the money."""
    t = state.tricks
    out: dict[str, Any] = {
        "dealer": state.dealer,
        "stake": state.stake,
        "active": list(state.active),
        "ante": state.ante,
        "pot": state.pot,
        "bids": [{"seat": s, "bid": b} for s, b in state.bids],
        "declarer": state.declarer,
        "contract": contract(state) or None,
        "trump": state.trump,
        "defenders": {str(s): state.choice(s) for s in state.defenders()},
        "invited_by": state.invited(),
        "no_aces": state.no_aces,
        **tricks_report(t),
        "revoke": state.revoke,
    }
    out["revokes"] += [r.to_json() for r in state.false_no_aces]
    if state.over:
        s = settlement(state)
        out.update(money_report(s))
        out["pot_low"] = s.carry_out < state.ten
        out["ended"] = state.ended
        out["all_passed"] = state.all_passed and not state.ended
        out["bonuses"] = list(s.extra.get("bonuses", ()))
    return out


def narrate(before: PrefState, event: Event, after: PrefState) -> list[str] | None:
    """The replay's words for one event (None: the engine's plain words)."""
    if isinstance(event, Ante):
        return [f"each active player antes {event.stakes} stakes "
                f"({fmt(event.stakes * after.stake)})"]
    if isinstance(event, End):
        return ["the players end the game: the pot is shared"]
    if isinstance(event, Bid):
        said = "passes" if event.bid == "pass" else "bids " + event.bid
        lines = [f"seat {event.seat} {said}"]
        if after.all_passed:
            lines.append("everyone passed: the same dealer deals again")
        elif after.auction_over and not before.auction_over:
            lines.append(f"the auction is over: {contract(after)}")
        return lines
    if isinstance(event, Talon):
        return ["talon " + " ".join(c.pretty for c in event.cards)]
    if isinstance(event, Discard):
        return [f"seat {event.seat} discards " + " ".join(c.pretty for c in event.cards)]
    if isinstance(event, NameTrump):
        lines = [f"seat {event.seat} names {SUIT_WORDS[event.suit]}"]
        if after.declarer is not None and before.declarer is None:
            lines.append(f"seat {after.declarer} declares; trumps "
                         f"{SUIT_WORDS[after.trump or 's']}")
        return lines
    if isinstance(event, Defend):
        return [f"seat {event.seat} {event.choice}s"]
    if isinstance(event, NoAces):
        return [f"seat {event.seat} declares no aces"]
    if isinstance(event, Show):
        return [f"seat {event.seat} shows " + " ".join(c.pretty for c in event.cards)]
    if isinstance(event, CardDealt):
        lines = played_lines(event, before.tricks, after.tricks)
        if before.tricks is not None and after.tricks is not None:
            lines.extend(r.text() for r in after.false_no_aces[len(before.false_no_aces):])
        return [*lines, *trick_won_line(before.tricks, after.tricks)]
    return None


def score_sheet(states: Sequence[PrefState], game: Game[PrefState]) -> ScoreSheet:
    """Each hand's net by seat and the pot left; ``game`` refunds a hand called off."""
    seats = sorted({s for st in states for s in st.seats})
    rows = []
    for i, st in enumerate(states, start=1):
        # (a hand called off as a misdeal is not over: every chip went back, the pot
        # carried on untouched)
        s = settlement(st) if st.over else game.refund(st, "misdeal")
        net = s.net()
        rows.append((f"{i}" if st.over else f"{i} (misdeal)",
                     *(fmt(net.get(x, 0)) for x in seats), fmt(s.carry_out)))
    return ScoreSheet(title="Preference: the game so far",
                      columns=("hand", *map(str, seats), "pot left"), rows=tuple(rows))
