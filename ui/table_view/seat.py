"""One seat's box on the felt: name, stack, status, cards, what was put in."""

from __future__ import annotations

from dealer_assist.engine.base import SeatView
from dealer_assist.money import format_cents
from dealer_assist.ui.qt import (
    QFont,
    QFontMetrics,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.table_view.cards import (
    SPACING,
    CardLabel,
    card_row,
    row_px,
    status_text,
)
from dealer_assist.ui.theme import Theme


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
