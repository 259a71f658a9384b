"""A station's own settings, where the platform keeps them, and the first-run dialog that asks.

A table station is set up once: which database it works on (this PC's own SQLite file, a file
on a share, or the cardroom's PostgreSQL server), the cardroom's name, the theme and the printer
reports go to. Qt's QSettings keeps them where the platform keeps such things (the registry on
Windows, ``~/.config/Dealer Assist/station.conf`` on Linux). ``--db`` and ``DEALER_ASSIST_DB``
still win over the stored database, so a launcher or a support call can point a station
elsewhere without touching its settings. ``DEALER_ASSIST_SETTINGS`` names an INI file to use
instead (a kiosk image, and the tests, which must never read a developer's own settings).
"""

from __future__ import annotations

import os
import platform
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.services import PERMISSIONS, Services, Session
from dealer_assist.ui.qt import (
    QAction,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QKeyEvent,
    QKeySequence,
    QLabel,
    QLayout,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPrinterInfo,
    QPushButton,
    QSettings,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.version import version_line

ENV_SETTINGS = "DEALER_ASSIST_SETTINGS"
THEMES = ("dark", "light")
#: Shown in the printer list for "whatever the system's default printer is".
SYSTEM_PRINTER = "(the system's default printer)"


@dataclass(frozen=True, slots=True)
class StationSettings:
    """What one station was set up with. Empty strings mean "the default"."""

    database: str = ""
    cardroom: str = ""
    theme: str = "dark"
    printer: str = ""


def _qsettings() -> QSettings:
    path = os.environ.get(ENV_SETTINGS)
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, "Dealer Assist",
                     "station")


def where_kept() -> str:
    """Where this station's settings live (a file path, or the registry key on Windows)."""
    return str(_qsettings().fileName())


def load() -> StationSettings | None:
    """The stored settings, or None on a station that was never set up."""
    q = _qsettings()
    if not q.contains("station/set_up"):
        return None
    theme = str(q.value("station/theme", "dark"))
    return StationSettings(
        database=str(q.value("station/database", "") or ""),
        cardroom=str(q.value("station/cardroom", "") or ""),
        theme=theme if theme in THEMES else "dark",
        printer=str(q.value("station/printer", "") or ""),
    )


def save(settings: StationSettings) -> None:
    """Store ``settings``; refuses a bad theme, and says so if the platform store is read-only."""
    if settings.theme not in THEMES:
        raise BadInput(f'unknown theme "{settings.theme}": choose dark or light')
    q = _qsettings()
    q.setValue("station/set_up", True)
    q.setValue("station/database", settings.database)
    q.setValue("station/cardroom", settings.cardroom)
    q.setValue("station/theme", settings.theme)
    q.setValue("station/printer", settings.printer)
    q.sync()
    if q.status() != QSettings.Status.NoError:
        raise DealerAssistError(
            f"this station's settings could not be written to {q.fileName()}: check that the "
            "folder is writable (or set DEALER_ASSIST_SETTINGS to a writable file)"
        )


def remember_theme(theme: str) -> None:
    """Keep ``theme`` (switched with F9) for this station's next start; ``--theme`` still wins.
    Only the theme is written: a station never set up stays so (its first run still asks)."""
    if theme not in THEMES:
        raise BadInput(f'unknown theme "{theme}": choose dark or light')
    q = _qsettings()
    q.setValue("station/theme", theme)
    q.sync()
    if q.status() != QSettings.Status.NoError:
        raise DealerAssistError(
            f"the theme could not be kept in {q.fileName()}: it is used until the app closes "
            "(check that the folder is writable)"
        )
    if "now" in _CURRENT:
        _CURRENT["now"] = replace(_CURRENT["now"], theme=theme)


_CURRENT: dict[str, StationSettings] = {}


def use(settings: StationSettings) -> None:
    """The settings this run started with (the print dialog preselects their printer)."""
    _CURRENT["now"] = settings


