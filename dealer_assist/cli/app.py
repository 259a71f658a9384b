"""``dealer-assist`` with no command (or ``dealer-assist app``): open the dealer's screen."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("app", help="open the dealer's table screen and the floor console")
    p.add_argument("--theme", choices=("dark", "light"), default="dark",
                   help="start in the dark (default) or light theme; F9 switches")
    p.set_defaults(func=run_app)


def run_app(args: argparse.Namespace) -> int:
    """Open the database given by ``--db`` (or the default) and run the app on it."""
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.ui.main_window import open_app

    services = open_services(getattr(args, "db", None))
    db = getattr(services.store, "db", None)
    where = db.describe() if db is not None else ""

    return int(open_app(services, theme=getattr(args, "theme", "dark"), where=where))
