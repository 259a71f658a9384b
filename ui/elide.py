"""A one-line label that never widens its window: long text (a database path, a cardroom's
name) is cut with an ellipsis to the room it has, and the whole text is in its tooltip."""

from __future__ import annotations

from typing import Any

from dealer_assist.ui.qt import QLabel, QSize, QSizePolicy, Qt, QWidget


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
