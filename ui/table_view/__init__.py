"""The table drawn as a table: seats around an oval felt, built only from a :class:`TableView`.

Every game's ``Game.view`` gives the same shape (seats with cards, hidden counts, status, what was
put in), so this widget draws any game unchanged. The seat to act is filled with the theme's
accent colour and labelled "TO ACT" so it reads from across the table.

`cards` draws cards, `seat` one seat's box, `table` the felt and its seats, `placing` keeps
the seat boxes apart.
"""

from __future__ import annotations

from dealer_assist.ui.table_view.cards import (
    JOKER_WORD,
    SPACING,
    STATUS_WORDS,
    CardLabel,
    card_row,
    fitting_px,
    pretty_card,
    row_px,
    status_text,
)
from dealer_assist.ui.table_view.placing import (
    SEAT_GAP,
    separate,
)
from dealer_assist.ui.table_view.seat import SeatWidget
from dealer_assist.ui.table_view.table import TableWidget

__all__ = [
    "JOKER_WORD",
    "SEAT_GAP",
    "SPACING",
    "STATUS_WORDS",
    "CardLabel",
    "SeatWidget",
    "TableWidget",
    "card_row",
    "fitting_px",
    "pretty_card",
    "row_px",
    "separate",
    "status_text",
]
