"""From an action and what the dealer gave to the event it records: one step, in the engine.

An action names its event type and the fields it fixes (:class:`Action.fields`); each of its
inputs fills the fields it names (:func:`dealer_assist.engine.inputs.filled`). The screen only
collects what the inputs ask for, by field, and hands it here; so does a test, a script or any
other front end. Values are checked against their input (a count of cards, a card twice without
two decks, a joker, a choice, an amount's range and step, a die's faces) with a message for the
dealer, and shaped to the event's field: a field typed as one card takes the one card given, a
field typed as a whole number the one die. A value the app draws (:class:`Drawn`) is drawn here
from the random source given, unless the screen drew it already to show it; either way it is
recorded in the event, so a replay gives the same result.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Amount, Cards, Choice, Dice, Drawn, Input, Rows, filled
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Event, Vocabulary, event_types, field_names

_HINTS: dict[type[Event], dict[str, Any]] = {}
#: The app's own random source for drawn values (dice the app rolls, a draw for odd chips).
SYSTEM_RANDOM = random.SystemRandom()


def _hints(cls: type[Event]) -> dict[str, Any]:
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def _bare(hint: Any) -> Any:
    """``X | None`` -> ``X``."""
    args = typing.get_args(hint)
    if args and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else hint
    return hint


def _shape(value: Any, hint: Any, label: str, key: str) -> Any:
    """``value`` as the event field typed ``hint`` takes it: one card or one number from a
    one-item sequence, a tuple from a sequence or a lone card."""
    hint = _bare(hint)
    if hint is Card or hint is int:
        if isinstance(value, (tuple, list)):
            if len(value) != 1:
                raise BadInput(f'"{label}" takes one {"card" if hint is Card else "value"} '
                               f"as {key}, not {len(value)}")
            return value[0]
        return value
    if typing.get_origin(hint) is tuple:
        if isinstance(value, (tuple, list)):
            return tuple(value)
        return (value,)
    return value


def check_value(value: Input, key: str, given: Any, label: str) -> None:
    """Refuse what the dealer gave for one input's field ``key`` when it is not of the kind
    the input asks (:class:`BadInput`, saying what to give)."""
    if isinstance(value, Cards) and key == value.field:
        cards = tuple(given) if isinstance(given, (tuple, list)) else (given,)
        if not all(isinstance(c, Card) for c in cards):
            raise BadInput(f'"{label}": give cards like 9d for {key}')
        if not value.low <= len(cards) <= value.high:
            count = str(value.low) if value.exact is not None else f"{value.low} to {value.high}"
            raise BadInput(f'"{label}" takes {count} cards, not {len(cards)}')
        if not value.jokers and any(c.is_joker for c in cards):
            raise BadInput(f'"{label}" takes no joker')
        if not value.repeats:
            seen: set[Card] = set()
            for c in cards:
                if c in seen:
                    raise BadInput(f"{c.pretty} is entered twice")
                seen.add(c)
    elif isinstance(value, Choice):
        if not isinstance(given, str) or not given:
            raise BadInput(f'"{label}": say which {key}')
        if value.options and not value.free and given not in value.options:
            raise BadInput(f'"{label}": choose one of {", ".join(value.options)}')
    elif isinstance(value, Amount):
        if isinstance(given, bool) or not isinstance(given, int) or not value.allows(given):
            step = f" in steps of {value.step}" if value.step > 1 else ""
            raise BadInput(f'"{label}": give {value.low} to {value.high}{step}, not {given!r}')
    elif isinstance(value, (Dice, Drawn)) and not (isinstance(value, Drawn) and value.among):
        dice = tuple(given) if isinstance(given, (tuple, list)) else (given,)
        probe = Dice(value.count, value.faces, value.field, value.low, value.step)
        if len(dice) != value.count or not all(
            isinstance(d, int) and not isinstance(d, bool) and probe.allows(d) for d in dice
        ):
            top = value.low + (value.faces - 1) * value.step
            step = f" in steps of {value.step}" if value.step > 1 else ""
            raise BadInput(f'"{label}": give {value.count} '
                           f"{'die' if value.count == 1 else 'dice'} of {value.low} to "
                           f"{top}{step}, not {given!r}")


def build_event(
    action: Action,
    given: Mapping[str, Any] | None = None,
    *,
    vocab: Vocabulary | None = None,
    rng: random.Random | None = None,
) -> Event:
    """The event ``action`` records with what the dealer ``given`` for its inputs (by the
    field each input fills, the log's name), in the game's ``vocab``: its seat, its fixed
    fields and its inputs' fields. A :class:`Drawn` value not given is drawn from ``rng`` (the
    app's own random source by default). :class:`BadInput` when an input is missing or of the
    wrong kind; :class:`RuleViolation` when the game has no such event."""
    given = dict(given or {})
    cls = event_types(vocab).get(action.event_type)
    if cls is None:
        raise RuleViolation(f'"{action.label}" cannot be entered on this screen')
    names = field_names(cls)  # the log's keys -> the fields' names
    hints = _hints(cls)
    kw: dict[str, Any] = {}
    if "seat" in names and action.seat is not None:
        kw["seat"] = action.seat
    for key, value in action.fields.items():
        kw[names.get(key, key)] = value
    for value in action.inputs:
        for key in filled(value):
            name = names.get(key)
            if name is None:
                raise RuleViolation(f'"{action.label}": its event "{cls.TYPE}" has no {key}')
            if key in given and not (
                isinstance(value, Cards) and value.unseen and given[key] in ((), [], None)
            ):
                got = given[key]
            elif isinstance(value, Drawn):
                got = value.draw(rng or SYSTEM_RANDOM, single=_bare(hints[name]) is int)
            elif isinstance(value, Cards) and value.unseen:
                continue  # (the cards or their count: one of the two, checked below)
            elif isinstance(value, Rows):
                raise BadInput(f'"{action.label}": give the {key} row')
            else:
                raise BadInput(f'"{action.label}" needs {key.replace("_", " ")}')
            if isinstance(value, Rows):
                low, high = next((lo, hi) for n, lo, hi in value.rows if n == key)
                check_value(Cards(low, high), "cards", got, f"{action.label}: the {key} row")
            elif not (isinstance(value, Cards) and key == "count"):
                check_value(value, key, got, action.label)
            kw[name] = _shape(got, hints[name], action.label, key)
        if isinstance(value, Cards) and value.unseen and not (
            {names[value.field], "count"} & set(kw)
        ):
            raise BadInput(f'"{action.label}": give the cards or how many')
    try:
        return cls(**kw)
    except TypeError as exc:
        raise BadInput(f'"{action.label}" needs more input than was given ({exc})') from exc
