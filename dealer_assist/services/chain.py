"""The hash chain: each event's hash covers its table, place in the chain, time, actor, hand,
the event itself and the previous event's hash, so any edit, deletion or reordering shows."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from hashlib import sha256
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


#: Actor -> its JSON text: a chain names a handful of people over and over.
_ACTORS: dict[str, str] = {}


def _plain(text: str) -> bool:
    """True if JSON writes ``text`` as is between quotes (no quote, backslash or control
    character; a printable string has no control character)."""
    return text.isprintable() and '"' not in text and "\\" not in text


def _string(text: str) -> str:
    """``canonical(text)`` for a str, without the encoder for text that needs no escape."""
    return f'"{text}"' if _plain(text) else canonical(text)


def event_hash(
    *, table_id: int, seq: int, time: datetime | str, actor: str, hand_id: int | None,
    body: Mapping[str, Any] | str, prev_hash: str,
) -> str:
    """sha256 over the canonical JSON of (table, seq, time, actor, hand, event, prev hash).

    ``body`` may be given as its canonical text already (the store keeps that text), and
    ``time`` as its :func:`time_text`. A table-level event (seat or period mark) has no hand:
    ``hand_id`` is None (JSON null in the hashed text).
    """
    return row_hash(
        table_id, seq, time if isinstance(time, str) else time_text(time), actor, hand_id,
        body if isinstance(body, str) else canonical(body), prev_hash,
    )


def row_hash(
    table_id: int, seq: int, when: str, actor: str, hand_id: int | None, body_text: str,
    prev_hash: str, *, hex_prev: bool = False,
) -> str:
    """:func:`event_hash` of a stored row: the time as its text, the event as its JSON text.

    The text is put together by hand (verify hashes every stored event): whole numbers, null
    and strings that need no escape are written as ``json.dumps`` writes them; anything else
    goes through the encoder, so the bytes are always those of the canonical form.
    ``hex_prev``: the caller knows ``prev_hash`` is a hash this module wrote (hex digits).
    """
    if (
        type(table_id) is int and type(seq) is int and type(when) is str
        and type(actor) is str and (hand_id is None or type(hand_id) is int)
        and type(prev_hash) is str
    ):
        who = _ACTORS.get(actor)
        if who is None:
            who = _string(actor)
            if len(_ACTORS) < 1024:
                _ACTORS[actor] = who
        # json.dumps(prev_hash) escapes non-ASCII too (ensure_ascii on).
        if hex_prev or (prev_hash.isascii() and _plain(prev_hash)):
            prev = f'"{prev_hash}"'
        else:
            prev = json.dumps(prev_hash)
        hand = "null" if hand_id is None else hand_id
        plain = when.isprintable() and '"' not in when and "\\" not in when  # (_plain)
        when_text = f'"{when}"' if plain else canonical(when)
        payload = f"[{table_id},{seq},{when_text},{who},{hand},{body_text},{prev}]"
    else:
        head = canonical([table_id, seq, when, actor, hand_id])
        payload = f"{head[:-1]},{body_text},{json.dumps(prev_hash)}]"
    return sha256(payload.encode("utf-8")).hexdigest()
