"""One key table drives the dealer's keys and F1's help (issue 42, item 5): every key in
``dealer_assist.ui.keys.DEALER_KEYS`` is taken by the screen on the pages it names and runs the
method it names, F1 lists exactly the table's rows, and a key added to the table is both taken
and shown."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.services import Services
from dealer_assist.ui import keys as key_table
from dealer_assist.ui.dealer_window import DealerScreen
from dealer_assist.ui.keys import DEALER_KEYS, PAGES, KeyRow, Press, key_tables
from dealer_assist.ui.qt import Qt
from dealer_assist.ui.station import KeysDialog
from tests.ui.test_dealer_champs import open_screen

#: What a test types for a press that is known by what it types.
TYPED = {"digit": "3", "letter": "q", "printable": "h"}


def _send(qtbot: Any, screen: DealerScreen, press: Press) -> None:
    """The key ``press`` names, sent to the screen."""
    if press.typed:
        qtbot.keyClicks(screen, TYPED[press.typed])
    elif press.undo:
        qtbot.keyClick(screen, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    else:
        assert press.key is not None
        mods = (Qt.KeyboardModifier.ShiftModifier if press.shift
                else Qt.KeyboardModifier.NoModifier)
        qtbot.keyClick(screen, press.key, mods)


def _screen_presses() -> list[tuple[Press, str]]:
    """Each press the screen's own key handler takes (not a child box's), on each of its pages."""
    return [(p, page) for row in DEALER_KEYS for p in row.presses if not p.widget
            for page in (p.pages or PAGES)]


def test_every_key_of_the_table_runs_its_method_on_each_page_it_names(
    qtbot: Any, memory_services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = open_screen(qtbot, memory_services)
    ran: list[str] = []
    for press, page in _screen_presses():
        ran.clear()
        with monkeypatch.context() as m:
            m.setattr(screen, press.method, lambda *_a, _n=press.method: ran.append(_n))
            screen.pages.setCurrentIndex(PAGES.index(page))
            _send(qtbot, screen, press)
        assert ran == [press.method], f"{press.name} on the {page} page"


def test_f1_lists_exactly_the_rows_of_the_key_table() -> None:
    (heading, rows), _everywhere = key_tables("dealer-screen")
    assert heading == "Keys of the Table screen"
    assert rows == tuple((row.keys, row.does) for row in DEALER_KEYS)
    # each row's keys are its presses' names, and nothing else: the help lists no key the
    # table lacks
    for row, (keys, _does) in zip(DEALER_KEYS, rows, strict=True):
        assert keys == ", ".join(dict.fromkeys(p.name for p in row.presses))
    text = KeysDialog("dealer-screen").text()
    for keys, does in rows:
        assert f"{keys}: {does}" in text
    assert "F5, Shift+F5: send the input kept after a database failure; drop it (logged)" in text


def test_every_method_and_box_the_table_names_is_on_the_screen(
    qtbot: Any, memory_services: Services
) -> None:
    screen = open_screen(qtbot, memory_services)
    for row in DEALER_KEYS:
        for p in row.presses:
            assert callable(getattr(DealerScreen, p.method, None)), p.method
            assert bool(p.key) + bool(p.typed) + p.undo == 1 or p.widget, p.name
            assert not p.widget or getattr(screen, p.widget, None) is not None, p.widget
            assert set(p.pages) <= set(PAGES), p.pages


def test_a_key_added_to_the_table_is_taken_by_the_screen_and_shown_by_f1(
    qtbot: Any, memory_services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = open_screen(qtbot, memory_services)
    ran: list[str] = []
    monkeypatch.setattr(DealerScreen, "_spy_key", lambda self: ran.append("F11"), raising=False)
    row = KeyRow((Press("F11", "_spy_key", key=Qt.Key.Key_F11),), "a key added in one place")
    monkeypatch.setattr(key_table, "DEALER_KEYS", (*DEALER_KEYS, row))
    qtbot.keyClick(screen, Qt.Key.Key_F11)
    assert ran == ["F11"]
    assert ("F11", "a key added in one place") in key_tables("dealer-screen")[0][1]
    assert "F11: a key added in one place" in KeysDialog("dealer-screen").text()


def test_shift_f5_drops_and_f5_sends_whatever_the_order_of_the_presses(
    qtbot: Any, memory_services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F5 with Shift held is the drop only; without it, the retry only (the row lists F5
    first: each press says whether Shift is held, so the order of the presses does not
    matter)."""
    screen = open_screen(qtbot, memory_services)
    ran: list[str] = []
    monkeypatch.setattr(screen, "drop_kept", lambda: ran.append("drop"))
    monkeypatch.setattr(screen, "retry", lambda: ran.append("retry"))
    qtbot.keyClick(screen, Qt.Key.Key_F5, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert ran == ["drop", "retry"]
