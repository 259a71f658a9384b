"""Time collection: seats in and out, period marks, and the collections they make."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from dealer_assist.errors import BadInput, DealerAssistError, RuleViolation
from dealer_assist.events import Event, Period, SeatIn, SeatOut, Void
from dealer_assist.fees import FeePolicy, time_apply
from dealer_assist.money import format_cents

#: Wrong PINs in a row that lock a user, and for how long.
from dealer_assist.services.base import (
    Approval,
    TimeNow,
    _body,
    _fee_text,
)
from dealer_assist.services.errors import (
    ApprovalRequired,
)
from dealer_assist.services.model import (
    LedgerLine,
    NewEvent,
    Session,
    StoredEvent,
)
from dealer_assist.services.shifts import ShiftServices
from dealer_assist.services.timeacct import (
    TimeMark,
    fold_time,
    new_lines,
    time_policy_of,
)
from dealer_assist.settings import (
    parse_table_settings,
)


class TimeServices(ShiftServices):
    """A table's time account: seats in and out and the period marks that collect."""

    # --- time collection: seat in, seat out, period marks ---------------------------------
    def time_policy(self, table_id: int) -> FeePolicy | None:
        """The table's time collection policy (current settings), or None if its fee is not
        charged by time (the screen then shows no seat or period controls)."""
        row = self.store.latest_settings(table_id)
        return None if row is None else time_policy_of(row)

    def time_now(self, table_id: int) -> TimeNow:
        """The table's time account folded from its stored seat and period events."""
        table = self.table(table_id)
        current = self.settings(table.id)
        policy = time_policy_of(current)
        if policy is None:
            raise RuleViolation(
                f"{table.name} does not collect time (its fee is "
                f"{_fee_text(current)}): there are no seats to mark in or out"
            )
        rows = self.store.table_level_events(table.id)
        versions = self.store.settings_versions(table.id)
        fold = fold_time(table.id, table.name, versions, rows, current)
        if fold.problem is not None or fold.state is None:
            why = fold.problem.message if fold.problem is not None else "no account"
            raise DealerAssistError(
                f"{table.name}'s seat and period record cannot be read ({why}): call the floor "
                "and run dealer-assist verify"
            )
        parsed = parse_table_settings(current.document, source=table.name)
        last = rows[-1] if rows else None
        collect = tuple(x for x in self.store.time_ledger(table.id)
                        if last is not None and x.seq == last.seq)
        return TimeNow(
            table=table, settings=current, policy=policy, state=fold.state,
            seats=parsed.seats, events=len(rows), last=last, collect=collect,
        )

    def seat_in(self, session: Session, table_id: int, seat: int) -> TimeNow:
        """A player sits down at ``seat`` and starts owing time (whole billing: with more than
        half the running period left, that period is collected at once)."""
        return self.record_time(session, table_id, SeatIn(seat=seat))

    def seat_out(self, session: Session, table_id: int, seat: int) -> TimeNow:
        """The player at ``seat`` leaves or sits out (prorated billing collects the minutes)."""
        return self.record_time(session, table_id, SeatOut(seat=seat))

    def mark_period(self, session: Session, table_id: int) -> TimeNow:
        """The period mark: time is collected from every seated seat; ``collect`` lists it."""
        return self.record_time(session, table_id, Period())

    def record_time(self, session: Session, table_id: int, event: Event) -> TimeNow:
        """Check a seat_in / seat_out / period event against the table's time account, then
        append it to the table's chain with the collections it makes, in one transaction."""
        self._require(session, "deal", "mark seats and collect time")
        if not isinstance(event, SeatIn | SeatOut | Period):
            raise RuleViolation(
                f'"{event.TYPE}" is not a seat or period event: record it in a hand'
            )
        table = self.table(table_id)
        if self.store.current_shift(table.id) is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        now = self.time_now(table.id)
        if isinstance(event, SeatIn | SeatOut) and event.seat not in now.seats:
            raise RuleViolation(
                f"seat {event.seat} is not a seat at {table.name} (its seats are "
                f"{', '.join(str(s) for s in now.seats)})"
            )
        at = self.clock()
        after = time_apply(now.state, at, event)  # RuleViolation: nothing stored
        made = new_lines(now.state, after, table_id=table.id, seq=0)
        row, lines = self.store.append_table_event(
            table.id, expected=now.events,
            event=NewEvent(body=_body(event), actor=session.name, time=at), lines=made,
        )
        state = replace(after, last_at=row.time)
        return replace(
            now, state=state, events=now.events + 1, collect=tuple(lines), last=row,
        )

    def time_marks(self, table_id: int) -> list[TimeMark]:
        """The table's seat and period marks (and voids), in order, for the dealer to pick one
        to void: number, time, what ("seat 4 in", "period 3"), and which void voided it."""
        table = self.table(table_id)
        rows = self.store.table_level_events(table.id)
        fold = fold_time(table.id, table.name, self.store.settings_versions(table.id), rows,
                         self.settings(table.id), marks=True)
        return list(fold.marks)

    def void_time(
        self, session: Session, table_id: int, target: int, reason: str, *,
        approval: Approval | None = None,
    ) -> TimeNow:
        """Void the table's seat or period mark number ``target`` with a reason. The account is
        folded again without it; the void's time lines give back (negative) or collect
        (positive), per seat, the difference between what is now owed and what was collected.
        A void that moves money needs a floor person's approval; ``collect`` lists the moves."""
        self._require(session, "deal", "void seat and period marks")
        if not reason.strip():
            raise BadInput("a void needs a reason: say what went wrong")
        table = self.table(table_id)
        if self.store.current_shift(table.id) is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        now = self.time_now(table.id)
        void = Void(target=target, reason=reason.strip())
        rows = self.store.table_level_events(table.id)
        at = self.clock()
        trial = StoredEvent(
            table_id=table.id, seq=-1, hand_id=None, number=len(rows) + 1, actor=session.name,
            time=at, body=_body(void), prev_hash="", hash="",
        )
        fold = fold_time(table.id, table.name, self.store.settings_versions(table.id),
                         [*rows, trial], now.settings, marks=True)
        if fold.problem is not None:
            if fold.problem.seq == trial.seq:
                raise RuleViolation(fold.problem.reason)
            raise DealerAssistError(
                f"{table.name}'s seat and period record cannot be read "
                f"({fold.problem.message}): call the floor and run dealer-assist verify"
            )
        made = [replace(x, seq=0) for x in fold.lines if x.seq == trial.seq]
        what = next(m.what for m in fold.marks if m.number == target)
        moves = "; ".join(
            f"seat {x.seat} {'give back' if x.amount < 0 else 'collect'} "
            f"{format_cents(abs(x.amount))}" for x in made
        )
        if made and approval is None:
            raise ApprovalRequired(
                f"voiding mark {target} ({what}) moves money ({moves}): a floor person must "
                "approve it with their PIN"
            )
        approved = None
        if approval is not None:
            approved = self.approve(approval, what=f"void of {table.name} mark {target} ({what})",
                                    table_id=table.id, session=session).entry
        row, lines = self.store.append_table_event(
            table.id, expected=now.events,
            event=NewEvent(body=_body(void), actor=session.name, time=at, approval_id=approved),
            lines=made,
        )
        detail = f"table mark {target} ({what}): {void.reason}"
        if made:
            detail += f"; {moves}"
        if approval is not None:
            detail += f"; approved by {approval.name}"
        self._audit(session.name, "void", detail, table_id=table.id)
        assert fold.state is not None  # the fold stood, under the current settings
        return replace(now, state=replace(fold.state, last_at=row.time), events=now.events + 1,
                       collect=tuple(lines), last=row)

    def time_collections(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        """Recorded time collections (one table or all), with the time they were collected."""
        return self.store.time_ledger(table_id, since=since, until=until)
