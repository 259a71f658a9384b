"""The Board menu: the players' board (any station, read-only) and, for the floor and admins,
the floor's board console. Each opens a window of its own beside the main one."""

from __future__ import annotations

from dealer_assist.services import Services, Session
from dealer_assist.services.floorboard.records import FLOOR_ROLES
from dealer_assist.ui.board_window import BoardWindow, board_feed_for
from dealer_assist.ui.floor_board_window import FloorBoardConsole
from dealer_assist.ui.qt import QAction, QMainWindow, QWidget


def install_board_menu(window: QMainWindow, services: Services, session: Session) -> None:
    board = services.floor_board
    if board is None:
        return
    menu = window.menuBar().addMenu("&Board")
    opened: list[QWidget] = []  # the windows stay open while the main window is

    def players() -> None:
        w = BoardWindow(board, room=services.cardroom_name(),
                        feed_factory=board_feed_for(services))
        opened.append(w)
        w.showFullScreen()

    show = QAction("&Players' board (full screen; Alt+F4 closes it)", window)
    show.setObjectName("players-board-action")
    show.triggered.connect(players)
    menu.addAction(show)
    if session.role in FLOOR_ROLES:
        def console() -> None:
            w = FloorBoardConsole(board, session)
            opened.append(w)
            w.showMaximized()  # the screen's room, frame included (a fixed size overran it)

        floor = QAction("&Floor board… (tables, lists, seats)", window)
        floor.setObjectName("floor-board-action")
        floor.triggered.connect(console)
        menu.addAction(floor)
