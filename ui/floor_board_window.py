"""The floor's board console: tables, seats and waiting lists, worked from the keyboard.

Two panes, Tab between them. On a table: O open, C close, B breaking, S seat (the called
player, or a walk-in), F free a seat, A away, W back, P pick up chips, M must-move link,
V call the must-move player. On a list entry: K call, E seat the called player, H not here,
R remove. Anywhere: L put a player on a list, G a board setting. Each action is one floor
record (with who and when); a refusal says why and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.services.floorboard.records import SETTINGS
from dealer_assist.services.floorboard.state import RoomState
from dealer_assist.services.floorboard.view import game_title, status_of
from dealer_assist.services.model import Session
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.elide import Line, fit_line
from dealer_assist.ui.qt import (
    QComboBox,
    QEvent,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)

ROLE = Qt.ItemDataRole.UserRole
KEYS_HELP = ("Tables: O open · C close · B breaking · S seat · F free · A away · W back · "
             "P pick up · M must-move link · V call must-move\n"
             "Lists: K call · E seat · H not here · R remove        Anywhere: L add to a list · "
             "G settings · Tab: the other pane")
#: An item's lines as (head, middle, tail): the middle (a game and its stakes) is what is cut
#: when a line is wider than its pane.
LINES = ROLE + 1


class FloorActionDialog(_Dialog):
    """A few boxes and one floor action; a refusal stays in the dialog and writes nothing."""

    def __init__(self, title: str, fields: list[tuple[str, QWidget]],
                 act: Callable[[], object], parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setObjectName("floor-action")
        for label, widget in fields:
            self.form.addRow(label, widget)
        self._act = act

    def attempt(self) -> None:
        self._act()


def _seat(box: QLineEdit) -> int:
    text = box.text().strip()
    if not text.isdigit() or len(text) > 3:
        raise BadInput("type a seat number, e.g. 4")
    return int(text)


def _chosen(box: QComboBox, what: str) -> object:
    """The value chosen in a list box, or a refusal when it offers nothing."""
    value = box.currentData()
    if value is None:
        raise BadInput(f"no {what} to choose: the tables' settings offer none")
    return value


def _pair(value: object) -> tuple[str, str]:
    """A list's (game, stakes) as its box holds it."""
    if isinstance(value, tuple) and len(value) == 2:
        return str(value[0]), str(value[1])
    raise BadInput("choose a list")


def _item(key: int, lines: list[Line]) -> QListWidgetItem:
    """A pane's row: its key (a table or a list entry) and its lines, whole in the tooltip."""
    item = QListWidgetItem("\n".join("".join(x) for x in lines))
    item.setData(ROLE, key)
    item.setData(LINES, lines)
    item.setToolTip(item.text())
    return item


def _players_hint(what: str, players: Mapping[int, Any]) -> str:
    """"seated: 1 Ann, 3 Bob" for the seat box of an action on a seated player."""
    return f"{what}: " + (", ".join(f"{n} {p.player}" for n, p in sorted(players.items()))
                          or "none")


def _amount(box: QLineEdit) -> int | None:
    return parse_cents(box.text()) if box.text().strip() else None


