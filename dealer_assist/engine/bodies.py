"""A stored event's body: held to bounds and read by its game's reader before it is written,
and read the same way whenever it is read back.

The event table is append-only, so a body nobody can read would stay for good: every body is
at most :data:`MAX_BODY_CHARS` characters of canonical JSON, nests at most
:data:`MAX_BODY_DEPTH` levels, and reads back as an event of its hand's game (no joker in a
game played without them) before the services write it; PostgreSQL checks the size and depth
again for rows a station writes itself. A stored body that fails to read all the same (written
past the app on a SQLite file, or by an older version) is that record's fault alone: verify
names it, and every report and screen goes on without it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealer_assist.bounded import MAX_DEPTH
from dealer_assist.errors import BadInput
from dealer_assist.events import Event, event_from_json

if TYPE_CHECKING:
    from dealer_assist.engine.base import Game

#: The longest body (its canonical JSON text, in characters): far above any event (a start
#: with a fee schedule and ten stacks is under 2,000), and an exported line with its seq,
#: time, actor and hash still fits a hand log's line (:data:`bounded.MAX_LINE`).
MAX_BODY_CHARS = 32_768
#: How deep a body may nest: as deep as any line of a hand log may (a start's fee schedule
#: needs 4 levels).
MAX_BODY_DEPTH = MAX_DEPTH

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[^\[\]{}]+")


def text_fault(text: object) -> str | None:
    """Why a stored body's text is out of bounds (too long, nested too deep), or None. Cheap:
    most bodies hold a handful of brackets and are passed at once."""
    if not isinstance(text, str):
        return "it is not text"
    if len(text) > MAX_BODY_CHARS:
        return (f"it is {len(text):,} characters long: no event is longer than "
                f"{MAX_BODY_CHARS:,}")
    if text.count("[") + text.count("{") <= MAX_BODY_DEPTH:
        return None
    depth = deepest = 0
    for ch in _BRACKETS.sub("", _STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_BODY_DEPTH:
                    return (f"it nests more than {MAX_BODY_DEPTH} levels deep: no event "
                            "does")
        else:
            depth -= 1
    return None


def read_body(text: object) -> dict[str, Any]:
    """A stored body's JSON object, within the bounds; :class:`BadInput` says what is wrong
    with it (never a RecursionError or a JSON traceback)."""
    fault = text_fault(text)
    if fault is not None:
        raise BadInput(fault)
    assert isinstance(text, str)
    try:
        obj = json.loads(text)
    except RecursionError as exc:  # (text_fault already refuses depth: a guard)
        raise BadInput(f"it nests more than {MAX_BODY_DEPTH} levels deep: no event does") from exc
    except ValueError as exc:
        raise BadInput(f"it is not JSON ({exc})") from exc
    if not isinstance(obj, dict):
        raise BadInput("it is not a JSON object")
    return obj


def body_text(body: Mapping[str, Any]) -> str:
    """The canonical text (:func:`dealer_assist.services.chain.canonical`) of a body about to
    be written, within the bounds (:class:`BadInput`
    names the bound it passes: nothing is written)."""
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise BadInput(f"the event cannot be written as JSON ({exc}): nothing was recorded") \
            from exc
    fault = text_fault(text)
    if fault is not None:
        raise BadInput(f"the event cannot be recorded: {fault}; nothing was recorded")
    return text


def read_event(obj: Mapping[str, Any], game: Game[Any] | None) -> Event:
    """The game's reader of one event (``game`` None: a start or a table-level event, which
    every game shares): the event of the game's vocabulary, refused (:class:`BadInput`) when
    it names a card the game is not played with (a joker, in every game but those that
    declare :attr:`Game.jokers`)."""
    event = event_from_json(obj, None if game is None else game.events)
    if game is not None and not game.jokers:
        for card in event.carried_cards():
            if card.is_joker:
                raise BadInput(f"{game.title} is played without jokers: the {event.TYPE} "
                               "names a joker (Jk); enter the card as dealt")
    return event


def check_written(body: Mapping[str, Any], game: Game[Any] | None) -> str:
    """A body about to be written, held to the bounds and read back by the game's reader
    (``game`` None: the shared events): its canonical text; :class:`BadInput` when it cannot
    be, so that nothing the readers refuse is ever stored."""
    text = body_text(body)
    read_event(json.loads(text), game if body.get("type") != "start" else None)
    return text


