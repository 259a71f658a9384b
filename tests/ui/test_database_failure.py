"""A database that fails or locks mid-hand: a banner says so, the input is kept for Retry, the
screen never shows the unrecorded event, and nothing already recorded is lost."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Argon2PinHasher, Services, StoreUnavailable
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import open_screen, type_card

LOCKED = "database is locked (another station is writing): retry in a moment"


class FlakyStore:
    """The real store, except that appends fail while ``down`` is set."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.down = False
        self.refused = 0

    def append_event(self, *args: Any, **kwargs: Any) -> Any:
        if self.down:
            self.refused += 1
            raise StoreUnavailable(LOCKED)
        return self._store.append_event(*args, **kwargs)

    def settle_hand(self, *args: Any, **kwargs: Any) -> Any:
        if self.down:
            raise StoreUnavailable(LOCKED)
        return self._store.settle_hand(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_regression_failing_database_mid_hand_loses_nothing(
    qtbot: Any, sqlite_services: Services
) -> None:
    flaky = FlakyStore(sqlite_services.store)
    svc = Services(flaky, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    screen = open_screen(qtbot, svc)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    for code in ("7h", "kc", "2s", "9d", "3s", "jc", "jh", "9c"):
        type_card(qtbot, screen, code)
    qtbot.keyClick(screen, "c")  # seat 4 champs
    stored = len(svc.hand_events(hand_id))
    assert stored == 10

    flaky.down = True
    qtbot.keyClicks(screen.cards.input, "4c")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    assert flaky.refused == 1
    assert screen.banner.isVisible()
    assert LOCKED in screen.banner.text.text()
    assert "Your input is kept" in screen.banner.text.text()
    # the typed card is still there; the table does not show it; nothing was stored
    assert screen.cards.input.text() == "4c"
    assert "4♣" not in screen.table.seat_text(4)
    assert screen.message.text() == "Burn one card and deal seat 4 a card face up"
    assert len(screen.history.texts()) == 10
    assert len(svc.hand_events(hand_id)) == 10

    # retry while still down: still kept; then the database is back
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert flaky.refused == 2 and screen.banner.isVisible()
    flaky.down = False
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not screen.banner.isVisible()
    assert screen.cards.input.text() == ""
    assert "4♣" in screen.table.seat_text(4) and "13 points" in screen.table.seat_text(4)
    rows = svc.hand_events(hand_id)
    assert len(rows) == 11 and rows[-1].body == {"type": "card", "seat": 4, "card": "4c"}

    # a button input fails the same way and is retried with the Retry button
    flaky.down = True
    qtbot.keyClick(screen, "w")
    assert screen.banner.isVisible() and screen.c.pending is not None
    assert screen.table.view is not None and screen.table.view.to_act == 4
    flaky.down = False
    qtbot.mouseClick(screen.banner.button, Qt.MouseButton.LeftButton)
    assert [r.body["type"] for r in svc.hand_events(hand_id)][-1] == "coward"
    assert screen.table.view is not None and screen.table.view.to_act == 5
    assert not screen.banner.isVisible()


def test_undo_voids_the_last_event_with_a_reason_in_the_history(
    qtbot: Any, memory_services: Services
) -> None:
    from tests.ui.conftest import answer_next_dialog, click_ok

    svc = memory_services
    screen = open_screen(qtbot, svc)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    type_card(qtbot, screen, "7h")
    type_card(qtbot, screen, "kc")
    assert "K♣" in screen.table.seat_text(2)

    def fill(dlg: Any) -> None:
        assert "Void event 3" in dlg.what.text()
        qtbot.keyClicks(dlg.reason, "wrong card typed")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(screen, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "K♣" not in screen.table.seat_text(2)
    assert screen.message.text() == "Deal the up card to seat 2"
    history = screen.history.texts()
    assert history[2].startswith("3. card") and "VOIDED: wrong card typed" in history[2]
    assert history[3] == "4. void of event 3: wrong card typed"
    assert screen.history.item(2).font().strikeOut()
    type_card(qtbot, screen, "qc")
    assert "Q♣" in screen.table.seat_text(2)
    assert screen.c.now is not None
    bodies = [r.body for r in svc.hand_events(screen.c.now.hand.id)]
    assert bodies[3] == {"type": "void", "target": 3, "reason": "wrong card typed"}
    assert [a.action for a in svc.store.audit_log(action="void")] == ["void"]


def test_undo_in_a_finished_hand_needs_the_floor_and_reopens_it(
    qtbot: Any, memory_services: Services
) -> None:
    from tests.ui.conftest import answer_next_dialog, click_ok

    svc = memory_services
    screen = open_screen(qtbot, svc)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("9d", "5c", "2h"):
        type_card(qtbot, screen, code)
    for _ in range(3):
        qtbot.keyClick(screen, "w")
    assert screen.c.now is not None and screen.c.now.hand.status == "settled"
    assert screen.push.isVisible()

    def reason(dlg: Any) -> None:
        qtbot.keyClicks(dlg.reason, "seat 3 said champ, not coward")
        answer_next_dialog(qtbot, approve)
        click_ok(qtbot, dlg)

    def approve(dlg: Any) -> None:
        assert "floor person approves" in dlg.what.text()
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, reason)
    qtbot.keyClick(screen, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert screen.c.now is not None and screen.c.now.hand.status == "open"
    assert not screen.push.isVisible()
    assert screen.message.text().startswith("Seat 3 (2 points): champ for $4 or coward")
    assert "VOIDED: seat 3 said champ, not coward" in screen.history.texts()[-2]
    audit = svc.store.audit_log(action="void")
    assert len(audit) == 1 and "approved by fran" in audit[0].detail


class SettleFailsStore(FlakyStore):
    """Appends work; writing the settlement's ledger fails while ``ledger_down`` is set."""

    ledger_down = False

    def settle_hand(self, *args: Any, **kwargs: Any) -> Any:
        if self.ledger_down:
            raise StoreUnavailable(LOCKED)
        return self._store.settle_hand(*args, **kwargs)


def test_regression_failed_settlement_is_retried_without_a_second_input(
    qtbot: Any, memory_services: Services
) -> None:
    flaky = SettleFailsStore(memory_services.store)
    svc = Services(flaky, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    screen = open_screen(qtbot, svc)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("9d", "5c", "2h"):
        type_card(qtbot, screen, code)
    qtbot.keyClick(screen, "w")
    qtbot.keyClick(screen, "w")
    flaky.ledger_down = True
    qtbot.keyClick(screen, "w")  # recorded; the ledger is not
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    assert len(svc.hand_events(hand_id)) == 7
    assert screen.banner.isVisible() and not screen.push.isVisible()
    assert svc.hand(hand_id).status == "open" and svc.ledger(hand_id) == []
    flaky.ledger_down = False
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not screen.banner.isVisible() and screen.push.isVisible()
    assert len(svc.hand_events(hand_id)) == 7
    assert svc.hand(hand_id).status == "settled"
    assert screen.push.totals.text() == "In all: seat 1 $24, seat 2 $10, seat 3 $2"


def _to_first_champ(qtbot: Any, svc: Services) -> Any:
    screen = open_screen(qtbot, svc)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("7h", "kc", "2s", "9d", "3s", "jc", "jh", "9c"):
        type_card(qtbot, screen, code)
    return screen


def test_regression_a_kept_input_is_never_replaced_by_the_next(
    qtbot: Any, sqlite_services: Services
) -> None:
    """Seat 4's champ is kept while the database does not answer; W (coward) is refused, not
    kept in its place; F5 records the champ, not the coward."""
    flaky = FlakyStore(sqlite_services.store)
    svc = Services(flaky, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    screen = _to_first_champ(qtbot, svc)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    flaky.down = True
    qtbot.keyClick(screen, "c")  # seat 4 champs: kept
    banner = screen.banner.text.text()
    assert "Your input is kept: Seat 4: champ" in banner, banner
    assert screen.banner.drop_button.isVisible()
    qtbot.keyClick(screen, "w")  # another input: refused, the champ stays kept
    assert flaky.refused == 1
    assert screen.refusal.text().startswith("not recorded yet and kept: Seat 4: champ")
    assert screen.c.pending_what.startswith("Seat 4: champ")
    flaky.down = False
    qtbot.keyClick(screen, "w")  # still refused: the kept input goes first
    assert [r.body["type"] for r in svc.hand_events(hand_id)][-1] == "card"
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert [r.body["type"] for r in svc.hand_events(hand_id)][-1] == "champ"
    assert not screen.banner.isVisible()
    assert len(svc.hand_events(hand_id)) == 10


def test_a_dropped_input_is_written_to_the_audit_log_when_the_database_is_back(
    qtbot: Any, sqlite_services: Services
) -> None:
    flaky = FlakyStore(sqlite_services.store)
    svc = Services(flaky, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    screen = _to_first_champ(qtbot, svc)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    flaky.down = True
    qtbot.keyClick(screen, "c")
    qtbot.keyClick(screen, Qt.Key.Key_F5, Qt.KeyboardModifier.ShiftModifier)  # dropped
    assert not screen.banner.isVisible() and screen.c.pending is None
    assert "Dropped, not recorded: Seat 4: champ" in screen.note.text()
    assert svc.store.audit_log(action="input-dropped") == []  # the database is still down
    flaky.down = False
    qtbot.keyClick(screen, "w")  # the next input: the drop is logged first, then the coward
    rows = svc.hand_events(hand_id)
    assert [r.body["type"] for r in rows][-2:] == ["card", "coward"] and len(rows) == 10
    dropped = svc.store.audit_log(action="input-dropped")
    assert len(dropped) == 1 and dropped[0].actor == "dana"
    assert dropped[0].detail.startswith("not recorded, dropped: Seat 4: champ")
    assert dropped[0].hand_id == hand_id


def test_regression_banner_whole_after_a_second_refusal_at_1280x800(
    qtbot: Any, memory_services: Services
) -> None:
    """The database busy (its message names the whole file path), then a second refusal (a
    key pressed while the input is kept), in the main window maximised at 1280x800 (775 px
    under the title bar): the banner's six big lines were squeezed to four and the card box
    under it. The headline is big, the details at the base size; nothing is squeezed."""
    from dealer_assist.ui.layout_check import problems
    from dealer_assist.ui.main_window import MainWindow
    from dealer_assist.ui.screenshots import cc_events

    busy = ("the database sqlite:////home/dana-whitfield/.local/share/dealer-assist/"
            "dealer-assist.sqlite3 is busy (another program or station is writing to it): "
            "nothing was recorded; try again in a moment")

    class Busy(FlakyStore):
        def append_event(self, *args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise StoreUnavailable(busy)
            return self._store.append_event(*args, **kwargs)

    flaky = Busy(memory_services.store)
    svc = Services(flaky, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.resize(1280, 775)
    win.show()
    screen = win.dealer
    screen.c.open_table(svc.find_table("CC-1").id, "fran")
    screen.c.start_hand()
    for ev in cc_events()[:9]:
        screen.c.record(ev)
    flaky.down = True
    type_card(qtbot, screen, "4c")
    qtbot.keyClick(screen, "n")  # the second refusal, under the banner
    qtbot.wait(10)
    assert screen.banner.isVisible() and busy in screen.banner.text.text()
    assert screen.refusal.isVisible()
    assert problems() == []
    label = screen.banner.text
    assert label.height() >= label.heightForWidth(label.width())