def current() -> StationSettings:
    return _CURRENT.get("now") or load() or StationSettings()


def printers() -> list[str]:
    """The printers this station's system knows, by name."""
    return [str(n) for n in QPrinterInfo.availablePrinterNames()]


def elided(label: QLabel, text: str, width: int) -> None:
    """Show a long path in ``width`` pixels with "…" in the middle; the tooltip has all of it."""
    label.setText(label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, width))
    label.setToolTip(text)


class StationDialog(QDialog):
    """Set up this station: cardroom name, database, theme, printer.

    Enter moves to the next field (on the last it saves); Escape does nothing, because on the
    first run closing this dialog would close the app: only **Quit** does that, on purpose.
    """

    def __init__(self, settings: StationSettings | None = None, *, default_db: str = "",
                 first_run: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        s = settings or StationSettings()
        self.settings: StationSettings | None = None
        self.setObjectName("station-dialog")
        self.setWindowTitle("Set up this station" if first_run else "Station settings")
        lay = QVBoxLayout(self)
        heading = QLabel("Set up this station" if first_run else "Station settings")
        heading.setObjectName("Heading")
        lay.addWidget(heading)
        form = QFormLayout()
        form.setVerticalSpacing(12)
        self.cardroom = QLineEdit(s.cardroom)
        self.cardroom.setObjectName("station-cardroom")
        self.cardroom.setPlaceholderText("the name printed on every report")
        self.database = QLineEdit(s.database)
        self.database.setObjectName("station-database")
        self.database.setPlaceholderText("empty: this PC's own database file")
        self.default_db = QLabel("")
        self.default_db.setObjectName("Muted")
        if default_db:
            elided(self.default_db, f"Default: {default_db}", 420)
        self.theme = QComboBox()
        self.theme.setObjectName("station-theme")
        self.theme.addItems(list(THEMES))
        self.theme.setCurrentText(s.theme)
        self.printer = QComboBox()
        self.printer.setObjectName("station-printer")
        self.printer.addItem(SYSTEM_PRINTER)
        names = printers()
        if s.printer and s.printer not in names:
            names.insert(0, s.printer)
        self.printer.addItems(names)
        if s.printer:
            self.printer.setCurrentText(s.printer)
        form.addRow("Cardroom name", self.cardroom)
        form.addRow("Database", self.database)
        form.addRow("", self.default_db)
        form.addRow("Theme", self.theme)
        form.addRow("Printer for reports", self.printer)
        lay.addLayout(form)
        note = QLabel("A file path is a SQLite database; a postgresql://… address is the "
                      "cardroom's server. A new database's first run asks for the admin.")
        note.setWordWrap(True)
        note.setObjectName("Muted")
        lay.addWidget(note)
        self.error = QLabel("")
        self.error.setObjectName("Refusal")
        self.error.setWordWrap(True)
        self.error.hide()
        lay.addWidget(self.error)
        row = QHBoxLayout()
        self.quit = QPushButton("Quit" if first_run else "Cancel")
        self.quit.setObjectName("station-quit")
        self.quit.setAutoDefault(False)
        self.quit.clicked.connect(self.reject)
        self.ok = QPushButton("Save and start" if first_run else "Save")
        self.ok.setObjectName("station-save")
        self.ok.setProperty("role", "primary")
        self.ok.setAutoDefault(False)
        self.ok.clicked.connect(self.attempt)
        row.addStretch(1)
        row.addWidget(self.quit)
        row.addWidget(self.ok)
        lay.addLayout(row)
        self.fields: list[QWidget] = [self.cardroom, self.database, self.theme, self.printer]
        self.setMinimumWidth(600)
        self.setMaximumWidth(1200)
        #: Where the cursor starts: the first field, or the one a refusal is about.
        self.first_focus: QWidget = self.cardroom
        self.cardroom.setFocus()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.first_focus.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape:
            event.accept()  # never closes the app by accident: Quit is a button
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            focus = self.focusWidget()
            if focus is self.quit:
                self.reject()
            elif focus in self.fields[:-1]:
                self.fields[self.fields.index(focus) + 1].setFocus()
            else:
                self.attempt()
            event.accept()
            return
        super().keyPressEvent(event)

    def attempt(self) -> None:
        """Check and keep the values; the caller saves them."""
        name = self.cardroom.text().strip()
        if not name:
            self.show_error("the cardroom needs a name: it is printed on every report")
            self.cardroom.setFocus()
            return
        db = self.database.text().strip()
        if db and "://" not in db and not Path(db).expanduser().is_absolute():
            # a relative path would make a database wherever the app happened to be started
            self.show_error("give the database file's full path (e.g. "
                            f"{Path.home() / 'cardroom.sqlite3'}), or leave it empty for "
                            "this PC's own file")
            self.database.setFocus()
            return
        if db.startswith("sqlite:///") and not db.startswith("sqlite:////") and \
                not Path(db.removeprefix("sqlite:///")).expanduser().is_absolute():
            self.show_error("sqlite:/// takes the file's full path (sqlite:////home/...), or "
                            "type the full path alone")
            self.database.setFocus()
            return
        if db and "://" in db and not db.startswith(("sqlite:", "postgresql", "postgres:")):
            self.show_error("the database is a file path, sqlite:///PATH or "
                            "postgresql://USER@HOST/NAME")
            self.database.setFocus()
            return
        printer = self.printer.currentText()
        self.settings = StationSettings(
            database=db, cardroom=name, theme=self.theme.currentText(),
            printer="" if printer == SYSTEM_PRINTER else printer,
        )
        self.accept()

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))
        hint = self.sizeHint()  # a wrapped refusal must not squash the fields: grow to fit
        if text and self.height() < hint.height():
            self.resize(self.width(), hint.height())


