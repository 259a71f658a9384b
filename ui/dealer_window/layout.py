"""The dealer screen's widgets laid out and drawn from the controller's hand, with the
feedback lines and the floor's approval every part asks for. What the keys and buttons do is
in the parts (:mod:`.hand_entry`, :mod:`.between_hands`, :mod:`.fixes`, :mod:`.keys`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from dealer_assist.engine.base import Action, Prompt
from dealer_assist.engine.registry import get_game
from dealer_assist.services import Approval
from dealer_assist.ui.card_entry import CardEntry
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dealer_window.pages import (
    PAGE_ACT,
    PAGE_IDLE,
    PAGE_PUSH,
    BottomPages,
    fee_before_deal,
    grouped_by_seat,
)
from dealer_assist.ui.dialogs import ApprovalDialog
from dealer_assist.ui.inputs import deck_of
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
from dealer_assist.ui.push_notice import PushNotice
from dealer_assist.ui.qt import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.table_view import TableWidget
from dealer_assist.ui.theme import current_theme


class DealerLayout(QWidget):
    """One table, as the dealer runs it: the widgets, drawn from the hand;
    :class:`~dealer_assist.ui.dealer_window.DealerScreen` adds what they do from its parts."""

    if TYPE_CHECKING:  # the parts' methods the widgets and the other parts call
        def _cards_entered(self, cards: tuple[Any, ...]) -> None:
            raise NotImplementedError

        def _discard_cancel(self) -> None:
            raise NotImplementedError

        def _discard_unseen(self, count: int) -> None:
            raise NotImplementedError

        def _keep_chosen(self, keep: int) -> None:
            raise NotImplementedError

        def _seat_keys(self) -> list[tuple[Action, str]]:
            raise NotImplementedError

        def choose(self, action: Action) -> None:
            raise NotImplementedError

        def _no_key(self, letter: str) -> str:
            raise NotImplementedError

        def _screen_key(self, letter: str) -> bool:
            raise NotImplementedError

        def _trigger(self, key: str) -> bool:
            raise NotImplementedError

        def seat_action(self, seat: int, letter: str) -> bool:
            raise NotImplementedError

        def start_hand(self) -> None:
            raise NotImplementedError

        def new_game(self) -> None:
            raise NotImplementedError

        def open_table(self) -> None:
            raise NotImplementedError

        def stacks(self) -> None:
            raise NotImplementedError

        def seats(self) -> None:
            raise NotImplementedError

        def collect_time(self) -> None:
            raise NotImplementedError

        def close_shift(self) -> None:
            raise NotImplementedError

        def retry(self) -> None:
            raise NotImplementedError

        def drop_kept(self) -> None:
            raise NotImplementedError

        def undo(self) -> None:
            raise NotImplementedError

        def misdeal(self) -> None:
            raise NotImplementedError

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
        self.push_notice = PushNotice(controller)  # the dealer box's next push
        top.addWidget(self.push_notice)
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
        self.journal_line = JournalLine(controller.services.journal)
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
        self.push_notice.refresh()
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


    def _kept(self) -> bool:
        """While an input is kept for Retry, say so instead of starting anything else."""
        why = self.c.kept_refusal()
        if why:
            self.show_refusal(why)
        return bool(why)


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
