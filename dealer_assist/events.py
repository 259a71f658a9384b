"""Events: what the dealer did, as frozen dataclasses with a type tag and a JSON form.

The JSON form is the hand-log line (JSON Lines, one event per line). This module holds the events
every game shares (the start, a correction, a misdeal, dealing, betting, showing, and the table's
seat and period marks). A game owns the rest: it declares its own event classes in its package
(``games/<game>/events.py``, with ``@event_type(tag, shared=False)``) and reads its hands with
its :func:`vocabulary`, so two games may give one tag different fields. A hand log is read by its
start line first, which names the game and so the vocabulary of the lines after it
(:func:`dealer_assist.engine.log.hand_events`).
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

#: The events every game shares, by tag (a game's :func:`vocabulary` adds its own).
SHARED: dict[str, type[Event]] = {}
E = TypeVar("E", bound="Event")
#: A game's events by tag: what its hand logs may hold.
Vocabulary = Mapping[str, "type[Event]"]


def event_type(tag: str, *, shared: bool = True) -> Callable[[type[E]], type[E]]:
    """Class decorator: give an event class its JSON ``type`` tag. ``shared`` events are known
    to every game; a game's own (``shared=False``) only to the games that name them in their
    :func:`vocabulary`."""

    def deco(cls: type[E]) -> type[E]:
        cls.TYPE = tag
        if shared:
            if tag in SHARED and SHARED[tag] is not cls:
                raise ValueError(f"event type {tag!r} registered twice")
            SHARED[tag] = cls
        return cls

    return deco


def vocabulary(*own: type[Event]) -> Vocabulary:
    """A game's events: the shared ones and its own. An own class may take a shared tag with
    fields of its own (a game's ``discard`` or ``bet`` in its own shape)."""
    out = dict(SHARED)
    for cls in own:
        if not cls.TYPE:
            raise ValueError(f"{cls.__name__} has no type tag: decorate it with @event_type")
        out[cls.TYPE] = cls
    return types.MappingProxyType(out)


def event_types(vocab: Vocabulary | None = None) -> dict[str, type[Event]]:
    """The event classes by tag: a game's ``vocab``, or the shared ones."""
    return dict(SHARED if vocab is None else vocab)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event. Subclasses are frozen dataclasses registered with a tag."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"type": self.TYPE}
        for name, key in _keys_of(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            if name == "params":
                out.update({k: _plain(v) for k, v in value.items()})
                continue
            out[key] = _plain(value)
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @property
    def seat_of(self) -> int | None:
        seat = getattr(self, "seat", None)
        return seat if isinstance(seat, int) else None

    def carried_cards(self) -> tuple[Card, ...]:
        """The cards this event names (what a report withholds when the seat's hand stays
        secret). By default every field typed as a card or a tuple of cards; a class with cards
        elsewhere (inside a mapping, say) overrides this."""
        out: list[Card] = []
        for name in _card_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Card):
                out.append(value)
            elif isinstance(value, tuple):
                out.extend(c for c in value if isinstance(c, Card))
        return tuple(out)


_CARD_FIELDS: dict[type[Event], tuple[str, ...]] = {}
_KEYS: dict[type[Event], tuple[tuple[str, str], ...]] = {}


def json_name(f: Any) -> str:
    """A field's key in the log: its ``json`` metadata (``field(metadata={"json": "from"})``
    for a key that is a Python keyword or reads better in the log), else its name."""
    return str(f.metadata.get("json", f.name))


def _keys_of(cls: type[Event]) -> tuple[tuple[str, str], ...]:
    """Each field of ``cls`` with its key in the log (worked out once per class)."""
    found = _KEYS.get(cls)
    if found is None:
        found = _KEYS[cls] = tuple((f.name, json_name(f)) for f in fields(cls))
    return found


def field_names(cls: type[Event]) -> dict[str, str]:
    """The fields of ``cls`` by their key in the log -> their Python names."""
    return {key: name for name, key in _keys_of(cls)}


def _card_fields(cls: type[Event]) -> tuple[str, ...]:
    """The fields of ``cls`` typed as a card or a tuple of cards (worked out once per class)."""
    found = _CARD_FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)

        def holds_cards(hint: Any) -> bool:
            if hint is Card:
                return True
            return any(holds_cards(a) for a in typing.get_args(hint) if a is not Ellipsis)

        found = _CARD_FIELDS[cls] = tuple(
            f.name for f in fields(cls) if f.name != "params" and holds_cards(hints[f.name])
        )
    return found


def _plain(value: Any) -> JSON:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def event_from_json(obj: Mapping[str, JSON], vocab: Vocabulary | None = None) -> Event:
    """Build an event from one decoded log line, by the game's ``vocab`` (default: the shared
    events); :class:`BadInput` says what is wrong with it."""
    if not isinstance(obj, Mapping):
        raise BadInput("an event must be a JSON object")
    tag = obj.get("type")
    if not isinstance(tag, str):
        raise BadInput('the line has no "type"')
    cls = (SHARED if vocab is None else vocab).get(tag)
    if cls is None:
        raise BadInput(f'unknown event type "{tag}"')
    plan = _plan_of(cls)
    convert = plan.convert
    kwargs: dict[str, Any] = {}
    if plan.params:
        rest = {k: v for k, v in obj.items() if k != "type" and k not in META_KEYS}
        for name, conv in convert.items():  # in field order
            if name in rest:
                kwargs[name] = conv(rest.pop(name))
        kwargs["params"] = types.MappingProxyType(rest)
    else:
        if not plan.allowed.issuperset(obj):
            unknown = sorted(set(obj) - plan.allowed)
            raise BadInput(f'"{tag}" does not take {", ".join(unknown)}')
        for name, value in obj.items():
            read = convert.get(name)
            if read is not None:  # (None: the type tag or a stored line's own key)
                kwargs[name] = read(value)
    if plan.renamed:  # keys in the log that are not the fields' names
        kwargs = {plan.renamed.get(k, k): v for k, v in kwargs.items()}
    try:
        return cls(**kwargs)
    except TypeError as exc:
        missing = [json_name(f) for f in fields(cls) if f.name not in kwargs and _required(f)]
        if missing:
            raise BadInput(f'"{tag}" needs {", ".join(missing)}') from exc
        raise BadInput(f'"{tag}": {exc}') from exc


