"""A hand is a fold of its game's ``apply`` over its events; voided events do not count.

This is the one way the app, ``dealer-assist replay``, ``verify`` and the reports derive a hand's
state, so they can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path
from typing import Any

from dealer_assist.bounded import json_lines, log_lines
from dealer_assist.engine.base import Game, Settlement
from dealer_assist.engine.bodies import read_event
from dealer_assist.engine.cite import BETTING_RULES as BETTING_RULES  # (read from here too)
from dealer_assist.engine.cite import cite as cite
from dealer_assist.engine.evolve import builder
from dealer_assist.engine.log import start_game
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError, HandLogError, RuleViolation
from dealer_assist.events import Event, Misdeal, Start, Void, event_from_json


class Step:
    """One event of the hand and the state after it (``voided`` steps leave the state as it was).

    ``lines`` (what the dealer reads for the step) may be given, or left to :meth:`narrated` to
    compute the first time they are read: a replay makes a step for every event, but only the
    replay screen and ``dealer-assist replay`` read the words. Immutable, compared by value, like
    a frozen dataclass of ``number, line, event, state, lines, voided``.
    """

    __slots__ = ("_lines", "_narrate", "event", "line", "number", "state", "voided")

    number: int
    line: int
    event: Event
    state: Any
    voided: bool
    _lines: tuple[str, ...] | None
    _narrate: tuple[Game[Any], Any] | None

    def __init__(
        self,
        number: int,
        line: int,
        event: Event,
        state: Any,
        lines: tuple[str, ...],
        voided: bool = False,
    ) -> None:
        put = object.__setattr__
        put(self, "number", number)
        put(self, "line", line)
        put(self, "event", event)
        put(self, "state", state)
        put(self, "voided", voided)
        put(self, "_lines", lines)
        put(self, "_narrate", None)

    @classmethod
    def narrated(
        cls, number: int, line: int, event: Event, before: Any, after: Any, game: Game[Any]
    ) -> Step:
        """The step of ``event`` taking ``before`` to ``after``; its lines are
        ``game.narrate(before, event, after)``, computed when first read."""
        step = _new_step(cls)
        _SET_NUMBER(step, number)
        _SET_LINE(step, line)
        _SET_EVENT(step, event)
        _SET_STATE(step, after)
        _SET_VOIDED(step, False)
        _SET_LINES(step, None)
        _SET_NARRATE(step, (game, before))
        return step

    @property
    def lines(self) -> tuple[str, ...]:
        lines = self._lines
        if lines is None:
            assert self._narrate is not None
            game, before = self._narrate
            lines = tuple(game.narrate(before, self.event, self.state))
            object.__setattr__(self, "_lines", lines)
            object.__setattr__(self, "_narrate", None)
        return lines

    def _fields(self) -> tuple[Any, ...]:
        return (self.number, self.line, self.event, self.state, self.lines, self.voided)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Step)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Step(number={self.number!r}, line={self.line!r}, event={self.event!r}, "
            f"state={self.state!r}, lines={self.lines!r}, voided={self.voided!r})"
        )


def _slot_setter(name: str) -> Callable[[Step, Any], None]:
    setter: Callable[[Step, Any], None] = vars(Step)[name].__set__
    return setter


# A replay makes a step for every event: set the slots directly (past the frozen __setattr__).
_new_step = object.__new__
_SET_NUMBER = _slot_setter("number")
_SET_LINE = _slot_setter("line")
_SET_EVENT = _slot_setter("event")
_SET_STATE = _slot_setter("state")
_SET_VOIDED = _slot_setter("voided")
_SET_LINES = _slot_setter("_lines")
_SET_NARRATE = _slot_setter("_narrate")


class _StepTwin:
    """:class:`Step`'s slots in the same order (the same layout), without its frozen guard: the
    replay loop fills one in with plain stores, then makes it a step."""

    __slots__ = Step.__slots__
    number: int
    line: int
    event: Event
    state: Any
    voided: bool
    _lines: tuple[str, ...] | None
    _narrate: tuple[Game[Any], Any] | None


@dataclass(frozen=True, slots=True)
class HandReplay:
    game: Game[Any]
    start: Start
    steps: tuple[Step, ...]
    #: The misdeal that called the hand off, if one stands (not voided).
    misdeal: Misdeal | None = None

    @property
    def state(self) -> Any:
        return self.steps[-1].state

    @property
    def over(self) -> bool:
        return self.misdeal is not None or self.game.is_over(self.state)

    def settle(self) -> Settlement:
        if self.misdeal is not None:
            return self.game.refund(self.state, self.misdeal.reason)
        return self.game.settle(self.state)


#: ``HandReplay(...)`` without the frozen constructor's cost (a replay makes one a hand).
_build_replay = builder(HandReplay)


def _first_step(line: int, event: Event, state: Any, lines: tuple[str, ...]) -> Step:
    """``Step(1, line, event, state, lines)``, filled in as the replay loop fills its steps."""
    step: Any = _new_step(_StepTwin)
    step.number = 1
    step.line = line
    step.event = event
    step.state = state
    step.voided = False
    step._lines = lines
    step._narrate = None
    step.__class__ = Step
    first: Step = step
    return first


#: Event classes seen to be neither a start nor a void: the replay loop tells them by class alone.
_PLAIN: set[type[Event]] = set()


def voided_targets(events: Sequence[Event]) -> dict[int, Void]:
    """Event numbers (1-based) voided by the hand's void events, checked for sense."""
    targets: dict[int, Void] = {}
    for i, ev in enumerate(events, start=1):
        if isinstance(ev, Void):
            t = ev.target
            if not 1 <= t < i:
                raise RuleViolation(f"void names event {t}, which is not an earlier event")
            if t == 1:
                raise RuleViolation(
                    "the start of a hand cannot be voided: call a misdeal to call the hand off"
                )
            if isinstance(events[t - 1], Void):
                raise RuleViolation(f"event {t} is itself a void")
            if t in targets:
                raise RuleViolation(f"event {t} is already void")
            targets[t] = ev
    return targets


