"""Hand entry on the dealer screen: an action by its button or key, its cards, the inputs a
dialog asks, a discard, a seat's action by its number."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Drawn
from dealer_assist.errors import BadInput
from dealer_assist.services import Approval
from dealer_assist.ui.card_entry import RANK_LETTERS
from dealer_assist.ui.dealer_window.layout import DealerLayout
from dealer_assist.ui.dealer_window.pages import PAGE_DISCARD
from dealer_assist.ui.inputs import InputDialog, asks_dialog, deck_of, takes_discard
from dealer_assist.ui.panels import (
    needs_cards,
    shortcut,
)
from dealer_assist.ui.qt import QDialog


class HandEntry(DealerLayout):
    """Actions, cards and discards of the hand in play."""

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
