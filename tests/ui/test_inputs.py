"""One widget per kind of typed input: the input dialog gives back the event fields, and
refuses what the input does not allow."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Amount, Cards, Choice, Dice, Rows
from dealer_assist.errors import BadInput
from dealer_assist.ui.inputs import InputDialog, asks_dialog, cards_needed
from dealer_assist.ui.qt import Qt


def _dialog(qtbot: Any, value: Any) -> InputDialog:
    d = InputDialog(Action("x", "Seat 1", seat=1, input=value))
    qtbot.addWidget(d)
    return d


def test_cards_of_a_count_go_to_the_card_entry_the_rest_to_the_dialog() -> None:
    assert cards_needed(Action("board", "Flop", input=Cards(2, 2))) == 2
    assert cards_needed(Action("card", "Card", seat=1, input=Cards(1, 1, field="card"))) == 1
    assert cards_needed(Action("discard", "Discard", seat=1, input=Cards(1, 3, unseen=True))) == 0
    for value in (Rows(), Choice("kind", ("dragon",)), Amount("to", 400, 1400), Dice(5)):
        assert asks_dialog(Action("x", "x", input=value))
    assert not asks_dialog(Action("board", "Flop", input=Cards(2, 2)))


def test_rows_give_each_row_its_cards(qtbot: Any) -> None:
    d = _dialog(qtbot, Rows())
    for name, text in (("front", "As Ad 2c"), ("middle", "Kh Kd Ks 3c 4d"),
                       ("back", "9h 9d 9c 8s 8c")):
        d.edits[name].setText(text)
    d.attempt()
    assert d.fields["front"] == parse_cards("As Ad 2c")
    d.edits["front"].setText("As Ad")
    with pytest.raises(BadInput, match="the front row takes 3 cards, not 2"):
        d.attempt()


def test_choice_among_options(qtbot: Any) -> None:
    d = _dialog(qtbot, Choice("kind", ("dragon", "six-pairs")))
    assert d.choice is not None
    d.choice.setCurrentIndex(1)
    d.attempt()
    assert d.fields == {"kind": "six-pairs"}


def test_amount_within_its_range_and_step(qtbot: Any) -> None:
    d = _dialog(qtbot, Amount("to", 400, 1400, step=100))
    d.edits["to"].setText("$9")
    d.attempt()
    assert d.fields == {"to": 900}
    d.edits["to"].setText("9.50")
    with pytest.raises(BadInput, match=r"give \$4 to \$14 in steps of \$1, not \$9.50"):
        d.attempt()
    tricks = _dialog(qtbot, Amount("tricks", 0, 10, money=False))
    tricks.edits["tricks"].setText("6")
    tricks.attempt()
    assert tricks.fields == {"tricks": 6}


def test_dice_as_rolled(qtbot: Any) -> None:
    d = _dialog(qtbot, Dice(3))
    d.edits["dice"].setText("6 5 2")
    d.attempt()
    assert d.fields == {"dice": (6, 5, 2)}
    d.edits["dice"].setText("6 7 2")
    with pytest.raises(BadInput, match="a die shows 1 to 6"):
        d.attempt()


def test_regression_enter_on_a_prefilled_reason_records_it(qtbot: Any) -> None:
    """Kill's reason box opens with a reason chosen; Enter records it (it only deselected the
    text, and what was typed next joined the reason)."""
    d = InputDialog(Action("kill", "Kill seat 2's hand", seat=2,
                           input=Choice("reason", ("missed discard",), free=True)))
    qtbot.addWidget(d)
    d.show()
    assert d.choice is not None and d.choice.currentText() == "missed discard"
    d.choice.setFocus()
    d.choice.lineEdit().selectAll()
    with qtbot.waitSignal(d.accepted, timeout=1000):
        qtbot.keyClick(d.choice, Qt.Key.Key_Return)
    assert d.fields == {"reason": "missed discard"}


def test_card_entry_takes_the_same_card_twice_and_jokers_only_when_the_input_does(
    qtbot: Any,
) -> None:
    from dealer_assist.cards import Card
    from dealer_assist.ui.card_entry import CardEntry
    from dealer_assist.ui.qt import Qt

    entry = CardEntry()
    qtbot.addWidget(entry)
    got: list[Any] = []
    entry.submitted.connect(got.append)
    entry.expect(3, "Meld")
    qtbot.keyClicks(entry.input, "qs")
    qtbot.keyClick(entry.input, Qt.Key.Key_Return)
    qtbot.keyClicks(entry.input, "qs")
    qtbot.keyClick(entry.input, Qt.Key.Key_Return)
    assert entry.error.text() == "Q♠ is entered twice"
    assert entry.picker.joker.isHidden()
    entry.expect(3, "Meld (two decks)", repeats=True, jokers=True)
    assert not entry.picker.joker.isHidden()
    for text in ("qs", "qs"):
        entry.input.clear()
        qtbot.keyClicks(entry.input, text)
        qtbot.keyClick(entry.input, Qt.Key.Key_Return)
    entry.picker.joker.setEnabled(True)
    qtbot.mouseClick(entry.picker.joker, Qt.MouseButton.LeftButton)
    assert got == [(*parse_cards("Qs Qs"), Card.joker())]