class _Stop(Exception):
    """The fold stops at event ``index`` (0-based): ``error`` the game's refusal, or
    ``message`` the fold's own."""

    def __init__(self, index: int, message: str = "", error: DealerAssistError | None = None):
        super().__init__(message)
        self.index = index
        self.message = message
        self.error = error


def _fold(
    game: Game[Any], state: Any, events: Sequence[Event], voided: Mapping[int, Void],
    steps: list[Step] | None, line_of: Sequence[int],
) -> tuple[Any, Misdeal | None]:
    """The one fold of a hand's events after its start: the game's ``apply`` over each event
    that counts (voided events and voids skipped; nothing after a standing misdeal), with
    ``steps`` (when given) filled with a :class:`Step` for every event. :class:`_Stop` at the
    event refused. :func:`replay` and :func:`fold` are this loop.

    Where the game gives a working copy (:meth:`Game.working`), each event is put to it in
    place: without steps nobody reads the states between the events, so the state is made once,
    at the end (or at a misdeal, which reads it); with steps it is made after every event, but
    never copied back into a working copy."""
    misdeal: Misdeal | None = None
    apply = game.apply
    append = steps.append if steps is not None else None
    work = game.working(state)
    put = work.put if work is not None else None
    freeze = work.freeze if work is not None and steps is not None else None
    # Step.narrated, inlined: this loop runs for every event of every replay.
    new_step = _new_step
    twin = _StepTwin
    i = 1  # (the number of the last event done: the loops go on from events[i])
    if put is not None and freeze is None and not voided:
        # nothing to skip and no state to make: put each plain event in turn, up to the first
        # that is not (a misdeal, a void, a second start: the loop below takes them)
        plain = _PLAIN
        try:
            for ev in events[1:]:
                if ev.__class__ not in plain:
                    break
                i += 1
                put(ev)
        except DealerAssistError as exc:
            raise _Stop(i - 1, error=exc) from exc
        except Exception as exc:  # a game's fault on a stored event: that event's fault
            raise _Stop(i - 1, cannot_take(game, exc)) from exc
    for ev in events[i:]:
        i += 1
        if ev.__class__ not in _PLAIN:
            if isinstance(ev, Start):
                raise _Stop(i - 1, "a second start event: one hand per log")
            if isinstance(ev, Void):
                if append is not None:
                    append(Step(i, line_of[i - 1], ev, state,
                                (f"void of event {ev.target}: {ev.reason}",)))
                continue
            if not isinstance(ev, Misdeal):
                _PLAIN.add(ev.__class__)
        if voided and i in voided:
            if append is not None:
                append(Step(i, line_of[i - 1], ev, state, ("(voided)",), voided=True))
            continue
        if misdeal is not None:
            raise _Stop(i - 1, misdeal_refusal(misdeal))
        if ev.__class__ is Misdeal:
            if work is not None:  # (the misdeal reads the state: make it now)
                if freeze is None:
                    state = work.freeze()
                work = put = freeze = None
            try:
                game.contributions(state)  # the game takes a misdeal
            except DealerAssistError as exc:
                raise _Stop(i - 1, error=exc) from exc
            except Exception as exc:
                raise _Stop(i - 1, cannot_take(game, exc)) from exc
            assert isinstance(ev, Misdeal)
            misdeal = ev
            if append is not None:
                append(Step(i, line_of[i - 1], ev, state, (f"misdeal: {ev.reason}",)))
            continue
        if put is not None:
            try:
                put(ev)
            except DealerAssistError as exc:
                raise _Stop(i - 1, error=exc) from exc
            except Exception as exc:
                raise _Stop(i - 1, cannot_take(game, exc)) from exc
            if freeze is None:
                continue
            after = freeze()
        else:
            try:
                after = apply(state, ev)
            except DealerAssistError as exc:
                raise _Stop(i - 1, error=exc) from exc
            except Exception as exc:
                raise _Stop(i - 1, cannot_take(game, exc)) from exc
        if append is not None:
            step: Any = new_step(twin)
            step.number = i
            step.line = line_of[i - 1]
            step.event = ev
            step.state = after
            step.voided = False
            step._lines = None
            step._narrate = (game, state)
            step.__class__ = Step
            append(step)
        state = after
    if work is not None and freeze is None:
        state = work.freeze()
    return state, misdeal