def first_run(*, default_db: str = "") -> StationSettings | None:
    """Ask for and store this station's settings; None if the person chose Quit."""
    from dealer_assist.ui.startup import note_when_shown

    dlg = StationDialog(default_db=default_db)
    note_when_shown("station set-up shown")
    while dlg.exec() == QDialog.DialogCode.Accepted and dlg.settings is not None:
        try:
            save(dlg.settings)
        except DealerAssistError as exc:
            dlg.show_error(str(exc))
            continue
        return dlg.settings
    return None


def correct(settings: StationSettings, error: str) -> StationSettings | None:
    """The stored database would not open: show why, let it be changed; None on Quit."""
    dlg = StationDialog(settings)
    dlg.show_error(f"{error}. Correct the database, or Quit.")
    dlg.first_focus = dlg.database
    while dlg.exec() == QDialog.DialogCode.Accepted and dlg.settings is not None:
        try:
            save(dlg.settings)
        except DealerAssistError as exc:
            dlg.show_error(str(exc))
            continue
        return dlg.settings
    return None


def about_text(where: str = "") -> str:
    """The About box: what program this is, exactly (an auditor's first question)."""
    from dealer_assist.ui.qt import qt_version

    lines = [
        f"<b>{version_line()}</b>",
        "Runs a live card table and keeps a tamper-evident record of every hand.",
        f"Database: {where}" if where else "",
        f"Station settings: {where_kept()}",
        f"Python {platform.python_version()}, Qt {qt_version()}, {sys.platform}",
    ]
    return "<br>".join(line for line in lines if line)


def show_about(parent: QWidget | None, where: str = "") -> None:
    box = QMessageBox(parent)
    box.setObjectName("about")
    box.setWindowTitle("About Dealer Assist")
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text(where))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()


