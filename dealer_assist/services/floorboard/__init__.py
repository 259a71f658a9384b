"""The floor board: tables opened and closed, waiting lists, seats, away marks and chip
pick-ups, kept as sealed typed records (one row per floor action) from which the room as it is
now is derived. Pure: the database adapter is ``dealer_assist.db.floor_records``.

See docs/floor-board.md.
"""

from dealer_assist.services.floorboard.handlers import FloorBoard
from dealer_assist.services.floorboard.ports import FloorRecords, FloorTable, TableCatalog
from dealer_assist.services.floorboard.records import FloorEntry, NewEntry, RoomRules
from dealer_assist.services.floorboard.state import RoomState, fold

__all__ = [
    "FloorBoard", "FloorEntry", "FloorRecords", "FloorTable", "NewEntry", "RoomRules",
    "RoomState", "TableCatalog", "fold",
]
