"""Signed checkpoints: every chain head anchored outside the database's reach.

A checkpoint is the canonical JSON of, for every table, its chain head (last seq and hash), its
hand count and the fees of its ledger, and the audit chain's head (entries and last hash),
signed with the room's Ed25519 key (:mod:`dealer_assist.db.keys`) and stored append-only,
numbered from 1. Whoever can change the database but not read the key cannot make a checkpoint
agree with a rewritten chain: a recomputed chain differs from the hash signed at its seq, a cut
tail lacks the signed seq, a deleted checkpoint leaves a gap in the numbers, or (the newest
one) is missing from an exported anchors file that the room keeps elsewhere.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import IntegrityError

from dealer_assist.bounded import check_output_file, read_text
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.keys import RoomKey, show_fingerprint
from dealer_assist.db.models import CheckpointRow
from dealer_assist.db.sealed import checkpoint_problems as sealed_checkpoint_problems
from dealer_assist.db.sealed import heads as sealed_heads
from dealer_assist.errors import BadInput
from dealer_assist.services.chain import canonical, time_text

CP = CheckpointRow.__table__
ANCHORS_FORMAT = "dealer-assist-anchors/1"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A stored checkpoint: its number, what was signed (``body``) and the signature."""

    number: int
    at: datetime
    reason: str
    key_id: str
    body: str
    signature: str

    @property
    def data(self) -> dict[str, Any]:
        out = json.loads(self.body)
        assert isinstance(out, dict)
        return out

    @property
    def fingerprint(self) -> str:
        return show_fingerprint(self.key_id)

    def table_head(self, table_id: int) -> tuple[int, str] | None:
        for t in self.data.get("tables", ()):
            if t.get("id") == table_id:
                return int(t["seq"]), str(t["hash"])
        return None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "at": time_text(self.at), "reason": self.reason,
                "key_id": self.key_id, "body": self.body, "signature": self.signature}


#: The digest of a table with no ledger lines.
EMPTY_LEDGER = hashlib.sha256(b"").hexdigest()


def ledger_digests(conn: Connection, upto: Mapping[int, int] | None = None) -> dict[int, str]:
    """Per table, the sha256 of its ledger lines in id order, every column of each (``upto``:
    only the lines with ids up to the table's number given, and only those tables). Ledger
    lines are not hashed when written; a checkpoint signs this, so a line changed later (a
    push moved to another seat, the totals kept) is named without replaying the hand."""
    out: dict[int, Any] = {}
    rows = conn.exec_driver_sql(
        "SELECT l.id, coalesce(h.table_id, l.table_id), l.hand_id, l.settlement, l.kind, "
        "l.detail, l.seat, l.amount, l.period, l.seq FROM ledger_lines l LEFT JOIN hands h "
        "ON h.id = l.hand_id ORDER BY l.id")
    for id_, table_id, *rest in rows:
        if table_id is None:
            continue
        t = int(table_id)
        if upto is not None and (t not in upto or int(id_) > upto[t]):
            continue
        digest = out.get(t)
        if digest is None:
            digest = out[t] = hashlib.sha256()
        digest.update(canonical([int(id_), *rest]).encode("utf-8") + b"\n")
    found = {t: d.hexdigest() for t, d in out.items()}
    if upto is not None:
        for t in upto:
            found.setdefault(t, EMPTY_LEDGER)
    return found


