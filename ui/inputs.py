"""One widget per kind of typed input (``dealer_assist.engine.inputs``), so a game's actions
need no change to the screen.

Cards of an exact count go to the card entry (typed or picked; :func:`cards_needed`); a discard
that may be face down goes to the discard chooser (:func:`takes_discard`); every other action
with inputs is asked for by one :class:`InputDialog`, which lays out one widget per input, in
the action's order, and gives back what each fills, by field: cards (a range, two named single
cards, the same card twice with two decks, jokers), a row of cards per named row (three-row
hands, melds), a list to choose from (a natural, a bid, a combination), an amount within its
range and step (a raise ``to`` in dollars, or a count such as tricks), dice as rolled at the
table, or a value the app draws (shown here before it is recorded). The event itself is built
by the engine (:func:`dealer_assist.engine.build.build_event`), which checks each value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dealer_assist.engine.base import Action
from dealer_assist.engine.build import SYSTEM_RANDOM, check_value
from dealer_assist.engine.inputs import Amount, Cards, Choice, Dice, Drawn, Input, Rows
from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.panels import needs_cards
from dealer_assist.ui.qt import QComboBox, QLabel, QLineEdit, QWidget

#: How many cards an action takes from the card entry (0: none, or chosen elsewhere).
cards_needed = needs_cards


def takes_discard(action: Action) -> bool:
    """Whether the action is a discard that may be face down (the discard chooser)."""
    value = action.input
    return len(action.inputs) == 1 and isinstance(value, Cards) and value.unseen


def deck_of(action: Action) -> dict[str, bool]:
    """How the card entry takes the action's cards: the same card twice (two decks), jokers."""
    value = action.input
    if isinstance(value, Cards):
        return {"repeats": value.repeats, "jokers": value.jokers}
    return {"repeats": False, "jokers": False}


def asks_dialog(action: Action) -> bool:
    """Whether the action's inputs are asked for by :class:`InputDialog`: any input but one
    exact count of cards for the card entry or a face-down discard."""
    return bool(action.inputs) and not needs_cards(action) and not takes_discard(action)


def _title(field: str) -> str:
    return field.replace("_", " ").capitalize()


