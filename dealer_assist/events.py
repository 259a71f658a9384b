"""Events: what the dealer did, as frozen dataclasses with a type tag and a JSON form.

The JSON form is the hand-log line (JSON Lines, one event per line). Every game shares this one
registry of event types, so a tag means the same thing in every game; a game module that needs a
new kind of input registers it with :func:`event_type`.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import BadInput

JSON = Any
#: Keys a stored or exported line may carry beside the event itself; ignored when reading.
META_KEYS = frozenset({"seq", "time", "at", "actor", "hash", "prev_hash", "hand", "table"})

_REGISTRY: dict[str, type[Event]] = {}
E = TypeVar("E", bound="Event")


def event_type(tag: str) -> Callable[[type[E]], type[E]]:
    """Class decorator: register an event class under its JSON ``type`` tag."""

    def deco(cls: type[E]) -> type[E]:
        if tag in _REGISTRY and _REGISTRY[tag] is not cls:
            raise ValueError(f"event type {tag!r} registered twice")
        cls.TYPE = tag
        _REGISTRY[tag] = cls
        return cls

    return deco


def event_types() -> dict[str, type[Event]]:
    return dict(_REGISTRY)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event. Subclasses are frozen dataclasses registered with a tag."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name == "params":
                out.update({k: _plain(v) for k, v in value.items()})
                continue
            out[f.name] = _plain(value)
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @property
    def seat_of(self) -> int | None:
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None


def _plain(value: Any) -> JSON:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def event_from_json(obj: Mapping[str, JSON]) -> Event:
    """Build an event from one decoded log line; :class:`BadInput` says what is wrong with it."""
    if not isinstance(obj, Mapping):
        raise BadInput("an event must be a JSON object")
    tag = obj.get("type")
    if not isinstance(tag, str):
        raise BadInput('the line has no "type"')
    cls = _REGISTRY.get(tag)
    if cls is None:
        raise BadInput(f'unknown event type "{tag}"')
    hints = _type_hints(cls)
    kwargs: dict[str, Any] = {}
    all_fields, names = _fields_of(cls)
    rest = {k: v for k, v in obj.items() if k != "type" and k not in META_KEYS}
    if "params" in names:
        for f in all_fields:
            if f.name != "params" and f.name in rest:
                kwargs[f.name] = _convert(rest.pop(f.name), hints[f.name], f.name, tag)
        kwargs["params"] = types.MappingProxyType(dict(rest))
    else:
        unknown = sorted(set(rest) - names)
        if unknown:
            raise BadInput(f'"{tag}" does not take {", ".join(unknown)}')
        for name, value in rest.items():
            kwargs[name] = _convert(value, hints[name], name, tag)
    try:
        return cls(**kwargs)
    except TypeError as exc:
        missing = [f.name for f in fields(cls) if f.name not in kwargs and _required(f)]
        if missing:
            raise BadInput(f'"{tag}" needs {", ".join(missing)}') from exc
        raise BadInput(f'"{tag}": {exc}') from exc


_HINTS: dict[str, dict[str, Any]] = {}


def _type_hints(cls: type[Event]) -> dict[str, Any]:
    """The field types of an event class, resolved once (resolving costs more than parsing)."""
    hints = _HINTS.get(cls.TYPE)
    if hints is None or _REGISTRY.get(cls.TYPE) is not cls:
        hints = _HINTS[cls.TYPE] = typing.get_type_hints(cls)
    return hints


_FIELDS: dict[type[Event], tuple[tuple[Any, ...], frozenset[str]]] = {}


def _fields_of(cls: type[Event]) -> tuple[tuple[Any, ...], frozenset[str]]:
    """An event class's fields and their names, listed once (every line read asks)."""
    known = _FIELDS.get(cls)
    if known is None:
        all_fields = fields(cls)
        known = _FIELDS[cls] = (all_fields, frozenset(f.name for f in all_fields))
    return known


#: A field type -> its (origin, args), as typing.get_origin/get_args answer (asked per value).
_SHAPES: dict[Any, tuple[Any, tuple[Any, ...]]] = {}
#: Card text -> Card, for the codes a log repeats ("9d"); cards are immutable, so shared.
_CARDS: dict[str, Card] = {}


