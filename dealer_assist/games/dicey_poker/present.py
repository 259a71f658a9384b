"""What the dealer sees of Dicey Poker: the prompt (whose turn, the roll and what it allows,
the wild challenge as its own step), the table, the replay's words and ``replay --json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Cards, Dice, Drawn, Input
from dealer_assist.events import Event
from dealer_assist.games.dicey_poker.events import (
    Chip,
    Deal,
    Discard,
    Draw,
    Joker,
    Roll,
    Stop,
    Swap,
    Up,
)
from dealer_assist.games.dicey_poker.play import (
    NAME,
    _due_words,
    dice_allowed,
    matching,
    pile_size,
)
from dealer_assist.games.dicey_poker.rules import (
    DICE,
    DIE_NAMES,
    HOLE,
    TABLE,
    UP,
    card_points,
    hole_best,
    joker_values,
    roll_words,
    two_decks,
    up_category,
)
from dealer_assist.games.dicey_poker.state import (
    DISCARD_ANY,
    DISCARD_MATCH,
    DRAW,
    FIVE,
    PLACE,
    ROLL,
    DiceyState,
)

#: The dealer's keys.
KEY_DEAL, KEY_BASE, KEY_FACE, KEY_PERCENT, KEY_WILD = "d", "b", "f", "p", "w"
KEY_UP, KEY_DRAW, KEY_CHIP, KEY_SWAP, KEY_DISCARD, KEY_STOP, KEY_JOKER = (
    "u", "d", "c", "s", "x", "t", "j")


def die_input(state: DiceyState, die: str) -> Input:
    """The die's value: drawn by the app (shown and recorded) or entered from the table."""
    faces, low, step = DICE[die]
    if state.settings.dice == "app":
        return Drawn("value", faces=faces, low=low, step=step)
    return Dice(1, faces=faces, field="value", low=low, step=step)


def _card(state: DiceyState, field: str = "card") -> Cards:
    return Cards(1, 1, field=field, repeats=two_decks(state.settings.players))


def _roll(state: DiceyState, seat: int, die: str, key: str, enabled: bool = True,
          reason: str = "") -> Action:
    return Action("roll", f"Roll the {DIE_NAMES[die]} ({die})", seat, key=key,
                  fields={"die": die}, input=die_input(state, die), enabled=enabled,
                  reason=reason)


def codes(cards: Any) -> str:
    return " ".join(c.code for c in cards)


