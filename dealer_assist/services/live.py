"""The floor's live view of the room: one row per table, as the stations record.

A read model (reads apart from the use cases): each row is built from the store alone, never
from a station's cache, so the floor sees what every station has committed. What tells the view
that a table changed is a :class:`ChangeFeed` (PostgreSQL's NOTIFY, or polling on SQLite:
``dealer_assist.db.notify``); the view then rebuilds only those tables' rows, folding a hand
again only when it has new events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from dealer_assist.engine.base import called_off
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.engine.log import hand_events
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event, Void
from dealer_assist.money import format_cents
from dealer_assist.services.model import AuditEntry

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


class LiveView:
    """Builds the rows of the floor's live view from the store (see the module's docstring)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.store = services.store
        #: hand id -> (event count, the fold of its events and the last event's row data)
        self._folds: dict[int, tuple[int, HandReplay, str, str, datetime]] = {}

    def all(self) -> list[LiveTable]:
        return self.rows(t.id for t in self.store.list_tables())

    def rows(self, table_ids: Iterable[int]) -> list[LiveTable]:
        stopped = self._stopped_tables()
        return [self.row(i, stopped=stopped) for i in sorted(set(table_ids))]

    def row(self, table_id: int, *, stopped: dict[int, str] | None = None) -> LiveTable:
        table = self.store.get_table(table_id)
        if table is None:
            return LiveTable(table_id=table_id, name=f"table {table_id}", floor="removed")
        shift = self.store.current_shift(table_id)
        dealer = shift.dealer if shift is not None else ""
        stopped_now = (stopped if stopped is not None else self._stopped_tables())
        stopped_text = stopped_now.get(table_id, "")
        hand = self.store.last_hand(table_id)
        if hand is None:
            latest = self.store.latest_settings(table_id)
            return LiveTable(table_id=table_id, name=table.name, dealer=dealer,
                             game=latest.game if latest else "", floor=stopped_text)
        try:
            _count, rep, last_input, actor, at = self._fold(hand.id, hand.events)
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
        voids = [s.event for s in rep.steps if isinstance(s.event, Void)]
        if voids:
            waiting.append(f"void of event {voids[-1].target}: {voids[-1].reason}")
        return LiveTable(
            table_id=table_id, name=table.name, game=hand.game, dealer=dealer, hand_id=hand.id,
            hand_number=hand.number, status=status, in_play=in_play, in_play_text=pots,
            last_input=last_input, last_actor=actor, last_at=at, floor="; ".join(waiting),
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

    def _fold(self, hand_id: int, count: int) -> tuple[int, HandReplay, str, str, datetime]:
        cached = self._folds.get(hand_id)
        if cached is not None and cached[0] == count:
            return cached
        rows = self.store.hand_events(hand_id)
        events = hand_events(r.body for r in rows)
        rep = replay(events)
        last = rows[-1]
        folded = (len(rows), rep, _last_input(events[-1]), last.actor, last.time)
        if len(self._folds) > 512:
            self._folds.clear()
        self._folds[hand_id] = folded
        return folded
