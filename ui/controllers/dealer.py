"""The dealer's controller: the shift, the hand in play, the settlement, Undo, the seats and
the time of a time-collected table."""

from __future__ import annotations

import dataclasses
from typing import Any

from dealer_assist.cards import full_deck
from dealer_assist.engine.base import (
    Action,
    Game,
    ScoreSheet,
    TableView,
)
from dealer_assist.engine.build import build_event as engine_build_event
from dealer_assist.engine.inputs import Cards
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.events import CardDealt, Discard, Event, Vocabulary
from dealer_assist.services import (
    Approval,
    ApprovalRequired,
    LockedOut,
    NotAllowed,
    SignInFailed,
    StoreUnavailable,
    Table,
)
from dealer_assist.services.dealer_hooks import take_table
from dealer_assist.services.draws import draw, draw_cancelled
from dealer_assist.services.timeacct import TimeMark
from dealer_assist.ui.controllers.running import Operations


def build_event(
    action: Action, cards: tuple[Any, ...] = (), *, vocab: Vocabulary | None = None,
    **extra: Any,
) -> Event:
    """The event an action records (:func:`dealer_assist.engine.build.build_event`): the cards
    entered fill the action's card input, ``extra`` the other inputs' fields by name."""
    given: dict[str, Any] = {}
    if cards:
        taker = next((i for i in action.inputs if isinstance(i, Cards)), None)
        if taker is None:
            raise BadInput(f'"{action.label}" takes no cards')
        given[taker.field] = tuple(cards)
    given.update(extra)
    return engine_build_event(action, given, vocab=vocab)


def unsigned_close(shift_id: int, message: str) -> str:
    """What the dealer reads after closing a shift at a station without the room's key: the
    shift IS closed; nothing was signed, and what the floor does about it."""
    why = message.removeprefix("no checkpoint signed: ")
    why = why.split(": `dealer-assist keys init`", 1)[0]
    return (f"Shift {shift_id} is closed. No checkpoint was signed at this station: {why}. The "
            "floor should run `dealer-assist keys init` (once for the room) and copy the room's "
            "key to this station, so the next close is signed.")


