"""What a game's prompt says: whose turn, the legal actions (each with its key, its cost and its
typed inputs) and the instructions for the dealer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dealer_assist.engine.inputs import Input


@dataclass(frozen=True, slots=True)
class Option:
    """One way to take an action, with what it costs: e.g. "keep 2: call $40" in a game whose
    wagers are priced by the cards the player keeps (``keep``: that count)."""

    label: str
    keep: int | None = None
    amount: int | None = None


#: An action that fixes no event field (one shared empty mapping, not one per action).
_NO_FIELDS: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Action:
    """One input the dealer may give now; the UI makes a button of it.

    ``kind`` names the action and is the event type tag it records (``event`` when another);
    ``amount`` the cents it would put in (``None`` when nothing moves); ``input`` the typed
    input it takes beyond the press (:mod:`dealer_assist.engine.inputs`: cards of a count, a
    choice, an amount in a range, rows, dice, a value the app draws) and ``more`` any further
    ones (a call's cards and the combination they make); ``fields`` the event fields the
    action fixes itself (a die's name, a blind exchange, a row). The event is built by
    :func:`dealer_assist.engine.build.build_event`. A disabled action carries the
    dealer-facing ``reason``.
    """

    kind: str
    label: str
    seat: int | None = None
    amount: int | None = None
    key: str = ""
    enabled: bool = True
    reason: str = ""
    options: tuple[Option, ...] = ()
    input: Input | None = None
    more: tuple[Input, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=lambda: _NO_FIELDS)
    event: str = ""
    #: The floor decides it: recorded only with a floor person's approval (the event is one of
    #: the game's :attr:`Game.floor_events`).
    floor: bool = False

    @property
    def inputs(self) -> tuple[Input, ...]:
        """Every input the action takes, in the order the screen asks for them."""
        return self.more if self.input is None else (self.input, *self.more)

    @property
    def event_type(self) -> str:
        """The type tag of the event the action records."""
        return self.event or self.kind


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the dealer must do next: who acts, what is legal, what to say and turn down."""

    phase: str
    to_act: int | None
    message: str
    actions: tuple[Action, ...] = ()
    instructions: tuple[str, ...] = ()
    done: bool = False

    def action(self, kind: str) -> Action | None:
        return next((a for a in self.actions if a.kind == kind), None)
