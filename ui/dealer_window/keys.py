"""The dealer screen's keys: one handler that runs the key table of :mod:`dealer_assist.ui.keys`
(the table F1's help is written from), and the small steps its rows name."""

from __future__ import annotations

from dealer_assist.ui import keys as key_table
from dealer_assist.ui.dealer_window.layout import DealerLayout
from dealer_assist.ui.dealer_window.pages import PAGE_IDLE, PAGE_PUSH
from dealer_assist.ui.keys import PAGES, Press
from dealer_assist.ui.qt import QKeyEvent, QKeySequence, Qt


def matches(press: Press, event: QKeyEvent, page: str) -> bool:
    """Whether ``event``, on the bottom page named ``page``, is the key ``press`` names."""
    if press.widget or (press.pages and page not in press.pages):
        return False
    if press.undo:
        return event.matches(QKeySequence.StandardKey.Undo)
    text = event.text()
    if press.typed == "digit":
        return text.isdigit()
    if press.typed == "letter":
        return bool(text) and text.isalpha()
    if press.typed == "printable":
        return bool(text.strip()) and text.isprintable()
    if press.key is None or event.key() != press.key:
        return False
    if press.shift is None:
        return True
    return bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier) == press.shift


class DealerKeys(DealerLayout):
    """Every key of the screen (the card box passes these up), as the key table says."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        page = PAGES[self.pages.currentIndex()]
        for row in key_table.DEALER_KEYS:  # read at each key: the one table F1 shows
            for press in row.presses:
                if not matches(press, event, page):
                    continue
                run = getattr(self, press.method)
                if (run(event.text()) if press.typed else run()) is not False:
                    return
        self._seat_typed = ""
        super().keyPressEvent(event)

    # --- the steps the table's rows name (False: the key does nothing now) --------------------

    def _leave_seats_box(self) -> bool:
        if not self.seats_edit.hasFocus():
            return False
        self.setFocus()
        return True

    def _type_seats(self) -> bool:
        if self.c.shift is None:
            return False
        self.seats_edit.setFocus()
        self.seats_edit.selectAll()
        return True

    def _toggle_picker(self) -> None:
        self.cards.toggle_picker()

    def _seats_key(self) -> bool:
        if self.c.time is None:
            return False
        self.seats()
        return True

    def _collect_time_key(self) -> bool:
        if self.c.time is None:
            return False
        self.collect_time()
        return True

    def _tick_push(self) -> None:
        self.push.tick_next()

    def _push_unticked(self) -> bool:
        """On the push steps, N, G, O and X wait for every step to be ticked: said, True."""
        if self.pages.currentIndex() != PAGE_PUSH or self.push.done:
            return False
        left = sum(not c.isChecked() for c in self.push.checks)
        self.show_refusal(f"tick each push step first (T or Space): {left} left")
        return True

    def _next_hand_key(self) -> bool:
        if self._push_unticked():
            return True
        if self.pages.currentIndex() == PAGE_IDLE and self.c.shift is None:
            return False
        self.start_hand()
        return True

    def _new_game_key(self) -> bool:
        if self._push_unticked():
            return True
        if not self.push.new.isVisible():
            return False
        self.new_game()
        return True

    def _open_table_key(self) -> bool:
        if not self._push_unticked():
            self.open_table()
        return True

    def _close_shift_key(self) -> bool:
        if self._push_unticked():
            return True
        if self.pages.currentIndex() == PAGE_IDLE and self.c.shift is None:
            return False
        self.close_shift()
        return True

    def _discard_digit(self, text: str) -> bool:
        if int(text) not in self.discards.buttons:
            return False
        self.discards.choose(int(text))
        return True

    def _discard_face_down(self) -> None:
        self.discards.unseen.click()

    def _discard_card(self, text: str) -> bool:
        if self.discards.keep is None:
            return False
        self.cards.input.setFocus()  # the discarded card typed at once: face up
        self.cards.input.insert(text)
        return True

    def _seat_digit(self, text: str) -> bool:
        """A seat's number typed before an action's letter ("3" then X: seat 3's Kill)."""
        if not self._seat_keys():
            return False
        self._seat_typed += text
        keys = " · ".join(f"{k[len(self._seat_typed) + 1:]} {a.label}"
                          for a, k in self._seat_keys() if k.split()[0] == self._seat_typed)
        self.show_refusal(f"Seat {self._seat_typed}: " + (keys or "no action for this "
                                                          "seat here"))
        return True

    def _letter_key(self, text: str) -> None:
        seat, self._seat_typed = self._seat_typed, ""
        if seat and self.seat_action(int(seat), text):
            return
        if not seat and (self._trigger(text) or self._screen_key(text)):
            return
        self.show_refusal(self._no_key(text))  # R when raising is capped: said, not silent
