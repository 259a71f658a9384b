"""Verification: walk each table's hash chain, replay every hand through its game, and check
every settlement conserves chips and matches the ledger.

The checks are fed rows one at a time (:class:`TableCheck`), so the database verifier can stream
them; :func:`verify_store` runs the same checks over any store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.engine.hand import voided_targets
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import Event, Start, Void, event_from_json
from dealer_assist.services.chain import GENESIS, canonical, event_hash
from dealer_assist.services.ledger import ledger_lines, same_lines
from dealer_assist.services.model import LedgerLine, StoredEvent, TableSettings
from dealer_assist.services.ports import Store
from dealer_assist.services.timeacct import compare_time_lines, fold_time


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
    problem: Problem | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        if self.problem is not None:
            return f"NOT INTACT: {self.problem}"
        return (
            f"intact: {self.tables} tables, {self.hands} hands, {self.events} events; every "
            "chain links, every hand replays, every settlement conserves chips and matches "
            "the ledger, every time collection matches the seat and period events"
        )


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What the hands table says of a hand: verify checks it against the events."""

    table_id: int
    number: int
    status: str


@lru_cache(maxsize=65536)
def parse_body(body_text: str) -> Event:
    """An event from its stored JSON text (cached: most inputs repeat exactly)."""
    return event_from_json(json.loads(body_text))


@dataclass(slots=True)
class _HandRows:
    seqs: list[int] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)


