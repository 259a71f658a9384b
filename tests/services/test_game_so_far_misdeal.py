"""The game so far (the dealer's score sheet between hands, the game report) counts a hand
called off as a misdeal as what it is: every chip back, the pot carried in passed on, and the
game going on, also when the hand was over before the floor called it off, and when what was
called off is the end of the game (ruling preference-7)."""

from __future__ import annotations

import pytest

from dealer_assist.games.preference.events import Ante, Bid, End
from dealer_assist.services import (
    Approval,
    Argon2PinHasher,
    InMemoryStore,
    Services,
    Session,
    verify_store,
)

FLOOR = Approval(name="fran", pin="2222")
PREF = {"name": "P-1", "game": "preference", "seats": 3, "smallest_chip": 100,
        "params": {"stake": 200}}


@pytest.fixture
def pref() -> tuple[Services, Session, int]:
    svc = Services(InMemoryStore("Test Room"), hasher=Argon2PinHasher(fast=True))
    admin = svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    ada = Session(user=admin, signed_in_at=svc.clock())
    svc.add_user(ada, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
    svc.add_user(ada, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    table = svc.add_table(ada, PREF).id
    dealer = svc.sign_in("dana", "1111")
    svc.open_shift(dealer, table, floor="fran")
    return svc, dealer, table


def _all_pass(svc: Services, dealer: Session, table: int) -> int:
    """A hand anted ten stakes ($20 each) that everyone passes: $60 carries on."""
    now = svc.start_hand(dealer, table)
    hand = now.hand.id
    now = svc.record(dealer, hand, Ante(stakes=10))
    for _ in range(3):
        now = svc.record(dealer, hand, Bid(seat=now.prompt().to_act, bid="pass"))
    assert svc.settle(dealer, hand).carry_out == 6000
    return hand


def test_ruling_preference_7_an_end_of_the_game_called_off_keeps_the_game_and_its_pot(
    pref: tuple[Services, Session, int],
) -> None:
    svc, dealer, table = pref
    _all_pass(svc, dealer, table)
    hand = svc.start_hand(dealer, table).hand.id
    svc.record(dealer, hand, End())
    svc.misdeal(dealer, hand, "the players did not agree to end", approval=FLOOR)
    assert svc.settle(dealer, hand).carry_out == 6000
    so_far = svc.game_so_far(table)
    assert not so_far.over
    assert so_far.sheet is not None
    assert so_far.sheet.rows == (("1", "-$20", "-$20", "-$20", "$60"),
                                 ("2 (misdeal)", "$0", "$0", "$0", "$60"))
    assert verify_store(svc.store).ok


def test_regression_a_finished_hand_called_off_later_shows_every_chip_back_on_the_sheet(
    pref: tuple[Services, Session, int],
) -> None:
    svc, dealer, table = pref
    hand = _all_pass(svc, dealer, table)
    svc.misdeal(dealer, hand, "cards found face up in the stub", approval=FLOOR)
    refund = svc.settle(dealer, hand)
    assert dict(refund.payouts) == {1: 2000, 2: 2000, 3: 2000} and refund.carry_out == 0
    so_far = svc.game_so_far(table)
    assert so_far.sheet is not None
    assert so_far.sheet.rows == (("1 (misdeal)", "$0", "$0", "$0", "$0"),)
