"""The floor manager's console: hands across tables with filters, a replay with a step slider,
reveal a destroyed hand (logged), record a dispute, export a hand, a shift or a table's game as
PDF, verify.

Replays come from the store (``Services.hand_replay``), so the floor sees the table exactly as
it stood after each recorded event, voids included.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.services import HandFilter
from dealer_assist.ui.controllers import FloorController
from dealer_assist.ui.dialogs import DisputeDialog
from dealer_assist.ui.elide import ElidedLabel
from dealer_assist.ui.files import documents_folder
from dealer_assist.ui.panels import FlowLayout
from dealer_assist.ui.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDate,
    QDateTime,
    QDateTimeEdit,
    QDialog,
    QFileDialog,
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
    QTableWidgetItem,
    QTime,
    QTimeZone,
    QVBoxLayout,
    QWidget,
    Signal,
    application,
)
from dealer_assist.ui.table_view import TableWidget
from dealer_assist.ui.theme import current_theme
from dealer_assist.ui.workers import run_with_progress

COLUMNS = ("Hand", "Table", "Started", "Game", "Dealer", "Events", "Status", "Disputed")



def _fmt_time(t: datetime | None) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%d %H:%M") if t is not None else ""


class ReasonBox(QLineEdit):
    """The reveal's reason: Escape leaves it (back to the hands list and the console's keys)."""

    escaped = Signal()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)


class FloorConsole(QWidget):
    """Hands list on the left, the chosen hand's replay and the floor's actions on the right."""

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

    # --- filters and list ------------------------------------------------------------------

    def fill_filters(self) -> None:
        svc = self.c.services
        self.f_table.clear()
        self.f_table.addItem("any table", None)
        tables = self.c._guard(svc.list_tables) or []
        for t in tables:
            self.f_table.addItem(t.name, t.id)
        self.f_shift.clear()
        self.f_shift.addItem("any shift", None)
        for s in self.c._guard(svc.list_shifts) or []:
            name = next((t.name for t in tables if t.id == s.table_id), str(s.table_id))
            self.f_shift.addItem(f"{s.id}: {name}, {s.dealer}, {_fmt_time(s.opened_at)}", s.id)
        self.f_game.clear()
        self.f_game.addItem("any game", None)
        from dealer_assist.engine.registry import game_names

        for g in game_names():
            self.f_game.addItem(get_game(g).title, g)
        now = datetime.now(UTC)
        self.f_from.setDateTime(_wall_clock(now.replace(hour=0, minute=0, second=0, microsecond=0)))
        self.f_to.setDateTime(_wall_clock(now))
        self._tables = {t.id: t.name for t in tables}

    def find_filters(self) -> None:
        """F: the keyboard to the first Find filter (Tab goes on through them, Enter finds)."""
        self.f_table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def current_filter(self) -> HandFilter:
        since = self.f_from.dateTime() if self.f_from_on.isChecked() else None
        until = self.f_to.dateTime() if self.f_to_on.isChecked() else None
        return HandFilter(
            table_id=self.f_table.currentData(),
            shift_id=self.f_shift.currentData(),
            game=self.f_game.currentData(),
            dealer=self.f_dealer.text().strip() or None,
            since=_aware(since),
            until=_aware(until),
            disputed=True if self.f_disputed.isChecked() else None,
        )

    def search(self) -> None:
        self.show_notice("")
        hands = self.c.search(self.current_filter())
        self.list.setRowCount(len(hands))
        for r, h in enumerate(hands):
            values = (
                str(h.number), self._tables.get(h.table_id, str(h.table_id)),
                h.started_at.astimezone(UTC).strftime("%m-%d %H:%M"), get_game(h.game).title,
                h.started_by, str(h.events),
                (f"{h.status} (imported)" if h.imported else h.status)
                + (" · disputed" if h.disputed else ""),
                "yes" if h.disputed else "",
            )
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                item.setData(Qt.ItemDataRole.UserRole, h.id)
                self.list.setItem(r, col, item)
        self.title.setText(f"{len(hands)} hand{'s' if len(hands) != 1 else ''} found"
                           if hands else "No hand matches these filters")

    def select_row(self, row: int) -> None:
        self.list.selectRow(row)

    def _selected(self) -> None:
        rows = self.list.selectionModel().selectedRows()
        if not rows:
            return
        item = self.list.item(rows[0].row(), 0)
        hand_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if hand_id is not None:
            self.open_hand(int(hand_id))

    # --- replay ----------------------------------------------------------------------------

    def _enter(self) -> None:
        """Enter searches and opens the first hand found (the keyboard to the list, ↓ ↑ for
        the others), except in the reveal's reason box, where it reveals."""
        if self.reveal_reason.hasFocus():
            self.reveal()
        else:
            self.search()
            if self.list.rowCount():  # the first hand found, open; ↓ ↑ for the others
                self.list.selectRow(0)
            self.list.setFocus()

    def open_hand(self, hand_id: int) -> None:
        previous = self.c.hand.id if self.c.hand is not None else None
        if not self.c.open_hand(hand_id):
            return
        if hand_id != previous:
            self.reveal_reason.clear()  # a reason is for the hand it was typed for
        rep = self.c.replay
        n = len(rep.steps)
        self.slider.blockSignals(True)
        self.slider.setMaximum(n)
        self.slider.setValue(n)
        self.slider.blockSignals(False)
        self._step(n)
        self._show_logs()
        self._enable()

    def _step(self, step: int) -> None:
        rep = self.c.replay
        hand = self.c.hand
        if rep is None or hand is None:
            return
        st = rep.steps[step - 1]
        self.table.show_view(self.c.step_view(step), current_theme(), revealed=self.c.revealed)
        self.step_label.setText(f"event {step} of {len(rep.steps)}")
        self.narration.setText(f"{st.number}. " + " / ".join(st.lines))
        table = self._tables.get(hand.table_id, str(hand.table_id))
        self.title.setText(
            f"Hand {hand.number} at {table}: {rep.game.title}, dealt by {hand.started_by}, "
            f"{_fmt_time(hand.started_at)} UTC" + ("  ·  DISPUTED" if hand.disputed else "")
        )

    def _show_logs(self) -> None:
        reveals = self.c.reveals()
        self.reveals_label.setText(
            "Revealed: " + "; ".join(f"by {r.actor} at {_fmt_time(r.at)} UTC ({r.detail})"
                                     for r in reveals)
            if reveals else "Never revealed."
        )
        disputes = self.c.disputes()
        lines = []
        for d in disputes:
            adj = ", ".join(
                f"{'house' if a.seat is None else 'seat ' + str(a.seat)} "
                f"{'+' if a.amount > 0 else ''}{a.amount / 100:.2f}"
                for a in d.adjustments
            )
            lines.append(f"Dispute by {d.floor} at {_fmt_time(d.at)} UTC: {d.notes} — "
                         f"ruling: {d.ruling}" + (f" — adjustments: {adj}" if adj else ""))
        self.disputes_label.setText("\n".join(lines) if lines else "No dispute recorded.")

    def _enable(self) -> None:
        has = self.c.hand is not None
        floor = self.c.session.role == "floor"
        for b in (self.prev, self.next, self.slider, self.hand_pdf, self.shift_pdf,
                  self.print_hand, self.print_shift):
            b.setEnabled(has)
        self.reveal_button.setEnabled(has and floor)
        self.count_button.setEnabled(has and self.c.session.role in ("floor", "admin"))
        self.dispute_button.setEnabled(has and floor)

    # --- floor actions ---------------------------------------------------------------------

    def reveal(self) -> None:
        if self.c.hand is None:
            return
        if self.c.session.role != "floor":
            self.show_notice("only a floor person can reveal destroyed hands")
            return
        reason = self.reveal_reason.text().strip()
        if not reason:
            self.show_notice("type why the hidden cards are shown in the reason box, then Reveal")
            self.reveal_reason.setFocus()
            return
        if self.c.reveal(self.slider.value(), reason) is not None:
            self.show_notice("")  # the "type why" asked before is answered
            self.list.setFocus()  # the console's keys again, not more letters in the box
            self._step(self.slider.value())
            self._show_logs()
            # one line: the replay keeps its height at 1280x800
            self.show_info(f"Revealed by {self.c.session.name} ({reason}), in the audit log; "
                           "Hand PDF now shows the cards.")

    def enter_count(self) -> None:
        """The drop count of the selected hand's shift (floor or admin; logged)."""
        hand = self.c.hand
        if hand is None:
            self.show_notice("choose a hand of the shift whose drop box was counted")
            return
        if self.c.session.role not in ("floor", "admin"):
            self.show_notice("only a floor or admin user can enter a drop count")
            return
        from dealer_assist.ui.count_dialog import CountDialog

        dlg = CountDialog(self.c.services, self.c.session, table_id=hand.table_id,
                          shift_id=hand.shift_id, parent=self)
        accepted = dlg.exec() == QDialog.DialogCode.Accepted and dlg.entry is not None
        said = [f"Drop box {what} as audit entry {e.seq or e.id}."
                for what, e in dlg.box_actions]
        if accepted:
            said.append(f"Count recorded for shift {dlg.chosen_shift()} as audit entry "
                        f"{dlg.entry.seq or dlg.entry.id}.")
        if said:
            self.show_info(" ".join(said))

    def dealers(self) -> None:
        """The floor's dealer view: who deals where, pushes, breaks, rules and rotation."""
        if self.c.session.role not in ("floor", "admin"):
            self.show_notice("only a floor or admin user can see the dealer view")
            return
        from dealer_assist.ui.dealer_view import DealerView

        self.dealer_view = DealerView(self.c.services, self.c.session, parent=self)
        self.dealer_view.exec()

    def dispute(self) -> None:
        hand = self.c.hand
        if hand is None:
            return
        # the approver is a second floor person: their name is typed, never filled in with
        # the signed-in one's, and a refusal keeps the dialog open with what was typed
        dlg = DisputeDialog(f"hand {hand.number}", self.c.services, self,
                            signed_in=self.c.session.name, submit=self.c.dispute_now)
        if dlg.exec() != QDialog.DialogCode.Accepted or dlg.dispute is None:
            return
        self._dispute_recorded()

    def record_dispute(self, notes: str, ruling: str, adjustments: list[Any],
                       approval: Any) -> bool:
        d = self.c.record_dispute(notes, ruling, adjustments, approval)
        if d is None:
            return False
        self._dispute_recorded()
        return True

    def _dispute_recorded(self) -> None:
        self._show_logs()
        self._step(self.slider.value())
        self.show_info(f"Dispute recorded for hand {self.c.hand.number if self.c.hand else ''}.")

    def _out_path(self, default: str) -> Path | None:
        if self.export_dir is not None:
            return self.export_dir / default
        path, _ = QFileDialog.getSaveFileName(self, "Save the report",
                                              str(documents_folder() / default), "PDF (*.pdf)")
        return Path(path) if path else None

    def export_hand(self) -> None:
        hand = self.c.hand
        if hand is None:
            return
        out = self._out_path(f"hand-{hand.table_id}-{hand.number}.pdf")
        if out is None:
            return
        from dealer_assist.reports.generate import hand_report

        svc, session, hid = self.c.services, self.c.session, hand.id
        # After a reveal here, the floor's hand PDF is the dispute report with the cards shown
        # (the reveal already logged here is the one it shows: not logged a second time).
        reveal, reason = self.c.revealed, self.c.reveal_reason
        self._run(f"Writing the hand report to {out.name}…",
                  lambda: hand_report(svc, session, out, hand_id=hid, reveal=reveal,
                                      reason=reason, reveal_logged=True), out)

    def export_shift(self) -> None:
        hand = self.c.hand
        if hand is None:
            return
        out = self._out_path(f"shift-{hand.shift_id}.pdf")
        if out is None:
            return
        from dealer_assist.reports.generate import shift_report

        svc, session, sid = self.c.services, self.c.session, hand.shift_id
        self._run(f"Writing the shift report to {out.name}…",
                  lambda: shift_report(svc, session, out, shift_id=sid), out)

    def export_game(self) -> None:
        """The game report of the selected hand's table: its latest game of many hands."""
        hand = self.c.hand
        if hand is None:
            return
        table = self.c.services.store.get_table(hand.table_id)
        if table is None:
            return
        out = self._out_path(f"game-{hand.table_id}.pdf")
        if out is None:
            return
        from dealer_assist.reports.generate import game_report

        svc, session, name = self.c.services, self.c.session, table.name
        self._run(f"Writing the game report to {out.name}…",
                  lambda: game_report(svc, session, out, table=name), out)

    def print_report(self, kind: str) -> None:
        """Write the hand or shift report on a worker thread, then open the print dialog."""
        hand = self.c.hand
        if hand is None:
            return
        from dealer_assist.reports.generate import hand_report, shift_report

        folder = Path(tempfile.mkdtemp(prefix="dealer-assist-print-"))
        svc, session = self.c.services, self.c.session
        if kind == "hand":
            out = folder / f"hand-{hand.table_id}-{hand.number}.pdf"
            title = f"Hand {hand.number} report"
            hid = hand.id
            reveal, reason = self.c.revealed, self.c.reveal_reason

            def work() -> Any:  # printed as the Hand PDF is written: the cards after a reveal
                return hand_report(svc, session, out, hand_id=hid, reveal=reveal,
                                   reason=reason, reveal_logged=True)
        else:
            out = folder / f"shift-{hand.shift_id}.pdf"
            title = f"Shift {hand.shift_id} report"
            sid = hand.shift_id

            def work() -> Any:
                return shift_report(svc, session, out, shift_id=sid)

        def done(_: Any) -> None:
            from dealer_assist.ui.printing import print_pdf

            serial = getattr(getattr(getattr(_, "report", None), "generated", None),
                             "serial", 0)

            def log(text: str) -> None:  # every print, copy and cancel is on the record
                svc.log(session, "print", text + (f" (report serial {serial})"
                                                  if serial else ""))

            try:
                said = print_pdf(self, out, title=title, log=log)
            except DealerAssistError as exc:
                self.show_notice(str(exc))
                return
            if said:
                self.last_printed = out
                self.show_info(said)

        run_with_progress(self, f"Preparing the {kind} report for printing…", work, done,
                          self.show_notice)

    def verify(self) -> None:
        from dealer_assist.services import verify_store

        store = self.c.services.store

        def work() -> str:
            return str(verify_store(store).summary())

        run_with_progress(self, "Verifying every table's chain and hand…", work,
                          lambda s: self.show_info(f"Verify: {s}"), self.show_notice)

    def _run(self, label: str, fn: Any, out: Path) -> None:
        def done(result: Any) -> None:
            self.last_export = out
            pages = getattr(result, "pages", None)
            self.show_info(f"Saved {out}" + (f" ({pages} pages)" if pages else ""))
            unsigned = getattr(result, "unsigned", "")
            if unsigned:  # no room key at this station: the report says so, and so does the screen
                self.show_notice(f"{unsigned[:1].upper()}{unsigned[1:]}")

        run_with_progress(self, label, fn, done, self.show_notice)

    def show_notice(self, text: str) -> None:
        self.last_message = text or self.last_message
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def show_info(self, text: str) -> None:
        self.last_message = text
        self.info.setText(text)
        self.info.setVisible(bool(text))


