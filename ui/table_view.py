"""The table drawn as a table: seats around an oval felt, built only from a :class:`TableView`.

Every game's ``Game.view`` gives the same shape (seats with cards, hidden counts, status, what was
put in), so this widget draws any game unchanged. The seat to act is filled with the theme's
accent colour and labelled "TO ACT" so it reads from across the table.
"""

from __future__ import annotations

import itertools
import math

from dealer_assist.cards import parse_card
from dealer_assist.engine.base import SeatView, TableView
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPainter,
    QPen,
    QPointF,
    QRectF,
    QSizePolicy,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.theme import Theme, current_theme

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


class SeatWidget(QFrame):
    """One seat: number, dealer button, cards, points, what it put in, status and note."""

    def __init__(
        self, seat: SeatView, *, button: bool, theme: Theme, scale: float,
        revealed: bool = False, compact: bool = False, parent: QWidget | None = None,
        game: str = "", width: int = 0, dense: bool = False,
    ) -> None:
        super().__init__(parent)
        self.seat = seat
        # the room for cards inside the box (its border and margins off), 0: unknown
        room = max(0, width - 2 * 8 - 2 * 4)
        self.setObjectName(f"seat-{seat.seat}")
        self.setProperty("to_act", seat.to_act)
        card_px = max(14, int(20 * scale))
        text_px = 12 if dense else max(13, int(17 * scale))  # dense: nine seats, short felt
        head_px = max(16, int(24 * scale))
        if seat.to_act:
            bg, fg, border, width = theme.accent, theme.accent_text, theme.accent_text, 4
        elif seat.face_down:
            bg, fg, border, width = theme.panel, theme.muted, theme.danger, 3
        else:
            bg, fg, border, width = theme.panel, theme.text, theme.border, 2
        self.setStyleSheet(
            f"SeatWidget {{ background: {bg}; border: {width}px solid {border};"
            f" border-radius: 12px; }}"
            f" QLabel {{ color: {fg}; background: transparent; font-size: {text_px}px; }}"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 3 if dense else 6, 8, 3 if dense else 6)
        lay.setSpacing(1 if dense else 3)

        head = QHBoxLayout()
        title = QLabel(f"Seat {seat.seat}")
        title.setObjectName("seat-title")
        if dense:  # a smaller number leaves the cards their room beside it
            head_px = text_px + 2
        title.setStyleSheet(f"font-size: {head_px}px; font-weight: bold;")
        head.addWidget(title)
        if button:
            dealer = QLabel("D")
            dealer.setObjectName("seat-button")
            dealer.setToolTip("dealer button")
            dealer.setAlignment(Qt.AlignmentFlag.AlignCenter)
            size = int(head_px * 1.3)
            dealer.setFixedSize(size, size)
            dealer.setStyleSheet(
                f"background: #ffffff; color: #000000; border: 2px solid #000000;"
                f" border-radius: {size // 2}px; font-weight: bold; font-size: {text_px}px;"
            )
            head.addWidget(dealer)
        # dense (nine seats on a short felt): the cards beside the seat's number, the badge
        # on a line of its own, so each box is a line shorter and the board shows between
        backs = max(seat.hidden, 0 if seat.cards else 1) if seat.face_down else seat.hidden
        shown = len(seat.cards) + min(backs, 5)
        tf = QFont()
        tf.setBold(True)
        tf.setPixelSize(head_px)  # the title's own size (its style applies only once shown)
        left = (room - QFontMetrics(tf).horizontalAdvance(title.text())
                - (int(head_px * 1.3) + 6 if button else 0) - 8)
        small = next((px for px in range(max(12, int(card_px * 0.8)), 11, -1)
                      if shown * (int(px * 1.9) + SPACING) <= left), 0)
        beside = dense and not seat.rows and shown > 0 and small > 0  # on one line, or below
        if beside:
            head.addWidget(card_row(seat.cards, backs, theme, small), 1)
        head.addStretch(1)
        if seat.to_act:
            badge = QLabel("▶ TO ACT")
            badge.setObjectName("seat-to-act")
            badge.setStyleSheet(f"font-size: {text_px if dense else head_px}px;"
                                " font-weight: 900;")
            bf = QFont()
            bf.setWeight(QFont.Weight.Black)
            bf.setPixelSize(head_px)
            # beside the number only when it fits there whole (nine seats: "TO ACI")
            beside_title = room == 0 or (
                QFontMetrics(tf).horizontalAdvance(title.text())
                + (int(head_px * 1.3) + 6 if button else 0)
                + QFontMetrics(bf).horizontalAdvance(badge.text()) + 12 <= room)
            if dense or not beside_title:
                lay.addLayout(head)
                lay.addWidget(badge)
            else:
                head.addWidget(badge)
        if not (dense and seat.to_act):
            lay.addLayout(head)

        rows = [(name, codes) for name, codes in seat.rows if codes]
        if rows:
            grid = QGridLayout()
            grid.setContentsMargins(0, 0, 0, 0)
            grid.setHorizontalSpacing(6)
            grid.setVerticalSpacing(3)
            names = [QLabel(name) for name, _ in rows]
            name_w = max(lab.sizeHint().width() for lab in names)
            left = max(1, room - name_w - 6) if room else 0
            for i, (lab, (_, codes)) in enumerate(zip(names, rows, strict=True)):
                lab.setObjectName("seat-row-name")
                # the row's name whole ("tens (natural)" was cut to "tens (natura")
                lab.setMinimumWidth(lab.sizeHint().width())
                grid.addWidget(lab, i, 0, Qt.AlignmentFlag.AlignTop)
                base = max(12, int(card_px * 0.8)) if dense else card_px  # dense: shorter
                grid.addWidget(card_row(codes, 0, theme, row_px(len(codes), base, left),
                                        width=left), i, 1)
            grid.setColumnStretch(1, 1)
            lay.addLayout(grid)
        if beside:
            pass
        elif seat.face_down and not seat.cards:
            lay.addWidget(card_row((), max(seat.hidden, 1), theme, card_px, width=room))
        elif seat.rows and seat.hidden:
            lay.addWidget(card_row((), seat.hidden, theme, card_px, width=room))
        elif not seat.rows and (seat.cards or seat.hidden) and not beside:
            lay.addWidget(card_row(seat.cards, seat.hidden, theme, card_px, width=room))

        facts = []
        if seat.detail:
            facts.append(seat.detail)
        if seat.put_in and format_cents(seat.put_in) not in seat.detail:
            facts.append(f"in {format_cents(seat.put_in)}")
        if seat.stack is not None:
            facts.append(f"stack {format_cents(seat.stack)}")
        if facts:
            f = QLabel("  ·  ".join(facts))
            f.setObjectName("seat-facts")
            f.setWordWrap(True)
            f.setStyleSheet(f"font-size: {text_px}px; font-weight: bold;")
            lay.addWidget(f)
        if seat.face_down or (seat.status and not (seat.to_act and seat.status == "to act")):
            words = status_text(seat.status, game) if seat.status else ""
            if seat.face_down:
                head_word = "REVEALED" if revealed and seat.cards else "FACE DOWN"
                words = head_word + (f" · {words}" if words and "down" not in words else "")
            st = QLabel(words)
            st.setObjectName("seat-status")
            st.setWordWrap(True)
            color = theme.danger if seat.face_down and not seat.to_act else fg
            st.setStyleSheet(f"color: {color}; font-weight: bold; font-size: {text_px}px;")
            lay.addWidget(st)
        if seat.note and not compact:
            n = QLabel(seat.note)
            n.setObjectName("seat-note")
            n.setWordWrap(True)
            lay.addWidget(n)
        if seat.note:
            self.setToolTip(seat.note)
        self.note = seat.note
        lay.addStretch(1)

    def text(self) -> str:
        """Everything the seat says, in reading order (what a test or screen reader sees)."""
        parts = []
        for lab in self.findChildren(QLabel):
            if isinstance(lab, CardLabel):
                parts.append(lab.text() or "▒")
            elif lab.text():
                parts.append(lab.text())
        return " ".join(parts)


