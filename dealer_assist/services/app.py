"""The application services: every use case the UI, the CLI and the reports call.

Each call checks the role of the signed-in user, checks the input against the game (a
:class:`~dealer_assist.errors.RuleViolation` means nothing was stored), then makes one store call
(one transaction). The screen changes only from what a call returns, after it is recorded.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn

from dealer_assist.bounded import check_value
from dealer_assist.engine.base import Game, Prompt, Settlement, TableView, called_off
from dealer_assist.engine.hand import HandReplay, Step, misdeal_refusal, parse_lines, replay
from dealer_assist.engine.log import hand_events
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError, HandLogError, RuleViolation
from dealer_assist.events import Event, Misdeal, Period, SeatIn, SeatOut, Start, Void
from dealer_assist.fees import FeePolicy, TimeState, time_apply
from dealer_assist.money import format_cents
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.chain import canonical
from dealer_assist.services.errors import (
    ApprovalRequired,
    Conflict,
    LockedOut,
    NotAllowed,
    NotFound,
    SignInFailed,
)
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.model import (
    PERMISSIONS,
    ROLES,
    Adjustment,
    AuditEntry,
    ChainHead,
    Dispute,
    Hand,
    HandFilter,
    LedgerLine,
    NewEvent,
    Seal,
    Session,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    User,
    UserState,
)
from dealer_assist.services.ports import PinHasher, Sealer, Store
from dealer_assist.services.timeacct import (
    TimeMark,
    fold_time,
    new_lines,
    time_policy_of,
)
from dealer_assist.settings import TableSettings as ParsedSettings
from dealer_assist.settings import (
    check_table,
    parse_table_settings,
    per_hand_keys,
    start_event,
    start_params,
)
from dealer_assist.version import version_line

#: Wrong PINs in a row that lock a user, and for how long.
MAX_FAILED_PINS = 3
LOCKOUT = timedelta(minutes=5)
#: The one answer to a wrong PIN and to an unknown name alike (names cannot be found by trying).
WRONG_PIN = (
    f"unknown name or wrong PIN ({MAX_FAILED_PINS} wrong PINs in a row lock a name for 5 minutes)"
)


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Approval:
    """A floor person's name and PIN, typed at the station to approve an action."""

    name: str
    pin: str


#: How often (seconds) a station re-reads that a signed-in name is still active.
ACTIVE_RECHECK_S = 30.0


@dataclass(frozen=True, slots=True)
class HandNow:
    """A hand as it stands after the last recorded event: everything a screen needs.

    ``replay`` is the fold of the hand's events (``replay.state``, ``replay.steps``);
    ``last`` is the stored row of the last event (its seq, time, actor and hash).
    """

    hand: Hand
    replay: HandReplay
    last: StoredEvent

    @property
    def game(self) -> Game[Any]:
        return self.replay.game

    @property
    def state(self) -> Any:
        return self.replay.state

    @property
    def over(self) -> bool:
        return self.replay.over

    def prompt(self) -> Prompt:
        misdeal = self.replay.misdeal
        if misdeal is not None:
            button = self.replay.game.view(self.replay.state).button is not None
            return Prompt(
                phase="misdeal", to_act=None, done=True,
                message=f"Misdeal ({misdeal.reason}): give back every chip put in this hand"
                + ("; the next hand keeps the same button" if button else ""),
            )
        return self.replay.game.prompt(self.replay.state)

    def view(self) -> TableView:
        """The table as the dealer sees it: destroyed hands face down."""
        view = self.replay.game.view(self.replay.state, reveal=False)
        misdeal = self.replay.misdeal
        return view if misdeal is None else called_off(view, misdeal.reason)

    def settlement(self) -> Settlement:
        return self.replay.settle()


@dataclass(frozen=True, slots=True)
class TimeNow:
    """A table's time account as it stands: who is seated since when, and what was collected.

    ``collect`` holds the time collections the last recorded event made (after a period mark:
    what the dealer collects now, seat by seat; after a void of a mark: a negative line is
    given back to its seat); ``events`` counts the table's table-level events (what the next
    append expects).
    """

    table: Table
    settings: SettingsVersion
    policy: FeePolicy
    state: TimeState
    seats: tuple[int, ...]
    events: int
    collect: tuple[LedgerLine, ...] = ()
    last: StoredEvent | None = None

    @property
    def seated(self) -> tuple[int, ...]:
        return self.state.seated

    @property
    def period(self) -> int:
        return self.state.period

    def collect_total(self) -> int:
        return sum(x.amount for x in self.collect)


