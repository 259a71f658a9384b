"""The screen is generic: a game it has no code for (open-face Chinese poker) is dealt from its
prompt alone: a card typed, then the row's letter (9s then B)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.engine.hand import read_log
from dealer_assist.games.ofc.events import Place
from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import open_screen

OFC_TABLE: dict[str, Any] = {
    "name": "OFC-1", "game": "ofc", "seats": 2, "smallest_chip": 100,
    "params": {"unit": 100, "royalties": "rules-text"},
}


def test_ofc_example_dealt_with_card_then_row_letter(
    qtbot: Any, memory_services: Services, examples_dir: Path
) -> None:
    svc = memory_services
    ada = svc.sign_in("ada", "9999")
    svc.add_table(ada, OFC_TABLE)
    screen = open_screen(qtbot, svc, table="OFC-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    events, _ = read_log(examples_dir / "ofc-two-players.jsonl")
    assert screen.c.now.replay.start.get("button") == events[0].get("button")
    for i, ev in enumerate(events[1:], start=2):
        assert isinstance(ev, Place)
        assert screen.table.view is not None and screen.table.view.to_act == ev.seat
        button = screen.actions.button_for("place")
        assert button is not None and "[" in button.text()
        qtbot.keyClicks(screen.cards.input, ev.card.code.lower() + ev.row[0])
        assert len(screen.c.now.replay.steps) == i, (
            f"{ev.to_line()} not recorded: {screen.cards.error.text()}")
        assert screen.cards.input.text() == ""
    assert screen.c.now.over
    assert screen.push.totals.text().startswith("In all:")
    rows = [r.body for r in svc.hand_events(screen.c.now.hand.id)]
    assert rows[1:] == [e.to_json() for e in events[1:]]


def test_regression_ofc_letter_of_a_full_row_is_refused_not_typed(
    qtbot: Any, memory_services: Services, examples_dir: Path
) -> None:
    """A card, then the letter of a row that is full: refused with the reason under the box,
    and the letter does not go into the box ("Jcm")."""
    from dealer_assist.cards import full_deck

    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), OFC_TABLE)
    screen = open_screen(qtbot, svc, table="OFC-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    events, _ = read_log(examples_dir / "ofc-two-players.jsonl")
    used = {ev.card.code for ev in events[1:] if isinstance(ev, Place)}
    spare = next(c.code for c in full_deck() if c.code not in used).lower()
    for ev in events[1:]:
        assert isinstance(ev, Place) and screen.c.now is not None
        prompt = screen.prompt
        assert prompt is not None
        full = [a for a in prompt.actions if a.label.startswith("middle") and not a.enabled]
        if full or not any(a.label.startswith("middle") for a in prompt.actions):
            qtbot.keyClicks(screen.cards.input, spare + "m")
            assert screen.cards.input.text() == spare
            assert screen.cards.error.isVisible() and screen.cards.error.text()
            screen.cards.input.clear()
            return
        qtbot.keyClicks(screen.cards.input, ev.card.code.lower() + ev.row[0])
    raise AssertionError("the middle row never filled in the example")


def test_action_letter_typed_in_the_empty_card_box_is_the_action(
    qtbot: Any, memory_services: Services
) -> None:
    """A letter no card starts with goes to the screen's keys, not into the card box."""
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.cards.input.hasFocus() or screen.cards.count
    qtbot.keyClicks(screen.cards.input, "w")
    assert screen.cards.input.text() == ""
    assert '"w" is not a card' in screen.cards.error.text() or screen.refusal.isVisible()


def test_regression_no_child_widget_of_the_dealer_screen_keeps_a_python_callable(
    qtbot: Any, memory_services: Services
) -> None:
    """Python callbacks stored on child widgets (the card box's letter handlers) made
    Python<->Qt reference cycles, and the collector once freed a dialog Qt still used (a
    crash). The card box now looks the screen's handlers up at each key: no child widget
    keeps a function or bound method, and the letters still reach the screen."""
    import gc
    import types

    from dealer_assist.ui.qt import QWidget

    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    kept = [
        (type(w).__name__, w.objectName(), k)
        for w in screen.findChildren(QWidget)
        for k, v in vars(w).items()
        if isinstance(v, types.FunctionType | types.MethodType)
    ]
    assert kept == []
    gc.collect()  # nothing the screen still uses goes with it
    qtbot.keyClicks(screen.cards.input, "w")
    assert screen.cards.input.text() == ""
    assert '"w" is not a card' in screen.cards.error.text() or screen.refusal.isVisible()


def test_regression_refused_rows_keep_the_form_open_with_the_cards_typed(
    qtbot: Any, memory_services: Services
) -> None:
    """A hand set into rows that the game refuses (a card already held by another seat): the
    form stays open, every row typed is kept, and the refusal names the card; fixing that one
    card records the hand."""
    from tests.ui.conftest import answer_next_dialog, click_ok

    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), {
        "name": "CP-1", "game": "chinese-poker", "seats": 2, "smallest_chip": 100,
        "params": {"unit": 100}})
    screen = open_screen(qtbot, svc, table="CP-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    first = ("2c 3c 4c", "5c 6c 7c 8c 9c", "tc jc qc kc ac")
    second = ("2d 3d 4d", "5d 6d 7d 8d 9d", "td jd qd kd 2c")  # 2c is seat 1's
    seen: dict[str, Any] = {}

    def fill(rows: tuple[str, str, str], check: bool) -> Any:
        def go(dlg: Any) -> None:
            for name, text in zip(("front", "middle", "back"), rows, strict=True):
                dlg.edits[name].setText(text)
            click_ok(qtbot, dlg)
            if check:
                seen["open"] = dlg.isVisible()
                seen["error"] = dlg.error.text()
                seen["kept"] = [dlg.edits[n].text() for n in ("front", "middle", "back")]
                dlg.edits["back"].setText("td jd qd kd ad")
                click_ok(qtbot, dlg)
                seen["closed"] = not dlg.isVisible()
        return go

    for seat, rows, check in ((1, first, False), (2, second, True)):
        button = screen.actions.button_for("set", seat)
        assert button is not None
        answer_next_dialog(qtbot, fill(rows, check))
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert seen["open"] and seen["closed"]
    assert "2c" in seen["error"] or "2♣" in seen["error"], seen["error"]
    assert seen["kept"] == list(second)
    bodies = [r.body for r in svc.hand_events(screen.c.now.hand.id)]
    assert [b["type"] for b in bodies] == ["start", "set", "set"]
