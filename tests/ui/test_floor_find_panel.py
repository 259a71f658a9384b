"""Regression (a 1280x800 station): the floor console's "Find hands" panel shows every label whole
("From (UTC)", "To (UTC)" were cut to "From (UT"), and the reveal's reason box is wide enough to
read its prompt ("why reve…" before)."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.floor_console import FloorConsole
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QGroupBox, QLabel


def test_find_panel_labels_and_reason_box_are_whole_at_1280x800(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    win = MainWindow(svc, svc.sign_in("fran", "2222"), where="sqlite:///room.sqlite3")
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    win.tabs.setCurrentIndex(1)
    qtbot.wait(1)
    console = win.findChild(FloorConsole)
    assert console is not None and console.isVisible()
    panel = next(g for g in console.findChildren(QGroupBox) if g.title() == "Find hands")
    labels = [lab for lab in panel.findChildren(QLabel) if lab.isVisible() and lab.text()]
    assert {lab.text() for lab in labels} >= {"Table", "Dealer", "From (UTC)", "To (UTC)"}
    for lab in labels:
        assert lab.width() >= lab.sizeHint().width(), f"{lab.text()!r} is clipped"
    reason = console.reveal_reason
    prompt = reason.fontMetrics().horizontalAdvance(reason.placeholderText())
    assert reason.width() >= prompt + 20, "the reveal's reason box cuts its own prompt"
