"""The room, live: every open table on one screen, updated as the stations record.

A thread waits on the database's change feed (PostgreSQL NOTIFY, polling on SQLite; see
``dealer_assist.db.notify``) and hands the ids of the tables that changed to the screen, which
rebuilds those rows from the store (``dealer_assist.services.live.LiveView``). Enter or a
double click opens the table's current hand in the floor console, read-only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
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

COLUMNS = ("Table", "Game", "Dealer", "Hand", "Status", "In play", "Last input", "At (UTC)",
           "Waiting on the floor")
#: How long the feed thread waits for a change before it looks whether it should stop.
WAIT_S = 0.5


class _Bridge(QObject):
    """Carries the feed thread's news to the screen's thread (a queued signal)."""

    changed = Signal(object)


def feed_for(services: Services) -> ChangeFeed | None:
    """The change feed of the services' database (None for a store without one)."""
    db = getattr(services.store, "db", None)
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
        hint = QLabel("Enter or double click: the table's current hand in the floor console, "
                      "read-only")
        hint.setObjectName("Muted")
        root.addWidget(hint)
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
        finally:
            feed.close()

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
        if changed is None:
            self._rows = {}
        for row in rows:
            self._rows[row.table_id] = row
        self.updates += 1
        self._draw()

    def rows_shown(self) -> list[LiveTable]:
        return [r for _i, r in sorted(self._rows.items())
                if r.open or self.show_all.isChecked()]

    def _draw(self) -> None:
        selected = self.selected_table()
        shown = self.rows_shown()
        self.table.setRowCount(len(shown))
        for r, row in enumerate(shown):
            values = (
                row.name, row.game, row.dealer,
                str(row.hand_number) if row.hand_number is not None else "",
                row.status, row.in_play_text, row.last_input,
                row.last_at.astimezone(UTC).strftime("%H:%M:%S") if row.last_at else "",
                row.floor,
            )
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, row.table_id)
                if col in (5, 6, len(values) - 1) and text:
                    item.setToolTip(text)
                self.table.setItem(r, col, item)
            if row.table_id == selected:
                self.table.selectRow(r)
        waiting = sum(1 for row in shown if row.floor)
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
