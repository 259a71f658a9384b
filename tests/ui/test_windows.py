"""Sign-in, the main window by role, themes, the shift's close with the floor's sign-off, and
adding a table from a settings file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Services
from dealer_assist.ui.dialogs import SignInDialog, add_table_from_file
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QApplication, Qt
from dealer_assist.ui.theme import current_theme
from tests.ui.conftest import answer_next_dialog, click_ok
from tests.ui.test_dealer_champs import open_screen, sign_in, type_card

ROOT = Path(__file__).resolve().parents[2]


def test_wrong_pin_is_refused_inline_without_naming_the_name(qtbot: Any,
                                                     memory_services: Services) -> None:
    dlg = SignInDialog(memory_services)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.keyClicks(dlg.name, "dana")
    qtbot.keyClicks(dlg.pin, "1234")
    click_ok(qtbot, dlg)
    assert dlg.isVisible() and dlg.session is None
    assert dlg.error.text() == (
        "unknown name or wrong PIN (3 wrong PINs in a row lock a name for 5 minutes)"
    )
    assert dlg.pin.text() == "" and dlg.name.text() == "dana"
    qtbot.keyClicks(dlg.pin, "1111")
    click_ok(qtbot, dlg)
    assert dlg.session is not None and dlg.session.role == "dealer"


def test_main_window_tabs_follow_the_role_and_f9_switches_theme(
    qtbot: Any, memory_services: Services
) -> None:
    dealer = MainWindow(memory_services, sign_in(qtbot, memory_services, "dana", "1111"))
    qtbot.addWidget(dealer)
    assert dealer.tabs.count() == 1 and dealer.dealer is not None and dealer.floor is None
    floor = MainWindow(memory_services, sign_in(qtbot, memory_services, "fran", "2222"))
    qtbot.addWidget(floor)
    floor.show()
    assert floor.tabs.count() == 3 and floor.floor is not None and floor.live is not None
    assert current_theme().name == "dark"
    qtbot.mouseClick(floor.theme_button, Qt.MouseButton.LeftButton)
    assert current_theme().name == "light"
    assert "#f3f1ec" in QApplication.instance().styleSheet()
    assert floor.theme_button.text().startswith("Dark theme")


def test_close_shift_needs_the_floor_pin(qtbot: Any, memory_services: Services) -> None:
    """A wrong PIN is refused inside the approval, which stays open for the right one."""
    svc = memory_services
    screen = open_screen(qtbot, svc)
    shift_id = screen.c.shift.id if screen.c.shift else 0
    seen: dict[str, Any] = {}

    def wrong_then_right(dlg: Any) -> None:
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "0000")
        click_ok(qtbot, dlg)
        seen["error"] = dlg.error.text()
        seen["open"] = dlg.isVisible()
        seen["pin"] = dlg.pin.text()
        assert svc.shift(shift_id).open
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, wrong_then_right)
    qtbot.mouseClick(screen.close_button, Qt.MouseButton.LeftButton)
    assert "wrong PIN" in seen["error"] and seen["open"] and seen["pin"] == ""
    closed = svc.shift(shift_id)
    assert not closed.open and closed.closed_floor == "fran"
    assert screen.message.text() == "Open a table to start the shift"


def test_close_shift_refused_while_a_hand_is_unfinished(qtbot: Any,
                                                       memory_services: Services) -> None:
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    type_card(qtbot, screen, "7h")

    def right(dlg: Any) -> None:
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, right)
    qtbot.mouseClick(screen.close_button, Qt.MouseButton.LeftButton)
    assert screen.refusal.text().startswith("hand 1 is not finished")
    assert screen.c.shift is not None


@pytest.mark.parametrize(
    "name", ["champs-and-cowards-player-fee.toml", "caro-holdem-rake.toml"]
)
def test_table_from_settings_file_opens_at_the_station(
    qtbot: Any, memory_services: Services, name: str
) -> None:
    path = ROOT / "docs" / "examples" / "tables" / name
    if not path.exists():
        pytest.skip(f"{path.name} is not in docs/examples/tables")
    fran = memory_services.sign_in("fran", "2222")
    table_id = add_table_from_file(memory_services, fran, path)
    settings = memory_services.settings(table_id)
    assert name.startswith(settings.game)
    assert settings.document["game"] == settings.game


def test_fee_to_drop_is_a_step_of_the_checklist(qtbot: Any, memory_services: Services) -> None:
    """A table with $1 a player a hand: three players, the dealer drops $3."""
    svc = memory_services
    fran = svc.sign_in("fran", "2222")
    add_table_from_file(svc, fran, ROOT / "docs/examples/tables/champs-and-cowards-player-fee.toml")
    screen = open_screen(qtbot, svc, table="Table 7")
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("9d", "5c", "2h"):
        type_card(qtbot, screen, code)
    for _ in range(3):
        qtbot.keyClick(screen, "w")
    texts = screen.push.texts()
    assert texts[0] == "Drop the player fee: $3 ($1 from seats 1, 2, 3) into the drop box"
    assert "fees $3" in screen.push.totals.text()


def test_regression_a_lockout_message_is_taken_down_when_the_lockout_ends(
    qtbot: Any, memory_services: Services
) -> None:
    """The sign-in box said "locked" long after the lockout ran out: a timer set to the
    lockout's end replaces the message."""
    dlg = SignInDialog(memory_services)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.keyClicks(dlg.name, "dana")
    for _ in range(3):
        qtbot.keyClicks(dlg.pin, "9876")
        click_ok(qtbot, dlg)
    assert "dana is locked until" in dlg.error.text()
    assert dlg.lock_timer.isActive()
    assert 290_000 <= dlg.lock_timer.interval() <= 301_000  # five minutes from now
    dlg.lock_timer.setInterval(1)
    dlg.lock_timer.start()
    qtbot.waitUntil(lambda: "The lockout ended" in dlg.error.text(), timeout=5000)
    assert "locked until" not in dlg.error.text()
