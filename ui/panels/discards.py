"""The discard chooser: how many cards a seat keeps, or a discard face down."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.engine.base import Action, Prompt
from dealer_assist.engine.inputs import Cards
from dealer_assist.ui.panels.actions import FlowLayout
from dealer_assist.ui.qt import (
    QFrame,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
    Signal,
)


class DiscardPanel(QFrame):
    """Choose how many cards to keep, with the price of each wager for that count; then the
    discarded cards are entered (face up) or only counted (unseen)."""

    keep_chosen = Signal(int)
    unseen_chosen = Signal(int)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        self.held = 0
        self.keep: int | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        self.title = QLabel("")
        self.title.setObjectName("discard-title")
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.title)
        # the kept counts, then face down and Back, in one row that wraps only when it must:
        # at 1280x800 the side panel's card box needs the height
        self.row = FlowLayout(spacing=8)
        lay.addLayout(self.row)
        self.unseen = QPushButton("Face down (count only)  [U]")
        self.unseen.setObjectName("discard-unseen")
        self.unseen.clicked.connect(self._unseen)
        self.cancel = QPushButton("Back  [Esc]")
        self.cancel.setObjectName("discard-cancel")
        self.cancel.clicked.connect(self.cancelled.emit)
        self.buttons: dict[int, QPushButton] = {}

    def show_choices(self, seat: int, held: int, prompt: Prompt,
                     action: Action | None = None) -> None:
        """One button per number of cards the player may keep (the discard's input says how
        many may go: Pineapple's one card offers only "keep 2"); with one choice it is taken
        at once, so the dealer only says the face: the cards, or U for face down."""
        for b in self.buttons.values():
            b.hide()
            b.deleteLater()
        self.buttons = {}
        while self.row.count():
            self.row.takeAt(0)
        self.held = held
        self.keep = None
        value = action.input if action is not None else None
        low, high = (value.low, value.high) if isinstance(value, Cards) else (1, held - 1)
        keeps = [held - n for n in range(max(low, 1), min(high, held - 1) + 1)]
        self.title.setText(
            f"Seat {seat} holds {held} cards: how many does the player keep?  "
            "(press the number, then type the discarded cards, or U if face down)"
            if len(keeps) > 1 else
            f"Seat {seat} holds {held} cards and discards {held - keeps[0]}: type the card if "
            "it was shown face up, or press U if it went face down"
        )
        choices = dict(value.keep_notes) if isinstance(value, Cards) else {}
        for keep in sorted(keeps, reverse=True):
            texts: Sequence[str] = choices.get(keep, [])
            b = QPushButton(f"Keep {keep}  [{keep}]\n" + ("\n".join(texts) or "—"))
            b.setObjectName(f"keep-{keep}")
            b.setProperty("role", "action")
            b.setCheckable(True)
            b.setMinimumHeight(50)
            b.clicked.connect(lambda _=False, k=keep: self.choose(k))
            self.row.addWidget(b)
            self.buttons[keep] = b
        for b in (self.unseen, self.cancel):
            b.setMinimumHeight(50)
            self.row.addWidget(b)

    def choose(self, keep: int) -> None:
        if keep not in self.buttons:
            return
        self.keep = keep
        for k, b in self.buttons.items():
            b.setChecked(k == keep)
        self.keep_chosen.emit(keep)

    def _unseen(self) -> None:
        if self.keep is not None:
            self.unseen_chosen.emit(self.held - self.keep)
