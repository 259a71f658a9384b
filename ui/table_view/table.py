"""The oval felt with its seats around it, the board, the pots and the title, drawn from a
:class:`TableView`."""

from __future__ import annotations

import itertools
import math

from dealer_assist.engine.base import TableView
from dealer_assist.ui.qt import (
    QBrush,
    QColor,
    QFont,
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
from dealer_assist.ui.table_view.cards import (
    _height,
    _pots_html,
    _title,
    card_row,
)
from dealer_assist.ui.table_view.placing import separate
from dealer_assist.ui.table_view.seat import SeatWidget
from dealer_assist.ui.theme import Theme, current_theme


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
