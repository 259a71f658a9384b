"""Stacks for the next hand (games played with stacks, such as Caro Hold 'em).

Each seat shows what it will start with if nothing is bought: what it left the last hand with,
or the table's buy-in. The dealer types a new amount for a rebuy, an add-on or a new player; a
seat with nothing left must rebuy or be left out of the hand. The amounts go into the next start
event, and every one that differs is written to the audit log when the hand starts.
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.qt import QLabel, QLineEdit, QWidget


class StacksDialog(_Dialog):
    """One line per seat, prefilled; OK keeps the seats whose amount was changed."""

    def __init__(
        self, stacks: Mapping[int, int], seats: tuple[int, ...],
        changed: Mapping[int, int] | None = None, parent: QWidget | None = None,
    ) -> None:
        super().__init__("Stacks for the next hand", parent, ok="Use these stacks")
        self.defaults = dict(stacks)
        note = QLabel(
            "What each seat starts the next hand with: what it has left from the last hand, or "
            "the buy-in. Type the new amount for a rebuy, an add-on or a new player (e.g. "
            "1000 or 1,000.00)."
        )
        note.setWordWrap(True)
        self.lay.insertWidget(1, note)
        self.edits: dict[int, QLineEdit] = {}
        given = dict(changed or {})
        for seat in seats:
            edit = QLineEdit()
            edit.setObjectName(f"stack-{seat}")
            default = self.defaults.get(seat)
            value = given.get(seat, default)
            edit.setText("" if value is None else format_cents(value))
            if default is None:
                edit.setPlaceholderText("the player's buy-in")
            label = f"Seat {seat}"
            if default == 0:
                label += " (no chips left: rebuy or leave out)"
            elif default is not None:
                label += f" (has {format_cents(default)})"
            self.form.addRow(label, edit)
            self.edits[seat] = edit
        #: After OK: the seats whose stack differs from what they would start with.
        self.stacks: dict[int, int] = {}

    def attempt(self) -> None:
        out: dict[int, int] = {}
        for seat, edit in self.edits.items():
            text = edit.text().strip()
            if not text:
                if self.defaults.get(seat) is None:
                    raise BadInput(f"seat {seat}: type the player's buy-in")
                continue
            try:
                cents = parse_cents(text)
            except DealerAssistError as exc:
                raise BadInput(f"seat {seat}: {exc}") from exc
            if cents <= 0:
                raise BadInput(f"seat {seat}: a stack must be more than nothing; leave the "
                               "seat out of the hand instead (type the seats to deal)")
            if cents != self.defaults.get(seat):
                out[seat] = cents
        self.stacks = out
