"""The action bar: one button per action of the prompt, each with its key, grouped by kind
when there are many, laid out in rows that wrap (``FlowLayout``)."""

from __future__ import annotations

import re

from dealer_assist.engine.base import Action, Prompt
from dealer_assist.engine.inputs import Cards
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QFrame,
    QLabel,
    QLayout,
    QLayoutItem,
    QPoint,
    QPushButton,
    QRect,
    QSize,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)


def needs_cards(action: Action) -> int:
    """How many cards an action takes from the card entry (0: none; discards are chosen), from
    its typed input."""
    value = action.input
    if (len(action.inputs) == 1 and isinstance(value, Cards) and not value.unseen
            and value.exact is not None):
        return value.exact
    return 0


def shortcut(action: Action) -> str:
    """The action's keyboard letter: its key, or the first letter of a word key ("back")."""
    return action.key[:1].lower() if action.key else ""


def action_keys(prompt: Prompt) -> list[str]:
    """The keys of the prompt's actions, as their buttons show them: the action's letter
    ("C"); where several seats have an action of one letter, the letter alone is the seat to
    act's and every other seat's is its number, then the letter ("3 X") (with no seat to act,
    the letter alone still takes the first); an action that takes cards and has no letter is
    entered with Enter after the cards."""
    letters = [shortcut(a) for a in prompt.actions]
    out: list[str] = []
    for a, letter in zip(prompt.actions, letters, strict=True):
        if not letter:
            out.append("⏎" if needs_cards(a) else "")
            continue
        same = [b for b, m in zip(prompt.actions, letters, strict=True) if m == letter]
        first = next((b for b in same if b.seat == prompt.to_act), None)
        if a is first or a.seat is None or len(same) == 1:
            out.append(letter.upper())
        else:
            out.append(f"{a.seat} {letter.upper()}")
    return out


def button_text(action: Action, key: str | None = None) -> str:
    """The label with the amount when the label does not already say it, and the key."""
    text = action.label
    if action.amount and format_cents(action.amount) not in text:
        text += f"  {format_cents(action.amount)}"
    key = key if key is not None else shortcut(action).upper()
    if key:
        text += f"  [{key}]"
    return text


class FlowLayout(QLayout):
    """Buttons in rows that wrap to the width there is, so a prompt of many actions (one per
    seat) takes more rows, never more width than the screen."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 8) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, i: int) -> QLayoutItem | None:
        return self._items[i] if 0 <= i < len(self._items) else None

    def takeAt(self, i: int) -> QLayoutItem | None:
        return self._items.pop(i) if 0 <= i < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _place(self, rect: QRect, *, move: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_h = area.x(), area.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and row_h:
                x, y, row_h = area.x(), y + row_h + self._spacing, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            row_h = max(row_h, hint.height())
        return y + row_h - rect.y() + m.bottom()


#: Past this many actions of a kind shared by seats, the bar groups them under a heading.
GROUP_OVER = 12


def kind_heading(action: Action) -> str:
    """An action's label without its seat, as the heading of every seat's button of that
    kind ("Seat 3 discards" -> "Discards:", "Kill seat 3 (no discard)" -> "Kill (no
    discard):")."""
    text = re.sub(r"\s*\b[Ss]eat \d+('s)?:?", "", action.label).strip()
    return (text[:1].upper() + text[1:] or action.kind) + ":"


class ActionBar(QFrame):
    """A big button per action of the prompt; a disabled one says why beside it."""

    chosen = Signal(object)
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        self.actions_: tuple[Action, ...] = ()
        self.buttons: list[QPushButton] = []
        self.keys: list[str] = []
        self.group_labels: list[QLabel] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        self.row = FlowLayout(spacing=10)
        lay.addLayout(self.row)
        self.reasons = QLabel("")
        self.reasons.setObjectName("action-reasons")
        self.reasons.setWordWrap(True)
        lay.addWidget(self.reasons)

    def show_prompt(self, prompt: Prompt | None) -> None:
        for b in self.buttons:
            self.row.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.buttons = []
        while self.row.count():
            self.row.takeAt(0)
        for lab in self.group_labels:
            lab.hide()
            lab.deleteLater()
        self.group_labels = []
        self.actions_ = prompt.actions if prompt is not None else ()
        self.keys = action_keys(prompt) if prompt is not None else []
        # many actions (one per seat): smaller buttons, in rows that wrap
        compact = "true" if len(self.actions_) > 6 else "false"
        # very many (a discard and a Kill for each of nine seats): one heading per kind and
        # a short button per seat, so the bar leaves the table its room
        grouped = sum(1 for a in self.actions_ if self._dup(a)) > GROUP_OVER
        why = []
        for i, action in enumerate(self.actions_):
            if grouped and self._dup(action) and action.seat is not None:
                first = next(a for a in self.actions_ if a.kind == action.kind)
                if action is first:
                    head = QLabel(kind_heading(action))
                    head.setObjectName(f"action-group-{action.kind}")
                    head.setStyleSheet("font-weight: bold;")
                    self.row.addWidget(head)
                    self.group_labels.append(head)
                text = f"{action.seat}  [{self.keys[i]}]"
            else:
                text = button_text(action, self.keys[i])
            b = QPushButton(text)
            b.setAccessibleName(action.label)
            b.setProperty("compact", compact)
            b.setObjectName(f"action-{action.kind}" + (f"-{action.seat}" if self._dup(action)
                                                      else ""))
            b.setProperty("role", "action")
            if i == 0 and action.enabled:
                b.setProperty("role", "action")
            b.setEnabled(action.enabled)
            tip = action.reason if not action.enabled else ""
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, a=action: self.chosen.emit(a))
            self.row.addWidget(b)
            self.buttons.append(b)
            if not action.enabled and action.reason:
                why.append(f"{action.label}: {action.reason}")
        self.reasons.setText("\n".join(why))
        self.reasons.setVisible(bool(why))

    def _dup(self, action: Action) -> bool:
        return sum(1 for a in self.actions_ if a.kind == action.kind) > 1

    def trigger_key(self, key: str) -> bool:
        """The action bound to ``key`` (case-insensitive); a disabled one reports why."""
        for action in self.actions_:
            if action.key and shortcut(action) == key.lower():
                if action.enabled:
                    self.chosen.emit(action)
                else:
                    self.refused.emit(f"{action.label}: {action.reason}")
                return True
        return False

    def button_for(self, kind: str, seat: int | None = None) -> QPushButton | None:
        for a, b in zip(self.actions_, self.buttons, strict=True):
            if a.kind == kind and (seat is None or a.seat == seat):
                return b
        return None
