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
