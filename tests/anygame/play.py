"""Playing Tally through the services, as the dealer's screen does: every event built by the
engine from the prompt's actions and what the dealer gives for their inputs."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from anygame.game import NAME
from dealer_assist.engine.build import build_event
from dealer_assist.services import HandNow, Services, Session

#: A Tally table: four seats, a dollar ante, the game to 40 points.
SETTINGS: dict[str, Any] = {"game": NAME, "seats": [1, 2, 3, 4], "smallest_chip": 100,
                            "params": {"ante": 100, "target": 40}}


def move(svc: Services, who: Session, now: HandNow, kind: str,
         given: Mapping[str, Any] | None = None, *, rng: random.Random | None = None) -> HandNow:
    """Record the prompt's ``kind`` action with ``given`` for its inputs."""
    action = now.prompt().action(kind)
    assert action is not None and action.enabled, (kind, now.prompt())
    event = build_event(action, given, vocab=now.game.events, rng=rng)
    return svc.record(who, now.hand.id, event)


def play_rolls(svc: Services, who: Session, table_id: int, rolls: Sequence[Sequence[int]],
               *, choice: str = "Go on", **start: Any) -> HandNow:
    """One hand where each seat to move rolls the given values (as shown, recorded) and
    stops; then the table's ``choice`` (the label of the action: "Go on", "End the game")
    when the game asks for one; then settled."""
    now = svc.start_hand(who, table_id, **start)
    for values in rolls:
        for value in values:
            now = move(svc, who, now, "roll", {"value": value})
        now = move(svc, who, now, "stop")
    prompt = now.prompt()
    if prompt.phase == "choice":
        action = next(a for a in prompt.actions if a.label == choice)
        now = svc.record(who, now.hand.id, build_event(action, vocab=now.game.events))
    svc.settle(who, now.hand.id)
    return now


def tally_table(svc: Services, admin: Session, *, name: str = "Tally",
                settings: Mapping[str, Any] | None = None) -> tuple[int, Session]:
    """A Tally table with a dealer of its own on shift: (table id, the dealer's session)."""
    table = svc.add_table(admin, dict(settings or SETTINGS), name=name)
    svc.add_user(admin, name="tess", full_name="Tess Tally", role="dealer", pin="4444")
    dealer = svc.sign_in("tess", "4444")
    svc.open_shift(dealer, table.id, floor="fran")
    return table.id, dealer
