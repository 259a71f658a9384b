"""The floor console's replay: the chosen hand step by step, with its logs."""

from __future__ import annotations

from dealer_assist.ui.floor_console.layout import FloorLayout
from dealer_assist.ui.floor_console.times import _fmt_time
from dealer_assist.ui.theme import current_theme


class ReplayPart(FloorLayout):
    """The chosen hand's replay and which buttons it enables."""

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
