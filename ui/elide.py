"""A one-line label that never widens its window: long text (a database path, a cardroom's
name) is cut with an ellipsis to the room it has, and the whole text is in its tooltip."""

from __future__ import annotations

from typing import Any

from dealer_assist.ui.qt import QEvent, QLabel, QSize, QSizePolicy, Qt, QWidget


class ElidedLabel(QLabel):
    """Shows as much of ``full_text`` as fits (``…`` where it is cut); hover for the rest."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle) -> None:
        super().__init__(parent)
        self.mode = mode
        self.full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    def text(self) -> str:
        return self.full_text

    def minimumSizeHint(self) -> QSize:
        return QSize(60, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self.full_text) + 8,
                     super().sizeHint().height())

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self.full_text, self.mode, max(self.width(), 60))
        QLabel.setText(self, shown)

    def displayed(self) -> str:
        """The text as drawn now (cut to fit)."""
        return str(QLabel.text(self))


#: A line as (head, middle, tail): head and tail are kept whole, the middle is cut to fit.
Line = tuple[str, str, str]


def fit_line(metrics: Any, width: int, line: Line) -> str:
    """One line within ``width`` pixels: the head and the tail whole (a table's name, its
    status), the middle (a game and its stakes) cut with ``…`` when the line is longer; the
    tail too when even that does not fit."""
    head, middle, tail = line
    whole = head + middle + tail
    if metrics.horizontalAdvance(whole) <= width:
        return whole
    room = width - metrics.horizontalAdvance(head + tail)
    if middle and room >= metrics.horizontalAdvance("…") * 3:
        return head + str(metrics.elidedText(middle, Qt.TextElideMode.ElideRight, room)) + tail
    return str(metrics.elidedText(whole, Qt.TextElideMode.ElideRight, width))


class FittedLines(QLabel):
    """Lines that each stay on one line of the label's width (:func:`fit_line`), never
    wrapped into the next: a long game name and stakes are cut, the table's name and status
    stay. ``text()`` is the whole text; :meth:`displayed` what is drawn."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lines: list[Line] = []
        self.full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_lines(self, lines: list[Line]) -> None:
        self.lines = list(lines)
        self.full_text = "\n".join("".join(x) for x in self.lines)
        self._fit()

    def setText(self, text: str) -> None:
        self.set_lines([(line, "", "") for line in text.split("\n")] if text else [])

    def text(self) -> str:
        return self.full_text

    def minimumSizeHint(self) -> QSize:
        return QSize(60, self.fontMetrics().height())  # the lines below it may be cut off

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()

    def _fit(self) -> None:
        self.ensurePolished()  # the style sheet's font size, before the first show too
        width = max(self.contentsRect().width() - 2 * self.margin(), 60)
        fm = self.fontMetrics()
        QLabel.setText(self, "\n".join(fit_line(fm, width, x) for x in self.lines))

    def displayed(self) -> str:
        """The text as drawn now (each line cut to fit)."""
        return str(QLabel.text(self))
