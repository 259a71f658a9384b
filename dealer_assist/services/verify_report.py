"""What verify finds and reports: a problem (the table, the seq, the words), the whole run's
report, what the hands table says of a hand, and verify's words for a broken link or hash."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.services.audit_chain import AuditCheck


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing found wrong: the table, the event's sequence number and what is wrong."""

    table_id: int
    table: str
    seq: int
    message: str
    hand_id: int | None = None

    def __str__(self) -> str:
        return f"table {self.table} (id {self.table_id}), seq {self.seq}: {self.message}"


@dataclass(slots=True)
class VerifyReport:
    tables: int = 0
    hands: int = 0
    events: int = 0
    #: The first thing wrong at each faulty table, in table order (every table is checked).
    problems: list[Problem] = field(default_factory=list)
    #: The audit log's own chain, walked (None: not checked).
    audit: AuditCheck | None = None
    #: What else is wrong: rows that differ from their records on the audit chain,
    #: checkpoints that do not verify or that the database no longer matches.
    findings: list[str] = field(default_factory=list)
    #: What the checkpoints said, for the summary ("" when none were checked).
    anchored: str = ""
    #: Incremental verify: the checkpoint it started after (its number), else None.
    since: int | None = None
    #: Genuine records named in their own words, not faults (a hand settled under an earlier
    #: rule): verify still says intact, unless asked to be strict.
    notes: list[Problem] = field(default_factory=list)

    @property
    def problem(self) -> Problem | None:
        """The first faulty table's problem (None: every table is intact)."""
        return self.problems[0] if self.problems else None

    def add(self, problem: Problem | None) -> None:
        if problem is not None:
            self.problems.append(problem)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.findings and (self.audit is None or self.audit.ok)

    def summary(self) -> str:
        wrong = [f"NOT INTACT: {p}" for p in self.problems]
        if self.audit is not None and not self.audit.ok:
            wrong.append(self.audit.summary())
        wrong.extend(f"NOT INTACT: {f}" for f in self.findings)
        notes = [f"NOTE: {p}" for p in self.notes]
        if wrong:
            return "\n".join(wrong + notes)
        if notes:
            return "\n".join([*notes, self._intact()])
        return self._intact()

    def _intact(self) -> str:
        audit = "" if self.audit is None else (
            f"; the audit log's {self.audit.entries} entries are chained and match its head"
        )
        since = "" if self.since is None else f"since checkpoint {self.since}: "
        anchored = f"; {self.anchored}" if self.anchored else ""
        noted = "" if not self.notes else (
            f" ({_count(len(self.notes), 'note')} above: genuine records, not faults)"
        )
        return (
            f"intact: {since}{_count(self.tables, 'table')}, {_count(self.hands, 'hand')}, "
            f"{_count(self.events, 'event')}; "
            "every chain links, every hand replays, every settlement conserves chips and "
            "matches the ledger, every fee is its settings version's, every time collection "
            "matches the seat and period events" + audit + anchored + noted
        )


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What the hands table says of a hand: verify checks it against the events."""

    table_id: int
    number: int
    status: str


LINK_BROKEN = ("its previous-hash does not match the event before it (an event was deleted, "
               "inserted or reordered)")
HASH_BROKEN = "its hash does not match its content (it was changed after it was recorded)"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def hand_number_wrong(number: int, hand_id: int, count: int) -> str:
    return f"it says it is event {number} of hand {hand_id}, but it is event {count}"


def time_number_wrong(number: int, count: int) -> str:
    return f"it says it is seat/period event {number} of the table, but it is event {count}"
