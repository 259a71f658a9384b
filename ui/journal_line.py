"""The station's one line about the server: offline (dealing goes on against the journal, N
inputs kept), sending them, or a table stopped for the floor. Hidden while all is well.

A timer reads the journal's status (a count in a local file) every second and, when inputs
wait and the server may be back, sends them from a thread of their own, so the dealer's screen
never waits on the network for it (``dealer_assist.db.journal``).
"""

from __future__ import annotations

import threading

from dealer_assist.services.reads import StationJournal
from dealer_assist.ui.qt import QLabel, QTimer, QWidget

#: How often the line looks at the journal (ms).
EVERY_MS = 1000


class JournalLine(QLabel):
    """Shown only for a station with a journal (a PostgreSQL server) and something to say."""

    def __init__(self, journal: StationJournal | None, parent: QWidget | None = None) -> None:
        """``journal``: the services' (:attr:`Services.journal`); None: a station without one."""
        super().__init__(parent)
        self.setObjectName("journal-line")
        self.setWordWrap(True)
        self.hide()
        self.journal = journal
        self._sending: threading.Thread | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(EVERY_MS)
        self.timer.timeout.connect(self.look)
        if self.journal is not None:
            self.timer.start()

    def look(self) -> None:
        if self.journal is None or self.journal.closed:
            self.timer.stop()  # the station's store was closed: nothing more to look at
            return
        window = self.window()
        if window is not self and not window.isVisible():  # the dealer's window is closed
            return
        status = self.journal.status()
        if status.pending and not status.offline and (
                self._sending is None or not self._sending.is_alive()):
            self._sending = threading.Thread(target=self.journal.try_sync, name="journal-sync",
                                             daemon=True)
            self._sending.start()
        text = status.line()
        self.setText(text)
        self.setProperty("stopped", bool(status.stopped))
        self.setVisible(bool(text))
