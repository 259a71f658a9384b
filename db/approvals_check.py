"""``verify``: every change that needs a floor person's approval has it (schema 0016).

A misdeal, a void in a finished hand, a floor decision, dispute adjustments, a shift close and
a hand start that changes what the last hand carries each carry the id of their ``approval``
audit entry; this names every one whose approval is missing, is not a floor person's, is of
another subject (:mod:`dealer_assist.services.approvals`, the words the services write), was
given by the person it approves, or was spent on another change too. A settings version (and
so a table) must be created by a floor person or an admin. On PostgreSQL the database already
refuses these from a station (schema 0016); on SQLite, where whoever has the file can write
anything, this is what notices. A change written before schema 0016 (no approval id) is taken
with an unused approval entry of exactly its subject, table and hand; one without is a note
(the app of that time did not ask every approval), not a fault: the upgrade to 0016 wrote the
last ids it found in an ``approvals-baseline`` audit entry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text

from dealer_assist.db.bootstrap import Database
from dealer_assist.errors import DealerAssistError
from dealer_assist.services import approvals as ap
from dealer_assist.services.handrules import NEW_GAME, HandStart, floor_events, recorded_changes
from dealer_assist.services.verify import Problem

#: The audit entry the upgrade to schema 0016 writes: the last ids of events, disputes and
#: shifts written before changes carried their approval.
BASELINE = "approvals-baseline"

#: How long a change written before schema 0016 may follow the approval it is matched to.
LEGACY_WINDOW = timedelta(minutes=10)


@dataclass(frozen=True, slots=True)
class _Approval:
    id: int
    at: datetime
    actor: str
    detail: str
    table_id: int | None
    hand_id: int | None


def _aware(value: Any) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Note(Problem):
    """A change from before schema 0016 with no approval on record: named, not a fault."""

    def __str__(self) -> str:
        return self.message


class _Judge:
    """The one approval rule as verify applies it: each change against its approval entry."""

    def __init__(self, approvals: Iterable[_Approval], roles: Mapping[str, str]) -> None:
        self.approvals = {a.id: a for a in approvals}
        self.roles = roles
        self.spent: dict[int, str] = {}
        self.findings: list[str] = []
        self.notes: list[Problem] = []

    def check(
        self, what: str, approval_id: int | None, *, subject: str, table_id: int | None,
        hand_id: int | None, at: datetime, by: str | None = None, prefix: bool = False,
        approver: str | None = None, old: bool = False,
    ) -> None:
        """Name ``what`` unless its approval (or, before schema 0016, an unused approval entry
        of its subject) approves exactly it; ``old``: written before schema 0016."""
        if approval_id is None:
            legacy = self._legacy(subject, table_id, hand_id, at)
            if legacy is None and old:
                self.notes.append(Note(table_id or 0, "", 0, f"{what}: written before schema "
                                       "0016 with no approval on record", hand_id))
                return
            if legacy is None:
                self.findings.append(f"{what}: no floor person's approval of it (it carries "
                                     "none, and no approval entry is of it)")
                return
            approval_id = legacy.id
        found = self.approvals.get(approval_id)
        if found is None:
            self.findings.append(f"{what}: its approval, audit entry {approval_id}, is not an "
                                 "approval on the audit log")
            return
        said = found.detail.startswith(subject) if prefix else found.detail == subject
        if not said or found.table_id != table_id or found.hand_id != hand_id:
            self.findings.append(f'{what}: its approval, audit entry {approval_id} by '
                                 f'{found.actor}, approves "{found.detail}", not this change')
            return
        if self.roles.get(found.actor) not in ap.APPROVERS:
            self.findings.append(f"{what}: approved by {found.actor} (audit entry "
                                 f"{approval_id}), who is not a floor person")
        if by is not None and found.actor == by and self.roles.get(by) in ap.APPROVERS:
            self.findings.append(f"{what}: approved by {by}, the person who made the change "
                                 f"(audit entry {approval_id})")
        if approver is not None and found.actor != approver:
            self.findings.append(f"{what}: the row says {approver} approved it, its approval "
                                 f"entry {approval_id} is {found.actor}'s")
        other = self.spent.get(approval_id)
        if other is not None:
            self.findings.append(f"{what}: its approval (audit entry {approval_id}) was "
                                 f"already spent on {other}")
        else:
            self.spent[approval_id] = what

    def _legacy(self, subject: str, table_id: int | None, hand_id: int | None,
                at: datetime) -> _Approval | None:
        for a in self.approvals.values():
            if (a.id not in self.spent and a.detail == subject and a.table_id == table_id
                    and a.hand_id == hand_id and a.at <= at + timedelta(seconds=1)
                    and at - a.at <= LEGACY_WINDOW):
                return a
        return None


def check_approvals_db(db: Database) -> tuple[list[str], list[Problem]]:
    """Every approved change in the database against its approval (see the module's words):
    the faults, and the notes of changes from before schema 0016."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)

        def rows(sql: str, **params: Any) -> list[Any]:
            return list(conn.execute(text(sql), params))

        return approval_findings(rows)


def _baseline(rows: Callable[..., list[Any]]) -> dict[str, int]:
    found = rows(f"SELECT detail FROM audit_log WHERE action = '{BASELINE}' ORDER BY id")
    if not found:
        return {}
    try:
        mark = json.loads(found[-1].detail)
        return {k: int(mark.get(k) or 0) for k in ("events", "disputes", "shifts")}
    except (ValueError, TypeError, AttributeError):
        return {}


def approval_findings(rows: Callable[..., list[Any]]) -> tuple[list[str], list[Problem]]:
    """The findings and notes, from ``rows(sql, **params)`` (one read of the database)."""
    roles = {r.name: r.role for r in rows("SELECT name, role FROM users")}
    approvals = [
        _Approval(int(r.id), _aware(r.at), r.actor or "", r.detail or "", r.table_id, r.hand_id)
        for r in rows("SELECT id, at, actor, detail, table_id, hand_id FROM audit_log "
                      "WHERE action = 'approval' ORDER BY id")
    ]
    judge = _Judge(approvals, roles)
    before = _baseline(rows)
    tables = {int(r.id): r.name for r in rows("SELECT id, name FROM card_tables")}
    _events(rows, judge, tables, before.get("events", 0))
    _disputes(rows, judge, before.get("disputes", 0))
    _shifts(rows, judge, before.get("shifts", 0))
    configured: set[int] = set()
    for r in rows("SELECT s.table_id, s.version, s.created_by FROM table_settings s "
                  "ORDER BY s.id"):
        configured.add(int(r.table_id))
        if roles.get(r.created_by) not in ap.CONFIGURERS:
            judge.findings.append(
                f"{tables.get(int(r.table_id), r.table_id)}: settings version {r.version} was "
                f"created by {r.created_by}, who is not a floor person or an admin")
    judge.findings.extend(f"{name}: a table with no settings version (a table is added with "
                          "its first settings, by a floor person or an admin)"
                          for i, name in sorted(tables.items()) if i not in configured)
    return judge.findings, judge.notes


def _floor_kinds() -> set[str]:
    from dealer_assist.engine.registry import game_names

    kinds: set[str] = set()
    for name in game_names():
        kinds |= floor_events(name)
    return kinds


def _events(rows: Callable[..., list[Any]], judge: _Judge, tables: Mapping[int, str],
            before: int) -> None:
    kinds = sorted(_floor_kinds() | {"misdeal", "void"})
    marks = ", ".join(f":k{i}" for i in range(len(kinds)))
    found = rows(
        "SELECT e.id, e.table_id, e.hand_id, e.number, e.time, e.actor, e.type, e.body, "
        "e.approval_id, h.number AS hand_number, h.game, h.settings_id FROM events e "
        "LEFT JOIN hands h ON h.id = e.hand_id "
        f"WHERE e.approval_id IS NOT NULL OR e.type IN ({marks}) ORDER BY e.table_id, e.seq",
        **{f"k{i}": k for i, k in enumerate(kinds)})
    previous = _previous_hands(rows)
    for r in found:
        table = tables.get(int(r.table_id), str(r.table_id))
        at = _aware(r.time)
        try:
            body = json.loads(r.body)
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        if r.hand_id is None:  # a table mark's void: bound to its table
            if r.approval_id is not None:
                judge.check(f"{table} table event {r.number} (void of a mark)", r.approval_id,
                            subject=f"void of {table} mark {body.get('target')} (",
                            table_id=int(r.table_id), hand_id=None, at=at, by=r.actor,
                            prefix=True)
            continue
        if r.settings_id is None:
            continue  # an imported hand: its own log, no floor of this room's
        what = f"{table} hand {r.hand_number} event {r.number} ({r.type})"
        if r.type == "start":
            after = previous.get(int(r.hand_id), 0)
            judge.check(what, r.approval_id, subject=ap.start_prefix(table, after),
                        table_id=int(r.table_id), hand_id=None, at=at, by=r.actor, prefix=True)
            continue
        if r.type == "void" and r.approval_id is None and not _after_the_end(
                rows, int(r.hand_id), int(r.number)):
            continue  # a void while the hand is being dealt: the dealer's
        if r.type not in ("misdeal", "void") and r.type not in floor_events(r.game):
            judge.check(what, r.approval_id, subject="an event that needs no approval",
                        table_id=int(r.table_id), hand_id=int(r.hand_id), at=at)
            continue
        by = r.actor if r.type in ("misdeal", "void") else None
        judge.check(what, r.approval_id,
                    subject=ap.subject_of_event(r.type, int(r.hand_number), body),
                    table_id=int(r.table_id), hand_id=int(r.hand_id), at=at, by=by,
                    old=int(r.id) <= before)


def _previous_hands(rows: Callable[..., list[Any]]) -> dict[int, int]:
    """By hand id, the number of the table's last hand before it that is not imported (0:
    none): the hand whose carry a start's approval changes."""
    out: dict[int, int] = {}
    last: dict[int, int] = {}
    for r in rows("SELECT id, table_id, number, settings_id FROM hands "
                  "ORDER BY table_id, number"):
        out[int(r.id)] = last.get(int(r.table_id), 0)
        if r.settings_id is not None:
            last[int(r.table_id)] = int(r.number)
    return out


def _after_the_end(rows: Callable[..., list[Any]], hand_id: int, number: int) -> bool:
    """Whether the hand's events before event ``number`` make a finished hand (a void then
    needs the floor); a hand that does not replay is named by its own replay."""
    from dealer_assist.engine.hand import replay
    from dealer_assist.engine.log import hand_events

    bodies = [r.body for r in rows("SELECT body FROM events WHERE hand_id = :h AND number < :n "
                                   "ORDER BY number", h=hand_id, n=number)]
    try:
        return replay(hand_events(json.loads(b) for b in bodies)).over
    except (DealerAssistError, ValueError, RecursionError, KeyError, TypeError):
        return False


def _disputes(rows: Callable[..., list[Any]], judge: _Judge, before: int) -> None:
    adjustments: dict[int, list[tuple[int | None, int]]] = {}
    for r in rows("SELECT dispute_id, seat, amount FROM dispute_adjustments ORDER BY id"):
        adjustments.setdefault(int(r.dispute_id), []).append((r.seat, int(r.amount)))
    for r in rows("SELECT d.id, d.hand_id, d.floor, d.at, d.approval_id, h.number, h.table_id "
                  "FROM disputes d JOIN hands h ON h.id = d.hand_id ORDER BY d.id"):
        moved = adjustments.get(int(r.id))
        if not moved and r.approval_id is None:
            continue
        judge.check(f"dispute {r.id} on hand {r.number} (adjustments)", r.approval_id,
                    subject=ap.adjustments_subject(int(r.number), moved or []),
                    table_id=int(r.table_id), hand_id=int(r.hand_id), at=_aware(r.at),
                    by=r.floor, old=int(r.id) <= before)


def _shifts(rows: Callable[..., list[Any]], judge: _Judge, before: int) -> None:
    for r in rows("SELECT id, table_id, closed_at, closed_by, closed_floor, close_approval_id "
                  "FROM shifts WHERE closed_at IS NOT NULL ORDER BY id"):
        if r.closed_by is not None and r.closed_by == r.closed_floor:
            continue  # an imported hand's shift: opened and closed by the import itself
        judge.check(f"shift {r.id} closed by {r.closed_by}", r.close_approval_id,
                    subject=ap.shift_subject(int(r.id)), table_id=int(r.table_id),
                    hand_id=None, at=_aware(r.closed_at), by=r.closed_by,
                    approver=r.closed_floor, old=int(r.id) <= before)


def start_approvals(
    fetch: Callable[..., list[tuple[Any, ...]]], starts: Mapping[int, Sequence[HandStart]],
    changes: Mapping[int, set[str]],
) -> dict[int, set[str]]:
    """By hand id, what a floor person approved of its start: the changes its approval's
    subject lists (read as a ``stacks`` entry is: seats, carry-in, new game). Before schema
    0016 a new game was approved as "a new game at <table>" just before its start, and a hand
    started then is held to the rule of its time: its ``stacks`` entry (``changes``)."""
    ids = sorted({h.approval_id for rows in starts.values() for h in rows
                  if h.approval_id is not None})
    details: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        details.update((int(a), str(d)) for a, d in fetch(
            "SELECT id, detail FROM audit_log WHERE action = 'approval' AND id IN ("
            + ",".join(str(int(x)) for x in chunk) + ")"))
    legacy = [(t, _aware(at)) for t, at in fetch(
        "SELECT table_id, at FROM audit_log WHERE action = 'approval' AND "
        "substr(detail, 1, 14) = 'a new game at ' ORDER BY id")]
    out: dict[int, set[str]] = {}
    marks = fetch(f"SELECT detail FROM audit_log WHERE action = '{BASELINE}' ORDER BY id")
    if marks:
        try:
            last = int(json.loads(marks[-1][0]).get("events") or 0)
        except (ValueError, TypeError, AttributeError):
            last = 0
        for (hand_id,) in fetch("SELECT hand_id FROM events WHERE number = 1 AND hand_id IS "
                                f"NOT NULL AND id <= {last}"):
            if int(hand_id) in changes:
                out.setdefault(int(hand_id), set()).update(changes[int(hand_id)])
    for rows in starts.values():
        for h in rows:
            if h.approval_id is not None and h.approval_id in details:
                detail = details[h.approval_id]
                if detail.startswith("start at "):
                    for hand_id, marked in recorded_changes(
                            [(h.hand_id, "stacks", detail)]).items():
                        out.setdefault(hand_id, set()).update(marked)
            elif h.approval_id is None:
                for t, at in legacy:
                    if t == h.table_id and at <= h.time and h.time - at <= LEGACY_WINDOW:
                        out.setdefault(h.hand_id, set()).add(NEW_GAME)
                        legacy.remove((t, at))
                        break
    return out
