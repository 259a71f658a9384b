"""The floor console's widgets laid out: the Find filters and the hands list on the left, the
replay and the floor's buttons on the right, the console's keys. What each does is in the
parts (:mod:`.find`, :mod:`.replay`, :mod:`.actions`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from dealer_assist.ui.controllers import FloorController
from dealer_assist.ui.elide import ElidedLabel
from dealer_assist.ui.floor_console.times import utc_time_box
from dealer_assist.ui.panels import FlowLayout
from dealer_assist.ui.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequence,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QShortcut,
    QSlider,
    QSplitter,
    Qt,
    QTableWidget,
    QVBoxLayout,
    QWidget,
    Signal,
    application,
)
from dealer_assist.ui.table_view import TableWidget

COLUMNS = ("Hand", "Table", "Started", "Game", "Dealer", "Events", "Status", "Disputed")


class ReasonBox(QLineEdit):
    """The reveal's reason: Escape leaves it (back to the hands list and the console's keys)."""

    escaped = Signal()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)


class FloorLayout(QWidget):
    """Hands list on the left, the chosen hand's replay and the floor's actions on the right:
    the widgets and keys; :class:`~dealer_assist.ui.floor_console.FloorConsole` adds what they
    do from its parts."""

    #: The tables' names by id, as Find last read them (:meth:`fill_filters`).
    _tables: dict[int, str]

    if TYPE_CHECKING:  # the parts' methods the widgets and the other parts call
        def _enable(self) -> None:
            raise NotImplementedError

        def _enter(self) -> None:
            raise NotImplementedError

        def _selected(self) -> None:
            raise NotImplementedError

        def _step(self, step: int) -> None:
            raise NotImplementedError

        def _show_logs(self) -> None:
            raise NotImplementedError

        def dispute(self) -> None:
            raise NotImplementedError

        def enter_count(self) -> None:
            raise NotImplementedError

        def dealers(self) -> None:
            raise NotImplementedError

        def export_game(self) -> None:
            raise NotImplementedError

        def export_hand(self) -> None:
            raise NotImplementedError

        def export_shift(self) -> None:
            raise NotImplementedError

        def fill_filters(self) -> None:
            raise NotImplementedError

        def find_filters(self) -> None:
            raise NotImplementedError

        def print_report(self, kind: str) -> None:
            raise NotImplementedError

        def reveal(self) -> None:
            raise NotImplementedError

        def search(self) -> None:
            raise NotImplementedError

        def show_notice(self, text: str) -> None:
            raise NotImplementedError

        def verify(self) -> None:
            raise NotImplementedError

        def open_hand(self, hand_id: int) -> None:
            raise NotImplementedError

    def __init__(self, controller: FloorController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("floor-console")
        self.c = controller
        self.export_dir: Path | None = None
        self.last_export: Path | None = None
        self.last_printed: Path | None = None
        self.last_message = ""
        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        # the two banners in the smaller type: at 1280x800 the replay keeps its height
        self.notice = QLabel("")
        self.notice.setObjectName("Refusal")
        self.notice.setProperty("small", "true")
        self.notice.setWordWrap(True)
        self.notice.hide()
        root.addWidget(self.notice)
        self.info = QLabel("")
        self.info.setObjectName("Instruction")
        self.info.setProperty("small", "true")
        self.info.setWordWrap(True)
        self.info.hide()
        root.addWidget(self.info)

        split = QSplitter(Qt.Orientation.Horizontal)
        root.addWidget(split, 1)

        left = QWidget()
        left.setObjectName("floor-left")
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        filters = QGroupBox("Find hands")
        form = QFormLayout(filters)
        self.f_table = QComboBox()
        self.f_table.setObjectName("filter-table")
        self.f_shift = QComboBox()
        self.f_shift.setObjectName("filter-shift")
        self.f_game = QComboBox()
        self.f_game.setObjectName("filter-game")
        self.f_dealer = QLineEdit()
        self.f_dealer.setObjectName("filter-dealer")
        self.f_dealer.setPlaceholderText("any dealer")
        self.f_dealer.returnPressed.connect(self.search)
        from_row = QHBoxLayout()
        self.f_from_on = QCheckBox("")
        self.f_from_on.setObjectName("filter-from-on")
        self.f_from = utc_time_box()
        from_row.addWidget(self.f_from_on)
        from_row.addWidget(self.f_from, 1)
        to_row = QHBoxLayout()
        self.f_to_on = QCheckBox("")
        self.f_to_on.setObjectName("filter-to-on")
        self.f_to = utc_time_box()
        to_row.addWidget(self.f_to_on)
        to_row.addWidget(self.f_to, 1)
        for combo in (self.f_table, self.f_shift, self.f_game):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        self.f_disputed = QCheckBox("only disputed hands")
        self.f_disputed.setObjectName("filter-disputed")
        form.addRow("Table", self.f_table)
        form.addRow("Shift", self.f_shift)
        form.addRow("Game", self.f_game)
        form.addRow("Dealer", self.f_dealer)
        form.addRow("From (UTC)", from_row)
        form.addRow("To (UTC)", to_row)
        form.addRow("", self.f_disputed)
        self.search_button = QPushButton("Find   [Enter]")
        self.search_button.setObjectName("search")
        self.search_button.setProperty("role", "primary")
        self.search_button.clicked.connect(self.search)
        form.addRow("", self.search_button)
        ll.addWidget(filters)
        self.list = QTableWidget(0, len(COLUMNS))
        self.list.setObjectName("hands")
        self.list.setHorizontalHeaderLabels(COLUMNS)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Tab leaves the list (to the replay's keys, then round to the Find filters): it moved
        # from cell to cell and the filters could not be reached by keyboard
        self.list.setTabKeyNavigation(False)
        self.list.verticalHeader().setVisible(False)
        header = self.list.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the game's name and the status share the width left (cut with "…"): every column
        # stays in view
        for name in ("Game", "Status"):
            header.setSectionResizeMode(COLUMNS.index(name), QHeaderView.ResizeMode.Stretch)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        started = self.list.horizontalHeaderItem(COLUMNS.index("Started"))
        assert started is not None  # the header's labels are set above
        started.setToolTip("when the hand started, UTC (month-day hour:minute)")
        header.setMinimumSectionSize(36)
        self.list.setWordWrap(False)
        # the event count is in the replay's slider ("event 1 of 26") and a dispute in the
        # status ("settled · disputed"): the list leaves those columns out
        self.list.setColumnHidden(COLUMNS.index("Events"), True)
        self.list.setColumnHidden(COLUMNS.index("Disputed"), True)
        self.list.setMinimumWidth(200)
        left.setMinimumWidth(380)
        self.list.itemSelectionChanged.connect(self._selected)
        ll.addWidget(self.list, 1)
        split.addWidget(left)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        # one line, cut with "…" (the whole in its tooltip): two lines took the replay's room
        self.title = ElidedLabel("Choose a hand", mode=Qt.TextElideMode.ElideRight)
        self.title.setObjectName("Heading")
        rl.addWidget(self.title)
        self.table = TableWidget()
        self.table.setMinimumSize(480, 220)
        rl.addWidget(self.table, 1)
        steps = QHBoxLayout()
        self.prev = QPushButton("◀  [←]")
        self.prev.setObjectName("step-prev")
        self.prev.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        steps.addWidget(self.prev)
        self.slider: QSlider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("step-slider")
        self.slider.setMinimum(1)
        self.slider.setMaximum(1)
        self.slider.valueChanged.connect(self._step)
        steps.addWidget(self.slider, 1)
        self.next = QPushButton("▶  [→]")
        self.next.setObjectName("step-next")
        self.next.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        steps.addWidget(self.next)
        self.step_label = QLabel("")
        self.step_label.setObjectName("step-label")
        self.step_label.setMinimumWidth(150)
        steps.addWidget(self.step_label)
        rl.addLayout(steps)
        self.narration = QLabel("")
        self.narration.setObjectName("narration")
        self.narration.setWordWrap(True)
        self.narration.setStyleSheet("font-weight: bold;")
        rl.addWidget(self.narration)
        bar = QHBoxLayout()
        self.reveal_reason = ReasonBox()
        self.reveal_reason.setObjectName("reveal-reason")
        self.reveal_reason.escaped.connect(self.list.setFocus)
        self.reveal_reason.setPlaceholderText("why reveal? (required, logged)")
        self.reveal_reason.setMinimumWidth(260)
        self.reveal_reason.returnPressed.connect(self.reveal)
        bar.addWidget(self.reveal_reason, 1)
        self.reveal_button = QPushButton("Reveal  [R]")
        self.reveal_button.setObjectName("reveal")
        self.reveal_button.setToolTip("show destroyed hands' cards (floor only; logged)")
        self.reveal_button.clicked.connect(self.reveal)
        self.dispute_button = QPushButton("Dispute…  [D]")
        self.dispute_button.setObjectName("dispute")
        self.dispute_button.clicked.connect(self.dispute)
        self.hand_pdf = QPushButton("Hand PDF  [H]")
        self.hand_pdf.setObjectName("export-hand")
        self.hand_pdf.clicked.connect(self.export_hand)
        self.shift_pdf = QPushButton("Shift PDF  [S]")
        self.shift_pdf.setObjectName("export-shift")
        self.shift_pdf.clicked.connect(self.export_shift)
        self.game_pdf = QPushButton("Game PDF  [G]")
        self.game_pdf.setObjectName("export-game")
        self.game_pdf.setToolTip("the table's latest game of many hands: its score sheet and "
                                 "each hand's money")
        self.game_pdf.clicked.connect(self.export_game)
        self.print_hand = QPushButton("Print hand  [P]")
        self.print_hand.setObjectName("print-hand")
        self.print_hand.setToolTip("the hand report, through the system's print dialog")
        self.print_hand.clicked.connect(lambda: self.print_report("hand"))
        self.print_shift = QPushButton("Print shift  [Shift+P]")
        self.print_shift.setObjectName("print-shift")
        self.print_shift.setToolTip("the shift report, through the system's print dialog")
        self.print_shift.clicked.connect(lambda: self.print_report("shift"))
        self.verify_button = QPushButton("Verify  [V]")
        self.verify_button.setObjectName("verify")
        self.verify_button.clicked.connect(self.verify)
        # short rows, so the console fits a 1280x800 station, leaves the Find panel its room
        # and the replay felt its height: the reveal with a reason box wide enough to read, the
        # hand's and shift's papers, then the room's actions beside the hand's log
        bar.addWidget(self.reveal_button)
        bar.addWidget(self.dispute_button)
        rl.addLayout(bar)
        papers = FlowLayout(spacing=6)
        for b in (self.hand_pdf, self.shift_pdf, self.print_hand, self.print_shift):
            papers.addWidget(b)
        rl.addLayout(papers)
        room_bar = QHBoxLayout()
        self.count_button = QPushButton("Drop count…  [C]")
        self.count_button.setObjectName("count")
        self.count_button.setToolTip("enter the count team's count of this hand's shift "
                                     "(logged; a correction keeps the first count)")
        self.count_button.clicked.connect(self.enter_count)
        log = QScrollArea()
        log.setObjectName("Panel")
        log.setWidgetResizable(True)
        log.setFrameShape(QFrame.Shape.NoFrame)
        # the reveals and disputes scroll in a short box: grown with each reveal, they
        # squeezed the replay until the slider lay over the seats
        log.setMaximumHeight(76)
        log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        inner = QWidget()
        log.setWidget(inner)
        lg = QVBoxLayout(inner)
        lg.setContentsMargins(8, 4, 8, 4)
        self.reveals_label = QLabel("")
        self.reveals_label.setObjectName("reveals")
        self.reveals_label.setWordWrap(True)
        lg.addWidget(self.reveals_label)
        self.disputes_label = QLabel("")
        self.disputes_label.setObjectName("disputes")
        self.disputes_label.setWordWrap(True)
        lg.addWidget(self.disputes_label)
        room_bar.addWidget(log, 1)
        self.dealers_button = QPushButton("Dealers…  [W]")
        self.dealers_button.setObjectName("dealers")
        self.dealers_button.clicked.connect(self.dealers)
        for b in (self.game_pdf, self.count_button, self.dealers_button, self.verify_button):
            room_bar.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        rl.addLayout(room_bar)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        # the list wide enough for every column's name ("Game" and "Status" were clipped)
        split.setSizes([490, 770])

        self._letters: list[QShortcut] = []
        for seq, fn in (
            ("Left", lambda: self.slider.setValue(self.slider.value() - 1)),
            ("Right", lambda: self.slider.setValue(self.slider.value() + 1)),
            ("Home", lambda: self.slider.setValue(self.slider.minimum())),
            ("End", lambda: self.slider.setValue(self.slider.maximum())),
            ("R", self.reveal), ("D", self.dispute), ("H", self.export_hand),
            ("S", self.export_shift), ("V", self.verify), ("Return", self._enter),
            ("C", self.enter_count), ("G", self.export_game), ("F", self.find_filters),
            ("W", self.dealers),
            ("P", lambda: self.print_report("hand")),
            ("Shift+P", lambda: self.print_report("shift")),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(fn)
            if seq.replace("Shift+", "").isalpha() and len(seq.replace("Shift+", "")) == 1:
                self._letters.append(sc)
        # a letter typed in a box (the reveal's reason, the dealer filter) is the box's: in a
        # real window the letters' shortcuts took "d" and "s" typed there (a dispute, a PDF)
        application().focusChanged.connect(self._letters_for)

        self.c.refused.connect(self.show_notice)
        self.c.failed.connect(lambda m: self.show_notice(f"Database not answering: {m}"))
        self.fill_filters()
        self._enable()

    def _letters_for(self, _old: QWidget | None, now: QWidget | None) -> None:
        """The letter keys are the console's, except while a box that takes text has the
        keyboard."""
        typing = isinstance(now, QLineEdit | QDateTimeEdit)
        for sc in self._letters:
            sc.setEnabled(not typing)
