"""Between hands on the dealer screen: start a hand (its seats), a new game, open a table, the
next hand's stacks, a time-collected table's seats and time, close the shift."""

from __future__ import annotations

from dealer_assist.money import format_cents
from dealer_assist.ui.dealer_window.layout import DealerLayout
from dealer_assist.ui.dialogs import (
    CollectTimeDialog,
    OpenTableDialog,
    SeatsDialog,
)
from dealer_assist.ui.floor_seats import floor_seats
from dealer_assist.ui.qt import QDialog
from dealer_assist.ui.stacks_dialog import StacksDialog


class BetweenHands(DealerLayout):
    """What the dealer does before a hand and at the end of the shift."""

    def start_hand(self) -> None:
        ok, seats = self._typed_seats()
        if ok and seats is None:  # the floor board's seating, confirmed with Enter
            ok, seats = floor_seats(self.c, self)
        if not ok:
            return
        self._input_kind = "action"
        self.c.approval_asked = ""
        if self.c.start_hand(seats):
            return
        if self.c.approval_asked:  # chips off the table while a pot carries: the floor's PIN
            self.show_refusal(self.c.approval_asked)
            self._ask_approval(f"{self.c.approval_asked}.",
                               lambda a: self.c.start_hand(seats, approval=a))
            return
        if seats is not None and self.c.pending is None and self.c.last_error:
            self.show_refusal(f"{self.c.last_error}: the seats typed ({self.seats_edit.text()})"
                              " are in Seats this hand; press S to fix or empty them")

    def new_game(self) -> None:
        """End the game that is going on and start the next hand as a new game: what the game
        carries (a running score) is not taken over, so a floor person approves it."""
        if not self.c.game_goes_on():
            self.show_refusal("the last hand's game is over or carries nothing: press N for "
                              "the next hand")
            return
        ok, seats = self._typed_seats()
        if not ok:
            return
        self._input_kind = "action"
        carried = ", ".join(self.c.now.game.carries) if self.c.now is not None else ""
        self._ask_approval(f"A new game: the next hand does not take over {carried} from the "
                           "game going on. A floor person approves.",
                           lambda a: self.c.start_hand(seats, new_game=True, approval=a))


    def open_table(self) -> None:
        if self._kept():
            return
        dlg = OpenTableDialog(self.c.services, self.c.session, self)
        if dlg.exec() != QDialog.DialogCode.Accepted or dlg.table_id is None:
            return
        self._input_kind = "action"
        table_id, floor = dlg.table_id, dlg.floor_name
        done = self.c.open_table(table_id, floor)
        if not done and self.c.approval_asked:  # a second table: the floor allows it, or not
            self.show_refusal(self.c.approval_asked)
            done = self._ask_approval(f"{self.c.approval_asked}.",
                                      lambda a: self.c.open_table(table_id, floor, a))
        if done:
            self.seats_edit.clear()  # a short hand's seats belong to the table they were for

    def stacks(self) -> None:
        """Between hands, in a game played with stacks: what each seat starts the next hand
        with (a rebuy, an add-on, a new player's buy-in)."""
        if self._kept():
            return
        c = self.c
        if c.shift is None or not c.stacked:
            self.show_refusal("this table's game is not played with stacks")
            return
        if c.now is not None and c.settlement is None:
            self.show_refusal("stacks change between hands: finish or call off this hand first")
            return
        ok, seats = self._typed_seats()
        if not ok:
            return
        stacks = c.next_stacks(seats)
        if stacks is None:
            return
        playing = seats or tuple(sorted(stacks))
        dlg = StacksDialog(stacks, playing, c.rebuys, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            c.rebuys = dlg.stacks
            if dlg.stacks:
                bought = ", ".join(f"seat {s} {format_cents(v)}" for s, v in dlg.stacks.items())
                self.show_note(f"Next hand's stacks: {bought}. Press N to deal.")
        self.take_focus()

    def _typed_seats(self) -> tuple[bool, tuple[int, ...] | None]:
        """Whether the seats typed for the next hand read (a refusal shows if not), and the
        seats (None: every seat of the table)."""
        text = self.seats_edit.text().replace(",", " ").split()
        if not text:
            return True, None
        if not all(t.isdigit() for t in text):
            self.show_refusal("seats: type seat numbers in deal order, e.g. 1 2 3 5")
            return False, None
        return True, tuple(int(t) for t in text)

    def seats(self) -> None:
        """Who sits in and who leaves (time collection)."""
        if self._kept():
            return
        if self.c.time is None:
            self.show_refusal("this table does not collect time: there are no seats to mark")
            return
        self._input_kind = "action"
        SeatsDialog(self.c, self).exec()
        self.take_focus()

    def collect_time(self) -> None:
        """Mark the period; then tick off what each seat pays."""
        if self._kept():
            return
        if self.c.time is None:
            self.show_refusal("this table does not collect time")
            return
        self._input_kind = "action"
        if not self.c.collect_time() or self.c.time is None:
            return
        t = self.c.time
        CollectTimeDialog(t.collect, f"Collect time: period {t.period}", self).exec()
        self.take_focus()

    def close_shift(self) -> None:
        if self._kept():
            return
        if self.c.shift is None:
            return
        self._input_kind = "action"
        self._ask_approval(
            f"Close shift {self.c.shift.id}: the floor signs it off with their PIN.",
            self.c.close_shift,
        )
