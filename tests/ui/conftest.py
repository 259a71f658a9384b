"""Fixtures for the screens: a cardroom with a dealer, a floor person and two tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services, Session

CC_TABLE: dict[str, Any] = {
    "name": "CC-1", "game": "champs-and-cowards", "seats": 8, "smallest_chip": 100,
    "params": {"chip": 200, "decks": 1},
}
CARO_TABLE: dict[str, Any] = {
    "name": "Caro-1", "game": "caro-holdem", "seats": 3, "smallest_chip": 100,
    "buy_in": 100000, "params": {"unit": 1000, "ante": 100, "cap": 4},
}


def furnish(svc: Services) -> None:
    """Admin, dealer dana (PIN 1111), floor fran (2222), tables CC-1 and Caro-1."""
    admin = svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    session = Session(user=admin, signed_in_at=svc.clock())
    svc.add_user(session, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
    svc.add_user(session, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_table(session, CC_TABLE)
    svc.add_table(session, CARO_TABLE)


@pytest.fixture
def memory_services() -> Services:
    """The services over the in-memory store."""
    svc = Services(InMemoryStore("Test Room"), hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    return svc


@pytest.fixture
def sqlite_services(tmp_path: Path) -> Iterator[Services]:
    """The services over the real SQLite store, in a file of the test's own."""
    from dealer_assist.db.bootstrap import open_services

    svc = open_services(f"sqlite:///{tmp_path / 'room.sqlite3'}",
                        hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    yield svc
    close = getattr(svc.store, "close", None)
    if callable(close):
        close()


@pytest.fixture(autouse=True)
def _theme(qapp: Any) -> None:
    from dealer_assist.ui.theme import DARK, apply_theme

    apply_theme(qapp, DARK)


def answer_next_dialog(qtbot: Any, fill: Any) -> list[str]:
    """Arrange for ``fill(dialog)`` to run on the next modal dialog, which it must accept
    or reject (by clicking). Returns a list that receives the dialog's class name."""
    from dealer_assist.ui.qt import QApplication, QTimer

    seen: list[str] = []

    def poll() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(10, poll)
            return
        seen.append(type(dlg).__name__)
        token = f"answered-{len(seen)}-{id(seen)}"
        dlg.setProperty("answered", token)
        fill(dlg)
        # a dialog that refuses what it was given stays open and the test would wait forever
        # on it: close it after a while, so the test fails on what it finds instead of hanging
        QTimer.singleShot(STUCK_MS, lambda: _close_if_still(token, seen))

    QTimer.singleShot(0, poll)
    return seen


#: How long an answered dialog may stay open before the test closes it (and says so).
STUCK_MS = 20_000


def _close_if_still(token: str, seen: list[str]) -> None:
    from dealer_assist.ui.qt import QApplication

    now = QApplication.activeModalWidget()
    if now is not None and now.property("answered") == token:
        seen.append(f"{type(now).__name__} stayed open after it was answered")
        now.reject()


def click_ok(qtbot: Any, dlg: Any) -> None:
    from dealer_assist.ui.qt import QDialogButtonBox, Qt

    button = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
