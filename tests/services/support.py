"""The test cardroom: services over a store, with a clock the tests move by hand."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services, Session

from . import highcard  # registers the test game

FAST = Argon2PinHasher(fast=True)


@dataclass
class Clock:
    now: datetime = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(microseconds=1)
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@dataclass
class Room:
    """A cardroom with an admin, a floor person, a dealer, an auditor and one table."""

    svc: Services
    store: InMemoryStore
    clock: Clock
    admin: Session
    floor: Session
    dealer: Session
    auditor: Session
    table_id: int

    def hand(self, cards: list[str], seats: tuple[int, ...] = (1, 2, 3)) -> int:
        from dealer_assist.cards import parse_card
        from dealer_assist.events import CardDealt

        now = self.svc.start_hand(self.dealer, self.table_id, seats=seats)
        for seat, card in zip(seats, cards, strict=False):
            now = self.svc.record(
                self.dealer, now.hand.id, CardDealt(seat=seat, card=parse_card(card))
            )
        return now.hand.id


def settings(**params: int) -> dict[str, object]:
    """A table-settings document for the test game."""
    return {
        "game": highcard.NAME, "seats": [1, 2, 3], "smallest_chip": 1,
        "params": {"ante": 100, "rake": 10, **params},
    }


def make_room(store: InMemoryStore | None = None, clock: Clock | None = None) -> Room:
    store = store or InMemoryStore()
    clock = clock or Clock()
    svc = Services(store, clock=clock, hasher=FAST)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="otto", full_name="Otto Auditor", role="auditor", pin="3333")
    table = svc.add_table(admin, settings(), name="T1")
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran")
    return Room(
        svc, store, clock, admin, svc.sign_in("fran", "2222"), dealer, svc.sign_in("otto", "3333"),
        table.id,
    )


