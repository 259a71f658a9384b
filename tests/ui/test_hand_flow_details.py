"""Smaller things of a hand's flow: a key no action has is said (not silent), a point is one
point, "No hand in play" shows in the light theme, confirmations are not drawn as refusals."""

from __future__ import annotations

from typing import Any

from dealer_assist.games.champs_and_cowards.present import points_text
from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import open_screen, type_card


def test_regression_a_key_no_action_has_is_refused_with_the_keys_there_are(
    qtbot: Any, memory_services: Services
) -> None:
    """R where no action has R (a raise capped away, or a game without one) says so."""
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("9d", "5c", "2h"):
        type_card(qtbot, screen, code)
    screen.setFocus()
    qtbot.keyClick(screen, "r")
    text = screen.refusal.text()
    assert text.startswith('"R": no action has this key now; the keys now: C Champ'), text
    assert "W Coward" in text


def test_regression_one_point_is_one_point() -> None:
    assert (points_text(1), points_text(13)) == ("1 point", "13 points")


def test_regression_no_hand_in_play_is_readable_in_the_light_theme(qtbot: Any) -> None:
    from dealer_assist.ui.table_view import TableWidget
    from dealer_assist.ui.theme import DARK, LIGHT

    for theme in (LIGHT, DARK):
        w = TableWidget()
        qtbot.addWidget(w)
        w.show_view(None, theme)
        assert w.title.text() == "No hand in play"
        assert f"color: {theme.text}" in w.title.styleSheet()  # not the felt's white


def test_stacks_confirmation_is_a_note_not_a_refusal(
    qtbot: Any, sqlite_services: Services
) -> None:
    from dealer_assist.ui.qt import QTimer
    from dealer_assist.ui.stacks_dialog import StacksDialog

    screen = open_screen(qtbot, sqlite_services, table="Caro-1")

    def fill() -> None:
        dlg = next(w for w in screen.findChildren(StacksDialog) if w.isVisible())
        dlg.edits[2].setText("1,500")
        dlg._try_accept()

    QTimer.singleShot(0, fill)
    qtbot.keyClick(screen, Qt.Key.Key_F3)
    assert screen.note.text() == "Next hand's stacks: seat 2 $1,500. Press N to deal."
    assert not screen.refusal.isVisible() and screen.refusal.text() == ""
