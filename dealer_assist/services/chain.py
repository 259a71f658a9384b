"""The hash chain: each event's hash covers its table, place in the chain, time, actor, hand,
the event itself and the previous event's hash, so any edit, deletion or reordering shows."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

#: The ``prev_hash`` of a table's first event.
GENESIS = "0" * 64


def canonical(obj: Any) -> str:
    """The one JSON text of ``obj``: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def utc(t: datetime) -> datetime:
    """A time as aware UTC; naive times (SQLite gives those back) are UTC already."""
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def time_text(t: datetime) -> str:
    return utc(t).isoformat(timespec="microseconds")


def event_hash(
    *, table_id: int, seq: int, time: datetime | str, actor: str, hand_id: int | None,
    body: Mapping[str, Any] | str, prev_hash: str,
) -> str:
    """sha256 over the canonical JSON of (table, seq, time, actor, hand, event, prev hash).

    ``body`` may be given as its canonical text already (the store keeps that text), and
    ``time`` as its :func:`time_text`. A table-level event (seat or period mark) has no hand:
    ``hand_id`` is None (JSON null in the hashed text).
    """
    body_text = body if isinstance(body, str) else canonical(body)
    when = time if isinstance(time, str) else time_text(time)
    head = canonical([table_id, seq, when, actor, hand_id])
    payload = f"{head[:-1]},{body_text},{json.dumps(prev_hash)}]"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