def _shape(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    try:
        return _SHAPES[hint]
    except KeyError:
        shape = _SHAPES[hint] = (typing.get_origin(hint), typing.get_args(hint))
        return shape
    except TypeError:  # an unhashable hint: answer without remembering
        return typing.get_origin(hint), typing.get_args(hint)


def _card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is None:
        card = parse_card(text)  # BadInput for a bad card: not remembered
        if len(_CARDS) < 4096:
            _CARDS[text] = card
    return card


def _required(f: Any) -> bool:
    from dataclasses import MISSING

    return bool(f.default is MISSING and f.default_factory is MISSING)


def _convert(value: JSON, hint: Any, name: str, tag: str) -> Any:
    origin, args = _shape(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        inner = [a for a in args if a is not type(None)]
        return _convert(value, inner[0], name, tag)
    if hint is Card:
        if not isinstance(value, str):
            raise BadInput(f'"{tag}" field {name} must be a card like "9d"')
        return _card(value)
    if origin is tuple:
        if not isinstance(value, list):
            raise BadInput(f'"{tag}" field {name} must be a list')
        return tuple(_convert(v, args[0], name, tag) for v in value)
    if hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadInput(f'"{tag}" field {name} must be a whole number, not {value!r}')
        return value
    if hint is str:
        if not isinstance(value, str):
            raise BadInput(f'"{tag}" field {name} must be text')
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise BadInput(f'"{tag}" field {name} must be true or false')
        return value
    return value


def event_from_line(line: str) -> Event:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
    return event_from_json(obj)


# --- events shared by the games -------------------------------------------------------------


@event_type("start")
@dataclass(frozen=True, kw_only=True)
class Start(Event):
    """Starts a hand: the game, the seats clockwise in deal order, and the game's settings."""

    game: str
    seats: tuple[int, ...]
    params: Mapping[str, JSON] = field(default_factory=lambda: types.MappingProxyType({}))

    def get(self, key: str, default: JSON = None) -> JSON:
        return self.params.get(key, default)


@event_type("card")
@dataclass(frozen=True, kw_only=True)
class CardDealt(Event):
    """A card dealt face up to a seat."""

    seat: int
    card: Card


@event_type("reshuffle")
@dataclass(frozen=True, kw_only=True)
class Reshuffle(Event):
    """The dealer shuffled the discards (and burns) into a new stub."""


@event_type("board")
@dataclass(frozen=True, kw_only=True)
class BoardDealt(Event):
    cards: tuple[Card, ...]


@event_type("check")
@dataclass(frozen=True, kw_only=True)
class Check(Event):
    seat: int


@event_type("bet")
@dataclass(frozen=True, kw_only=True)
class Bet(Event):
    seat: int


@event_type("call")
@dataclass(frozen=True, kw_only=True)
class Call(Event):
    seat: int


@event_type("raise")
@dataclass(frozen=True, kw_only=True)
class Raise(Event):
    seat: int


@event_type("fold")
@dataclass(frozen=True, kw_only=True)
class Fold(Event):
    seat: int


@event_type("discard")
@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    """Cards thrown away; face-up discards name them, unseen ones give only ``count``."""

    seat: int
    cards: tuple[Card, ...] = ()
    count: int | None = None

    @property
    def n(self) -> int:
        return len(self.cards) if self.cards else (self.count or 0)


@event_type("show")
@dataclass(frozen=True, kw_only=True)
class Show(Event):
    """The cards a player still holds, shown at showdown."""

    seat: int
    cards: tuple[Card, ...]


@event_type("void")
@dataclass(frozen=True, kw_only=True)
class Void(Event):
    """A correction: the hand's event number ``target`` (1-based) no longer counts."""

    target: int
    reason: str


@event_type("misdeal")
@dataclass(frozen=True, kw_only=True)
class Misdeal(Event):
    """The hand is called off (a misdeal): every chip goes back to the seat that put it in, no
    fee is taken, and the next hand is dealt with the same button."""

    reason: str


@event_type("champ")
@dataclass(frozen=True, kw_only=True)
class Champ(Event):
    """Champs and Cowards: the player buys another card (pays into the bonus pool)."""

    seat: int


@event_type("coward")
@dataclass(frozen=True, kw_only=True)
class Coward(Event):
    """Champs and Cowards: the player stops."""

    seat: int


@event_type("place")
@dataclass(frozen=True, kw_only=True)
class Place(Event):
    """Open-face games: a card placed in a row (``front``, ``middle`` or ``back``)."""

    seat: int
    card: Card
    row: str


@event_type("set")
@dataclass(frozen=True, kw_only=True)
class SetHand(Event):
    """A whole hand set into its three rows at once (Chinese Poker, fantasyland)."""

    seat: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]


@event_type("natural")
@dataclass(frozen=True, kw_only=True)
class Natural(Event):
    """Chinese Poker: a natural declared before the reveal (``dragon``, ``three-flushes``...)."""

    seat: int
    kind: str


@event_type("surrender")
@dataclass(frozen=True, kw_only=True)
class Surrender(Event):
    """Chinese Poker: the player surrenders before the reveal."""

    seat: int


# --- table-level events (time collection) ---------------------------------------------------


@event_type("seat_in")
@dataclass(frozen=True, kw_only=True)
class SeatIn(Event):
    """A player sits down in a seat and starts owing time (times come from the store's record)."""

    seat: int


@event_type("seat_out")
@dataclass(frozen=True, kw_only=True)
class SeatOut(Event):
    """A player leaves a seat or sits out: owes no time from now on."""

    seat: int


@event_type("period")
@dataclass(frozen=True, kw_only=True)
class Period(Event):
    """A time-collection mark: the dealer collects time for the period that starts now."""
