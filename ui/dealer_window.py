"""The dealer's table screen and the main window that holds it and the floor console.

The screen is a view: it lays out the table, the prompt, the action bar, the card entry, the
discard chooser and the push checklist, and redraws them all from the controller's hand after
each recorded event. Every action has a key: the action's letter, digits for Caro Hold 'em's
kept count, Enter for cards, T to tick a push step, N for the next hand, O to open a table,
X to close the shift, Ctrl+Z to undo, F4 for a misdeal, F2 for the card picker, F5 to retry, F9
for the theme. In games played with stacks, F3 (between hands) sets the next hand's stacks: a
rebuy, an add-on, a new player.
At a table whose fee is a time collection, F6 opens the seats (who sits in, who leaves) and F7
marks the period and lists the time to collect from each seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from dealer_assist.engine.base import Action, Prompt
from dealer_assist.engine.inputs import Drawn
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents
from dealer_assist.services import Approval
from dealer_assist.ui.card_entry import RANK_LETTERS, CardEntry
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dialogs import (
    ApprovalDialog,
    CollectTimeDialog,
    OpenTableDialog,
    SeatsDialog,
    VoidReasonDialog,
)
from dealer_assist.ui.floor_seats import floor_seats
from dealer_assist.ui.inputs import InputDialog, asks_dialog, deck_of, takes_discard
from dealer_assist.ui.journal_line import JournalLine
from dealer_assist.ui.panels import (
    ActionBar,
    Banner,
    DiscardPanel,
    HistoryList,
    PushChecklist,
    needs_cards,
    shortcut,
)
from dealer_assist.ui.qt import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QKeyEvent,
    QKeySequence,
    QLabel,
    QLineEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.stacks_dialog import StacksDialog
from dealer_assist.ui.table_view import TableWidget
from dealer_assist.ui.theme import current_theme

PAGE_IDLE, PAGE_ACT, PAGE_DISCARD, PAGE_PUSH = range(4)


class BottomPages(QWidget):
    """The bottom bar's pages, one shown at a time, the bar as tall as the page in view needs:
    a stacked widget asks for its tallest page, so one seat's discard (two lines) took the
    height of nine seats' buttons and the felt at 1280x800 had no room left for the board
    between its two rows of seats. Hidden pages take no room in a column."""

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self._pages: list[QWidget] = []
        self._current = -1

    def addWidget(self, page: QWidget) -> None:
        self._pages.append(page)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(page)
        page.setVisible(len(self._pages) == 1)
        if self._current < 0:
            self._current = 0

    def currentIndex(self) -> int:
        return self._current

    def widget(self, index: int) -> QWidget:
        return self._pages[index]

    def setCurrentIndex(self, index: int) -> None:
        self._current = index
        for i, page in enumerate(self._pages):
            page.setVisible(i == index)


#: "seat 3: owes a discard", a checklist line of one seat.
SEAT_LINE = re.compile(r"^[Ss]eat (\d+): (.+)$")


def fee_before_deal(start: Any, game: Any) -> tuple[str, ...]:
    """The fee each seat pays before the deal (a per-player fee, a fixed fee from the button),
    said at the deal as the first thing to do: it was only in the push steps at the end."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.fees import FeeContext, parse_fee_policy, pre_deal_fees

    try:
        policy = parse_fee_policy(start.get("fee"))
        button = start.get(game.key("button"))
        lines = pre_deal_fees(policy, FeeContext(
            seats=tuple(start.seats), button=button if isinstance(button, int) else None,
            smallest_chip=int(start.get("smallest_chip") or 1)))
    except DealerAssistError:
        return ()
    paid = [(ln.from_seat, ln.amount) for ln in lines if ln.from_seat is not None and ln.amount]
    if not paid:
        return ()
    amounts = {a for _, a in paid}
    if len(paid) > 1 and len(amounts) == 1:
        seats = ", ".join(str(s) for s, _ in paid)
        return (f"Before the deal, take the fee: {format_cents(paid[0][1])} from each of seats "
                f"{seats} ({format_cents(sum(a for _, a in paid))} in all)",)
    return tuple(f"Before the deal, take the fee: {format_cents(a)} from seat {s}"
                 for s, a in paid)


