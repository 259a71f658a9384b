"""The floor console's Find: the filters, the search and the hands list."""

from __future__ import annotations

from datetime import UTC, datetime

from dealer_assist.engine.registry import get_game
from dealer_assist.services import HandFilter
from dealer_assist.ui.floor_console.layout import FloorLayout
from dealer_assist.ui.floor_console.times import _aware, _fmt_time, _wall_clock
from dealer_assist.ui.qt import (
    Qt,
    QTableWidgetItem,
)


class FindPart(FloorLayout):
    """The filters and the hands list."""

    def fill_filters(self) -> None:
        svc = self.c.services
        self.f_table.clear()
        self.f_table.addItem("any table", None)
        tables = self.c._guard(svc.list_tables) or []
        for t in tables:
            self.f_table.addItem(t.name, t.id)
        self.f_shift.clear()
        self.f_shift.addItem("any shift", None)
        for s in self.c._guard(svc.list_shifts) or []:
            name = next((t.name for t in tables if t.id == s.table_id), str(s.table_id))
            self.f_shift.addItem(f"{s.id}: {name}, {s.dealer}, {_fmt_time(s.opened_at)}", s.id)
        self.f_game.clear()
        self.f_game.addItem("any game", None)
        from dealer_assist.engine.registry import game_names

        for g in game_names():
            self.f_game.addItem(get_game(g).title, g)
        now = datetime.now(UTC)
        self.f_from.setDateTime(_wall_clock(now.replace(hour=0, minute=0, second=0, microsecond=0)))
        self.f_to.setDateTime(_wall_clock(now))
        self._tables = {t.id: t.name for t in tables}

    def find_filters(self) -> None:
        """F: the keyboard to the first Find filter (Tab goes on through them, Enter finds)."""
        self.f_table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def current_filter(self) -> HandFilter:
        since = self.f_from.dateTime() if self.f_from_on.isChecked() else None
        until = self.f_to.dateTime() if self.f_to_on.isChecked() else None
        return HandFilter(
            table_id=self.f_table.currentData(),
            shift_id=self.f_shift.currentData(),
            game=self.f_game.currentData(),
            dealer=self.f_dealer.text().strip() or None,
            since=_aware(since),
            until=_aware(until),
            disputed=True if self.f_disputed.isChecked() else None,
        )

    def search(self) -> None:
        self.show_notice("")
        hands = self.c.search(self.current_filter())
        self.list.setRowCount(len(hands))
        for r, h in enumerate(hands):
            values = (
                str(h.number), self._tables.get(h.table_id, str(h.table_id)),
                h.started_at.astimezone(UTC).strftime("%m-%d %H:%M"), get_game(h.game).title,
                h.started_by, str(h.events),
                (f"{h.status} (imported)" if h.imported else h.status)
                + (" · disputed" if h.disputed else ""),
                "yes" if h.disputed else "",
            )
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                item.setData(Qt.ItemDataRole.UserRole, h.id)
                self.list.setItem(r, col, item)
        self.title.setText(f"{len(hands)} hand{'s' if len(hands) != 1 else ''} found"
                           if hands else "No hand matches these filters")

    def select_row(self, row: int) -> None:
        self.list.selectRow(row)

    def _selected(self) -> None:
        rows = self.list.selectionModel().selectedRows()
        if not rows:
            return
        item = self.list.item(rows[0].row(), 0)
        hand_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if hand_id is not None:
            self.open_hand(int(hand_id))