class InputDialog(_Dialog):
    """The inputs of one action, each in the widget of its kind; :attr:`fields` holds what
    they fill, by event field, once accepted."""

    def __init__(self, action: Action, parent: QWidget | None = None, *,
                 submit: Callable[[dict[str, Any]], str] | None = None,
                 drawn: Mapping[str, Any] | None = None) -> None:
        super().__init__(action.label, parent, ok="Record")
        self.action = action
        self.inputs: tuple[Input, ...] = action.inputs
        self.input: Input | None = action.input
        self.fields: dict[str, Any] = {}
        #: With ``submit`` the dialog records the input itself (``submit`` returns "" when
        #: done, or the refusal): a refused input is said inside the dialog, which stays open
        #: with everything typed (a fantasyland set's 13 cards), so one card can be fixed.
        self.submit = submit
        self.recorded = False
        self.edits: dict[str, QLineEdit] = {}
        self.choices: dict[str, QComboBox] = {}
        self.choice: QComboBox | None = None
        #: Values the app drew for this action, shown before they are recorded: ``drawn`` as
        #: given (drawn by the services, on the record before they are shown).
        self.drawn: dict[str, Any] = {}
        self._given_drawn = dict(drawn or {})
        for value in self.inputs:
            self._lay_out(value)

    def _lay_out(self, value: Input) -> None:
        if isinstance(value, Rows):
            for name, low, high in value.rows:
                e = QLineEdit()
                e.setObjectName(f"rows-{name}")
                count = str(low) if low == high else f"{low} to {high}"
                e.setPlaceholderText(f"{count} cards, e.g. "
                                     + " ".join(["As", "Kd", "9h", "9c", "2s"][:max(low, 1)]))
                self.form.addRow(name.capitalize(), e)
                self.edits[name] = e
        elif isinstance(value, Cards):
            e = QLineEdit()
            e.setObjectName(value.field)
            count = str(value.low) if value.exact is not None else f"{value.low} to {value.high}"
            more = (", the same card twice if two decks" if value.repeats else "") + (
                ", Jk for a joker" if value.jokers else "")
            e.setPlaceholderText(f"{count} {'card' if value.high == 1 else 'cards'}, e.g. "
                                 + " ".join(["As", "Kd", "9h", "9c", "2s"][:max(value.low, 1)])
                                 + more)
            self.form.addRow(_title(value.field), e)
            self.edits[value.field] = e
        elif isinstance(value, Choice):
            box = QComboBox()
            box.setObjectName(value.field)
            box.setEditable(value.free or not value.options)
            box.addItems(list(value.options))
            self.form.addRow("Which" if value.field in ("kind", "reason") else
                             _title(value.field), box)
            self.choices[value.field] = box
            if self.choice is None:
                self.choice = box
        elif isinstance(value, Amount):
            e = QLineEdit()
            e.setObjectName(value.field)
            lo, hi = self._shown(value, value.low), self._shown(value, value.high)
            step = f" in steps of {self._shown(value, value.step)}" if value.step > 1 else ""
            e.setPlaceholderText(f"{lo} to {hi}{step}")
            self.form.addRow(_title(value.field), e)
            self.edits[value.field] = e
        elif isinstance(value, Dice):
            e = QLineEdit()
            e.setObjectName(value.field)
            top = value.low + (value.faces - 1) * value.step
            e.setPlaceholderText(f"{value.count} {'die' if value.count == 1 else 'dice'}, "
                                 f"{value.low} to {top}")
            self.form.addRow("Dice" if value.field == "dice" else _title(value.field), e)
            self.edits[value.field] = e
        elif isinstance(value, Drawn):
            got = (self._given_drawn[value.field] if value.field in self._given_drawn
                   else value.draw(SYSTEM_RANDOM, single=value.count == 1 and not value.among))
            self.drawn[value.field] = got
            shown = " ".join(map(str, got)) if isinstance(got, tuple) else str(got)
            label = QLabel(f"{shown}  (drawn by the app)")
            label.setObjectName(f"drawn-{value.field}")
            self.form.addRow(_title(value.field), label)

    @staticmethod
    def _shown(amount: Amount, n: int) -> str:
        return format_cents(n) if amount.money else str(n)

    def attempt(self) -> None:
        from dealer_assist.cards import parse_cards

        out: dict[str, Any] = {}
        label = self.action.label
        for value in self.inputs:
            if isinstance(value, Rows):
                for name, low, high in value.rows:
                    cards = parse_cards(self.edits[name].text())
                    if not low <= len(cards) <= high:
                        count = str(low) if low == high else f"{low} to {high}"
                        raise BadInput(f"the {name} row takes {count} cards, not {len(cards)}")
                    out[name] = cards
            elif isinstance(value, Cards):
                cards = parse_cards(self.edits[value.field].text())
                check_value(value, value.field, cards, label)
                out[value.field] = cards
            elif isinstance(value, Choice):
                text = self.choices[value.field].currentText().strip()
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
                words = self.edits[value.field].text().replace(",", " ").split()
                if len(words) != value.count or not all(t.isdigit() for t in words):
                    raise BadInput(f"give the {value.count} dice as numbers, e.g. 6 5 2")
                dice = tuple(int(t) for t in words)
                if not all(value.allows(d) for d in dice):
                    top = value.low + (value.faces - 1) * value.step
                    raise BadInput(f"a die shows {value.low} to {top}")
                out[value.field] = dice
            elif isinstance(value, Drawn):
                out[value.field] = self.drawn[value.field]
        self.fields = out
        if self.submit is not None:
            refusal = self.submit(out)
            if refusal:
                raise BadInput(refusal)
            self.recorded = True
