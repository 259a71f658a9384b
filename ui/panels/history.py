"""The hand's history (each recorded event in words) and the database banner."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.engine.hand import Step
from dealer_assist.ui.qt import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)


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
