"""Games played with stacks (Caro Hold 'em): the next hand starts with what each seat left the
last one with, read from the store (a restart or another station gives the same), and a rebuy
or a new player's stack is entered before the deal and written to the audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.hand import read_log
from dealer_assist.errors import RuleViolation
from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services, Session

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
CARO: dict[str, Any] = {
    "name": "Caro-1", "game": "caro-holdem", "seats": 3, "smallest_chip": 100,
    "buy_in": 100000, "params": {"unit": 1000, "ante": 100, "cap": 4},
}


@pytest.fixture
def played() -> tuple[Services, Session, int, dict[int, int]]:
    """A Caro table whose first hand (the rulings' worked example 8) is played and settled;
    and each seat's stack after it, worked out from the settlement."""
    svc = Services(InMemoryStore("Test Room"), hasher=Argon2PinHasher(fast=True))
    admin = svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    ada = Session(user=admin, signed_in_at=svc.clock())
    svc.add_user(ada, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
    svc.add_user(ada, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    table_id = svc.add_table(ada, CARO).id
    dealer = svc.sign_in("dana", "1111")
    svc.open_shift(dealer, table_id, floor="fran")
    events, _ = read_log(EXAMPLES / "caro-holdem-rulings-8.jsonl")
    now = svc.start_hand(dealer, table_id)
    assert now.replay.start.get("button") == events[0].get("button")
    for ev in events[1:]:
        now = svc.record(dealer, now.hand.id, ev)
    settlement = svc.settle(dealer, now.hand.id)
    after = {s: 100000 - settlement.put_in.get(s, 0) + settlement.payouts.get(s, 0)
             for s in (1, 2, 3)}
    return svc, dealer, table_id, after


def test_next_hand_starts_with_the_stacks_the_last_hand_left(played: Any) -> None:
    svc, dealer, table_id, after = played
    assert after != {1: 100000, 2: 100000, 3: 100000}  # the example moves chips
    assert sum(after.values()) == 300000  # no fee at this table: every chip is still there
    assert svc.next_stacks(table_id) == after
    # a restart (a new Services on the same store) reads the same from the record
    again = Services(svc.store, hasher=Argon2PinHasher(fast=True))
    assert again.next_stacks(table_id) == after
    second = svc.start_hand(dealer, table_id)
    assert _stacks(second) == after


def _stacks(now: Any) -> dict[int, int]:
    """The start event's stacks (JSON object keys: seat numbers as text)."""
    return {int(k): v for k, v in dict(now.replay.start.get("stacks")).items()}


def test_rebuy_before_the_deal_is_recorded_and_audited(played: Any) -> None:
    svc, dealer, table_id, after = played
    now = svc.start_hand(dealer, table_id, stacks={2: after[2] + 50000})
    assert _stacks(now) == {**after, 2: after[2] + 50000}
    admin = svc.sign_in("ada", "9999")
    entries = [e for e in svc.audit_log(admin) if e.action == "stacks"]
    assert len(entries) == 1
    assert entries[0].detail.startswith(f"hand {now.hand.number}: seat 2 ")
    assert "kept from the last hand" in entries[0].detail


def test_a_seat_without_chips_must_rebuy_or_sit_out(played: Any) -> None:
    svc, dealer, table_id, _ = played
    with pytest.raises(RuleViolation, match="seat 1 has no chips left: enter a rebuy"):
        svc.start_hand(dealer, table_id, stacks={1: 0})
    assert svc.list_hands()[-1].number == 1  # nothing was started
    now = svc.start_hand(dealer, table_id, seats=(2, 3))
    assert now.replay.start.seats == (2, 3)
