"""Putting things right on the dealer screen: Retry or drop an input kept after a database
failure, undo (void) the last input, call a hand off as a misdeal."""

from __future__ import annotations

from dealer_assist.services import Approval
from dealer_assist.ui.dealer_window.layout import DealerLayout
from dealer_assist.ui.dialogs import VoidReasonDialog
from dealer_assist.ui.qt import QDialog


class Fixes(DealerLayout):
    """Retry, drop, undo and misdeal."""

    def retry(self) -> None:
        if (self.c.pending is not None or self.c.drops) and self.c.retry():
            self.cards.clear()

    def drop_kept(self) -> None:
        """Throw the kept input away (Shift+F5): the dealer says so; the audit log gets it."""
        what = self.c.pending_what
        if self.c.drop():
            self.cards.clear()
            self.show_note(f"Dropped, not recorded: {what}. The drop is written to the "
                           "audit log when the database is back.")


    def undo(self) -> None:
        c = self.c
        if self._kept():
            return
        target = c.last_voidable()
        if c.now is None or target is None:
            self.show_refusal("nothing to undo in this hand")
            return
        step = c.now.replay.steps[target - 1]
        dlg = VoidReasonDialog(
            f"Void event {target}: " + " / ".join(step.lines)
            + "\nIt stays in the hand's history, marked void, with your reason.", self,
        )
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        reason = dlg.reason.text().strip()
        approval: Approval | None = None
        self._input_kind = "action"
        if c.now.over or c.now.hand.status == "settled":
            self._ask_approval(f"The hand is finished: a floor person approves "
                               f"voiding event {target} ({reason}).",
                               lambda a: c.undo(reason, a))
            return
        c.undo(reason, approval)

    def misdeal(self) -> None:
        """Call the hand off: a reason, then the floor's PIN; every chip goes back."""
        c = self.c
        if self._kept():
            return
        if c.now is None or c.now.replay.misdeal is not None:
            self.show_refusal("no hand to call off as a misdeal")
            return
        number = c.now.hand.number
        button = " and the next hand keeps the same button" if self._has_button() else ""
        dlg = VoidReasonDialog(
            f"Misdeal: call off hand {number}. Every chip put in goes back to its seat, no fee "
            f"is taken{button}.", self, title="Misdeal",
            ok="Call it off", example="e.g. a card exposed on the deal", noun="a misdeal",
        )
        dlg.reason.setText(self._misdeal_draft.get(number, ""))
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        reason = dlg.reason.text().strip()
        self._misdeal_draft = {number: reason}  # kept if the approval is cancelled
        self._input_kind = "action"
        if self._ask_approval(f"A floor person approves the misdeal of hand {number} "
                              f"({reason}).", lambda a: c.misdeal(reason, a)):
            self._misdeal_draft = {}
