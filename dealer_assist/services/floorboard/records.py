"""The floor's records: one typed row per action, and the room's board settings.

Every field is a typed column of the sealed table ``floor_entries`` (schema 0020); a record
never carries text to parse back. ``entry`` names a waiting-list entry by the ``seq`` of the
record that put the player on the list.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any

#: What a floor record says happened.
OPEN, CLOSE, BREAKING = "open", "close", "breaking"
LIST_ADD, CALL, SEAT, NOT_HERE, REMOVE = "list-add", "call", "seat", "not-here", "remove"
LEAVE, AWAY, BACK, PICK_UP, MUST_MOVE, SETTING = (
    "leave", "away", "back", "pick-up", "must-move", "setting",
)
ACTIONS = (OPEN, CLOSE, BREAKING, LIST_ADD, CALL, SEAT, NOT_HERE, REMOVE, LEAVE, AWAY, BACK,
           PICK_UP, MUST_MOVE, SETTING)
#: The roles that run the board (a dealer or an auditor is refused).
FLOOR_ROLES = ("floor", "admin")
#: The longest player name, initials or number.
MAX_NAME = 40


@dataclass(frozen=True, slots=True)
class NewEntry:
    """A floor action about to be recorded: the typed columns (None where they do not apply)."""

    action: str
    table_id: int | None = None
    seat: int | None = None
    player: str | None = None
    game: str | None = None
    stakes: str | None = None
    #: The list entry (the ``seq`` of its list-add record) an action is about.
    entry: int | None = None
    #: Cents: a buy-in on a seat, the chips picked up.
    amount: int | None = None
    #: A timer's length (a call, an away mark).
    minutes: int | None = None
    #: The other table: the feeder of a must-move link, the table a move comes from.
    other_table: int | None = None
    setting: str | None = None
    value: str | None = None

    def columns(self) -> dict[str, Any]:
        """The typed columns as the sealed table holds them."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class FloorEntry:
    """A floor action as recorded: its place in the chain, when, who, and what."""

    seq: int
    at: datetime
    actor: str
    what: NewEntry


#: The board's room settings: name, default, the values it takes (None: a number of minutes).
SETTINGS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "names": ("name", ("name", "initials", "number")),
    "call_minutes": ("5", None),
    "not_here": ("end-then-off", ("end-then-off", "off")),
    "two_tables": ("no", ("no", "yes")),
    "away_minutes": ("15", None),
    "board": ("on", ("on", "off")),
    "buy_in_max_times": ("5", None),
}


@dataclass(frozen=True, slots=True)
class RoomRules:
    """The room settings of the board, as the records last set them."""

    names: str = "name"
    call_minutes: int = 5
    #: ``end-then-off``: a player not here goes to the end of the list the first time and off
    #: it the second; ``off``: off at once.
    not_here: str = "end-then-off"
    two_tables: bool = False
    away_minutes: int = 15
    #: ``off``: the room runs without the board; dealers type seats and verify does not hold
    #: hands to the board's seating.
    board: bool = True
    #: The most a player may buy in for, as a multiple of the table's buy-in (its least).
    buy_in_max_times: int = 5

    def with_setting(self, name: str, value: str) -> RoomRules:
        """These rules with one setting changed (the value already checked)."""
        if name in ("call_minutes", "away_minutes", "buy_in_max_times"):
            minutes = int(value)
            if name == "call_minutes":
                return replace(self, call_minutes=minutes)
            if name == "away_minutes":
                return replace(self, away_minutes=minutes)
            return replace(self, buy_in_max_times=minutes)
        if name == "two_tables":
            return replace(self, two_tables=value == "yes")
        if name == "board":
            return replace(self, board=value == "on")
        if name == "names":
            return replace(self, names=value)
        if name == "not_here":
            return replace(self, not_here=value)
        return self
