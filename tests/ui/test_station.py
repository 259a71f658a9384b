"""A station's settings (QSettings, in a test file of their own) and the first-run dialog.

Pins: a station with no settings started without a database asks to be set up, with the cursor
in the first field, Enter moving field to field and Escape never quitting; what it saved is used
on the next start; ``--db`` and ``DEALER_ASSIST_DB`` still win; a never-named database takes the
station's cardroom name (logged) but a named one keeps its own; the About box (F1) names the
version and commit; the print dialog starts on the station's printer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli import main
from dealer_assist.services import Argon2PinHasher
from dealer_assist.ui import station
from dealer_assist.ui.qt import QApplication, Qt, QTimer
from dealer_assist.version import version_line
from tests.ui.conftest import furnish


@pytest.fixture(autouse=True)
def own_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "station.ini"
    monkeypatch.setenv(station.ENV_SETTINGS, str(path))
    monkeypatch.delenv("DEALER_ASSIST_DB", raising=False)
    station._CURRENT.clear()
    return path


def _when_modal(fill: Any) -> None:
    def poll() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(10, poll)
        else:
            fill(dlg)

    QTimer.singleShot(0, poll)


def test_first_run_asks_for_the_station_then_uses_what_it_saved(qtbot: Any,
                                                                 tmp_path: Path) -> None:
    db = tmp_path / "station-db.sqlite3"
    seen: list[str] = []

    def setup(dlg: Any) -> None:
        seen.append(type(dlg).__name__)
        assert isinstance(dlg, station.StationDialog)
        assert dlg.focusWidget() is dlg.cardroom  # the cursor starts in the first field
        qtbot.keyClicks(dlg.cardroom, "Riverside")
        qtbot.keyClick(dlg.cardroom, Qt.Key.Key_Return)
        assert dlg.focusWidget() is dlg.database  # Enter moves on, it does not submit
        qtbot.keyClick(dlg.database, Qt.Key.Key_Escape)
        assert dlg.isVisible()  # Escape never quits the app from here
        qtbot.keyClicks(dlg.database, str(db))
        qtbot.keyClick(dlg.database, Qt.Key.Key_Return)
        assert dlg.focusWidget() is dlg.theme
        dlg.theme.setCurrentText("light")
        _when_modal(admin)
        qtbot.mouseClick(dlg.ok, Qt.MouseButton.LeftButton)

    def admin(dlg: Any) -> None:
        seen.append(type(dlg).__name__)
        dlg.reject()

    _when_modal(setup)
    monkeypatch_env = pytest.MonkeyPatch()
    monkeypatch_env.delenv("DEALER_ASSIST_NO_USER_DB", raising=False)
    try:
        assert main([]) == 0
    finally:
        monkeypatch_env.undo()
    assert seen == ["StationDialog", "FirstAdminDialog"]
    assert station.load() == station.StationSettings(database=str(db), cardroom="Riverside",
                                                     theme="light", printer="")
    assert db.is_file()  # the app opened the database the station was set up with


def test_db_option_wins_over_the_station_database_and_names_a_new_room(
    qtbot: Any, tmp_path: Path
) -> None:
    station.save(station.StationSettings(database=str(tmp_path / "elsewhere.sqlite3"),
                                         cardroom="Riverside", theme="dark"))
    url = f"sqlite:///{tmp_path / 'given.sqlite3'}"
    _when_modal(lambda dlg: dlg.reject())  # the first-admin dialog of the given database
    assert main(["--db", url]) == 0
    assert not (tmp_path / "elsewhere.sqlite3").exists()
    from dealer_assist.db.bootstrap import open_services

    svc = open_services(url)
    assert svc.cardroom_name() == "Riverside"
    named = svc.store.audit_log(action="cardroom-named")
    assert len(named) == 1 and "set up at station" in named[0].detail


def test_a_named_cardroom_keeps_its_name() -> None:
    from dealer_assist.services import InMemoryStore, Services

    svc = Services(InMemoryStore("Grand Room"), hasher=Argon2PinHasher(fast=True))
    assert not svc.name_new_cardroom("Riverside", unnamed="Cardroom", station="pc-1")
    assert svc.cardroom_name() == "Grand Room"


def test_no_first_run_dialog_when_the_database_is_given(qtbot: Any, tmp_path: Path) -> None:
    """A launcher that names the database has set the station up (and the screen tests rely
    on it: they pass --db and never see the station dialog)."""
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    furnish(__import__("dealer_assist.db.bootstrap", fromlist=["x"]).open_services(
        url, hasher=Argon2PinHasher(fast=True)))
    seen: list[str] = []

    def sign_in(dlg: Any) -> None:
        seen.append(type(dlg).__name__)
        dlg.reject()

    _when_modal(sign_in)
    assert main(["--db", url]) == 0
    assert seen == ["SignInDialog"]
    assert station.load() is None


def test_station_dialog_refuses_an_empty_cardroom_and_stays_small(qtbot: Any) -> None:
    dlg = station.StationDialog(default_db="/very/long/" + "folder/" * 60 + "db.sqlite3")
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.mouseClick(dlg.ok, Qt.MouseButton.LeftButton)
    assert dlg.isVisible() and "needs a name" in dlg.error.text()
    assert dlg.focusWidget() is dlg.cardroom
    assert dlg.sizeHint().width() <= 1280 and dlg.minimumSizeHint().width() <= 1280
    assert dlg.default_db.toolTip().endswith("db.sqlite3")  # the whole path, in the tooltip
    assert "…" in dlg.default_db.text()


def test_f1_shows_the_keys_of_the_screen_with_the_version_and_commit(
    qtbot: Any, sqlite_services: Any
) -> None:
    from dealer_assist.ui.main_window import MainWindow

    session = sqlite_services.sign_in("fran", "2222")
    win = MainWindow(sqlite_services, session, where="sqlite:///room")
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    from dealer_assist.ui.station import KeysDialog

    texts: list[str] = []
    sizes: list[tuple[int, int]] = []

    def read(box: Any) -> None:
        assert isinstance(box, KeysDialog)
        texts.append(box.text())
        sizes.append((box.width(), box.height()))
        box.accept()

    _when_modal(read)
    qtbot.keyClick(win, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: bool(texts))
    assert version_line() in texts[0]
    (help_menu,) = [a.menu() for a in win.menuBar().actions() if a.text() == "&Help"]
    names = [a.objectName() for a in help_menu.actions()]
    assert names == ["keys-action", "about-action"]  # no station settings: the admin's
    # F1: the keys of the screen in view (the Table tab), and those of everywhere
    assert "Keys of the Table screen" in texts[0] and "Shift+F5" in texts[0]
    assert "Everywhere" in texts[0] and "Ctrl+Q" in texts[0]
    # regression (issue 41): one column in a message box was 936 px tall
    assert sizes[0][0] <= 1280 and sizes[0][1] <= 600


def test_sign_in_is_logged_with_the_version(sqlite_services: Any) -> None:
    sqlite_services.sign_in("fran", "2222")
    entry = sqlite_services.store.audit_log(action="login")[-1]
    assert entry.detail == f"fran signed in as floor · {version_line()}"


def test_print_dialog_starts_on_the_station_printer(qtbot: Any, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.ui import printing

    station.use(station.StationSettings(cardroom="R", printer="cage-laser"))
    chosen: list[str] = []

    class Dialog:
        def __init__(self, printer: Any, parent: Any) -> None:
            chosen.append(printer.printerName())

        def setObjectName(self, _n: str) -> None: ...

        def setWindowTitle(self, _t: str) -> None: ...

        def exec(self) -> int:
            return 0

    monkeypatch.setattr(printing, "QPrintDialog", Dialog)
    assert printing.print_pdf(None, tmp_path / "r.pdf", title="Shift") is None
    assert chosen in (["cage-laser"], [""])  # Qt keeps the name only if such a printer exists


def test_f9_keeps_the_theme_for_the_next_start_unless_theme_is_given(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sqlite_services: Any
) -> None:
    """Regression: F9 switched the theme for this run only; the next start went back to the
    stored one. Now F9 stores it, the next start opens in it, and ``--theme`` still wins."""
    from dealer_assist.ui import main_window
    from dealer_assist.ui.theme import DARK, apply_theme, current_theme

    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    station.save(station.StationSettings(database=url, cardroom="Riverside", theme="dark"))
    apply_theme(QApplication.instance(), DARK)
    svc = sqlite_services
    win = main_window.MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    qtbot.keyClick(win, Qt.Key.Key_F9)
    assert current_theme().name == "light"
    kept = station.load()
    assert kept is not None and kept.theme == "light"
    assert kept.database == url and kept.cardroom == "Riverside"  # the rest untouched

    started: list[str] = []
    monkeypatch.setattr(main_window, "open_app",
                        lambda services, *, theme, where: started.append(theme) or 0)
    assert main(["app"]) == 0
    assert main(["app", "--theme", "dark"]) == 0
    assert started == ["light", "dark"]
    qtbot.keyClick(win, Qt.Key.Key_F9)
    assert station.load().theme == "dark"  # type: ignore[union-attr]


def test_f9_on_a_station_never_set_up_keeps_it_unset(qtbot: Any, sqlite_services: Any) -> None:
    """Storing the theme alone does not mark the station as set up: its first run still asks."""
    from dealer_assist.ui.main_window import MainWindow

    svc = sqlite_services
    win = MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    qtbot.keyClick(win, Qt.Key.Key_F9)
    assert station.load() is None


def test_regression_station_dialog_asks_for_the_databases_full_path(qtbot: Any) -> None:
    """A relative path would make a database in whatever folder the app was started from."""
    dlg = station.StationDialog(default_db="/data/dealer-assist.sqlite3")
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.keyClicks(dlg.cardroom, "Riverside")
    for relative in ("room.sqlite3", "sqlite:///room.sqlite3"):
        dlg.database.setText(relative)
        qtbot.mouseClick(dlg.ok, Qt.MouseButton.LeftButton)
        assert dlg.isVisible() and dlg.settings is None
        assert "full path" in dlg.error.text()
    dlg.database.setText(str(Path("/srv/room.sqlite3")))
    qtbot.mouseClick(dlg.ok, Qt.MouseButton.LeftButton)
    assert dlg.settings is not None and dlg.settings.database == "/srv/room.sqlite3"