class TableCheck:
    """The checks for one table: feed its rows in sequence order, then :meth:`finish`."""

    def __init__(
        self, table_id: int, name: str, *, head_seq: int | None = None,
        head_hash: str | None = None,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.head_seq = head_seq
        self.head_hash = head_hash
        self.last_seq = 0
        self.last_hash = GENESIS
        self.last_hand: int | None = None
        self.rows = 0
        self.problem: Problem | None = None
        self.hands: dict[int, _HandRows] = {}
        #: Hands with rows after a broken link: not replayed (their events are not all known);
        #: None stands for the table-level (seat and period) events.
        self.unchecked: set[int | None] = set()
        #: The table-level events (no hand): seq, time, actor, event text.
        self.time_rows: list[tuple[int, datetime | str, str, str]] = []

    def _fail(self, seq: int, message: str, hand_id: int | None = None) -> None:
        if self.problem is None or seq < self.problem.seq:
            self.problem = Problem(self.table_id, self.name, seq, message, hand_id)

    def _broken(self, hand_id: int | None, seq: int, message: str, _: int | None = None) -> None:
        self.unchecked.add(hand_id)
        self._fail(seq, message, hand_id)

    def row(
        self, seq: int, hand_id: int | None, number: int, time: datetime | str, actor: str,
        body_text: str, prev_hash: str, hash_: str,
    ) -> None:
        """One stored event, in sequence order (``time`` as a datetime or its time_text)."""
        self.rows += 1
        if self.problem is not None and self.problem.seq <= seq:
            self.unchecked.add(hand_id)
            return
        expected = self.last_seq + 1
        if seq != expected:
            what = "is missing (deleted)" if seq > expected else "appears twice or out of order"
            self._broken(
                hand_id, expected, f"event {expected} {what}; the next stored event is {seq}"
            )
            return
        if prev_hash != self.last_hash:
            self._broken(
                hand_id,
                seq, "its previous-hash does not match the event before it "
                "(an event was deleted, inserted or reordered)", hand_id,
            )
            return
        calc = event_hash(
            table_id=self.table_id, seq=seq, time=time, actor=actor, hand_id=hand_id,
            body=body_text, prev_hash=prev_hash,
        )
        if calc != hash_:
            self._broken(
                hand_id,
                seq, "its hash does not match its content (it was changed after it was "
                "recorded)", hand_id,
            )
            return
        if hand_id is None:
            if number != len(self.time_rows) + 1:
                self._broken(
                    None, seq, f"it says it is seat/period event {number} of the table, but it "
                    f"is event {len(self.time_rows) + 1}",
                )
                return
            self.time_rows.append((seq, time, actor, body_text))
            self.last_seq = seq
            self.last_hash = hash_
            self.last_hand = None
            return
        rows = self.hands.get(hand_id)
        if rows is None:
            rows = self.hands[hand_id] = _HandRows()
        if number != len(rows.seqs) + 1:
            self._broken(
                hand_id,
                seq, f"it says it is event {number} of hand {hand_id}, but it is event "
                f"{len(rows.seqs) + 1}", hand_id,
            )
            return
        rows.seqs.append(seq)
        rows.bodies.append(body_text)
        self.last_seq = seq
        self.last_hash = hash_
        self.last_hand = hand_id

    def finish(
        self,
        hands: Mapping[int, HandInfo],
        ledgers: Mapping[int, list[LedgerLine]],
        *,
        runner: Runner | None = None,
    ) -> int:
        """Check the chain's end and replay every hand; returns the number of hands checked.

        ``runner`` checks a batch of hands (:func:`check_hand` on each, in any order); the
        database verifier passes one that spreads them over processes.
        """
        jobs = self.pending(hands, ledgers)
        self.absorb((runner or _serial)(jobs))
        return len(self.hands)

    def pending(
        self, hands: Mapping[int, HandInfo], ledgers: Mapping[int, list[LedgerLine]]
    ) -> list[HandJob]:
        """Check the chain's end; the hands still to replay (:meth:`finish`, in two steps)."""
        if self.problem is None and self.head_seq is not None and (
            self.head_seq != self.last_seq or (self.head_hash or GENESIS) != self.last_hash
        ):
            if self.last_hand is not None:  # its end is what is missing: do not replay it
                self.unchecked.add(self.last_hand)
            self._fail(
                self.last_seq + 1,
                f"the table's chain head says {self.head_seq} events but {self.last_seq} are "
                "stored (events at the end were deleted)" if self.head_seq != self.last_seq
                else "the table's chain head does not match its last event",
            )
        for hand_id, info in hands.items():
            if info.table_id == self.table_id and hand_id not in self.hands:
                self._fail(self.last_seq + 1, f"hand {info.number} has no events", hand_id)
        jobs: list[HandJob] = []
        for hand_id, rows in self.hands.items():
            found = hands.get(hand_id)
            if found is None or found.table_id != self.table_id:
                self._fail(rows.seqs[0], f"its hand {hand_id} is not a hand of this table")
                continue
            if hand_id in self.unchecked or (
                self.problem is not None and self.problem.seq <= rows.seqs[0]
            ):
                continue
            jobs.append((hand_id, found, rows.seqs, rows.bodies, ledgers.get(hand_id)))
        return jobs

    def check_time(
        self, versions: Sequence[TableSettings], stored: Sequence[LedgerLine]
    ) -> None:
        """Fold the table-level events again and compare with the recorded time collections."""
        if None in self.unchecked:
            return
        if self.problem is not None and self.time_rows and self.problem.seq <= self.time_rows[0][0]:
            return
        rows = [
            StoredEvent(
                table_id=self.table_id, seq=seq, hand_id=None, number=n, actor=actor,
                time=datetime.fromisoformat(at) if isinstance(at, str) else at,
                body=json.loads(text), prev_hash="", hash="",
            )
            for n, (seq, at, actor, text) in enumerate(self.time_rows, start=1)
        ]
        try:
            fold = fold_time(self.table_id, self.name, versions, rows, None)
        except ValueError as exc:
            self._fail(rows[0].seq, f"a seat or period event cannot be read: {exc}")
            return
        if fold.problem is not None:
            self._fail(fold.problem.seq, fold.problem.message)
        upto = fold.problem.seq if fold.problem is not None else None
        found = compare_time_lines(
            fold.lines, [x for x in stored if upto is None or (x.seq or 0) < upto]
        )
        if found is not None:
            self._fail(found.seq, found.message)

    def absorb(self, results: Iterable[HandProblem]) -> None:
        """Take in what :func:`check_hand` found for the pending hands."""
        for found_problem in results:
            if found_problem is not None:
                seq, message, hand_id = found_problem
                self._fail(seq, message, hand_id)


#: One hand to check: id, what the hands table says, its seqs and event texts, its ledger.
HandJob = tuple[int, HandInfo, list[int], list[str], "list[LedgerLine] | None"]
#: What is wrong with a hand: (seq, message, hand id), or None when it is right.
HandProblem = tuple[int, str, int] | None
Runner = Callable[[list[HandJob]], Iterable[HandProblem]]


def _serial(jobs: list[HandJob]) -> Iterable[HandProblem]:
    return [check_hand(job) for job in jobs]


def check_hand(job: HandJob) -> HandProblem:
    """Replay one hand and check its settlement against its ledger (pure; runs anywhere)."""
    hand_id, info, seqs, bodies, ledger = job
    label = f"hand {info.number}"
    events: list[Event] = []
    for seq, text in zip(seqs, bodies, strict=True):
        try:
            events.append(parse_body(text))
        except (DealerAssistError, ValueError) as exc:
            return seq, f"{label}: the event cannot be read: {exc}", hand_id
    result = fold(events)
    if isinstance(result, Refused):
        return seqs[result.index], f"{label} does not replay: {result.reason}", hand_id
    game, state = result.game, result.state
    last = seqs[-1]
    if info.status != "settled":
        return None
    if not game.is_over(state):
        return last, f"{label} is marked settled but its events do not finish it", hand_id
    if not ledger:
        return last, f"{label} is marked settled but has no ledger lines", hand_id
    try:
        settlement = game.settle(state)
    except DealerAssistError as exc:
        return last, f"{label} cannot be settled: {exc}", hand_id
    if not settlement.conserved:
        return last, (f"{label}'s settlement does not conserve chips (in "
                      f"{settlement.total_in}, out {settlement.total_out})"), hand_id
    derived = ledger_lines(hand_id, settlement)
    if not same_lines(derived, ledger):
        return last, (f"{label}'s ledger lines do not match its events: "
                      f"{ledger_diff(derived, ledger)}"), hand_id
    return None


@dataclass(frozen=True, slots=True)
class Folded:
    game: Game[Any]
    state: Any


@dataclass(frozen=True, slots=True)
class Refused:
    """The hand does not replay: ``index`` (0-based) of the event refused, and why."""

    index: int
    reason: str


def fold(events: list[Event]) -> Folded | Refused:
    """The hand's game and final state, or the event refused: a replay without narration, for
    speed, by the same rules as :func:`dealer_assist.engine.hand.replay`."""
    first = events[0]
    if not isinstance(first, Start):
        return Refused(0, "a hand must begin with a start event")
    try:
        game = get_game(first.game)
        state = game.start(first)
    except DealerAssistError as exc:
        return Refused(0, str(exc))
    try:
        voided = voided_targets(events)
    except RuleViolation as exc:
        return Refused(next(i for i, e in enumerate(events) if isinstance(e, Void)), str(exc))
    for i, ev in enumerate(events[1:], start=1):
        if isinstance(ev, Start):
            return Refused(i, "a second start event in one hand")
        if isinstance(ev, Void) or (i + 1) in voided:
            continue
        try:
            state = game.apply(state, ev)
        except DealerAssistError as exc:
            return Refused(i, str(exc))
    return Folded(game, state)


def _show_line(x: LedgerLine) -> str:
    who = "" if x.seat is None else f" seat {x.seat}"
    kind = f"{x.kind}:{x.detail}" if x.detail else x.kind
    return f"{kind}{who} {x.amount}"


def ledger_diff(
    derived: list[LedgerLine],
    stored: list[LedgerLine],
    *,
    show: Callable[[LedgerLine], str] = _show_line,
    ours: str = "events give",
    fallback: str = "different lines",
) -> str:
    """Where the lines the events give and the stored ledger part, in words (verify, reports)."""
    a = sorted(show(x) for x in derived)
    b = sorted(show(x) for x in stored)
    missing = [x for x in a if x not in b]
    extra = [x for x in b if x not in a]
    parts = []
    if missing:
        parts.append(f"{ours} " + ", ".join(missing))
    if extra:
        parts.append("ledger has " + ", ".join(extra))
    return "; ".join(parts) or fallback


def verify_store(store: Store, hands: Iterable[tuple[int, HandInfo]] | None = None) -> VerifyReport:
    """Verify every table of ``store`` (the in-memory store, or any store, row by row)."""
    report = VerifyReport()
    from dealer_assist.services.model import HandFilter

    info = dict(hands) if hands is not None else {
        h.id: HandInfo(h.table_id, h.number, h.status)
        for h in store.list_hands(HandFilter(limit=None))
    }
    for table in store.list_tables():
        report.tables += 1
        head = store.chain_head(table.id)
        check = TableCheck(table.id, table.name)
        for r in store.table_events(table.id):
            check.row(r.seq, r.hand_id, r.number, r.time, r.actor, canonical(r.body),
                      r.prev_hash, r.hash)
        report.events += check.rows
        ledgers = {h: store.ledger(h) for h, i in info.items() if i.table_id == table.id}
        report.hands += check.finish(info, ledgers)
        check.check_time(store.settings_versions(table.id), store.time_ledger(table.id))
        if head is not None and check.problem is None and head.seq != check.last_seq:
            check.problem = Problem(table.id, table.name, check.last_seq + 1, "chain head differs")
        if check.problem is not None:
            report.problem = check.problem
            break
    return report
