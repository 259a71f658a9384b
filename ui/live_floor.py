"""The room, live: every open table on one screen, updated as the stations record.

A thread waits on the database's change feed (PostgreSQL NOTIFY, polling on SQLite; see
``dealer_assist.db.notify``) and hands the ids of the tables that changed to the screen, which
rebuilds those rows from the store (``dealer_assist.services.live.LiveView``). Enter or a
double click opens the table's current hand in the floor console, read-only.

A notification whose payload is not a table's id (any database role may send one) is ignored
and counted. Should the thread that follows the feed stop on an error, the screen says so at
once (the rows may be stale) and the thread starts again a moment later, rebuilding every row.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services import Services
from dealer_assist.services.live import ChangeFeed, LiveTable, LiveView
from dealer_assist.ui.qt import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QObject,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)

HINT = "Enter or double click: the table's current hand in the floor console, read-only"
COLUMNS = ("Table", "Game", "Dealer", "Hand", "Status", "In play", "Last input", "At (UTC)",
           "Waiting on the floor")
#: How long the feed thread waits for a change before it looks whether it should stop.
WAIT_S = 0.5
#: How long after the feed thread stopped on an error it is started again.
RESTART_MS = 1000


class _Bridge(QObject):
    """Carries the feed thread's news to the screen's thread (a queued signal)."""

    changed = Signal(object)
    stopped = Signal(str)


def feed_for(services: Services) -> ChangeFeed | None:
    """The change feed of the services' database (None for a store without one)."""
    db = services.database
    if db is None:
        return None
    from dealer_assist.db.notify import open_feed

    return open_feed(db)


