"""The floor's use cases: one handler per action over the two ports it needs.

Each handler checks the role, then, inside one transaction that holds the board's lock, derives
the room from the records, checks the action against it and appends one record. A refusal
(:class:`~dealer_assist.errors.RuleViolation`, :class:`~dealer_assist.errors.BadInput`,
:class:`~dealer_assist.services.errors.NotAllowed`) says what is wrong and what to do, and
writes nothing. Two stations racing for one seat: the second decides after the first's record.

First, though, each action is tried on the room and the tables as this board read them last
(:func:`_action`), its record appended in one go only if nothing was recorded since and the
tables are the same (:meth:`FloorRecords.append_after`, checked where it is written): the
floor's usual action costs one round trip. If they moved on, or that try refuses (the room it
decided on may be old), nothing was written and the action is decided again under the lock.
"""

from __future__ import annotations

import copy
import functools
import threading
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Concatenate, ParamSpec

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.money import format_cents
from dealer_assist.services.errors import NotAllowed, NotFound
from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.ports import (
    FloorRecords,
    FloorTable,
    FloorWriter,
    TableCatalog,
)
from dealer_assist.services.floorboard.records import (
    FLOOR_ROLES,
    MAX_NAME,
    SETTINGS,
    FloorEntry,
    NewEntry,
)
from dealer_assist.services.floorboard.seating import NextSeating, next_seating
from dealer_assist.services.floorboard.state import Call, RoomState, Waiting, fold, step
from dealer_assist.services.floorboard.view import game_title
from dealer_assist.services.model import Session


def _now() -> datetime:
    return datetime.now(UTC)


P = ParamSpec("P")


class _MovedOn(Exception):
    """Records or tables changed since the board read them: nothing was written."""


def _action(
    method: Callable[Concatenate[FloorBoard, P], FloorEntry],
) -> Callable[Concatenate[FloorBoard, P], FloorEntry]:
    """A floor action: first decided on the room and the tables as the board read them last
    and appended in one go if they are still those; else, or when that first decision refuses
    (the room it saw may be old), decided again under the board's lock on what is recorded."""

    @functools.wraps(method)
    def act(self: FloorBoard, /, *args: P.args, **kwargs: P.kwargs) -> FloorEntry:
        seen = self.tables.last_read()
        if seen is not None:
            self._trying.seen = seen
            try:
                return method(self, *args, **kwargs)
            except (_MovedOn, RuleViolation, BadInput, NotFound):
                pass  # nothing written: decided again below, on the records as they are
            finally:
                self._trying.seen = None
        return method(self, *args, **kwargs)
    return act


def check_player(text: str, how: str) -> str:
    """A player as the room enters them (``how``: name, initials or number), or a refusal."""
    name = " ".join(text.split()) if text.isprintable() else text.strip()
    if not name:
        raise BadInput("type the player's " + how)
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise BadInput("a player's name holds letters, digits and spaces only, not control "
                       "characters: type it again")
    if len(name) > MAX_NAME:
        raise BadInput(f"a player's {how} is at most {MAX_NAME} characters "
                       f"(this one has {len(name)}): shorten it")
    if how == "initials" and not (name.isalpha() and len(name) <= 4):
        raise BadInput("this room enters players by initials: up to 4 letters, e.g. JD")
    if how == "number" and not (name.isdigit() and len(name) <= 6):
        raise BadInput("this room enters players by number: up to 6 digits, e.g. 117")
    return name.upper() if how == "initials" else name


