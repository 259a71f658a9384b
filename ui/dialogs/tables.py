"""Open a table and shift (the settings it will play by, in words) and add a table from a
settings file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.money import format_cents
from dealer_assist.services import Services, Session
from dealer_assist.ui.dialogs.base import _Dialog
from dealer_assist.ui.qt import (
    QComboBox,
    QFileDialog,
    QLabel,
    QPushButton,
    QWidget,
)


def settings_lines(game: str, params: dict[str, Any]) -> list[str]:
    """A table's settings as the dialog shows them: the table's amounts formatted, the game's
    own settings as the game describes them (``Game.settings``), the rest as given."""
    lines = [f"game: {game}"]
    for k, v in params.items():
        if k in ("smallest_chip", "buy_in", "limit") and isinstance(v, int):
            lines.append(f"{k}: {format_cents(v)}")
        elif k == "params" and isinstance(v, dict):
            lines.append("game settings: " + ", ".join(
                f"{pk} {_game_setting(game, pk, pv)}" for pk, pv in v.items()))
        elif k == "game":
            continue
        elif k == "seats" and isinstance(v, list):
            lines.append("seats: " + ", ".join(map(str, v)))
        elif k == "stacks" and isinstance(v, dict):
            lines.append("stacks: " + ", ".join(f"{s} {format_cents(int(c))}"
                                                for s, c in v.items()))
        elif k == "fee" and isinstance(v, dict):
            lines.append(f"fee: {_fee_words(v)}")
        elif isinstance(v, dict):
            lines.append(f"{k}: " + ", ".join(f"{pk} {pv}" for pk, pv in v.items()))
        elif isinstance(v, list):
            lines.append(f"{k}: " + ", ".join(map(str, v)))
        else:
            lines.append(f"{k}: {v}")
    return lines


def _fee_words(fee: dict[str, Any]) -> str:
    """The fee as a person reads it ("5% rake, capped at $5, ..."), not as stored."""
    from dealer_assist.fees.schedule import parse_fee_schedule

    try:
        schedule = parse_fee_schedule(fee)
    except DealerAssistError:
        schedule = None
    if schedule is None:
        return ", ".join(f"{k} {_money_or(k, v)}" for k, v in fee.items())
    return schedule.describe()


def _money_or(key: str, value: Any) -> str:
    """A fee's own key as shown (its amounts are cents: the fee's vocabulary, not a game's)."""
    if key in ("amount", "cap", "min_pot") and \
            isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    return str(value)


def _game_setting(game: str, key: str, value: Any) -> str:
    """One of the game's own settings as the game describes it (as given if it does not)."""
    from dealer_assist.engine.registry import get_game

    try:
        described = get_game(game).setting(key)
    except DealerAssistError:
        described = None
    return described.shown(value) if described is not None else str(value)


class OpenTableDialog(_Dialog):
    """Choose a table (its validated settings are shown) and the floor person for the shift."""

    def __init__(self, services: Services, session: Session, parent: QWidget | None = None):
        super().__init__("Open a table and shift", parent, ok="Open shift")
        self.services, self.session = services, session
        self.table = QComboBox()
        self.table.setObjectName("open-table")
        self.floor = QComboBox()
        self.floor.setObjectName("open-floor")
        self.details = QLabel("")
        self.details.setObjectName("open-details")
        self.details.setWordWrap(True)
        self.form.addRow("Table", self.table)
        self.form.addRow("Floor", self.floor)
        self.form.addRow("Settings", self.details)
        self.add = QPushButton("&Add a table from a settings file…  [Alt+A]")
        self.add.setObjectName("open-add")
        self.add.clicked.connect(self._add_table)
        self.add.setVisible(session.role in ("floor", "admin"))
        self.lay.insertWidget(3, self.add)
        self.table.currentIndexChanged.connect(self._show_settings)
        self.table_id: int | None = None
        self.floor_name = ""
        self._fill()
        self._start_at_own_shift()

    def _start_at_own_shift(self) -> None:
        """The list starts at the table where this dealer has a shift open (not the first)."""
        try:
            mine = [s for s in self.services.list_shifts()
                    if s.open and s.dealer == self.session.name]
        except DealerAssistError:
            return
        if mine:
            i = self.table.findData(max(mine, key=lambda s: s.id).table_id)
            if i >= 0:
                self.table.setCurrentIndex(i)
        i = self.table.findText(self._rotation_place())
        if i >= 0:  # a dealer pushed out goes on to where the rotation sends them
            self.table.setCurrentIndex(i)

    def _rotation_place(self) -> str:
        """With the dealer box: the table this dealer deals now, or, between tables, the one
        the rotation sends them to next ("" when it names none)."""
        if self.session.role != "dealer" or getattr(self.services, "dealer_box", None) is None:
            return ""
        from dealer_assist.services.dealer_hooks import room_dealers

        try:
            row = next((r for r in room_dealers(self.services)
                        if r.dealer == self.session.name), None)
        except DealerAssistError:
            return ""
        if row is None or row.where in ("break", "off the tables"):
            return ""
        return row.next_place if row.where == "between tables" else row.where

    def _fill(self) -> None:
        self.table.clear()
        for t in self.services.list_tables():
            self.table.addItem(t.name, t.id)
        self.floor.clear()
        for u in self.services.floor_people():
            self.floor.addItem(f"{u.full_name} ({u.name})", u.name)
        self._show_settings()

    def _show_settings(self) -> None:
        tid = self.table.currentData()
        if tid is None:
            self.details.setText("no tables yet: the floor adds one from a settings file")
            return
        try:
            st = self.services.settings(int(tid))
        except DealerAssistError as exc:
            self.details.setText(str(exc))
            return
        shift = self.services.current_shift(int(tid))
        lines = [f"version {st.version}", *settings_lines(st.game, dict(st.document))]
        self.floor.setEnabled(True)
        if shift is not None:
            lines.append(f"open shift: dealer {shift.dealer}, floor {shift.floor}")
            if shift.dealer == self.session.name:  # resumed as it is: its floor stays
                i = self.floor.findData(shift.floor)
                if i >= 0:
                    self.floor.setCurrentIndex(i)
                self.floor.setEnabled(False)
                lines.append(f"Open shift resumes your shift {shift.id} with floor "
                             f"{shift.floor}")
        self.details.setText("\n".join(lines))

    def _add_table(self) -> None:
        from dealer_assist.ui.files import documents_folder

        path, _ = QFileDialog.getOpenFileName(
            self, "Table settings", str(documents_folder()), "Table settings (*.toml *.json)"
        )
        if path:
            try:
                add_table_from_file(self.services, self.session, Path(path))
            except DealerAssistError as exc:
                self.show_error(str(exc))
                return
            self.show_error("")
            self._fill()
            self.table.setCurrentIndex(self.table.count() - 1)

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        tid = self.table.currentData()
        if tid is None:
            raise BadInput("choose a table")
        floor = self.floor.currentData()
        if floor is None:
            raise BadInput("no floor person: an admin must add one")
        self.table_id = int(tid)
        self.floor_name = str(floor)


def add_table_from_file(services: Services, session: Session, path: Path) -> int:
    """Read a table settings file (checked as ``table check`` checks it) and add the table."""
    import json
    import tomllib

    from dealer_assist.settings.table import read_table_settings

    read_table_settings(path)  # names the file, the key and the problem if it is wrong
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    if "presets_dir" in doc:
        doc["presets_dir"] = str((path.parent / str(doc["presets_dir"])).resolve())
    table = services.add_table(session, doc, name=None if doc.get("name") else path.stem)
    return table.id
