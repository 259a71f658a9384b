"""The fees ruling's "every report shows the amount each rake was taken from", for a game whose
pot carries (Rams through the services): the shift report and the game report show the chips put
in during the hand as what the rake was taken from, never the pot carried in, and the next hand
starts with the pot left after the fee."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dealer_assist.cards import parse_card
from dealer_assist.events import CardDealt, Event
from dealer_assist.games.rams.events import Play, Trump
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.game_report import build_game
from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services


class Clock:
    now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def card(seat: int, code: str) -> CardDealt:
    return CardDealt(seat=seat, card=parse_card(code))


def sweep(order: tuple[int, int, int]) -> list[Event]:
    """Everyone plays; the first of ``order`` (the dealer's left) takes all five tricks."""
    return [
        Trump(card=parse_card("Jd")), *[Play(seat=s) for s in order],
        *[card(s, c) for row in (("Ah", "Kh", "Qh"), ("Ad", "Kd", "Qd"), ("Ac", "Kc", "Qc"),
                                 ("As", "Ks", "Qs"), ("Jh", "Th", "9h"))
          for s, c in zip(order, row, strict=True)],
    ]


def test_ruling_fees_reports_show_what_a_carried_pot_rake_was_taken_from() -> None:
    svc = Services(InMemoryStore(), clock=Clock(), hasher=Argon2PinHasher(fast=True))
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    table = svc.add_table(admin, {"game": "rams", "seats": [1, 2, 3], "smallest_chip": 100,
                                  "params": {"stake": 100},
                                  "fee": {"kind": "rake", "percent": "10"}}, name="Rams 1")
    dee = svc.sign_in("dee", "1111")
    shift = svc.open_shift(dee, table.id, floor="fran")
    now = svc.start_hand(dee, table.id)
    for ev in sweep((1, 2, 3)):  # the dealer seat 3
        now = svc.record(dee, now.hand.id, ev)
    svc.settle(dee, now.hand.id)
    # the $5 ante and $5 from each of seats 2 and 3: 10% of $15 is $1.50, $1 with $1 chips,
    # out of the $10 next pot
    second = svc.start_hand(dee, table.id)
    assert second.replay.start.get("pot_in") == 900
    for ev in sweep((2, 3, 1)):  # the dealer seat 1
        second = svc.record(dee, second.hand.id, ev)
    svc.settle(dee, second.hand.id)
    # the second hand: $9 carried in is not raked again; $15 put in again: $1
    report = build_shift(svc.store, shift_id=shift.id, by="Fran Floor", at=Clock.now)
    assert [(h.raked_from, h.fee) for h in report.hands] == [(1500, 100), (1500, 100)]
    assert [h.carry_in for h in report.hands] == [0, 900]
    so_far = svc.game_so_far(table.id)
    game = build_game(svc.store, so_far.hands, so_far.over, so_far.sheet, table="Rams 1",
                      by="Fran Floor", at=Clock.now)
    last = game.hands[-1]
    assert (last.carry_in, last.raked_from, last.fee) == (900, 1500, 100)
    # regression: the game is the pot's life, both hands (it once stopped at the last hand,
    # the pot carried in not counting as carrying on)
    assert [h.carry_in for h in game.hands] == [0, 900]
    assert len(so_far.hands) == 2 and not so_far.over
