"""What every part of the application services shares: the store, the clock, the PIN
hasher and sealer, the audit log, role checks, and the records a call returns about a hand
(:class:`HandNow`) or a table's time account (:class:`TimeNow`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NoReturn

from dealer_assist.engine.base import Game, Prompt, Settlement, TableView, called_off
from dealer_assist.engine.bodies import check_written, read_event
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.engine.log import start_game
from dealer_assist.errors import BadInput, DealerAssistError, HandLogError
from dealer_assist.events import Event, event_from_json
from dealer_assist.fees import FeePolicy, TimeState
from dealer_assist.services.authorizer import ACTIVE_RECHECK_S as ACTIVE_RECHECK_S
from dealer_assist.services.authorizer import LOCKOUT as LOCKOUT
from dealer_assist.services.authorizer import MAX_FAILED_PINS as MAX_FAILED_PINS
from dealer_assist.services.authorizer import WRONG_PIN as WRONG_PIN
from dealer_assist.services.authorizer import Approval as Approval
from dealer_assist.services.authorizer import Authorizer, a_role
from dealer_assist.services.dealer_box import DownRecord
from dealer_assist.services.dealer_ports import DealerRecords
from dealer_assist.services.errors import (
    Conflict,
    NotFound,
)
from dealer_assist.services.floorboard.handlers import FloorBoard
from dealer_assist.services.model import (
    ApprovalSubject,
    AuditEntry,
    Hand,
    LedgerLine,
    NewEvent,
    Seal,
    Session,
    SettingsVersion,
    StoredEvent,
    Table,
    User,
)
from dealer_assist.services.ports import PinHasher, Sealer, Store
from dealer_assist.services.reads import Reads, StationJournal
from dealer_assist.services.table_handlers import TableHandlers
from dealer_assist.services.user_handlers import UserHandlers
from dealer_assist.settings import (
    parse_table_settings,
)


def utcnow() -> datetime:
    return datetime.now(UTC)


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
            game = self.replay.game
            same = f"; the next hand keeps the same {game.key('button')}" if game.rotates else ""
            return Prompt(
                phase="misdeal", to_act=None, done=True,
                message=f"Misdeal ({misdeal.reason}): give back every chip put in this hand"
                + same,
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


class ServicesBase:
    """The state every part of :class:`~dealer_assist.services.app.Services` works on, and
    the helpers they share (append, audit, role checks, PIN checks)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], datetime] = utcnow,
        hasher: PinHasher | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        #: Signs checkpoints at each shift close (after verifying what came since the last
        #: one) and for each report; None: this store has no room key (the in-memory store).
        self.sealer: Sealer | None = None
        #: The floor board (docs/floor-board.md): the database's, set by the bootstrap.
        self.floor_board: FloorBoard | None = None
        #: The dealer box's records (downs, rules, rotation, tokes); None: none here.
        self.dealer_box: DealerRecords | None = None
        #: The dealer box's downs as last read from it (what a station goes on with while the
        #: server is away).
        self.known_downs: list[DownRecord] | None = None
        #: What the last shift close's checkpoint found and signed.
        self.last_seal: Seal | None = None
        self._live: dict[int, HandNow] = {}
        #: What the app last drew at each hand (services.draws), until it is recorded.
        self._draws: dict[int, Any] = {}
        #: Role and active-name checks, and logged refusals, for every use case.
        self.authorizer = Authorizer(store, lambda: self.clock(), hasher=hasher)
        #: When each signed-in name was last seen active (the authorizer's record).
        self._seen_active = self.authorizer.seen_active
        #: The tables' use cases, over the tables' port, the audit log's and the authorizer
        #: (one store serves every port here; each handler is given only the ones it uses).
        self.table_handlers = TableHandlers(store, store, self.authorizer, lambda: self.clock())
        #: The users' use cases, over the users' port, the audit log's and the authorizer.
        self.user_handlers = UserHandlers(store, store, self.authorizer, lambda: self.clock())

    @property
    def hasher(self) -> PinHasher:
        """How PINs are hashed and checked (the authorizer's)."""
        return self.authorizer.hasher

    @property
    def reads(self) -> Reads:
        """The read-side port: what the screens, the commands and the reports read (they
        never reach the store itself; they change records only through the use cases)."""
        return self.store

    @property
    def journal(self) -> StationJournal | None:
        """The station's journal (a PostgreSQL server's station deals against it when the
        server does not answer), for the screen's line about it; None: no journal here."""
        store: Any = self.store
        return store if callable(getattr(store, "try_sync", None)) else None

    @property
    def database(self) -> Any:
        """The database the store is on (its description, its change feeds: the database
        layer's ``Database``), or None for a store without one (the in-memory store)."""
        return getattr(self.store, "db", None)

    def log(
        self, session: Session, action: str, detail: str = "", *,
        table_id: int | None = None, hand_id: int | None = None, signed: bool = False,
    ) -> AuditEntry:
        """Log a sensitive action done outside the services (a report generated, a verify run).
        ``signed``: a room record the database holds to this sign-in (a count, a drop, the
        room's clock: on PostgreSQL only the person signed in, with the role it needs, writes
        it in their name). A room record is written with its typed row (schema 0022)."""
        from dealer_assist.services.room_rows import KIND_OF, add_record

        if action in KIND_OF:
            return add_record(self.store, at=self.clock(), actor=session.name, action=action,
                              detail=detail, table_id=table_id,
                              token=session.token if signed else "")
        if signed:
            return self.store.add_audit(
                at=self.clock(), actor=session.name, action=action, detail=detail,
                table_id=table_id, hand_id=hand_id, token=session.token)
        return self._audit(session.name, action, detail, table_id=table_id, hand_id=hand_id)

    def audit_log(
        self, session: Session, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None,
    ) -> list[AuditEntry]:
        self._require(session, "audit", "read the audit log")
        return self.store.audit_log(since=since, until=until, action=action)

    # --- internals ---------------------------------------------------------------------------
    def _append(
        self, now: HandNow, event: Event, actor: str, body: dict[str, Any] | None = None,
        *, approval_id: int | None = None, over_mark: str | None = None,
    ) -> StoredEvent:
        """Append ``event`` to the hand (``body``: its body, checked already by :func:`_body`
        with the hand's game; ``approval_id``: the floor's approval entry it carries;
        ``over_mark``: when it ends the hand, what it carries, from
        :func:`~dealer_assist.services.overmark.over_mark`)."""
        if body is None:
            body = _body(event, now.replay.game)
        try:
            return self.store.append_event(
                now.hand.id, expected=len(now.replay.steps),
                event=NewEvent(body=body, actor=actor, time=self.clock(),
                               approval_id=approval_id, over_mark=over_mark),
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
        self.authorizer.require(session, permission, what)

    def _refuse(self, session: Session, what: str, message: str) -> NoReturn:
        self.authorizer.refuse(session, what, message)

    def require_active(self, session: Session, what: str) -> None:
        """Refuse (and log) a name disabled since it signed in: the check every use case makes,
        for the room's handlers outside the services (the floor board, the dealer box)."""
        self._require_active(session, what)

    def _require_active(self, session: Session, what: str) -> None:
        self.authorizer.require_active(session, what)

    def _secret(self, name: str) -> Any:
        secret = self.store.user_secret(name)
        if secret is None:
            raise NotFound(f'there is no user "{name}"')
        return secret

    def _check_pin(
        self, name: str, pin: str, *, action: str, subject: ApprovalSubject | None = None,
    ) -> tuple[User, str]:
        """The authorizer's PIN check (:meth:`Authorizer.check_pin`): the user and the store's
        token for the right PIN."""
        return self.authorizer.check_pin(name, pin, action=action, subject=subject)


def _fee_text(settings: SettingsVersion) -> str:
    try:
        policy = parse_table_settings(settings.document).fee_policy
    except DealerAssistError:
        return "unreadable"
    return "none" if policy is None else policy.describe()


def _replay_rows(rows: Sequence[StoredEvent]) -> HandReplay:
    return replay(stored_events(rows))


def stored_events(rows: Sequence[StoredEvent]) -> list[Event]:
    """A hand's events from its stored rows, each read by the start's game's reader;
    :class:`HandLogError` names the first row that cannot be read (its number in the hand)."""
    out: list[Event] = []
    game: Game[Any] | None = None
    for r in rows:
        try:
            if r.fault:
                raise BadInput(r.fault)
            if not out:
                first = event_from_json(r.body)
                game = start_game(first)
                out.append(first)
            else:
                out.append(read_event(r.body, game))
        except BadInput as exc:
            raise HandLogError(r.number, f"stored {r.where()} cannot be read: {exc}") from exc
    return out


def _body(event: Event, game: Game[Any] | None = None) -> dict[str, Any]:
    """The body to write for ``event`` (of ``game``'s hand; None: a start or a table-level
    event): held to the bounds and read back by the game's reader first
    (:func:`dealer_assist.engine.bodies.check_written`), so nothing unreadable is stored."""
    body: dict[str, Any] = json.loads(check_written(event.to_json(), game))
    return body


def _aware(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


def _a(role: str) -> str:
    return a_role(role)
