"""Cards as the table shows them: a card's face, a row of cards sized to fit, and the words
and sizes a seat box and the felt share."""

from __future__ import annotations

from dealer_assist.cards import parse_card
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QFont,
    QFontMetrics,
    QHBoxLayout,
    QLabel,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.theme import Theme

STATUS_WORDS = {"to_act": "to act"}


def pretty_card(code: str) -> tuple[str, bool]:
    """Screen text for a card code (``Td`` -> ``10♦``) and whether it is red."""
    try:
        card = parse_card(code)
    except BadInput:
        return code, False
    return card.pretty, card.is_red


def status_text(status: str, game: str = "") -> str:
    """A seat status in words: the engine's own, else as the game says it
    (``Game.status_words``)."""
    if status in STATUS_WORDS:
        return STATUS_WORDS[status]
    if game:
        from dealer_assist.engine.registry import get_game
        from dealer_assist.errors import DealerAssistError

        try:
            return get_game(game).status_words(status)
        except DealerAssistError:
            pass
    return status.replace("_", " ")


def _height(w: QWidget) -> int:
    """A seat's height at its width (wrapped notes make it taller)."""
    lay = w.layout()
    if lay is not None and lay.hasHeightForWidth():
        return int(lay.totalHeightForWidth(w.width()))
    return int(w.sizeHint().height())


def _title(game: str) -> str:
    try:
        from dealer_assist.engine.registry import get_game

        return get_game(game).title
    except DealerAssistError:
        return game


def _pots_html(pots: tuple[tuple[str, int], ...]) -> str:
    """Pots as a two-column table: names left, amounts right, so totals line up."""
    rows = "".join(
        f"<tr><td>{name}</td><td align='right'>&nbsp;&nbsp;{format_cents(v)}</td></tr>"
        for name, v in pots
    )
    return f"<table align='center'>{rows}</table>" if rows else ""


def fitting_px(text: str, px: int, width: int) -> int:
    """The largest bold font size, at most ``px``, that draws ``text`` within ``width``."""
    font = QFont()
    font.setBold(True)
    for size in range(px, 7, -1):
        font.setPixelSize(size)
        if QFontMetrics(font).horizontalAdvance(text) <= width:
            return size
    return 8


#: The joker's face, written out: "Jk" is no word at a table.
JOKER_WORD = "Joker"


class CardLabel(QLabel):
    """One card: white face with a red or black index, or a blue back when face down. A joker's
    face is the word, and the card is as wide as the word needs (it read "oker")."""

    def __init__(self, code: str | None, theme: Theme, px: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.code = code
        w = int(px * 1.9)
        h = int(px * 2.4)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        if code is None:
            self.setFixedSize(w, h)
            self.setText("")
            self.setAccessibleName("card face down")
            self.setStyleSheet(
                f"background: {theme.card_back}; border: 2px solid #ffffff; border-radius: 5px;"
            )
        else:
            text, red = pretty_card(code)
            self.setText(text)
            self.setAccessibleName(text)
            color = theme.card_red if red else theme.card_black
            size = fitting_px(text, px, w - 4)  # "10♦" in the face a "9♦" fills
            if text == JOKER_WORD:
                size = max(10, int(px * 0.6))
                font = QFont()
                font.setBold(True)
                font.setPixelSize(size)
                w = max(w, QFontMetrics(font).horizontalAdvance(text) + 8)
            self.setFixedSize(w, h)
            self.setStyleSheet(
                f"background: {theme.card_face}; color: {color}; border: 1px solid #444;"
                f"border-radius: 5px; font-size: {size}px; font-weight: bold; padding: 0px;"
            )


def card_row(
    codes: tuple[str, ...], hidden: int, theme: Theme, px: int, *, max_backs: int = 5,
    width: int = 0,
) -> QWidget:
    """A row of cards, then backs for hidden cards (a count when there are many). Given the
    ``width`` there is, the cards go on as many lines as they need: Dicey Poker's ten hole
    cards in one line were cut off at the seat's edge."""
    cards: list[QWidget] = [CardLabel(code, theme, px) for code in codes]
    cards += [CardLabel(None, theme, px) for _ in range(min(hidden, max_backs))]
    if hidden > max_backs:
        more = QLabel(f"+{hidden - max_backs}")
        more.setStyleSheet(f"font-size: {px}px; font-weight: bold; background: transparent;")
        cards.append(more)
    lines: list[list[QWidget]] = [[]]
    used = 0
    for w in cards:
        need = w.sizeHint().width() if not isinstance(w, CardLabel) else w.width()
        if width and lines[-1] and used + SPACING + need > width:
            lines.append([])
            used = 0
        used += need + (SPACING if lines[-1] else 0)
        lines[-1].append(w)
    row = QWidget()
    row.setStyleSheet("background: transparent;")
    outer = QVBoxLayout(row)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.setSpacing(SPACING)
    for line in lines:
        lay = QHBoxLayout()
        lay.setSpacing(SPACING)
        for w in line:
            lay.addWidget(w)
        lay.addStretch(1)
        outer.addLayout(lay)
    return row


#: Between two cards of a row, and two lines of cards.
SPACING = 3


def row_px(n: int, px: int, width: int) -> int:
    """The card size for a row of ``n`` cards in ``width``: the largest, down to seven tenths
    of ``px``, that keeps the row on one line; a row that wraps anyway keeps ``px`` (Dicey
    Poker's ten hole cards were too small to read)."""
    least = max(12, int(px * 0.7))
    for size in range(px, least - 1, -1):
        if not width or n * int(size * 1.9) + (n - 1) * SPACING <= width:
            return size
    return px