@dataclass(frozen=True, slots=True)
class _Plan:
    """How to read one event class's lines, worked out once from its fields and their types.

    ``convert``: each field a line may set, by its key in the log (in field order, ``params``
    and the keys of :data:`META_KEYS` left out) -> the function that checks and converts its
    JSON value;
    ``params``: the class keeps the keys it has no field for as its parameters; ``allowed``:
    the keys a line of a class without parameters may carry.
    """

    convert: dict[str, Callable[[JSON], Any]]
    params: bool
    allowed: frozenset[str]
    #: Keys in the log -> field names, where they differ (``field(metadata={"json": ...})``).
    renamed: dict[str, str] = field(default_factory=dict)


_PLANS: dict[type[Event], _Plan] = {}


def _plan_of(cls: type[Event]) -> _Plan:
    """An event class's :class:`_Plan`, made the first time a line of the class is read."""
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        names = frozenset(json_name(f) for f in fields(cls))
        convert = {
            json_name(f): _converter(hints[f.name], json_name(f), cls.TYPE)
            for f in fields(cls)
            if f.name != "params" and json_name(f) not in META_KEYS
        }
        renamed = {json_name(f): f.name for f in fields(cls) if json_name(f) != f.name}
        plan = _PLANS[cls] = _Plan(
            convert, "params" in names, names | META_KEYS | {"type"}, renamed
        )
    return plan


#: Card text -> Card, for the codes a log repeats ("9d"); cards are immutable, so shared.
_CARDS: dict[str, Card] = {}


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


def _converter(hint: Any, name: str, tag: str) -> Callable[[JSON], Any]:
    """The function that checks a JSON value for field ``name`` (of type ``hint``) of a
    ``tag`` line and gives the field's value; its refusals name the tag and the field."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = _converter(next(a for a in args if a is not type(None)), name, tag)

        def optional(value: JSON) -> Any:
            return None if value is None else inner(value)

        return optional
    if hint is Card:

        def card(value: JSON) -> Card:
            if value.__class__ is not str and not isinstance(value, str):
                raise BadInput(f'"{tag}" field {name} must be a card like "9d"')
            found = _CARDS.get(value)
            return found if found is not None else _card(value)

        return card
    if origin is tuple:
        item = _converter(args[0], name, tag)

        def sequence(value: JSON) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise BadInput(f'"{tag}" field {name} must be a list')
            return tuple([item(v) for v in value])

        return sequence
    if hint is int:

        def whole(value: JSON) -> int:
            if value.__class__ is not int and (
                not isinstance(value, int) or isinstance(value, bool)
            ):
                raise BadInput(f'"{tag}" field {name} must be a whole number, not {value!r}')
            return value

        return whole
    if hint is str:

        def text(value: JSON) -> str:
            if not isinstance(value, str):
                raise BadInput(f'"{tag}" field {name} must be text')
            return value

        return text
    if hint is bool:

        def flag(value: JSON) -> bool:
            if not isinstance(value, bool):
                raise BadInput(f'"{tag}" field {name} must be true or false')
            return value

        return flag
    return _as_is


def _as_is(value: JSON) -> JSON:
    return value


def event_from_line(line: str, vocab: Vocabulary | None = None) -> Event:
    from dealer_assist.bounded import loads_json

    try:
        obj = loads_json(line, where="the line")
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
    return event_from_json(obj, vocab)


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
    """A bet; ``to`` (the seat's total in this betting round after it) where the amount is the
    player's choice (pot-limit, no-limit, an auction). Fixed-limit games leave it out."""

    seat: int
    to: int | None = None


@event_type("call")
@dataclass(frozen=True, kw_only=True)
class Call(Event):
    seat: int


@event_type("raise")
@dataclass(frozen=True, kw_only=True)
class Raise(Event):
    """A raise; ``to`` as for :class:`Bet`."""

    seat: int
    to: int | None = None


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

    def to_json(self) -> dict[str, JSON]:
        """A face-down discard names no cards: ``{"type":"discard","seat":S,"count":N}``."""
        out = super().to_json()
        if not self.cards and self.count is not None:
            out.pop("cards", None)
        return out


@event_type("show")
@dataclass(frozen=True, kw_only=True)
class Show(Event):
    """The cards a player still holds, shown at showdown."""

    seat: int
    cards: tuple[Card, ...]


@event_type("void")
@dataclass(frozen=True, kw_only=True)
class Void(Event):
    """A correction: event number ``target`` (1-based) no longer counts: in a hand, the hand's
    event number; at table level (no hand), the number of the table's seat or period mark."""

    target: int
    reason: str


@event_type("misdeal")
@dataclass(frozen=True, kw_only=True)
class Misdeal(Event):
    """The hand is called off (a misdeal): every chip goes back to the seat that put it in, no
    fee is taken, and the next hand is dealt with the same button."""

    reason: str


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
