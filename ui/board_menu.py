"""The Board menu: the players' board (any station, read-only) and, for the floor and admins,
the floor's board console. Each opens a window of its own beside the main one, and closes with
it: a sign-out leaves no console working in the name of the person who signed out, and the
sign-in comes back (a board that must stay up across sign-ins is ``dealer-assist board``)."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services, Session
from dealer_assist.services.floorboard.records import FLOOR_ROLES
from dealer_assist.ui.board_window import BoardWindow, board_feed_for
from dealer_assist.ui.floor_board_window import FloorBoardConsole
from dealer_assist.ui.qt import QAction, QEvent, QMainWindow, QObject, Qt, QWidget


class _ClosesWith(QObject):
    """Closes the windows opened from the menu when the main window closes (signing out or
    quitting hides it; a minimised window is not closed)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.opened: list[QWidget] = []
        window.installEventFilter(self)

    def add(self, w: QWidget) -> None:
        """A window opened from the menu: gone when closed (its timers and feed stop)."""
        w.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.opened.append(w)
        w.destroyed.connect(lambda *_: self.opened.remove(w) if w in self.opened else None)

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Hide and not event.spontaneous():
            opened, self.opened = self.opened, []
            for w in opened:
                w.close()
        return False


def install_board_menu(window: QMainWindow, services: Services, session: Session) -> None:
    board = services.floor_board
    if board is None:
        return
    menu = window.menuBar().addMenu("&Board")
    closes = _ClosesWith(window)  # the windows stay open while the main window is

    def players() -> None:
        w = BoardWindow(board, room=services.cardroom_name(),
                        feed_factory=board_feed_for(services))
        closes.add(w)
        w.showFullScreen()

    show = QAction("&Players' board (full screen; Alt+F4 closes it)", window)
    show.setObjectName("players-board-action")
    show.triggered.connect(players)
    menu.addAction(show)
    if session.role in FLOOR_ROLES:
        def console() -> None:
            w = FloorBoardConsole(board, session)
            closes.add(w)
            w.showMaximized()  # the screen's room, frame included (a fixed size overran it)

        floor = QAction("&Floor board… (tables, lists, seats)", window)
        floor.setObjectName("floor-board-action")
        floor.triggered.connect(console)
        menu.addAction(floor)
