"""Reading a hand's events: the start line first, then the rest in its game's vocabulary.

A hand log (a file, the store's rows, an import) names its game only on its first line, and
each game owns the event types its hands hold (``Game.events``): so the start is read with the
shared events, its game is looked up, and every line after it is read with that game's
vocabulary. Two games may so give one tag different fields, and a game package adds event types
without any change here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from dealer_assist.engine.bodies import read_event
from dealer_assist.engine.registry import get_game
from dealer_assist.events import SHARED, Event, Start, Vocabulary, event_from_json

if TYPE_CHECKING:
    from dealer_assist.engine.base import Game


def vocabulary_of(game: str) -> Vocabulary:
    """The events hands of ``game`` may hold (:class:`BadInput` for a game not installed)."""
    return get_game(game).events


def start_vocabulary(first: Event) -> Vocabulary:
    """The vocabulary of the lines after ``first``: its game's if it is a start, else the
    shared events (the replay then says the log does not begin with a start)."""
    if isinstance(first, Start):
        return vocabulary_of(first.game)
    return SHARED


def start_game(first: Event) -> Game[Any] | None:
    """The game whose reader reads the lines after ``first``: its game's if it is a start,
    else None (the shared events; the replay then says the log does not begin with a
    start)."""
    if isinstance(first, Start):
        return get_game(first.game)
    return None


def hand_events(objs: Iterable[Mapping[str, Any]]) -> list[Event]:
    """A hand's events from its decoded lines (the start first), each read by the start's
    game's reader (:func:`dealer_assist.engine.bodies.read_event`); :class:`BadInput` for a
    line that cannot be read."""
    out: list[Event] = []
    game: Game[Any] | None = None
    for obj in objs:
        if not out:
            first = event_from_json(obj)
            game = start_game(first)
            out.append(first)
        else:
            out.append(read_event(obj, game))
    return out
