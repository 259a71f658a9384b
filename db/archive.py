"""A closed gaming day in one signed file, checked without a database.

``write_archive`` gathers the day's records: every table's chain segment that holds the hands
started in the day (each event with its time, actor, text and hashes, so the chain's links
can be recomputed), each hand's ledger lines as settled, the audit entries of the day as a
contiguous run of the audit chain (counts, approvals, reports and the record entries
included), and the checkpoints signed during the day. The canonical JSON of all that is signed
with the room's key; the file carries the public key and its fingerprint.

``check_archive`` needs only the file: it checks the signature, recomputes every event and
audit hash and link, replays every hand and compares its settlement with its ledger lines, and
checks each checkpoint's signature and the heads it signed that fall inside the archive.
"""

from __future__ import annotations

import json
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.checkpoints import stored_checkpoints
from dealer_assist.db.keys import RoomKey, show_fingerprint
from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents
from dealer_assist.services.audit_chain import audit_hash
from dealer_assist.services.chain import GENESIS, canonical, row_hash, time_text, utc

ARCHIVE_FORMAT = "dealer-assist-archive/1"


def _rows(conn: Connection, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    pg = conn.dialect.name == "postgresql"
    return list(conn.exec_driver_sql(sql.replace("?", "%s") if pg else sql, params))


def _t(value: Any) -> str:
    """A stored time as the text its hash was made over."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return time_text(value)


def gather(db: Database, since: datetime, until: datetime, day: str = "") -> dict[str, Any]:
    """The records of ``[since, until)`` (hands by their start, audit entries by their time)."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        names = {int(i): str(n) for i, n in _rows(conn, "SELECT id, name FROM card_tables")}
        hands = _rows(conn, "SELECT id, table_id, number, game, seats, status FROM hands "
                      "WHERE started_at >= ? AND started_at < ? ORDER BY table_id, number",
                      (since.replace(tzinfo=None), until.replace(tzinfo=None)))
        by_table: dict[int, list[Any]] = {}
        for h in hands:
            by_table.setdefault(int(h[1]), []).append(h)
        span = (since.replace(tzinfo=None), until.replace(tzinfo=None))
        timed = {int(t): (int(lo), int(hi)) for t, lo, hi in _rows(
            conn, "SELECT table_id, MIN(seq), MAX(seq) FROM events WHERE hand_id IS NULL AND "
            "time >= ? AND time < ? GROUP BY table_id", span)}
        for table_id in timed:
            by_table.setdefault(table_id, [])
        imported = {int(h) for (h,) in _rows(
            conn, "SELECT id FROM hands WHERE settings_id IS NULL AND started_at >= ? AND "
            "started_at < ?", span)}
        tables = []
        for table_id, th in sorted(by_table.items()):
            ids = [int(h[0]) for h in th] or [0]
            marks = ",".join("?" for _ in ids)
            lo, hi = _rows(conn, f"SELECT MIN(seq), MAX(seq) FROM events WHERE hand_id IN "
                           f"({marks})", tuple(ids))[0]
            if table_id in timed:  # the day's seat and period marks, between hands or not
                tlo, thi = timed[table_id]
                lo, hi = min(tlo, lo if lo is not None else tlo), max(thi, hi or thi)
            events = _rows(conn, "SELECT seq, hand_id, number, time, actor, body, prev_hash, "
                           "hash FROM events WHERE table_id = ? AND seq >= ? AND seq <= ? "
                           "ORDER BY seq", (table_id, lo, hi))
            ledger: dict[int, list[list[Any]]] = {}
            latest: dict[int, int] = {}
            for hid, settlement, kind, detail, seat, amount in _rows(
                    conn, f"SELECT hand_id, settlement, kind, detail, seat, amount FROM "
                    f"ledger_lines WHERE hand_id IN ({marks}) ORDER BY id", tuple(ids)):
                if settlement > latest.get(hid, 0):
                    latest[hid], ledger[hid] = settlement, []
                if settlement == latest[hid]:
                    ledger[hid].append([kind, detail or "", seat, int(amount)])
            when_of = {int(e[0]): e[3] for e in events}
            time_lines = [[int(q), seat, int(amount), period] for q, seat, amount, period in _rows(
                conn, "SELECT seq, seat, amount, period FROM ledger_lines WHERE hand_id IS NULL "
                "AND table_id = ? AND seq >= ? AND seq <= ? ORDER BY id", (table_id, lo, hi))]
            tables.append({
                "id": table_id, "name": names.get(table_id, str(table_id)),
                "hands": [{"id": int(h[0]), "number": int(h[2]), "game": h[3],
                           "status": h[5], "ledger": ledger.get(int(h[0]), []),
                           **({"imported": True} if int(h[0]) in imported else {})}
                          for h in th],
                "events": [[int(e[0]), e[1], int(e[2]), _t(e[3]), e[4], e[5], e[6], e[7]]
                           for e in events],
                "time": [line for line in time_lines
                         if _in_day(when_of, line[0], since, until)],
            })
        seqs = _rows(conn, "SELECT MIN(seq), MAX(seq) FROM audit_log WHERE at >= ? AND at < ?",
                     (since.replace(tzinfo=None), until.replace(tzinfo=None)))[0]
        audit = []
        if seqs[0] is not None:
            audit = [[int(a[0]), _t(a[1]), a[2], a[3], a[4], a[5], a[6], a[7], a[8]]
                     for a in _rows(conn, "SELECT seq, at, actor, action, detail, table_id, "
                                    "hand_id, prev_hash, hash FROM audit_log WHERE seq >= ? "
                                    "AND seq <= ? ORDER BY seq", tuple(seqs))]
        shifts = _day_shifts(conn, span, {int(h[0]) for h in hands})
        more = _later_entries(conn, shifts, day or since.date().isoformat(),
                              {int(a[0]) for a in audit})
        stored = stored_checkpoints(conn)
        checkpoints = [c.to_json() for c in stored if utc(since) <= utc(c.at) < utc(until)]
        covering = next((c for c in stored if utc(c.at) >= utc(until)), None)
        if covering is not None:  # the first signed after the day: it covers all of it
            checkpoints.append(covering.to_json())
    return {"tables": tables, "audit": audit, "checkpoints": checkpoints, "shifts": shifts,
            "audit_more": more}


def _in_day(when_of: dict[int, Any], seq: int, since: datetime, until: datetime) -> bool:
    """The event ``seq`` (of the table's archived segment) happened in the day."""
    when = when_of.get(seq)
    if when is None:
        return False
    at = when if isinstance(when, datetime) else datetime.fromisoformat(str(when))
    return utc(since) <= utc(at) < utc(until)


def _day_shifts(conn: Connection, span: tuple[datetime, datetime],
                hand_ids: set[int]) -> list[dict[str, Any]]:
    """The shifts the day's reports cover: open at some time in the day, or holding one of its
    hands (a shift closed after midnight with its close)."""
    rows = _rows(conn, "SELECT id, table_id, dealer, floor, opened_at, closed_at, closed_by, "
                 "closed_floor FROM shifts WHERE opened_at < ? AND (closed_at IS NULL OR "
                 "closed_at >= ?) ORDER BY id", (span[1], span[0]))
    ids = {int(r[0]) for r in rows}
    if hand_ids:
        marks = ",".join("?" for _ in hand_ids)
        extra = {int(s) for (s,) in _rows(conn, f"SELECT DISTINCT shift_id FROM hands WHERE id "
                                          f"IN ({marks})", tuple(sorted(hand_ids)))} - ids
        if extra:
            marks = ",".join("?" for _ in extra)
            rows += _rows(conn, "SELECT id, table_id, dealer, floor, opened_at, closed_at, "
                          f"closed_by, closed_floor FROM shifts WHERE id IN ({marks})",
                          tuple(sorted(extra)))
    return [{"id": int(r[0]), "table": int(r[1]), "dealer": r[2], "floor": r[3],
             "opened": _t(r[4]), "closed": None if r[5] is None else _t(r[5]),
             "closed_by": r[6], "closed_floor": r[7]} for r in sorted(rows, key=lambda r: r[0])]


#: Actions of the drop count and the shift close, kept in the audit log.
_COUNT_ACTIONS = ("drop-box", "drop", "count", "count-signoff", "shift-closed", "report",
                  "approval", "checkpoint", "no-checkpoint")


def _later_entries(conn: Connection, shifts: list[dict[str, Any]], label: str,
                   have: set[int]) -> list[list[Any]]:
    """The audit entries outside the day's run that its reports were built from: its shifts'
    drop boxes (registered before, perhaps long before), drops, counts and sign-offs, the
    closes of its shifts made after midnight (with their approvals and checkpoints), and the
    reports logged for the day or its shifts."""
    from dealer_assist.services.room import read_box, read_count, read_signoff

    ids = {s["id"] for s in shifts}
    day = f"day summary: {label},"
    marks = ",".join("?" for _ in _COUNT_ACTIONS)
    rows = _rows(conn, "SELECT seq, at, actor, action, detail, table_id, hand_id, prev_hash, "
                 f"hash FROM audit_log WHERE action IN ({marks}) ORDER BY seq", _COUNT_ACTIONS)
    boxes: set[str] = set()
    counts: set[int] = set()
    wanted: list[Any] = []
    for r in rows:
        action, detail = r[3], r[4] or ""
        keep = False
        if action in ("drop", "count"):
            rec = read_box(detail) if action == "drop" else read_count(detail)
            if rec is not None and rec.shift_id in ids:
                boxes.add(rec.box)
                keep = True
                if action == "count":
                    counts.add(int(r[0]))
        elif action == "shift-closed":
            keep = any(detail.startswith(f"shift {i},") for i in ids)
        elif action == "report":
            keep = detail.startswith(day) or any(
                f", shift {i}," in detail and detail.startswith("shift report") for i in ids)
        elif action in ("checkpoint", "no-checkpoint", "approval"):
            keep = any(f"shift {i} closed" in detail or detail == f"closing shift {i}"
                       for i in ids)
        if keep:
            wanted.append(r)
    for r in rows:
        action, detail = r[3], r[4] or ""
        if action == "drop-box":
            rec = read_box(detail)
            if rec is not None and rec.box in boxes:
                wanted.append(r)
        elif action == "count-signoff":
            so = read_signoff(detail)
            if so is not None and so.entry in counts:
                wanted.append(r)
    return [[int(a[0]), _t(a[1]), a[2], a[3], a[4], a[5], a[6], a[7], a[8]]
            for a in sorted(wanted, key=lambda a: int(a[0])) if int(a[0]) not in have]


def write_archive(db: Database, key: RoomKey, out: Path, *, day: str, since: datetime,
                  until: datetime, cardroom: str, clock: str, keep_until: str) -> dict[str, Any]:
    """Write the day's archive to ``out`` (through a temporary file), signed with ``key``."""
    if out.is_dir():
        raise BadInput(f"{out} is a folder: name a file, like day-2026-11-21.archive.json")
    if not out.parent.is_dir():
        raise BadInput(f"the folder {out.parent} does not exist: create it or choose another")
    body = {"format": ARCHIVE_FORMAT, "cardroom": cardroom, "day": day,
            "from": time_text(since), "to": time_text(until), "clock": clock,
            "keep_until": keep_until, **gather(db, since, until, day)}
    text = canonical(body)
    doc = {"format": ARCHIVE_FORMAT, "public_key": key.public_hex, "key_id": key.key_id,
           "fingerprint": key.fingerprint, "signature": key.sign(text.encode("utf-8")),
           "body": text}
    tmp = out.with_name(out.name + ".part")
    try:
        tmp.write_text(json.dumps(doc) + "\n", encoding="utf-8")
        tmp.replace(out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BadInput(f"cannot write {out}: {exc.strerror or exc}") from exc
    return body


@dataclass
class ArchiveCheck:
    """What checking an archive found: its day, sizes, and every problem (empty: intact)."""

    day: str = ""
    fingerprint: str = ""
    hands: int = 0
    events: int = 0
    audit: int = 0
    checkpoints: int = 0
    #: Day summaries logged for the day whose totals were rebuilt and compared.
    reports: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        what = (f"archive of gaming day {self.day}: {self.hands} hands, {self.events} events, "
                f"{self.audit} audit entries, {self.checkpoints} checkpoints; "
                + (f"the day's totals rebuilt and compared with {self.reports} day summary "
                   "report(s) logged for it; " if self.reports else "")
                + f"signed by room key {self.fingerprint}")
        if self.ok:
            return f"{what}: intact"
        return what + ": " + str(len(self.problems)) + " problem(s)\n  " + \
            "\n  ".join(self.problems)


#: The largest archive read: a gaming day of a busy room is tens of MiB; nothing larger is one.
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024
#: What a file that is not a well-formed archive raises while it is checked.
_UNREADABLE = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError)


def _read_archive(path: Path) -> dict[str, Any]:
    """The archive's outer JSON, read as every file handed to the program is: a folder, a
    device or pipe (``/dev/zero`` never ends), a file past :data:`MAX_ARCHIVE_BYTES`, text that
    is not UTF-8 or JSON nested deeper than the parser goes is refused with a message."""
    from dealer_assist.bounded import read_text

    try:
        st = path.stat()
    except FileNotFoundError as exc:
        raise BadInput(f"no such archive file: {path}") from exc
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(st.st_mode):
        raise BadInput(f"{path} is a folder, not an archive: name the file `dealer-assist "
                       "archive` wrote (like day-2026-11-21.archive.json)")
    if not stat.S_ISREG(st.st_mode):
        raise BadInput(f"{path} is not a regular file (a device or a pipe): it is not an "
                       "archive; name the file `dealer-assist archive` wrote")
    if st.st_size > MAX_ARCHIVE_BYTES:
        raise BadInput(f"{path} is larger than {MAX_ARCHIVE_BYTES // 2**20:,} MiB: it is not an "
                       "archive of one gaming day")
    text = read_text(path, what="archive", max_bytes=MAX_ARCHIVE_BYTES)
    try:
        doc = json.loads(text)
    except RecursionError as exc:
        raise BadInput(f"{path} nests too deeply: it is not an archive") from exc
    except ValueError as exc:
        raise BadInput(f"{path} is not an archive (not JSON): {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != ARCHIVE_FORMAT:
        raise BadInput(f"{path} is not an archive written by `dealer-assist archive`")
    return doc


def check_archive(path: Path, key: RoomKey | None = None) -> ArchiveCheck:
    """Check an archive file on its own (no database): see the module's docstring. ``key``:
    the room's key as known from elsewhere (a key file or an anchors file); without it the
    file's own public key is used, and its fingerprint is printed to compare by eye. A file
    that is not a well-formed archive is refused (:class:`BadInput`), never a traceback."""
    doc = _read_archive(path)
    try:
        return _check(doc, key)
    except _UNREADABLE as exc:
        raise BadInput(f"{path}: the archive cannot be read ({type(exc).__name__}: "
                       f"{str(exc)[:200]})") from exc


def _check(doc: dict[str, Any], key: RoomKey | None) -> ArchiveCheck:
    out = ArchiveCheck()
    own = RoomKey.from_public_hex(str(doc["public_key"]))
    text = str(doc["body"])
    body = json.loads(text)
    out.fingerprint = show_fingerprint(own.key_id)
    out.day = str(body.get("day", "?"))
    if key is not None and key.key_id != own.key_id:
        out.problems.append(f"signed by key {out.fingerprint}, not the room's key "
                            f"{key.fingerprint}")
    if not own.verifies(str(doc.get("signature", "")), text.encode("utf-8")):
        out.problems.append("the signature does not verify: the file was changed after it "
                            "was signed")
    heads: dict[int, dict[int, str]] = {}
    for t in body.get("tables", []):
        heads[int(t["id"])] = _check_table(t, out)
    audit_heads = _check_audit(body.get("audit", []), out)
    audit_heads.update(_check_more(body.get("audit_more", []), out))
    _check_totals(body, out)
    ends = str(body.get("to", ""))
    if ends and not any(_signed_at(c) >= ends for c in body.get("checkpoints", [])):
        out.problems.append("no signed checkpoint covers the day: none signed after it ended "
                            "is in the archive")
    for c in body.get("checkpoints", []):
        out.checkpoints += 1
        n = c.get("number")
        if not own.verifies(str(c.get("signature", "")), str(c.get("body", "")).encode("utf-8")):
            out.problems.append(f"checkpoint {n}: its signature does not verify")
            continue
        data = json.loads(str(c["body"]))
        for th in data.get("tables", ()):
            got = heads.get(int(th["id"]), {}).get(int(th["seq"]))
            if got is not None and got != th["hash"]:
                out.problems.append(f"table {th.get('name')}, seq {th['seq']}: the event's "
                                    f"hash differs from the one checkpoint {n} signed")
        a = data.get("audit") or {}
        got = audit_heads.get(int(a.get("entries", 0)))
        if got is not None and got != a.get("hash"):
            out.problems.append(f"audit entry {a.get('entries')}: its hash differs from the "
                                f"one checkpoint {n} signed")
    return out


def _check_table(t: dict[str, Any], out: ArchiveCheck) -> dict[int, str]:
    """Recompute the table's chain segment, then replay its hands against their ledgers."""
    from dealer_assist.engine.hand import Refused
    from dealer_assist.engine.stored import fold, parser_of
    from dealer_assist.services.ledger import ledger_lines, same_lines
    from dealer_assist.services.model import LedgerLine

    name, table_id = t.get("name"), int(t["id"])
    hashes: dict[int, str] = {}
    prev: str | None = None
    rows: dict[int, list[list[Any]]] = {}
    for seq, hand_id, _number, when, actor, text, prev_hash, digest in t.get("events", []):
        out.events += 1
        if prev is not None and prev_hash != prev:
            out.problems.append(f"table {name}, seq {seq}: not linked to the event before it")
        if row_hash(table_id, seq, when, actor, hand_id, text, prev_hash) != digest:
            out.problems.append(f"table {name}, seq {seq}: its hash does not match its contents")
        prev = digest
        hashes[int(seq)] = str(digest)
        if hand_id is not None:
            rows.setdefault(int(hand_id), []).append([seq, text])
    for h in t.get("hands", []):
        out.hands += 1
        texts = [x[1] for x in rows.get(int(h["id"]), [])]
        where = f"table {name}, hand {h['number']}"
        try:
            first = parser_of("")(texts[0])
            parse = parser_of(str(h["game"]))
            result = fold([first, *[parse(x) for x in texts[1:]]])
        except Exception as exc:  # any unreadable or missing event is a problem, named
            out.problems.append(f"{where}: its events cannot be read ({exc})")
            continue
        if isinstance(result, Refused):
            out.problems.append(f"{where}: does not replay at event {result.index + 1}: "
                                f"{result.reason}")
            continue
        if not result.over:
            continue
        stored = [LedgerLine(int(h["id"]), k, int(a), s, d) for k, d, s, a in h["ledger"]]
        if not same_lines(ledger_lines(int(h["id"]), result.settle()), stored):
            out.problems.append(f"{where}: its ledger lines differ from its replay")
    return hashes


def _signed_at(c: dict[str, Any]) -> str:
    try:
        return str(json.loads(str(c.get("body", "{}"))).get("at", ""))
    except ValueError:
        return ""


def _check_more(entries: list[list[Any]], out: ArchiveCheck) -> dict[int, str]:
    """The entries kept beside the day's run (a box registered before the day, a count or a
    shift close after it): each hash recomputed from its contents."""
    hashes: dict[int, str] = {}
    for seq, at, actor, action, detail, table_id, hand_id, prev_hash, digest in entries:
        out.audit += 1
        again = audit_hash(seq=seq, at=datetime.fromisoformat(at), actor=actor, action=action,
                           detail=detail, table_id=table_id, hand_id=hand_id,
                           prev_hash=prev_hash or GENESIS)
        if again != digest:
            out.problems.append(f"audit entry {seq}: its hash does not match its contents")
        hashes[int(seq)] = str(digest)
    return hashes


#: A day summary's audit entry: its hands and, since they were logged, its money figures.
_LOGGED_DAY = re.compile(r"^day summary: (?P<day>\d{4}-\d\d-\d\d), \d+ tables, "
                         r"(?P<hands>\d+) hands(?P<rest>.*)$")
_FIGURE = re.compile(r"(put in|pushed|house fees|jackpot drop|time) (-?\$[\d,.]+)")


def day_totals(body: dict[str, Any]) -> dict[str, int]:
    """The day summary's totals rebuilt from the archive alone: its hands (imported ones
    aside, as the report sets them aside), what they put in and pushed by their ledgers, the
    house fees and the jackpot and promotional drops, and the time collected from seats."""
    def is_fund_kind(kind: str) -> bool:  # (as the reports tell a fund's drop from the house's)
        return kind.lower().startswith(("jackpot", "promo"))

    out = {"hands": 0, "put in": 0, "pushed": 0, "house fees": 0, "jackpot drop": 0,
           "time": 0}
    for t in body.get("tables", []):
        for h in t.get("hands", []):
            if h.get("imported"):
                continue
            out["hands"] += 1
            for kind, detail, _seat, amount in h.get("ledger", []):
                if kind == "put_in":
                    out["put in"] += int(amount)
                elif kind == "push":
                    out["pushed"] += int(amount)
                elif kind == "fee":
                    out["jackpot drop" if is_fund_kind(str(detail)) else "house fees"] += \
                        int(amount)
        out["time"] += sum(int(line[2]) for line in t.get("time", []))
    return out


def _check_totals(body: dict[str, Any], out: ArchiveCheck) -> None:
    """Each day summary logged for the archived day, against the totals rebuilt from the
    archive: a figure the report signed that the records do not give is named."""
    from dealer_assist.money import parse_cents

    rebuilt = day_totals(body)
    for seq, _at, _actor, action, detail, *_ in [*body.get("audit", []),
                                                 *body.get("audit_more", [])]:
        m = _LOGGED_DAY.match(str(detail)) if action == "report" else None
        if m is None or m["day"] != body.get("day"):
            continue
        out.reports += 1
        logged = {"hands": int(m["hands"])}
        for name, amount in _FIGURE.findall(m["rest"]):
            logged[name] = parse_cents(amount.replace("$", ""))
        for name, value in logged.items():
            if rebuilt[name] != value:
                shown = (str(value), str(rebuilt[name])) if name == "hands" else (
                    format_cents(value), format_cents(rebuilt[name]))
                out.problems.append(f"the day summary logged as audit entry {seq} gives {name} "
                                    f"{shown[0]}; the archive's records give {shown[1]}")


def _check_audit(entries: list[list[Any]], out: ArchiveCheck) -> dict[int, str]:
    hashes: dict[int, str] = {}
    prev: str | None = None
    for seq, at, actor, action, detail, table_id, hand_id, prev_hash, digest in entries:
        out.audit += 1
        if prev is not None and prev_hash != prev:
            out.problems.append(f"audit entry {seq}: not linked to the entry before it")
        again = audit_hash(seq=seq, at=datetime.fromisoformat(at), actor=actor, action=action,
                           detail=detail, table_id=table_id, hand_id=hand_id,
                           prev_hash=prev_hash or GENESIS)
        if again != digest:
            out.problems.append(f"audit entry {seq}: its hash does not match its contents")
        prev = digest
        hashes[int(seq)] = str(digest)
    return hashes
