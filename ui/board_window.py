"""The players' board: a full-screen, read-only window for a screen facing the room.

It shows the games running with their stakes, each table's status and open seats, every
waiting list in order and the calls out, in big type and the station's theme; never money. It
asks no PIN and writes nothing. A thread waits on the board's feed (NOTIFY on PostgreSQL,
polling on SQLite) and the window redraws within a second of a floor record's commit.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.services.floorboard.view import BoardView, board_view
from dealer_assist.ui.elide import FittedLines, Line
from dealer_assist.ui.qt import (
    QHBoxLayout,
    QLabel,
    QObject,
    QSizePolicy,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from dealer_assist.ui.theme import current_theme

#: How long the feed thread waits before it looks again (and notices the window closed).
WAIT_S = 0.5
#: The board reads again at least this often: a dealer's shift opening or closing (a table
#: going, or no longer) is not a floor record, so the feed does not tell of it.
AGAIN_S = 3.0


class _Bridge(QObject):
    changed = Signal()


def _label(name: str, px: int, *, bold: bool = False, label: QLabel | None = None) -> QLabel:
    """A wrapped label of the board, or ``label`` set up alike."""
    label = label if label is not None else QLabel("")
    label.setObjectName(name)
    label.setWordWrap(not isinstance(label, FittedLines))
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    label.setStyleSheet(f"font-size: {px}px;" + (" font-weight: bold;" if bold else ""))
    return label


class _Tables(FittedLines):
    """The open tables: two lines each (name, game and stakes; status and open seats) while
    they fit the board's height; when they do not, one line each, the game cut first; and
    if even that does not fit, the last line says how many more tables are open."""

    def __init__(self) -> None:
        super().__init__()
        #: Each table's name, game and stakes, and its status and open seats.
        self.tables: list[tuple[str, str, str]] = []

    def set_tables(self, tables: list[tuple[str, str, str]]) -> None:
        self.tables = tables
        self.set_lines(self._two_lines())

    def _two_lines(self) -> list[Line]:
        lines: list[Line] = [("TABLES", "", "")]
        for name, game, status in self.tables:
            lines += [(f"{name}  ", game, ""), ("", f"    {status}", "")]
        return lines if self.tables else [*lines, ("none open", "", "")]

    def _fit(self) -> None:
        self.ensurePolished()
        rows = max(self.contentsRect().height() // max(self.fontMetrics().lineSpacing(), 1), 1)
        lines = self._two_lines()
        if len(lines) > rows:
            lines = [lines[0], *((f"{name}  ", game, f" — {status}")
                                 for name, game, status in self.tables)]
        if len(lines) > rows:
            more = len(lines) - rows + 1
            lines = [*lines[:rows - 1], (f"… and {more} more tables open", "", "")]
        self.lines = lines
        super()._fit()


class _Lists(FittedLines):
    """The waiting lists: a player a line while the lists fit the board's height; when they
    do not, as many players a line as the width takes, so nobody waiting is off the screen."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[Line, list[str]]] = []

    def set_blocks(self, blocks: list[tuple[Line, list[str]]]) -> None:
        self.blocks = blocks
        self.set_lines(self._one_a_line())

    def _one_a_line(self) -> list[Line]:
        lines: list[Line] = [("WAITING LISTS", "", "")]
        for head, names in self.blocks:
            lines += [head, *((f"  {n}", "", "") for n in names)]
        return lines if self.blocks else [*lines, ("no one waiting", "", "")]

    def _fit(self) -> None:
        self.ensurePolished()
        fm = self.fontMetrics()
        rows = max(self.contentsRect().height() // max(fm.lineSpacing(), 1), 1)
        lines = self._one_a_line()
        if len(lines) > rows:  # pack each list's players into rows of the width
            width = max(self.contentsRect().width(), 60)
            lines = [lines[0]]
            for head, names in self.blocks:
                lines.append(head)
                row = ""
                for n in names:
                    joined = f"{row}   {n}" if row else f"  {n}"
                    if row and fm.horizontalAdvance(joined) > width:
                        lines.append((row, "", ""))
                        joined = f"  {n}"
                    row = joined
                if row:
                    lines.append((row, "", ""))
        if len(lines) > rows:  # still taller: say how many more there are, never cut silently
            hidden = sum(len(_ENTRY.findall(x[0])) for x in lines[rows - 1:]
                         if x[0].startswith("  "))
            lines = [*lines[:rows - 1], (f"  … and {hidden} more waiting", "", "")]
        self.lines = lines
        super()._fit()


class BoardWindow(QWidget):
    """See the module's docstring. ``feed_factory`` gives the change feed (None: the window
    reads again only when asked, as the tests do)."""

    def __init__(self, board: FloorBoard, *, room: str = "",
                 feed_factory: Callable[[], Any] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("players-board")
        self.setWindowTitle(f"{room} — board".strip(" —"))
        self.board = board
        self.room = room
        t = current_theme()
        big, huge = t.prompt_px + 6, t.prompt_px + 18
        self.setStyleSheet(f"QWidget#players-board {{ background: {t.bg}; }} "
                           f"QLabel {{ color: {t.text}; }}")
        root = QVBoxLayout(self)
        root.setContentsMargins(32, 24, 32, 24)
        self.title = _label("board-title", huge, bold=True)
        self.games = _label("board-games", big)
        root.addWidget(self.title)
        root.addWidget(self.games)
        cols = QHBoxLayout()
        # each line of a table or a list on one line: a long game name and stakes cut with …
        self.tables, self.lists = _Tables(), _Lists()
        for name, label in (("board-tables", self.tables), ("board-lists", self.lists)):
            _label(name, big, label=label)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        cols.addWidget(self.tables, 3)  # a table's line is the longest: it has the room
        cols.addWidget(self.lists, 2)
        root.addLayout(cols, 1)
        self.calls = _label("board-calls", big, bold=True)
        self.calls.setStyleSheet(self.calls.styleSheet() + f" color: {t.accent};")
        root.addWidget(self.calls)
        #: Redraws done (the tests wait on it).
        self.updates = 0
        self._bridge = _Bridge()
        self._bridge.changed.connect(self.reload)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._feed_factory = feed_factory
        self.reload()

    # --- the feed ------------------------------------------------------------------------
    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._feed_factory is not None and self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._listen, daemon=True,
                                            name="board-feed")
            self._thread.start()

    def _listen(self) -> None:
        assert self._feed_factory is not None
        feed = self._feed_factory()
        last = time.monotonic()
        try:
            while not self._stop.is_set():
                changed = feed.wait(WAIT_S)
                if (changed or time.monotonic() - last >= AGAIN_S) and not self._stop.is_set():
                    last = time.monotonic()
                    self._bridge.changed.emit()
        finally:
            feed.close()

    def closeEvent(self, event: Any) -> None:
        self.stop()
        super().closeEvent(event)

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)

    # --- what it shows -------------------------------------------------------------------
    def reload(self) -> None:
        try:
            view = board_view(self.board.state(), self.board.tables.floor_tables())
        except DealerAssistError as exc:
            self.calls.setText(f"The board waits for the server ({exc})")
            return
        self.show_view(view)

    def show_view(self, view: BoardView) -> None:
        self.title.setText(self.room or "Tables and lists")
        # a game or a call wraps between items, never inside one
        self.games.setText("Games running: " + (" · ".join(_whole(g) for g in view.games)
                                                or "none yet"))
        rows = []
        for t in view.tables:
            if t.status == "closed":
                continue
            status = ("breaking: no new seats" if t.status == "breaking"
                      else f"{t.status}, open seats {_seats(t.open_seats)}" if t.open_seats
                      else f"{t.status}, full")
            rows.append((t.name, f"{t.game} {t.stakes}".rstrip(), status))
        self.tables.set_tables(rows)
        # a list's stakes stay whole (two lists of one game differ by them), its game is cut
        self.lists.set_blocks([(("", lst.game, f" {lst.stakes}".rstrip()
                                 + (" (interest list)" if lst.interest else "")),
                                [_whole(f"{i}. {n}") for i, n in enumerate(lst.names, 1)])
                               for lst in view.lists])
        self.calls.setText("CALLED: " + "   ".join(_whole(c) for c in view.calls)
                           if view.calls else "")
        self.updates += 1

    def text(self) -> str:
        """Everything the board shows, as one text (the tests read it)."""
        return "\n".join(_plain(w.text()) for w in (
            self.title, self.games, self.tables, self.lists, self.calls))

    def displayed(self) -> str:
        """What the board draws now, each line as cut to fit (the real-window tests and the
        layout check's log read it)."""
        return "\n".join(_plain(w.displayed() if isinstance(w, FittedLines) else w.text())
                         for w in (self.title, self.games, self.tables, self.lists,
                                   self.calls))


