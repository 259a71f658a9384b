"""The floor's live view of the room: one row per table, as the stations record.

A read model (reads apart from the use cases): each row is built from the store alone, never
from a station's cache, so the floor sees what every station has committed. What tells the view
that a table changed is a :class:`ChangeFeed` (PostgreSQL's NOTIFY, or polling on SQLite:
``dealer_assist.db.notify``); the view then rebuilds only those tables' rows. A hand's fold is
kept between rebuilds and carried forward by the new events alone (one read of the rows after
the last one seen, the game's ``apply`` for each): a row costs the same at the hand's first
input as at its fortieth. Only a void or a misdeal, which change what came before, fold the
hand again from its start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from dealer_assist.engine.base import Game, called_off
from dealer_assist.engine.bodies import read_event
from dealer_assist.engine.hand import Refused, fold
from dealer_assist.engine.log import start_vocabulary
from dealer_assist.errors import DealerAssistError, HandLogError
from dealer_assist.events import Event, Misdeal, Start, Vocabulary, Void
from dealer_assist.money import format_cents
from dealer_assist.services.base import stored_events
from dealer_assist.services.model import AuditEntry, StoredEvent, TableNow

if TYPE_CHECKING:
    from dealer_assist.services.app import Services

#: The audit action a station writes when its journal could not be synced because another
#: station wrote the table meanwhile; the floor's live view shows the table stopped.
SYNC_CONFLICT = "sync-conflict"
#: The audit action the floor writes when it has dealt with such a table.
SYNC_RESOLVED = "sync-resolved"


class ChangeFeed(Protocol):
    """Tells which tables changed since the last call."""

    def wait(self, timeout: float) -> set[int] | None:
        """Block up to ``timeout`` seconds for a change; the ids of the tables that changed
        (empty: nothing did), or None when anything may have changed (the feed reconnected, or
        a change it cannot place): rebuild every row."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class LiveTable:
    """One open table as the floor sees it right now."""

    table_id: int
    name: str
    game: str = ""
    dealer: str = ""
    hand_id: int | None = None
    hand_number: int | None = None
    #: ``dealing``, ``finished`` (over, chips not yet recorded), ``settled``, ``misdeal``
    #: (called off, chips not yet returned), ``misdeal, returned``, or ``""``.
    status: str = ""
    #: Chips in the pots (cents); for a game settled player to player, 0.
    in_play: int = 0
    in_play_text: str = ""
    last_input: str = ""
    last_actor: str = ""
    last_at: datetime | None = None
    #: What waits on the floor at this table ("" for nothing): a misdeal, a dispute, a void,
    #: a table stopped because its station's journal conflicts with the server.
    floor: str = ""
    #: How many events of the hand the row was built from.
    events: int = 0

    @property
    def open(self) -> bool:
        return bool(self.dealer) or self.status in ("dealing", "finished")


def _last_input(event: Event) -> str:
    text = event.TYPE
    seat = getattr(event, "seat", None)
    if isinstance(seat, int):
        text += f" seat {seat}"
    card = getattr(event, "card", None)
    if card is not None:
        text += f" {card}"
    return text


@dataclass(slots=True)
class _Fold:
    """A hand as the live view last folded it: enough to build its row and to carry the fold
    forward by the events that follow."""

    count: int
    game: Game[Any]
    state: Any
    vocab: Vocabulary
    misdeal: Misdeal | None
    last_input: str
    actor: str
    at: datetime
    voids: list[Void] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.misdeal is not None or self.game.is_over(self.state)