class KeysDialog(QDialog):
    """The screen's keys beside those of everywhere, a grid of labels at a width of its own:
    a message box keeps its text within 800 px at 1280x800 and folded each line (936 px)."""

    def __init__(self, screen: str, parent: QWidget | None = None) -> None:
        from dealer_assist.ui.keys import key_tables

        super().__init__(parent)
        self.setObjectName("keys")
        self.setWindowTitle("Keys")
        lay = QVBoxLayout(self)
        head = QLabel(version_line())
        head.setStyleSheet("font-weight: bold;")
        lay.addWidget(head)
        columns = QHBoxLayout()
        columns.setSpacing(28)
        self._lines = [version_line()]
        for heading, table in key_tables(screen):
            grid = QGridLayout()
            grid.setHorizontalSpacing(14)
            title = QLabel(heading)
            title.setStyleSheet("font-weight: bold;")
            grid.addWidget(title, 0, 0, 1, 2)
            self._lines.append(heading)
            for row, (keys, does) in enumerate(table, start=1):
                k = QLabel(keys)
                k.setStyleSheet("font-weight: bold;")
                d = QLabel(does)
                d.setWordWrap(True)
                d.setFixedWidth(380)  # wrapped to a width known here, so its height is too
                d.setMinimumHeight(d.heightForWidth(380))
                grid.addWidget(k, row, 0, Qt.AlignmentFlag.AlignTop)
                grid.addWidget(d, row, 1, Qt.AlignmentFlag.AlignTop)
                self._lines.append(f"{keys}: {does}")
            grid.setRowStretch(len(table) + 1, 1)
            grid.setVerticalSpacing(4)
            columns.addLayout(grid, 1)
        lay.addLayout(columns)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        ok = QPushButton("OK")
        ok.setDefault(True)
        ok.setMinimumSize(96, 46)  # the label whole with the focus frame's border
        ok.clicked.connect(self.accept)
        buttons.addWidget(ok)
        lay.addLayout(buttons)
        # as tall as its lines (not the default dialog's size), never less than they need
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self.resize(self.sizeHint())
        ok.setFocus()

    def text(self) -> str:
        """Every line the window shows (the version, each heading, each key)."""
        return "\n".join(self._lines)


def show_keys(window: QWidget) -> None:
    """The keys of the screen in view (the main window's current tab), then those that work
    everywhere; the version line on top, as in About."""
    tabs = getattr(window, "tabs", None)
    screen = tabs.currentWidget() if tabs is not None else None
    KeysDialog(screen.objectName() if screen is not None else "", window).exec()


def edit_settings(parent: QWidget | None) -> StationSettings | None:
    """Admin: change this station's settings (the database takes effect at the next start)."""
    dlg = StationDialog(load(), first_run=False, parent=parent)
    while dlg.exec() == QDialog.DialogCode.Accepted and dlg.settings is not None:
        try:
            save(dlg.settings)
        except DealerAssistError as exc:
            dlg.show_error(str(exc))
            continue
        use(replace(current(), cardroom=dlg.settings.cardroom, theme=dlg.settings.theme,
                    printer=dlg.settings.printer))
        return dlg.settings
    return None


def install_menus(window: QMainWindow, services: Services, session: Session, *,
                  where: str = "") -> None:
    """The window's Help menu: the keys of the screen in view (F1) and About for everyone,
    Station settings for admins."""
    del services
    menu = window.menuBar().addMenu("&Help")
    keys = QAction("&Keys of this screen", window)
    keys.setObjectName("keys-action")
    keys.setShortcut(QKeySequence("F1"))
    keys.triggered.connect(lambda: show_keys(window))
    menu.addAction(keys)
    window.addAction(keys)
    about = QAction("&About Dealer Assist", window)
    about.setObjectName("about-action")
    about.triggered.connect(lambda: show_about(window, where))
    menu.addAction(about)
    window.addAction(about)
    if session.role in PERMISSIONS["users"]:
        station = QAction("&Station settings…", window)
        station.setObjectName("station-action")
        station.triggered.connect(lambda: edit_settings(window))
        menu.addAction(station)