#: A player's place on a list as drawn ("12.\u00a0Ann").
_ENTRY = re.compile(r"\d+\.\u00a0")
#: A space and a hyphen that a line never breaks at.
NBSP, NBHY = "\u00a0", "\u2011"


def _whole(item: str) -> str:
    """An item of a wrapped line ("K4 → Caro-1 seat 3") that wraps as one."""
    return item.replace(" ", NBSP).replace("-", NBHY)


def _plain(text: str) -> str:
    return text.replace(NBSP, " ").replace(NBHY, "-")


def _seats(seats: tuple[int, ...]) -> str:
    """Seat numbers with runs of three or more as a range: "1, 3–6"."""
    out: list[str] = []
    run: list[int] = []
    for s in [*seats, None]:
        if s is not None and run and s == run[-1] + 1:
            run.append(s)
            continue
        if len(run) >= 3:
            out.append(f"{run[0]}–{run[-1]}")
        else:
            out += [str(x) for x in run]
        run = [s] if s is not None else []
    return ", ".join(out)


def board_feed_for(services: Any) -> Callable[[], Any] | None:
    """The board's change feed on the services' database (None: a store without one)."""
    db = services.database
    if db is None:
        return None

    def make() -> Any:
        from dealer_assist.db.board_feed import open_board_feed

        return open_board_feed(db)
    return make
