"""What a station's journal must be before its sync writes any of it: the file is the
station's, so it is checked like any input from outside.

Within the sync's transaction (the table's row locked), a table's batch is taken only if:

- every event follows the server's chain head in order, and its hash is recomputed from its
  contents and the previous hash (an edited and rehashed journal does not match);
- every event, settlement, reopening and audit entry is of the batch's own table and of hands
  of that table; a hand started offline is the table's next hand, in its open shift, under its
  current settings, started by whoever deals there;
- every hand it touches replays with the engine from its first event (a card another seat
  holds is refused), and a settlement's ledger lines are the ones the engine settles;
- a seat or period mark's time collections are the ones the table's time account gives;
- a misdeal, a void in a finished hand, a void of a mark that moves money, and the reopening
  of a settled hand each have the floor's approval on the server (approvals never wait in a
  journal), and an audit entry is one a station keeps while offline (:func:`journal_may_write`)
  and matches an input of the batch.

Anything else refuses the batch: nothing of it is written, and the table is stopped for the
floor with the reason (``sync-conflict``), as for a conflict.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, select

from dealer_assist.db.dealer_box import read_downs
from dealer_assist.db.grants import STATION_AUDIT_ACTIONS
from dealer_assist.db.journal_file import hand_from, row_from
from dealer_assist.db.store import SqlStore
from dealer_assist.db.store.rows import A, E, H
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.engine.log import hand_events
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Misdeal, Void, event_from_json
from dealer_assist.services.chain import canonical, event_hash, utc
from dealer_assist.services.dealer_box import Down, dealer_at, fold_downs
from dealer_assist.services.ledger import ledger_lines, same_lines
from dealer_assist.services.model import PERMISSIONS, LedgerLine, StoredEvent, User
from dealer_assist.services.timeacct import compare_time_lines, fold_time

#: The audit entries a station keeps in its journal while its server does not answer: what a
#: dealer writes while dealing (stacks typed in for a hand, a void). Every other entry (an
#: approval, a user, a setting, a shift) is written on the server or not at all. At merge
#: time this may be narrowed to the kinds the station's database role may write.
JOURNAL_AUDIT_KINDS = frozenset({"stacks", "void"})

Op = tuple[int, int, str, dict[str, Any]]
#: The fields each kind of journal line holds, exactly (anything more would be written too).
_HAND_LINE = {"kind", "detail", "seat", "amount"}
_TIME_LINE = {"kind", "detail", "seat", "amount", "period"}
_AUDIT = {"at", "actor", "action", "detail", "table_id", "hand_id"}


def _fields(where: str, obj: Any, want: set[str]) -> None:
    if not isinstance(obj, dict) or set(obj) != want:
        raise JournalRefused(f"{where}: a line holds other fields than a station writes "
                             f"({', '.join(sorted(want))})")


def journal_may_write(action: str) -> bool:
    """Whether a journal may carry an audit entry of this kind to the server: one a station
    writes while dealing offline, and one its database role may write at all."""
    return action in JOURNAL_AUDIT_KINDS and action in STATION_AUDIT_ACTIONS


class JournalRefused(DealerAssistError):
    """The journal holds what the station could not have recorded: nothing of it is sent."""


@dataclass(slots=True)
class _Hand:
    """A hand as the batch leaves it: its rows (server's, then the batch's) and status."""

    id: int
    number: int
    status: str
    rows: list[StoredEvent]
    new_from: int
    started_here: bool = False
    started_by: str = ""
    #: The last event of the batch was a misdeal or a void the floor approved on the server.
    approved: bool = False
    voids: list[tuple[str, bool]] = field(default_factory=list)

    def replay(self, upto: int | None = None) -> HandReplay:
        rows = self.rows if upto is None else self.rows[:upto]
        return replay(hand_events(r.body for r in rows))


class BatchCheck:
    """Checks one table's batch (see the module's docstring); :meth:`run` raises
    :class:`JournalRefused` naming the first input that is refused."""

    def __init__(self, server: SqlStore, conn: Connection, table_id: int,
                 head: tuple[int, str]) -> None:
        self.server = server
        self.conn = conn
        self.table_id = table_id
        self.seq, self.last_hash = head
        table = server.get_table(table_id)
        self.table_name = table.name if table is not None else f"table {table_id}"
        self.shift = server.current_shift(table_id)
        self.settings = server.latest_settings(table_id)
        self.users: dict[str, User] = {u.name: u for u in server.list_users()}
        self.hands: dict[int, _Hand] = {}
        self.max_number = int(conn.execute(
            select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
        ).scalar_one())
        self.last_hand, self.last_status = self._last_hand()
        self.table_rows: list[StoredEvent] | None = None
        self.time_lines: list[LedgerLine] = []
        self.new_marks: set[int] = set()
        #: Table-level voids of the batch: (actor, approved).
        self.mark_voids: list[tuple[str, bool]] = []
        self._downs: list[Down] | None = None

    def _last_hand(self) -> tuple[int | None, str]:
        """The table's last hand dealt (imported hands do not count) and its status."""
        row = self.conn.execute(
            select(H.c.id, H.c.status).where(H.c.table_id == self.table_id,
                                             H.c.settings_id.is_not(None))
            .order_by(H.c.number.desc()).limit(1)).first()
        return (int(row.id), str(row.status)) if row is not None else (None, "settled")

    # --- the batch ---------------------------------------------------------------------------
    def run(self, ops: Sequence[Op]) -> None:
        for op_id, _table, kind, body in ops:
            where = f"journal input {op_id} ({kind})"
            try:
                if not self._op(where, kind, body):
                    return  # a conflict with the server's chain: the sync says so itself
            except JournalRefused:
                raise
            except (KeyError, TypeError, ValueError, AttributeError, IndexError,
                    DealerAssistError) as exc:
                raise JournalRefused(f"{where} cannot be read or does not stand ({exc})") from exc
        self._finish()

    def _op(self, where: str, kind: str, body: dict[str, Any]) -> bool:
        if kind in ("start", "event", "table-event"):
            return self._row(where, kind, body)
        if kind == "settle":
            self._settle(where, body)
        elif kind == "reopen":
            self._reopen(where, body)
        elif kind == "audit":
            self._audit(where, body)
        else:
            raise JournalRefused(f"{where}: a station's journal holds no such input")
        return True

    def _row(self, where: str, kind: str, body: dict[str, Any]) -> bool:
        row = row_from(body["row"])
        there = self.conn.execute(select(E.c.hash).where(
            E.c.table_id == self.table_id, E.c.seq == row.seq)).first()
        if there is not None and there.hash == row.hash:
            return True  # on the server already (sent before a crash, or a lost answer)
        if there is not None or (self.seq, self.last_hash) != (row.seq - 1, row.prev_hash):
            return False
        if row.table_id != self.table_id:
            raise JournalRefused(f"{where}: its event names table {row.table_id}, but it is "
                                 f"kept for {self.table_name}")
        at = utc(row.time)
        if event_hash(table_id=self.table_id, seq=row.seq, time=at, actor=row.actor,
                      hand_id=row.hand_id, body=canonical(row.body),
                      prev_hash=row.prev_hash) != row.hash:
            raise JournalRefused(f"{where}: the hash of seq {row.seq} does not follow from its "
                                 "contents and the chain before it (the journal was edited)")
        self._dealer(where, row.actor, utc(row.time))
        self.seq, self.last_hash = row.seq, row.hash
        if kind == "start":
            self._start(where, body, row)
        elif kind == "event":
            self._event(where, row)
        else:
            self._mark(where, body, row)
        return True

    def _dealer(self, where: str, actor: str | None, at: datetime | None = None) -> None:
        """``actor`` may deal at this table now: an active user with the role to, and for a
        dealer, the one whose shift is open at the table, or the one the dealer box had down
        at this table when the input was made (a relief who took the table over before the
        server went away)."""
        user = self.users.get(actor or "")
        if user is None or not user.active or user.role not in PERMISSIONS["deal"]:
            raise JournalRefused(f"{where}: {actor!r} is not a user who may deal")
        if user.role != "dealer" or (self.shift is not None and self.shift.dealer == user.name):
            return
        if at is not None and self.shift is not None and self._down_here(at) == user.name:
            return
        raise JournalRefused(f"{where}: {user.name} does not hold the open shift at "
                             f"{self.table_name}, nor was down there then")

    def _down_here(self, at: datetime) -> str | None:
        """The dealer the dealer box had down at this table at ``at`` (read once a sync)."""
        if self._downs is None:
            self._downs = fold_downs(read_downs(self.conn))
        return dealer_at(self._downs, self.table_id, at)

    def _start(self, where: str, body: dict[str, Any], row: StoredEvent) -> None:
        h = hand_from(body["hand"])
        problems = []
        if h.id != row.hand_id or row.number != 1:
            problems.append("its start event is not the hand's first")
        if h.table_id != self.table_id:
            problems.append(f"it names table {h.table_id}")
        if self.shift is None or h.shift_id != self.shift.id:
            problems.append("it is not in the table's open shift")
        if self.settings is None or (h.settings_id, h.game) != (self.settings.id,
                                                                self.settings.game):
            problems.append("it is not under the table's current settings")
        if h.number != self.max_number + 1:
            problems.append(f"it is numbered {h.number}, the table's next hand is "
                            f"{self.max_number + 1}")
        if h.started_by != row.actor or utc(h.started_at) != utc(row.time):
            problems.append("who started it, or when, differs from its start event")
        if self.last_status != "settled":
            problems.append("the table's hand before it is not settled")
        if h.id in self.hands or self.conn.execute(select(H.c.id).where(H.c.id == h.id)).first():
            problems.append(f"hand id {h.id} is taken")
        if problems:
            raise JournalRefused(f"{where}: the hand it starts cannot be this table's next "
                                 f"hand ({'; '.join(problems)})")
        hand = _Hand(h.id, h.number, "open", [row], 0, started_here=True, started_by=row.actor)
        rep = hand.replay()
        if rep.start.game != h.game or tuple(rep.start.seats) != tuple(h.seats):
            raise JournalRefused(f"{where}: the hand's game or seats differ from its start "
                                 "event")
        self.hands[h.id] = hand
        self.max_number = h.number
        self.last_hand, self.last_status = h.id, "open"

    def _hand(self, where: str, hand_id: Any) -> _Hand:
        """A hand of this table: from the batch, or the server's."""
        if not isinstance(hand_id, int) or isinstance(hand_id, bool):
            raise JournalRefused(f"{where}: it names no hand")
        known = self.hands.get(hand_id)
        if known is not None:
            return known
        row = self.conn.execute(select(H.c.table_id, H.c.number, H.c.status, H.c.settings_id)
                                .where(H.c.id == hand_id)).first()
        if row is None or int(row.table_id) != self.table_id:
            raise JournalRefused(f"{where}: hand id {hand_id} is not a hand of "
                                 f"{self.table_name} (a station records only at its own table)")
        if row.settings_id is None:
            raise JournalRefused(f"{where}: hand id {hand_id} is an imported hand: nothing is "
                                 "recorded in it")
        rows = list(self.server.hand_events(hand_id))
        hand = _Hand(hand_id, int(row.number), str(row.status), rows, len(rows))
        self.hands[hand_id] = hand
        return hand

    def _approved(self, hand: _Hand | None, what: str) -> str | None:
        """The floor person whose approval of ``what`` is on the server, if any."""
        stmt = select(A.c.actor).where(A.c.action == "approval", A.c.detail == what,
                                       A.c.table_id == self.table_id)
        if hand is not None:
            stmt = stmt.where(A.c.hand_id == hand.id)
        row = self.conn.execute(stmt.order_by(A.c.id.desc()).limit(1)).first()
        return str(row.actor) if row is not None else None

    def _event(self, where: str, row: StoredEvent) -> None:
        hand = self._hand(where, row.hand_id)
        if row.number != len(hand.rows) + 1:
            raise JournalRefused(f"{where}: it is numbered event {row.number} of hand "
                                 f"{hand.number}, which has {len(hand.rows)}")
        event = event_from_json(row.body, None) if row.body.get("type") in (
            "void", "misdeal") else None
        finished = hand.status == "settled"
        need: str | None = None
        if isinstance(event, Misdeal):
            need = f"misdeal of hand {hand.number}"
        elif isinstance(event, Void):
            finished = finished or hand.replay().over
            if finished:
                need = f"void of event {event.target} in hand {hand.number}"
        elif finished:
            raise JournalRefused(f"{where}: hand {hand.number} is settled: nothing more is "
                                 "recorded in it")
        approver = self._approved(hand, need) if need is not None else None
        if need is not None and approver is None:
            raise JournalRefused(f"{where}: the {need} needs the floor's approval, which is "
                                 "not on the server (approvals never wait in a journal)")
        hand.approved = approver is not None
        if isinstance(event, Void):
            hand.voids.append((str(row.actor), approver is not None))
        hand.rows.append(row)
        try:
            hand.replay()
        except DealerAssistError as exc:
            raise JournalRefused(f"{where}: hand {hand.number} does not replay with it: "
                                 f"{exc}") from exc

    def _mark(self, where: str, body: dict[str, Any], row: StoredEvent) -> None:
        if row.hand_id is not None:
            raise JournalRefused(f"{where}: a seat or period mark belongs to no hand")
        if self.table_rows is None:
            self.table_rows = list(self.server.table_level_events(self.table_id))
        self.table_rows.append(row)
        self.new_marks.add(row.seq)
        for x in body["lines"]:
            _fields(where, x, _TIME_LINE)
            if (x["kind"], x["detail"]) != ("fee", "time"):
                raise JournalRefused(f"{where}: a seat or period mark collects only time")
        made = [LedgerLine.time_line(table_id=self.table_id, seat=int(x["seat"]),
                                     amount=int(x["amount"]), period=int(x["period"]),
                                     seq=row.seq, at=row.time) for x in body["lines"]]
        self.time_lines.extend(made)
        if row.body.get("type") == "void":
            target = int(row.body["target"])
            approver = None
            if made:
                prefix = f"void of {self.table_name} mark {target} ("
                approver = self.conn.execute(
                    select(A.c.actor).where(A.c.action == "approval",
                                            A.c.table_id == self.table_id,
                                            A.c.detail.like(prefix.replace("%", r"\%") + "%"))
                    .order_by(A.c.id.desc()).limit(1)).scalar()
                if approver is None:
                    raise JournalRefused(f"{where}: the void of mark {target} moves money and "
                                         "needs the floor's approval, which is not on the server")
            self.mark_voids.append((str(row.actor), approver is not None))

    def _settle(self, where: str, body: dict[str, Any]) -> None:
        hand = self._hand(where, body["hand_id"])
        if hand.status == "settled":
            return  # settled on the server already: the sync passes it over
        rep = hand.replay()
        if not rep.over:
            raise JournalRefused(f"{where}: hand {hand.number} is not over: it cannot be "
                                 "settled")
        want = ledger_lines(hand.id, rep.settle())
        for x in body["lines"]:
            _fields(where, x, _HAND_LINE)
        given = [LedgerLine(hand_id=hand.id, kind=str(x["kind"]), amount=int(x["amount"]),
                            seat=None if x["seat"] is None else int(x["seat"]),
                            detail=str(x["detail"])) for x in body["lines"]]
        if not same_lines(want, given):
            raise JournalRefused(f"{where}: the settlement lines of hand {hand.number} are not "
                                 "the ones its events settle (the journal was edited)")
        hand.status = "settled"
        if hand.id == self.last_hand:
            self.last_status = "settled"

    def _reopen(self, where: str, body: dict[str, Any]) -> None:
        hand = self._hand(where, body["hand_id"])
        if hand.status != "settled" or not hand.approved or len(hand.rows) <= hand.new_from:
            raise JournalRefused(f"{where}: hand {hand.number} is reopened without an approved "
                                 "void or misdeal before it")
        hand.status = "open"
        if hand.id == self.last_hand:
            self.last_status = "open"

    def _audit(self, where: str, body: dict[str, Any]) -> None:
        _fields(where, body, _AUDIT)
        action = str(body["action"])
        if not journal_may_write(action):
            raise JournalRefused(f"{where}: a {action!r} audit entry is not one a station keeps "
                                 "while offline (it is written on the server or not at all)")
        if body["table_id"] != self.table_id:
            raise JournalRefused(f"{where}: the entry names table {body['table_id']}, but it "
                                 f"is kept for {self.table_name}")
        datetime.fromisoformat(str(body["at"]))
        actor = body["actor"]
        self._dealer(where, actor)
        detail = str(body["detail"])
        hand = self._hand(where, body["hand_id"]) if body["hand_id"] is not None else None
        if action == "stacks":
            if hand is None or not hand.started_here or hand.started_by != actor or (
                    not detail.startswith(f"hand {hand.number}: ")):
                raise JournalRefused(f"{where}: stacks are written for a hand the batch "
                                     "starts, by the one who started it")
            return
        voids = hand.voids if hand is not None else self.mark_voids
        approved = re.search(r"; approved by \S+$", detail) is not None
        match = next((i for i, (who, ok) in enumerate(voids)
                      if who == actor and ok >= approved), None)
        if match is None:
            raise JournalRefused(f"{where}: the void entry matches no void the batch records"
                                 + (" with the floor's approval" if approved else ""))
        voids.pop(match)

    def _finish(self) -> None:
        for hand in self.hands.values():
            if len(hand.rows) > hand.new_from:
                try:
                    hand.replay()
                except DealerAssistError as exc:
                    raise JournalRefused(f"hand {hand.number} does not replay: {exc}") from exc
        if self.table_rows is not None and self.new_marks:
            versions = self.server.settings_versions(self.table_id)
            fold = fold_time(self.table_id, self.table_name, versions, self.table_rows,
                             self.settings)
            if fold.problem is not None and fold.problem.seq in self.new_marks:
                raise JournalRefused(f"the seat or period mark at seq {fold.problem.seq} does "
                                     f"not stand: {fold.problem.message}")
            derived = [x for x in fold.lines if x.seq in self.new_marks]
            wrong = compare_time_lines(derived, self.time_lines)
            if wrong is not None:
                raise JournalRefused(f"seq {wrong.seq}: {wrong.message} (the journal was "
                                     "edited)")