class LiveView:
    """Builds the rows of the floor's live view from the store (see the module's docstring)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.store = services.store
        #: hand id -> its fold as of the events seen
        self._folds: dict[int, _Fold] = {}
        #: table id -> the hand its row last showed
        self._hands: dict[int, int] = {}

    def all(self) -> list[LiveTable]:
        with self.store.reading():
            return self.rows(t.id for t in self.store.list_tables())

    def rows(self, table_ids: Iterable[int]) -> list[LiveTable]:
        ids = sorted(set(table_ids))
        with self.store.reading():
            stopped = self._stopped_tables()
            held = {h: self._folds[h].count for h in (self._hands.get(i) for i in ids)
                    if h is not None and h in self._folds}
            nows = self.store.tables_now(ids, held)
            return [self._row(i, nows.get(i), stopped) for i in ids]

    def row(self, table_id: int) -> LiveTable:
        return self.rows((table_id,))[0]

    def _row(self, table_id: int, now: TableNow | None, stopped: dict[int, str]) -> LiveTable:
        if now is None:
            return LiveTable(table_id=table_id, name=f"table {table_id}", floor="removed")
        table, shift, hand = now.table, now.shift, now.hand
        dealer = shift.dealer if shift is not None else ""
        stopped_text = stopped.get(table_id, "")
        if hand is None:
            latest = self.store.latest_settings(table_id)
            return LiveTable(table_id=table_id, name=table.name, dealer=dealer,
                             game=latest.game if latest else "", floor=stopped_text)
        try:
            self._hands[table_id] = hand.id
            rep = self._fold(hand.id, hand.events, now.events)
            last_input, actor, at = rep.last_input, rep.actor, rep.at
        except DealerAssistError as exc:  # a hand the games cannot fold: verify names it
            return LiveTable(table_id=table_id, name=table.name, dealer=dealer, game=hand.game,
                             hand_id=hand.id, hand_number=hand.number,
                             floor=f"cannot replay: {exc}")
        view = rep.game.view(rep.state, reveal=False)
        if rep.misdeal is not None:
            view = called_off(view, rep.misdeal.reason)
        settled = hand.status == "settled"
        if settled:  # pushed (or, after a misdeal, returned): nothing is in play any more
            in_play, pots = 0, ""
        else:
            in_play = sum(amount for _name, amount in view.pots)
            pots = ", ".join(f"{name} {format_cents(amount)}" for name, amount in view.pots)
        if rep.misdeal is not None:  # the floor approved it when it was called: not waiting
            status = (f"misdeal, returned: {rep.misdeal.reason}" if settled
                      else f"misdeal: {rep.misdeal.reason}")
        else:
            status = "settled" if settled else ("finished" if rep.over else "dealing")
        waiting: list[str] = []
        if stopped_text:
            waiting.append(stopped_text)
        if hand.disputed:
            waiting.append("dispute")
        voids = rep.voids
        if voids:
            waiting.append(f"void of event {voids[-1].target}: {voids[-1].reason}")
        return LiveTable(
            table_id=table_id, name=table.name, game=hand.game, dealer=dealer, hand_id=hand.id,
            hand_number=hand.number, status=status, in_play=in_play, in_play_text=pots,
            last_input=last_input, last_actor=actor, last_at=at, floor="; ".join(waiting),
            events=rep.count,
        )

    def _stopped_tables(self) -> dict[int, str]:
        """Tables whose last sync conflict the floor has not resolved since (read once for a
        batch of rows: two filtered reads of the audit log)."""
        conflicts: dict[int, AuditEntry] = {}
        for e in self.store.audit_log(action=SYNC_CONFLICT):
            if e.table_id is not None:
                conflicts[e.table_id] = e
        if not conflicts:
            return {}
        since = min(e.at for e in conflicts.values())
        for e in self.store.audit_log(action=SYNC_RESOLVED, since=since):
            if e.table_id in conflicts and e.at >= conflicts[e.table_id].at:
                del conflicts[e.table_id]
        return {t: f"stopped: {e.detail}" for t, e in conflicts.items()}

    def _fold(self, hand_id: int, count: int, after: Sequence[StoredEvent]) -> _Fold:
        """The hand's fold with its ``count`` events: the one kept, carried forward by the
        events ``after`` it (read with the row) when they are plain inputs, else folded from
        the start."""
        cached = self._folds.get(hand_id)
        if cached is not None and cached.count >= count:
            return cached
        if cached is not None:
            ahead = self._forward(cached, after)
            if ahead is not None:
                self._folds[hand_id] = ahead
                return ahead
        whole = bool(after) and after[0].number == 1 and after[-1].number >= count
        rows = list(after) if whole else self.store.hand_events(hand_id)
        events = stored_events(rows)  # HandLogError names a row that cannot be read
        folded = fold(events)
        if isinstance(folded, Refused):
            raise HandLogError(folded.index + 1, folded.reason)
        assert isinstance(events[0], Start)
        voided = [e for e in events if isinstance(e, Void)]
        last = rows[-1]
        now = _Fold(count=len(rows), game=folded.game, state=folded.state,
                    vocab=start_vocabulary(events[0]), misdeal=folded.misdeal,
                    last_input=_last_input(events[-1]), actor=last.actor, at=last.time,
                    voids=voided)
        if len(self._folds) > 512:
            self._folds.clear()
        self._folds[hand_id] = now
        return now

    @staticmethod
    def _forward(old: _Fold, rows: Sequence[StoredEvent]) -> _Fold | None:
        """``old`` carried forward by ``rows`` (the events right after it), or None when one
        of them changes what came before (a void, a misdeal) or the rows do not follow on."""
        if not rows or rows[0].number != old.count + 1 or old.misdeal is not None:
            return None
        state = old.state
        ev: Event | None = None
        for r in rows:
            if r.fault:
                return None  # (folded from the start: stored_events names it)
            ev = read_event(r.body, old.game)
            if isinstance(ev, (Void, Misdeal, Start)):
                return None
            try:
                state = old.game.apply(state, ev)
            except DealerAssistError:
                raise
            except Exception:  # (the fold from the start names what its game fails on)
                return None
        assert ev is not None
        last = rows[-1]
        return _Fold(count=last.number, game=old.game, state=state, vocab=old.vocab,
                     misdeal=None, last_input=_last_input(ev), actor=last.actor, at=last.time,
                     voids=old.voids)
