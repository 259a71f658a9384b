"""The seat to act's "▶ TO ACT" reads whole in a narrow seat box (nine seats at 1280x800,
before the felt is short enough for the compact boxes): it goes on a line of its own when it
does not fit beside the seat's number, rather than being cut ("TO ACI")."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import SeatView, TableView
from dealer_assist.ui.qt import QLabel, QRect
from dealer_assist.ui.table_view import TableWidget

NINE = TableView("pineapple", tuple(
    SeatView(n, hidden=3, detail="$0 this round, $0 this hand · stack $200", to_act=n == 3)
    for n in range(1, 10)), to_act=3, button=9, pots=(("Main pot", 300),))


def test_regression_to_act_badge_whole_at_nine_seats(qtbot: Any) -> None:
    table = TableWidget()
    qtbot.addWidget(table)
    table.resize(920, 420)
    table.show()
    table.show_view(NINE)
    qtbot.wait(10)
    box = table.seats[3]
    badge = box.findChild(QLabel, "seat-to-act")
    assert badge is not None and badge.text() == "▶ TO ACT"
    at = QRect(badge.mapTo(box, badge.rect().topLeft()), badge.size())
    assert badge.width() >= badge.sizeHint().width(), (badge.width(), badge.sizeHint())
    assert box.contentsRect().contains(at)