def grouped_by_seat(lines: Sequence[str]) -> list[str]:
    """Checklist lines that say the same of several seats in one line ("owes a discard:
    seats 1, 2, 9"): nine seats' lines took three rows of the screen's height."""
    said: dict[str, list[str]] = {}
    for line in lines:
        m = SEAT_LINE.match(line)
        if m:
            said.setdefault(m.group(2), []).append(m.group(1))
    out: list[str] = []
    for line in lines:
        m = SEAT_LINE.match(line)
        if m is None or len(said[m.group(2)]) < 3:
            out.append(line)
        elif said[m.group(2)][0] == m.group(1):
            out.append(f"{m.group(2)}: seats {', '.join(said[m.group(2)])}")
    return out


class DealerScreen(QWidget):
    """One table, as the dealer runs it."""

    # the action bar hides QWidget.actions(), which nothing calls on this screen
    actions: ActionBar  # type: ignore[assignment]

    def __init__(self, controller: DealerController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dealer-screen")
        self.c = controller
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.prompt: Prompt | None = None
        self._instruction_lines: list[str] = []
        self.card_action: Action | None = None
        self.discard_seat: int | None = None
        self._input_kind = ""
        self._misdeal_draft: dict[int, str] = {}
        #: A seat's number typed before an action's letter ("3" then X: seat 3's Kill).
        self._seat_typed = ""

        root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 8)
        root.setSpacing(6)

        top = QHBoxLayout()
        self.where = QLabel("")
        self.where.setObjectName("where")
        self.where.setStyleSheet("font-weight: bold;")
        self.where.setMinimumWidth(200)
        self.where.setWordWrap(True)
        top.addWidget(self.where, 1)
        self.time_label = QLabel("")
        self.time_label.setObjectName("time-status")
        self.time_label.setWordWrap(True)
        top.addWidget(self.time_label)
        self.seats_button = QPushButton("Seats…  [F6]")
        self.seats_button.setObjectName("seats-button")
        self.seats_button.clicked.connect(self.seats)
        top.addWidget(self.seats_button)
        self.collect_button = QPushButton("Collect time  [F7]")
        self.collect_button.setObjectName("collect-time-button")
        self.collect_button.clicked.connect(self.collect_time)
        top.addWidget(self.collect_button)
        self.open_button = QPushButton("Open table…  [O]")
        self.open_button.setObjectName("open-table-button")
        self.open_button.clicked.connect(self.open_table)
        top.addWidget(self.open_button)
        self.close_button = QPushButton("Close shift…  [X]")
        self.close_button.setObjectName("close-shift-button")
        self.close_button.clicked.connect(self.close_shift)
        top.addWidget(self.close_button)
        root.addLayout(top)

        self.banner = Banner()
        self.banner.retry.connect(self.retry)
        self.banner.drop.connect(self.drop_kept)
        root.addWidget(self.banner)
        self.journal_line = JournalLine(controller.services.store)
        self.journal_line.setObjectName("Refusal")
        root.addWidget(self.journal_line)

        self.message = QLabel("")
        self.message.setObjectName("Prompt")
        self.message.setWordWrap(True)
        root.addWidget(self.message)
        self.instructions = QLabel("")
        self.instructions.setObjectName("Instruction")
        self.instructions.setWordWrap(True)
        self.instructions.hide()
        root.addWidget(self.instructions)
        self.refusal = QLabel("")
        self.refusal.setObjectName("Refusal")
        self.refusal.setWordWrap(True)
        self.refusal.hide()
        root.addWidget(self.refusal)
        self.note = QLabel("")  # a confirmation ("Next hand's stacks: ..."), not a refusal
        self.note.setObjectName("Note")
        self.note.setWordWrap(True)
        self.note.hide()
        root.addWidget(self.note)

        middle = QHBoxLayout()
        self.table = TableWidget()
        self.table.setMinimumHeight(160)  # the felt gives way first when the screen is short
        middle.addWidget(self.table, 1)
        side = QFrame()
        side.setObjectName("Panel")
        side.setFixedWidth(330)
        self.side = side
        sl = QVBoxLayout(side)
        sl.setContentsMargins(8, 8, 8, 8)
        self.history_title = QLabel("This hand")
        self.history_title.setObjectName("Heading")
        sl.addWidget(self.history_title)
        self.history = HistoryList()
        self.history.setMinimumHeight(30)  # gives way first: the card box keeps its height
        sl.addWidget(self.history, 1)
        self.push = PushChecklist()
        self.push.next_hand.connect(self.start_hand)
        self.push.new_game.connect(self.new_game)
        self.push.hide()
        sl.addWidget(self.push, 1)
        # Undo and Misdeal side by side: at 1280x800 the card box, its refusal and the
        # history need the height
        fixes = QHBoxLayout()
        self.undo_button = QPushButton("Undo [Ctrl+Z]")
        self.undo_button.setObjectName("undo")
        self.undo_button.clicked.connect(self.undo)
        fixes.addWidget(self.undo_button)
        self.misdeal_button = QPushButton("Misdeal… [F4]")
        self.misdeal_button.setObjectName("misdeal")
        self.misdeal_button.clicked.connect(self.misdeal)
        fixes.addWidget(self.misdeal_button)
        for b in (self.undo_button, self.misdeal_button):
            b.setStyleSheet("padding: 8px 4px;")
        sl.addLayout(fixes)
        self.cards = CardEntry()
        self.cards.submitted.connect(self._cards_entered)
        self.cards.input.escaped.connect(self.setFocus)
        self.cards.picker_shown.connect(lambda _on: self._page(self.pages.currentIndex()))
        sl.addWidget(self.cards)
        middle.addWidget(side)
        root.addLayout(middle, 1)

        self.pages: BottomPages = BottomPages()
        idle = QFrame()
        idle.setObjectName("Panel")
        il = QHBoxLayout(idle)
        self.idle_text = QLabel("")
        self.idle_text.setObjectName("idle-text")
        il.addWidget(self.idle_text, 1)
        il.addWidget(QLabel("Seats this hand  [S]"))
        self.seats_edit = QLineEdit()
        self.seats_edit.setObjectName("seats-edit")
        self.seats_edit.returnPressed.connect(self.start_hand)  # S, the seats, Enter: dealt
        self.seats_edit.setPlaceholderText("as the table settings say")
        self.seats_edit.setMaximumWidth(260)
        il.addWidget(self.seats_edit)
        self.stacks_button = QPushButton("Stacks…   [F3]")
        self.stacks_button.setObjectName("stacks")
        self.stacks_button.clicked.connect(self.stacks)
        il.addWidget(self.stacks_button)
        self.start_button = QPushButton("Start hand   [N]")
        self.start_button.setObjectName("start-hand")
        self.start_button.setProperty("role", "primary")
        self.start_button.clicked.connect(self.start_hand)
        il.addWidget(self.start_button)
        self.actions = ActionBar()
        self.actions.chosen.connect(self.choose)
        self.actions.refused.connect(self.show_refusal)
        self.discards = DiscardPanel()
        self.discards.keep_chosen.connect(self._keep_chosen)
        self.discards.unseen_chosen.connect(self._discard_unseen)
        self.discards.cancelled.connect(self._discard_cancel)
        for w in (idle, self.actions, self.discards, QWidget()):
            self.pages.addWidget(w)
        root.addWidget(self.pages)
        # the 52 cards, when shown, take the table's place (the table comes back with them
        # hidden): at 1280x800 the screen has not the height for both
        self.cards.picker.setParent(None)
        middle.insertWidget(1, self.cards.picker, 1)

        self.c.changed.connect(self.refresh)
        self.c.refused.connect(self._refused)
        self.c.noted.connect(self.show_note)
        self.c.failed.connect(self._failed)
        self.c.recovered.connect(self.banner.clear)
        self.c.approval_needed.connect(lambda _m: None)
        self.refresh()

    # --- drawing ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw everything from the controller's recorded hand."""
        c = self.c
        self.show_refusal("")
        self.show_note("")
        self.table.show_view(c.view(), current_theme())
        table = c.table.name if c.table else "no table"
        shift = f"shift {c.shift.id} (floor {c.shift.floor})" if c.shift else "no shift open"
        hand = f"hand {c.now.hand.number}" if c.now else ""
        game = get_game(c.now.hand.game).title if c.now else ""
        self.where.setText("   ·   ".join(x for x in (
            table, game, hand, shift, f"dealer {c.session.user.full_name}") if x))
        self.close_button.setEnabled(c.shift is not None)
        self.stacks_button.setVisible(c.shift is not None and c.stacked)
        self._show_time()
        self.history.show_steps(c.now.replay.steps if c.now else ())
        self.undo_button.setEnabled(c.last_voidable() is not None)
        self.misdeal_button.setEnabled(c.now is not None and c.now.replay.misdeal is None)
        self.prompt = c.now.prompt() if c.now else None
        self.discard_seat = None
        if c.now is None or (c.now.over and c.settlement is not None):
            self._show_end()
            return
        prompt = self.prompt
        assert prompt is not None
        self.message.setText(prompt.message)
        fee = fee_before_deal(c.now.replay.start, c.now.game) \
            if len(c.now.replay.steps) <= 1 else ()
        self._set_instructions((*fee, *prompt.instructions))
        self.actions.show_prompt(prompt)
        self._page(PAGE_ACT)
        self._arm_cards(prompt)

    def _show_time(self) -> None:
        """The seat and period controls, only at a table that collects time."""
        t = self.c.time if self.c.shift is not None else None
        for w in (self.time_label, self.seats_button, self.collect_button):
            w.setVisible(t is not None)
        if t is not None:
            seated = ", ".join(str(s) for s in t.seated) or "nobody"
            self.time_label.setText(f"Time: period {t.period} · seated {seated}")

    def _show_end(self) -> None:
        c = self.c
        if c.now is not None and c.settlement is not None:
            prompt = c.now.prompt()
            self.message.setText(prompt.message)
            self._set_instructions(
                tuple(i for i in prompt.instructions if not i[:1].isdigit())
            )
            self.push.show_settlement(c.settlement, (c.now.hand.id, c.now.hand.events))
            self.push.new.setVisible(c.game_goes_on())
            self._page(PAGE_PUSH)
        else:
            self._set_instructions(())
            if c.shift is None:
                self.message.setText("Open a table to start the shift")
                self.idle_text.setText("No shift open at this station.")
            else:
                self.message.setText("Ready: start the next hand")
                self.idle_text.setText("Press N to start a hand.")
            self.start_button.setEnabled(c.shift is not None)
            self._page(PAGE_IDLE)
        self.cards.expect(0, "")
        self.card_action = None
        self.setFocus()

    def _page(self, page: int) -> None:
        """Show a bottom page; the push checklist takes the side panel, wide, instead."""
        self.pages.setCurrentIndex(page)
        pushing = page == PAGE_PUSH
        # with the picker open, a bar holding only card inputs gives the table its room
        only_cards = page == PAGE_ACT and self.prompt is not None and all(
            needs_cards(a) for a in self.prompt.actions if a.enabled)
        picking = not self.cards.picker.isHidden()
        self.pages.setVisible(not pushing and not (only_cards and picking))
        self.table.setVisible(not picking)
        self.history.setVisible(not pushing)
        self.history_title.setVisible(not pushing)
        self.push.setVisible(pushing)
        self.side.setFixedWidth(560 if pushing else 330)

    def _set_instructions(self, lines: Sequence[str]) -> None:
        """Short lines (Caro Hold 'em's price per kept count) share one line; an instruction
        to act ("Turn seat 6 face down: ...") gets a line of its own."""
        self._instruction_lines = list(lines)
        lines = grouped_by_seat(lines)
        short = all(len(line) <= 40 for line in lines)
        if short:  # a short line wraps whole, never inside itself
            lines = [line.replace(" ", "\u00a0") for line in lines]
        self.instructions.setText(("     ·     " if short else "\n").join(lines))
        self.instructions.setVisible(bool(lines))

    def instruction_texts(self) -> list[str]:
        return list(self._instruction_lines)

    def _arm_cards(self, prompt: Prompt) -> None:
        """Point the card entry at the action that takes cards (the seat to act's first)."""
        takers = [a for a in prompt.actions if a.enabled and needs_cards(a)]
        mine = [a for a in takers if a.seat == prompt.to_act]
        action = (mine or takers)[0] if (mine or takers) else None
        self.card_action = action
        if action is None:
            self.cards.expect(0, "")
            self.setFocus()
            return
        n = needs_cards(action)
        lettered = [a for a in takers if shortcut(a) and needs_cards(a) == n]
        if len(lettered) > 1 and len({shortcut(a) for a in lettered}) == len(lettered):
            label = "Type the card, then " + " · ".join(
                f"{shortcut(a).upper()} {a.label}" for a in lettered)
        else:
            label = action.label + (f": {n} cards" if n > 1 else "") + self._other_seats(action)
        self.cards.expect(n, label, **deck_of(action))
        self.cards.set_unavailable(self.c.card_reasons(action))
        self.cards.input.setFocus()

    def _other_seats(self, action: Action) -> str:
        """How the card box reaches another seat's card input of the same letter (Guts' "3 S"
        beside seat 1's S): its number, then the letter; where number and letter read as a
        card ("3s"), Esc first leaves the box, so the keys are the seat's, not a card."""
        others = [(a, k) for a, k in self._seat_keys()
                  if a is not action and a.enabled and needs_cards(a)
                  and shortcut(a) == shortcut(action)]
        if not others:
            return ""
        card_like = shortcut(action) in "shdc"
        keys = " · ".join(f"{k} {a.label}" for a, k in others)
        return f" · another seat: {'Esc, then ' if card_like else ''}{keys}"

    def take_focus(self) -> None:
        """Give the keyboard back after a dialog or a tab: to the card box when it waits for
        cards (typed cards are never read as keys), else to the screen's keys."""
        if self.cards.count and self.cards.input.isEnabled() and not self.cards.isHidden():
            self.cards.input.setFocus()
        else:
            self.setFocus()

    # --- input -----------------------------------------------------------------------------

    def choose(self, action: Action) -> None:
        """A button or its key: record it, or ask for the cards or the discard first."""
        if self._kept():
            return
        self.show_refusal("")
        if takes_discard(action):
            self._start_discard(action)
            return
        n = needs_cards(action)
        if n:
            typed = self._typed_cards()
            if self.cards.count == n and typed is not None and len(typed) == n:
                self._submit(action, typed)
            else:
                self.card_action = action
                self.cards.expect(n, action.label + (f": {n} cards" if n > 1 else ""),
                                  **deck_of(action))
                self.cards.set_unavailable(self.c.card_reasons(action))
                self.cards.input.setFocus()
            return
        if asks_dialog(action):
            self._ask_more(action)
            return
        if action.inputs:
            self.show_refusal(f'"{action.label}" needs input this screen does not take')
            return
        self._input_kind = "action"
        try:
            event = self.c.event_for(action)
        except BadInput as exc:
            self.show_refusal(str(exc))
            return
        self._record(action, event)

    def _record(self, action: Action, event: Any) -> None:
        """Record the action's event; the floor's decision with a floor person's PIN."""
        if action.floor:
            self._ask_approval(f"The floor decides: {action.label}.",
                               lambda a: self.c.record(event, a))
            return
        self.c.record(event)

    def _ask_more(self, action: Action) -> None:
        """Inputs that are not cards from the card entry: rows, a choice, an amount, dice (one
        dialog, laying out the widget of the input's kind). A value the app draws is drawn and
        put on the record first (:meth:`_draw`)."""
        drawn: dict[str, Any] | None = None
        if any(isinstance(v, Drawn) for v in action.inputs):
            drawn = self._draw(action)  # on the record before it is shown
            if drawn is None:
                self.take_focus()
                return
        if action.floor:  # the floor's decision: the inputs first, then the floor's PIN
            dialog = InputDialog(action, self, drawn=drawn)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                if drawn:
                    self.c.draw_cancelled(action, drawn)
                return
            self._input_kind = "action"
            try:
                event = self.c.event_for(action, **dict(dialog.fields))
            except BadInput as exc:
                self.show_refusal(str(exc))
                return
            self._record(action, event)
            return

        def submit(fields: dict[str, Any]) -> str:
            self._input_kind = "action"
            try:
                event = self.c.event_for(action, **fields)
            except BadInput as exc:
                return str(exc)
            if self.c.record(event) or self.c.pending is not None:
                return ""  # recorded, or kept for Retry (the banner names it)
            return self.c.last_error or "not recorded"

        dialog = InputDialog(action, self, submit=submit, drawn=drawn)
        if dialog.exec() != QDialog.DialogCode.Accepted and drawn and not dialog.recorded:
            self.c.draw_cancelled(action, drawn)
        self.take_focus()

    def _draw(self, action: Action) -> dict[str, Any] | None:
        """The app's draw for ``action``; a second one at the same point of the hand (the
        first cancelled) after a floor person's approval. None: nothing drawn."""
        got = self.c.draw(action)
        if got is not None or not self.c.approval_asked:
            return got
        box: dict[str, Any] = {}

        def op(approval: Approval) -> bool:
            again = self.c.draw(action, approval)
            if again is None:
                return False
            box.update(again)
            return True

        return box if self._ask_approval(f"{self.c.approval_asked}.", op) else None

    def letter_after_card(self, letter: str) -> bool:
        """A row or action letter typed right after a whole card ("9s" then B): enter the card
        with that action (open-face rows); the card box looks it up at the key. False when no
        card action has that letter."""
        prompt = self.prompt
        typed = self._typed_cards()
        if prompt is None or typed is None or len(typed) != self.cards.count:
            return False
        for a in prompt.actions:
            if a.enabled and needs_cards(a) == len(typed) and shortcut(a) == letter.lower():
                self._submit(a, typed)
                return True
        for a in prompt.actions:  # its row is full, or the rules refuse it now: say so
            if not a.enabled and needs_cards(a) and shortcut(a) == letter.lower():
                self.cards.show_error(f"{a.label}: {a.reason or 'not possible now'}")
                return True
        if letter.lower() not in RANK_LETTERS:
            keys = " · ".join(f"{shortcut(a).upper()} {a.label}" for a in prompt.actions
                              if a.enabled and needs_cards(a) and shortcut(a))
            self.cards.show_error(f'"{letter}" is not a card'
                                  + (f": after the card type {keys}" if keys else ""))
            return True
        return False

    def action_letter(self, letter: str) -> bool:
        """A letter no card starts with, typed in the empty card box: the action with that
        key (M to muck at a showdown); a letter nothing uses is refused under the box. While a
        discard is asked, U says it went face down."""
        if self.discard_seat is not None and self.discards.keep is not None \
                and letter.lower() == "u":
            self.discards.unseen.click()
            return True
        if self._trigger(letter) or self._screen_key(letter):
            return True
        self.cards.show_error(f'"{letter}" is not a card or a key here: type a rank (2-9, T, '
                              "J, Q, K, A) and a suit (s, h, d, c)")
        return True

    def cards_refusal(self, cards: tuple[Any, ...]) -> str:
        """Why the first cards of a several-card input (a board) cannot be, said as each is
        typed: the input is tried with the rest filled by cards nobody has seen; a refusal that
        names one of the typed cards is that card's (the game's own words)."""
        action = self.card_action
        now = self.c.now
        if action is None or now is None or self.discard_seat is not None:
            return ""
        n = needs_cards(action)
        if not 0 < len(cards) < n:
            return ""
        from dealer_assist.cards import full_deck
        from dealer_assist.errors import DealerAssistError

        view = self.c.view()
        seen = {c.code for c in cards}
        if view is not None:
            seen |= set(getattr(view, "board", ()) or ())
            for seat in getattr(view, "seats", ()) or ():
                seen |= {str(c) for c in getattr(seat, "cards", ()) or ()}
        spare = [c for c in full_deck() if c.code not in seen]
        for start in (0, len(spare) // 2):
            filler = tuple(spare[start:start + n - len(cards)])
            try:
                now.game.check(now.state, self.c.event_for(action, (*cards, *filler)))
            except DealerAssistError as exc:
                text = str(exc)
                if any(c.code in text or c.pretty in text for c in cards):
                    return text
                continue
            return ""
        return ""

    def _typed_cards(self) -> tuple[Any, ...] | None:
        """The collected cards plus what is in the box, when it reads as cards."""
        from dealer_assist.cards import parse_cards

        try:
            more = parse_cards(self.cards.input.text()) if self.cards.input.text().strip() else ()
        except BadInput:
            return None
        return (*self.cards.cards, *more)

    def _cards_entered(self, cards: tuple[Any, ...]) -> None:
        if self.discard_seat is not None:
            self._input_kind = "cards"
            if self.c.discard(self.discard_seat, cards):
                self.cards.clear()
            return
        if self.card_action is None:
            return
        self._submit(self.card_action, cards)

    def _submit(self, action: Action, cards: tuple[Any, ...]) -> None:
        self._input_kind = "cards"
        try:
            event = self.c.event_for(action, cards)
        except BadInput as exc:
            self.cards.show_error(str(exc))
            return
        if self.c.record(event):
            self.cards.clear()

    def _start_discard(self, action: Action) -> None:
        seat = action.seat
        if seat is None or self.prompt is None:
            return
        held = self.c.held(seat)
        self.discard_seat = seat
        self.discards.show_choices(seat, held, self.prompt, action)
        self._page(PAGE_DISCARD)
        self.cards.expect(0, "")
        self.setFocus()
        if len(self.discards.buttons) == 1:  # one count possible: only the face is asked
            self.discards.choose(next(iter(self.discards.buttons)))
            self.setFocus()  # U (face down) or the card (face up) from here; the digit too

    def _keep_chosen(self, keep: int) -> None:
        seat = self.discard_seat
        if seat is None:
            return
        n = self.discards.held - keep
        cards = "the card" if n == 1 else f"the {n} cards"
        self.cards.expect(n, f"Seat {seat} discards {n} (keeps {keep}): type {cards} if shown "
                             "face up, or press U if face down")
        self.cards.set_unavailable({})
        self.cards.input.setFocus()

    def _discard_unseen(self, count: int) -> None:
        if self.discard_seat is not None:
            self._input_kind = "action"
            self.c.discard(self.discard_seat, (), count=count)

    def _discard_cancel(self) -> None:
        self.refresh()

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

    def _kept(self) -> bool:
        """While an input is kept for Retry, say so instead of starting anything else."""
        why = self.c.kept_refusal()
        if why:
            self.show_refusal(why)
        return bool(why)

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

    def _has_button(self) -> bool:
        """Whether the hand in play has a dealer button (a misdeal keeps it where it is)."""
        view = self.c.view()
        return view is not None and getattr(view, "button", None) is not None

    def _ask_approval(self, what: str, op: Callable[[Approval], bool]) -> bool:
        """The floor's name and PIN, then ``op`` with them. A wrong PIN (or a name that may
        not approve) is refused inside the dialog, which stays open for another try."""

        def submit(approval: Approval) -> tuple[str, bool]:
            if op(approval):
                return "", False
            return self.c.last_error, self.c.auth_refused

        dlg = ApprovalDialog(what, self.c.services, self, submit=submit,
                             signed_in=self.c.session.name)
        done = dlg.exec() == QDialog.DialogCode.Accepted and not dlg.refusal
        self.take_focus()
        return done

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

    # --- feedback --------------------------------------------------------------------------

    def show_refusal(self, text: str) -> None:
        self.refusal.setText(text)
        self.refusal.setVisible(bool(text))
        if text:
            self.show_note("")

    def show_note(self, text: str) -> None:
        """A confirmation of what was done, in plain colours: red is for refusals only."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _refused(self, text: str) -> None:
        if self._input_kind == "cards" and self.cards.count:
            self.cards.show_error(text)
            self.cards.input.selectAll()
            self.cards.input.setFocus()
        else:
            self.show_refusal(text)

    def _failed(self, text: str) -> None:
        self.banner.show_failure(text, self.c.pending_what)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Every key of the screen (the card box passes these up): see the module doc."""
        text = event.text()
        key = event.key()
        page = self.pages.currentIndex()
        if key == Qt.Key.Key_Escape and self.seats_edit.hasFocus():
            self.setFocus()
            return
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undo()
            return
        if key == Qt.Key.Key_F2:
            self.cards.toggle_picker()
            return
        if key == Qt.Key.Key_F3:
            self.stacks()
            return
        if key == Qt.Key.Key_F4:
            self.misdeal()
            return
        if key == Qt.Key.Key_F5 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.drop_kept()
            return
        if key == Qt.Key.Key_F5:
            self.retry()
            return
        if key == Qt.Key.Key_F6 and self.c.time is not None:
            self.seats()
            return
        if key == Qt.Key.Key_F7 and self.c.time is not None:
            self.collect_time()
            return
        if page == PAGE_PUSH:
            if key in (Qt.Key.Key_T, Qt.Key.Key_Space):
                self.push.tick_next()
                return
            if key in (Qt.Key.Key_N, Qt.Key.Key_O, Qt.Key.Key_X, Qt.Key.Key_G) \
                    and not self.push.done:
                left = sum(not c.isChecked() for c in self.push.checks)
                self.show_refusal(f"tick each push step first (T or Space): {left} left")
                return
            if key == Qt.Key.Key_N:
                self.start_hand()
                return
            if key == Qt.Key.Key_G and self.push.new.isVisible():
                self.new_game()
                return
            if key == Qt.Key.Key_O:
                self.open_table()
                return
            if key == Qt.Key.Key_X:
                self.close_shift()
                return
        elif page == PAGE_IDLE:
            if key == Qt.Key.Key_N and self.c.shift is not None:
                self.start_hand()
                return
            if key == Qt.Key.Key_O:
                self.open_table()
                return
            if key == Qt.Key.Key_X and self.c.shift is not None:
                self.close_shift()
                return
            if key == Qt.Key.Key_S and self.c.shift is not None:
                self.seats_edit.setFocus()
                self.seats_edit.selectAll()
                return
        elif page == PAGE_DISCARD:
            if text.isdigit() and int(text) in self.discards.buttons:
                self.discards.choose(int(text))
                return
            if key == Qt.Key.Key_U:
                self.discards.unseen.click()
                return
            if key == Qt.Key.Key_Escape:
                self._discard_cancel()
                return
            if text.strip() and text.isprintable() and self.discards.keep is not None:
                self.cards.input.setFocus()  # the discarded card typed at once: face up
                self.cards.input.insert(text)
                return
        elif page == PAGE_ACT and text.isdigit() and self._seat_keys():
            self._seat_typed += text
            keys = " · ".join(f"{k[len(self._seat_typed) + 1:]} {a.label}"
                              for a, k in self._seat_keys() if k.split()[0] == self._seat_typed)
            self.show_refusal(f"Seat {self._seat_typed}: " + (keys or "no action for this "
                                                              "seat here"))
            return
        elif page == PAGE_ACT and text and text.isalpha():
            seat, self._seat_typed = self._seat_typed, ""
            if seat and self.seat_action(int(seat), text):
                return
            if not seat and (self._trigger(text) or self._screen_key(text)):
                return
            self.show_refusal(self._no_key(text))  # R when raising is capped: said, not silent
            return
        self._seat_typed = ""
        super().keyPressEvent(event)

    def _no_key(self, letter: str) -> str:
        """Why a letter does nothing now, with the keys that do something."""
        prompt = self.prompt
        keys = " · ".join(f"{shortcut(a).upper()} {a.label}" for a in
                          (prompt.actions if prompt is not None else ()) if a.enabled
                          and shortcut(a))
        return f'"{letter.upper()}": no action has this key now' + (
            f"; the keys now: {keys}" if keys else "")

    def _seat_keys(self) -> list[tuple[Action, str]]:
        """The actions whose key starts with a seat's number ("3 X"), with their keys."""
        return [(a, k) for a, k in zip(self.actions.actions_, self.actions.keys, strict=False)
                if k[:1].isdigit()]

    def seat_action(self, seat: int, letter: str) -> bool:
        """Seat ``seat``'s action of key ``letter`` (its number, then the letter); a seat
        without one is refused. True when the keys were taken."""
        prompt = self.prompt
        if prompt is None or not any(shortcut(a) == letter.lower() for a in prompt.actions):
            return False
        mine = [a for a in prompt.actions if a.seat == seat and shortcut(a) == letter.lower()]
        if not mine:
            self.show_refusal(self._rule_refusal(seat, letter)
                              or f'seat {seat} has no action on "{letter.upper()}" here')
            return True
        action = mine[0]
        if action.enabled:
            self.choose(action)
        else:
            self.show_refusal(f"{action.label}: {action.reason}")
        return True

    def _rule_refusal(self, seat: int, letter: str) -> str:
        """Why the rules refuse seat ``seat`` the action another seat has on ``letter`` (a
        second declaration: "a declaration is final"), in the game's own words; "" when the
        game would take it or the action needs input."""
        from dataclasses import replace

        from dealer_assist.engine.hand import cite
        from dealer_assist.errors import DealerAssistError

        now = self.c.now
        prompt = self.prompt
        if now is None or prompt is None:
            return ""
        for a in prompt.actions:
            if a.seat is None or shortcut(a) != letter.lower() or a.inputs:
                continue
            try:
                now.game.check(now.state, self.c.event_for(replace(a, seat=seat)))
            except DealerAssistError as exc:
                return cite(exc)
            except (TypeError, ValueError):
                continue
            return ""
        return ""

    def _screen_key(self, letter: str) -> bool:
        """O and X in a hand, when the game gives them no action: the screen's own keys, as
        their buttons say. O opens another table (this hand waits at its table); X says why
        the shift cannot close yet rather than asking the floor's PIN for a refusal."""
        low = letter.lower()
        if low == "o":
            self.open_table()
            self.take_focus()
            return True
        if low == "x" and self.c.shift is not None and self.c.now is not None:
            self.show_refusal(f"Close shift: hand {self.c.now.hand.number} is not finished: "
                              "finish and settle it, or call it off (Misdeal, F4), first")
            return True
        return False

    def _trigger(self, key: str) -> bool:
        """An action by its key; with several (one per seat) the seat to act's."""
        prompt = self.prompt
        if prompt is None:
            return False
        matches = [a for a in prompt.actions if shortcut(a) == key.lower()]
        if not matches:
            return False
        action = next((a for a in matches if a.seat == prompt.to_act), matches[0])
        if action.enabled:
            self.choose(action)
        else:
            self.show_refusal(f"{action.label}: {action.reason}")
        return True