class Services:
    """The one entry point of the application. Construct it with a store (see
    ``dealer_assist.db.bootstrap.open_services`` for the database one)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        hasher: PinHasher | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.hasher: PinHasher = hasher or Argon2PinHasher()
        #: Signs checkpoints at each shift close (after verifying what came since the last
        #: one) and for each report; None: this store has no room key (the in-memory store).
        self.sealer: Sealer | None = None
        #: What the last shift close's checkpoint found and signed.
        self.last_seal: Seal | None = None
        self._live: dict[int, HandNow] = {}
        #: When each signed-in name was last seen active in the store (a monotonic clock): a
        #: name disabled at another station stops working here within ACTIVE_RECHECK_S.
        self._seen_active: dict[str, float] = {}
        self._decoy: str | None = None

    # --- users, sign-in, approvals -----------------------------------------------------------
    def needs_first_admin(self) -> bool:
        """True on a new database: the first run must create the admin."""
        return self.store.count_users() == 0

    def create_first_admin(self, *, name: str, full_name: str, pin: str) -> User:
        """The first user of a new database; refused once any user exists."""
        if not self.needs_first_admin():
            raise NotAllowed("an admin already exists: sign in as the admin to add users")
        user = self.store.add_user(
            name=_check_name(name), full_name=_check_full_name(full_name), role="admin",
            pin_hash=self.hasher.hash(_check_pin(pin)), at=self.clock(),
        )
        self._audit(user.name, "user-added", f"{user.name} ({user.full_name}) as admin, first run")
        return user

    def sign_in(self, name: str, pin: str) -> Session:
        """Check a PIN. Three wrong PINs in a row lock the user for five minutes; logged."""
        user = self._check_pin_of(name, pin, action="login")
        self._audit(user.name, "login",
                    f"{user.name} signed in as {user.role} · {version_line()}")
        return Session(user=user, signed_in_at=self.clock())

    def sign_out(self, session: Session) -> None:
        self._audit(session.name, "logout", f"{session.name} signed out")

    def approve(
        self, approval: Approval, *, what: str, permission: str = "approve",
        table_id: int | None = None, hand_id: int | None = None,
    ) -> User:
        """Check a floor approval (name and PIN, with the same lockout as sign-in); logged with
        its subject (``what``: "misdeal of hand 8") and the table and hand it concerns."""
        user = self._check_pin_of(approval.name, approval.pin, action="approval")
        if user.role not in PERMISSIONS[permission]:
            self._audit(user.name, "approval-refused", f"{user.role} cannot approve {what}",
                        table_id=table_id, hand_id=hand_id)
            raise NotAllowed(
                f"{user.name} is {_a(user.role)}: only a floor person can approve {what}"
            )
        self._audit(user.name, "approval", what, table_id=table_id, hand_id=hand_id)
        return user

    def add_user(
        self, session: Session, *, name: str, full_name: str, role: str, pin: str
    ) -> User:
        self._require_admin(session, "add users")
        if role not in ROLES:
            raise BadInput(f'unknown role "{role}": choose one of {", ".join(ROLES)}')
        clean = _check_name(name)
        if self.store.user_secret(clean) is not None:
            raise BadInput(f'a user named "{clean}" already exists')
        user = self.store.add_user(
            name=clean, full_name=_check_full_name(full_name), role=role,
            pin_hash=self.hasher.hash(_check_pin(pin)), at=self.clock(),
        )
        self._audit(session.name, "user-added", f"{user.name} ({user.full_name}) as {role}")
        return user

    def reset_pin(self, session: Session, name: str, pin: str) -> None:
        """Admin: set a new PIN (also lifts a lockout and clears the wrong-PIN count)."""
        self._require_admin(session, "reset PINs")
        secret = self._secret(name)
        new_hash = self.hasher.hash(_check_pin(pin))
        locked = secret.locked_until is not None and self.clock() < _aware(secret.locked_until)
        self.store.set_pin_hash(secret.user.id, new_hash)
        self.store.set_login_state(secret.user.id, failed=0, locked_until=None)
        self._audit(session.name, "pin-reset",
                    f"new PIN for {name}" + ("; lockout lifted" if locked else ""))

    def change_pin(self, session: Session, old_pin: str, new_pin: str) -> None:
        """A user changes their own PIN, giving the old one. The new PIN is checked first, so a
        mistyped new PIN never costs a try; a wrong old PIN counts toward the lockout."""
        _check_pin(new_pin)
        if new_pin == old_pin:
            raise BadInput("the new PIN is the same as the old one: choose another")
        secret = self.store.user_secret(session.name)
        if secret is None or not secret.user.active:
            self._audit(session.name, "pin-change-refused", "disabled user")
            raise NotAllowed(f"{session.name} is disabled: an admin must enable the name first")
        try:
            self._check_pin_of(session.name, old_pin, action="pin-change")
        except SignInFailed as exc:
            left = exc.attempts_left
            raise SignInFailed(
                f"the old PIN is wrong ({left} more {'try' if left == 1 else 'tries'} before "
                f"{session.name} is locked for 5 minutes)",
                attempts_left=left,
            ) from exc
        self.store.set_pin_hash(secret.user.id, self.hasher.hash(new_pin))
        self._audit(session.name, "pin-changed", f"{session.name} changed their PIN")

    def set_user_active(self, session: Session, name: str, active: bool) -> None:
        """Admin: disable a user (they can no longer sign in or approve) or enable them again.

        The room always keeps an admin who can sign in: an admin cannot disable their own name,
        and only an active admin may act (:meth:`_require_admin`), so whoever disables an admin
        is another active admin and the last active admin can never be disabled."""
        self._require_admin(session, "enable or disable users")
        user = self._secret(name).user
        if user.active == active:
            raise BadInput(f"{user.name} is already {'active' if active else 'disabled'}")
        if not active and user.name == session.name:
            raise NotAllowed(f"{user.name} cannot disable their own name: another admin must do "
                             "it (the room keeps at least one active admin)")
        me = self.store.user_secret(session.name)
        # checked again where it is written: an admin disabled a moment ago (by another admin
        # at another station, perhaps disabling this one) can no longer act
        if me is None or not self.store.set_user_active(user.id, active, by=me.user.id):
            raise NotAllowed(f"{session.name} is disabled: sign out; only an active admin can "
                             "enable or disable users")
        self._seen_active.pop(user.name, None)
        self._audit(session.name, "user-enabled" if active else "user-disabled", user.name)

    def list_users(self, session: Session) -> list[User]:
        self._require_admin(session, "list users")
        return self.store.list_users()

    def user_states(self, session: Session) -> list[UserState]:
        """Admin: every user (by name) with their sign-in state: wrong PINs in a row and a
        lockout still running (one that has run out is not shown). Never the PIN hash."""
        self._require_admin(session, "see the users")
        now = self.clock()
        out: list[UserState] = []
        for listed in self.store.list_users():
            secret = self.store.user_secret(listed.name)
            if secret is None:  # users are never deleted; a rename cannot happen either
                continue
            until = None if secret.locked_until is None else _aware(secret.locked_until)
            out.append(UserState(
                user=secret.user, failed=secret.failed,
                locked_until=until if until is not None and now < until else None,
            ))
        return out

    def _require_admin(self, session: Session, what: str) -> None:
        """The users permission, held by a name that is still active: an admin disabled at
        another station cannot go on managing users from a window left signed in."""
        self._require(session, "users", what)
        secret = self.store.user_secret(session.name)
        if secret is None or not secret.user.active:
            self._refuse(session, what, f"{session.name} is disabled: sign out; only an active "
                         f"admin can {what}")

    def floor_people(self) -> list[User]:
        """Active floor users (the names a dealer chooses from when opening a shift)."""
        return [u for u in self.store.list_users() if u.role == "floor" and u.active]

    # --- cardroom, tables, settings ----------------------------------------------------------
    def cardroom_name(self) -> str:
        return self.store.cardroom_name()

    def set_cardroom_name(self, session: Session, name: str) -> None:
        self._require(session, "configure", "name the cardroom")
        if not name.strip():
            raise BadInput("the cardroom needs a name")
        self.store.set_cardroom_name(name.strip())
        self._audit(session.name, "cardroom-named", name.strip())

    def name_new_cardroom(self, name: str, *, unnamed: str, station: str) -> bool:
        """The name a station was set up with, given to a database that was never named (it
        still reads ``unnamed``); a named cardroom keeps its name, so a station cannot rename
        the room on every report. Logged; True if it named the room."""
        if not name.strip() or self.store.cardroom_name() != unnamed:
            return False
        self.store.set_cardroom_name(name.strip())
        self._audit(None, "cardroom-named", f"{name.strip()} (set up at station {station})")
        return True

    def add_table(
        self, session: Session, settings: Mapping[str, Any], *, name: str | None = None
    ) -> Table:
        """A new table with its first settings version. ``settings`` is a table-settings
        document (docs/table-settings.md), checked in full; ``name`` defaults to its name."""
        self._require(session, "configure", "add tables")
        doc, parsed = self._check_settings(settings)
        title = (name or parsed.name).strip()
        if not title:
            raise BadInput("the table needs a name")
        if self.store.find_table(title) is not None:
            raise BadInput(f'a table named "{title}" already exists')
        table = self.store.add_table(name=title, at=self.clock())
        self.store.add_settings(
            table_id=table.id, game=parsed.game, document=doc, by=session.name, at=self.clock()
        )
        self._audit(session.name, "table-added", f"{table.name}: {parsed.game}", table_id=table.id)
        return table

    def change_settings(
        self, session: Session, table_id: int, settings: Mapping[str, Any]
    ) -> SettingsVersion:
        """A new settings version; hands started from now on run under it."""
        self._require(session, "configure", "change table settings")
        table = self.table(table_id)
        doc, parsed = self._check_settings(settings)
        row = self.store.add_settings(
            table_id=table.id, game=parsed.game, document=doc, by=session.name, at=self.clock()
        )
        self._audit(
            session.name, "settings-changed", f"{table.name}: version {row.version}, {parsed.game}",
            table_id=table.id,
        )
        return row

    def table(self, table_id: int) -> Table:
        table = self.store.get_table(table_id)
        if table is None:
            raise NotFound(f"there is no table {table_id}")
        return table

    def find_table(self, name_or_id: str) -> Table:
        """A table by its name, or by its number when no table has that name."""
        table = self.store.find_table(name_or_id)
        if table is None and name_or_id.isdigit():
            table = self.store.get_table(int(name_or_id))
        if table is None:
            known = ", ".join(t.name for t in self.store.list_tables()) or "none yet"
            raise NotFound(f'there is no table "{name_or_id}" (tables: {known})')
        return table

    def list_tables(self) -> list[Table]:
        return self.store.list_tables()

    def settings(self, table_id: int) -> SettingsVersion:
        """The table's current settings version."""
        row = self.store.latest_settings(table_id)
        if row is None:
            raise NotFound(f"table {table_id} has no settings yet: the floor must set its game")
        return row

    def settings_version(self, settings_id: int) -> SettingsVersion:
        row = self.store.get_settings(settings_id)
        if row is None:
            raise NotFound(f"there are no settings {settings_id}")
        return row

    # --- shifts ------------------------------------------------------------------------------
    def open_shift(self, session: Session, table_id: int, *, floor: str) -> Shift:
        """The signed-in dealer opens a shift at a table under a named floor person."""
        self._require(session, "deal", "open a shift")
        table = self.table(table_id)
        current = self.store.current_shift(table.id)
        if current is not None:
            raise RuleViolation(
                f"{table.name} already has an open shift (opened by {current.dealer}): "
                "close it first"
            )
        floor_user = self._secret(floor).user
        if floor_user.role != "floor" or not floor_user.active:
            raise BadInput(f"{floor} is not an active floor person")
        self.settings(table.id)
        shift = self.store.open_shift(
            table_id=table.id, dealer=session.name, floor=floor_user.name, at=self.clock()
        )
        self._audit(
            session.name, "shift-opened", f"{table.name}, floor {floor_user.name}",
            table_id=table.id,
        )
        return shift

    def close_shift(self, session: Session, shift_id: int, *, approval: Approval) -> Shift:
        """Close a shift with the floor's sign-off; refused while a hand is still being dealt."""
        self._require(session, "deal", "close a shift")
        shift = self.shift(shift_id)
        if not shift.open:
            raise RuleViolation(f"shift {shift.id} is already closed")
        for hand in self.store.list_hands(HandFilter(shift_id=shift.id, status="open", limit=5)):
            if not self.hand_now(hand.id).over:
                raise RuleViolation(
                    f"hand {hand.number} is not finished: finish and settle it before closing"
                )
            raise RuleViolation(
                f"hand {hand.number} is finished but not settled: settle it (push the chips "
                "and record it) before closing the shift"
            )
        floor = self.approve(approval, what=f"closing shift {shift.id}",
                             table_id=shift.table_id)
        closed = self.store.close_shift(
            shift.id, dealer=session.name, floor=floor.name, at=self.clock()
        )
        self._audit(
            session.name, "shift-closed", f"shift {shift.id}, floor {floor.name}",
            table_id=shift.table_id,
        )
        if self.sealer is not None:
            seal = self.sealer.close_of_shift(f"shift {shift.id} closed")
            self.last_seal = seal
            self._audit(
                session.name, "checkpoint" if seal.ok else "verify-failed",
                seal.message, table_id=shift.table_id,
            )
        return closed

    def shift(self, shift_id: int) -> Shift:
        shift = self.store.get_shift(shift_id)
        if shift is None:
            raise NotFound(f"there is no shift {shift_id}")
        return shift

    def current_shift(self, table_id: int) -> Shift | None:
        return self.store.current_shift(table_id)

    def list_shifts(self, table_id: int | None = None) -> list[Shift]:
        return self.store.list_shifts(table_id)

    # --- hands and events --------------------------------------------------------------------
    def start_hand(
        self,
        session: Session,
        table_id: int,
        *,
        seats: Sequence[int] | None = None,
        button: int | None = None,
        stacks: Mapping[int, int] | None = None,
        carry_in: int | None = None,
    ) -> HandNow:
        """Start a hand in the table's open shift from its current settings version.

        ``seats`` (clockwise, a subset of the table's) defaults to every seat. For games whose
        hands take them: ``button`` defaults to the seat after the last hand's button,
        ``carry_in`` to the last settled hand's carry-over, and each seat's stack to what it
        left the table's last settled hand with (:meth:`next_stacks`), or the buy-in. ``stacks``
        gives some or all seats' stacks instead (a rebuy, a new player): each one that differs
        from what the seat had is written to the audit log.
        """
        self._require(session, "deal", "deal hands")
        table = self.table(table_id)
        shift = self.store.current_shift(table.id)
        if shift is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        if session.role == "dealer" and shift.dealer != session.name:
            raise RuleViolation(
                f"{table.name}'s open shift is {shift.dealer}'s: {shift.dealer} closes it with "
                "the floor, then open your own shift to deal"
            )
        last = _LastHand(self, self.store.last_hand(table.id))  # read, and replayed, once
        self._previous_hand_done(last)
        version = self.settings(table.id)
        parsed = parse_table_settings(version.document, source=table.name)
        if seats is not None:
            playing = tuple(seats)
            stray = [s for s in playing if s not in parsed.seats]
            if stray or len(set(playing)) != len(playing) or not playing:
                raise BadInput(
                    f"seats must be some of the table's seats {list(parsed.seats)}, once each"
                )
            parsed = replace(parsed, seats=playing)
        keys = per_hand_keys(parsed.game)
        per_hand: dict[str, Any] = {}
        carried = self._carried_from_last(last, parsed.game, parsed.seats)
        if button is None and isinstance(carried.get("button"), int):
            button = carried["button"]
        carried.pop("button", None)
        if carried:
            per_hand["carried"] = carried
        if "button" in keys:
            per_hand["button"] = button if button is not None else self._next_button(
                last, parsed.seats
            )
        changed: list[str] = []
        if "stacks" in keys:
            per_hand["stacks"], changed = self._stacks_for(
                last, parsed.game, parsed.seats, parsed.buy_in, stacks or {}
            )
        if "carry_in" in keys:
            carried_in = self._carry_from_last(last, parsed.game)
            per_hand["carry_in"] = carry_in if carry_in is not None else carried_in
            if carry_in is not None and carry_in != carried_in:  # recorded: verify accepts it
                changed.append(f"carry-in {format_cents(carry_in)} ({format_cents(carried_in)} "
                               "carried from the last hand)")
        start = start_event(parsed, **per_hand)
        game = get_game(parsed.game)
        state = game.start(start)  # RuleViolation: nothing stored
        hand, row = self.store.start_hand(
            table_id=table.id, shift_id=shift.id, settings_id=version.id, game=parsed.game,
            seats=start.seats,
            start=NewEvent(body=_body(start), actor=session.name, time=self.clock()),
        )
        if changed:
            self._audit(session.name, "stacks", f"hand {hand.number}: " + "; ".join(changed),
                        table_id=table.id, hand_id=hand.id)
        first = Step(1, 1, start, state, (f"start: {game.title}",))
        rep = HandReplay(game=game, start=start, steps=(first,))
        now = HandNow(hand=hand, replay=rep, last=row)
        self._live[hand.id] = now
        return now

    def _previous_hand_done(self, last: _LastHand) -> None:
        """A new hand starts only after the table's last one is settled: its chips are pushed
        and recorded (a misdeal too: settling it records the chips given back)."""
        hand = last.hand
        if hand is None or hand.status == "settled":
            return
        if self.hand_now(hand.id).over:
            raise RuleViolation(
                f"hand {hand.number} is finished but not settled: settle it (push the chips "
                "and record it) before the next hand"
            )
        raise RuleViolation(
            f"hand {hand.number} is still being dealt: finish it (or call a misdeal) and "
            "settle it before the next hand"
        )

    def record(
        self, session: Session, hand_id: int, event: Event, *, approval: Approval | None = None
    ) -> HandNow:
        """Check ``event`` against the hand, then append it. A :class:`Void` goes through
        :meth:`void`. Raises RuleViolation (nothing stored) when the game refuses it."""
        if isinstance(event, Void):
            return self.void(session, hand_id, event.target, event.reason, approval=approval)
        if isinstance(event, Misdeal):
            return self.misdeal(session, hand_id, event.reason, approval=approval)
        self._require(session, "deal", "record events")
        if isinstance(event, Start):
            raise RuleViolation("a hand has one start: start a new hand instead")
        now = self.hand_now(hand_id)
        if now.replay.misdeal is not None:
            raise RuleViolation(misdeal_refusal(now.replay.misdeal))
        game = now.replay.game
        after = game.apply(now.replay.state, event)  # RuleViolation: nothing stored
        row = self._append(now, event, session.name)
        step = Step(
            row.number, row.number, event, after,
            tuple(game.narrate(now.replay.state, event, after)),
        )
        new = HandNow(
            hand=replace(now.hand, events=row.number),
            replay=replace(now.replay, steps=(*now.replay.steps, step)),
            last=row,
        )
        self._live[hand_id] = new
        return new

    def void(
        self,
        session: Session,
        hand_id: int,
        target: int,
        reason: str,
        *,
        approval: Approval | None = None,
    ) -> HandNow:
        """Void the hand's event number ``target`` with a reason. In a finished hand (over or
        settled) the floor must approve; the hand then reopens and is settled again."""
        self._require(session, "deal", "void events")
        if not reason.strip():
            raise BadInput("a void needs a reason")
        now = self.hand_now(hand_id)
        finished = now.hand.status == "settled" or now.over
        if finished:
            if approval is None:
                raise ApprovalRequired(
                    "the hand is finished: a floor person must approve this void with their PIN"
                )
            self.approve(approval, what=f"void of event {target} in hand {now.hand.number}",
                         table_id=now.hand.table_id, hand_id=hand_id)
        void = Void(target=target, reason=reason.strip())
        events = [s.event for s in now.replay.steps] + [void]
        try:
            rep = replay(events)
        except HandLogError as exc:
            if exc.line == len(events):
                raise RuleViolation(exc.reason) from exc
            raise RuleViolation(
                f"cannot void event {target}: event {exc.line} would then be wrong ({exc.reason})"
            ) from exc
        row = self._append(now, void, session.name)
        if now.hand.status == "settled":
            self.store.reopen_hand(hand_id)
        detail = f"event {target} ({now.replay.steps[target - 1].event.TYPE}): {void.reason}"
        if approval is not None:
            detail += f"; approved by {approval.name}"
        self._audit(session.name, "void", detail, table_id=now.hand.table_id, hand_id=hand_id)
        new = HandNow(
            hand=replace(now.hand, events=row.number, status="open"), replay=rep, last=row
        )
        self._live[hand_id] = new
        return new

    def misdeal(
        self, session: Session, hand_id: int, reason: str, *, approval: Approval | None = None
    ) -> HandNow:
        """Call the hand off as a misdeal, with a reason and a floor person's approval: every
        chip goes back to the seat that put it in (settle the hand to record that), no fee is
        taken, and the next hand keeps the same button. A settled hand reopens."""
        self._require(session, "deal", "call a misdeal")
        if not reason.strip():
            raise BadInput("a misdeal needs a reason")
        now = self.hand_now(hand_id)
        if now.replay.misdeal is not None:
            raise RuleViolation(f"hand {now.hand.number} is already a misdeal")
        if approval is None:
            raise ApprovalRequired("a misdeal needs a floor person's approval with their PIN")
        call = Misdeal(reason=reason.strip())
        events = [s.event for s in now.replay.steps] + [call]
        try:
            rep = replay(events)
        except HandLogError as exc:
            raise RuleViolation(exc.reason) from exc
        self.approve(approval, what=f"misdeal of hand {now.hand.number}",
                     table_id=now.hand.table_id, hand_id=hand_id)
        row = self._append(now, call, session.name)
        if now.hand.status == "settled":
            self.store.reopen_hand(hand_id)
        self._audit(session.name, "misdeal",
                    f"hand {now.hand.number}: {call.reason}; approved by {approval.name}",
                    table_id=now.hand.table_id, hand_id=hand_id)
        new = HandNow(
            hand=replace(now.hand, events=row.number, status="open"), replay=rep, last=row
        )
        self._live[hand_id] = new
        return new

    def settle(self, session: Session, hand_id: int) -> Settlement:
        """Write the finished hand's ledger lines (put in, pushes, fees, carries)."""
        self._require(session, "deal", "settle hands")
        now = self.hand_now(hand_id)
        if not now.over:
            raise RuleViolation(f"the hand is not over yet: {now.prompt().message}")
        settlement = now.settlement()
        if not settlement.conserved:
            raise DealerAssistError(
                f"the settlement does not add up (in {settlement.total_in}, out "
                f"{settlement.total_out}); nothing was written: call the floor"
            )
        if now.hand.status != "settled":
            self.store.settle_hand(hand_id, ledger_lines(hand_id, settlement))
            self._live[hand_id] = replace(now, hand=replace(now.hand, status="settled"))
        return settlement

    def hand(self, hand_id: int) -> Hand:
        hand = self.store.get_hand(hand_id)
        if hand is None:
            raise NotFound(f"there is no hand {hand_id}")
        return hand

    def hand_now(self, hand_id: int) -> HandNow:
        """The hand as it stands (cached after the first load at this station)."""
        cached = self._live.get(hand_id)
        if cached is not None:
            return cached
        hand = self.hand(hand_id)
        rows = self.store.hand_events(hand_id)
        now = HandNow(hand=hand, replay=_replay_rows(rows), last=rows[-1])
        self._live[hand_id] = now
        return now

    def current_hand(self, table_id: int) -> HandNow | None:
        """The table's last hand if it is still open (to resume after a restart)."""
        hand = self.store.last_hand(table_id)
        if hand is None or hand.status != "open":
            return None
        return self.hand_now(hand.id)

    def hand_events(self, hand_id: int) -> list[StoredEvent]:
        """The stored rows of the hand, in order (for replay with times and actors)."""
        self.hand(hand_id)
        return self.store.hand_events(hand_id)

    def hand_replay(self, hand_id: int) -> HandReplay:
        """The hand folded from the store (not the station's cache): for the floor's replay."""
        return _replay_rows(self.hand_events(hand_id))

    def list_hands(self, flt: HandFilter | None = None) -> list[Hand]:
        return self.store.list_hands(flt or HandFilter())

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        return self.store.ledger(hand_id)

    def chain_head(self, table_id: int) -> ChainHead | None:
        return self.store.chain_head(table_id)

    # --- time collection: seat in, seat out, period marks ---------------------------------
    def time_policy(self, table_id: int) -> FeePolicy | None:
        """The table's time collection policy (current settings), or None if its fee is not
        charged by time (the screen then shows no seat or period controls)."""
        row = self.store.latest_settings(table_id)
        return None if row is None else time_policy_of(row)

    def time_now(self, table_id: int) -> TimeNow:
        """The table's time account folded from its stored seat and period events."""
        table = self.table(table_id)
        current = self.settings(table.id)
        policy = time_policy_of(current)
        if policy is None:
            raise RuleViolation(
                f"{table.name} does not collect time (its fee is "
                f"{_fee_text(current)}): there are no seats to mark in or out"
            )
        rows = self.store.table_level_events(table.id)
        versions = self.store.settings_versions(table.id)
        fold = fold_time(table.id, table.name, versions, rows, current)
        if fold.problem is not None or fold.state is None:
            why = fold.problem.message if fold.problem is not None else "no account"
            raise DealerAssistError(
                f"{table.name}'s seat and period record cannot be read ({why}): call the floor "
                "and run dealer-assist verify"
            )
        parsed = parse_table_settings(current.document, source=table.name)
        last = rows[-1] if rows else None
        collect = tuple(x for x in self.store.time_ledger(table.id)
                        if last is not None and x.seq == last.seq)
        return TimeNow(
            table=table, settings=current, policy=policy, state=fold.state,
            seats=parsed.seats, events=len(rows), last=last, collect=collect,
        )

    def seat_in(self, session: Session, table_id: int, seat: int) -> TimeNow:
        """A player sits down at ``seat`` and starts owing time (whole billing: with more than
        half the running period left, that period is collected at once)."""
        return self.record_time(session, table_id, SeatIn(seat=seat))

    def seat_out(self, session: Session, table_id: int, seat: int) -> TimeNow:
        """The player at ``seat`` leaves or sits out (prorated billing collects the minutes)."""
        return self.record_time(session, table_id, SeatOut(seat=seat))

    def mark_period(self, session: Session, table_id: int) -> TimeNow:
        """The period mark: time is collected from every seated seat; ``collect`` lists it."""
        return self.record_time(session, table_id, Period())

    def record_time(self, session: Session, table_id: int, event: Event) -> TimeNow:
        """Check a seat_in / seat_out / period event against the table's time account, then
        append it to the table's chain with the collections it makes, in one transaction."""
        self._require(session, "deal", "mark seats and collect time")
        if not isinstance(event, SeatIn | SeatOut | Period):
            raise RuleViolation(
                f'"{event.TYPE}" is not a seat or period event: record it in a hand'
            )
        table = self.table(table_id)
        if self.store.current_shift(table.id) is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        now = self.time_now(table.id)
        if isinstance(event, SeatIn | SeatOut) and event.seat not in now.seats:
            raise RuleViolation(
                f"seat {event.seat} is not a seat at {table.name} (its seats are "
                f"{', '.join(str(s) for s in now.seats)})"
            )
        at = self.clock()
        after = time_apply(now.state, at, event)  # RuleViolation: nothing stored
        made = new_lines(now.state, after, table_id=table.id, seq=0)
        row, lines = self.store.append_table_event(
            table.id, expected=now.events,
            event=NewEvent(body=_body(event), actor=session.name, time=at), lines=made,
        )
        state = replace(after, last_at=row.time)
        return replace(
            now, state=state, events=now.events + 1, collect=tuple(lines), last=row,
        )

    def time_marks(self, table_id: int) -> list[TimeMark]:
        """The table's seat and period marks (and voids), in order, for the dealer to pick one
        to void: number, time, what ("seat 4 in", "period 3"), and which void voided it."""
        table = self.table(table_id)
        rows = self.store.table_level_events(table.id)
        fold = fold_time(table.id, table.name, self.store.settings_versions(table.id), rows,
                         self.settings(table.id), marks=True)
        return list(fold.marks)

    def void_time(
        self, session: Session, table_id: int, target: int, reason: str, *,
        approval: Approval | None = None,
    ) -> TimeNow:
        """Void the table's seat or period mark number ``target`` with a reason. The account is
        folded again without it; the void's time lines give back (negative) or collect
        (positive), per seat, the difference between what is now owed and what was collected.
        A void that moves money needs a floor person's approval; ``collect`` lists the moves."""
        self._require(session, "deal", "void seat and period marks")
        if not reason.strip():
            raise BadInput("a void needs a reason: say what went wrong")
        table = self.table(table_id)
        if self.store.current_shift(table.id) is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        now = self.time_now(table.id)
        void = Void(target=target, reason=reason.strip())
        rows = self.store.table_level_events(table.id)
        at = self.clock()
        trial = StoredEvent(
            table_id=table.id, seq=-1, hand_id=None, number=len(rows) + 1, actor=session.name,
            time=at, body=_body(void), prev_hash="", hash="",
        )
        fold = fold_time(table.id, table.name, self.store.settings_versions(table.id),
                         [*rows, trial], now.settings, marks=True)
        if fold.problem is not None:
            if fold.problem.seq == trial.seq:
                raise RuleViolation(fold.problem.reason)
            raise DealerAssistError(
                f"{table.name}'s seat and period record cannot be read "
                f"({fold.problem.message}): call the floor and run dealer-assist verify"
            )
        made = [replace(x, seq=0) for x in fold.lines if x.seq == trial.seq]
        what = next(m.what for m in fold.marks if m.number == target)
        moves = "; ".join(
            f"seat {x.seat} {'give back' if x.amount < 0 else 'collect'} "
            f"{format_cents(abs(x.amount))}" for x in made
        )
        if made and approval is None:
            raise ApprovalRequired(
                f"voiding mark {target} ({what}) moves money ({moves}): a floor person must "
                "approve it with their PIN"
            )
        if approval is not None:
            self.approve(approval, what=f"void of {table.name} mark {target} ({what})",
                         table_id=table.id)
        row, lines = self.store.append_table_event(
            table.id, expected=now.events,
            event=NewEvent(body=_body(void), actor=session.name, time=at), lines=made,
        )
        detail = f"table mark {target} ({what}): {void.reason}"
        if made:
            detail += f"; {moves}"
        if approval is not None:
            detail += f"; approved by {approval.name}"
        self._audit(session.name, "void", detail, table_id=table.id)
        assert fold.state is not None  # the fold stood, under the current settings
        return replace(now, state=replace(fold.state, last_at=row.time), events=now.events + 1,
                       collect=tuple(lines), last=row)

    def time_collections(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        """Recorded time collections (one table or all), with the time they were collected."""
        return self.store.time_ledger(table_id, since=since, until=until)

    # --- floor: reveal, disputes -------------------------------------------------------------
    def reveal(
        self, session: Session, hand_id: int, *, step: int | None = None, reason: str = "",
    ) -> TableView:
        """A destroyed hand's cards, for the floor only, with the reason they are shown; every
        reveal is logged with it ("hand 8 after event 40: dispute at seat 3")."""
        self._require(session, "reveal", "reveal destroyed hands")
        why = " ".join(reason.split())
        if not why:
            raise BadInput("a reveal needs a reason: say why the hidden cards are shown "
                           "(e.g. dispute at seat 3)")
        rep = self.hand_replay(hand_id)
        hand = self.hand(hand_id)
        at = rep.steps[-1] if step is None else rep.steps[max(1, min(step, len(rep.steps))) - 1]
        self._audit(
            session.name, "reveal", f"hand {hand.number} after event {at.number}: {why}",
            table_id=hand.table_id, hand_id=hand_id,
        )
        return rep.game.view(at.state, reveal=True)

    def reveals(self, hand_id: int) -> list[AuditEntry]:
        """Who revealed the hand, and when."""
        return self.store.audit_log(action="reveal", hand_id=hand_id)

    def record_dispute(
        self,
        session: Session,
        hand_id: int,
        *,
        notes: str,
        ruling: str,
        adjustments: Sequence[Adjustment] = (),
    ) -> Dispute:
        """The floor records a dispute: notes, the ruling and balancing adjustments (cents)."""
        self._require(session, "dispute", "record disputes")
        hand = self.hand(hand_id)
        if not notes.strip() or not ruling.strip():
            raise BadInput("a dispute needs notes and a ruling")
        for a in adjustments:
            if not isinstance(a.amount, int) or isinstance(a.amount, bool):
                raise BadInput("adjustments are whole cents")
        total = sum(a.amount for a in adjustments)
        if total != 0:
            raise BadInput(
                f"the adjustments do not balance (they add up to {total} cents): every cent "
                "paid to one seat comes from another seat or the house"
            )
        dispute = self.store.add_dispute(
            hand_id=hand.id, notes=notes.strip(), ruling=ruling.strip(), floor=session.name,
            at=self.clock(), adjustments=tuple(adjustments),
        )
        self._audit(
            session.name, "dispute", f"hand {hand.number}: {ruling.strip()}",
            table_id=hand.table_id, hand_id=hand.id,
        )
        return dispute

    def disputes(self, hand_id: int | None = None) -> list[Dispute]:
        return self.store.disputes(hand_id)

    # --- export, import, audit ---------------------------------------------------------------
    def export_hand(self, session: Session, hand_id: int) -> str:
        """The hand log (JSON Lines, the replay format, with seq/time/actor/hash); logged."""
        self._require(session, "review", "export hands")
        hand = self.hand(hand_id)
        rows = self.store.hand_events(hand_id)
        self._audit(
            session.name, "export", f"hand {hand.number} ({len(rows)} events)",
            table_id=hand.table_id, hand_id=hand_id,
        )
        return "".join(json.dumps(r.to_line_json(), ensure_ascii=False) + "\n" for r in rows)

    def import_hand(self, session: Session, table_id: int, lines: Iterable[str]) -> Hand:
        """Load a hand log into a table (training, disputes), after replaying it in full.

        The log must be of the table's game under one of the table's settings versions (the
        same seats, chip, game settings and fee). The hand is stored whole, with its audit
        entry, in one transaction, in a shift of its own; it is marked imported
        (:attr:`Hand.imported`) and never feeds a live hand's stacks, button or carry-over.
        """
        self._require(session, "configure", "import hands")
        table = self.table(table_id)
        events, numbers = parse_lines(lines)
        if not events:
            raise BadInput("the hand log is empty: nothing was imported")
        if isinstance(events[0], Start):
            self._check_import_settings(table, events[0])
        rep = replay(events, lines=numbers)  # HandLogError names the bad line
        settled = None
        if rep.over:
            settlement = rep.settle()
            if not settlement.conserved:
                raise BadInput("the hand's settlement does not conserve chips: not imported")
            settled = ledger_lines(0, settlement)
        at = self.clock()
        start = rep.start
        hand = self.store.import_hand(
            table_id=table.id, actor=session.name, at=at, game=start.game, seats=start.seats,
            events=[NewEvent(body=_body(ev), actor=session.name, time=at) for ev in events],
            lines=settled, note=f"{len(events)} events imported from a hand log",
        )
        return self.hand(hand.id)

    def _check_import_settings(self, table: Table, start: Start) -> None:
        """The log's start must be what the table would deal: its game, some of its seats, its
        fee, and every other setting the log names as one of the table's settings versions has
        it."""
        versions = self.store.settings_versions(table.id)
        if not versions:
            raise NotFound(f"{table.name} has no settings yet: the floor must set its game")
        current = versions[-1]
        same_game = [v for v in reversed(versions) if v.game == start.game]
        if not same_game:
            raise BadInput(
                f"the hand log is {start.game}, but {table.name} plays {current.game}: import it "
                f"into a {start.game} table; nothing was imported"
            )
        got = json.loads(canonical(start.to_json()))
        problem = ""
        for version in same_game:
            parsed = parse_table_settings(version.document, source=table.name)
            stray = [seat for seat in start.seats if seat not in parsed.seats]
            if stray:
                problem = (f"seat {stray[0]} is not a seat at {table.name} (its seats are "
                           f"{', '.join(map(str, parsed.seats))})")
                continue
            want = json.loads(canonical(start_params(parsed)))
            # every setting the log names must be the table's (a log may leave out one the
            # game defaults); a fee the log takes must be the table's, or none at all
            differ = [k for k, v in want.items()
                      if k not in ("type", "seats") and (k in got or k == "fee")
                      and got.get(k) != v]
            if "fee" in got and "fee" not in want:
                differ.append("fee")
            if not differ:
                return
            if not problem:
                key = differ[0]
                problem = (f'its "{key}" is {json.dumps(got.get(key))}, {table.name} has '
                           f"{json.dumps(want.get(key))}")
        raise BadInput(
            f"the hand log does not match {table.name}'s settings ({problem}): a hand is "
            "imported only into a table that deals it the same way; nothing was imported"
        )

    def log(
        self, session: Session, action: str, detail: str = "", *,
        table_id: int | None = None, hand_id: int | None = None,
    ) -> AuditEntry:
        """Log a sensitive action done outside the services (a report generated, a verify run)."""
        return self._audit(session.name, action, detail, table_id=table_id, hand_id=hand_id)

    def audit_log(
        self, session: Session, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None,
    ) -> list[AuditEntry]:
        self._require(session, "audit", "read the audit log")
        return self.store.audit_log(since=since, until=until, action=action)

    # --- internals ---------------------------------------------------------------------------
    def _append(self, now: HandNow, event: Event, actor: str) -> StoredEvent:
        try:
            return self.store.append_event(
                now.hand.id, expected=len(now.replay.steps),
                event=NewEvent(body=_body(event), actor=actor, time=self.clock()),
            )
        except Conflict:
            self._live.pop(now.hand.id, None)
            raise

    def _audit(
        self, actor: str | None, action: str, detail: str = "", *,
        table_id: int | None = None, hand_id: int | None = None,
    ) -> AuditEntry:
        return self.store.add_audit(
            at=self.clock(), actor=actor, action=action, detail=detail, table_id=table_id,
            hand_id=hand_id,
        )

    def _require(self, session: Session, permission: str, what: str) -> None:
        if session.role not in PERMISSIONS[permission]:
            allowed = " or ".join(r for r in ROLES if r in PERMISSIONS[permission])
            self._refuse(session, what,
                         f"{session.name} is {_a(session.role)}: only {allowed} can {what}")
        self._require_active(session, what)

    def _refuse(self, session: Session, what: str, message: str) -> NoReturn:
        """Refuse a signed-in user's action, and write the refusal to the audit log (a dealer
        trying to add users leaves more than a sign-in behind)."""
        self._audit(session.name, "refused", f"{session.role} tried to {what}")
        raise NotAllowed(message)

    def _require_active(self, session: Session, what: str) -> None:
        """The session's name must still be active: a name disabled while signed in (here or
        at another station) can do nothing more. Checked in the store at most every
        ``ACTIVE_RECHECK_S`` seconds per name, so dealing costs no extra read per input."""
        now = time.monotonic()
        seen = self._seen_active.get(session.name)
        if seen is not None and now - seen < ACTIVE_RECHECK_S:
            return
        secret = self.store.user_secret(session.name)
        if secret is None or not secret.user.active:
            self._seen_active.pop(session.name, None)
            self._refuse(session, what, f"{session.name} is disabled: sign out; a disabled "
                         f"name cannot {what}")
        self._seen_active[session.name] = now

    def _secret(self, name: str) -> Any:
        secret = self.store.user_secret(name)
        if secret is None:
            raise NotFound(f'there is no user "{name}"')
        return secret

    def _check_pin_of(self, name: str, pin: str, *, action: str) -> User:
        """The user whose name and PIN these are. The try is counted before the PIN is checked
        (:meth:`Store.claim_pin_try`), so parallel tries cannot run past the lockout; an
        unknown name gets the same answer, after the same work, as a wrong PIN."""
        now = self.clock()
        secret = self.store.user_secret(name)
        if secret is None or not secret.user.active:
            self.hasher.verify(self._decoy_hash(), pin)  # as long as a real check
            self._audit(secret.user.name if secret else None, f"{action}-failed",
                        "disabled user" if secret else _unknown_name(name))
            raise SignInFailed(WRONG_PIN, attempts_left=MAX_FAILED_PINS)
        user = secret.user
        claim = self.store.claim_pin_try(user.id, now=now, limit=MAX_FAILED_PINS,
                                         lockout=LOCKOUT)
        if not claim.allowed:
            until = _aware(claim.locked_until or now)
            self._audit(user.name, f"{action}-refused", "locked out")
            raise LockedOut(_locked_text(user.name, until, now), until=until)
        if self.hasher.verify(claim.pin_hash, pin):
            self.store.pin_try_right(user.id, locked_until=claim.locked_until)
            return user
        if claim.locked_until is not None:
            until = _aware(claim.locked_until)
            self._audit(user.name, "lockout",
                        f"{claim.failed} wrong PINs ({action}); locked 5 minutes")
            raise LockedOut(
                f"wrong PIN {claim.failed} times: {user.name} is locked until {until:%H:%M} UTC "
                "(5 minutes), or until an admin resets the PIN",
                until=until,
            )
        self._audit(user.name, f"{action}-failed",
                    f"wrong PIN ({claim.failed} of {MAX_FAILED_PINS})")
        raise SignInFailed(WRONG_PIN, attempts_left=MAX_FAILED_PINS - claim.failed)

    def _decoy_hash(self) -> str:
        """A hash no PIN matches, checked for an unknown name so it costs what a real try
        costs (the time taken does not tell which names exist)."""
        if self._decoy is None:
            self._decoy = self.hasher.hash("decoy-no-pin-matches")
        return self._decoy

    def _check_settings(
        self, settings: Mapping[str, Any]
    ) -> tuple[dict[str, Any], ParsedSettings]:
        """The settings document as plain JSON, checked as ``table check`` checks it."""
        try:
            doc = json.loads(canonical(dict(settings)))
        except (TypeError, ValueError, RecursionError) as exc:
            raise BadInput(f"table settings must be plain JSON values: {exc}") from exc
        check_value(doc, where="the table settings")  # the bounds a settings file has
        parsed = parse_table_settings(doc)
        check_table(parsed)  # the preset's rules and the game's own start
        return doc, parsed

    def _next_button(self, last: _LastHand, seats: tuple[int, ...]) -> int:
        """The seat after the last hand's button, clockwise among the seats playing; after a
        misdeal the same button (the hand is dealt again)."""
        if last.hand is None:
            return seats[-1]
        if last.hand.status == "settled":  # replayed anyway (what the game carries over)
            button = last.replay().start.params.get("button")
        else:  # (an open hand left behind: its start is enough)
            button = self.store.hand_events(last.hand.id)[0].body.get("button")
        if not isinstance(button, int):
            return seats[-1]
        if last.hand.status == "settled" and button in seats and (
            last.replay().misdeal is not None
        ):
            return button
        later = [s for s in seats if s > button]
        return later[0] if later else seats[0]

    def _carried_from_last(
        self, last: _LastHand, game: str, seats: tuple[int, ...]
    ) -> dict[str, Any]:
        """What the game takes over from the table's last settled hand of the same game and
        seats (fantasyland, a button that stays); nothing after a change of game or seats."""
        if last.hand is None or last.hand.game != game or last.hand.status != "settled":
            return {}
        replayed = last.replay()
        if tuple(replayed.start.seats) != tuple(seats):
            return {}
        if replayed.misdeal is not None:  # dealt again as it was
            kept = dict(replayed.game.redeal(replayed.state))
            button = replayed.start.params.get("button")
            if isinstance(button, int):
                kept["button"] = button
            return kept
        return dict(replayed.game.next_hand(replayed.state))

    def uses_stacks(self, table_id: int) -> bool:
        """Whether the table's game (current settings) is played with stacks."""
        version = self.settings(table_id)
        parsed = parse_table_settings(version.document, source=self.table(table_id).name)
        return "stacks" in per_hand_keys(parsed.game)

    def next_stacks(self, table_id: int, seats: Sequence[int] | None = None) -> dict[int, int]:
        """For games played with stacks: each seat's chips for the next hand if nothing is
        bought: what it left the last settled hand of this game with, else the buy-in (absent:
        the table has no buy-in and the seat did not play that hand). Empty for other games."""
        version = self.settings(table_id)
        parsed = parse_table_settings(version.document, source=self.table(table_id).name)
        if "stacks" not in per_hand_keys(parsed.game):
            return {}
        playing = tuple(seats) if seats is not None else parsed.seats
        kept = self._stacks_from_last(_LastHand(self, self.store.last_hand(table_id)),
                                      parsed.game)
        out = {s: kept[s] for s in playing if s in kept}
        if parsed.buy_in is not None:
            out.update({s: parsed.buy_in for s in playing if s not in kept})
        return out

    def _stacks_from_last(self, last: _LastHand, game: str) -> dict[int, int]:
        """Each seat's chips after the table's last settled hand of ``game``: what it had left
        plus what was pushed to it (a misdeal gives back what was put in)."""
        hand = last.hand
        if hand is None or hand.game != game or hand.status != "settled":
            return {}
        rep = last.replay()
        if rep.start.get("stacks") is None:
            return {}
        payouts = rep.settle().payouts
        left = rep.game.stacks_left(rep.state) or {}
        return {seat: stack + payouts.get(seat, 0) for seat, stack in left.items()}

    def _stacks_for(
        self, last: _LastHand, game: str, seats: tuple[int, ...], buy_in: int | None,
        given: Mapping[int, int],
    ) -> tuple[dict[int, int], list[str]]:
        """The next hand's stacks: ``given`` where given, else what the seat kept, else the
        buy-in; and, for the audit log, each given stack that differs from the default."""
        kept = self._stacks_from_last(last, game)
        out: dict[int, int] = {}
        changed: list[str] = []
        for seat in seats:
            default = kept.get(seat, buy_in)
            value = given.get(seat, default)
            if value is None:
                raise BadInput(f"give seat {seat}'s stack: the table has no buy-in setting and "
                               "the seat did not play the last hand")
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadInput(f"seat {seat}'s stack must be whole cents, not {value!r}")
            if value <= 0:
                had = "has no chips left" if seat in kept else "has no stack"
                raise RuleViolation(
                    f"seat {seat} {had}: enter a rebuy for it (Stacks…) or leave it out of "
                    "this hand"
                )
            if seat in given and value != default:
                if default is None:
                    was = "no stack before"
                elif seat in kept:
                    was = f"{format_cents(default)} kept from the last hand"
                else:
                    was = f"the buy-in of {format_cents(default)}"
                changed.append(f"seat {seat} {format_cents(value)} ({was})")
            out[seat] = value
        return out, changed

    def _carry_from_last(self, last: _LastHand, game: str) -> int:
        hand = last.hand
        if hand is None or hand.game != game or hand.status != "settled":
            return 0
        return sum(x.amount for x in self.store.ledger(hand.id) if x.kind == "carry_out")


class _LastHand:
    """The table's last hand as :meth:`Services.start_hand` consults it: read once, and replayed
    from the store at most once (button, carry-over, what the game carries, a misdeal)."""

    def __init__(self, services: Services, hand: Hand | None) -> None:
        self.services = services
        self.hand = hand
        self._replay: HandReplay | None = None

    def replay(self) -> HandReplay:
        assert self.hand is not None
        if self._replay is None:
            self._replay = self.services.hand_replay(self.hand.id)
        return self._replay


def _fee_text(settings: SettingsVersion) -> str:
    try:
        policy = parse_table_settings(settings.document).fee_policy
    except DealerAssistError:
        return "unreadable"
    return "none" if policy is None else policy.describe()


def _replay_rows(rows: Sequence[StoredEvent]) -> HandReplay:
    try:
        return replay(hand_events(r.body for r in rows))
    except BadInput as exc:
        raise HandLogError(1, f"a stored event cannot be read: {exc}") from exc


def _body(event: Event) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(canonical(event.to_json()))
    return body


def _aware(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


def _a(role: str) -> str:
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"


def _locked_text(name: str, until: datetime, now: datetime) -> str:
    """A running lockout as of ``now``: until when, and how long that still is."""
    left = max(1, -int(-(until - now).total_seconds() // 60))
    return (f"{name} is locked after {MAX_FAILED_PINS} wrong PINs: try again after "
            f"{until:%H:%M} UTC (in {left} minute{'s' if left != 1 else ''}), or ask an admin "
            "to reset the PIN")


def _unknown_name(name: str) -> str:
    """The audit line for a name nobody has. A name with four or more digits in a row may be
    a PIN typed into the name box: it is not written down."""
    if re.search(r"\d{4}", name) or len(name) > 40:
        return "unknown name (not written: it may be a PIN typed in the name box)"
    return f'unknown name "{name}"'


def _check_pin(pin: str) -> str:
    if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise BadInput("a PIN is 4 to 12 digits")
    return pin


def _check_name(name: str) -> str:
    n = name.strip()
    if not n or len(n) > 40 or any(c.isspace() for c in n):
        raise BadInput("a user name is one word of at most 40 characters")
    return n


def _check_full_name(full_name: str) -> str:
    n = " ".join(full_name.split())
    if not n:
        raise BadInput("give the person's full name (it goes on signed reports)")
    return n