def prompt(state: DiceyState) -> Prompt:
    st = state.settings
    if state.over:
        return Prompt("done", None, "The last two rounds are played: settle the hand",
                      done=True)
    if state.dealing:
        seat = st.order[state.dealt]
        return Prompt("deal", seat, f"Deal seat {seat} its ten cards (hole cards open to the "
                      "dealer)", (Action("deal", f"Deal seat {seat}", seat, key=KEY_DEAL,
                                         input=Cards(HOLE, HOLE, repeats=two_decks(
                                             st.players))),))
    if state.joker_due is not None:
        seat = state.joker_due
        n = state.jokers_taken + 1
        if len(state.face_up(seat)) >= UP:
            return Prompt("joker", seat, f"Seat {seat} wins joker {n}: it goes face up, "
                          "chipped; name the face-up card sent back to the hole and the hole "
                          "card discarded", (Action(
                              "joker", "Place the joker", seat, key=KEY_JOKER,
                              input=_card(state, "back"), more=(_card(state, "out"),)),))
        return Prompt("joker", seat, f"Seat {seat} wins joker {n}: place it face up, chipped",
                      (Action("joker", "Place the joker", seat, key=KEY_JOKER),))
    if state.wild is not None:
        seat = state.wild
        values = joker_values(st.players, state.jokers_taken)
        want = " or ".join(map(str, values))
        return Prompt("wild", seat, f"Seat {seat} won the wild challenge: roll the wild die "
                      f"(d4); {want} takes joker {state.jokers_taken + 1}",
                      (_roll(state, seat, "d4", KEY_WILD),))
    if state.challenge is not None:
        ch = state.challenge
        seat = ch.order[ch.at]
        rolls = ch.current_rolls()
        least = ch.least_rolls()
        total = sum(rolls)
        can_stop = len(rolls) >= least
        so_far = "; ".join(f"seat {s} {ch.total(i)}" + (" (over)" if ch.total(i) > 100 else "")
                           for i, s in enumerate(ch.order[:ch.at]))
        msg = (f"Wild challenge (seat {ch.challenger}): seat {seat} rolls the percentile die, "
               f"{total} so far" + (f"; {so_far}" if so_far else ""))
        return Prompt("challenge", seat, msg, (
            _roll(state, seat, "d100", KEY_PERCENT, enabled=total < 100,
                  reason="exactly 100: stop" if total >= 100 else ""),
            Action("stop", "Stop", seat, key=KEY_STOP, enabled=can_stop,
                   reason="" if can_stop else f"at least {least} roll{'s' if least > 1 else ''}"
                   " first"),
        ), instructions=("Over 100 loses; the single closest to 100 wins; a tie or everyone "
                         "over: nobody" if st.players > 1 else "Solitaire: 70 to 100 wins",))
    seat = state.seat
    last = " (one of the last two rounds)" if state.in_last_rounds else ""
    head = f"Round {state.round}{last}: seat {seat}"
    if state.step == ROLL:
        allowed = dice_allowed(state, seat)
        if state.two_rolls:
            die = allowed[0]
            return Prompt("roll", seat, f"{head} rolls the {DIE_NAMES[die]} ({die})", (
                _roll(state, seat, die, KEY_BASE if die == "d10" else KEY_FACE),))
        return Prompt("roll", seat, f"{head} has five face up: rolls one die of their choice",
                      (_roll(state, seat, "d10", KEY_BASE, "d10" in allowed,
                             "fewer than three base cards (A-10) in the hole"),
                       _roll(state, seat, "d6", KEY_FACE, "d6" in allowed,
                             "fewer than three face cards (J-K) in the hole")))
    assert state.roll is not None
    rolled = roll_words(*state.roll)
    match = matching(state, seat)
    msg = f"{head} rolled {rolled}: {_due_words(state)}"
    if state.step == PLACE:
        return Prompt("place", seat, msg, (
            Action("up", "Put the match face up", seat, key=KEY_UP, input=_card(state)),),
            instructions=(f"matches: {codes(match)}",))
    if state.step == FIVE:
        actions = (
            Action("swap", "Swap for an unchipped card", seat, key=KEY_SWAP,
                   input=_card(state, "up"), more=(_card(state, "hole"),)),
            Action("chip", "Chip a face-up card", seat, key=KEY_CHIP, input=_card(state)),
        )
        return Prompt("five", seat, msg, actions, instructions=(f"matches: {codes(match)}",))
    if state.step in (DISCARD_MATCH, DISCARD_ANY):
        return Prompt("discard", seat, msg, (
            Action("discard", "Discard", seat, key=KEY_DISCARD, input=_card(state)),),
                      instructions=(f"matches: {codes(match)}",) if match else ())
    assert state.step == DRAW
    return Prompt("draw", seat, msg, (Action("draw", "Draw", seat, key=KEY_DRAW,
                                             input=_card(state)),),
                  instructions=() if pile_size(state) else
                  ("The pile is empty: the discards become the pile",))


# --- the table -------------------------------------------------------------------------------

def seat_scores(state: DiceyState, seat: int) -> Mapping[str, Any]:
    """A finished seat's round: the face-up five, its column, card points, the hole's best
    five and its column, the round's total."""
    if state.scores is not None:
        return state.scores[seat]
    return score_seat(state, seat)


def score_seat(state: DiceyState, seat: int) -> dict[str, Any]:
    """:func:`seat_scores` worked out."""
    ups = [f.card for f in state.face_up(seat)]
    up_cat = up_category(ups)
    hole_cat, five = hole_best(state.hole[seat])
    bonus = sum(card_points(c) for c in ups)
    up_score, hole_score = TABLE[up_cat][0], TABLE[hole_cat][1]
    return {"up": [c.code for c in ups], "up_category": up_cat, "up_score": up_score,
            "bonus": bonus, "hole": [c.code for c in five], "hole_category": hole_cat,
            "hole_score": hole_score, "total": up_score + bonus + hole_score}


def round_points(state: DiceyState) -> dict[int, int]:
    if not state.over:
        return {}
    return {s: seat_scores(state, s)["total"] for s in state.settings.seats}


def totals(state: DiceyState) -> dict[int, int]:
    pts = round_points(state)
    return {s: state.settings.totals_in.get(s, 0) + pts.get(s, 0)
            for s in state.settings.seats}


def winners(state: DiceyState) -> list[int]:
    """The highest total once a total reaches the target at the end of a hand."""
    if not state.over:
        return []
    t = totals(state)
    if max(t.values()) < state.settings.target:
        return []
    best = max(t.values())
    return [s for s in state.settings.order if t[s] == best]


