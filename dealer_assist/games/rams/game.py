"""The :class:`Game` for Rams: the declarations, the tricks and the pot carried from hand to hand,
as the dealer runs them on the screen and the replay reads them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    Action,
    DemoTable,
    Prompt,
    ScoreSheet,
    SeatView,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.engine.inputs import Cards
from dealer_assist.events import CardDealt, Event, Start, Vocabulary
from dealer_assist.games.rams import settle as settle_mod
from dealer_assist.games.rams.events import EVENTS, Pass, Play, Rams, TakeTrump, Trump, Widow
from dealer_assist.games.rams.state import NAME, RamsState, check, start_state, step, transition
from dealer_assist.games.tricks import SUIT_WORDS, must_text, trick_line
from dealer_assist.games.tricks.table import (
    PotTrickGame,
    money_report,
    played_lines,
    trick_won_line,
    tricks_report,
)
from dealer_assist.money import format_cents as fmt

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

SAID_WORDS = {"play": "plays this hand", "pass": "passed", "widow": "took the widow",
              "rams": "declared Rams"}


def call_the_floor(state: RamsState) -> tuple[str, ...]:
    """Each revoke found, as the dealer's instruction to call the floor (the hand is settled
    as played and the floor decides), not only a small line on the felt."""
    t = state.tricks
    return tuple(f"Call the floor: {r.text()}; the hand is settled as played, the floor "
                 "decides" for r in (t.revokes if t is not None else ()))


class RamsGame(PotTrickGame[RamsState]):
    """Five tricks for a pot that carries: play, pass, take the widow, or bid Rams."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Rams"
    players: ClassVar[tuple[int, int]] = (3, 5)
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("stake", "counter", "money"),
        Setting("revoke", "revoke", "choice", ("floor",)),
    )
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({})
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 5, "smallest_chip": 100, "stakes": "$1 counters",
                  "params": {"stake": 100},
                  "fee": {"kind": "per-player", "amount": 100}},
        players=(3, 5), sample={"stake": 100})

    def start(self, event: Start) -> RamsState:
        return start_state(event)

    def check(self, state: RamsState, event: Event) -> None:
        check(state, event)

    def transition(self, state: RamsState, event: Event) -> RamsState:
        return transition(state, event)

    apply = staticmethod(step)

    def settle(self, state: RamsState) -> Settlement:
        return settle_mod.settle(state)

    def antes(self, state: RamsState) -> dict[int, int]:
        """The dealer's ante."""
        return {state.dealer: state.ante}

    def next_hand(self, state: RamsState) -> dict[str, Any]:
        """After everyone before the dealer passed, the same dealer deals again."""
        return {"dealer": state.dealer} if state.redeal else {}

    def game_over(self, state: RamsState) -> bool:
        """The game (the pot's life) ends when a hand leaves the pot empty."""
        return state.over and self.settle(state).carry_out == 0

    # --- the screen ---------------------------------------------------------------------------
    def prompt(self, state: RamsState) -> Prompt:
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
            return self._declare_prompt(state, seat)
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

    def _declare_prompt(self, state: RamsState, seat: int) -> Prompt:
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

    def view(self, state: RamsState, *, reveal: bool = False) -> TableView:
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
                seat=s, cards=cards, hidden=self.held(state, s), status=status, detail=detail,
                put_in=self.contributions(state).get(s, 0), to_act=s == to_act,
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

    def report(self, state: RamsState) -> dict[str, Any]:
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
            s = settle_mod.settle(state)
            out.update(money_report(s))
            out["redeal"] = state.redeal
            if state.rams_by is not None:
                out["rams_won"] = not state.rams_lost
        return out

    def narrate(self, before: RamsState, event: Event, after: RamsState) -> list[str]:
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
        return super().narrate(before, event, after)

    def score_sheet(self, states: Sequence[RamsState]) -> ScoreSheet | None:
        seats = sorted({s for st in states for s in st.seats})
        rows = []
        for i, st in enumerate(states, start=1):
            # (a hand called off as a misdeal is not over: every chip went back, the pot
            # carried on untouched)
            done = settle_mod.settle(st) if st.over else self.refund(st, "misdeal")
            net = done.net()
            rows.append((f"{i}" if st.over else f"{i} (misdeal)",
                         *(fmt(net.get(s, 0)) for s in seats), fmt(done.carry_out)))
        return ScoreSheet(title="Rams: the pot's hands", columns=("hand", *map(str, seats),
                                                                  "pot left"),
                          rows=tuple(rows))

    def dossier(self) -> GameDossier:
        from dealer_assist.games.rams.dossier import DOSSIER

        return DOSSIER

    def sample(self, rng: random.Random, *, players: int, **params: Any) -> list[Event]:
        from dealer_assist.games.rams.sample import sample_hand

        return sample_hand(rng, players=players, **params)
