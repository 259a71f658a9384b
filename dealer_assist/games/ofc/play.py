"""Open-Face Chinese Poker's rules: the start read from the table's settings, each placement
checked (a refusal in the dealer's words, naming the ruling) and the state after it."""

from __future__ import annotations

from dealer_assist.cards import Card
from dealer_assist.engine.evolve import copied, replace
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Discard, Event, Start
from dealer_assist.fees.table import player_to_player_fees
from dealer_assist.games.ofc.events import Place, SetHand
from dealer_assist.games.ofc.present import prompt
from dealer_assist.games.ofc.state import (
    PINEAPPLE_MAX_PLAYERS,
    OfcSettings,
    OfcState,
    _fantasyland_setting,
)
from dealer_assist.games.open_face.rows import (
    ROW_NAMES,
    ROW_SIZES,
    Rows,
    button_setting,
    check_keys,
    check_set_sizes,
    row_name,
    royalty_table,
    stakes_setting,
    table_seats,
)


def start(event: Start) -> OfcState:
    """The state before any card, from the table's settings; a wrong setting refused in the
    dealer's words."""
    check_keys(event, ("button", "unit", "pair_units", "royalties", "pineapple",
                       "fantasyland", "in_fantasyland"))
    seats = table_seats(event)
    pineapple = event.get("pineapple", False)
    if not isinstance(pineapple, bool):
        raise RuleViolation('"pineapple" must be true or false', rule="settings")
    if pineapple and len(seats) > PINEAPPLE_MAX_PLAYERS:
        raise RuleViolation(
            "Pineapple takes 2 or 3 players: four players each seeing 17 cards would need "
            "68 cards from a 52-card deck", rule="OFC pineapple")
    conf, chosen = _fantasyland_setting(event.get("fantasyland"), seats)
    extra = event.get("in_fantasyland", [])
    if not isinstance(extra, list) or any(s not in seats for s in extra):
        raise RuleViolation(f'"in_fantasyland" lists seats among {list(seats)}',
                            rule="settings")
    if extra and not conf.enabled:
        raise RuleViolation("fantasyland is switched off at this table, yet seats are in it",
                            rule="settings")
    chosen = chosen | frozenset(extra)
    button = button_setting(event, seats)
    settings = OfcSettings(
        seats=seats,
        button=button,
        fees=player_to_player_fees(event, seats, button),
        stakes=stakes_setting(event, seats),
        table=royalty_table(event.get("royalties", "rules-text")),
        pineapple=pineapple,
        fantasyland=conf,
        in_fantasyland=chosen,
    )
    return OfcState(settings=settings, rows={s: Rows() for s in seats})


def check(state: OfcState, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
    st = state.settings
    seat = event.seat_of
    if isinstance(event, (Place, Discard, SetHand)) and seat not in st.seats:
        raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
    if isinstance(event, Place):
        _check_turn(state, event.seat, "place")
        row = row_name(event.row)
        _check_card(state, event.card)
        places, _ = state.quota()
        if state.placed >= places:
            raise RuleViolation(
                f"seat {event.seat} has placed its two cards this turn: record the discard",
                rule="OFC 1")
        rows = state.rows[event.seat]
        if rows.space(row) == 0:
            others = " or ".join(rows.open_rows())
            raise RuleViolation(
                f"seat {event.seat}'s {row} row is full ({ROW_SIZES[row]} cards): "
                f"place {event.card.code} in the {others}", rule="OFC 1")
    elif isinstance(event, Discard):
        if not st.pineapple:
            raise RuleViolation("this table is not playing Pineapple: nobody discards",
                                rule="OFC pineapple")
        _check_turn(state, event.seat, "discard")
        _, discards = state.quota()
        if state.round == 0 or state.discarded >= discards:
            raise RuleViolation(
                f"seat {event.seat} has no discard due: "
                + ("the first five are all placed" if state.round == 0 else
                   "one card a turn is discarded and it is done"), rule="OFC pineapple")
        if event.n != 1:
            raise RuleViolation("a Pineapple turn discards exactly one card",
                                rule="OFC pineapple")
        for card in event.cards:
            _check_card(state, card)
    elif isinstance(event, SetHand):
        if event.seat not in st.in_fantasyland:
            raise RuleViolation(
                f"seat {event.seat} is not in fantasyland: its cards are placed one "
                "placement at a time", rule="OFC 5")
        if event.seat in state.fantasyland_set:
            raise RuleViolation(f"seat {event.seat} has already set its hand", rule="OFC 1")
        if not state.first_five_done:
            raise RuleViolation(
                f"seat {event.seat} (fantasyland) sets after everyone else has placed "
                "their first five cards", rule="OFC 5")
        check_set_sizes(event.seat, event.front, event.middle, event.back)
        for card in event.front + event.middle + event.back:
            _check_card(state, card)
    else:
        raise RuleViolation(
            f'"{event.TYPE}" is not an input in Open-Face Chinese Poker: record a place'
            + (", discard" if st.pineapple else "") + " or a fantasyland set", rule="input")


def _check_turn(state: OfcState, seat: int, what: str) -> None:
    st = state.settings
    if seat in st.in_fantasyland:
        raise RuleViolation(
            f"seat {seat} is in fantasyland: record its thirteen cards with one set",
            rule="OFC 5")
    current = state.current  # (None once every row is full)
    if current is None:
        raise RuleViolation("every row is full: nothing more to " + what, rule="OFC 1")
    if seat != current:
        raise RuleViolation(
            f"it is seat {current}'s turn, not seat {seat}'s. "
            f"Next: {prompt(state).message}", rule="OFC 1")


def _check_card(state: OfcState, card: Card) -> None:
    if card.is_joker:
        raise RuleViolation("jokers are not used in this game", rule="cards")
    where = state.where.get(card)
    if where is not None:
        raise RuleViolation(f"{card.code} is already out: {where}", rule="cards")


def transition(state: OfcState, event: Event) -> OfcState:
    """The state after ``event`` (``check`` has passed it)."""
    where = copied(state.where)
    if isinstance(event, Place):
        row = row_name(event.row)
        rows = copied(state.rows)
        rows[event.seat] = rows[event.seat].add(row, event.card)
        where[event.card] = f"seat {event.seat}'s {row} row"
        return _advance(replace(state, rows=rows, where=where, placed=state.placed + 1))
    if isinstance(event, Discard):
        discards = copied(state.discards)
        unseen = copied(state.unseen_discards)
        if event.cards:
            discards[event.seat] = discards.get(event.seat, ()) + event.cards
            for card in event.cards:
                where[card] = f"discarded by seat {event.seat}"
        else:
            unseen[event.seat] = unseen.get(event.seat, 0) + 1
        return _advance(replace(state, discards=discards, unseen_discards=unseen,
                                     where=where, discarded=state.discarded + 1))
    if isinstance(event, SetHand):
        rows = copied(state.rows)
        rows[event.seat] = Rows(event.front, event.middle, event.back)
        for r in ROW_NAMES:
            for card in rows[event.seat].row(r):
                where[card] = f"set by seat {event.seat} (fantasyland)"
        return replace(state, rows=rows, where=where,
                       fantasyland_set=state.fantasyland_set | {event.seat})
    raise RuleViolation(f'"{event.TYPE}" is not an input in this game', rule="input")


def _advance(state: OfcState) -> OfcState:
    places, discards = state.quota()
    if state.placed < places or state.discarded < discards:
        return state
    turn, rnd = state.turn + 1, state.round
    if turn >= len(state.settings.placers):
        turn, rnd = 0, rnd + 1
    return replace(state, turn=turn, round=rnd, placed=0, discarded=0)
