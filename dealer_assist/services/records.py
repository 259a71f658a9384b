"""Records of everything that affects money, rights or signatures, on the audit chain.

Users (name, full name, role, enabled, PIN), table names, settings versions, shifts (who opened
and closed them, under which floor person), disputes with their adjustments and the cardroom's
name live in ordinary rows that the app changes in place. Each change also appends an audit
entry ``record-<kind>`` whose detail is the canonical JSON of the row's new state, in the same
transaction. The audit chain is hash-linked and anchored by signed checkpoints, so the records
cannot be changed unseen; ``verify`` replays them (the last record of each row wins) and
compares the rows with them: a role raised, a full name or a shift's floor person changed, a
table renamed, a dispute or adjustment inserted in plain SQL is named.

Pure: the database layer reads the rows and hands them in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.services.chain import canonical, time_text

#: The audit action of a record: ``record-`` and the kind.
PREFIX = "record-"
KINDS = ("user", "table", "settings", "shift", "dispute", "cardroom")
#: Marks the hands dealt before the continuity of carries and stacks was recorded (older
#: databases at their upgrade, demo-dealt hands): ``{"table_id": ..., "seq": ...}``.
BASELINE = "record-baseline"

State = dict[str, Any]


def digest(text: str) -> str:
    """sha256 of a text (a PIN hash, a settings document): recorded instead of the text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _when(t: datetime | None) -> str | None:
    return None if t is None else time_text(t)


def user_state(
    *, name: str, full_name: str, role: str, active: bool, pin_hash: str = "",
    pin: str | None = None,
) -> State:
    """``pin``: the PIN hash's :func:`digest` already (PostgreSQL hands out only that)."""
    return {"name": name, "full_name": full_name, "role": role, "active": bool(active),
            "pin": pin if pin is not None else digest(pin_hash)}


def table_state(*, id: int, name: str) -> State:
    return {"id": int(id), "name": name}


def settings_state(
    *, id: int, table_id: int, version: int, game: str, document: str, created_at: datetime,
    created_by: str,
) -> State:
    """``document``: the stored canonical JSON text of the settings document."""
    return {"id": int(id), "table_id": int(table_id), "version": int(version), "game": game,
            "document": digest(document), "created_at": _when(created_at),
            "created_by": created_by}


def shift_state(
    *, id: int, table_id: int, dealer: str, floor: str, opened_at: datetime,
    closed_at: datetime | None, closed_by: str | None, closed_floor: str | None,
) -> State:
    return {"id": int(id), "table_id": int(table_id), "dealer": dealer, "floor": floor,
            "opened_at": _when(opened_at), "closed_at": _when(closed_at),
            "closed_by": closed_by, "closed_floor": closed_floor}


def dispute_state(
    *, id: int, hand_id: int, notes: str, ruling: str, floor: str, at: datetime,
    adjustments: Iterable[tuple[int | None, int, str]],
) -> State:
    """``adjustments``: (seat, amount in cents, note) each, in the order they were stored."""
    return {"id": int(id), "hand_id": int(hand_id), "notes": notes, "ruling": ruling,
            "floor": floor, "at": _when(at),
            "adjustments": [[seat, int(amount), note or ""] for seat, amount, note in adjustments]}


def cardroom_state(name: str) -> State:
    return {"name": name}


def key_of(kind: str, state: Mapping[str, Any]) -> str:
    """What identifies the row a record is of (users by name, the cardroom once, others by id)."""
    if kind == "user":
        return str(state["name"])
    if kind == "cardroom":
        return "cardroom"
    return str(state["id"])


def record_entry(kind: str, state: State, at: datetime) -> dict[str, Any]:
    """The audit entry of a record, as :func:`dealer_assist.db.store.append_audit` takes it."""
    assert kind in KINDS
    return {"at": at, "actor": None, "action": PREFIX + kind, "detail": canonical(state),
            "table_id": state.get("table_id") if kind != "table" else state["id"],
            "hand_id": state.get("hand_id")}


def _label(kind: str, key: str, state: Mapping[str, Any] | None) -> str:
    if kind == "user":
        return f"user {key}"
    if kind == "table":
        return f"table id {key}" + (f" ({state['name']})" if state else "")
    if kind == "settings":
        return f"settings id {key}" + (
            f" (table id {state['table_id']}, version {state['version']})" if state else ""
        )
    if kind == "cardroom":
        return "the cardroom's name"
    return f"{kind} {key}"


_SHOWN = {"pin": "the PIN", "document": "the settings document"}


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """The rows compared with their records: how many records, and every difference."""

    records: int
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def parse_records(entries: Iterable[tuple[str, str]]) -> tuple[dict[str, dict[str, State]], int]:
    """The latest recorded state of each row, from (action, detail) pairs in chain order."""
    latest: dict[str, dict[str, State]] = {k: {} for k in KINDS}
    n = 0
    for action, detail in entries:
        kind = action[len(PREFIX):] if action.startswith(PREFIX) else ""
        if kind not in latest:
            continue
        try:
            state = json.loads(detail)
        except ValueError:
            continue
        if isinstance(state, dict):
            latest[kind][key_of(kind, state)] = state
            n += 1
    return latest, n


def check_records(
    entries: Iterable[tuple[str, str]], rows: Mapping[str, Sequence[State]]
) -> RecordCheck:
    """Compare the stored rows (per kind, each as its ``*_state``) with the latest records."""
    latest, n = parse_records(entries)
    problems: list[str] = []
    for kind in KINDS:
        recorded = latest[kind]
        stored = {key_of(kind, s): s for s in rows.get(kind, ())}
        for key, state in stored.items():
            label = _label(kind, key, state)
            rec = recorded.get(key)
            if rec is None:
                problems.append(f"{label} is not in the audit chain's records (written behind "
                                "the app's back)")
                continue
            for field in sorted(set(state) | set(rec)):
                if state.get(field) != rec.get(field):
                    what = _SHOWN.get(field, field)
                    if field in _SHOWN:
                        problems.append(f"{label}: {what} differs from the audit chain's record "
                                        "(changed behind the app's back)")
                    else:
                        problems.append(
                            f"{label}: {what} is {_show(state.get(field))} but the audit chain "
                            f"records {_show(rec.get(field))} (changed behind the app's back)"
                        )
        for key, rec in recorded.items():
            if key not in stored:
                problems.append(f"{_label(kind, key, rec)} is in the audit chain's records but "
                                "no longer stored (deleted)")
    for state in rows.get("dispute", ()):
        total = sum(int(a[1]) for a in state.get("adjustments", ()))
        if total:
            problems.append(f"dispute {state['id']} (hand id {state['hand_id']}): its "
                            f"adjustments add up to {total} cents, not 0 (they must balance)")
    return RecordCheck(n, tuple(problems))


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def baselines(entries: Iterable[tuple[str, str]]) -> dict[int, int]:
    """Per table, the last seq dealt before carries and stacks were held to continuity."""
    out: dict[int, int] = {}
    for action, detail in entries:
        if action != BASELINE:
            continue
        try:
            mark = json.loads(detail)
            out[int(mark["table_id"])] = max(out.get(int(mark["table_id"]), 0), int(mark["seq"]))
        except (ValueError, KeyError, TypeError):
            continue
    return out