class FloorBoardConsole(QWidget):
    """See the module's docstring."""

    def __init__(self, board: FloorBoard, session: Session,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("floor-board-console")
        self.setWindowTitle("Floor board")
        self.board = board
        self.session = session
        root = QVBoxLayout(self)
        self.notices = QLabel("")
        self.notices.setObjectName("Refusal")
        self.notices.setWordWrap(True)
        root.addWidget(self.notices)
        self.message = QLabel("")
        self.message.setObjectName("Instruction")
        self.message.setWordWrap(True)
        self.message.hide()  # shown with what was recorded or refused: no empty bar
        root.addWidget(self.message)
        panes = QHBoxLayout()
        self.tables = QListWidget()
        self.tables.setObjectName("floor-tables")
        self.lists = QListWidget()
        self.lists.setObjectName("floor-lists")
        for pane in (self.tables, self.lists):
            pane.installEventFilter(self)
            # a line too long for the pane is cut (…), never scrolled sideways out of sight
            pane.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            pane.viewport().installEventFilter(self)
        panes.addWidget(self.tables, 3)
        panes.addWidget(self.lists, 2)
        root.addLayout(panes, 1)
        keys = QLabel(KEYS_HELP)
        keys.setObjectName("floor-keys")
        root.addWidget(keys)
        self.state = RoomState()
        self._timer = QTimer(self)
        self._timer.setInterval(1000)  # timers run out and other stations record
        self._timer.timeout.connect(self.reload)
        self._timer.start()
        self.reload()
        self.tables.setFocus()

    # --- what it shows -----------------------------------------------------------------------
    def reload(self) -> None:
        try:
            self.state = self.board.state()
            tables = self.board.tables.floor_tables()
            notices = self.board.notices(self.state)
        except DealerAssistError as exc:
            self.notices.setText(f"{exc}: seating changes wait for the server")
            self.notices.show()
            return
        self.notices.setText("\n".join(notices))
        self.notices.setVisible(bool(notices))
        t_row, l_row = self.tables.currentRow(), self.lists.currentRow()
        self.tables.clear()
        for t in tables:
            seated = self.state.seated(t.id)
            seats = []
            for s in t.seats:
                p = seated.get(s)
                call = self.state.call_on(t.id, s)
                away = f" (away until {p.away_until:%H:%M})" if p and p.away_until else ""
                seats.append(f"{s}:{p.player}{away}" if p
                             else f"{s}:called {call.player}" if call else f"{s}:open")
            feeds = self.state.feeders.get(t.id)
            extra = f" · feeds {self.board.table(feeds).name}" if feeds is not None else ""
            self.tables.addItem(_item(t.id, [
                (f"{t.name} ", game_title(t.game, t.stakes),
                 f" — {status_of(self.state, t)}{extra}"),
                ("  ", "  ".join(seats), "")]))
        self.lists.clear()
        for (game, stakes), entries in sorted(self.state.lists.items()):
            for i, w in enumerate(entries, 1):
                call = self.state.calls.get(w.call) if w.call is not None else None
                where = (f" → called to {self.board.table(call.table_id).name} seat "
                         f"{call.seat}" if call else "")
                self.lists.addItem(_item(w.entry, [
                    ("", game_title(game, stakes), f"  {i}. {w.player}{where}")]))
        self._fit(self.tables)
        self._fit(self.lists)
        self.tables.setCurrentRow(min(max(t_row, 0), self.tables.count() - 1))
        self.lists.setCurrentRow(min(max(l_row, 0), self.lists.count() - 1))

    def _fit(self, pane: QListWidget) -> None:
        """Each line of each item within the pane's width (see :data:`LINES`)."""
        width = pane.viewport().width() - 12  # the item's own margins
        fm = pane.fontMetrics()
        for i in range(pane.count()):
            item = pane.item(i)
            item.setText("\n".join(fit_line(fm, width, x) for x in item.data(LINES)))

    def say(self, text: str) -> None:
        """What was recorded or refused, in the bar above the panes."""
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def _current(self, pane: QListWidget) -> int | None:
        item = pane.currentItem()
        return None if item is None else int(item.data(ROLE))

    # --- keys --------------------------------------------------------------------------------
    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Resize:
            for pane in (self.tables, self.lists):
                if watched is pane.viewport():
                    self._fit(pane)
        if event.type() == QEvent.Type.KeyPress and not event.modifiers() & (
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
            text = event.text().lower()
            if text and text.isalpha() and self.key(text, watched is self.lists):
                return True
        return super().eventFilter(watched, event)

    def key(self, key: str, on_lists: bool) -> bool:
        """Run the action of ``key`` (True: it was one)."""
        table = self._current(self.tables)
        entry = self._current(self.lists)
        b, s = self.board, self.session
        name = b.table(table).name if table is not None else ""
        w = self.state.waiting(entry) if entry is not None else None
        who = w.player if w is not None else ""
        if key == "l":
            self.add_to_list()
        elif key == "g":
            self.setting()
        elif on_lists and key in "kehr":
            if entry is None:
                self.say("no one on a list: L puts a player on one")
            elif key == "k":
                self.call(entry)
            elif key == "e":
                self.seat_called(entry)
            elif key == "h":
                self._do(lambda: b.not_here(s, entry), lambda: f"{who} not here: " + (
                    "to the end of the list" if self.state.waiting(entry) is not None
                    else "off the list"))
            else:
                self._do(lambda: b.remove(s, entry), f"{who} taken off the list")
        elif not on_lists and key in "ocbsfawpmv":
            if table is None:
                self.say("the room has no tables yet")
            elif key == "o":
                self._do(lambda: b.open_table(s, table), f"{name} opened")
            elif key == "c":
                self._do(lambda: b.close_table(s, table), f"{name} closed")
            elif key == "b":
                self._do(lambda: b.mark_breaking(s, table), f"{name} marked breaking")
            elif key == "s":
                self.seat(table)
            elif key == "m":
                self.must_move(table)
            else:
                self.seat_action(key, table)
        else:
            return False
        return True

    def _do(self, act: Callable[[], object], done: str | Callable[[], str]) -> bool:
        """One key's action; ``done`` says what was recorded (read once it was)."""
        try:
            act()
        except DealerAssistError as exc:
            self.say(f"Refused: {exc}")
            return False
        self.reload()
        self.say(f"Recorded: {done if isinstance(done, str) else done()}")
        return True

    def _dialog(self, title: str, fields: list[tuple[str, QWidget]],
                act: Callable[[], object], done: str | Callable[[], str]) -> bool:
        """The action's form; ``done`` says what was recorded (read once it was)."""
        dlg = FloorActionDialog(title, fields, act, self)
        try:
            ok = dlg.exec() == _Dialog.DialogCode.Accepted
        finally:
            dlg.deleteLater()
        if ok:
            self.reload()
            self.say(f"Recorded: {done if isinstance(done, str) else done()}")
        return ok

    # --- the dialogs -------------------------------------------------------------------------
    def add_to_list(self) -> None:
        player = QLineEdit()
        player.setObjectName("floor-player")
        which = QComboBox()
        which.setObjectName("floor-list-choice")
        for game, stakes in self.board.choices():
            which.addItem(game_title(game, stakes), (game, stakes))
        self._dialog("Put a player on a list", [("Player", player), ("List", which)],
                     lambda: self.board.add_to_list(self.session, player.text(),
                                                    *_pair(_chosen(which, "list"))),
                     lambda: f"{player.text().strip()} on the {which.currentText()} list")

    def call(self, entry: int) -> None:
        w = self.state.waiting(entry)
        if w is None:
            return
        table = QComboBox()
        table.setObjectName("floor-call-table")
        for t in self.board.tables.floor_tables():
            if (t.game, t.stakes) == (w.game, w.stakes):
                table.addItem(t.name, t.id)
        seat = QLineEdit()
        seat.setObjectName("floor-seat")

        def hint() -> None:
            chosen = table.currentData()
            seat.setPlaceholderText("" if chosen is None else self._open_hint(int(chosen)))

        table.currentIndexChanged.connect(hint)
        hint()
        self._dialog(f"Call {w.player}", [("Table", table), ("Seat", seat)],
                     lambda: self.board.call(self.session, entry,
                                             int(str(_chosen(table, "table for this game"))),
                                             _seat(seat)),
                     lambda: f"{w.player} called to {table.currentText()} seat "
                             f"{seat.text().strip()}")

    def seat_called(self, entry: int) -> None:
        w = self.state.waiting(entry)
        call = self.state.calls.get(w.call) if w is not None and w.call is not None else None
        if call is None:
            self.say("call the player first (K), then seat them")
            return
        amount = QLineEdit()
        amount.setObjectName("floor-amount")
        amount.setPlaceholderText(self._buy_in_hint(call.table_id))
        where = f"{self.board.table(call.table_id).name} seat {call.seat}"
        self._dialog(f"Seat {call.player} at {where}", [("Buy-in", amount)],
                     lambda: self.board.seat(self.session, call.table_id, call.seat,
                                             amount=_amount(amount)),
                     f"{call.player} seated at {where}")

    def seat(self, table: int) -> None:
        seat, player, amount = QLineEdit(), QLineEdit(), QLineEdit()
        seat.setObjectName("floor-seat")
        player.setObjectName("floor-player")
        amount.setObjectName("floor-amount")
        seat.setPlaceholderText(self._open_hint(table))
        amount.setPlaceholderText(self._buy_in_hint(table))
        name = self.board.table(table).name
        self._dialog(f"Seat a player at {name}",
                     [("Seat", seat), ("Player (empty: the one called)", player),
                      ("Buy-in (or the chips brought)", amount)],
                     lambda: self.board.seat(self.session, table, _seat(seat),
                                             player=player.text() or None,
                                             amount=_amount(amount)),
                     lambda: f"{self._sitting(table, seat)} seated at {name} seat "
                             f"{seat.text().strip()}")

    def seat_action(self, key: str, table: int) -> None:
        seat = QLineEdit()
        seat.setObjectName("floor-seat")
        b, s = self.board, self.session
        name = b.table(table).name

        def at() -> str:
            return f"{name} seat {seat.text().strip()}"

        seated = self.state.seated(table)
        away = {n: p for n, p in seated.items() if p.away_until is not None}
        if key == "p":
            chips = QLineEdit()
            chips.setObjectName("floor-amount")
            seat.setPlaceholderText(_players_hint("away", away))
            self._dialog(f"Pick up an away player's chips at {name}",
                         [("Seat", seat), ("Chips", chips)],
                         lambda: b.pick_up(s, table, _seat(seat), _amount(chips) or 0),
                         lambda: f"chips picked up at {at()}; the seat is free")
            return
        act: dict[str, tuple[str, Callable[[], object], Callable[[], str]]] = {
            "f": ("Free a seat (the player leaves)", lambda: b.leave(s, table, _seat(seat)),
                  lambda: f"{at()} free from the next hand"),
            "a": ("Mark a player away", lambda: b.away(s, table, _seat(seat)),
                  lambda: f"{at()} away"),
            "w": ("Mark a player back", lambda: b.back(s, table, _seat(seat)),
                  lambda: f"{at()} back"),
            "v": ("Call the must-move player", lambda: b.call_must_move(s, table, _seat(seat)),
                  lambda: f"must-move player called to {at()}"),
        }
        seat.setPlaceholderText(self._open_hint(table) if key == "v"
                                else _players_hint("away", away) if key == "w"
                                else _players_hint("seated", seated))
        title, run, done = act[key]
        self._dialog(f"{title} at {name}", [("Seat", seat)], run, done)

    def _open_hint(self, table: int) -> str:
        """The seats a player can be called or seated to, for the seat box."""
        seated = self.state.seated(table)
        free = [n for n in self.board.table(table).seats
                if n not in seated and self.state.call_on(table, n) is None]
        called = [f"{n} ({c.player})" for n in self.board.table(table).seats
                  if n not in seated and (c := self.state.call_on(table, n)) is not None]
        return ("open: " + (", ".join(map(str, free)) or "none")
                + ("; called: " + ", ".join(called) if called else ""))

    def _buy_in_hint(self, table: int) -> str:
        low = self.board.table(table).buy_in
        if low is None:
            return "the chips the player buys in for"
        top = low * self.state.rules.buy_in_max_times
        return f"{format_cents(low)} to {format_cents(top)}"

    def _sitting(self, table: int, seat: QLineEdit) -> str:
        p = self.state.seated(table).get(int(seat.text().strip()))
        return p.player if p is not None else "a player"

    def must_move(self, table: int) -> None:
        feeder = QComboBox()
        feeder.setObjectName("floor-feeder")
        feeder.addItem("none (unlink)", None)
        main = self.board.table(table)
        for t in self.board.tables.floor_tables():  # the main game's game and stakes only
            if t.id != table and (t.game, t.stakes) == (main.game, main.stakes):
                feeder.addItem(t.name, t.id)
        self._dialog(f"The must-move table feeding {self.board.table(table).name}",
                     [("Feeder", feeder)],
                     lambda: self.board.link_must_move(self.session, table,
                                                       feeder.currentData()),
                     lambda: (f"{feeder.currentText()} feeds {main.name}"
                              if feeder.currentData() is not None
                              else f"no table feeds {main.name}"))

    def setting(self) -> None:
        name, value = QComboBox(), QLineEdit()
        name.setObjectName("floor-setting")
        value.setObjectName("floor-value")
        for key, (default, allowed) in SETTINGS.items():
            name.addItem(f"{key} ({'/'.join(allowed) if allowed else 'minutes'}; "
                         f"default {default})", key)
        self._dialog("A board setting of the room", [("Setting", name), ("Value", value)],
                     lambda: self.board.set_rule(self.session, name.currentData(),
                                                 value.text()),
                     lambda: f"{name.currentData()} set to {value.text().strip()}")