def cannot_take(game: Game[Any], exc: Exception) -> str:
    """Why a fold stops at an event its game fails on rather than refuses (a record written
    past the game's reader, or a fault of the game): said as a refusal, so that a replay,
    verify and every report name that event and go on with the other hands."""
    return (f"{game.title} cannot take this event ({type(exc).__name__}: {exc}): the record "
            "is not one the game reads")


def replay(events: Sequence[Event], *, lines: Sequence[int] | None = None) -> HandReplay:
    """Fold ``events`` through their game; errors become :class:`HandLogError` naming the line."""
    line_of = list(lines) if lines is not None else range(1, len(events) + 1)
    if not events:
        raise HandLogError(1, "the hand log is empty: it must begin with a start event")
    first = events[0]
    if not isinstance(first, Start):
        raise HandLogError(line_of[0], "a hand log must begin with a start event")
    try:
        game = get_game(first.game)
        state = game.start(first)
    except DealerAssistError as exc:
        raise HandLogError(line_of[0], str(exc)) from exc
    except Exception as exc:  # (a start past the game's reader: see cannot_take)
        raise HandLogError(line_of[0], cannot_take(get_game(first.game), exc)) from exc
    try:
        voided = voided_targets(events)
    except RuleViolation as exc:
        bad = next(i for i, e in enumerate(events) if isinstance(e, Void))
        raise HandLogError(line_of[bad], str(exc)) from exc
    steps = [_first_step(line_of[0], first, state, (f"start: {game.title}",))]
    try:
        state, misdeal = _fold(game, state, events, voided, steps, line_of)
    except _Stop as stop:
        text = cite(stop.error) if stop.error is not None else stop.message
        raise HandLogError(line_of[stop.index], text) from stop.error
    return _build_replay(game, first, tuple(steps), misdeal)


