"""The time to collect at a time-collected table, each seat a step to tick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.money import format_cents
from dealer_assist.ui.panels.push import StepRow
from dealer_assist.ui.qt import (
    QFrame,
    QLabel,
    QVBoxLayout,
    QWidget,
)


def time_lines(collect: Sequence[Any]) -> list[tuple[str, str]]:
    """One line per seat to collect time from (ledger lines of a period mark) or, after a
    voided mark, to give time back to (a negative line reads "give back", never "-$5")."""
    out = []
    for x in sorted(collect, key=lambda x: (x.seat or 0, x.period or 0)):
        verb = "give back" if x.amount < 0 else "collect"
        out.append((f"time-seat-{x.seat}",
                    f"Seat {x.seat}: {verb} {format_cents(abs(x.amount))} (period {x.period})"))
    return out


def time_total_text(collect: Sequence[Any]) -> str:
    """What the dealer moves in all: into the drop box, and back out of it to the seats."""
    taken = sum(x.amount for x in collect if x.amount > 0)
    given = -sum(x.amount for x in collect if x.amount < 0)
    if not given:
        return f"In all: {format_cents(taken)} into the drop box"
    back = f"In all: {format_cents(given)} back out of the drop box to the seats"
    return back + (f", and {format_cents(taken)} into it" if taken else "")


class TimeChecklist(QFrame):
    """What to collect from each seat at a period mark, as a checklist the dealer ticks."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 6, 12, 6)
        self.title = QLabel("Collect time from each seat\n(tick each seat: T or Space)")
        self.title.setObjectName("time-title")
        self.title.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.title)
        self.box = QVBoxLayout()
        self.box.setSpacing(0)
        lay.addLayout(self.box)
        self.total = QLabel("")
        self.total.setObjectName("time-total")
        self.total.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.total)
        self.progress = QLabel("")
        self.progress.setObjectName("time-progress")
        lay.addWidget(self.progress)
        self.rows: list[StepRow] = []
        self.gives_back = False

    def show_collect(self, collect: Sequence[Any]) -> None:
        for r in self.rows:
            r.hide()
            r.deleteLater()
        self.rows = []
        for name, text in time_lines(collect):
            row = StepRow(name, text)
            row.check.toggled.connect(lambda _on: self._update())
            self.box.addWidget(row)
            self.rows.append(row)
        self.gives_back = any(x.amount < 0 for x in collect)
        if self.gives_back:
            self.title.setText("Give back or collect time, seat by seat\n"
                               "(tick each seat: T or Space)")
        self.total.setText(time_total_text(collect) if collect
                           else "No seat owes time at this mark (nobody is seated).")
        self._update()

    def texts(self) -> list[str]:
        return [r.label.text() for r in self.rows]

    def tick_next(self) -> None:
        for r in self.rows:
            if not r.check.isChecked():
                r.check.setChecked(True)
                return

    @property
    def done(self) -> bool:
        return all(r.check.isChecked() for r in self.rows)

    def _update(self) -> None:
        n = sum(1 for r in self.rows if r.check.isChecked())
        done = "done" if self.gives_back else "collected"
        self.progress.setText(f"{n} of {len(self.rows)} {done}")
