"""The room's tables as the floor sees them, read through the store port: each table's current
settings (game, stakes, seats, smallest chip, buy-in) and its open shift's dealer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.floorboard.ports import FloorTable
from dealer_assist.services.ports import Store
from dealer_assist.settings import parse_table_settings


class StoreTables:
    """:class:`~dealer_assist.services.floorboard.ports.TableCatalog` over the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def floor_tables(self) -> Sequence[FloorTable]:
        out: list[FloorTable] = []
        with self.store.reading():
            for t in self.store.list_tables():
                version = self.store.latest_settings(t.id)
                if version is None:
                    continue
                try:
                    parsed = parse_table_settings(version.document, source=t.name)
                except DealerAssistError:
                    continue  # a table whose settings no longer read is not offered
                shift = self.store.current_shift(t.id)
                out.append(FloorTable(
                    id=t.id, name=t.name, game=parsed.game, stakes=parsed.stakes,
                    seats=tuple(parsed.seats), min_players=get_game(parsed.game).players[0],
                    smallest_chip=parsed.smallest_chip, buy_in=parsed.buy_in,
                    dealer=shift.dealer if shift is not None else None))
        return out

    def last_start(self, table_id: int) -> tuple[datetime, tuple[int, ...]] | None:
        hand = self.store.last_hand(table_id)
        return None if hand is None else (hand.started_at, tuple(hand.seats))