def view(state: DiceyState, *, reveal: bool = False) -> TableView:
    st = state.settings
    to_act = prompt(state).to_act
    pts = round_points(state)
    tot = totals(state)
    seats: list[SeatView] = []
    for s in st.seats:
        ups = state.face_up(s)
        chipped = tuple(f.card.code for f in ups if f.chipped)
        free = tuple(f.card.code for f in ups if not f.chipped)
        hole = tuple(c.code for c in state.hole.get(s, ()))
        detail = f"{len(ups)} up, {len(chipped)} chipped; total {tot[s]}"
        if s in pts:
            sc = seat_scores(state, s)
            detail = (f"up {sc['up_category']} {sc['up_score']}+{sc['bonus']}, hole "
                      f"{sc['hole_category']} {sc['hole_score']}: {sc['total']}; "
                      f"total {tot[s]}")
        status = ""
        if state.challenge is not None and s in state.challenge.order:
            ch = state.challenge
            i = ch.order.index(s)
            if i < len(ch.rolls):
                t = ch.total(i)
                status = f"challenge {t}" + (" over" if t > 100 else "")
        seats.append(SeatView(
            seat=s, detail=detail, status=status, to_act=s == to_act,
            rows=(("chipped", chipped), ("up", free), ("hole", hole))))
    info: list[str] = []
    if state.roll is not None and not state.dealing:
        info.append(f"Seat {state.seat} rolled {roll_words(*state.roll)}: {_due_words(state)}")
    info.append(f"Jokers taken {state.jokers_taken} of {st.jokers}; round {state.round}"
                + (f"; last two rounds from round {state.final_from}"
                   if state.final_from is not None else "")
                + f"; game to {st.target}")
    return TableView(game=NAME, seats=tuple(seats), to_act=to_act, button=st.dealer,
                     pots=(("prize", st.carry_in + entries(state)),) if (
                         st.entry or st.carry_in) else (),
                     info=tuple(info))


def entries(state: DiceyState) -> int:
    st = state.settings
    return st.entry * st.players if st.first_hand else 0


def report(state: DiceyState, game_over: bool) -> dict[str, Any]:
    st = state.settings
    out: dict[str, Any] = {
        "seats": list(st.seats), "dealer": st.dealer, "target": st.target, "dice": st.dice,
        "rounds": state.round - 1 if state.over else state.round,
        "jokers_taken": state.jokers_taken,
        "challenges": [c.to_json() for c in state.challenges],
        "totals_in": {str(s): st.totals_in.get(s, 0) for s in st.seats},
    }
    if state.over:
        out["scores"] = {str(s): dict(seat_scores(state, s)) for s in st.seats}
    out["totals"] = {str(s): v for s, v in totals(state).items()}
    out["game_over"] = game_over
    out["winners"] = winners(state)
    return out


def narrate(before: DiceyState, event: Event, after: DiceyState) -> list[str]:
    seat = event.seat_of
    who = f"seat {seat}"
    lines: list[str] = []
    if isinstance(event, Deal):
        lines.append(f"{who} is dealt {codes(event.cards)}")
    elif isinstance(event, Roll):
        if event.die == "d100":
            ch = after.challenge or after.challenges[-1]
            i = ch.order.index(event.seat)
            t = ch.total(i)
            lines.append(f"{who} rolls {event.value} on the percentile die: {t}"
                         + (" (over)" if t > 100 else ""))
        elif event.die == "d4":
            won = after.joker_due == event.seat
            lines.append(f"{who} rolls {event.value} on the wild die: "
                         + ("a joker" if won else "no joker"))
        else:
            m = matching(after, event.seat)
            lines.append(f"{who} rolls {roll_words(event.die, event.value)} on the "
                         f"{DIE_NAMES[event.die]}: "
                         + (f"matches {codes(m)}" if m else "no match"))
    elif isinstance(event, Up):
        lines.append(f"{who} puts {event.card.code} face up")
    elif isinstance(event, Draw):
        if not pile_size(before):
            lines.append("the discards become the pile")
        lines.append(f"{who} draws {event.card.code}")
    elif isinstance(event, Chip):
        lines.append(f"{who} chips {event.card.code}")
    elif isinstance(event, Swap):
        lines.append(f"{who} swaps {event.hole.code} face up (chipped) for {event.up.code}")
    elif isinstance(event, Discard):
        lines.append(f"{who} discards {event.card.code}")
    elif isinstance(event, Stop):
        lines.append(f"{who} stops")
    elif isinstance(event, Joker):
        lines.append(f"{who} places joker {after.jokers_taken} face up, chipped"
                     + (f"; {event.back.code} back to the hole, {event.out.code} discarded"
                        if event.back is not None and event.out is not None else ""))
    else:
        lines.append(f"{who} {event.TYPE}" if seat is not None else event.TYPE)
    if after.challenge is not None and before.challenge is None:
        lines.append(f"a wild challenge: seat {after.challenge.challenger} rolls first")
    if len(after.challenges) > len(before.challenges):
        w = after.challenges[-1].winner
        lines.append(f"the challenge is won by seat {w}" if w is not None
                     else "nobody wins the challenge")
    if after.final_from is not None and before.final_from is None:
        lines.append("every player has five chipped face-up cards: two more rounds")
    if after.over and not before.over:
        for s in after.settings.seats:
            sc = seat_scores(after, s)
            lines.append(f"seat {s}: up {sc['up_category']} {sc['up_score']} + {sc['bonus']}, "
                         f"hole {sc['hole_category']} {sc['hole_score']}: {sc['total']}")
    return lines
