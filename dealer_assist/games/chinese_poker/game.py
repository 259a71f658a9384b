"""Chinese Poker: thirteen cards each set into three rows, settled player to player in units.

Before any hand is shown, naturals are declared (and shown: the holder's ``set`` follows its
``natural``), then players may surrender. The first ordinary hand recorded is the reveal: from
then on only the remaining hands are recorded. Naturals and surrenderers play no rows."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Game,
    Prompt,
    SeatView,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.inputs import THREE_ROW_HAND, Choice
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.fees.table import fees_by_seat, player_to_player_fees
from dealer_assist.games.chinese_poker.events import EVENTS, Natural, SetHand, Surrender
from dealer_assist.games.chinese_poker.sample import (
    sample_events,
)
from dealer_assist.games.chinese_poker.settle import (
    natural_kind,
    natural_problem,
    outcome,
    row_rate,
)
from dealer_assist.games.chinese_poker.state import (
    NATURAL_NAMES,
    NATURALS,
    SURRENDER_UNITS,
    ChineseSettings,
    ChineseState,
)
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    Rows,
    button_setting,
    cards_text,
    check_keys,
    check_set_sizes,
    foul_reason,
    require_finished,
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

#: The keys of the dealer's inputs (another seat's: its number first, "3 R").
KEY_ROWS, KEY_NATURAL, KEY_SURRENDER = "r", "n", "s"


class ChinesePoker(Game[ChineseState]):
    name = "chinese-poker"
    title = "Chinese Poker"
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("unit", "unit", "money"), Setting("pair_units", "units by pair", "text"),
    )
    players = (2, 4)
    events = EVENTS
    demo = DemoTable(
        settings={"game": "chinese-poker", "seats": 4, "smallest_chip": 100,
                  "stakes": "$1 a unit", "params": {"unit": 100}},
        players=(2, 4),
    )

    def start(self, event: Start) -> ChineseState:
        check_keys(event, ("button", "unit", "pair_units"))
        seats = table_seats(event)
        button = button_setting(event, seats)
        return ChineseState(settings=ChineseSettings(
            seats=seats, button=button, stakes=stakes_setting(event, seats),
            fees=player_to_player_fees(event, seats, button)))

    # --- check -------------------------------------------------------------------------------

    def check(self, state: ChineseState, event: Event) -> None:
        seat = event.seat_of
        if isinstance(event, (Natural, SetHand, Surrender)):
            if seat not in state.settings.seats:
                raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
            assert seat is not None
            if state.over:
                raise RuleViolation("every hand is settled: nothing more to record", rule="input")
            if seat in state.surrendered:
                raise RuleViolation(f"seat {seat} has surrendered", rule="Chinese 2")
            if seat in state.sets:
                raise RuleViolation(f"seat {seat}'s hand is already recorded", rule="input")
        if isinstance(event, Natural):
            kind = natural_kind(event.kind)
            self._check_declaring(state, event.seat, f"declare {NATURAL_NAMES[kind]}")
            if state.surrendered:
                raise RuleViolation(
                    f"naturals are declared before surrenders, and seat {state.surrendered[0]} "
                    "has surrendered", rule="Chinese 1")
        elif isinstance(event, Surrender):
            self._check_declaring(state, event.seat, "surrender")
        elif isinstance(event, SetHand):
            if state.showing is not None and event.seat != state.showing:
                raise RuleViolation(
                    f"seat {state.showing} declared "
                    f"{NATURAL_NAMES[state.naturals[state.showing]]}: record its thirteen "
                    "cards first", rule="Chinese 1")
            check_set_sizes(event.seat, event.front, event.middle, event.back)
            for card in event.front + event.middle + event.back:
                owner = state.where.get(card)
                if owner is not None:
                    raise RuleViolation(f"{card.code} is already in seat {owner}'s hand",
                                        rule="cards")
            if event.seat == state.showing:
                kind = state.naturals[event.seat]
                problem = natural_problem(Rows(event.front, event.middle, event.back), kind)
                if problem is not None:
                    raise RuleViolation(
                        f"seat {event.seat} declared {NATURAL_NAMES[kind]}, but {problem}: "
                        "void the declaration if it was a mistake", rule="Chinese 1")
        else:
            raise RuleViolation(
                f'"{event.TYPE}" is not an input in Chinese Poker: record a set, a natural or '
                "a surrender", rule="input")

    def _check_declaring(self, state: ChineseState, seat: int, what: str) -> None:
        if state.revealed:
            raise RuleViolation(f"hands are already shown: too late to {what}",
                                rule="Chinese 1-2")
        if state.showing is not None:
            raise RuleViolation(
                f"seat {state.showing} declared {NATURAL_NAMES[state.naturals[state.showing]]}:"
                " record its thirteen cards first", rule="Chinese 1")
        if seat in state.naturals:
            raise RuleViolation(f"seat {seat} already declared a natural", rule="Chinese 1")

    # --- transition --------------------------------------------------------------------------

    def transition(self, state: ChineseState, event: Event) -> ChineseState:
        if isinstance(event, Natural):
            return replace(state, naturals={**state.naturals, event.seat: natural_kind(event.kind)},
                           showing=event.seat)
        if isinstance(event, Surrender):
            return replace(state, surrendered=(*state.surrendered, event.seat))
        if isinstance(event, SetHand):
            rows = Rows(event.front, event.middle, event.back)
            where = dict(state.where)
            for card in rows.cards:
                where[card] = event.seat
            shown_natural = event.seat == state.showing
            return replace(state, sets={**state.sets, event.seat: rows}, where=where,
                           showing=None if shown_natural else state.showing,
                           revealed=state.revealed or not shown_natural)
        raise RuleViolation(f'"{event.TYPE}" is not an input in this game', rule="input")

    # --- prompt, view ------------------------------------------------------------------------

    def is_over(self, state: ChineseState) -> bool:
        return state.over

    def prompt(self, state: ChineseState) -> Prompt:
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

    def view(self, state: ChineseState, *, reveal: bool = False) -> TableView:
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
        return TableView(game=self.name, seats=tuple(seats), button=st.button,
                         to_act=state.showing, info=stakes_info(st.stakes))

    # --- settle, report ----------------------------------------------------------------------

    def contributions(self, state: ChineseState) -> dict[int, int]:
        """Only the house fees taken before the deal are on the table until the settlement."""
        return fees_by_seat(state.settings.seats, state.settings.fees)

    def settle(self, state: ChineseState) -> Settlement:
        require_finished(state.over, self.prompt(state).message if not state.over else "")
        return settle_pairs(state.settings.seats, outcome(state).pairs, state.settings.stakes,
                            state.settings.fees)

    def report(self, state: ChineseState) -> dict[str, Any]:
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

    def narrate(self, before: ChineseState, event: Event, after: ChineseState) -> list[str]:
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

    def dossier(self) -> GameDossier:
        from dealer_assist.games.chinese_poker.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "unit", "smallest_chip"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return sample_events(rng, players=players, **given)


GAME = ChinesePoker()
