"""Which hand log an import was: a fingerprint of its events, so a log is imported once.

The fingerprint is the sha256 of the hand's events in canonical JSON, with the start's money
brought in (``carry_in``, ``stacks``, what the game ``carried``) left out: the same hand
imported again with a bigger carry-in is the same hand. It is written in the import's audit
entry (``...; log sha256 HEX``), on the audit chain, where the next import looks for it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from dealer_assist.services.chain import canonical

#: How the fingerprint is written in an import's audit entry.
MARK = "log sha256 "
#: Start settings that bring money into a hand: not part of which hand it is.
MONEY_IN = ("carry_in", "stacks", "carried")


def log_fingerprint(bodies: Sequence[dict[str, Any]]) -> str:
    """The hex sha256 identifying a hand log (see the module's docstring)."""
    out = []
    for n, body in enumerate(bodies):
        if n == 0:
            body = {k: v for k, v in body.items() if k not in MONEY_IN}
            params = body.get("params")
            if isinstance(params, dict):
                body["params"] = {k: v for k, v in params.items() if k not in MONEY_IN}
        out.append(json.loads(canonical(body)))
    return hashlib.sha256(canonical(out).encode("utf-8")).hexdigest()


def fingerprint_in(detail: str) -> str | None:
    """The fingerprint an import's audit entry names, if any."""
    if MARK not in detail:
        return None
    return detail.split(MARK, 1)[1][:64]


def imported_before(details: Iterable[tuple[str, int | None]], fingerprint: str) -> int | None:
    """The hand id of an earlier import of the same log, from (detail, hand id) pairs."""
    for detail, hand_id in details:
        if fingerprint_in(detail) == fingerprint:
            return hand_id if hand_id is not None else 0
    return None


def already_imported(hand: Any) -> str:
    """The refusal of a log imported before (``hand``: that import's hand, if still known)."""
    where = f" (hand {hand.number}, id {hand.id})" if hand is not None else ""
    return (f"this hand log was imported before{where}: a hand is imported once, whatever its "
            "carry-in or stacks; nothing was imported")
