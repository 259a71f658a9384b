"""Verify's hand rules: each hand against its settings version and the hand before (fee,
continuity, carries, imports, floor decisions), read for the walk
(:mod:`dealer_assist.services.handrules` holds the rules themselves)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from dealer_assist.db.approvals_check import start_approvals
from dealer_assist.db.verify.reader import (
    CHUNK,
    CarryJob,
    Source,
    aware,
    carried_of,
    carries_read,
)
from dealer_assist.engine.bodies import read_body
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.handrules import (
    HandStart,
    Outcome,
    ShiftSpan,
    carries,
    decisions,
    floor_events,
    floor_findings,
    hand_findings,
    outcomes,
    recorded_changes,
    takes_over,
)
from dealer_assist.services.model import SettingsVersion
from dealer_assist.services.records import baselines
from dealer_assist.services.verify import HandInfo

if TYPE_CHECKING:
    from dealer_assist.db.verify.walk import Walk


#: From this many hands of games that carry into the next hand, they are replayed for it on
#: the walk's workers (when it has them), this many to a job.
CARRY_AHEAD = 200
CARRY_JOBS = 250


class HandRules:
    """The fee and continuity checks (:mod:`dealer_assist.services.handrules`): each hand's
    start event and hands-table row, the ledger lines continuity needs, the recorded changes."""

    def __init__(self, walk: Walk, hands: Mapping[int, HandInfo], max_event: int | None,
                 since: Mapping[int, int] | None = None, source: Source | None = None) -> None:
        self.walk = walk
        #: How the walk's workers read (None: this process replays the carrying hands).
        self.source = source
        self._carrying: list[tuple[list[CarryJob], Future[dict[int, dict[str, Any]]]]] = []
        self._after_of: dict[int, int] = {}  # the hand before's id -> the hand's
        self.hands = hands
        self.max_event = max_event
        #: Incremental verify: per table, only hands starting after this seq (and the one
        #: before the first of them).
        self.since = since
        self.starts: dict[int, list[HandStart]] = {}
        self.ledger: dict[int, Outcome] = {}
        self.changes: dict[int, set[str]] = {}
        self.baselines: dict[int, int] = {}
        self.shifts: dict[int, ShiftSpan] = {}
        self.imported: set[int] = set()
        #: By hand id: why a hand that claims to be imported does not carry an import's marks.
        self.import_marks: dict[int, str] = {}
        #: By hand id: what the hand before it carries (games with ``Game.carries``).
        self.carried: dict[int, dict[str, Any]] = {}
        #: By hand id: its floor decisions (event number, seq, type), and the event numbers
        #: the audit log records a floor person approving.
        self.floor: dict[int, list[tuple[int, int, str]]] = {}
        self.decided: dict[int, set[int]] = {}
        #: By hand id: what a floor person approved of its start (schema 0016).
        self.approved: dict[int, set[str]] = {}

    def read(self) -> None:
        walk = self.walk
        cur = walk.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]

        def fetch(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
            cur.execute(sql, tuple(params))
            return list(cur.fetchall())

        mark = "%s" if walk.pg else "?"
        bound = "" if self.max_event is None else f" AND e.id <= {int(self.max_event)}"
        sql = ("SELECT h.id, h.table_id, h.number, h.game, h.settings_id, e.seq, e.time, e.body, "
               "h.started_by, e.actor, h.shift_id, h.seats, h.started_at, e.approval_id "
               "FROM hands h JOIN events e ON e.hand_id = h.id AND e.number = 1" + bound)
        params: list[Any] = []
        if self.since:  # every hand of the table (its row against its start event: cheap)
            sql += " WHERE h.table_id IN (" + ",".join([mark] * len(self.since)) + ")"
            params.extend(self.since)
        shift_ids: set[int] = set()
        for (hand_id, table_id, number, game, settings_id, seq, at, body, by, actor, shift,
             seats, started, approval) in fetch(sql + " ORDER BY h.table_id, e.seq", params):
            info = self.hands.get(hand_id)
            self.starts.setdefault(int(table_id), []).append(HandStart(
                hand_id=int(hand_id), table_id=int(table_id), number=int(number), game=game,
                status=info.status if info is not None else "open", settings_id=settings_id,
                seq=int(seq), time=aware(at), body=body, started_by=by, actor=actor,
                shift_id=shift, seats=seats, started_at=aware(started), approval_id=approval,
            ))
            shift_ids.add(int(shift))
        self.shifts = {
            int(i): ShiftSpan(int(t), aware(o), None if c is None else aware(c))
            for i, t, o, c in fetch("SELECT id, table_id, opened_at, closed_at FROM shifts")
            if int(i) in shift_ids
        }
        audit = fetch(
            "SELECT hand_id, action, detail, at, actor FROM audit_log WHERE action = 'stacks' "
            "OR action = 'record-baseline' OR action = 'import' ORDER BY id"
        )
        self.imported = {int(h) for h, a, *_ in audit if a == "import" and h is not None}
        entries: dict[int, tuple[Any, str]] = {}
        for h, a, _, at, actor in audit:
            if a == "import" and h is not None:
                entries.setdefault(int(h), (at, str(actor or "")))
        audit = [(h, a, d) for h, a, d, *_ in audit]
        self._read_imports(fetch, mark, entries)
        self.changes = recorded_changes(audit)
        self.approved = start_approvals(fetch, self.starts, self.changes)
        self.baselines = baselines((a, d) for _, a, d in audit)
        wanted: list[int] = []
        follows: list[tuple[HandStart, HandStart]] = []  # (hand before, hand) of carrying games
        for rows in self.starts.values():
            before: HandStart | None = None  # the last hand dealt (imported ones feed none)
            for after in rows:
                if after.settings_id is None:
                    continue
                recent = self.since is None or after.seq >= self.since.get(after.table_id, 0)
                if (recent and before is not None and after.game == before.game
                        and after.seq > self.baselines.get(after.table_id, 0)):
                    if takes_over(after.game, after.body):
                        wanted.append(before.hand_id)
                    if before.status == "settled" and carries(after.game):
                        follows.append((before, after))
                before = after
        jobs: list[CarryJob] = []
        after_of: dict[int, int] = {}
        for before, after in follows:  # replay the hand before: what its game carries
            try:
                seats = read_body(after.body).get("seats", [])
            except DealerAssistError:  # (the hand's replay names its unreadable start)
                continue
            jobs.append((before.hand_id, seats if isinstance(seats, list) else []))
            after_of[before.hand_id] = after.hand_id
        self._after_of = after_of
        pool = walk.pool
        if pool is not None and self.source is not None and len(jobs) >= CARRY_AHEAD:
            # a whole game's hands replayed once more: on the workers, after the parts
            for i in range(0, len(jobs), CARRY_JOBS):
                part = jobs[i:i + CARRY_JOBS]
                try:
                    self._carrying.append((part, pool.submit(carried_of, self.source, part)))
                except (RuntimeError, BrokenProcessPool):
                    self._carried_here(part, fetch, mark)
        else:
            self._carried_here(jobs, fetch, mark)
        lines: list[tuple[int, int, str, int | None, int]] = []
        for i in range(0, len(wanted), CHUNK):
            chunk = wanted[i:i + CHUNK]
            lines.extend(fetch(
                "SELECT hand_id, settlement, kind, seat, amount FROM ledger_lines WHERE "
                f"hand_id IN ({','.join([mark] * len(chunk))}) AND kind IN "
                "('put_in', 'push', 'carry_out') ORDER BY hand_id, settlement, id", chunk,
            ))
        self._read_floor(fetch, mark, bound)
        cur.close()
        self.ledger = outcomes(lines)

    def _carried_here(self, jobs: Sequence[CarryJob],
                      fetch: Callable[..., list[tuple[Any, ...]]], mark: str) -> None:
        found = carries_read(fetch, mark, self.max_event, jobs)
        self.carried.update((self._after_of[h], want) for h, want in found.items())

    def _gather(self) -> None:
        """The carries the workers worked out (a broken pool's, here)."""
        if not self._carrying:
            return
        conn = self.walk.conn.connection.driver_connection
        mark = "%s" if self.walk.pg else "?"

        def fetch(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
            cur = conn.cursor()  # type: ignore[union-attr]
            try:
                cur.execute(sql, tuple(params))
                return list(cur.fetchall())
            finally:
                cur.close()

        for jobs, future in self._carrying:
            try:
                found = future.result()
            except BrokenProcessPool:
                self._carried_here(jobs, fetch, mark)
                continue
            self.carried.update((self._after_of[h], want) for h, want in found.items())
        self._carrying = []

    def _read_imports(self, fetch: Callable[..., list[tuple[Any, ...]]], mark: str,
                      entries: Mapping[int, tuple[Any, str]]) -> None:
        """A hand the hands table gives no settings version is held to the marks an import
        leaves in its hashed events: every event recorded at once, at its ``import`` entry's
        time, by that entry's actor. A live hand's settings version set to NULL beside an
        appended ``import`` entry keeps its dealer's inputs at their own times, and is named."""
        claimed = [h.hand_id for rows in self.starts.values() for h in rows
                   if h.settings_id is None and h.hand_id in entries]
        self.import_marks = {}
        for i in range(0, len(claimed), CHUNK):
            chunk = claimed[i:i + CHUNK]
            for hand_id, first, last, least, most in fetch(
                "SELECT hand_id, MIN(time), MAX(time), MIN(actor), MAX(actor) FROM events "
                f"WHERE hand_id IN ({','.join([mark] * len(chunk))}) GROUP BY hand_id", chunk,
            ):
                at, actor = entries[int(hand_id)]
                when = aware(at)
                if (aware(first) != when or aware(last) != when or least != actor
                        or most != actor):
                    self.import_marks[int(hand_id)] = (
                        f"its events were recorded from {aware(first):%Y-%m-%d %H:%M:%S} to "
                        f"{aware(last):%H:%M:%S} by {least}"
                        + (f" and {most}" if most != least else "")
                        + f", not at once by {actor} at {when:%Y-%m-%d %H:%M:%S} as its "
                        "import entry says")

    def _read_floor(self, fetch: Callable[..., list[tuple[Any, ...]]], mark: str,
                    bound: str) -> None:
        """The floor decisions of games that have them, and the audit log's approvals."""
        games = sorted({h.game for rows in self.starts.values() for h in rows
                        if floor_events(h.game)})
        if not games:
            return
        numbers = {h.hand_id: h for rows in self.starts.values() for h in rows}
        found = fetch(
            "SELECT e.hand_id, e.number, e.seq, e.body FROM events e JOIN hands h ON "
            f"h.id = e.hand_id WHERE h.game IN ({','.join([mark] * len(games))}){bound}",
            games)
        for hand_id, number, seq, body in found:
            h = numbers.get(int(hand_id))
            if h is None or seq <= self.baselines.get(h.table_id, 0):
                continue
            try:
                kind = read_body(body).get("type")
            except DealerAssistError:  # (the hand's replay names it)
                continue
            if kind in floor_events(h.game):
                self.floor.setdefault(int(hand_id), []).append((int(number), int(seq), kind))
        self.decided = decisions(fetch(
            "SELECT hand_id, detail FROM audit_log WHERE action = 'floor-decision'"))

    def findings(
        self, table_id: int, name: str, versions: Sequence[SettingsVersion]
    ) -> list[tuple[int, str, int]]:
        self._gather()
        found = hand_findings(name, self.starts.get(table_id, []), versions, self.ledger,
                              self.changes, self.baselines.get(table_id, 0), self.shifts,
                              imported=self.imported, check_numbers=True, first_number=1,
                              carried=self.carried, approved=self.approved)
        for h in self.starts.get(table_id, []):
            if h.hand_id in self.import_marks:
                found.append((h.seq, f"hand {h.number}: the hands table gives it no settings "
                              f"version and an import entry names it, but "
                              f"{self.import_marks[h.hand_id]} (a live hand made to look "
                              "imported behind the app's back: its fee and continuity would go "
                              "unchecked, and the day's totals would leave it out)", h.hand_id))
            if h.hand_id in self.floor:
                found.extend(floor_findings(h.number, h.hand_id, self.floor[h.hand_id],
                                            self.decided.get(h.hand_id, set())))
        return found
