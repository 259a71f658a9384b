"""``dealer-assist`` with no command (or ``dealer-assist app``): open the dealer's screen."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from dealer_assist.errors import DealerAssistError


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
    p.add_argument("--theme", choices=("dark", "light"), default="dark",
                   help="start in the dark (default) or light theme; F9 switches")
    p.set_defaults(func=run_app)


def run_app(args: argparse.Namespace) -> int:
    """Open the database given by ``--db`` (or the default) and run the app on it."""
    check_screen()
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.ui.main_window import open_app

    services = open_services(getattr(args, "db", None))
    db = getattr(services.store, "db", None)
    where = db.describe() if db is not None else ""

    return int(open_app(services, theme=getattr(args, "theme", "dark"), where=where))
