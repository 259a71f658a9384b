"""The push checklist built from a Settlement: each step the dealer ticks before the next
hand (fees to the drop, pots to the winners)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.base import FeeLine, Settlement
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)


class StepRow(QWidget):
    """A tick box and the step's words, wrapped; clicking the words ticks the box too."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__()
        self.setObjectName(name)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 3, 0, 3)
        self.check = QCheckBox("")
        self.check.setObjectName(f"{name}-check")
        self.check.setAccessibleName(text)
        lay.addWidget(self.check, 0, Qt.AlignmentFlag.AlignTop)
        self.label = QLabel(text)
        self.label.setObjectName(f"{name}-text")
        self.label.setWordWrap(True)
        self.label.setStyleSheet("font-size: 18px;")
        lay.addWidget(self.label, 1)
        self.check.toggled.connect(self._style)

    def mousePressEvent(self, event: Any) -> None:
        self.check.toggle()

    def _style(self, on: bool) -> None:
        f = self.label.font()
        f.setStrikeOut(on)
        self.label.setFont(f)


class PushChecklist(QFrame):
    """The push steps as a checklist the dealer ticks, the fee to drop, then the next hand."""

    all_done = Signal()
    next_hand = Signal()
    new_game = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 6, 12, 6)
        lay.setSpacing(2)
        self.title = QLabel("Push, in this order\n(tick each step: T or Space)")
        self.title.setObjectName("push-title")
        self.title.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.title)
        # the steps scroll rather than squeeze: a step of three lines is never clipped (the
        # attribute hides QWidget.scroll(), which nothing calls on this panel)
        self.scroll: QScrollArea = QScrollArea()  # type: ignore[assignment]
        self.scroll.setObjectName("push-scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        inner = QWidget()
        inner.setObjectName("push-steps")
        self.box = QVBoxLayout(inner)
        self.box.setContentsMargins(0, 0, 4, 0)
        self.box.setSpacing(0)
        self.box.addStretch(1)
        self.scroll.setWidget(inner)
        lay.addWidget(self.scroll, 1)
        self.totals = QLabel("")
        self.totals.setObjectName("push-totals")
        self.totals.setWordWrap(True)
        self.totals.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.totals)
        bottom = QHBoxLayout()
        self.progress = QLabel("")
        self.progress.setObjectName("push-progress")
        bottom.addWidget(self.progress)
        self.next = QPushButton("Next hand   [N]")
        self.next.setObjectName("next-hand")
        self.next.setProperty("role", "primary")
        self.next.clicked.connect(self.next_hand.emit)
        # a game of many hands that is not over: end it here (the floor approves) instead
        self.new = QPushButton("New game   [G]")
        self.new.setObjectName("new-game")
        self.new.setToolTip("start the next hand as a new game: nothing the game carries "
                            "(a running score) is taken over; a floor person approves")
        self.new.clicked.connect(self.new_game.emit)
        self.new.hide()
        bottom.addWidget(self.new)
        bottom.addWidget(self.next)
        lay.addLayout(bottom)
        self.checks: list[QCheckBox] = []
        self.rows: list[StepRow] = []
        self._hand: object = None

    def show_settlement(self, s: Settlement | None, hand: object = None) -> None:
        """Draw the settlement's steps. The same hand's same steps drawn again (the screen
        redrawn for any reason: the theme, a dialog cancelled) keep the ticks the dealer made;
        another hand's are always ticked afresh, however alike."""
        if s is not None and self.rows and hand is not None and hand == self._hand and \
                [line.text for line in push_lines(s)] == [r.label.text() for r in self.rows]:
            self._update()
            return
        self._hand = hand
        for r in self.rows:
            r.hide()
            r.deleteLater()
        self.rows = []
        self.checks = []
        if s is None:
            self.totals.setText("")
            self._update()
            return
        paid = ", ".join(f"seat {seat} {format_cents(v)}" for seat, v in sorted(s.payouts.items())
                         if v)
        total = "In all: " + (paid or "nothing pushed")
        if s.carry_out:
            total += f"; {format_cents(s.carry_out)} carries to the next hand"
        fees = sum(f.amount for f in s.fees)
        if fees:
            total += f"; fees {format_cents(fees)}"
        self.totals.setText(total)
        lines = [(line.name, line.text) for line in push_lines(s)]
        for name, text in lines:
            row = StepRow(name, text)
            row.check.toggled.connect(lambda _on: self._update())
            self.box.insertWidget(self.box.count() - 1, row)
            self.rows.append(row)
            self.checks.append(row.check)
        self._update()

    def texts(self) -> list[str]:
        return [r.label.text() for r in self.rows]

    def tick_next(self) -> None:
        for row in self.rows:
            if not row.check.isChecked():
                row.check.setChecked(True)
                self.scroll.ensureWidgetVisible(row)
                return

    @property
    def done(self) -> bool:
        return all(c.isChecked() for c in self.checks)

    def _update(self) -> None:
        n = sum(1 for c in self.checks if c.isChecked())
        self.progress.setText(f"{n} of {len(self.checks)} done")
        self.next.setEnabled(self.done)
        self.new.setEnabled(self.done)
        if self.checks and self.done:
            self.all_done.emit()


@dataclass(frozen=True, slots=True)
class PushLine:
    """One line of the push checklist: what to do, with how much, to whom."""

    name: str
    text: str
    amount: int
    kind: str
    to_seat: int | None = None


def push_lines(s: Settlement) -> list[PushLine]:
    """The checklist of a settlement, each amount once: first a drop line per kind of fee the
    game's own steps do not already take (a fee taken before the deal), then the game's steps
    in order (which may drop a rake or take a fee from a pool themselves)."""
    left = list(s.fees)
    for p in s.steps:
        if p.kind != "fee":
            continue
        same = [i for i, f in enumerate(left) if f.amount == p.amount]
        named = [i for i in same if left[i].kind.replace("_", " ") in p.text.lower()]
        if named or same:
            left.pop((named or same)[0])
    out = [PushLine(f"fee-{kind}", text, total, "fee") for kind, text, total in _drops(left)]
    for p in s.steps:
        text = p.text
        if p.amount and format_cents(p.amount) not in text:
            text += f"  ({format_cents(p.amount)})"
        out.append(PushLine(f"step-{p.n}", f"{p.n}. {text}", p.amount, p.kind, p.to_seat))
    if s.carry_out and not any(p.kind == "carry" or "carr" in p.text.lower() for p in s.steps):
        out.append(PushLine("carry", f"Set aside {format_cents(s.carry_out)} for the next hand",
                            s.carry_out, "carry"))
    return out


def _drops(fees: Sequence[FeeLine]) -> list[tuple[str, str, int]]:
    """One drop line per kind of fee: the total, and who it comes from."""
    kinds: dict[str, list[tuple[int | None, int]]] = {}
    for f in fees:
        kinds.setdefault(f.kind, []).append((f.from_seat, f.amount))
    out = []
    for kind, parts in kinds.items():
        total = sum(a for _, a in parts)
        seats = [seat for seat, _ in parts if seat is not None]
        text = f"Drop the {kind.replace('_', ' ').replace('-', ' ')}: {format_cents(total)}"
        if seats and len({a for _, a in parts}) == 1 and len(seats) == len(parts):
            each = format_cents(parts[0][1])
            which = ", ".join(map(str, seats))
            text += f" ({each} from seat{'s' if len(seats) > 1 else ''} {which})"
        elif seats:
            text += " (" + ", ".join(
                f"seat {seat} {format_cents(a)}" for seat, a in parts if seat is not None
            ) + ")"
        out.append((kind, text + " into the drop box", total))
    return out
