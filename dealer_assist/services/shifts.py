"""Shifts: opened by a dealer with a floor person, closed with the floor's approval and a
signed checkpoint."""

from __future__ import annotations

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.services.approvals import shift_subject

#: Wrong PINs in a row that lock a user, and for how long.
from dealer_assist.services.base import (
    Approval,
)
from dealer_assist.services.dealer_handlers import sign_in_at_table
from dealer_assist.services.dealer_hooks import StoreHands, deals_here, shift_down_at
from dealer_assist.services.errors import (
    ApprovalRequired,
    NotFound,
)
from dealer_assist.services.hands import HandServices
from dealer_assist.services.model import (
    HandFilter,
    Session,
    Shift,
)

#: The audit action of a shift close at a station without the room's key (nothing signed).
NO_CHECKPOINT = "no-checkpoint"


class ShiftServices(HandServices):
    """A table's shifts: who dealt, who was the floor, and the checkpoint at each close."""

    # --- shifts ------------------------------------------------------------------------------
    def open_shift(
        self, session: Session, table_id: int, *, floor: str, approval: Approval | None = None,
    ) -> Shift:
        """The signed-in dealer opens a shift at a table under a named floor person. One dealer
        deals one table: with a shift already open at another table, opening this one needs a
        floor person's approval (someone else's), or the other shift closed first. With the
        dealer box, a dealer's down moves here as they open it (one table at a time), unless a
        hand is in play at their table: then it stays there until they sign in here."""
        self._require(session, "deal", "open a shift")
        table = self.table(table_id)
        current = self.store.current_shift(table.id)
        if current is not None:
            raise RuleViolation(
                f"{table.name} already has an open shift (opened by {current.dealer}): "
                "close it first"
            )
        floor_user = self._secret(floor).user
        if floor_user.role != "floor" or not floor_user.active:
            raise BadInput(f"{floor} is not an active floor person")
        self.settings(table.id)
        other = [s for s in self.store.list_shifts() if s.open and s.dealer == session.name]
        if self.dealer_box is not None:  # a shift of theirs another dealer deals now is not
            other = [s for s in other if deals_here(self, session, s.table_id, s)]
        if other:
            names = ", ".join(self.table(s.table_id).name for s in other)
            what = f"{session.name} dealing {table.name} as well as {names}"
            if approval is None:
                raise ApprovalRequired(
                    f"{session.name} already deals {names} (a shift open there): close that "
                    f"shift first (Close shift [X]), or a floor person allows {what}"
                )
            self.approve(approval, what=what, table_id=table.id, session=session)
        if self.dealer_box is not None and session.role == "dealer":  # one table at a time
            try:
                sign_in_at_table(self.dealer_box, StoreHands(self), session, table.id,
                                 now=self.clock())
            except RuleViolation:
                if not other:
                    raise
                # the floor allowed this shift: the dealer's down stays with the hand in
                # play; they sign in here between hands
        shift = self.store.open_shift(
            table_id=table.id, dealer=session.name, floor=floor_user.name, at=self.clock()
        )
        self._audit(
            session.name, "shift-opened", f"{table.name}, floor {floor_user.name}",
            table_id=table.id,
        )
        return shift

    def close_shift(self, session: Session, shift_id: int, *, approval: Approval) -> Shift:
        """Close a shift with the floor's sign-off; refused while a hand is still being dealt."""
        self._require(session, "deal", "close a shift")
        shift = self.shift(shift_id)
        if not shift.open:
            raise RuleViolation(f"shift {shift.id} is already closed")
        for hand in self.store.list_hands(HandFilter(shift_id=shift.id, status="open", limit=5)):
            if not self.hand_now(hand.id).over:
                raise RuleViolation(
                    f"hand {hand.number} is not finished: finish and settle it before closing"
                )
            raise RuleViolation(
                f"hand {hand.number} is finished but not settled: settle it (push the chips "
                "and record it) before closing the shift"
            )
        floor = self.approve(approval, what=shift_subject(shift.id),
                             table_id=shift.table_id, session=session)
        closed = self.store.close_shift(
            shift.id, dealer=session.name, floor=floor.name, at=self.clock(),
            approval_id=floor.entry,
        )
        self._audit(
            session.name, "shift-closed", f"shift {shift.id}, floor {floor.name}",
            table_id=shift.table_id,
        )
        if self.sealer is not None:
            seal = self.sealer.close_of_shift(f"shift {shift.id} closed")
            self.last_seal = seal
            action = "checkpoint" if seal.ok else (
                "verify-failed" if seal.fingerprint else NO_CHECKPOINT)
            self._audit(session.name, action, seal.message, table_id=shift.table_id)
        return closed

    def shift(self, shift_id: int) -> Shift:
        shift = self.store.get_shift(shift_id)
        if shift is None:
            raise NotFound(f"there is no shift {shift_id}")
        return shift

    def current_shift(self, table_id: int) -> Shift | None:
        return self.store.current_shift(table_id)

    def list_shifts(self, table_id: int | None = None) -> list[Shift]:
        return self.store.list_shifts(table_id)

    def shift_to_resume(self, session: Session) -> Shift | None:
        """The open shift a dealer signing in goes back to (after a crash or a restart): of the
        shifts open in their name, the one whose table has an unfinished hand dealt in it (the
        latest such hand), else the latest shift. A dealer the floor allowed several tables
        comes back to the hand they were dealing, not to an idle table."""
        if self.dealer_box is not None and session.role == "dealer":
            return shift_down_at(self, session)  # where their down is, whoever opened it
        mine = [s for s in self.store.list_shifts() if s.open and s.dealer == session.name]
        if not mine:
            return None
        unfinished: list[tuple[int, Shift]] = []
        for shift in mine:
            hand = self.store.last_hand(shift.table_id)
            if hand is not None and hand.status == "open" and hand.shift_id == shift.id:
                unfinished.append((hand.id, shift))
        if unfinished:
            return max(unfinished, key=lambda x: x[0])[1]
        return max(mine, key=lambda s: s.id)
