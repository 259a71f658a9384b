"""The checks for one table's rows (TableCheck): the hash chain walked row by row, each hand's
rows gathered and replayed, a large table checked in parts joined in order, and its time
collections."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.services.chain import GENESIS, row_hash, time_text
from dealer_assist.services.model import LedgerLine, SettingsVersion
from dealer_assist.services.verify_hand import (
    HandJob,
    HandNote,
    HandProblem,
    RecordFault,
    Runner,
    StoredLine,
    serial,
    time_findings,
)
from dealer_assist.services.verify_report import (
    HASH_BROKEN,
    LINK_BROKEN,
    HandInfo,
    Problem,
    hand_number_wrong,
    time_number_wrong,
)


@dataclass(slots=True)
class _HandRows:
    """A hand's rows as a check has taken them in.

    Fed row by row: every accepted row's seq and text. Joined from parts
    (:meth:`TableCheck.join`): how many rows, in how many parts, and what its part's replay
    found when the whole hand was in one part.
    """

    first: int
    seqs: list[int] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    #: Rows of this hand before the run (a part read from an unknown point: checked at join).
    base: int = 0
    count: int = 0
    parts: int = 0
    folded: bool = False
    result: HandProblem = None


@dataclass(slots=True)
class Part:
    """What a part of one table's chain (a run of rows read on its own) gives the join.

    ``first``: the first row's seq, previous hash and hand, whose link to the part before is
    checked at the join; ``last``: the last accepted row (seq, hash, hand); ``failure``: the
    first row that fails a check made inside the part (its seq and the problem); ``checks``:
    each hand's first row in the part (and the first seat/period row), seq, hand, number and
    previous hash, whose number depends on the parts before; ``spans``: per hand (None: the
    table-level rows) its first and last seq in the part and its accepted rows; ``time_rows``:
    the accepted table-level rows; ``results``: what replaying each hand found, for the hands
    whose rows in this part start with their first event.
    """

    rows: int
    first: tuple[int, str, int | None] | None
    last: tuple[int, str, int | None]
    failure: tuple[int, Problem] | None
    checks: list[tuple[int, int | None, int, str]]
    spans: dict[int | None, tuple[int, int, int]]
    time_rows: list[tuple[int, datetime | str, str, str]]
    results: dict[int, HandProblem]


class TableCheck:
    """The checks for one table: feed its rows in sequence order, then :meth:`finish`.

    A large table can also be checked in parts, each on its own (``opening=False``, fed the
    rows of one seq range, then :meth:`part`), and the parts joined in order into a check
    opened on the table (:meth:`join`, then :meth:`close` and :meth:`absorb`): the outcome is
    the same as feeding every row to one check. Each event's hash covers its stored previous
    hash, so only the link between parts and each hand's first number in a part wait for the
    join.
    """

    def __init__(
        self, table_id: int, name: str, *, head_seq: int | None = None,
        head_hash: str | None = None, opening: bool = True,
    ) -> None:
        self.table_id = table_id
        self.name = name
        self.head_seq = head_seq
        self.head_hash = head_hash
        #: True: the rows start at the table's first event; False: a part read on its own.
        self.opening = opening
        self.last_seq = 0
        self.last_hash = GENESIS
        self.last_hand: int | None = None
        self.rows = 0
        self.problem: Problem | None = None
        #: Hands that are genuine records of an earlier rule: named, not faults.
        self.notes: list[Problem] = []
        #: Stored events that cannot be read (:class:`RecordFault`): each named, beside the
        #: table's first problem.
        self.faults: list[Problem] = []
        self.hands: dict[int, _HandRows] = {}
        #: Hands with rows after a broken link: not replayed (their events are not all known);
        #: None stands for the table-level (seat and period) events.
        self.unchecked: set[int | None] = set()
        #: The table-level events (no hand): seq, time, actor, event text.
        self.time_rows: list[tuple[int, datetime | str, str, str]] = []
        #: A part: table-level rows before it (checked at the join); None until its first.
        self._time_base: int | None = 0 if opening else None
        self._first: tuple[int, str, int | None] | None = None
        self._failed_row: int | None = None
        self._checks: list[tuple[int, int | None, int, str]] = []
        self._spans: dict[int | None, list[int]] = {}

    def _fail(self, seq: int, message: str, hand_id: int | None = None) -> None:
        if self.problem is None or seq < self.problem.seq:
            self.problem = Problem(self.table_id, self.name, seq, message, hand_id)

    def _broken(self, hand_id: int | None, row: int, seq: int, message: str) -> None:
        """Row ``row`` fails a chain check (named at ``seq``): nothing from it on is taken."""
        self.unchecked.add(hand_id)
        if self._failed_row is None:
            self._failed_row = row
        self._fail(seq, message, hand_id)

    def row(
        self, seq: int, hand_id: int | None, number: int, time: datetime | str, actor: str,
        body_text: str, prev_hash: str, hash_: str,
    ) -> None:
        """One stored event, in sequence order (``time`` as a datetime or its time_text)."""
        self.rows += 1
        if not self.opening:
            span = self._spans.get(hand_id)
            if span is None:
                self._spans[hand_id] = [seq, seq]
            else:
                span[1] = seq
        if self.problem is not None and self.problem.seq <= seq:
            self.unchecked.add(hand_id)
            return
        if self.opening or self._first is not None:
            expected = self.last_seq + 1
            if seq != expected:
                what = "is missing (deleted)" if seq > expected else "appears twice or out of order"
                self._broken(hand_id, seq, expected,
                             f"event {expected} {what}; the next stored event is {seq}")
                return
            if prev_hash != self.last_hash:
                self._broken(hand_id, seq, seq, LINK_BROKEN)
                return
        else:
            self._first = (seq, prev_hash, hand_id)
        when = time if isinstance(time, str) else time_text(time)
        if row_hash(self.table_id, seq, when, actor, hand_id, body_text, prev_hash) != hash_:
            self._broken(hand_id, seq, seq, HASH_BROKEN)
            return
        if hand_id is None:
            if self._time_base is None:
                self._time_base = number - 1
                self._checks.append((seq, None, number, prev_hash))
            count = self._time_base + len(self.time_rows) + 1
            if number != count:
                self._broken(None, seq, seq, time_number_wrong(number, count))
                return
            self.time_rows.append((seq, time, actor, body_text))
            self.last_seq = seq
            self.last_hash = hash_
            self.last_hand = None
            return
        rows = self.hands.get(hand_id)
        if rows is None:  # (a hand whose first row is refused still counts as read)
            base = 0
            if not self.opening:
                base = number - 1
                self._checks.append((seq, hand_id, number, prev_hash))
            rows = self.hands[hand_id] = _HandRows(seq, base=base)
        if number != rows.base + rows.count + 1:
            self._broken(hand_id, seq, seq,
                         hand_number_wrong(number, hand_id, rows.base + rows.count + 1))
            return
        rows.seqs.append(seq)
        rows.bodies.append(body_text)
        rows.count += 1
        self.last_seq = seq
        self.last_hash = hash_
        self.last_hand = hand_id

    def feed(self, rows: Iterable[Sequence[Any]], to_time: Callable[[Any], str]) -> None:
        """Rows as the driver gives them, in seq order: (seq, hand, number, stored time, actor,
        event text, previous hash, hash), the time made the hashed text by ``to_time``.

        The same as :meth:`row` for each; the usual row (the next event of a hand already
        begun, every check passing) is taken here without the call.
        """
        hands = self.hands
        table_id = self.table_id
        fast = 0  # rows taken here (the rest go through row())
        last_seq, last_hash, last_hand = self.last_seq, self.last_hash, self.last_hand
        clean = self.problem is None and (self.opening or self._first is not None)
        for seq, hand_id, number, at, actor, body, prev, hash_ in rows:
            when = to_time(at)
            if clean and hand_id is not None and seq == last_seq + 1 and prev == last_hash:
                rows_of = hands.get(hand_id)
                # the last hash was checked against its row: hex digits, nothing to escape
                if (
                    rows_of is not None and number == rows_of.base + rows_of.count + 1
                    and row_hash(table_id, seq, when, actor, hand_id, body, prev,
                                 hex_prev=True) == hash_
                ):
                    rows_of.seqs.append(seq)
                    rows_of.bodies.append(body)
                    rows_of.count += 1
                    last_seq, last_hash, last_hand = seq, hash_, hand_id
                    fast += 1
                    continue
            self.last_seq, self.last_hash, self.last_hand = last_seq, last_hash, last_hand
            self.row(seq, hand_id, number, when, actor, body, prev, hash_)
            last_seq, last_hash, last_hand = self.last_seq, self.last_hash, self.last_hand
            clean = self.problem is None and (self.opening or self._first is not None)
        self.last_seq, self.last_hash, self.last_hand = last_seq, last_hash, last_hand
        self.rows += fast

    def replayable(self) -> list[int]:
        """The hands whose rows so far are all accepted and start with their first event."""
        return [h for h, rows in self.hands.items() if not rows.base and h not in self.unchecked]

    def part(
        self,
        hands: Mapping[int, HandInfo],
        ledgers: Mapping[int, Sequence[LedgerLine]] | Mapping[int, Sequence[StoredLine]],
        *,
        runner: Runner | None = None,
    ) -> Part:
        """A part's outcome for the join: its rows checked, and its whole hands replayed.

        A hand whose rows go on into the next part is replayed here too, and the join drops
        that result (it replays the hand from all its rows): parts that end at a hand's end
        avoid the waste.
        """
        jobs: list[HandJob] = []
        for hand_id in self.replayable():
            info = hands.get(hand_id)
            if info is not None and info.table_id == self.table_id:
                whole = self.hands[hand_id]
                jobs.append((hand_id, info, whole.seqs, whole.bodies, ledgers.get(hand_id)))
        found = (runner or serial)(jobs)
        spans: dict[int | None, tuple[int, int, int]] = {}
        for key, (first, last) in self._spans.items():
            if key is None:
                count = len(self.time_rows)
            else:
                rows = self.hands.get(key)
                count = 0
                if rows is not None and rows.count:  # (feed() leaves the end to the rows)
                    count = rows.count
                    last = max(last, rows.seqs[-1])
            spans[key] = (first, last, count)
        failure = None
        if self.problem is not None and self._failed_row is not None:
            failure = (self._failed_row, self.problem)
        return Part(
            rows=self.rows, first=self._first, last=(self.last_seq, self.last_hash,
                                                     self.last_hand),
            failure=failure, checks=self._checks, spans=spans, time_rows=self.time_rows,
            results={job[0]: result for job, result in zip(jobs, found, strict=True)},
        )

    def join(self, part: Part) -> None:
        """Take in the next part of this table's chain (parts in seq order, none skipped)."""
        self.rows += part.rows
        if part.first is None:
            return
        if self.problem is not None:  # the chain broke before this part: nothing in it counts
            self.unchecked.update(part.spans)
            return
        seq, prev, hand = part.first
        expected = self.last_seq + 1
        before = (self.last_seq, self.last_hash, self.last_hand)
        failed: int | None = None
        last = part.last
        if seq != expected:
            what = "is missing (deleted)" if seq > expected else "appears twice or out of order"
            self._fail(expected, f"event {expected} {what}; the next stored event is {seq}", hand)
            failed, last = seq, before
        elif prev != self.last_hash:
            self._fail(seq, LINK_BROKEN, hand)
            failed, last = seq, before
        else:
            for at, who, number, prev_hash in part.checks:
                if who is None:
                    count = len(self.time_rows) + 1
                else:
                    known = self.hands.get(who)
                    count = (known.count if known is not None else 0) + 1
                if number != count:
                    self._fail(at, time_number_wrong(number, count) if who is None
                               else hand_number_wrong(number, who, count), who)
                    failed, last = at, (at - 1, prev_hash, None)
                    if who is not None and who not in self.hands:
                        self.hands[who] = _HandRows(at)  # as when fed row by row
                    break
            else:
                if part.failure is not None:
                    failed, problem = part.failure
                    self._fail(problem.seq, problem.message, problem.hand_id)
                    if failed == seq:  # its first row: nothing in the part was accepted
                        last = before
        self.last_seq, self.last_hash, self.last_hand = last
        for hand_id, (first, end, count) in part.spans.items():
            if failed is not None and end >= failed:
                self.unchecked.add(hand_id)
            if hand_id is None or (failed is not None and first >= failed):
                continue
            rows = self.hands.get(hand_id)
            if rows is None:
                rows = self.hands[hand_id] = _HandRows(first)
            rows.count += count
            rows.parts += 1
            if hand_id in part.results:
                rows.folded = True
                rows.result = part.results[hand_id]
        self.time_rows.extend(
            r for r in part.time_rows if failed is None or r[0] < failed
        )

    def finish(
        self,
        hands: Mapping[int, HandInfo],
        ledgers: Mapping[int, Sequence[LedgerLine] | Sequence[StoredLine]],
        *,
        runner: Runner | None = None,
    ) -> int:
        """Check the chain's end and replay every hand; returns the number of hands checked.

        ``runner`` checks a batch of hands (:func:`check_hand` on each, in any order).
        """
        jobs = self.pending(hands, ledgers)
        self.absorb((runner or serial)(jobs))
        return len(self.hands)

    def pending(
        self,
        hands: Mapping[int, HandInfo],
        ledgers: Mapping[int, Sequence[LedgerLine] | Sequence[StoredLine]],
    ) -> list[HandJob]:
        """Check the chain's end; the hands still to replay (:meth:`finish`, in two steps)."""
        return [
            (hand_id, hands[hand_id], self.hands[hand_id].seqs, self.hands[hand_id].bodies,
             ledgers.get(hand_id))
            for hand_id in self.close(hands)
        ]

    def close(self, hands: Mapping[int, HandInfo]) -> list[int]:
        """Check the chain's end and that the hands table agrees; the hands to replay.

        After :meth:`join`, a hand read whole in one part already has its result (taken in
        here); the ids returned are the hands still to replay from all their rows.
        """
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
        todo: list[int] = []
        done: list[HandProblem] = []
        for hand_id, rows in self.hands.items():
            found = hands.get(hand_id)
            if found is None or found.table_id != self.table_id:
                self._fail(rows.first, f"its hand {hand_id} is not a hand of this table")
                continue
            if hand_id in self.unchecked or (
                self.problem is not None and self.problem.seq <= rows.first
            ):
                continue
            if rows.folded and rows.parts == 1:
                done.append(rows.result)
            else:
                todo.append(hand_id)
        self.absorb(done)
        return todo

    def check_time(
        self, versions: Sequence[SettingsVersion], stored: Sequence[LedgerLine],
        found: Sequence[tuple[int, str]] | None = None,
    ) -> None:
        """Fold the table-level events again and compare with the recorded time collections.

        ``found``: what :func:`time_findings` gives for exactly these rows, worked out
        elsewhere (a worker process, while the hands were being checked).
        """
        if None in self.unchecked:
            return
        if self.problem is not None and self.time_rows and self.problem.seq <= self.time_rows[0][0]:
            return
        if found is None:
            found = time_findings(self.table_id, self.name, self.time_rows, versions, stored)
        for seq, message in found:
            self._fail(seq, message)

    def absorb(self, results: Iterable[HandProblem]) -> None:
        """Take in what :func:`check_hand` found for the pending hands."""
        for found_problem in results:
            if found_problem is not None:
                seq, message, hand_id = found_problem
                if isinstance(found_problem, HandNote):
                    self.note(seq, message, hand_id)
                elif isinstance(found_problem, RecordFault):
                    self.faults.append(Problem(self.table_id, self.name, seq, message, hand_id))
                else:
                    self._fail(seq, message, hand_id)

    def note(self, seq: int, message: str, hand_id: int | None = None) -> None:
        """A genuine record named in its own words (not a fault): see :class:`HandNote`."""
        self.notes.append(Problem(self.table_id, self.name, seq, message, hand_id))
