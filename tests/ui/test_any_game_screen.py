"""The dealer's screen plays a game it has no code for (Tally, the test game in tests/anygame)
by keyboard only: each action's letter, then one dialog with a widget per input (two inputs in
one action, a range of cards with the same card twice, a die the app rolls and shows), the
floor's ruling with the floor's PIN, the table's choice between hands, and the score sheet of
the game so far once the hand is settled."""

from __future__ import annotations

from typing import Any

from anygame.play import SETTINGS

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog
from tests.ui.test_dealer_champs import open_screen


def _answer(kind: str, fill: Any) -> None:
    """Run ``fill(dialog)`` on the next modal dialog of class ``kind`` (one opened right after
    another closes is not confused with it)."""
    from dealer_assist.ui.qt import QApplication, QTimer

    def poll() -> None:
        dlg = QApplication.activeModalWidget()
        if dlg is None or type(dlg).__name__ != kind or not dlg.isVisible():
            QTimer.singleShot(10, poll)
            return
        fill(dlg)

    QTimer.singleShot(0, poll)


def _enter(qtbot: Any, dlg: Any) -> None:
    """Accept a dialog from the keyboard (Enter in its focused field)."""
    qtbot.keyClick(dlg.focusWidget() or dlg, Qt.Key.Key_Return)


def test_a_game_package_played_on_the_dealers_screen_by_keyboard(
    qtbot: Any, memory_services: Services
) -> None:
    import anygame  # noqa: F401  (registers the test game)

    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), {**SETTINGS, "name": "Tally-1"})
    screen = open_screen(qtbot, svc, table="Tally-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    now = screen.c.now
    assert now is not None and now.replay.start.get("dealer") == 4
    assert now.replay.start.get("pot_in") == 0

    # R: the app rolls the die, shows it in the dialog, and Enter records what it showed
    shown: list[int] = []

    def roll(dlg: Any) -> None:
        shown.append(dlg.drawn["value"])
        assert "(drawn by the app)" in dlg.findChild(type(dlg.error), "drawn-value").text()
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, roll)
    qtbot.keyClick(screen, Qt.Key.Key_R)
    last = screen.c.now.replay.steps[-1].event  # type: ignore[union-attr]
    assert last.to_json() == {"type": "roll", "seat": 1, "die": "d6", "value": shown[0]}

    # C: two inputs in one action: the cards (two decks: Q♠ twice) and the combination
    def call(dlg: Any) -> None:
        qtbot.keyClicks(dlg.edits["cards"], "qs qs qh")
        qtbot.keyClick(dlg.edits["cards"], Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.choices["combination"], "t")
        assert dlg.choices["combination"].currentText() == "trips"
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, call)
    qtbot.keyClick(screen, Qt.Key.Key_C)
    assert screen.prompt is not None and screen.prompt.phase == "floor", screen.refusal.text()

    # F: the floor rules on the call, with the floor's PIN
    def ruling(dlg: Any) -> None:
        qtbot.keyClicks(dlg.choices["decision"], "v")
        qtbot.keyClick(dlg.choices["decision"], Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.choices["reason"], "Qh seen in the pile")
        _answer("ApprovalDialog", approve)
        _enter(qtbot, dlg)

    def approve(dlg: Any) -> None:
        assert "The floor decides: Floor ruling." in dlg.what.text()
        field = dlg.focusWidget()
        qtbot.keyClicks(field, "fran")
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        assert dlg.focusWidget() is dlg.pin
        qtbot.keyClicks(dlg.pin, "2222")
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, ruling)
    qtbot.keyClick(screen, Qt.Key.Key_F)
    last = screen.c.now.replay.steps[-1].event  # type: ignore[union-attr]
    assert last.to_json() == {"type": "ruling", "decision": "void",
                              "reason": "Qh seen in the pile"}
    assert "decided by fran" in svc.store.audit_log(action="floor-decision")[-1].detail

    for _ in range(4):  # every seat stops
        qtbot.keyClick(screen, Qt.Key.Key_S)
    assert screen.prompt is not None and screen.prompt.phase == "choice"
    qtbot.keyClick(screen, Qt.Key.Key_G)  # go on with the game
    assert screen.c.now is not None and screen.c.now.hand.status == "settled"
    # the pot carries; between hands the score sheet of the game so far is on the table
    assert screen.table.view is not None
    info = screen.table.view.info
    assert "Tally score sheet" in info and "to 40 points" in info
    assert f"totals: seat 1 {shown[0]}, seat 2 0, seat 3 0, seat 4 0" in info

    # between hands the game goes on: G (after the push steps) ends it and deals the next
    # hand as a new game, with the floor's PIN; the running totals are not carried
    assert screen.push.new.isVisible() and not screen.push.new.isEnabled()
    qtbot.keyClick(screen, Qt.Key.Key_G)
    assert "tick each push step first" in screen.refusal.text()
    while not screen.push.done:
        qtbot.keyClick(screen, Qt.Key.Key_T)
    settled_id = screen.c.now.hand.id

    def new_game(dlg: Any) -> None:
        assert "A new game: the next hand does not take over totals_in" in dlg.what.text()
        field = dlg.focusWidget()
        qtbot.keyClicks(field, "fran")
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.pin, "2222")
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, new_game)
    qtbot.keyClick(screen, Qt.Key.Key_G)
    fresh = screen.c.now
    assert fresh is not None and fresh.hand.id != settled_id, screen.refusal.text()
    assert fresh.replay.start.get("totals_in") is None
    assert svc.store.audit_log(action="approval")[-1].detail == (
        "start at Tally-1 after hand 1: new game: totals_in not carried from the last hand")


