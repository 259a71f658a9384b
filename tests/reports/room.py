"""A small cardroom in memory, dealt through the application services: Champs and Cowards hands
with fees and a jackpot drop, a void, a dispute and a reveal."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.services import (
    Adjustment,
    Approval,
    Argon2PinHasher,
    InMemoryStore,
    Services,
    Session,
)

FAST = Argon2PinHasher(fast=True)
FEE = {"kind": "per-player", "amount": 100, "jackpot": {"amount": 100, "min_pot": 0}}


@dataclass
class Clock:
    now: datetime = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=7)
        return self.now


@dataclass
class Room:
    svc: Services
    store: Any
    clock: Clock
    admin: Session
    floor: Session
    dealer: Session
    table_id: int
    shift_id: int
    hand_ids: list[int]


def make_room(hands: int = 12, seed: int = 7, players: int = 6,
              svc: Services | None = None) -> Room:
    """Deal ``hands`` hands at table T1 (in memory, or through ``svc`` on any store)."""
    clock = Clock()
    if svc is None:
        svc = Services(InMemoryStore("Riverside Card Club"), clock=clock, hasher=FAST)
    else:
        svc.clock = clock
    store = svc.store
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="fran", full_name="Francesca Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Deandra Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="gil", full_name="Gilberto Floor", role="floor", pin="5555")
    table = svc.add_table(admin, {
        "name": "T1", "game": "champs-and-cowards", "seats": players, "smallest_chip": 100,
        "params": {"chip": 200, "decks": 1}, "fee": FEE})
    dealer = svc.sign_in("dee", "1111")
    shift = svc.open_shift(dealer, table.id, floor="fran")
    floor = svc.sign_in("fran", "2222")
    game = get_game("champs-and-cowards")
    rng = random.Random(seed)
    ids = []
    for i in range(hands):
        events = game.sample_hand(rng, players=players)
        now = svc.start_hand(dealer, table.id)
        for k, ev in enumerate(events[1:]):
            now = svc.record(dealer, now.hand.id, ev)
            if i == 1 and k == 0:  # a slip corrected at once: the second hand has a void
                now = svc.void(dealer, now.hand.id, now.last.number, "card keyed to wrong seat")
                now = svc.record(dealer, now.hand.id, ev)
        svc.settle(dealer, now.hand.id)
        ids.append(now.hand.id)
        clock.now += timedelta(minutes=4)
    if hands >= 3:
        svc.reveal(floor, ids[2], reason="dispute at seat 2")
        svc.record_dispute(
            floor, ids[2], notes="Seat 1 says the coward was called before the card.",
            ruling="Hand stands; seat 1 refunded one champ as goodwill.",
            adjustments=[Adjustment(400, seat=1, note="goodwill"),
                         Adjustment(-400, seat=None, note="house")],
            approval=Approval("gil", "5555"),
        )
    return Room(svc, store, clock, admin, floor, dealer, table.id, shift.id, ids)