class LiveFloor(QWidget):
    """One row per open table; see the module's docstring. ``open_hand`` carries a hand id."""

    open_hand = Signal(int)

    def __init__(
        self, services: Services, *,
        feed_factory: Callable[[], ChangeFeed | None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("live-floor")
        self.view = LiveView(services)
        self._services = services
        self._feed_factory = feed_factory
        self._rows: dict[int, LiveTable] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bridge = _Bridge()
        self._bridge.changed.connect(self._changed)
        self._bridge.stopped.connect(self._feed_stopped)
        self._feed: ChangeFeed | None = None
        #: Times the feed thread stopped on an error (each time it was started again).
        self.feed_stops = 0
        self._timer = QTimer(self)
        self._timer.setInterval(int(WAIT_S * 1000))
        self._timer.timeout.connect(self.reload)
        #: Rebuilds done (all rows or some), for the tests to wait on.
        self.updates = 0
        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        top = QHBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("Instruction")
        top.addWidget(self.title, 1)
        self.show_all = QCheckBox("tables without a shift too")
        self.show_all.setObjectName("live-show-all")
        self.show_all.toggled.connect(self._toggled)
        top.addWidget(self.show_all)
        root.addLayout(top)
        self.notice = QLabel("")
        self.notice.setObjectName("Refusal")
        self.notice.setWordWrap(True)
        self.notice.hide()
        root.addWidget(self.notice)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("live-tables")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the long texts share the width there is (cut with "…", whole in the tooltip), so the
        # floor's column is never pushed off a 1280-pixel screen
        for name in ("In play", "Last input", "Waiting on the floor"):
            header.setSectionResizeMode(COLUMNS.index(name), QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        # Enter or a double click (Qt's "activated")
        self.table.activated.connect(self._activated)
        root.addWidget(self.table, 1)
        self.hint = QLabel(HINT)
        self.hint.setObjectName("Muted")
        root.addWidget(self.hint)
        self.reload()

    # --- the feed thread ---------------------------------------------------------------------
    def start(self) -> None:
        """Start following the feed (the screen does it when it is shown)."""
        if self._thread is not None and self._thread.is_alive():
            return
        feed = self._feed_factory() if self._feed_factory else feed_for(self._services)
        if feed is None:  # a store without a feed (in memory): look at every table each time
            self._timer.start()
            return
        self._stop.clear()
        self._feed = feed
        self._thread = threading.Thread(
            target=self._follow, args=(feed,), name="live-floor", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._timer.stop()
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5 * WAIT_S + 5)

    def _follow(self, feed: ChangeFeed) -> None:
        try:
            while not self._stop.is_set():
                changed = feed.wait(WAIT_S)
                if self._stop.is_set():
                    break
                if changed is None or changed:
                    self._bridge.changed.emit(changed)
        except Exception as exc:  # the screen says so and starts the thread again
            if not self._stop.is_set():
                self._bridge.stopped.emit(f"{type(exc).__name__}: {exc}"[:200])
        finally:
            with suppress(Exception):
                feed.close()

    def _feed_stopped(self, why: str) -> None:
        self.feed_stops += 1
        at = datetime.now(UTC).strftime("%H:%M:%S")
        self.notice.setText(f"Live updates stopped at {at} UTC ({why}): starting them again; "
                            "until then the rows below may be out of date")
        self.notice.show()
        self._thread = None
        QTimer.singleShot(RESTART_MS, self._restart)

    def _restart(self) -> None:
        if self.isVisible() and self._thread is None and not self._stop.is_set():
            self.start()

    @property
    def ignored(self) -> int:
        """Notifications ignored because they named no table (see the module's docstring)."""
        return int(getattr(self._feed, "ignored", 0) or 0)

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self.reload()
        self.start()

    def hideEvent(self, event: object) -> None:
        self.stop()
        super().hideEvent(event)  # type: ignore[arg-type]

    # --- rows --------------------------------------------------------------------------------
    def reload(self) -> None:
        """Every table's row from the store."""
        self._changed(None)

    def _changed(self, changed: set[int] | None) -> None:
        try:
            rows = self.view.all() if changed is None else self.view.rows(changed)
        except DealerAssistError as exc:
            at = datetime.now(UTC).strftime("%H:%M:%S")
            self.notice.setText(f"{exc} — the rows below are as they were at {at} UTC")
            self.notice.show()
            return
        self.notice.hide()
        ignored = self.ignored
        self.hint.setText(HINT + (f" · {ignored} notification{'s' if ignored != 1 else ''} "
                                  "ignored (not a table's id)" if ignored else "")
                          + (f" · live updates started again {self.feed_stops} "
                             f"time{'s' if self.feed_stops != 1 else ''} after a stop"
                             if self.feed_stops else ""))
        if changed is None:
            self._rows = {}
        for row in rows:
            self._rows[row.table_id] = row
        self.updates += 1
        self._draw()

    def rows_shown(self) -> list[LiveTable]:
        return [r for _i, r in sorted(self._rows.items())
                if r.open or self.show_all.isChecked()]

    def _away(self) -> dict[int, str]:
        """Each table's players the floor marked away, from the floor board's records: "seat 3
        away until 17:05", or once the time ran out "seat 3 away: pick up the chips?"."""
        board = self._services.floor_board
        if board is None:
            return {}
        try:
            state = board.state()
        except DealerAssistError:
            return {}
        now = datetime.now(UTC)
        out: dict[int, str] = {}
        for table_id, seats in state.seats.items():
            texts = []
            for seat, p in sorted(seats.items()):
                if p.away_until is None:
                    continue
                until = p.away_until.astimezone(UTC)
                texts.append(f"seat {seat} away: pick up the chips?" if until <= now
                             else f"seat {seat} away until {until:%H:%M} UTC")
            if texts:
                out[table_id] = "; ".join(texts)
        return out

    def _draw(self) -> None:
        selected = self.selected_table()
        shown = self.rows_shown()
        away = self._away()
        self.table.setRowCount(len(shown))
        for r, row in enumerate(shown):
            values = (
                row.name, row.game, row.dealer,
                str(row.hand_number) if row.hand_number is not None else "",
                row.status, row.in_play_text, row.last_input,
                row.last_at.astimezone(UTC).strftime("%H:%M:%S") if row.last_at else "",
                "; ".join(x for x in (row.floor, away.get(row.table_id, "")) if x),
            )
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, row.table_id)
                if col in (5, 6, len(values) - 1) and text:
                    item.setToolTip(text)
                self.table.setItem(r, col, item)
            if row.table_id == selected:
                self.table.selectRow(r)
        waiting = sum(1 for row in shown if row.floor or row.table_id in away)
        self.title.setText(
            f"{len(shown)} open table{'s' if len(shown) != 1 else ''}"
            + (f" · {waiting} waiting on the floor" if waiting else "")
        )

    def selected_table(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def _toggled(self, _on: bool) -> None:
        self._draw()

    def _activated(self, index: Any) -> None:
        self._open_row(index.row())

    def _open_row(self, r: int) -> None:
        item = self.table.item(r, 0)
        if item is None:
            return
        row = self._rows.get(int(item.data(Qt.ItemDataRole.UserRole)))
        if row is not None and row.hand_id is not None:
            self.open_hand.emit(row.hand_id)
