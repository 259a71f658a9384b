"""Open-Face Chinese Poker: thirteen cards placed face up into three rows, settled pair by pair.

Turn order starts on the button's left. Each player places a first five cards, then one card a turn
(Pineapple: three cards a turn, two placed and one discarded) until every row is full. Seats in
fantasyland set all thirteen cards at once, after everyone else's first five."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.cards import Card
from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Game,
    Prompt,
    SampleDeal,
    SeatView,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.inputs import ONE_CARD, THREE_ROW_HAND
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Discard, Event, Start
from dealer_assist.fees.table import fees_by_seat, player_to_player_fees
from dealer_assist.games.ofc.events import EVENTS, Place, SetHand
from dealer_assist.games.ofc.sample import (
    deal_events,
)
from dealer_assist.games.ofc.settle import (
    next_button,
    outcome,
)
from dealer_assist.games.ofc.state import (
    FIRST_DEAL,
    PINEAPPLE_MAX_PLAYERS,
    OfcSettings,
    OfcState,
    _fantasyland_setting,
)
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    ROW_SIZES,
    Rows,
    button_setting,
    cards_text,
    check_keys,
    check_set_sizes,
    foul_reason,
    require_finished,
    row_name,
    royalties,
    royalty_table,
    scoring_report,
    seat_keys,
    settle_pairs,
    stakes_info,
    stakes_setting,
    table_report,
    table_seats,
)

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier



class OpenFaceChinesePoker(Game[OfcState]):
    name = "ofc"
    title = "Open-Face Chinese Poker"
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("unit", "unit", "money"), Setting("pair_units", "units by pair", "text"),
        Setting("pineapple", "pineapple deal", "flag"),
        Setting("royalties", "royalties", "choice", ("rules-text", "pineapple")),
        Setting("fantasyland", "fantasyland", "text"),
    )
    players = (2, 4)
    events = EVENTS
    #: A seat that earns fantasyland is dealt it in the next hand: verify holds the next start
    #: to it (a seat put into fantasyland or left out of it without a new game is named).
    carries = ("in_fantasyland",)
    demo = DemoTable(
        settings={"game": "ofc", "seats": 4, "smallest_chip": 100, "stakes": "$1 a point",
                  "params": {"unit": 100}},
        players=(2, 3),
    )

    # --- start -------------------------------------------------------------------------------

    def start(self, event: Start) -> OfcState:
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

    # --- check -------------------------------------------------------------------------------

    def check(self, state: OfcState, event: Event) -> None:
        st = state.settings
        seat = event.seat_of
        if isinstance(event, (Place, Discard, SetHand)) and seat not in st.seats:
            raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
        if isinstance(event, Place):
            self._check_turn(state, event.seat, "place")
            row = row_name(event.row)
            self._check_card(state, event.card)
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
            self._check_turn(state, event.seat, "discard")
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
                self._check_card(state, card)
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
                self._check_card(state, card)
        else:
            raise RuleViolation(
                f'"{event.TYPE}" is not an input in Open-Face Chinese Poker: record a place'
                + (", discard" if st.pineapple else "") + " or a fantasyland set", rule="input")

    def _check_turn(self, state: OfcState, seat: int, what: str) -> None:
        st = state.settings
        if seat in st.in_fantasyland:
            raise RuleViolation(
                f"seat {seat} is in fantasyland: record its thirteen cards with one set",
                rule="OFC 5")
        if state.placing_done:
            raise RuleViolation("every row is full: nothing more to " + what, rule="OFC 1")
        if seat != state.current:
            raise RuleViolation(
                f"it is seat {state.current}'s turn, not seat {seat}'s. "
                f"Next: {self.prompt(state).message}", rule="OFC 1")

    def _check_card(self, state: OfcState, card: Card) -> None:
        if card.is_joker:
            raise RuleViolation("jokers are not used in this game", rule="cards")
        where = state.where.get(card)
        if where is not None:
            raise RuleViolation(f"{card.code} is already out: {where}", rule="cards")

    # --- transition --------------------------------------------------------------------------

    def transition(self, state: OfcState, event: Event) -> OfcState:
        where = dict(state.where)
        if isinstance(event, Place):
            row = row_name(event.row)
            rows = dict(state.rows)
            rows[event.seat] = rows[event.seat].add(row, event.card)
            where[event.card] = f"seat {event.seat}'s {row} row"
            return self._advance(replace(state, rows=rows, where=where, placed=state.placed + 1))
        if isinstance(event, Discard):
            discards = dict(state.discards)
            unseen = dict(state.unseen_discards)
            if event.cards:
                discards[event.seat] = discards.get(event.seat, ()) + event.cards
                for card in event.cards:
                    where[card] = f"discarded by seat {event.seat}"
            else:
                unseen[event.seat] = unseen.get(event.seat, 0) + 1
            return self._advance(replace(state, discards=discards, unseen_discards=unseen,
                                         where=where, discarded=state.discarded + 1))
        if isinstance(event, SetHand):
            rows = dict(state.rows)
            rows[event.seat] = Rows(event.front, event.middle, event.back)
            for r in ROW_NAMES:
                for card in rows[event.seat].row(r):
                    where[card] = f"set by seat {event.seat} (fantasyland)"
            return replace(state, rows=rows, where=where,
                           fantasyland_set=state.fantasyland_set | {event.seat})
        raise RuleViolation(f'"{event.TYPE}" is not an input in this game', rule="input")

    def _advance(self, state: OfcState) -> OfcState:
        places, discards = state.quota()
        if state.placed < places or state.discarded < discards:
            return state
        turn, rnd = state.turn + 1, state.round
        if turn >= len(state.settings.placers):
            turn, rnd = 0, rnd + 1
        return replace(state, turn=turn, round=rnd, placed=0, discarded=0)

    # --- prompt, view ------------------------------------------------------------------------

    def is_over(self, state: OfcState) -> bool:
        return state.over

    def prompt(self, state: OfcState) -> Prompt:
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

    def view(self, state: OfcState, *, reveal: bool = False) -> TableView:
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
        return TableView(game=self.name, seats=tuple(seats), to_act=state.current,
                         button=st.button, info=tuple(info))

    # --- settle, report ----------------------------------------------------------------------

    def contributions(self, state: OfcState) -> dict[int, int]:
        """Only the house fees taken before the deal are on the table until the settlement."""
        return fees_by_seat(state.settings.seats, state.settings.fees)

    def settle(self, state: OfcState) -> Settlement:
        require_finished(state.over, self.prompt(state).message if not state.over else "")
        out = outcome(state)
        st = state.settings
        return settle_pairs(st.seats, out.pairs, st.stakes, st.fees, extra={
            "fantasyland": list(out.fantasyland), "next_button": next_button(state)})

    def report(self, state: OfcState) -> dict[str, Any]:
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

    def redeal(self, state: OfcState) -> dict[str, Any]:
        """After a misdeal the same seats play in fantasyland again."""
        seats = state.settings.in_fantasyland
        return {"in_fantasyland": sorted(seats)} if seats else {}

    def next_hand(self, state: OfcState) -> dict[str, Any]:
        """Fantasyland seats for the next hand, and the button (it stays after fantasyland)."""
        if not state.over:
            return {}
        out = outcome(state)
        carried: dict[str, Any] = {"button": next_button(state)}
        if out.fantasyland:
            carried["in_fantasyland"] = sorted(out.fantasyland)
        return carried

    def next_hand_seats(self, state: OfcState, seats: tuple[int, ...]) -> dict[str, Any]:
        """When a player sits down or leaves (ruling 5): each seat that earned fantasyland and
        still plays keeps it, a seat that left takes it away with it (nobody else gets it),
        and after a hand anyone played in fantasyland the button stays where it was if that
        seat still plays (if it left, the table moves the button on as usual)."""
        if not state.over:
            return {}
        carried: dict[str, Any] = {}
        button = next_button(state)
        if button == state.settings.button and button in seats:
            carried["button"] = button
        kept = sorted(s for s in outcome(state).fantasyland if s in seats)
        if kept:
            carried["in_fantasyland"] = kept
        return carried

    def narrate(self, before: OfcState, event: Event, after: OfcState) -> list[str]:
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
            lines.append(self._seat_summary(after, seat))
        if after.over and not before.over:
            for s in after.settings.in_fantasyland:
                lines.append("revealed " + self._seat_summary(after, s))
            out = outcome(after)
            for p in out.pairs:
                lines.append(f"seats {p.a} and {p.b}: {p.points:+d} for seat {p.a} ({p.why})")
            if out.fantasyland:
                lines.append("fantasyland next hand: "
                             + ", ".join(f"seat {s}" for s in out.fantasyland))
        elif (before.round == 0 and after.round == 1) and after.pending_sets:
            lines.append("first five placed: fantasyland seats may set now")
        return lines

    def _seat_summary(self, state: OfcState, seat: int) -> str:
        rows = state.rows[seat]
        text = " / ".join(cards_text(rows.row(r)) for r in ROW_NAMES)
        reason = foul_reason(rows)
        if reason is not None:
            return f"seat {seat} {text}: fouled, {reason}"
        roy = royalties(rows, state.settings.table)
        return f"seat {seat} {text}: royalties {sum(roy.values())}"

    # --- sample hands ------------------------------------------------------------------------

    def dossier(self) -> GameDossier:
        from dealer_assist.games.ofc.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        return self._deal(rng, players=players, params=params).events

    def sample_deal(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> SampleDeal[Any]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return self._deal(rng, players=players, params=params)

    def _deal(self, rng: random.Random, *, players: int,
              params: Mapping[str, Any] | None = None) -> SampleDeal[Any]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "unit", "pineapple", "fantasyland", "royalties",
                                     "smallest_chip", *self.carries})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        if "royalties" in given:
            given["royalties_table"] = given.pop("royalties")
        if "fantasyland" in given:
            given["fantasyland"] = tuple(given["fantasyland"])
        if "in_fantasyland" in given:  # carried from the hand before (the demo's next hand)
            given["in_fantasyland"] = tuple(given["in_fantasyland"])
        return deal_events(rng, players=players, **given)


GAME = OpenFaceChinesePoker()