def _heads(conn: Connection) -> dict[str, Any]:
    """What a checkpoint signs, read in the caller's transaction."""
    q = conn.exec_driver_sql
    hands: dict[int, int] = dict(q("SELECT table_id, COUNT(*) FROM hands GROUP BY table_id").all())
    fees: dict[int, int] = {}
    for table_id, total in q(
        "SELECT h.table_id, SUM(l.amount) FROM ledger_lines l JOIN hands h ON h.id = l.hand_id "
        "WHERE l.kind = 'fee' AND l.settlement = (SELECT MAX(m.settlement) FROM ledger_lines m "
        "WHERE m.hand_id = l.hand_id) GROUP BY h.table_id"
    ):
        fees[int(table_id)] = int(total or 0)
    for table_id, total in q(
        "SELECT table_id, SUM(amount) FROM ledger_lines WHERE hand_id IS NULL GROUP BY table_id"
    ):
        if table_id is not None:
            fees[int(table_id)] = fees.get(int(table_id), 0) + int(total or 0)
    lines: dict[int, tuple[int, int]] = {}
    for table_id, count, last in q(
        "SELECT coalesce(h.table_id, l.table_id), COUNT(*), MAX(l.id) FROM ledger_lines l "
        "LEFT JOIN hands h ON h.id = l.hand_id GROUP BY coalesce(h.table_id, l.table_id)"
    ):
        if table_id is not None:
            lines[int(table_id)] = (int(count), int(last or 0))
    unsettled: dict[int, list[int]] = {}
    for table_id, hand_id in q(
        "SELECT table_id, id FROM hands WHERE status <> 'settled' ORDER BY id"
    ):
        unsettled.setdefault(int(table_id), []).append(int(hand_id))
    digests = ledger_digests(conn)
    tables = [
        {"id": int(id_), "name": name, "seq": int(seq or 0), "hash": head,
         "hands": int(hands.get(id_, 0)), "fees": fees.get(int(id_), 0),
         "lines": lines.get(int(id_), (0, 0))[0], "last_line": lines.get(int(id_), (0, 0))[1],
         "ledger": digests.get(int(id_), EMPTY_LEDGER),
         "open": unsettled.get(int(id_), [])}
        for id_, name, seq, head in q(
            "SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id"
        )
    ]
    audit = q("SELECT entries, head_hash FROM audit_head WHERE id = 1").first()
    out: dict[str, Any] = {"tables": tables,
                           "audit": {"entries": int(audit[0]) if audit else 0,
                                     "hash": audit[1] if audit else "0" * 64}}
    records = {kind: {"entries": n, "hash": h} for kind, (n, h) in sealed_heads(conn).items()
               if n}
    if records:  # the sealed typed rows' heads (schema 0017), once a table holds any
        out["records"] = records
    return out


def sign_checkpoint(db: Database, key: RoomKey, *, reason: str,
                    checked: Mapping[str, Any] | None = None) -> Checkpoint:
    """Sign and store a checkpoint of every chain head as they are now. ``checked``: what a
    check found intact just before (``{"full": true}``, or ``{"since": N}``: from checkpoint N,
    as ``verify --since-checkpoint``), signed with it; only such a checkpoint is a starting
    point for ``verify --since-checkpoint`` (one signed for a report vouches for nothing)."""
    for _ in range(3):
        try:
            with db.engine.begin() as conn:
                number = 1 + int(conn.execute(
                    select(func.coalesce(func.max(CP.c.number), 0))
                ).scalar_one())
                at = datetime.now(UTC)
                body = canonical({"n": number, "at": time_text(at), "reason": reason,
                                  "key": key.key_id, **_heads(conn),
                                  **({"checked": dict(checked)} if checked else {})})
                signature = key.sign(body.encode("utf-8"))
                conn.execute(insert(CP).values(number=number, at=at, reason=reason,
                                               key_id=key.key_id, body=body,
                                               signature=signature))
            return Checkpoint(number, at, reason, key.key_id, body, signature)
        except IntegrityError:  # another station took the number: take the next
            continue
    raise BadInput("could not store a checkpoint: other stations kept taking its number; retry")


def stored_checkpoints(conn: Connection) -> list[Checkpoint]:
    from dealer_assist.db.models import UTCDateTime

    out = []
    for r in conn.execute(select(CP).order_by(CP.c.number, CP.c.id)):
        at = r.at
        if isinstance(at, str):
            at = UTCDateTime().process_result_value(at, conn.dialect)
        out.append(Checkpoint(int(r.number), at, r.reason, r.key_id, r.body, r.signature))
    return out


def latest_checkpoint(db: Database) -> Checkpoint | None:
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        rows = stored_checkpoints(conn)
    return rows[-1] if rows else None


def export_anchors(db: Database, key: RoomKey, out: Path) -> tuple[Checkpoint, int]:
    """Sign a fresh checkpoint, then write every checkpoint and the public key to ``out``.

    The file's place is checked first, so a mistyped folder signs nothing."""
    if not out.parent.is_dir():
        raise BadInput(f"the folder {out.parent} does not exist: create it or choose another")
    if out.is_dir():
        raise BadInput(f"{out} is a folder: name a file, like anchors.json")
    check_output_file(out, what="signed or written")
    tmp = out.with_name(out.name + ".tmp")
    if tmp.is_symlink() or (tmp.exists() and not tmp.is_file()):
        raise BadInput(f"{tmp} (where the file is written first) is not a regular file: remove "
                       "it or choose another name; nothing was signed")
    fresh = sign_checkpoint(db, key, reason="export")
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        rows = stored_checkpoints(conn)
    doc = {"format": ANCHORS_FORMAT, "public_key": key.public_hex, "key_id": key.key_id,
           "fingerprint": key.fingerprint, "checkpoints": [c.to_json() for c in rows]}
    try:
        tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        tmp.replace(out)
    except OSError as exc:
        raise BadInput(f"cannot write {out} ({exc.strerror}): choose a place you may write to; "
                       f"checkpoint {fresh.number} is signed and stays in the database") from exc
    return fresh, len(rows)


