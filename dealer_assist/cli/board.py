"""``dealer-assist board``: the players' board, full screen, on the station's database.

Read-only: it asks no PIN and writes nothing (docs/floor-board.md).
"""

from __future__ import annotations

import argparse
import os
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("board", help="open the players' board (full screen, read-only)")
    p.add_argument("--theme", choices=("dark", "light"), default=None,
                   help="dark or light (default: the station's)")
    p.add_argument("--windowed", action="store_true",
                   help="a window instead of the full screen (to try it out)")
    p.set_defaults(func=run_board)


def run_board(args: argparse.Namespace) -> int:
    from dealer_assist.cli.app import check_screen

    check_screen()
    from dealer_assist.db.bootstrap import ENV_URL, open_services
    from dealer_assist.ui import station
    from dealer_assist.ui.board_window import BoardWindow, board_feed_for
    from dealer_assist.ui.layout_check import watch
    from dealer_assist.ui.qt import application
    from dealer_assist.ui.theme import apply_theme, get_theme

    app = application()
    settings = station.load() or station.StationSettings()
    url = getattr(args, "db", None) or os.environ.get(ENV_URL) or settings.database or None
    services = open_services(url, create=False)
    apply_theme(app, get_theme(getattr(args, "theme", None) or settings.theme or "dark"))
    board = services.floor_board
    assert board is not None  # the database's services always have one
    window = BoardWindow(board, room=services.cardroom_name(),
                         feed_factory=board_feed_for(services))
    # the real-window tests read what the board shows (ui/layout_check.py)
    check_log = os.environ.get("DEALER_ASSIST_LAYOUT_LOG")
    _watcher = watch(check_log) if check_log else None  # checks while the board runs
    if args.windowed:  # 1280x800, or the whole room of a screen that small (frame included)
        window.resize(1280, 800)
        screen = window.screen()
        room = screen.availableGeometry() if screen is not None else None
        if room is not None and (room.width() <= 1280 or room.height() <= 820):
            window.showMaximized()
        else:
            window.show()
    else:
        window.showFullScreen()
    try:
        return int(app.exec())
    finally:
        window.stop()
