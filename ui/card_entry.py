"""Card entry: type ``9d`` Enter (``td`` and ``10d`` too), or tap a card in the picker (the whole
pack, a card the game's pack does not hold greyed).

Unreadable text and impossible cards are refused inline, in the red line under the input, with
the reason; nothing pops up and the typed text stays so the dealer can fix one character.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.cards import RANK_CHARS, Card, parse_card, parse_cards
from dealer_assist.errors import BadInput
from dealer_assist.ui.qt import (
    QFont,
    QFontMetrics,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QKeyEvent,
    QKeySequence,
    QLabel,
    QLineEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

SUIT_ORDER = "shdc"
#: Letters a card can start with (T for ten; the rest are digits).
RANK_LETTERS = "akqjt"


class CardInput(QLineEdit):
    """The text box; Backspace on an empty box takes back the last collected card."""

    backspace_empty = Signal()
    escaped = Signal()

    #: The screen's handlers, methods of the widget holding the box, looked up at each key:
    #: ``letter_after_card(letter)`` for a letter typed after a whole card (True if it chose
    #: an action), ``action_letter(letter)`` for a letter no card starts with typed in the
    #: empty box (an action's key, such as M to muck; True if taken). They are never kept on
    #: the box: a Python callable stored on a child widget made a Python<->Qt cycle that the
    #: collector could free while Qt still used the screen (a crash).
    #: ``seat_action(seat, letter)`` for a letter typed after a seat's number alone ("3" then
    #: X: seat 3's Kill), when the letter is not a suit (True if it chose an action).
    HOOKS = ("letter_after_card", "action_letter", "seat_action")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.textChanged.connect(lambda _t: self.fit_text())

    def fit_text(self) -> None:
        """Every card typed stays in view: past the box's width the font gets smaller (down
        to 12 px) rather than scroll the first cards out (Anaconda's five read as four)."""
        from dealer_assist.ui.theme import current_theme

        base = current_theme().card_px
        room = self.contentsRect().width() - 14  # the frame's and the cursor's room
        font = QFont(self.font())
        font.setBold(True)
        size = base
        while size > 12:
            font.setPixelSize(size)
            if QFontMetrics(font).horizontalAdvance(self.text()) <= room:
                break
            size -= 1
        want = "" if size == base else f"font-size: {size}px;"
        if want != self.styleSheet():
            self.setStyleSheet(want)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit_text()

    def _hook(self, name: str) -> Callable[..., bool] | None:
        """The nearest ancestor's handler ``name`` (one of ``HOOKS``), or None."""
        w = self.parentWidget()
        while w is not None:
            hook = getattr(w, name, None)
            if callable(hook):
                return hook  # type: ignore[no-any-return]
            w = w.parentWidget()
        return None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Backspace and not self.text():
            self.backspace_empty.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        if event.matches(QKeySequence.StandardKey.Undo):
            event.ignore()  # Undo voids the last event: the screen handles it
            return
        letter = event.text()
        if letter.isalpha() and len(letter) == 1:
            typed = self.text().strip()
            # a seat's number, then its letter ("3" X); "1" and a suit is no card (a ten is
            # "10s"), so "1" S is seat 1's S; "3" S stays the three of spades
            if typed.isdigit() and (letter.lower() not in SUIT_ORDER or typed == "1"):
                seat = self._hook("seat_action")
                if seat is not None and seat(int(typed), letter):
                    self.clear()
                    return
            after = self._hook("letter_after_card") if self._whole_card() else None
            if after is not None and after(letter):
                return
            action = (self._hook("action_letter")
                      if not self.text().strip() and letter.lower() not in RANK_LETTERS else None)
            if action is not None and action(letter):
                return  # no card starts with this letter: it is an action's key
        super().keyPressEvent(event)


    def _whole_card(self) -> bool:
        """The box holds whole cards, so a further letter cannot be part of them."""
        text = self.text().strip()
        if not text:
            return False
        try:
            parse_cards(text)
        except BadInput:
            return False
        return not text.endswith("1")


class CardPicker(QWidget):
    """The 52 cards as big buttons, a row per suit; impossible cards are greyed with a reason."""

    picked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card-picker")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        ranks = RANK_CHARS[::-1]
        for row, suit in enumerate(SUIT_ORDER):
            for col, rank in enumerate(ranks):
                card = Card(RANK_CHARS.index(rank) + 2, suit)
                b = QPushButton(card.pretty)
                b.setObjectName(f"pick-{card.code}")
                b.setProperty("role", "pick")
                b.setProperty("red", "true" if card.is_red else "false")
                b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                b.setToolTip(card.name)
                b.setAccessibleName(card.name)
                b.clicked.connect(lambda _=False, c=card: self.picked.emit(c))
                grid.addWidget(b, row, col)
                self.buttons[card.code] = b
        joker = Card.joker()
        jb = QPushButton(joker.pretty)
        jb.setObjectName("pick-Jk")
        jb.setProperty("role", "pick")
        jb.setProperty("red", "false")
        jb.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        jb.setToolTip(joker.name)
        jb.setAccessibleName(joker.name)
        jb.clicked.connect(lambda _=False, c=joker: self.picked.emit(c))
        jb.hide()  # shown for an input that takes jokers
        grid.addWidget(jb, len(SUIT_ORDER), 0)
        self.joker = jb

    def show_joker(self, on: bool) -> None:
        """Offer the joker (an input that takes jokers) or not."""
        self.joker.setVisible(on)

    def set_unavailable(self, reasons: dict[str, str]) -> None:
        """Grey out the cards that cannot be entered now, each with its reason as tooltip."""
        for code, b in self.buttons.items():
            why = reasons.get(code)
            b.setEnabled(why is None)
            b.setToolTip(why or Card(RANK_CHARS.index(code[0]) + 2, code[1]).name)
        why = reasons.get("Jk")
        self.joker.setEnabled(why is None)
        self.joker.setToolTip(why or "joker")


class CardEntry(QFrame):
    """Collects the cards one input needs (one card, a board of two, a five-card show...).

    ``expect(n, label)`` arms it; when ``n`` cards are in, Enter (or the last tap) emits
    ``submitted`` with them. The controller clears it only once the event is recorded.
    """

    submitted = Signal(object)
    changed = Signal()
    picker_shown = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Panel")
        self.count = 0
        self.cards: list[Card] = []
        #: Whether the input armed takes the same card twice (two decks), and jokers.
        self.repeats = False
        self.jokers = False
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 8)
        lay.setSpacing(6)
        head = QHBoxLayout()
        self.target = QLabel("")
        self.target.setObjectName("card-target")
        self.target.setStyleSheet("font-weight: bold;")
        self.target.setWordWrap(True)
        head.addWidget(self.target, 1)
        self.collected = QLabel("")
        self.collected.setObjectName("card-collected")
        self.collected.setStyleSheet("font-weight: bold;")
        head.addWidget(self.collected)
        lay.addLayout(head)
        top = QHBoxLayout()
        self.input = CardInput()
        self.input.setObjectName("CardInput")
        self.input.setPlaceholderText("9d ⏎")
        self.input.setToolTip("Type a card (9d, td or 10d, 7♥) and press Enter")
        self.input.returnPressed.connect(self._enter)
        self.input.backspace_empty.connect(self._take_back)
        self.input.textEdited.connect(lambda _t: self.error.setText(""))
        top.addWidget(self.input, 1)
        self.picker_button = QPushButton("Deck ▾ [F2]")
        self.picker_button.setObjectName("picker-toggle")
        self.picker_button.setCheckable(True)
        self.picker_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.picker_button.setToolTip("show the cards to tap (F2); a card this game's pack does "
                                      "not hold, or already out, is greyed")
        self.picker_button.toggled.connect(self._toggle_picker)
        top.addWidget(self.picker_button)
        lay.addLayout(top)
        self.error: QLabel = QLabel("")
        self.error.setObjectName("Refusal")
        self.error.setProperty("small", "true")
        self.error.setWordWrap(True)
        self.error.hide()
        lay.addWidget(self.error)
        self.picker = CardPicker()
        self.picker.picked.connect(self._picked)
        self.picker.hide()
        lay.addWidget(self.picker)
        self.expect(0, "")

    # --- arming -------------------------------------------------------------------------

    def expect(self, count: int, label: str, *, repeats: bool = False,
               jokers: bool = False) -> None:
        """Ask for ``count`` cards for ``label``; 0 switches entry off. ``repeats``: the same
        card may be entered twice (two decks); ``jokers``: a joker may be entered (and the
        picker offers one)."""
        if count != self.count or label != self.target.text():
            self.cards = []
        self.count = count
        self.repeats = repeats
        self.jokers = jokers
        self.picker.show_joker(jokers)
        self.target.setText(label or "No card needed now")
        on = count > 0
        self.setVisible(on)
        self.input.setEnabled(on)
        self.picker.setEnabled(on)
        self.picker.setVisible(on and self.picker_button.isChecked())
        self.picker_shown.emit(self.picker.isVisible())
        if not on:
            self.input.clear()
            self.cards = []
        self._show_collected()

    def clear(self) -> None:
        """Forget the collected cards and the text (after the event is recorded)."""
        self.cards = []
        self.input.clear()
        self.show_error("")
        self._show_collected()

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def set_unavailable(self, reasons: dict[str, str]) -> None:
        self.picker.set_unavailable(reasons)

    def toggle_picker(self) -> None:
        self.picker_button.toggle()

    # --- input --------------------------------------------------------------------------

    def _toggle_picker(self, on: bool) -> None:
        self.picker.setVisible(on and self.count > 0)
        self.picker_shown.emit(self.picker.isVisible())
        self.picker_button.setText("Deck ▴ [F2]" if on else "Deck ▾ [F2]")

    def _enter(self) -> None:
        text = self.input.text().strip()
        if not text:
            if self.count:
                self.show_error(f"type a card: {self.count - len(self.cards)} more to go")
            return
        try:
            cards = parse_cards(text)
        except BadInput as exc:
            try:  # one card in any spelling a single card takes
                cards = (parse_card(text),)
            except BadInput:
                self.show_error(str(exc))
                self.input.selectAll()
                return
        if not self._offer(cards):
            self.input.selectAll()

    def _picked(self, card: Card) -> None:
        if self.count:
            self._offer((card,))

    def _offer(self, cards: tuple[Card, ...]) -> bool:
        """Add typed or picked cards; with the last one, submit them all. The text that
        completed the input stays in the box until the controller clears it (recorded)."""
        room = self.count - len(self.cards)
        if len(cards) > room:
            self.show_error(
                f"{len(cards)} cards typed, but only {room} more "
                f"{'is' if room == 1 else 'are'} needed here"
            )
            return False
        seen = {c.code for c in self.cards}
        for c in cards:
            if c.is_joker and not self.jokers:
                self.show_error("no joker is taken here")
                return False
            if c.code in seen and not self.repeats:
                self.show_error(f"{c.pretty} is entered twice")
                return False
            seen.add(c.code)
        if len(cards) < room:
            # each card is checked as it is typed, so a refusal is said under that card, with
            # it still in the box to be fixed (not when the next card arrives)
            check = self._card_check()
            why = check((*self.cards, *cards)) if check is not None else ""
            if why:
                self.show_error(why)
                return False
        self.show_error("")
        if len(cards) < room:
            self.cards.extend(cards)
            self.input.clear()
            self._show_collected()
            self.changed.emit()
            return True
        self.submitted.emit((*self.cards, *cards))
        return True

    def _card_check(self) -> Callable[[tuple[Card, ...]], str] | None:
        """The screen's ``cards_refusal`` (looked up at the moment, never kept: see
        :attr:`CardInput.HOOKS`): why the first cards of an input cannot be, or ""."""
        w = self.parentWidget()
        while w is not None:
            hook = getattr(w, "cards_refusal", None)
            if callable(hook):
                return hook  # type: ignore[no-any-return]
            w = w.parentWidget()
        return None

    def _take_back(self) -> None:
        if self.cards:
            self.cards.pop()
            self._show_collected()
            self.changed.emit()

    def _show_collected(self) -> None:
        if self.count > 1:
            got = " ".join(c.pretty for c in self.cards)
            self.collected.setText(f"{got}  ({len(self.cards)}/{self.count})".strip())
        else:
            self.collected.setText("")

