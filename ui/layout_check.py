"""What the screens show, checked with the font rather than by eye: every window fits the
station's screen (1280x800), every button shows its whole label, every button of the main
window shows its key ("[C]", "[F4]", "[2 S]"), and no text is clipped or squeezed.

The tests call :func:`problems`; the app itself runs it twenty times a second
when ``DEALER_ASSIST_LAYOUT_LOG`` names a file (:func:`watch`), and writes a line per check, so
the real-window tests, which drive the app as a separate process by keystrokes, read what the
font says about each step.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from dealer_assist.ui.qt import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QObject,
    QPushButton,
    QSize,
    QStyle,
    QStyleOptionButton,
    Qt,
    QTableView,
    QTimer,
    QWidget,
)

#: The screen every window must fit.
STATION = QSize(1280, 800)
#: A button's key, as it is written at the end of its label.
KEY = re.compile(r"\[[^\[\]]+\]\s*$", re.MULTILINE)


def _shown(w: QWidget, win: QWidget | None = None) -> bool:
    """Shown now (and, with ``win``, in that window, not in a dialog it owns)."""
    return (w.isVisible() and w.width() > 0 and w.height() > 0
            and (win is None or w.window() is win))


def _name(w: QWidget) -> str:
    return w.objectName() or type(w).__name__


def button_needs(b: QPushButton) -> QSize:
    """The size the button's label needs: its lines measured with the button's font, plus
    what the style (and the style sheet's padding and border) puts around them."""
    fm = b.fontMetrics()
    shown = b.text().replace("&&", "\0").replace("&", "").replace("\0", "&")  # mnemonics
    lines = shown.split("\n")
    text = QSize(max(fm.horizontalAdvance(line) for line in lines), fm.height() * len(lines))
    opt = QStyleOptionButton()
    opt.initFrom(b)
    opt.text = b.text()
    return b.style().sizeFromContents(QStyle.ContentsType.CT_PushButton, opt, text, b)


def label_clipped(label: QLabel) -> bool:
    """A one-line label (not word-wrapped, not rich text) whose text is wider than its room."""
    text = label.text()
    rich = label.textFormat() == Qt.TextFormat.RichText or "<" in text
    if not text or label.wordWrap() or rich or hasattr(label, "full_text"):
        return False
    if label.buddy() is not None:  # "&Name": the & marks the key, it is not drawn
        text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    fm = label.fontMetrics()
    need = max(fm.horizontalAdvance(line) for line in text.split("\n"))
    return need > label.contentsRect().width() - 2 * label.margin() - label.indent() + 1


def problems(screen: QSize = STATION) -> list[str]:
    """Everything shown now that does not fit, is clipped, or lacks its key."""
    app = QApplication.instance()
    out: list[str] = []
    if not isinstance(app, QApplication):
        return out
    for win in app.topLevelWidgets():
        if not _shown(win) or win.windowType() in (Qt.WindowType.ToolTip, Qt.WindowType.Popup):
            continue
        title = win.windowTitle() or _name(win)
        # offscreen (the tests), the frame is a guess of the platform's: the window is it
        frame = win.geometry() if app.platformName() == "offscreen" else win.frameGeometry()
        if frame.width() > screen.width() or frame.height() > screen.height():
            out.append(f"{title}: the window is {frame.width()}x{frame.height()}, larger than "
                       f"{screen.width()}x{screen.height()}")
        need = win.minimumSizeHint().expandedTo(win.minimumSize())
        if need.width() > screen.width() or need.height() > screen.height():
            out.append(f"{title}: the window needs {need.width()}x{need.height()}")
        main = isinstance(win, QMainWindow)
        for b in win.findChildren(QPushButton):
            if not _shown(b, win) or not b.text() or b.property("role") == "pick":
                continue
            needs = button_needs(b)
            lines = b.text().count("\n") + 1
            if b.width() < needs.width() or b.height() < b.fontMetrics().height() * lines:
                out.append(f"{title}: button {b.text()!r} is {b.width()}x{b.height()}, its "
                           f"label needs {needs.width()}x{needs.height()}")
            if main and not KEY.search(b.text()):
                out.append(f"{title}: button {b.text()!r} shows no key")
            if not win.rect().contains(b.geometry().translated(b.mapTo(win, b.rect().topLeft())
                                                                - b.geometry().topLeft())):
                out.append(f"{title}: button {b.text()!r} is outside its window")
        for label in win.findChildren(QLabel):
            if not _shown(label, win):
                continue
            if label_clipped(label):
                out.append(f"{title}: label {_name(label)} {label.text()[:60]!r} is clipped")
            elif (label.wordWrap() and label.text()
                  and label.height() < label.heightForWidth(label.width())):
                out.append(f"{title}: label {_name(label)} {label.text()[:60]!r} is squeezed "
                           f"({label.height()} px high, its text needs "
                           f"{label.heightForWidth(label.width())})")
        for edit in win.findChildren(QLineEdit):
            if isinstance(edit.parentWidget(), QComboBox):  # an editable list's own box
                continue
            if _shown(edit, win) and edit.height() < edit.minimumSizeHint().height():
                out.append(f"{title}: box {_name(edit)} is squeezed to {edit.height()} px")
            if (_shown(edit, win) and edit.objectName() == "CardInput"
                    and edit.fontMetrics().horizontalAdvance(edit.text())
                    > edit.contentsRect().width() - 8):
                out.append(f"{title}: the card box shows part of {edit.text()!r}")
        for felt in win.findChildren(QWidget, "table"):
            out += _felt_problems(title, felt) if _shown(felt, win) else []
        for view in win.findChildren(QTableView):
            head = view.horizontalHeader()
            if not _shown(view, win) or not head.isVisible():
                continue
            model = view.model()
            for i in range(head.count()):
                if head.isSectionHidden(i) or model is None:
                    continue
                name = str(model.headerData(i, Qt.Orientation.Horizontal) or "")
                wants = head.fontMetrics().horizontalAdvance(name) + 12  # its margins
                if name and head.sectionSize(i) < wants:
                    out.append(f"{title}: the list's header {name!r} is "
                               f"{head.sectionSize(i)} px wide, its name needs {wants}")
        for other in win.findChildren(QAbstractButton):
            if isinstance(other, QPushButton) or not _shown(other, win) or not other.text():
                continue
            if other.width() < other.sizeHint().width():
                out.append(f"{title}: {_name(other)} {other.text()[:60]!r} is clipped")
    return out


def _felt_problems(title: str, felt: QWidget) -> list[str]:
    """Seat boxes of the drawn table over each other, over the board or the pots, or over a
    widget beside the table (the replay's slider): nine seats hid Pineapple's board."""
    seats = getattr(felt, "seats", None)
    if not isinstance(seats, dict):
        return []
    out = []
    boxes = {n: w.geometry() for n, w in seats.items() if w.isVisible()}
    for a, ra in boxes.items():
        out += [f"{title}: seat {a}'s box lies over seat {b}'s" for b, rb in boxes.items()
                if a < b and ra.intersects(rb)]
    for name in ("table-board", "table-pots"):
        w = felt.findChild(QWidget, name)
        if w is None or not w.isVisible() or not w.width():
            continue
        at = w.rect().translated(w.mapTo(felt, w.rect().topLeft()))
        drawn = min(at.width(), w.sizeHint().width())  # centred text, not the label's room
        at.adjust((at.width() - drawn) // 2, 0, -((at.width() - drawn) // 2), 0)
        out += [f"{title}: seat {n}'s box lies over the {name[6:]}" for n, r in boxes.items()
                if r.intersects(at)]
    parent = felt.parentWidget()
    if parent is not None:
        mine = felt.geometry()
        direct = Qt.FindChildOption.FindDirectChildrenOnly
        for other in parent.findChildren(QWidget, options=direct):
            if (other is not felt and not other.isWindow() and other.isVisible()
                    and other.geometry().intersects(mine)):
                out.append(f"{title}: {_name(other)} lies over the table")
    return out


class _Watcher(QObject):
    """Checks what is shown a moment after each key, click or window change."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.n = 0
        self.timer = QTimer(self)
        self.timer.setInterval(50)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        self.n += 1
        app = QApplication.instance()
        windows = [w.windowTitle() for w in (app.topLevelWidgets()
                                             if isinstance(app, QApplication) else ())
                   if _shown(w) and w.windowTitle()]
        line: dict[str, object] = {"n": self.n, "windows": windows, "problems": problems()}
        shown = {}
        for w in app.topLevelWidgets() if isinstance(app, QApplication) else ():
            drawn = getattr(w, "displayed", None)
            if _shown(w) and callable(drawn):
                shown[w.windowTitle()] = str(drawn())
        if shown:  # a read-only window's text as drawn (the players' board)
            line["shown"] = shown
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def watch(path: str) -> QObject:
    """Check what is shown twenty times a second, a line per check in ``path`` (keep the
    returned object alive)."""
    return _Watcher(Path(path))
