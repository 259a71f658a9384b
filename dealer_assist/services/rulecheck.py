"""Rules the stations enforce at input, re-checked on the records (``verify`` and the audit
report): whatever let a record in (an old version, a station's bug, a hand on the database), a
breach is named with its records.

- One dealer deals one table at a time: a shift opened while the same dealer's shift at another
  table was still open needs a floor approval naming both ("dee dealing T2 as well as T1").
- The audit log's times run forward: an entry dated before the entry recorded just ahead of it
  (by more than the room's clock tolerance) is named, unless it came in a station's journal
  batch, whose entries keep the times they were made at.
- No one approves their own action: an approval entry whose approved action (the void, misdeal,
  shift close, count, floor decision or dispute it was given for, recorded right after it) was
  taken by the approver.
- A count team is independent of the shift it counts: a counter who dealt it, was its floor
  person, or approved its voids, misdeals or disputes, signs its count only with a second floor
  approval recorded in the count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from dealer_assist.services.chain import utc
from dealer_assist.services.model import AuditEntry, Shift
from dealer_assist.services.reads import Reads
from dealer_assist.services.room import COUNT_ACTION, Count

#: How long after an approval the action it approves is looked for (an approval ticket is good
#: for two minutes; a station writes the action at once).
APPROVED_WITHIN = timedelta(minutes=10)

#: An approval's subject (its entry's detail) and the action entry it approves.
_APPROVES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^void of event \d+ in hand \d+$"), "void"),
    (re.compile(r"^void of .+ mark \d+"), "void"),
    (re.compile(r"^misdeal of hand \d+$"), "misdeal"),
    (re.compile(r"^closing shift \d+$"), "shift-closed"),
    (re.compile(r"^count of drop box "), COUNT_ACTION),
    (re.compile(r"^adjustments? "), "dispute"),
    (re.compile(r"^\S+ in hand \d+$"), "floor-decision"),
)
_DEALING = re.compile(r"^(?P<dealer>\S+) dealing (?P<table>.+) as well as (?P<others>.+)$")


@dataclass(frozen=True, slots=True)
class RuleFinding:
    """One breach: which rule, when (the offending record's time) and what, with its records."""

    rule: str
    at: datetime
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


@dataclass(frozen=True, slots=True)
class RuleRecords:
    """What the rules are checked on, read from any store (plain rows)."""

    audit: Sequence[AuditEntry]
    shifts: Sequence[Shift]
    #: user name -> full name
    names: Mapping[str, str]
    #: table id -> name
    tables: Mapping[int, str]
    #: hand id -> shift id
    hand_shift: Mapping[int, int]
    #: (hand id, floor person) of each dispute
    dispute_floors: Sequence[tuple[int, str]] = ()
    tolerance: timedelta = timedelta(minutes=5)
    #: user name -> (role, enabled) as stored now: a name with no record on the chain yet
    roles: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    #: audit entry number -> the drop count it records (its typed row, schema 0022)
    counts: Mapping[int, Count] = field(default_factory=dict)
    #: When the room's first dealer down was recorded: from then on the dealer box holds one
    #: table per dealer (by downs, checked in ``db/dealer_box_verify``), not open shifts.
    downs_since: datetime | None = None


def _when(t: datetime) -> str:
    return f"{utc(t):%Y-%m-%d %H:%M:%S} UTC"


def _num(e: AuditEntry) -> int:
    return e.seq or e.id


#: The audit action that accepts every record before it as it stands (schema 0007's upgrade,
#: a demo's bulk records): the rules are checked on what came after it.
BASELINE = "record-baseline"


def rule_findings(r: RuleRecords) -> list[RuleFinding]:
    """Every breach of the four rules, in the order of the records, after the latest baseline
    (records from before these checks existed were accepted as they stood)."""
    audit = sorted(r.audit, key=lambda e: (_num(e), e.id))
    base = max((i for i, e in enumerate(audit) if e.action == BASELINE), default=-1)
    since = utc(audit[base].at) if base >= 0 else None
    after = audit[base + 1:]
    shifts = [s for s in r.shifts if since is None or utc(s.opened_at) > since]
    return [*_dealer_at_two_tables(r, audit, shifts), *_times_backwards(r, after),
            *_own_approvals(after), *_count_independence(r, audit, after),
            *_room_record_roles(r, audit, after)]


def _room_record_roles(r: RuleRecords, audit: Sequence[AuditEntry],
                       checked: Sequence[AuditEntry]) -> list[RuleFinding]:
    """A count, drop, drop box, sign-off or room clock written in the name of someone who did
    not then hold a role that may write it (a dealer, a disabled name, no one), by the users'
    records on the chain before it."""
    import json

    from dealer_assist.services.room import SIGNED_ROLES

    checked_ids = {e.id for e in checked}
    roles: dict[str, tuple[str, bool]] = {}
    out = []
    for e in audit:
        if e.action == "record-user":
            try:
                state = json.loads(e.detail)
                roles[str(state["name"])] = (str(state["role"]), bool(state["active"]))
            except (ValueError, KeyError, TypeError):
                continue
            continue
        allowed = SIGNED_ROLES.get(e.action)
        if allowed is None or e.id not in checked_ids:
            continue
        role, active = roles.get(e.actor or "") or r.roles.get(e.actor or "", ("", False))
        if role not in allowed or not active:
            who = (f"{e.actor}, {'a disabled ' if role and not active else 'a '}{role}"
                   if role else f"{e.actor or 'no one'}, who is not a user")
            out.append(RuleFinding(
                "room record by a person without the role", utc(e.at),
                f"{e.action} entry {_num(e)} was written in the name of {who}: only a "
                f"{' or '.join(allowed)} writes it"))
    return out


def _table(r: RuleRecords, table_id: int) -> str:
    return r.tables.get(table_id, f"table record {table_id}")


def _dealer_at_two_tables(r: RuleRecords, audit: Sequence[AuditEntry],
                          checked: Sequence[Shift]) -> list[RuleFinding]:
    allowed = set()
    for e in audit:
        m = _DEALING.match(e.detail) if e.action == "approval" else None
        if m is not None:
            allowed.add((m["dealer"], m["table"]))
    out = []
    wanted = {s.id for s in checked}
    open_now: dict[str, list[Shift]] = {}  # by dealer: their shifts still open, in time order
    for b in sorted(r.shifts, key=lambda s: (utc(s.opened_at), s.id)):
        opened = utc(b.opened_at)
        still = [a for a in open_now.get(b.dealer, [])
                 if a.closed_at is None or utc(a.closed_at) > opened]
        open_now[b.dealer] = [*still, b]
        busy = [a for a in still if a.table_id != b.table_id]
        if r.downs_since is not None and opened >= utc(r.downs_since):
            continue
        if b.id not in wanted or not busy or (b.dealer, _table(r, b.table_id)) in allowed:
            continue
        others = "; ".join(f"{_table(r, a.table_id)} (shift {a.id}, open since "
                           f"{_when(a.opened_at)})" for a in busy)
        out.append(RuleFinding(
            "one dealer, one table", opened,
            f"dealer {b.dealer} opened shift {b.id} at {_table(r, b.table_id)} at "
            f"{_when(opened)} while dealing {others}, with no floor approval of dealing "
            "both"))
    return out


#: The audit action that closes a batch a station kept in its journal through an outage and
#: sent later: the batch's entries keep the times they were made at (docs/room.md).
JOURNAL_SYNC = "journal-sync"


def _journalled(audit: Sequence[AuditEntry], i: int) -> bool:
    """Entry ``i`` came in a journal's batch: the entries from it on, of its table, end in that
    batch's ``journal-sync`` entry."""
    table = audit[i].table_id
    for e in audit[i + 1:]:
        if e.action == JOURNAL_SYNC:
            return e.table_id == table
        if e.table_id != table:
            return False
    return False


def _times_backwards(r: RuleRecords, entries: Sequence[AuditEntry]) -> list[RuleFinding]:
    """The entries people made at the stations, each against the one before it (the entries
    with no one's name, the ``record-*`` ones and the baselines an upgrade writes, are the
    store's own stamps, in its clock)."""
    out = []
    before: AuditEntry | None = None
    for i, e in enumerate(entries):
        if not e.actor or e.action.startswith("record-") or e.action.endswith("-baseline"):
            continue
        last, before = before, e
        if last is None:
            continue
        if utc(e.at) < utc(last.at) - r.tolerance and not _journalled(entries, i):
            out.append(RuleFinding(
                "audit times run backwards", utc(e.at),
                f"audit entry {_num(e)} ({e.action} by {e.actor or 'nobody'}) is dated "
                f"{_when(e.at)}, before entry {_num(last)} ({last.action}) recorded ahead "
                f"of it at {_when(last.at)}"))
    return out


def _approved_action(detail: str) -> str | None:
    for pattern, action in _APPROVES:
        if pattern.search(detail):
            return action
    return None


def _own_approvals(audit: Sequence[AuditEntry]) -> list[RuleFinding]:
    out = []
    for i, e in enumerate(audit):
        if e.action != "approval" or not e.actor:
            continue
        m = _DEALING.match(e.detail)
        if m is not None:
            if m["dealer"] == e.actor:
                out.append(RuleFinding(
                    "an approval by the person it approves", utc(e.at),
                    f"audit entry {_num(e)}: {e.actor} approved their own {e.detail}"))
            continue
        action = _approved_action(e.detail)
        if action is None:
            continue
        for later in audit[i + 1:]:
            if utc(later.at) > utc(e.at) + APPROVED_WITHIN:
                break
            if (later.action == "approval" and later.detail == e.detail
                    and later.table_id == e.table_id and later.hand_id == e.hand_id):
                break  # approved again: that one goes with the action
            if (later.action == action and later.table_id == e.table_id
                    and (e.hand_id is None or later.hand_id == e.hand_id)):
                if later.actor == e.actor:
                    out.append(RuleFinding(
                        "an approval by the person it approves", utc(e.at),
                        f"audit entry {_num(e)}: {e.actor} approved the {e.detail} that they "
                        f"recorded themselves (entry {_num(later)}, {later.action})"))
                break
    return out


#: Why a person is not independent of a shift's count, in words.
ROLE_WORDS = {"approved": "approved its voids, misdeals or disputes",
              "dealer": "its dealer", "floor": "its floor person"}


def shift_people(shift: Shift, approvers: Iterable[str]) -> dict[str, str]:
    """The people a count of the shift must be independent of (user name -> ``dealer``,
    ``floor`` or ``approved``, :data:`ROLE_WORDS`): who dealt it and was its floor person,
    opening and closing, and who approved its voids, misdeals or disputes."""
    out: dict[str, str] = {}
    for name, why in ((shift.closed_floor, "floor"), (shift.floor, "floor"),
                      (shift.closed_by, "dealer"), (shift.dealer, "dealer")):
        if name:
            out[name] = why
    for name in approvers:
        out[name] = "approved"
    return out


def _count_independence(r: RuleRecords, audit: Sequence[AuditEntry],
                        checked: Sequence[AuditEntry]) -> list[RuleFinding]:
    shifts = {s.id: s for s in r.shifts}
    approvers: dict[int, set[str]] = {}
    for e in audit:
        if e.action == "approval" and e.hand_id is not None and e.actor:
            sid = r.hand_shift.get(e.hand_id)
            if sid is not None:
                approvers.setdefault(sid, set()).add(e.actor)
    for hand_id, floor in r.dispute_floors:
        sid = r.hand_shift.get(hand_id)
        if sid is not None and floor:
            approvers.setdefault(sid, set()).add(floor)
    out = []
    for e in checked:
        if e.action != COUNT_ACTION:
            continue
        c = r.counts.get(_num(e))
        if c is None or c.independence or c.shift_id not in shifts:
            continue
        people = shift_people(shifts[c.shift_id], approvers.get(c.shift_id, ()))
        full = {r.names.get(n, n): why for n, why in people.items()}
        named = [f"{m} ({ROLE_WORDS[full[m]]})" for m in c.team if m in full]
        if named:
            out.append(RuleFinding(
                "count team not independent", utc(e.at),
                f"count entry {_num(e)} (drop box {c.box}, shift {c.shift_id}) was counted by "
                f"{', '.join(named)} of that shift, with no second floor approval"))
    return out


def rule_records(store: Reads) -> RuleRecords:
    """The same rows read through the store port (the audit report, an in-memory room)."""
    from dealer_assist.services.counts import counts, room_clock_of
    from dealer_assist.services.model import HandFilter

    return RuleRecords(
        audit=store.audit_log(records=True), shifts=store.list_shifts(),
        names={u.name: u.full_name for u in store.list_users()},
        tables={t.id: t.name for t in store.list_tables()},
        hand_shift={h.id: h.shift_id for h in store.list_hands(HandFilter(limit=None))},
        dispute_floors=[(d.hand_id, d.floor) for d in store.disputes()],
        tolerance=room_clock_of(store).tolerance,
        roles={u.name: (u.role, u.active) for u in store.list_users()},
        counts={c.number: c.count for c in counts(store)})
