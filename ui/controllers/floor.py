"""The floor console's controller: hands across tables, replay, reveal, disputes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.engine.base import (
    TableView,
    called_off,
)
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.services import (
    Adjustment,
    Approval,
    Dispute,
    Hand,
    HandFilter,
    Services,
    Session,
    StoreUnavailable,
)
from dealer_assist.ui.qt import QObject, Signal


class FloorController(QObject):
    """The floor console: hands across tables, replay, reveal, disputes, exports."""

    changed = Signal()
    refused = Signal(str)
    failed = Signal(str)

    def __init__(self, services: Services, session: Session) -> None:
        super().__init__()
        self.services = services
        self.session = session
        self.hands: list[Hand] = []
        self.filter = HandFilter()
        self.hand: Hand | None = None
        self.replay: Any = None
        self.revealed = False
        self.reveal_reason = ""

    def _guard(self, op: Callable[[], Any]) -> Any:
        try:
            return op()
        except StoreUnavailable as exc:
            self.failed.emit(str(exc))
        except DealerAssistError as exc:
            self.refused.emit(str(exc))
        return None

    def search(self, flt: HandFilter) -> list[Hand]:
        self.filter = flt
        hands = self._guard(lambda: self.services.list_hands(flt))
        self.hands = hands if hands is not None else []
        self.changed.emit()
        return self.hands

    def open_hand(self, hand_id: int) -> bool:
        def op() -> bool:
            self.replay = self.services.hand_replay(hand_id)
            self.hand = self.services.hand(hand_id)
            self.revealed = False
            return True

        ok = bool(self._guard(op))
        self.changed.emit()
        return ok

    def step_view(self, step: int) -> TableView | None:
        """The table as it stood after event ``step`` (1-based); destroyed hands face up once
        the floor has revealed the hand (that reveal is logged)."""
        if self.replay is None:
            return None
        steps = self.replay.steps
        n = max(1, min(step, len(steps)))
        st = steps[n - 1]
        view: TableView = self.replay.game.view(st.state, reveal=self.revealed)
        misdeal = self.replay.misdeal
        if misdeal is not None and any(
            s.event is misdeal for s in steps[:n]
        ):
            view = called_off(view, misdeal.reason)
        return view

    def reveal(self, step: int, reason: str = "") -> TableView | None:
        if self.hand is None:
            return None
        hand_id = self.hand.id
        view = self._guard(lambda: self.services.reveal(self.session, hand_id, step=step,
                                                        reason=reason))
        if view is not None:
            self.revealed = True
            self.reveal_reason = reason.strip()
            self.changed.emit()
        return view  # type: ignore[no-any-return]

    def reveals(self) -> list[Any]:
        if self.hand is None:
            return []
        hand_id = self.hand.id
        out = self._guard(lambda: self.services.reveals(hand_id))
        return out if out is not None else []

    def disputes(self) -> list[Dispute]:
        if self.hand is None:
            return []
        hand_id = self.hand.id
        out = self._guard(lambda: self.services.disputes(hand_id))
        return out if out is not None else []

    def record_dispute(
        self, notes: str, ruling: str, adjustments: list[Adjustment], approval: Approval | None
    ) -> Dispute | None:
        """Record a dispute; a refusal is told (``refused``), not raised."""
        if self.hand is None:
            self.refused.emit("choose a hand first")
            return None
        return self._guard(lambda: self.dispute_now(notes, ruling, adjustments, approval))  # type: ignore[no-any-return]

    def dispute_now(
        self, notes: str, ruling: str, adjustments: list[Adjustment], approval: Approval | None
    ) -> Dispute:
        """Record a dispute on the open hand, raising a refusal (the dispute dialog shows it
        and stays open). Adjustments need another floor person's name and PIN: never the
        signed-in floor person's own (the services refuse it and say who may approve)."""
        if self.hand is None:
            raise BadInput("choose a hand first")
        hand_id = self.hand.id
        d = self.services.record_dispute(
            self.session, hand_id, notes=notes, ruling=ruling, adjustments=adjustments,
            approval=approval,
        )
        self.hand = self.services.hand(hand_id)
        self.changed.emit()
        return d