def test_issue_41_7_a_drawn_value_is_on_the_record_and_a_second_draw_needs_the_floor(
    qtbot: Any, sqlite_services: Services
) -> None:
    """R shows the die the app drew, Esc closes it: the draw is already on the record (and its
    cancelling). R again asks a floor person's name and PIN before anything is drawn; the die
    recorded is the second one drawn, and the approval is on the audit chain. (The dealer
    could draw until the value suited someone: only the kept draw was stored.)"""
    import anygame  # noqa: F401  (registers the test game)

    svc = sqlite_services
    svc.add_table(svc.sign_in("ada", "9999"), {**SETTINGS, "name": "Tally-1"})
    screen = open_screen(qtbot, svc, table="Tally-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    shown: list[int] = []

    def look_and_cancel(dlg: Any) -> None:
        shown.append(dlg.drawn["value"])
        qtbot.keyClick(dlg.focusWidget() or dlg, Qt.Key.Key_Escape)

    answer_next_dialog(qtbot, look_and_cancel)
    qtbot.keyClick(screen, Qt.Key.Key_R)
    assert len(screen.c.now.replay.steps) == 1  # nothing recorded in the hand
    drawn = svc.store.audit_log(action="drawn", hand_id=hand_id)
    assert [e.detail for e in drawn] == [f"hand 1 after event 1: Roll the die: {shown[0]}"]
    assert [e.detail for e in svc.store.audit_log(action="draw-cancelled", hand_id=hand_id)] \
        == [f"hand 1 after event 1: Roll the die: {shown[0]} not recorded"]

    asked: list[str] = []

    def approve(dlg: Any) -> None:
        asked.append(dlg.what.text())
        field = dlg.focusWidget()
        qtbot.keyClicks(field, "fran")
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.pin, "2222")
        _answer("InputDialog", keep)
        _enter(qtbot, dlg)

    def keep(dlg: Any) -> None:
        shown.append(dlg.drawn["value"])
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, approve)
    qtbot.keyClick(screen, Qt.Key.Key_R)
    assert asked and asked[0].startswith(
        f"the app drew at this point of hand 1 already (Roll the die: {shown[0]}, not "
        "recorded): a second draw needs a floor person's approval with their PIN")
    assert len(shown) == 2, screen.refusal.text()
    last = screen.c.now.replay.steps[-1].event
    assert last.to_json() == {"type": "roll", "seat": 1, "die": "d6", "value": shown[1]}
    drawn = svc.store.audit_log(action="drawn", hand_id=hand_id)
    assert drawn[-1].detail == (f"hand 1 after event 1: Roll the die: {shown[1]}; draw 2, "
                                "approved by fran")
    assert any(e.detail == "second draw of Roll the die in hand 1"
               for e in svc.store.audit_log(action="approval", hand_id=hand_id))
