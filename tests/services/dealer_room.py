"""A test cardroom with the dealer box: three tables with open shifts (opened by dee and the
floor people fran and gus) and dealers dana, eve and gil; built on any store and dealer-box
records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.services import InMemoryStore, Session
from dealer_assist.services.dealer_hooks import take_table
from dealer_assist.services.dealer_ports import DealerRecords, MemoryDealerRecords

from .support import Room, make_room, settings


@dataclass
class DealerRoom:
    room: Room
    box: DealerRecords
    tables: dict[str, int]
    dealers: dict[str, Session]

    @property
    def svc(self) -> Any:
        return self.room.svc

    def sit(self, name: str, table: str) -> bool:
        """``name`` signs in at ``table`` (a station's Open table)."""
        tid = self.tables[table]
        return take_table(self.svc, self.dealers[name], tid, self.svc.current_shift(tid))

    def deal(self, name: str, table: str, cards: list[str]) -> int:
        """``name`` starts a hand at ``table`` and deals ``cards`` (3 cards: the hand is over)."""
        from dealer_assist.cards import parse_card
        from dealer_assist.events import CardDealt

        who = self.dealers[name]
        now = self.svc.start_hand(who, self.tables[table], seats=(1, 2, 3))
        for seat, c in zip((1, 2, 3), cards, strict=False):
            now = self.svc.record(who, now.hand.id, CardDealt(seat=seat, card=parse_card(c)))
        return int(now.hand.id)

    def finish(self, name: str, hand_id: int) -> None:
        self.svc.settle(self.dealers[name], hand_id)


def make_dealer_room(store: Any = None, box: DealerRecords | None = None) -> DealerRoom:
    room = make_room(store or InMemoryStore())
    svc = room.svc
    svc.dealer_box = box or MemoryDealerRecords()
    for name, pin in (("dana", "1111"), ("eve", "1112"), ("gil", "1113")):
        svc.add_user(room.admin, name=name, full_name=f"{name.title()} Dealer", role="dealer",
                     pin=pin)
    svc.add_user(room.admin, name="gus", full_name="Gus Floor", role="floor", pin="2223")
    tables = {"T1": room.table_id}
    for name, opener in (("T2", room.floor), ("T3", svc.sign_in("gus", "2223"))):
        t = svc.add_table(room.admin, settings(), name=name)
        svc.open_shift(opener, t.id, floor="fran")  # each floor person opens one table
        tables[name] = t.id
    dealers = {n: svc.sign_in(n, p) for n, p in
               (("dana", "1111"), ("eve", "1112"), ("gil", "1113"))}
    return DealerRoom(room, svc.dealer_box, tables, dealers)