class TableWidget(QWidget):
    """The oval table. ``show_view`` redraws it from a :class:`TableView`; nothing else."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(480, 200)
        self.view: TableView | None = None
        self.revealed = False
        self.seats: dict[int, SeatWidget] = {}
        self.center = QWidget(self)
        self.center.setObjectName("table-center")
        self.center.setStyleSheet("background: transparent;")
        self._center_lay = QVBoxLayout(self.center)
        self._center_lay.setContentsMargins(0, 0, 0, 0)
        self._center_lay.setSpacing(6)
        self.title = QLabel("", self.center)
        self.title.setObjectName("table-title")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._center_lay.addWidget(self.title)
        self._board_holder = QWidget(self.center)
        self._board_holder.setStyleSheet("background: transparent;")
        self._board_lay = QHBoxLayout(self._board_holder)
        self._board_lay.setContentsMargins(0, 0, 0, 0)
        self._center_lay.addWidget(self._board_holder)
        self.pots = QLabel("", self.center)
        self.pots.setObjectName("table-pots")
        self.pots.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pots.setWordWrap(True)
        self._center_lay.addWidget(self.pots)
        self.info = QLabel("", self.center)
        self.info.setObjectName("table-info")
        self.info.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.info.setWordWrap(True)
        self._center_lay.addWidget(self.info)
        self._center_lay.addStretch(1)
        self.theme = current_theme()

    # --- building -------------------------------------------------------------------------

    def scale(self) -> float:
        return max(0.75, min(1.45, min(self.width() / 1100, self.height() / 560)))

    def show_view(
        self, view: TableView | None, theme: Theme | None = None, *, revealed: bool = False
    ) -> None:
        """Draw ``view``; ``revealed`` marks destroyed hands shown face up by the floor."""
        self.view = view
        self.revealed = revealed
        if theme is not None:
            self.theme = theme
        self._rebuild()

    def _rebuild(self) -> None:
        t = self.theme
        for w in self.seats.values():
            w.hide()
            w.deleteLater()
        self.seats = {}
        while self._board_lay.count():
            item = self._board_lay.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        view = self.view
        s = self.scale() * (0.85 if len(view.seats) > 6 else 1.0) if view else self.scale()
        px = max(16, int(22 * self.scale()))
        self.title.setStyleSheet(
            f"color: {t.felt_text}; font-size: {px}px; font-weight: bold;"
        )
        self.pots.setStyleSheet(
            f"color: {t.felt_text}; font-size: {max(15, int(px * 0.9))}px; font-weight: bold;"
        )
        self.info.setStyleSheet(f"color: {t.felt_text}; font-size: {max(13, int(16 * s))}px;")
        if view is None:
            # drawn above the felt, on the window's own background: its text colour, so the
            # light theme does not hide it (white on white)
            self.title.setStyleSheet(f"color: {t.text}; font-size: {px}px; font-weight: bold;")
            self.title.setText("No hand in play")
            self.pots.setText("")
            self.info.setText("")
            self.update()
            return
        self._make_seats(view, s, compact=False)
        for dense in (False, True):  # notes to tooltips; then cards beside the number
            if not self._crowded():
                break
            for w in self.seats.values():
                w.hide()
                w.deleteLater()
            self._make_seats(view, s, compact=True, dense=dense)
        if self._crowded():  # still short (a replay beside the floor's lists): smaller pots
            self.pots.setStyleSheet(f"color: {t.felt_text}; font-size: 13px; font-weight: bold;")
        self.title.setText(_title(view.game))
        if view.board:
            board = card_row(view.board, 0, t, int(px * 1.1))
            board.setObjectName("table-board")
            self._board_lay.addWidget(board, 0, Qt.AlignmentFlag.AlignHCenter)
            board.show()
        self.pots.setText(_pots_html(view.pots))
        self.info.setText("\n".join(view.info))
        self._place()
        self.update()

    def _make_seats(self, view: TableView, scale: float, *, compact: bool,
                    dense: bool = False) -> None:
        self.seats = {}
        for sv in view.seats:
            width = int(self._seat_size(len(view.seats))[0])
            w = SeatWidget(sv, button=view.button == sv.seat, theme=self.theme, scale=scale,
                           revealed=self.revealed, compact=compact, parent=self,
                           game=view.game, width=width, dense=dense)
            w.setFixedWidth(width)
            w.show()
            self.seats[sv.seat] = w

    def _tallest(self) -> int:
        return max((_height(w) for w in self.seats.values()), default=0)

    def _crowded(self) -> bool:
        """Too little height for three rows of seats with their notes: notes go to tooltips."""
        n = len(self.seats)
        rows = 3 if n > 4 else 2
        return rows * self._tallest() + 24 > self.height()

    def seat_text(self, seat: int) -> str:
        w = self.seats.get(seat)
        return w.text() if w is not None else ""

    # --- geometry -------------------------------------------------------------------------

    def _felt_rect(self) -> QRectF:
        m = 0.085
        return QRectF(
            self.width() * m, self.height() * m,
            self.width() * (1 - 2 * m), self.height() * (1 - 2 * m),
        )

    def seat_positions(self, n: int) -> list[QPointF]:
        """Seat centres clockwise from the dealer's left, evenly spaced along a rounded
        rectangle around the felt, leaving the dealer's place at the bottom free."""
        cx, cy = self.width() / 2, self.height() / 2
        seat_w, seat_h = self._seat_size(n)
        seat_h = max(seat_h * 0.7, float(self._tallest()))
        rx = max(10.0, self.width() / 2 - seat_w / 2 - 2)
        ry = max(10.0, self.height() / 2 - seat_h / 2 - 2)
        samples = 1440
        pts = []
        for i in range(samples + 1):
            a = math.radians(90 + 360 * i / samples)
            c, s = math.cos(a), math.sin(a)
            x = math.copysign(abs(c) ** 0.5, c)
            y = math.copysign(abs(s) ** 0.5, s)
            pts.append((cx + rx * x, cy + ry * y))
        cum = [0.0]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            cum.append(cum[-1] + math.hypot(x1 - x0, y1 - y0))
        total = cum[-1]
        gap = max(seat_w * 1.05, total * 0.10)
        out = []
        j = 0
        for k in range(n):
            target = gap / 2 + (total - gap) * ((k + 0.5) / n)
            while j < samples and cum[j] < target:
                j += 1
            out.append(QPointF(*pts[j]))
        return out

    def _seat_size(self, n: int) -> tuple[float, float]:
        """Seat box size: as wide as the table allows for ``n`` seats."""
        # (seven seats and more: narrower, so a felt narrowed by the push steps holds them)
        w = max(122.0 if n > 8 else 150.0 if n > 6 else 170.0,
                min(300.0 * self.scale(),
                    self.width() / (5.6 if n > 8 else 4.6 if n > 6 else 4.0)))
        h = max(110.0, min(190.0, self.height() / 3.6))
        return w, h

    def _place(self) -> None:
        if not self.seats:
            self.center.setGeometry(self.rect())
            return
        n = len(self.seats)
        seat_w, seat_h = self._seat_size(n)
        pts = self.seat_positions(n)
        boxes: list[list[float]] = []
        for w, p in zip(self.seats.values(), pts, strict=True):
            w.setFixedWidth(int(seat_w))
            hh: float = max(int(seat_h * 0.7), _height(w))
            ww: float = int(seat_w)
            x = min(max(0, p.x() - ww / 2), self.width() - ww)
            y = min(max(0, p.y() - hh / 2), self.height() - hh)
            boxes.append([x, y, ww, hh])
        for still in ([], [self._middle()]):
            for w, (x, y, ww, hh) in zip(self.seats.values(),
                                         separate(boxes, self.width(), self.height(),
                                                  still=still), strict=True):
                w.setGeometry(int(x), int(y), int(ww), int(hh))
            self._place_center()
            if not self._middle_covered():
                break

    def _middle_covered(self) -> bool:
        """Whether a seat box lies over the board or the pots as placed."""
        shown = []
        for w in (self._board_holder, self.pots):
            if w.isVisible() and w.sizeHint().width() and (w is not self.pots or w.text()):
                at = w.rect().translated(w.mapTo(self, w.rect().topLeft()))
                drawn = min(at.width(), w.sizeHint().width())
                at.adjust((at.width() - drawn) // 2, 0, -((at.width() - drawn) // 2), 0)
                shown.append(at)
        return any(s.geometry().intersects(r) for s in self.seats.values() for r in shown)

    def _middle(self) -> list[float]:
        """The least the felt's middle needs, where the seats must leave it: the board and
        the pots (the title and the notes give way first). An eight-seat replay covered the
        pots, nine seats the board."""
        cw = int(self.width() * 0.44)
        need = wide = 0
        if self._board_lay.count():
            need += self._board_holder.sizeHint().height() + self._center_lay.spacing()
            wide = self._board_holder.sizeHint().width()
        if self.pots.text():
            need += self.pots.heightForWidth(cw)
            wide = max(wide, min(cw, self.pots.sizeHint().width()))
        return [self.width() / 2 - wide / 2, self.height() / 2 - need / 2, float(wide),
                float(need)]

    def _place_center(self) -> None:
        """The board, pots and notes go in the free band between the upper and lower seats."""
        cw = int(self.width() * 0.44)
        x0 = int(self.width() / 2 - cw / 2)
        top, bottom = int(self.height() * 0.12), int(self.height() * 0.9)
        mid = self.height() / 2
        for w in self.seats.values():
            g = w.geometry()
            if g.right() < x0 or g.left() > x0 + cw:
                continue
            if g.center().y() < mid:
                top = max(top, g.bottom() + 4)
            else:
                bottom = min(bottom, g.top() - 4)
        # what does not fit between the seats is shortened, never drawn over: first the notes
        # go on one line, then into the tooltip, then the title; the pots always show
        view = self.view
        notes = tuple(view.info) if view is not None else ()
        self.info.setText("\n".join(notes))
        self.info.setVisible(bool(notes))
        self.title.setVisible(True)
        self.center.setToolTip("")
        for step in ("one line", "no notes", "no title"):
            if self._center_lay.totalHeightForWidth(cw) <= bottom - top:
                break
            if step == "one line":
                self.info.setText("  ·  ".join(notes))
            elif step == "no notes":
                self.info.hide()
                self.center.setToolTip("\n".join(notes))
            else:
                self.title.hide()
        need = self._center_lay.totalHeightForWidth(cw)
        if need > bottom - top:  # still crowded: overlap the seats' edges, not each other
            top = max(0, int(mid - need / 2))
            bottom = min(self.height(), top + need)
        self.center.setGeometry(x0, top, cw, bottom - top)

    def resizeEvent(self, event: object) -> None:
        if self.view is not None:
            self._rebuild()
        else:
            self._place()

    def paintEvent(self, event: object) -> None:
        t = self.theme
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        felt = self._felt_rect()
        p.setPen(QPen(QColor(t.felt_edge), max(10.0, self.height() * 0.035)))
        p.setBrush(QBrush(QColor(t.felt)))
        p.drawEllipse(felt)
        p.setPen(QPen(QColor(255, 255, 255, 60), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(felt.adjusted(30, 30, -30, -30))
        view = self.view
        if view is not None and view.to_act is not None and view.to_act in self.seats:
            w = self.seats[view.to_act]
            glow = QRectF(w.geometry()).adjusted(-8, -8, 8, 8)
            p.setPen(QPen(QColor(t.accent), 8))
            p.drawRoundedRect(glow, 16, 16)
        # the dealer's place, bottom centre
        p.setPen(QPen(QColor(t.felt_text)))
        f = QFont(self.font())
        f.setPixelSize(max(12, int(15 * self.scale())))
        p.setFont(f)
        p.drawText(
            QRectF(0, felt.bottom() - 40, self.width(), 30),
            int(Qt.AlignmentFlag.AlignCenter), "DEALER",
        )
        p.end()


#: The least space left between two seat boxes.
SEAT_GAP = 6


def separate(boxes: list[list[float]], width: float, height: float,
             *, gap: float = SEAT_GAP, still: list[list[float]] | None = None
             ) -> list[list[float]]:
    """Seat boxes ``[x, y, w, h]`` moved apart until no two overlap (nor come closer than
    ``gap``), each kept inside ``width`` x ``height``. Spacing seats evenly around the oval
    leaves neighbours overlapping where it turns a corner of a small felt (the floor's replay
    at 1280x800: by 10 px and more); each overlapping pair is pushed apart along the axis it
    overlaps least, both halves of the way where the edge allows, a few rounds over. Boxes
    in ``still`` (the board and pots) do not move: a seat over one is pushed off it."""
    out = [list(b) for b in boxes]

    def clamp(b: list[float]) -> None:
        b[0] = min(max(0.0, b[0]), max(0.0, width - b[2]))
        b[1] = min(max(0.0, b[1]), max(0.0, height - b[3]))

    fixed = [list(b) for b in still or () if b[2] > 0 and b[3] > 0]

    def apart(a: list[float], b: list[float]) -> list[tuple[int, float, float]]:
        """How far ``b`` must move from ``a`` along each axis (the shorter first) and which
        way, or nothing when they are ``gap`` apart already."""
        dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) + gap
        dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) + gap
        if dx <= 0 or dy <= 0:
            return []
        return [(axis, push,
                 1.0 if b[axis] + b[axis + 2] / 2 >= a[axis] + a[axis + 2] / 2 else -1.0)
                for axis, push in sorted(((0, dx), (1, dy)), key=lambda x: x[1])]

    def keep_clear() -> bool:
        """Seats off what must stay clear (the board and pots); only the seat moves."""
        moved = False
        for a in fixed:
            for b in out:
                pushes = apart(a, b)
                if not pushes:
                    continue
                moved = True
                for axis, push, sign in pushes:
                    before = b[axis]
                    b[axis] += sign * push
                    clamp(b)
                    if abs(b[axis] - before) >= push - 0.5:
                        break
                    b[axis] = before  # the edge stopped it: the other way instead
        return moved

    for _ in range(60):
        moved = keep_clear()
        for i, a in enumerate(out):
            for b in out[i + 1:]:
                pushes = apart(a, b)
                if not pushes:
                    continue
                moved = True
                for axis, push, sign in pushes:
                    before = (a[axis], b[axis])
                    a[axis] -= sign * push / 2
                    b[axis] += sign * push / 2
                    clamp(a)
                    clamp(b)
                    short = push - abs(a[axis] - before[0]) - abs(b[axis] - before[1])
                    if short > 0:  # one met the edge: the other goes the rest of the way
                        a[axis] -= sign * short
                        b[axis] += sign * short
                        clamp(a)
                        clamp(b)
                    if push - abs(a[axis] - before[0]) - abs(b[axis] - before[1]) < 0.5:
                        break
                    a[axis], b[axis] = before  # both at the edge: apart the other way
        if not moved:
            break
    return out
