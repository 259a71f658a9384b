"""The dealer screen's parts built from engine records: the action bar (from a Prompt), the
discard chooser (for a discard that may be face down), the push checklist (from a Settlement),
the hand's history and the database banner. Views only: they emit what the dealer chose;
controllers act on it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.base import Action, FeeLine, Prompt, Settlement
from dealer_assist.engine.hand import Step
from dealer_assist.engine.inputs import Cards
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QListWidget,
    QListWidgetItem,
    QPoint,
    QPushButton,
    QRect,
    QScrollArea,
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


class HistoryList(QListWidget):
    """The hand's events, numbered as stored; voided ones struck through with the reason."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("history")
        self.setWordWrap(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def show_steps(self, steps: Sequence[Step]) -> None:
        self.clear()
        voids = {}
        for st in steps:
            target = getattr(st.event, "target", None)
            if st.event.TYPE == "void" and isinstance(target, int):
                voids[target] = getattr(st.event, "reason", "")
        for st in steps:
            text = f"{st.number}. " + " / ".join(st.lines)
            if st.voided:
                text = f"{st.number}. {st.event.TYPE} " + _event_words(st) + \
                    f" — VOIDED: {voids.get(st.number, '')}"
            item = QListWidgetItem(text)
            if st.voided:
                f = item.font()
                f.setStrikeOut(True)
                item.setFont(f)
            self.addItem(item)
        self.scrollToBottom()

    def texts(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]


def _event_words(step: Step) -> str:
    body = step.event.to_json()
    body.pop("type", None)
    return " ".join(f"{k} {v}" for k, v in body.items())


class Banner(QFrame):
    """A red band across the top: the database failed; the input is kept (named); Retry sends
    it, Drop throws it away (logged); nothing else is taken meanwhile."""

    retry = Signal()
    drop = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Banner")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(14, 6, 14, 6)
        words = QVBoxLayout()
        words.setSpacing(2)
        # the headline big; the database's words and what to do at the base size: a second
        # refusal under it once squeezed the banner's six big lines to four
        self.head = QLabel("Not recorded: the database did not take it")
        self.head.setObjectName("banner-head")
        words.addWidget(self.head)
        self.text = QLabel("")
        self.text.setObjectName("banner-text")
        self.text.setWordWrap(True)
        words.addWidget(self.text)
        lay.addLayout(words, 1)
        self.button = QPushButton("Retry   [F5]")
        self.button.setObjectName("banner-retry")
        self.button.clicked.connect(self.retry.emit)
        lay.addWidget(self.button)
        self.drop_button = QPushButton("Drop   [Shift+F5]")
        self.drop_button.setObjectName("banner-drop")
        self.drop_button.clicked.connect(self.drop.emit)
        lay.addWidget(self.drop_button)
        self.hide()

    def show_failure(self, message: str, kept: str = "") -> None:
        lead = "" if message[:1].isupper() else "the database is not answering: "
        what = f"Your input is kept: {kept}." if kept else "Your input is kept."
        self.text.setText(
            f"{lead[:1].upper()}{lead[1:]}{message}\n"
            f"{what} Nothing changed on the table. Retry [F5] sends it when the database is "
            "back; Drop [Shift+F5] throws it away (written to the audit log). Nothing else is "
            "taken until then."
        )
        self.drop_button.setVisible(bool(kept))
        self.show()

    def clear(self) -> None:
        self.text.setText("")
        self.hide()


def time_lines(collect: Sequence[Any]) -> list[tuple[str, str]]:
    """One line per seat to collect time from (ledger lines of a period mark) or, after a
    voided mark, to give time back to (a negative line reads "give back", never "-$5")."""
    out = []
    for x in sorted(collect, key=lambda x: (x.seat or 0, x.period or 0)):
        verb = "give back" if x.amount < 0 else "collect"
        out.append((f"time-seat-{x.seat}",
                    f"Seat {x.seat}: {verb} {format_cents(abs(x.amount))} (period {x.period})"))
    return out


def time_total_text(collect: Sequence[Any]) -> str:
    """What the dealer moves in all: into the drop box, and back out of it to the seats."""
    taken = sum(x.amount for x in collect if x.amount > 0)
    given = -sum(x.amount for x in collect if x.amount < 0)
    if not given:
        return f"In all: {format_cents(taken)} into the drop box"
    back = f"In all: {format_cents(given)} back out of the drop box to the seats"
    return back + (f", and {format_cents(taken)} into it" if taken else "")


class TimeChecklist(QFrame):
    """What to collect from each seat at a period mark, as a checklist the dealer ticks."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 6, 12, 6)
        self.title = QLabel("Collect time from each seat\n(tick each seat: T or Space)")
        self.title.setObjectName("time-title")
        self.title.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.title)
        self.box = QVBoxLayout()
        self.box.setSpacing(0)
        lay.addLayout(self.box)
        self.total = QLabel("")
        self.total.setObjectName("time-total")
        self.total.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.total)
        self.progress = QLabel("")
        self.progress.setObjectName("time-progress")
        lay.addWidget(self.progress)
        self.rows: list[StepRow] = []
        self.gives_back = False

    def show_collect(self, collect: Sequence[Any]) -> None:
        for r in self.rows:
            r.hide()
            r.deleteLater()
        self.rows = []
        for name, text in time_lines(collect):
            row = StepRow(name, text)
            row.check.toggled.connect(lambda _on: self._update())
            self.box.addWidget(row)
            self.rows.append(row)
        self.gives_back = any(x.amount < 0 for x in collect)
        if self.gives_back:
            self.title.setText("Give back or collect time, seat by seat\n"
                               "(tick each seat: T or Space)")
        self.total.setText(time_total_text(collect) if collect
                           else "No seat owes time at this mark (nobody is seated).")
        self._update()

    def texts(self) -> list[str]:
        return [r.label.text() for r in self.rows]

    def tick_next(self) -> None:
        for r in self.rows:
            if not r.check.isChecked():
                r.check.setChecked(True)
                return

    @property
    def done(self) -> bool:
        return all(r.check.isChecked() for r in self.rows)

    def _update(self) -> None:
        n = sum(1 for r in self.rows if r.check.isChecked())
        done = "done" if self.gives_back else "collected"
        self.progress.setText(f"{n} of {len(self.rows)} {done}")