class FloorBoard:
    """The floor's actions on the board (tables, lists, seats, away marks, settings)."""

    def __init__(self, records: FloorRecords, tables: TableCatalog,
                 clock: Callable[[], datetime] = _now) -> None:
        self.records = records
        self.tables = tables
        self.clock = clock
        #: The room as of the records read so far: each read folds only the records after
        #: them (a refusal or a rolled-back write leaves it as the committed records say).
        self._room = RoomState()
        #: Refuses a name disabled since it signed in (the services' check, set by the
        #: bootstrap; None: no such check here).
        self.still_active: Callable[[Session, str], None] | None = None
        #: This thread's action being tried without the lock: the tables it decides on, as
        #: last read (``seen``; None: deciding under the lock).
        self._trying = threading.local()

    # --- reads -----------------------------------------------------------------------------
    def state(self) -> RoomState:
        """The room now (a copy: the caller may keep it while the board moves on)."""
        return copy.deepcopy(self._caught_up(self.records.entries(self._room.entries)))

    def _caught_up(self, new: list[FloorEntry]) -> RoomState:
        if new and new[0].seq != self._room.entries + 1:
            # not the records that follow the ones folded (another database): start again
            self._room = fold(self.records.entries())
            return self._room
        for e in new:
            step(self._room, e)
        return self._room

    def _floor_tables(self) -> Sequence[FloorTable]:
        seen = getattr(self._trying, "seen", None)
        return seen[1] if seen is not None else self.tables.floor_tables()

    def table(self, table_id: int) -> FloorTable:
        for t in self._floor_tables():
            if t.id == table_id:
                return t
        raise NotFound(f"there is no table {table_id}")

    def next_seating(self, table_id: int) -> NextSeating | None:
        """The seats and new players' buy-ins of the table's next hand by the floor's record
        (None: the floor does not seat this table; the dealer types seats as before)."""
        last = self.tables.last_start(table_id)
        return next_seating(self.state(), table_id, last_start=last[0] if last else None,
                            last_seats=last[1] if last else ())

    def choices(self) -> list[tuple[str, str]]:
        """The (game, stakes) a list can be for: those the tables' settings spread."""
        return sorted({(t.game, t.stakes) for t in self._floor_tables()})

    # --- the writing core ------------------------------------------------------------------
    def _act(self, session: Session, what: str,
             decide: Callable[[RoomState], NewEntry]) -> FloorEntry:
        if session.role not in FLOOR_ROLES:
            raise NotAllowed(f"{session.name} is a{'n' if session.role[0] in 'aeiou' else ''} "
                             f"{session.role}: only the floor or an admin can {what}")
        if self.still_active is not None:
            self.still_active(session, what)
        seen = getattr(self._trying, "seen", None)
        if seen is not None:  # on the room as read last: written only if it still is
            room = self._room
            row = self.records.append_after(
                decide(room), after=room.entries, tables=seen[0], at=self.clock(),
                actor=session.name, token=session.token)
            if row is None:
                raise _MovedOn
        else:
            with self.records.writing() as tx:
                new = tx.entries(self._room.entries)
                if new and new[0].seq != self._room.entries + 1:
                    new = tx.entries()
                    self._room = RoomState()
                entry = decide(self._caught_up(new))
                row = self._append(tx, session, entry)
        if row.seq == self._room.entries + 1:  # committed: the room as it now is
            step(self._room, row)
        return row

    def _append(self, tx: FloorWriter, session: Session, entry: NewEntry) -> FloorEntry:
        return tx.append(entry, at=self.clock(), actor=session.name, token=session.token)

    # --- tables ----------------------------------------------------------------------------
    @_action
    def open_table(self, session: Session, table_id: int) -> FloorEntry:
        t = self.table(table_id)

        def decide(s: RoomState) -> NewEntry:
            if s.table_status(t.id) == "open":
                raise RuleViolation(f"{t.name} is already open")
            return NewEntry(r.OPEN, table_id=t.id)
        return self._act(session, "open a table", decide)

    @_action
    def close_table(self, session: Session, table_id: int) -> FloorEntry:
        """Close: every seat is freed and every call to the table ends."""
        t = self.table(table_id)

        def decide(s: RoomState) -> NewEntry:
            if s.table_status(t.id) == "closed":
                raise RuleViolation(f"{t.name} is already closed")
            return NewEntry(r.CLOSE, table_id=t.id)
        return self._act(session, "close a table", decide)

    @_action
    def mark_breaking(self, session: Session, table_id: int) -> FloorEntry:
        """Breaking: no new seats; the players are offered other tables."""
        t = self.table(table_id)

        def decide(s: RoomState) -> NewEntry:
            if s.table_status(t.id) != "open":
                raise RuleViolation(f"{t.name} is {s.table_status(t.id)}: only an open table "
                                    "can be marked breaking")
            return NewEntry(r.BREAKING, table_id=t.id)
        return self._act(session, "mark a table breaking", decide)

    @_action
    def link_must_move(self, session: Session, main_table: int, feeder: int | None) -> FloorEntry:
        """Mark ``feeder`` as feeding ``main_table``'s open seats (None: unlink)."""
        main = self.table(main_table)
        if feeder is not None:
            f = self.table(feeder)
            if f.id == main.id or (f.game, f.stakes) != (main.game, main.stakes):
                raise RuleViolation(f"a must-move table spreads the main game's game and "
                                    f"stakes ({main.game} {main.stakes}); {f.name} does not")
        return self._act(session, "link a must-move table", lambda s: NewEntry(
            r.MUST_MOVE, table_id=main.id, other_table=feeder))

    @_action
    def set_rule(self, session: Session, name: str, value: str) -> FloorEntry:
        """Change one of the room's board settings (:data:`records.SETTINGS`)."""
        if name not in SETTINGS:
            raise BadInput(f"no board setting {name!r}: choose one of {', '.join(SETTINGS)}")
        allowed = SETTINGS[name][1]
        value = value.strip()
        if allowed is None:
            if not (value.isdigit() and 1 <= int(value) <= 240):
                raise BadInput(f"{name} is a number of minutes from 1 to 240")
        elif value not in allowed:
            raise BadInput(f"{name} is one of {', '.join(allowed)}")
        return self._act(session, "change the board's settings", lambda s: NewEntry(
            r.SETTING, setting=name, value=value))

    # --- lists -----------------------------------------------------------------------------
    @_action
    def add_to_list(self, session: Session, player: str, game: str, stakes: str) -> FloorEntry:
        if (game, stakes) not in self.choices():
            raise BadInput(f"no table spreads {game} {stakes}".rstrip() + ": choose one of "
                           + "; ".join(f"{g} {s}".strip() for g, s in self.choices()))

        def decide(s: RoomState) -> NewEntry:
            name = check_player(player, s.rules.names)
            lst = s.lists.get((game, stakes), [])
            key = name.casefold()
            if any(w.player.casefold() == key for w in lst):
                raise RuleViolation(f"{name} is already on the {game} {stakes} list".replace(
                    "  ", " "))
            return NewEntry(r.LIST_ADD, player=name, game=game, stakes=stakes)
        return self._act(session, "put players on a list", decide)

    def _entry(self, s: RoomState, entry: int) -> Waiting:
        w = s.waiting(entry)
        if w is None:
            raise RuleViolation("that player is no longer on the list: look at the list again")
        return w

    @_action
    def call(self, session: Session, entry: int, table_id: int, seat: int) -> FloorEntry:
        """Call a waiting player to an open seat; the call's timer is the room's setting."""
        t = self.table(table_id)

        def decide(s: RoomState) -> NewEntry:
            w = self._entry(s, entry)
            if (t.game, t.stakes) != (w.game, w.stakes):
                raise RuleViolation(f"{w.player} waits for {w.game} {w.stakes}; {t.name} "
                                    f"spreads {t.game} {t.stakes}")
            if w.call is not None:
                c = s.calls[w.call]
                raise RuleViolation(f"{w.player} is already called to {self._where(c)}")
            self._seat_open(s, t, seat, calling=True)
            return NewEntry(r.CALL, table_id=t.id, seat=seat, player=w.player, entry=w.entry,
                            minutes=s.rules.call_minutes)
        return self._act(session, "call players", decide)

    @_action
    def call_must_move(self, session: Session, main_table: int, seat: int) -> FloorEntry:
        """Call the feeder's longest-seated player to the main table's open ``seat``."""
        t = self.table(main_table)

        def decide(s: RoomState) -> NewEntry:
            feeders = [f for f, m in s.feeders.items() if m == t.id]
            seated = sorted((p for f in feeders for p in s.seated(f).values()
                             if not s.calls_for(p.player)), key=lambda p: (p.since, p.seq))
            if not seated:
                raise RuleViolation(f"no must-move player to call to {t.name}: link a feeder "
                                    "table (M) or call from the list")
            self._seat_open(s, t, seat, calling=True)
            p = seated[0]
            return NewEntry(r.CALL, table_id=t.id, seat=seat, player=p.player,
                            other_table=p.table_id, minutes=s.rules.call_minutes)
        return self._act(session, "call a must-move player", decide)

    @_action
    def not_here(self, session: Session, entry: int) -> FloorEntry:
        """A called (or looked-for) player is not here: the end of the list the first time,
        off it the second (room setting)."""
        return self._act(session, "mark a player not here", lambda s: NewEntry(
            r.NOT_HERE, entry=self._entry(s, entry).entry, player=self._entry(s, entry).player))

    @_action
    def remove(self, session: Session, entry: int) -> FloorEntry:
        return self._act(session, "take a player off a list", lambda s: NewEntry(
            r.REMOVE, entry=self._entry(s, entry).entry, player=self._entry(s, entry).player))

    @_action
    def withdraw_call(self, session: Session, table_id: int, seat: int) -> FloorEntry:
        """Withdraw the call on a seat (a list player keeps their place)."""
        def decide(s: RoomState) -> NewEntry:
            c = s.call_on(table_id, seat)
            if c is None:
                raise RuleViolation(f"nobody is called to seat {seat}")
            if c.entry is not None:
                return NewEntry(r.NOT_HERE, entry=c.entry, player=c.player)
            return NewEntry(r.REMOVE, table_id=table_id, seat=seat, player=c.player)
        return self._act(session, "withdraw a call", decide)

    # --- seats -----------------------------------------------------------------------------
    def _where(self, c: Call) -> str:
        return f"{self.table(c.table_id).name} seat {c.seat}"

    def _seat_open(self, s: RoomState, t: FloorTable, seat: int, *, calling: bool) -> None:
        status = s.table_status(t.id)
        if status != "open":
            raise RuleViolation(f"{t.name} is {status}: no new seats there"
                                + (" (open it first)" if status == "closed" else ""))
        if seat not in t.seats:
            raise BadInput(f"{t.name} has no seat {seat}: its seats are "
                           f"{', '.join(map(str, t.seats))}")
        taken = s.seated(t.id)
        if calling and len(taken) >= len(t.seats):
            raise RuleViolation(f"{t.name} is full: call when a seat opens")
        if seat in taken:
            raise RuleViolation(f"{t.name} seat {seat} is taken by {taken[seat].player}: "
                                "choose an open seat")
        if calling and s.call_on(t.id, seat) is not None:
            c = s.call_on(t.id, seat)
            assert c is not None
            raise RuleViolation(f"{t.name} seat {seat} is already called for {c.player}")

    def _check_amount(self, s: RoomState, t: FloorTable, amount: int | None, *,
                      moving: bool) -> None:
        if amount is None:
            if t.buy_in is not None:
                raise BadInput(f"type the buy-in ({format_cents(t.buy_in)} to "
                               f"{format_cents(t.buy_in * s.rules.buy_in_max_times)})")
            return
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise BadInput("a buy-in is a positive amount")
        if amount % t.smallest_chip:
            raise BadInput(f"a buy-in is whole chips of {format_cents(t.smallest_chip)}")
        if moving or t.buy_in is None:
            return
        top = t.buy_in * s.rules.buy_in_max_times
        if not t.buy_in <= amount <= top:
            raise RuleViolation(f"{t.name}'s buy-in is {format_cents(t.buy_in)} to "
                                f"{format_cents(top)}, not {format_cents(amount)}")

    @_action
    def seat(self, session: Session, table_id: int, seat: int, *, player: str | None = None,
             amount: int | None = None) -> FloorEntry:
        """Seat a player: the one called to ``seat`` (a list player, or a must-move player who
        brings ``amount`` in chips), a walk-in ``player`` with the buy-in ``amount``, or a
        player of this table changing seats (without ``amount``: with the chips they have).
        The seat is in the table's next hand."""
        t = self.table(table_id)

        def decide(s: RoomState) -> NewEntry:
            call = s.call_on(t.id, seat)
            if call is not None and player is not None and (
                    check_player(player, s.rules.names).casefold() != call.player.casefold()):
                raise RuleViolation(f"{t.name} seat {seat} is called for {call.player}: "
                                    "seat them, or withdraw the call first")
            name = call.player if call is not None else check_player(player or "",
                                                                     s.rules.names)
            if call is not None:
                self._seat_open_for_call(s, t, seat)
            else:
                self._seat_open(s, t, seat, calling=False)
            moving = call.from_table if call is not None else None
            if call is None and any(p.table_id == t.id for p in s.where_seated(name)):
                moving = t.id  # a seat change at the table
            if not (moving == t.id and amount is None):  # (a seat change keeps the chips)
                self._check_amount(s, t, amount, moving=moving is not None)
            elsewhere = [p for p in s.where_seated(name) if p.table_id != moving]
            if elsewhere and not s.rules.two_tables:
                p = elsewhere[0]
                raise RuleViolation(f"{name} is seated at {self.table(p.table_id).name} seat "
                                    f"{p.seat}: free that seat first (this room seats a "
                                    "player at one table at a time)")
            return NewEntry(r.SEAT, table_id=t.id, seat=seat, player=name, amount=amount,
                            entry=call.entry if call is not None else None,
                            other_table=moving)
        return self._act(session, "seat players", decide)

    def _seat_open_for_call(self, s: RoomState, t: FloorTable, seat: int) -> None:
        status = s.table_status(t.id)
        if status != "open":
            raise RuleViolation(f"{t.name} is {status}: no new seats there")
        if seat in s.seated(t.id):
            raise RuleViolation(f"{t.name} seat {seat} is taken by "
                                f"{s.seated(t.id)[seat].player}")

    def _seated(self, s: RoomState, table_id: int, seat: int) -> str:
        p = s.seated(table_id).get(seat)
        if p is None:
            raise RuleViolation(f"{self.table(table_id).name} seat {seat} is empty")
        return p.player

    @_action
    def leave(self, session: Session, table_id: int, seat: int) -> FloorEntry:
        """The player leaves: the seat is free from the table's next hand."""
        return self._act(session, "free seats", lambda s: NewEntry(
            r.LEAVE, table_id=table_id, seat=seat, player=self._seated(s, table_id, seat)))

    @_action
    def away(self, session: Session, table_id: int, seat: int) -> FloorEntry:
        def decide(s: RoomState) -> NewEntry:
            name = self._seated(s, table_id, seat)
            if s.seated(table_id)[seat].away_until is not None:
                raise RuleViolation(f"{name} is already marked away")
            return NewEntry(r.AWAY, table_id=table_id, seat=seat, player=name,
                            minutes=s.rules.away_minutes)
        return self._act(session, "mark players away", decide)

    @_action
    def back(self, session: Session, table_id: int, seat: int) -> FloorEntry:
        def decide(s: RoomState) -> NewEntry:
            name = self._seated(s, table_id, seat)
            if s.seated(table_id)[seat].away_until is None:
                raise RuleViolation(f"{name} is not marked away")
            return NewEntry(r.BACK, table_id=table_id, seat=seat, player=name)
        return self._act(session, "mark players back", decide)

    @_action
    def pick_up(self, session: Session, table_id: int, seat: int, chips: int) -> FloorEntry:
        """Pick up an away player's chips once their time ran out: the seat is freed and the
        chips recorded against the player. Never done by itself: the floor is asked."""
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise BadInput("type the chips picked up (0 or more)")

        def decide(s: RoomState) -> NewEntry:
            name = self._seated(s, table_id, seat)
            until = s.seated(table_id)[seat].away_until
            if until is None:
                raise RuleViolation(f"{name} is not marked away: mark away first")
            if self.clock() < until:
                raise RuleViolation(f"{name}'s away time runs until {until:%H:%M} UTC: pick "
                                    "up after that, or free the seat if they left")
            return NewEntry(r.PICK_UP, table_id=table_id, seat=seat, player=name, amount=chips)
        return self._act(session, "pick up chips", decide)

    # --- what the floor is told ------------------------------------------------------------
    def notices(self, s: RoomState | None = None) -> list[str]:
        """Interest lists long enough to open a table, expired calls and away times."""
        s = s if s is not None else self.state()
        now = self.clock()
        out: list[str] = []
        tables = self.tables.floor_tables()
        running = {(t.game, t.stakes) for t in tables if s.table_status(t.id) != "closed"}
        for (game, stakes), lst in sorted(s.lists.items()):
            need = min((t.min_players for t in tables if t.game == game), default=2)
            if (game, stakes) not in running and len(lst) >= need:
                out.append(f"a table could open: {len(lst)} waiting for "
                           f"{game_title(game, stakes)}")  # as the players know the game
        for c in s.calls.values():
            if now >= c.until:
                out.append(f"{c.player}'s call to {self._where(c)} has run out: seat, or "
                           "not here")
        for seats in s.seats.values():
            for p in seats.values():
                if p.away_until is not None and now >= p.away_until:
                    out.append(f"{p.player}'s away time at {self.table(p.table_id).name} seat "
                               f"{p.seat} has run out: pick up the chips?")
        return out
