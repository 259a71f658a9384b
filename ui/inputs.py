"""One widget per kind of typed input (``dealer_assist.engine.inputs``), so a game's actions
need no change to the screen.

Cards of an exact count go to the card entry (typed or picked; :func:`cards_needed`); a discard
that may be face down goes to the discard chooser; every other input is asked for by one
:class:`InputDialog`, which lays out the widget of each input kind and gives back the event
fields it fills: a row of cards per named row (three-row hands, melds), a list to choose from (a
natural, a bid, a contract), an amount within its range and step (a raise ``to`` in dollars, or
a count such as tricks), or the dice as rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Amount, Choice, Dice, Input, Rows
from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.panels import needs_cards
from dealer_assist.ui.qt import QComboBox, QLineEdit, QWidget

#: How many cards an action takes from the card entry (0: none, or chosen elsewhere).
cards_needed = needs_cards


def asks_dialog(action: Action) -> bool:
    """Whether the action's input is asked for by :class:`InputDialog`."""
    return isinstance(action.input, Rows | Choice | Amount | Dice)


class InputDialog(_Dialog):
    """The input of one action, in the widget of its kind; :attr:`fields` holds the event
    fields it fills once accepted."""

    def __init__(self, action: Action, parent: QWidget | None = None, *,
                 submit: Callable[[dict[str, Any]], str] | None = None) -> None:
        super().__init__(action.label, parent, ok="Record")
        self.input: Input | None = action.input
        self.fields: dict[str, Any] = {}
        #: With ``submit`` the dialog records the input itself (``submit`` returns "" when
        #: done, or the refusal): a refused input is said inside the dialog, which stays open
        #: with everything typed (a fantasyland set's 13 cards), so one card can be fixed.
        self.submit = submit
        self.recorded = False
        self.edits: dict[str, QLineEdit] = {}
        self.choice: QComboBox | None = None
        value = self.input
        if isinstance(value, Rows):
            for name, low, high in value.rows:
                e = QLineEdit()
                e.setObjectName(f"rows-{name}")
                count = str(low) if low == high else f"{low} to {high}"
                e.setPlaceholderText(f"{count} cards, e.g. "
                                     + " ".join(["As", "Kd", "9h", "9c", "2s"][:max(low, 1)]))
                self.form.addRow(name.capitalize(), e)
                self.edits[name] = e
        elif isinstance(value, Choice):
            box = QComboBox()
            box.setObjectName(value.field)
            box.setEditable(value.free or not value.options)
            box.addItems(list(value.options))
            self.form.addRow("Which", box)
            self.choice = box
        elif isinstance(value, Amount):
            e = QLineEdit()
            e.setObjectName(value.field)
            low, high = self._shown(value, value.low), self._shown(value, value.high)
            step = f" in steps of {self._shown(value, value.step)}" if value.step > 1 else ""
            e.setPlaceholderText(f"{low} to {high}{step}")
            self.form.addRow(value.field.replace("_", " ").capitalize(), e)
            self.edits[value.field] = e
        elif isinstance(value, Dice):
            e = QLineEdit()
            e.setObjectName(value.field)
            e.setPlaceholderText(f"{value.count} dice, e.g. " + " ".join("6523"[: value.count]))
            self.form.addRow("Dice", e)
            self.edits[value.field] = e

    @staticmethod
    def _shown(amount: Amount, n: int) -> str:
        return format_cents(n) if amount.money else str(n)

    def attempt(self) -> None:
        from dealer_assist.cards import parse_cards

        value = self.input
        out: dict[str, Any] = {}
        if isinstance(value, Rows):
            for name, low, high in value.rows:
                cards = parse_cards(self.edits[name].text())
                if not low <= len(cards) <= high:
                    count = str(low) if low == high else f"{low} to {high}"
                    raise BadInput(f"the {name} row takes {count} cards, not {len(cards)}")
                out[name] = cards
        elif isinstance(value, Choice):
            assert self.choice is not None
            text = self.choice.currentText().strip()
            if not text:
                raise BadInput("say which one")
            if value.options and not value.free and text not in value.options:
                raise BadInput(f"choose one of {', '.join(value.options)}")
            out[value.field] = text
        elif isinstance(value, Amount):
            text = self.edits[value.field].text().strip()
            try:
                n = parse_cents(text) if value.money else int(text)
            except ValueError as exc:
                raise BadInput(f"{text!r} is not an amount") from exc
            if not value.allows(n):
                step = (f" in steps of {self._shown(value, value.step)}"
                        if value.step > 1 else "")
                raise BadInput(f"give {self._shown(value, value.low)} to "
                               f"{self._shown(value, value.high)}{step}, not "
                               f"{self._shown(value, n)}")
            out[value.field] = n
        elif isinstance(value, Dice):
            text = self.edits[value.field].text().replace(",", " ").split()
            if len(text) != value.count or not all(t.isdigit() for t in text):
                raise BadInput(f"give the {value.count} dice as numbers, e.g. 6 5 2")
            dice = tuple(int(t) for t in text)
            if any(not 1 <= d <= value.faces for d in dice):
                raise BadInput(f"a die shows 1 to {value.faces}")
            out[value.field] = dice
        self.fields = out
        if self.submit is not None:
            refusal = self.submit(out)
            if refusal:
                raise BadInput(refusal)
            self.recorded = True