@dataclass(frozen=True, slots=True)
class Anchors:
    """An exported anchors file: the room's public key and the checkpoints it held."""

    key: RoomKey
    checkpoints: tuple[Checkpoint, ...]


#: The largest anchors file read: some thousands of checkpoints of a room of tables.
MAX_ANCHORS_BYTES = 64 * 1024 * 1024


def read_anchors(path: Path) -> Anchors:
    """The anchors file, read within bounds: a folder, a device that never ends, a file past
    :data:`MAX_ANCHORS_BYTES` or nested deeper than any anchors file is refused clearly."""
    text = read_text(path, what="anchors file", max_bytes=MAX_ANCHORS_BYTES)
    try:
        doc = json.loads(text)
    except RecursionError as exc:
        raise BadInput(f"{path} nests too deeply: it is not an anchors file") from exc
    except ValueError as exc:
        raise BadInput(f"{path} is not an anchors file (not JSON): {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != ANCHORS_FORMAT:
        raise BadInput(f"{path} is not an anchors file written by `checkpoints export`")
    try:
        key = RoomKey.from_public_hex(str(doc["public_key"]))
        cps = tuple(
            Checkpoint(int(c["number"]), datetime.fromisoformat(c["at"]), str(c["reason"]),
                       str(c["key_id"]), str(c["body"]), str(c["signature"]))
            for c in doc["checkpoints"]
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadInput(f"{path}: an anchors entry cannot be read ({exc})") from exc
    return Anchors(key, cps)


@dataclass(slots=True)
class AnchorCheck:
    """The checkpoints checked: what is wrong, and the newest one that verified."""

    problems: list[str] = field(default_factory=list)
    good: Checkpoint | None = None
    #: The newest checkpoint that verifies and was signed after a check found the database
    #: intact (it carries ``checked`` and its ledger digests): where ``--since-checkpoint``
    #: starts.
    base: Checkpoint | None = None
    stored: int = 0
    signed: bool = False

    def summary(self) -> str:
        if not self.stored:
            return "no signed checkpoint yet"
        if self.good is None:
            return f"{self.stored} signed checkpoints, none verified"
        how = "signatures checked" if self.signed else "signatures NOT checked (no room key here)"
        many = "checkpoint" if self.stored == 1 else "checkpoints"
        return (f"{self.stored} signed {many} ({how}); the newest, {self.good.number}, matches "
                f"the database (key {self.good.fingerprint})")


def _anchor_problems(
    conn: Connection, cp: Checkpoint, names: Mapping[int, str], *, count_hands: bool = True
) -> list[str]:
    """Where the database no longer has what checkpoint ``cp`` signed (``count_hands``: also
    the hands up to each signed seq, a scan of the table's hands)."""
    out: list[str] = []
    pg = conn.dialect.name == "postgresql"
    mark = "%s" if pg else "?"
    data = cp.data
    for t in data.get("tables", ()):
        table_id, seq, head = int(t["id"]), int(t["seq"]), str(t["hash"])
        name = names.get(table_id, t.get("name", f"#{table_id}"))
        where = f"table {name} (id {table_id})"
        if table_id not in names:
            out.append(f"{where}: checkpoint {cp.number} signed it, but the table is gone")
            continue
        if seq:
            row = conn.exec_driver_sql(
                f"SELECT hash FROM events WHERE table_id = {mark} AND seq = {mark}",
                (table_id, seq),
            ).first()
            if row is None:
                out.append(f"{where}, seq {seq}: checkpoint {cp.number} signed this event but "
                           "it is no longer stored (events at the end were cut)")
                continue
            if row[0] != head:
                out.append(f"{where}, seq {seq}: the event's hash differs from the one "
                           f"checkpoint {cp.number} signed (the chain was rewritten and its "
                           "hashes recomputed)")
                continue
        if not count_hands:
            continue
        hands = conn.exec_driver_sql(
            "SELECT COUNT(*) FROM hands h WHERE h.table_id = "
            f"{mark} AND EXISTS (SELECT 1 FROM events e WHERE e.hand_id = h.id AND e.number = 1 "
            f"AND e.seq <= {mark})", (table_id, seq),
        ).scalar()
        if int(hands or 0) != int(t.get("hands", 0)):
            out.append(f"{where}: checkpoint {cp.number} signed {t.get('hands')} hands up to "
                       f"seq {seq}, the database has {hands} (hands were deleted or added)")
        if "last_line" in t:
            out.extend(_ledger_problems(conn, cp, t, where))
    out.extend(sealed_checkpoint_problems(conn, cp.number, data.get("records") or {}))
    audit = data.get("audit") or {}
    entries, head = int(audit.get("entries", 0)), str(audit.get("hash", ""))
    if count_hands and entries:
        stored = int(conn.exec_driver_sql(
            f"SELECT COUNT(*) FROM audit_log WHERE seq <= {mark}", (entries,)).scalar() or 0)
        if stored != entries:
            out.append(f"audit log: checkpoint {cp.number} signed {entries} entries, the "
                       f"database has {stored} numbered up to {entries} (an entry was added "
                       "with a number already taken, or deleted)")
    if entries:
        row = conn.exec_driver_sql(
            f"SELECT hash FROM audit_log WHERE seq = {mark}", (entries,)
        ).first()
        if row is None:
            out.append(f"audit log: checkpoint {cp.number} signed entry {entries}, which is no "
                       "longer stored (entries at the end were cut)")
        elif row[0] != head:
            out.append(f"audit log, entry {entries}: its hash differs from the one checkpoint "
                       f"{cp.number} signed (the audit chain was rewritten)")
    return out


def ledger_at(conn: Connection, table_id: int, last_line: int) -> tuple[int, int]:
    """A table's ledger lines with ids up to ``last_line``: how many, and their fees (each
    hand's latest settlement among them, and the time collections), as a checkpoint signs."""
    mark = "%s" if conn.dialect.name == "postgresql" else "?"
    q = conn.exec_driver_sql
    count = q(
        "SELECT COUNT(*) FROM ledger_lines l LEFT JOIN hands h ON h.id = l.hand_id WHERE "
        f"coalesce(h.table_id, l.table_id) = {mark} AND l.id <= {mark}", (table_id, last_line),
    ).scalar()
    fees = q(
        "SELECT SUM(l.amount) FROM ledger_lines l JOIN hands h ON h.id = l.hand_id "
        f"WHERE h.table_id = {mark} AND l.id <= {mark} AND l.kind = 'fee' AND l.settlement = "
        "(SELECT MAX(m.settlement) FROM ledger_lines m WHERE m.hand_id = l.hand_id "
        f"AND m.id <= {mark})", (table_id, last_line, last_line),
    ).scalar()
    time = q(
        f"SELECT SUM(amount) FROM ledger_lines WHERE hand_id IS NULL AND table_id = {mark} "
        f"AND id <= {mark}", (table_id, last_line),
    ).scalar()
    return int(count or 0), int(fees or 0) + int(time or 0)


def _ledger_problems(conn: Connection, cp: Checkpoint, t: Mapping[str, Any],
                     where: str) -> list[str]:
    """The ledger and the hands' status against what checkpoint ``cp`` signed of table ``t``:
    the lines it signed are all still there and add up to its fees; a hand it signed settled
    gets no new lines and is not marked open again unless an event after it (a void, a
    misdeal) reopened it."""
    out: list[str] = []
    mark = "%s" if conn.dialect.name == "postgresql" else "?"
    table_id, seq, last = int(t["id"]), int(t["seq"]), int(t["last_line"])
    count, fees = ledger_at(conn, table_id, last)
    if count != int(t.get("lines", 0)):
        out.append(f"{where}: checkpoint {cp.number} signed {t.get('lines')} ledger lines, the "
                   f"database has {count} of them (lines were added or deleted)")
    if fees != int(t.get("fees", 0)):
        out.append(f"{where}: checkpoint {cp.number} signed fees of {t.get('fees')} cents, its "
                   f"ledger lines now give {fees} (a settlement was added or changed)")
    signed_open = {int(h) for h in t.get("open", ())}
    later = (f"EXISTS (SELECT 1 FROM events x WHERE x.hand_id = h.id AND x.seq > {mark})")
    started = (f"EXISTS (SELECT 1 FROM events e WHERE e.hand_id = h.id AND e.number = 1 "
               f"AND e.seq <= {mark})")
    for hand_id, number, why in conn.exec_driver_sql(
        f"SELECT h.id, h.number, 'lines' FROM hands h WHERE h.table_id = {mark} AND {started} "
        f"AND NOT {later} AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.hand_id = h.id "
        f"AND l.id > {mark}) UNION ALL "
        f"SELECT h.id, h.number, 'open' FROM hands h WHERE h.table_id = {mark} AND {started} "
        f"AND NOT {later} AND h.status <> 'settled' ORDER BY 2",
        (table_id, seq, seq, last, table_id, seq, seq),
    ):
        if int(hand_id) in signed_open:
            continue
        if why == "lines":
            out.append(f"{where}: hand {number} was settled when checkpoint {cp.number} was "
                       "signed, and got ledger lines since with no event reopening it (a "
                       "settlement was added behind the app's back)")
        else:
            out.append(f"{where}: hand {number} is marked open, but it was settled when "
                       f"checkpoint {cp.number} was signed and no event since reopened it (its "
                       "status was changed behind the app's back)")
    return out


def check_checkpoints(
    conn: Connection, key: RoomKey | None, anchors: Anchors | None = None,
    *, every: bool = True,
) -> AnchorCheck:
    """Check the stored checkpoints (numbering, signatures, and that the database still has
    what each signed; ``every`` False: only the newest's anchors), and an anchors file's."""
    result = AnchorCheck()
    stored = stored_checkpoints(conn)
    result.stored = len(stored)
    names = {int(i): n for i, n in conn.exec_driver_sql("SELECT id, name FROM card_tables")}
    if key is None and anchors is not None:
        key = anchors.key
    result.signed = key is not None
    expected = 1
    for cp in stored:
        if cp.number != expected:
            if cp.number > expected:
                result.problems.append(
                    f"checkpoint {expected} is missing (deleted); the next stored is {cp.number}"
                )
            else:
                result.problems.append(f"checkpoint {cp.number} is stored twice")
        expected = cp.number + 1
    by_number = {cp.number: cp for cp in stored}
    sound: list[Checkpoint] = []
    for cp in stored:
        try:
            data = cp.data
        except ValueError:
            result.problems.append(f"checkpoint {cp.number} cannot be read")
            continue
        if data.get("n") != cp.number:
            result.problems.append(f"checkpoint {cp.number} says it is number {data.get('n')}")
            continue
        if data.get("reason") != cp.reason or data.get("at") != time_text(cp.at):
            result.problems.append(
                f"checkpoint {cp.number}: its stored reason or time ({cp.reason!r}, "
                f"{time_text(cp.at)}) differs from what was signed ({data.get('reason')!r}, "
                f"{data.get('at')}): the row was changed")
        if key is not None and (
            cp.key_id != key.key_id or not key.verifies(cp.signature, cp.body.encode("utf-8"))
        ):
            result.problems.append(
                f"checkpoint {cp.number}: its signature does not verify with the room's key "
                f"({show_fingerprint(key.key_id)}): it was forged or changed"
            )
            continue
        sound.append(cp)
    todo = sound if every else sound[-1:]
    for cp in todo:
        found = _anchor_problems(conn, cp, names, count_hands=cp is sound[-1])
        result.problems.extend(found)
        if not found:
            result.good = cp
    if not every and sound and result.good is None:  # the newest does not match: look back
        for cp in reversed(sound[:-1]):
            if not _anchor_problems(conn, cp, names):
                result.good = cp
                break
    for cp in reversed(sound):
        data = cp.data
        if "checked" not in data or any("ledger" not in t for t in data.get("tables", ())):
            continue
        if cp is result.good or not _anchor_problems(conn, cp, names):
            result.base = cp
            break
    if anchors is not None:
        newest = anchors.checkpoints[-1] if anchors.checkpoints else None
        for cp in anchors.checkpoints:
            if not anchors.key.verifies(cp.signature, cp.body.encode("utf-8")):
                result.problems.append(f"anchors file: checkpoint {cp.number}'s signature does "
                                       "not verify (the file was changed)")
                continue
            mine = by_number.get(cp.number)
            if mine is None:
                result.problems.append(f"checkpoint {cp.number} of the anchors file is not in "
                                       "the database (deleted)")
            elif mine.signature != cp.signature or mine.body != cp.body:
                result.problems.append(f"checkpoint {cp.number} in the database differs from "
                                       "the anchors file's")
            result.problems.extend(
                p for p in _anchor_problems(conn, cp, names, count_hands=cp is newest)
                if p not in result.problems
            )
    return result


def describe(cps: Sequence[Checkpoint]) -> str:
    return ", ".join(f"{c.number} ({c.reason})" for c in cps)