def utc_time_box() -> QDateTimeEdit:
    """A from/until box that keeps UTC (Qt 6.7's time zone on the box): a time typed or set
    there is that UTC instant whatever the station's own zone, so a daylight-saving jump of the
    local clock never moves it (02:30 UTC on the night New York skips 02:00-03:00 stays 02:30)."""
    box = QDateTimeEdit()
    box.setTimeZone(QTimeZone(QTimeZone.Initialization.UTC))
    box.setDisplayFormat("yyyy-MM-dd HH:mm")
    return box


def _wall_clock(t: datetime) -> QDateTime:
    """``t`` as a UTC QDateTime, to the millisecond (read back by :func:`_aware`)."""
    t = t.astimezone(UTC) if t.tzinfo is not None else t
    return QDateTime(QDate(t.year, t.month, t.day),
                     QTime(t.hour, t.minute, t.second, t.microsecond // 1000),
                     QTimeZone(QTimeZone.Initialization.UTC))


def _aware(t: Any) -> datetime | None:
    """A filter box's time as an aware UTC datetime (a QDateTime is read as the instant it
    names; a naive datetime is taken as UTC)."""
    if t is None:
        return None
    if isinstance(t, QDateTime):
        u = t.toUTC()
        d, c = u.date(), u.time()
        return datetime(d.year(), d.month(), d.day(), c.hour(), c.minute(), c.second(),
                        c.msec() * 1000, tzinfo=UTC)
    assert isinstance(t, datetime)
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
