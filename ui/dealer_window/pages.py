"""The dealer screen's bottom pages (idle, actions, discard, push) and the lines said before
the deal and grouped by seat."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from dealer_assist.money import format_cents
from dealer_assist.ui.keys import PAGES
from dealer_assist.ui.qt import (
    QVBoxLayout,
    QWidget,
)

#: The bottom pages' places, as the key table names them (``dealer_assist.ui.keys.PAGES``).
PAGE_IDLE, PAGE_ACT, PAGE_DISCARD, PAGE_PUSH = (
    PAGES.index(p) for p in ("idle", "act", "discard", "push"))


class BottomPages(QWidget):
    """The bottom bar's pages, one shown at a time, the bar as tall as the page in view needs:
    a stacked widget asks for its tallest page, so one seat's discard (two lines) took the
    height of nine seats' buttons and the felt at 1280x800 had no room left for the board
    between its two rows of seats. Hidden pages take no room in a column."""

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self._pages: list[QWidget] = []
        self._current = -1

    def addWidget(self, page: QWidget) -> None:
        self._pages.append(page)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(page)
        page.setVisible(len(self._pages) == 1)
        if self._current < 0:
            self._current = 0

    def currentIndex(self) -> int:
        return self._current

    def widget(self, index: int) -> QWidget:
        return self._pages[index]

    def setCurrentIndex(self, index: int) -> None:
        self._current = index
        for i, page in enumerate(self._pages):
            page.setVisible(i == index)


#: "seat 3: owes a discard", a checklist line of one seat.
SEAT_LINE = re.compile(r"^[Ss]eat (\d+): (.+)$")


def fee_before_deal(start: Any, game: Any) -> tuple[str, ...]:
    """The fee each seat pays before the deal (a per-player fee, a fixed fee from the button),
    said at the deal as the first thing to do: it was only in the push steps at the end."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.fees import FeeContext, parse_fee_policy, pre_deal_fees

    try:
        policy = parse_fee_policy(start.get("fee"))
        button = start.get(game.key("button"))
        lines = pre_deal_fees(policy, FeeContext(
            seats=tuple(start.seats), button=button if isinstance(button, int) else None,
            smallest_chip=int(start.get("smallest_chip") or 1)))
    except DealerAssistError:
        return ()
    paid = [(ln.from_seat, ln.amount) for ln in lines if ln.from_seat is not None and ln.amount]
    if not paid:
        return ()
    amounts = {a for _, a in paid}
    if len(paid) > 1 and len(amounts) == 1:
        seats = ", ".join(str(s) for s, _ in paid)
        return (f"Before the deal, take the fee: {format_cents(paid[0][1])} from each of seats "
                f"{seats} ({format_cents(sum(a for _, a in paid))} in all)",)
    return tuple(f"Before the deal, take the fee: {format_cents(a)} from seat {s}"
                 for s, a in paid)


def grouped_by_seat(lines: Sequence[str]) -> list[str]:
    """Checklist lines that say the same of several seats in one line ("owes a discard:
    seats 1, 2, 9"): nine seats' lines took three rows of the screen's height."""
    said: dict[str, list[str]] = {}
    for line in lines:
        m = SEAT_LINE.match(line)
        if m:
            said.setdefault(m.group(2), []).append(m.group(1))
    out: list[str] = []
    for line in lines:
        m = SEAT_LINE.match(line)
        if m is None or len(said[m.group(2)]) < 3:
            out.append(line)
        elif said[m.group(2)][0] == m.group(1):
            out.append(f"{m.group(2)}: seats {', '.join(said[m.group(2)])}")
    return out
