"""A pot-limit Crazy Pineapple hand through the generic screen: the legal range on the raise
button, the amount typed in the input dialog, the discard checklist and face-down discards by
keyboard, the board by card entry, the showdown, to settlement."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.dealer_window import PAGE_DISCARD
from dealer_assist.ui.inputs import InputDialog
from dealer_assist.ui.qt import QDialog, Qt
from tests.ui.test_dealer_caro import cards, key
from tests.ui.test_dealer_champs import open_screen

TABLE: dict[str, Any] = {
    "name": "Crazy-1", "game": "pineapple", "seats": 3, "smallest_chip": 100,
    "buy_in": 20000, "params": {"variant": "crazy", "structure": "pot-limit",
                                "blinds": [100, 200]},
}


def focused(qtbot: Any, screen: Any, text: str) -> None:
    """A key typed where the focus is, as at the table (not sent to a chosen widget)."""
    widget = screen.window().focusWidget() or screen
    qtbot.keyClick(widget, text)


def test_pot_limit_crazy_pineapple_through_the_screen(
    qtbot: Any, sqlite_services: Services, monkeypatch: Any
) -> None:
    svc = sqlite_services
    svc.add_table(svc.sign_in("ada", "9999"), TABLE)
    screen = open_screen(qtbot, svc, table="Crazy-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    view = screen.table.view
    assert view is not None and view.to_act is not None
    first = view.to_act
    raise_button = screen.actions.button_for("raise")
    assert raise_button is not None and raise_button.text().startswith("Raise to $4-$7")
    call = screen.actions.button_for("call")
    assert call is not None and call.text().startswith("Call $2")

    typed: list[str] = []

    def answer(dialog: InputDialog) -> int:
        typed.append(dialog.edits["to"].placeholderText())
        dialog.edits["to"].setText("$7")
        dialog.attempt()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(InputDialog, "exec", answer)
    n = len(screen.c.now.replay.steps)
    qtbot.mouseClick(raise_button, Qt.MouseButton.LeftButton)
    assert len(screen.c.now.replay.steps) == n + 1, screen.refusal.text()
    assert typed == ["$4 to $7"]
    last = screen.c.now.replay.steps[-1].event
    assert last.to_json() == {"type": "raise", "seat": first, "to": 700}
    key(qtbot, screen, "c")
    key(qtbot, screen, "c")
    cards(qtbot, screen, "Ah Kd 7c")  # the flop
    for _ in range(3):
        key(qtbot, screen, "k")
    # the discards: the checklist names who still owes, the turn waits for them
    prompt = screen.prompt
    assert prompt is not None and "still to discard one card face down" in prompt.message
    assert all("owes a discard" in line for line in prompt.instructions)
    deal = screen.actions.button_for("board")
    assert deal is not None and not deal.isEnabled()
    # ruling pineapple-5: D, then U (face down) typed where the focus is; D, 2, U works too
    for i in range(3):
        owing = screen.prompt.actions[0].seat if screen.prompt else None
        focused(qtbot, screen, "d")
        assert screen.pages.currentIndex() == PAGE_DISCARD
        assert list(screen.discards.buttons) == [2]  # one card goes: "keep 1" is not offered
        if i == 0:
            focused(qtbot, screen, "2")
        n = len(screen.c.now.replay.steps)
        focused(qtbot, screen, "u")
        assert len(screen.c.now.replay.steps) == n + 1, screen.cards.error.text()
        body = svc.hand_events(screen.c.now.hand.id)[-1].body
        assert body == {"type": "discard", "seat": owing, "count": 1}
    cards(qtbot, screen, "2s")  # the turn
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "9h")  # the river
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "As Ad")  # the first to show must
    cards(qtbot, screen, "Kh Ks")
    key(qtbot, screen, "m")  # the last may muck
    assert screen.c.now.over
    assert screen.push.totals.text().startswith("In all:")


def test_kill_is_offered_while_a_seat_is_in_with_a_reason_and_cancel(
    qtbot: Any, sqlite_services: Services, monkeypatch: Any
) -> None:
    """Regression: the screen offered Kill only while discards were owed, though the hand log
    takes a kill at any point (a fouled hand). Now the seat to act may be killed in the betting
    too: the reason box is the confirmation (Cancel records nothing), and the reason typed is
    the one the hand keeps."""
    from dealer_assist.games.pineapple.events import Kill

    svc = sqlite_services
    svc.add_table(svc.sign_in("ada", "9999"), TABLE)
    screen = open_screen(qtbot, svc, table="Crazy-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.prompt is not None
    seat = screen.prompt.to_act
    kill = screen.actions.button_for("kill")
    assert kill is not None and kill.isEnabled() and f"seat {seat}" in kill.text()
    answers = [QDialog.DialogCode.Rejected, QDialog.DialogCode.Accepted]

    def answer(dialog: InputDialog) -> int:
        assert dialog.choice is not None
        dialog.choice.setCurrentText("fouled hand: four cards")
        if answers[0] == QDialog.DialogCode.Accepted:
            dialog.attempt()  # Record: the dialog records the kill itself
        return answers.pop(0)

    monkeypatch.setattr(InputDialog, "exec", answer)
    n = len(screen.c.now.replay.steps)
    qtbot.mouseClick(kill, Qt.MouseButton.LeftButton)  # Cancel: nothing recorded
    assert len(screen.c.now.replay.steps) == n
    kill = screen.actions.button_for("kill")
    assert kill is not None
    qtbot.mouseClick(kill, Qt.MouseButton.LeftButton)
    assert len(screen.c.now.replay.steps) == n + 1, screen.refusal.text()
    last = screen.c.now.replay.steps[-1].event
    assert isinstance(last, Kill) and last.seat == seat and last.reason == "fouled hand: four cards"
    state = screen.c.now.state
    assert seat not in state.live and dict(state.killed)[seat] == "fouled hand: four cards"
    assert answers == []  # the reason box was asked both times


def test_regression_a_raise_to_666_at_a_one_dollar_chip_is_refused_in_the_dialog(
    qtbot: Any, sqlite_services: Services, monkeypatch: Any
) -> None:
    """Issue 41 item 6: no-limit Crazy Pineapple Hi-Lo at a $1 chip took a raise to $6.66.
    Typed in the raise dialog, it is refused there naming the chip, nothing is recorded, and
    $7 then goes in."""
    svc = sqlite_services
    svc.add_table(svc.sign_in("ada", "9999"), {
        **TABLE, "name": "HiLo-1",
        "params": {"variant": "crazy-hi-lo", "structure": "no-limit", "blinds": [100, 200]}})
    screen = open_screen(qtbot, svc, table="HiLo-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    first = screen.prompt.to_act if screen.prompt else None
    said: list[str] = []

    def answer(dialog: InputDialog) -> int:
        dialog.edits["to"].setText("$6.66")
        try:
            dialog.attempt()
        except Exception as refusal:  # (the dialog shows it and stays open)
            said.append(str(refusal))
        assert not dialog.recorded
        dialog.edits["to"].setText("$7")
        dialog.attempt()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(InputDialog, "exec", answer)
    n = len(screen.c.now.replay.steps)
    raise_button = screen.actions.button_for("raise")
    assert raise_button is not None
    qtbot.mouseClick(raise_button, Qt.MouseButton.LeftButton)
    assert said and "a raise to $6.66 is not a whole number of the table's $1.00 smallest " \
        "chip: make it $6 or $7" in said[0]
    assert len(screen.c.now.replay.steps) == n + 1, screen.refusal.text()
    bodies = [e.body for e in svc.hand_events(screen.c.now.hand.id)]
    assert bodies[-1] == {"type": "raise", "seat": first, "to": 700}
    assert not any(b.get("to") == 666 for b in bodies)
