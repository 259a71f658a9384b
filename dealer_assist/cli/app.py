"""``dealer-assist`` with no command (or ``dealer-assist app``): open the dealer's screen."""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Mapping
from typing import Any

from dealer_assist.errors import BadInput, DealerAssistError


class NoScreen(DealerAssistError):
    """The app was started where there is no screen to open its window on."""


def check_screen(env: Mapping[str, str] = os.environ, platform: str = sys.platform) -> None:
    """On Linux a window needs an X11 or Wayland display (or an explicit Qt platform)."""
    if not platform.startswith("linux"):
        return
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("QT_QPA_PLATFORM"):
        return
    raise NoScreen(
        "there is no screen to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is "
        "set): start Dealer Assist from the table station's desktop, or use the commands "
        "that need no screen (dealer-assist --help)"
    )


def add_parser(sub: Any) -> None:
    p = sub.add_parser("app", help="open the dealer's table screen and the floor console")
    p.add_argument("--theme", choices=("dark", "light"), default=None,
                   help="start in the dark or light theme (default: the station's; F9 switches)")
    p.set_defaults(func=run_app)


def _must_be_there(url: str | None) -> None:
    """A station set up before opens its SQLite file only if it is there: a deleted or moved
    file is said, never silently replaced by a new, empty database."""
    from pathlib import Path

    from dealer_assist.db.bootstrap import resolve_url, sqlite_file

    name = sqlite_file(resolve_url(url))
    if name is None or Path(name).exists():
        return
    raise BadInput(
        f"there is no database at {name}, the one this station was set up with: it was "
        "deleted or moved. Put it back (or restore the latest backup there) and start again; "
        "nothing was created. A new, empty database is made only by `dealer-assist db upgrade "
        "--db sqlite:///...` or by choosing another file here."
    )


def run_app(args: argparse.Namespace) -> int:
    """Open the database and run the app on it.

    The database is ``--db``, else ``DEALER_ASSIST_DB``, else the one this station was set up
    with, else this PC's own file. A station with no settings, started without either, first
    asks to be set up (ui/station.py).
    """
    check_screen()
    from dealer_assist.db.bootstrap import ENV_URL, default_url, open_services, station_journal
    from dealer_assist.services.model import DEFAULT_CARDROOM
    from dealer_assist.ui import station
    from dealer_assist.ui.main_window import open_app
    from dealer_assist.ui.qt import application
    from dealer_assist.ui.startup import close_on_terminate, enable_notes, note

    if getattr(args, "debug", False):
        enable_notes()
    app = application()
    with close_on_terminate(app):
        given = getattr(args, "db", None) or os.environ.get(ENV_URL)
        settings = station.load()
        #: Only a station's first run (or a database named with --db) makes a new database: a
        #: station set up before never replaces its missing file with an empty one.
        may_create = settings is None or bool(given)
        if settings is None and not given:
            from dealer_assist.ui.theme import apply_theme, get_theme

            apply_theme(app, get_theme(getattr(args, "theme", None) or "dark"))
            try:
                default = default_url()
            except DealerAssistError:
                default = ""
            settings = station.first_run(default_db=default.removeprefix("sqlite:///"))
            if settings is None:
                return 0
        settings = settings or station.StationSettings()
        station.use(settings)
        while True:
            try:
                chosen = given or settings.database or None
                if not may_create:
                    _must_be_there(chosen)
                services = open_services(chosen, journal=station_journal(chosen),
                                         key=getattr(args, "key", None))
                break
            except DealerAssistError as exc:
                # The station's own database is unreachable or wrong: let it be corrected
                # here rather than leave a station that cannot start without a terminal.
                fixed = None if given else station.correct(settings, str(exc))
                if fixed is None:
                    raise
                # another database chosen here, on purpose: it may be a new one
                may_create = may_create or fixed.database != settings.database
                settings = fixed
                station.use(settings)
        note("database open")
        if settings.cardroom:
            services.name_new_cardroom(settings.cardroom, unnamed=DEFAULT_CARDROOM,
                                       station=platform.node() or "this station")
        db = services.database
        where = db.describe() if db is not None else ""
        theme = getattr(args, "theme", None) or settings.theme
        return int(open_app(services, theme=theme, where=where))