@dataclass(frozen=True, slots=True)
class Folded:
    """A hand folded without steps (:func:`fold`): its game, its last state and the misdeal
    that called it off, if one stands."""

    game: Game[Any]
    state: Any
    #: The misdeal that called the hand off, if one stands (not voided): it settles as refunds.
    misdeal: Misdeal | None = None

    @property
    def over(self) -> bool:
        return self.misdeal is not None or self.game.is_over(self.state)

    def settle(self) -> Settlement:
        if self.misdeal is not None:
            return self.game.refund(self.state, self.misdeal.reason)
        return self.game.settle(self.state)


@dataclass(frozen=True, slots=True)
class Refused:
    """The hand does not replay: ``index`` (0-based) of the event refused, and why."""

    index: int
    reason: str


def fold(
    events: Sequence[Event], *, begun: tuple[Game[Any], Any] | str | None = None
) -> Folded | Refused:
    """The hand's game and final state, or the event refused: :func:`replay`'s fold without
    its steps, for ``verify`` and the reports. ``begun``: the game and its state after the
    start (or why it cannot start) when the caller has them already."""
    first = events[0]
    if not isinstance(first, Start):
        return Refused(0, "a hand must begin with a start event")
    if begun is None:
        begun = begin(first)
    if isinstance(begun, str):
        return Refused(0, begun)
    game, state = begun
    try:
        voided = voided_targets(events)
    except RuleViolation as exc:
        return Refused(next(i for i, e in enumerate(events) if isinstance(e, Void)), str(exc))
    try:
        state, misdeal = _fold(game, state, events, voided, None, _NO_LINES)
    except _Stop as stop:
        return Refused(stop.index, str(stop.error) if stop.error is not None else stop.message)
    return _build_folded(game, state, misdeal)


#: ``Folded(...)`` without the frozen constructor's cost (verify and the reports make one a hand).
_build_folded = builder(Folded)

#: (:func:`fold` keeps no steps, so names no lines)
_NO_LINES: Sequence[int] = ()


def begin(first: Start) -> tuple[Game[Any], Any] | str:
    """The hand's game and its state after the start event, or why the hand cannot start."""
    try:
        game = get_game(first.game)
        return game, game.start(first)
    except DealerAssistError as exc:
        return str(exc)
    except Exception as exc:  # (a start past the game's reader: see cannot_take)
        return cannot_take(get_game(first.game), exc)


def misdeal_refusal(misdeal: Misdeal) -> str:
    """Why nothing is entered after a misdeal."""
    return (f"the hand was called off as a misdeal ({misdeal.reason}): nothing more is entered; "
            "void the misdeal to go on with the hand, or start the next hand")


def parse_lines(text_lines: Iterable[str]) -> tuple[list[Event], list[int]]:
    """Read a hand log's JSON Lines, the start first (it names the game whose events the other
    lines are); blank lines are skipped; a bad line raises :class:`HandLogError`."""
    events: list[Event] = []
    numbers: list[int] = []
    game: Game[Any] | None = None  # (the start line's game, once it is read)
    for n, obj in json_lines(text_lines):
        try:
            if not events:
                event = event_from_json(obj)
                if not isinstance(event, Start):
                    raise HandLogError(n, "a hand log must begin with a start event")
                game = start_game(event)
            else:
                event = read_event(obj, game)
        except BadInput as exc:
            raise HandLogError(n, str(exc)) from exc
        if isinstance(event, Void | Misdeal) and not event.reason.strip():
            # (as the dealer screen asks: a correction or a misdeal always says why)
            what = "void" if isinstance(event, Void) else "misdeal"
            raise HandLogError(n, f'a {what} needs a reason: write why in "reason"')
        events.append(event)
        numbers.append(n)
    return events, numbers


def read_log(path: str | Path) -> tuple[list[Event], list[int]]:
    """A hand log file (``-``: standard input), read line by line within the bounds of
    :mod:`dealer_assist.bounded`."""
    return parse_lines(log_lines(path))


def to_lines(events: Iterable[Event]) -> str:
    return "".join(ev.to_line() + "\n" for ev in events)