class DealerController(Operations):
    """One station's table: its shift, the hand in play, the settlement and Undo."""

    # --- shift ----------------------------------------------------------------------------

    def tables(self) -> list[Table]:
        return self.services.list_tables()

    def open_table(self, table_id: int, floor: str, approval: Approval | None = None) -> bool:
        """Open a shift at the table under ``floor`` (or resume this dealer's open shift) and
        resume the table's unfinished hand, if any. A second table for the same dealer needs
        the floor's ``approval`` (``approval_asked`` says so when none was given)."""
        self.approval_asked = ""

        def op() -> None:
            table = self.services.table(table_id)
            current = self.services.current_shift(table_id)
            if take_table(self.services, self.session, table_id, current):
                shift = current
            else:
                shift = self.services.open_shift(self.session, table_id, floor=floor,
                                                 approval=approval)
            self.table, self.shift = table, shift
            self.now = self.services.current_hand(table_id)
            self.settlement = None
            self.time = (self.services.time_now(table_id)
                         if self.services.time_policy(table_id) is not None else None)
            self.stacked = self.services.uses_stacks(table_id)
            self.rebuys = {}

        return self._run(f"open table {table_id}", op) and self._settle_if_over()

    def resume(self) -> bool:
        """At sign-in: reopen the table and the hand this dealer was dealing (after a crash or
        a restart), as Open table would, so the station is where it was."""
        if self.table is not None:
            return False
        try:
            shift = self.services.shift_to_resume(self.session)
        except DealerAssistError:
            return False
        if shift is None:
            return False
        return self.open_table(shift.table_id, shift.floor)

    def close_shift(self, approval: Approval) -> bool:
        if self.shift is None:
            self.refused.emit("no shift is open at this station")
            return False
        shift_id = self.shift.id

        def op() -> None:
            self.services.close_shift(self.session, shift_id, approval=approval)
            self.shift = None
            self.now = None
            self.settlement = None
            self.time = None

        done = self._run(f"close shift {shift_id}", op)
        seal = getattr(self.services, "last_seal", None)
        if done and seal is not None and not seal.ok:  # closed, but nothing was signed
            if seal.fingerprint:  # the key is here: verify found a fault
                self.refused.emit(f"Shift {shift_id} is closed, but no checkpoint was signed: "
                                  f"{seal.message}. Tell the floor now.")
            else:
                self.noted.emit(unsigned_close(shift_id, seal.message))
        return done

    # --- time collection -----------------------------------------------------------------

    def set_seated(self, seat: int, seated: bool) -> bool:
        """Mark a player in (sat down) or out (left) at ``seat``; recorded at once."""
        if self.table is None or self.time is None:
            self.refused.emit("this table does not collect time")
            return False
        table_id = self.table.id

        def op() -> None:
            if seated:
                self.time = self.services.seat_in(self.session, table_id, seat)
            else:
                self.time = self.services.seat_out(self.session, table_id, seat)

        return self._run(f"seat {seat} {'in' if seated else 'out'}", op)

    def collect_time(self) -> bool:
        """Record the period mark; ``time.collect`` then lists what to collect from each seat."""
        if self.table is None or self.time is None:
            self.refused.emit("this table does not collect time")
            return False
        table_id = self.table.id

        def op() -> None:
            self.time = self.services.mark_period(self.session, table_id)

        return self._run("collect time", op)

    def time_marks(self) -> list[TimeMark]:
        """The table's seat and period marks (and voids), for the dealer to pick one to void."""
        if self.table is None or self.time is None:
            return []
        return self.services.time_marks(self.table.id)

    def void_mark(self, target: int, reason: str, approval: Approval | None = None) -> bool:
        """Void the table's mark number ``target`` with a reason. When it moves money and no
        approval was given, ``approval_asked`` says why the floor must approve; after it is
        recorded ``time.collect`` lists what to give back or collect, seat by seat."""
        self.approval_asked = ""
        if self.table is None or self.time is None:
            self.refused.emit("this table does not collect time")
            self.last_error = "this table does not collect time"
            return False
        table_id = self.table.id

        def op() -> None:
            self.time = self.services.void_time(
                self.session, table_id, target, reason, approval=approval
            )

        return self._run(f"void mark {target}", op)

    # --- hands ----------------------------------------------------------------------------

    def start_hand(self, seats: tuple[int, ...] | None = None, *, new_game: bool = False,
                   approval: Approval | None = None) -> bool:
        """Start the next hand (``new_game``: as a new game, with the floor's ``approval``)."""
        if self.table is None:
            self.refused.emit("open a table first")
            return False
        table_id = self.table.id
        stacks = dict(self.rebuys) if self.rebuys else None
        if stacks is not None and seats is not None:
            stacks = {s: v for s, v in stacks.items() if s in seats}

        def op() -> None:
            now = self.services.start_hand(self.session, table_id, seats=seats, stacks=stacks,
                                           new_game=new_game, approval=approval)
            self.now = now
            self.settlement = None
            self.rebuys = {}

        return self._run("start the hand", op)

    def record(self, event: Event, approval: Approval | None = None) -> bool:
        """Record one dealer input (a floor decision with the floor's ``approval``); when it
        ends the hand, settle it (write the ledger)."""
        if self.now is None:
            self.refused.emit("no hand in play: start a hand first")
            return False
        hand_id = self.now.hand.id

        def op() -> None:
            self.now = self.services.record(self.session, hand_id, event, approval=approval)
            self.settlement = None

        return self._run(self.words(event), op) and self._settle_if_over()

    def draw(self, action: Action, approval: Approval | None = None) -> dict[str, Any] | None:
        """The app draws ``action``'s values, on the record before they are shown (None when
        it did not: ``approval_asked`` says a second draw needs the floor's approval, else the
        refusal was emitted). Nothing is kept for Retry: a draw the database did not take was
        never made."""
        self.approval_asked = ""
        self.auth_refused = False
        if self.now is None:
            self.refused.emit("no hand in play: start a hand first")
            return None
        if self.pending is not None:
            self.last_error = self.kept_refusal()
            self.refused.emit(self.last_error)
            return None
        try:
            return draw(self.services, self.session, self.now.hand.id, action,
                        approval=approval)
        except StoreUnavailable as exc:
            self.last_error = f"{exc}: nothing was drawn; draw again once it answers"
            self.refused.emit(self.last_error)
        except ApprovalRequired as exc:
            self.last_error = self.approval_asked = str(exc)
        except DealerAssistError as exc:
            self.last_error = str(exc)
            self.auth_refused = isinstance(exc, (SignInFailed, LockedOut, NotAllowed))
            self.refused.emit(str(exc))
        return None

    def draw_cancelled(self, action: Action, values: dict[str, Any]) -> None:
        """A draw closed without recording it: said on the record (best effort: the draw
        itself is already there)."""
        if self.now is None:
            return
        try:
            draw_cancelled(self.services, self.session, self.now.hand.id, action, values)
        except DealerAssistError as exc:
            self.last_error = str(exc)

    def _settle_if_over(self) -> bool:
        """A hand that just ended is settled at once (its ledger written) as its own step, so
        a database failure there is retried as a settle, never as a second copy of the input."""
        if self.now is None or not self.now.over or self.settlement is not None:
            return True
        self._run(self.UNDROPPABLE, self._settle_now)
        return True

    def settle(self) -> bool:
        if self.now is None or not self.now.over:
            return False
        return self._run(self.UNDROPPABLE, self._settle_now)

    def _settle_now(self) -> None:
        assert self.now is not None
        self.settlement = self.services.settle(self.session, self.now.hand.id)
        self.now = self.services.hand_now(self.now.hand.id)

    def last_voidable(self) -> int | None:
        """The hand's last event that Undo would void (not the start, not a void, not voided)."""
        if self.now is None:
            return None
        for st in reversed(self.now.replay.steps):
            if st.number > 1 and st.event.TYPE != "void" and not st.voided:
                return st.number
        return None

    def undo(self, reason: str, approval: Approval | None = None) -> bool:
        """Void the last event with a reason (a finished hand needs the floor's approval)."""
        target = self.last_voidable()
        if self.now is None or target is None:
            self.refused.emit("nothing to undo in this hand")
            return False
        hand_id = self.now.hand.id

        def op() -> None:
            self.now = self.services.void(
                self.session, hand_id, target, reason, approval=approval
            )
            self.settlement = None

        return self._run(f"undo: void event {target} ({reason.strip()})", op) \
            and self._settle_if_over()

    def misdeal(self, reason: str, approval: Approval | None) -> bool:
        """Call the hand off as a misdeal (the floor approves); it settles at once as refunds."""
        if self.now is None:
            self.refused.emit("no hand to call off: start a hand first")
            return False
        hand_id = self.now.hand.id

        def op() -> None:
            self.now = self.services.misdeal(self.session, hand_id, reason, approval=approval)
            self.settlement = None

        return self._run(f"misdeal ({reason.strip()})", op) and self._settle_if_over()

    # --- what the screen asks -------------------------------------------------------------

    def view(self) -> TableView | None:
        """The hand as the dealer sees it; between hands of a game played over many hands,
        with the game's score sheet below (the game so far)."""
        if self.now is None:
            return None
        view = self.now.view()
        sheet = self.game_sheet()
        if sheet is not None:
            view = dataclasses.replace(view, info=(*view.info, *sheet.text()))
        return view

    def game_goes_on(self) -> bool:
        """Whether the settled hand's game carries on into the next hand (a game of many hands
        that is not over): then the dealer may end it and start a new game instead."""
        now = self.now
        return (now is not None and now.hand.status == "settled" and bool(now.game.carries)
                and now.replay.misdeal is None and not now.game.game_over(now.state))

    def game_sheet(self) -> ScoreSheet | None:
        """The score sheet of the table's game so far, once the hand in play is settled and
        its game keeps one (worked out once per settled hand)."""
        now = self.now
        if (now is None or self.table is None or now.hand.status != "settled"
                or type(now.game).score_sheet is Game.score_sheet):
            return None
        key = (now.hand.id, now.hand.events)
        if self._sheet[0] != key:
            self._sheet = (key, self.services.game_so_far(self.table.id).sheet)
        return self._sheet[1]

    def card_reasons(self, action: Action) -> dict[str, str]:
        """For an action taking one card: each card the game refuses now, with its reason."""
        one = action.input
        if (self.now is None or len(action.inputs) != 1 or not isinstance(one, Cards)
                or one.unseen or one.exact != 1):
            return {}
        game, state = self.now.game, self.now.state
        out: dict[str, str] = {}
        for card in full_deck():
            try:
                game.check(state, build_event(action, (card,), vocab=game.events))
            except DealerAssistError as exc:
                out[card.code] = str(exc)
        return out

    def event_for(self, action: Action, cards: tuple[Any, ...] = (), **extra: Any) -> Event:
        """:func:`build_event` in the events of the hand's game."""
        vocab = self.now.game.events if self.now is not None else None
        return build_event(action, cards, vocab=vocab, **extra)

    def held(self, seat: int) -> int:
        """Cards a seat holds face down now (the game says)."""
        if self.now is None:
            return 0
        return self.now.game.held(self.now.state, seat)

    def discard(self, seat: int, cards: tuple[Any, ...] = (), count: int | None = None) -> bool:
        return self.record(Discard(seat=seat, cards=tuple(cards), count=count))

    def deal(self, seat: int, card: Any) -> bool:
        return self.record(CardDealt(seat=seat, card=card))

    def next_stacks(self, seats: tuple[int, ...] | None) -> dict[int, int] | None:
        """What each seat starts the next hand with unless a stack is typed (None: refused)."""
        if self.table is None:
            self.refused.emit("open a table first")
            return None
        table_id = self.table.id
        out: dict[int, int] = {}

        def op() -> None:
            out.update(self.services.next_stacks(table_id, seats))

        # a read: the screen is not redrawn (the push steps' ticks stay as they are)
        return out if self._run("read the stacks", op, redraw=False) else None
