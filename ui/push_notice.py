"""The station's push notice: "Push due in 3 min", "Push after this hand" while a hand is in
play, and between hands when due "Push: dana to CC-2 (eve deals here)".

Read from the dealer box's records (no more often than every 15 seconds while dealing, at
once when a hand ends or the table changes), so an input costs no extra read.
"""

from __future__ import annotations

import time
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services.dealer_handlers import station_notice
from dealer_assist.ui.qt import QEvent, QLabel, QObject, QTimer, QWidget

#: Seconds between two reads of the records while nothing at the table changed.
REREAD_S = 15.0


class PushNotice(QLabel):
    """The push notice of a dealer's screen (hidden without a dealer box, rules or a down)."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("push-notice")
        self.setStyleSheet("font-weight: bold;")
        self.c = controller
        self._seen: tuple[object, ...] = ()
        self._read_at = 0.0
        self._watched: QWidget | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(int(REREAD_S * 1000))
        self._timer.timeout.connect(lambda: self.refresh(force=True))
        self._timer.start()
        self.hide()

    def _watch_window(self) -> None:
        """Read again whenever the station's window comes back to the front (a dialog
        closed, the dealer stepped up to it), not only on the timer."""
        window = self.window()
        if window is not self and window is not self._watched:
            window.installEventFilter(self)
            self._watched = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowActivate and watched is self.window():
            self.refresh(force=True)
        return super().eventFilter(watched, event)

    def between_hands(self) -> bool:
        now = self.c.now
        return now is None or (now.over and self.c.settlement is not None)

    def refresh(self, *, force: bool = False) -> None:
        """Read the notice again when the table or the hand's end changed, when forced, or
        when the last read is older than :data:`REREAD_S`."""
        self._watch_window()
        svc = self.c.services
        table = self.c.table
        box = getattr(svc, "dealer_box", None)
        if box is None or table is None:
            self.setText("")
            self.hide()
            return
        seen = (table.id, self.between_hands(), self.c.now.hand.id if self.c.now else None)
        if not force and seen == self._seen and time.monotonic() - self._read_at < REREAD_S:
            return
        self._seen, self._read_at = seen, time.monotonic()
        try:
            names = {t.id: t.name for t in svc.list_tables()}
            session = getattr(self.c, "session", None)
            viewer = session.name if session is not None and session.role == "dealer" else None
            text = station_notice(box, table.id, names, now=svc.clock(),
                                  between_hands=self.between_hands(), viewer=viewer)
        except DealerAssistError as exc:
            text = f"Push times not read: {exc}"
        self.setText(text)
        self.setVisible(bool(text))
