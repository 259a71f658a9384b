"""The mark an event carries when it ends its hand (``events.over_mark``, schema 0018).

Only the games know when a hand is over and what the next hand takes from it, and the database
cannot replay them. So the app writes, with the event that ends a hand (the last input, a
misdeal, a void after which the hand is over again), what the next hand dealt to the same seats
takes of what the game carries (``Game.carries``: a running total, advantage cards), as a JSON
object; an event after which the hand goes on carries none. On PostgreSQL the database holds
the stations to it: after an event so marked, a void needs the floor's approval even before the
hand is settled, and the next hand at the same seats either takes over exactly what the mark
says or is a new game the floor approved. ``verify`` does not take the mark's word: it replays
the hands (a void after the end, a carry dropped) on both dialects.
"""

from __future__ import annotations

import json
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.events import Start
from dealer_assist.services.next_hand import carried_from


def over_mark(game: Game[Any], start: Start, state: Any, *, over: bool,
              misdealt: bool) -> str | None:
    """The mark of an event after which the hand (``game``, ``start``, ``state``) stands: None
    while it goes on; else what the next hand at the same seats takes of each key the game
    carries (absent: null), as canonical JSON."""
    if not over:
        return None
    carried = carried_from(game, start, state, start.seats, misdealt=misdealt)
    # in the start event's own JSON form (cards as their codes), as the next start writes it
    given = {k: v for k, v in carried.items() if k in game.carries and v is not None}
    plain = Start(game=start.game, seats=start.seats, params=given).to_json()
    return json.dumps({k: plain.get(k) for k in game.carries}, sort_keys=True,
                      separators=(",", ":"))
