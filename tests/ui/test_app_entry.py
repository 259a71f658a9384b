"""``dealer-assist`` with no command opens the app on ``--db``: the first run asks for the admin;
then sign-in opens the window for the role."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli import main
from dealer_assist.cli.app import NoScreen, check_screen
from dealer_assist.services import Argon2PinHasher
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QApplication, QPushButton, Qt, QTimer
from tests.ui.conftest import click_ok, furnish


def _when_modal(fill: Any) -> None:
    def poll() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(10, poll)
        else:
            fill(dlg)

    QTimer.singleShot(0, poll)


def test_first_run_asks_for_the_admin_and_creates_it(qtbot: Any, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    seen: list[str] = []

    def admin(dlg: Any) -> None:
        seen.append(type(dlg).__name__)
        qtbot.keyClicks(dlg.name, "ada")
        qtbot.keyClicks(dlg.full, "Ada Lovelace")
        qtbot.keyClicks(dlg.pin, "9999")
        qtbot.keyClicks(dlg.pin2, "9999")
        _when_modal(sign_in_dialog)
        click_ok(qtbot, dlg)

    def sign_in_dialog(dlg: Any) -> None:
        seen.append(type(dlg).__name__)
        _when_modal(confirm)
        qtbot.keyClick(dlg, Qt.Key.Key_Escape)

    def confirm(box: Any) -> None:  # quitting at the sign-in asks first
        seen.append(type(box).__name__)
        box.findChild(QPushButton, "confirm-quit").click()

    _when_modal(admin)
    assert main(["--db", url]) == 0
    assert seen == ["FirstAdminDialog", "SignInDialog", "QMessageBox"]
    from dealer_assist.db.bootstrap import open_services

    svc = open_services(url)
    assert not svc.needs_first_admin()
    assert svc.sign_in("ada", "9999").role == "admin"


def test_sign_in_opens_the_window_for_the_role(qtbot: Any, tmp_path: Path) -> None:
    from dealer_assist.db.bootstrap import open_services

    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    furnish(open_services(url, hasher=Argon2PinHasher(fast=True)))
    tabs: list[str] = []

    def sign_in_dialog(dlg: Any) -> None:
        qtbot.keyClicks(dlg.name, "fran")
        qtbot.keyClicks(dlg.pin, "2222")
        QTimer.singleShot(50, close_window)
        click_ok(qtbot, dlg)

    def close_window() -> None:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow) and w.isVisible():
                tabs.extend(w.tabs.tabText(i) for i in range(w.tabs.count()))
                w.close()
                return
        QTimer.singleShot(20, close_window)

    _when_modal(sign_in_dialog)
    assert main(["--db", url, "app", "--theme", "light"]) == 0
    assert tabs == ["Table  (Ctrl+1)", "Floor  (Ctrl+2)", "Room, live  (Ctrl+3)"]


def test_regression_no_screen_is_a_clear_message_not_a_qt_abort() -> None:
    with pytest.raises(NoScreen, match="there is no screen to open the window on"):
        check_screen({}, "linux")
    check_screen({"DISPLAY": ":0"}, "linux")
    check_screen({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    check_screen({}, "win32")
