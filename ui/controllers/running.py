"""How the dealer's controller runs one service operation: the input kept for Retry when the
database fails, the drops written to the audit log, refusals and approvals said."""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.engine.base import (
    ScoreSheet,
    Settlement,
)
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event
from dealer_assist.services import (
    ApprovalRequired,
    Conflict,
    HandNow,
    LockedOut,
    NotAllowed,
    Services,
    Session,
    Shift,
    SignInFailed,
    StoreUnavailable,
    Table,
    TimeNow,
)
from dealer_assist.ui.qt import QObject, Signal


class Operations(QObject):
    """What the dealer's controller holds (its table, shift, hand) and how it runs each
    operation on it; :class:`~dealer_assist.ui.controllers.dealer.DealerController` adds the
    operations."""

    changed = Signal()
    refused = Signal(str)
    failed = Signal(str)
    recovered = Signal()
    approval_needed = Signal(str)
    #: Done, with something the floor must do (a shift closed at a station without a key).
    noted = Signal(str)

    def __init__(self, services: Services, session: Session) -> None:
        super().__init__()
        self.services = services
        self.session = session
        self.table: Table | None = None
        self.shift: Shift | None = None
        self.now: HandNow | None = None
        self.settlement: Settlement | None = None
        self.pending: Callable[[], None] | None = None
        self.pending_what = ""
        #: Inputs the dealer dropped while the database did not answer, each (words, table id,
        #: hand id): written to the audit log ("input-dropped") before the next operation.
        self.drops: list[tuple[str, int | None, int | None]] = []
        self.last_error = ""
        #: Stacks typed for the next hand (rebuys, add-ons, new players), by seat.
        self.rebuys: dict[int, int] = {}
        #: Whether the open table's game is played with stacks (Stacks… [F3]).
        self.stacked = False
        #: The table's time account when its fee is a time collection (else None).
        self.time: TimeNow | None = None
        #: Why the last operation was held for a floor person's approval ("" when it was not).
        self.approval_asked = ""
        #: The score sheet of the game so far, for (hand id, its events) (:meth:`game_sheet`).
        self._sheet: tuple[tuple[int, int] | None, ScoreSheet | None] = (None, None)
        #: Whether the last refusal was a name or PIN (wrong, locked, may not approve): an
        #: approval dialog then stays open for the PIN to be typed again.
        self.auth_refused = False

    # --- running an operation -------------------------------------------------------------

    def _run(self, what: str, op: Callable[[], None], *, redraw: bool = True) -> bool:
        """Run one service operation; on success the views redraw, on failure they don't. While
        another input is kept for Retry, it is refused (nothing replaces the kept input)."""
        self.auth_refused = False
        if self.pending is not None and op is not self.pending:
            self.last_error = self.kept_refusal()
            self.refused.emit(self.last_error)
            return False
        try:
            self._write_drops()
            op()
        except StoreUnavailable as exc:
            self.pending = op
            self.pending_what = what
            self.last_error = str(exc)
            self.failed.emit(str(exc))
            return False
        except ApprovalRequired as exc:
            self.last_error = str(exc)
            self.approval_asked = str(exc)
            self.approval_needed.emit(str(exc))
            return False
        except Conflict as exc:
            self.last_error = str(exc)
            self._reload()
            self.refused.emit(f"{exc} (the hand was reloaded)")
            self.changed.emit()
            return False
        except DealerAssistError as exc:
            self.last_error = str(exc)
            self.auth_refused = isinstance(exc, (SignInFailed, LockedOut, NotAllowed))
            self.refused.emit(str(exc))
            return False
        if self.pending is not None:
            self.pending = None
            self.pending_what = ""
            self.recovered.emit()
        self.last_error = ""
        if redraw:
            self.changed.emit()
        return True

    def kept_refusal(self) -> str:
        """Why any input is refused while one is kept (empty when none is)."""
        if self.pending is None:
            return ""
        return (f"not recorded yet and kept: {self.pending_what}. Send it with Retry [F5] "
                "when the database is back, or drop it [Shift+F5], before anything else")

    def retry(self) -> bool:
        """Run the operation the database refused, exactly as it was entered (with none kept,
        write any drop still waiting for the database)."""
        op = self.pending
        if op is None:
            if self.drops:
                return self._run("write the dropped inputs to the audit log", lambda: None)
            return False
        return self._run(self.pending_what, op)

    #: What cannot be dropped: the hand is over and its chips must be pushed as recorded.
    UNDROPPABLE = "settle the hand"

    def drop(self) -> bool:
        """Throw the kept input away, on the dealer's word; the drop is written to the audit log
        (with the input's words) when the database answers. A settlement cannot be dropped."""
        if self.pending is None:
            self.refused.emit("no input is kept: nothing to drop")
            return False
        if self.pending_what == self.UNDROPPABLE:
            self.refused.emit("the hand is over: its settlement cannot be dropped; press Retry "
                              "[F5] when the database is back")
            return False
        table_id = self.table.id if self.table is not None else None
        hand_id = self.now.hand.id if self.now is not None else None
        self.drops.append((self.pending_what, table_id, hand_id))
        self.pending = None
        self.pending_what = ""
        self.recovered.emit()
        self.changed.emit()
        return True

    def write_drops(self) -> bool:
        """Write the dropped inputs' audit entries now (before signing out); False, with
        ``last_error`` saying why, when the database does not take them (they stay waiting,
        and nothing is kept for Retry in their place)."""
        try:
            self._write_drops()
        except DealerAssistError as exc:
            self.last_error = str(exc)
            return False
        return True

    def _write_drops(self) -> None:
        """The dropped inputs into the audit log, oldest first, each once."""
        while self.drops:
            words, table_id, hand_id = self.drops[0]
            self.services.drop_kept(self.session, words, table_id=table_id, hand_id=hand_id)
            self.drops.pop(0)

    def words(self, event: Event) -> str:
        """An input in the words the hand's history would give it ("Seat 2 calls $1")."""
        now = self.now
        if now is not None:
            try:
                lines = now.game.narrate(now.state, event, now.game.apply(now.state, event))
            except DealerAssistError:
                lines = []
            if lines:
                return " / ".join(lines)
        body = event.to_json()
        kind = body.pop("type", event.TYPE)
        return " ".join([str(kind), *(f"{k} {v}" for k, v in body.items())])

    def _reload(self) -> None:
        if self.now is not None:
            self.now = self.services.hand_now(self.now.hand.id)
