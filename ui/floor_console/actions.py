"""The floor's actions on a hand: reveal, dispute, drop count, PDFs, printing, verify, and the
console's notices."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.ui.dialogs import DisputeDialog
from dealer_assist.ui.files import documents_folder
from dealer_assist.ui.floor_console.layout import FloorLayout
from dealer_assist.ui.qt import (
    QDialog,
    QFileDialog,
)
from dealer_assist.ui.workers import run_with_progress


class FloorActions(FloorLayout):
    """Reveal, dispute, count, export, print, verify; the notices they leave."""

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

        DealerView(self.c.services, self.c.session, parent=self).exec()

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
        table = self.c.services.reads.get_table(hand.table_id)
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

        store = self.c.services.reads

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
