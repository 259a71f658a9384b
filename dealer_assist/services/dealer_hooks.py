"""Where the dealer box meets the table's own use cases: a dealer's sign-in at a table
(opening or joining its shift) starts their down, and only the dealer down at a table deals
its hands. Without a dealer box (a store that has none), a shift's dealer deals it, as before.
"""

from __future__ import annotations

from datetime import datetime

from dealer_assist.services.base import ServicesBase
from dealer_assist.services.dealer_box import DEAL, fold_downs, running
from dealer_assist.services.dealer_handlers import sign_in_at_table
from dealer_assist.services.model import Session, Shift


class StoreHands:
    """:class:`~dealer_assist.services.dealer_ports.HandsInPlay` over the services' store: a
    table's last hand is in play until it is settled."""

    def __init__(self, svc: ServicesBase) -> None:
        self._store = svc.store

    def hand_in_play(self, table_id: int) -> int | None:
        hand = self._store.last_hand(table_id)
        return hand.number if hand is not None and hand.status == "open" else None

    def table_name(self, table_id: int) -> str:
        table = self._store.get_table(table_id)
        return table.name if table is not None else f"table {table_id}"


def take_table(svc: ServicesBase, session: Session, table_id: int,
               shift: Shift | None, *, now: datetime | None = None) -> bool:
    """A signed-in user takes a table at a station. With a dealer box, a dealer's sign-in
    records their down there (refused, nothing written, when a hand in play stands in the
    way) and True says they deal the table's open ``shift`` whoever opened it. Without one
    (or for a floor person), True only for the dealer who opened the shift. With no open
    ``shift`` nothing is recorded here: opening the shift records the down."""
    box = svc.dealer_box
    if box is None or session.role != "dealer" or shift is None:
        return shift is not None and shift.dealer == session.name
    sign_in_at_table(box, StoreHands(svc), session, table_id,
                     now=now if now is not None else svc.clock())
    return True


def deals_here(svc: ServicesBase, session: Session, table_id: int, shift: Shift) -> bool:
    """May this signed-in dealer deal at the table now? With a dealer box: they are down there;
    without: the shift is theirs. Floor people always may."""
    if session.role != "dealer":
        return True
    box = svc.dealer_box
    if box is None:
        return shift.dealer == session.name
    mine = running(fold_downs(box.downs())).get(session.name)
    return mine is not None and mine.kind == DEAL and mine.table_id == table_id
