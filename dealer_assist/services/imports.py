"""Which hand log an import was: a fingerprint of its events, so a log is imported once.

The fingerprint is the sha256 of the hand's events in canonical JSON, with what the start
brings in from the hand before left out, under the game's own names: its carry-in and stacks
(a Guts or Anaconda ``pot_in``) and what it declares it carries (``Game.carries``: a running
total, an advantage card). The same hand imported again with a bigger carry-in is the same
hand. It is written in the import's audit entry (``...; log sha256 HEX``), on the audit chain,
where the next import looks for it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.chain import canonical

#: How the fingerprint is written in an import's audit entry.
MARK = "log sha256 "
#: The engine's names for what a start brings in from the hand before (every game's own names
#: are added: :func:`brought_in`).
MONEY_IN = ("carry_in", "stacks")


def brought_in(game: str) -> frozenset[str]:
    """The start keys of ``game`` that bring in what the hand before left (chips carried in,
    stacks, whatever the game declares it carries), in the game's own names: not part of
    which hand a log is."""
    keys = set(MONEY_IN)
    try:
        found = get_game(game)
    except DealerAssistError:  # (a game not installed: its log is refused before this)
        return frozenset(keys)
    keys.update(found.key(k) for k in MONEY_IN)
    keys.update(found.carries)
    return frozenset(keys)


def log_fingerprint(bodies: Sequence[dict[str, Any]], *, leave_out: Iterable[str] = ()) -> str:
    """The hex sha256 identifying a hand log (see the module's docstring); ``leave_out``:
    start keys left out (default: :func:`brought_in` of the start's game)."""
    out = []
    for n, body in enumerate(bodies):
        if n == 0:
            game = body.get("game")
            skip = frozenset(leave_out) or brought_in(game if isinstance(game, str) else "")
            body = {k: v for k, v in body.items() if k not in skip}
            params = body.get("params")
            if isinstance(params, dict):
                body["params"] = {k: v for k, v in params.items() if k not in skip}
        out.append(json.loads(canonical(body)))
    return hashlib.sha256(canonical(out).encode("utf-8")).hexdigest()


def earlier_fingerprint(bodies: Sequence[dict[str, Any]]) -> str:
    """The fingerprint as imports before the game's own names wrote it (only ``carry_in``,
    ``stacks`` and ``carried`` left out), so a log imported then is still known."""
    return log_fingerprint(bodies, leave_out=("carry_in", "stacks", "carried"))


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
