"""Values the app draws (Markets' order for the leftover chips, Dicey Poker's dice, any game's
random order): on the record the moment they are drawn, before anyone sees them.

A draw shown and then cancelled stays on the record ("drawn", then "draw-cancelled"), and a
second draw at the same point of the hand needs a floor person's approval
with their PIN: a dealer cannot draw until the order suits someone. The input recorded is the
value last drawn (:func:`check_drawn`)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dealer_assist.engine.base import Action
from dealer_assist.engine.build import SYSTEM_RANDOM
from dealer_assist.engine.inputs import Drawn
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Event
from dealer_assist.services.base import Approval
from dealer_assist.services.errors import ApprovalRequired
from dealer_assist.services.model import Session

if TYPE_CHECKING:
    from dealer_assist.services.app import Services

#: The audit log's actions: a value drawn (before it is shown), a drawn value not recorded.
DRAWN, DRAW_CANCELLED = "drawn", "draw-cancelled"


@dataclass(frozen=True, slots=True)
class DrawMade:
    """What was last drawn at a hand: after how many of its events, for which input (the
    action's event type and label), and the values by event field."""

    events: int
    event_type: str
    label: str
    values: Mapping[str, Any]


def drawn_inputs(action: Action) -> tuple[Drawn, ...]:
    """The inputs of ``action`` the app draws."""
    return tuple(v for v in action.inputs if isinstance(v, Drawn))


def shown(values: Mapping[str, Any]) -> str:
    """The values as the table saw them ("3 2", "7")."""
    return "; ".join(" ".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)
                     for v in values.values())


def _head(number: int, events: int, label: str) -> str:
    return f"hand {number} after event {events}: {label}:"


def draw(svc: Services, session: Session, hand_id: int, action: Action, *,
         approval: Approval | None = None, rng: random.Random | None = None) -> dict[str, Any]:
    """Draw the values of ``action``'s drawn inputs and write them to the audit log before
    they are returned (shown). A second draw at the same point of the hand (of any input: not
    another die instead of the one cancelled either), or after a drawn input was voided,
    raises :class:`ApprovalRequired` unless a floor person's ``approval`` is given (logged)."""
    svc._require(session, "deal", "draw")
    inputs = drawn_inputs(action)
    if not inputs:
        raise BadInput(f'"{action.label}" draws nothing')
    now = svc.hand_now(hand_id)
    number, events = now.hand.number, now.hand.events
    head = _head(number, events, action.label)
    point = f"hand {number} after event {events}: "  # any draw here (another die too)
    drawn = svc.store.audit_log(action=DRAWN, hand_id=hand_id)
    earlier = [e for e in drawn if e.detail.startswith(point)]
    # every draw of the hand not approved as a second one is an input that stands in it: one
    # voided (or never recorded) is a draw thrown away, and the next needs the floor too
    standing = sum(1 for st in now.replay.steps
                   if action.event_type == st.event.TYPE and not st.voided)
    first_draws = sum(1 for e in drawn if ", approved by " not in e.detail)
    if earlier or first_draws > standing:
        what = f"second draw of {action.label} in hand {number}"
        if approval is None:
            last = (earlier or drawn)[-1].detail
            before = last.split(": ", 1)[-1].split(";", 1)[0].strip()
            where = (f"the app drew at this point of hand {number} already ({before}, not "
                     "recorded)" if earlier else
                     f"a value the app drew in hand {number} does not stand in it ({before}: "
                     "voided)")
            raise ApprovalRequired(f"{where}: a second draw needs a floor person's approval "
                                   "with their PIN")
        svc.approve(approval, what=what, table_id=now.hand.table_id, hand_id=hand_id,
                    session=session)
    values = {v.field: v.draw(rng or SYSTEM_RANDOM, single=v.count == 1 and not v.among)
              for v in inputs}
    again = (f"; draw {len(earlier) + 1 if earlier else 2}, approved by {approval.name}"
             if approval is not None and (earlier or first_draws > standing) else "")
    svc._audit(session.name, DRAWN, f"{head} {shown(values)}{again}",
               table_id=now.hand.table_id, hand_id=hand_id)
    svc._draws[hand_id] = DrawMade(events, action.event_type, action.label, values)
    return values


def draw_cancelled(svc: Services, session: Session, hand_id: int, action: Action,
                   values: Mapping[str, Any]) -> None:
    """The dealer closed the draw without recording it: said on the record (the next draw at
    this point needs the floor)."""
    now = svc.hand_now(hand_id)
    svc._audit(session.name, DRAW_CANCELLED,
               f"{_head(now.hand.number, now.hand.events, action.label)} {shown(values)} "
               "not recorded", table_id=now.hand.table_id, hand_id=hand_id)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(list(value) if isinstance(value, tuple) else value))


def check_drawn(made: DrawMade | None, events: int, event: Event) -> None:
    """An input recorded where the app drew one must be the values it drew (last)."""
    if made is None or made.events != events or made.event_type != event.TYPE:
        return
    data = event.to_json()
    if any(k in data and _plain(data[k]) != _plain(v) for k, v in made.values.items()):
        raise RuleViolation(f"the app drew {shown(made.values)} for {made.label}: record what "
                            "it drew (a second draw needs a floor person's approval)")
