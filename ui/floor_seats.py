"""The dealer's side of the floor board: between hands, the seats the floor filled and freed
since the last hand ("Seat 4: new player Ann, buy-in $200"), confirmed with one key (Enter),
so the next hand starts with them and the dealer types nothing again.

A station that cannot reach the server deals on with the seating it last had; seating changes
wait for the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealer_assist.errors import DealerAssistError
from dealer_assist.services.floorboard.seating import NextSeating
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.qt import QLabel, QWidget

if TYPE_CHECKING:
    from dealer_assist.ui.controllers import DealerController


class FloorSeatsDialog(_Dialog):
    """What changed at the table since the last hand, and the open seats; Enter deals."""

    def __init__(self, seating: NextSeating, seats: tuple[int, ...],
                 parent: QWidget | None = None) -> None:
        super().__init__("Seats from the floor", parent, ok="Deal with these seats [Enter]")
        self.lines = QLabel("\n".join(seating.changes))
        self.lines.setObjectName("floor-changes")
        self.lay.insertWidget(1, self.lines)
        free = [s for s in seats if s not in seating.seats]
        self.open_seats = QLabel("Open seats: " + (", ".join(map(str, free)) or "none")
                                 + f" · playing: {', '.join(map(str, seating.seats))}")
        self.lay.insertWidget(2, self.open_seats)


#: The seating each table last had from the floor (a station off the server deals on it).
_LAST: dict[int, NextSeating] = {}


def floor_seats(c: DealerController, parent: QWidget | None) -> tuple[bool, tuple[int, ...] | None]:
    """The next hand's seats by the floor board: (go on?, the seats; None: every seat as
    before). Shows the changes since the last hand for the dealer to confirm with Enter; the
    new players' buy-ins become the hand's given stacks."""
    board = c.services.floor_board
    if board is None or c.table is None:
        return True, None
    table_id = c.table.id
    try:
        seating = board.next_seating(table_id)
    except DealerAssistError:
        seating = _LAST.get(table_id)
        if seating is not None:
            seating = NextSeating(seats=seating.seats)  # what it had; no change is new
    if seating is None:
        return True, None
    _LAST[table_id] = seating
    if not seating.seats:
        c.refused.emit("the floor has seated nobody at this table: ask the floor to seat "
                       "the players (or type seats with S if the room runs without the board)")
        return False, None
    if seating.changes:
        dlg = FloorSeatsDialog(seating, board.table(table_id).seats, parent)
        if dlg.exec() != _Dialog.DialogCode.Accepted:
            return False, None
    if c.stacked:
        carried: dict[int, int] = {}
        if seating.moved:  # a seat change: the new seat starts with the old seat's chips
            kept = c.next_stacks(tuple(sorted(set(seating.moved.values())))) or {}
            carried = {new: kept[old] for new, old in seating.moved.items() if old in kept}
        c.rebuys = {**seating.stacks, **carried, **c.rebuys}
    return True, seating.seats
