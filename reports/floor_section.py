"""The floor board's sections of the reports: table hours per game (open and going), player
hours, seats filled per table hour, waits from list to seat, calls not answered (day summary);
the floor's records by kind (audit report). Each table is also written as CSV with the rest.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from dealer_assist.reports.render import Styles, data_table, heading, paragraph
from dealer_assist.services.floorboard.stats import FloorFigures, floor_figures, hours, minutes

#: What each kind of floor record is, as the audit report names it.
KIND_WORDS = {
    "open": "table opened", "close": "table closed", "breaking": "table marked breaking",
    "list-add": "player put on a list", "call": "player called", "seat": "player seated",
    "not-here": "player not here", "remove": "player taken off a list",
    "leave": "seat freed", "away": "player marked away", "back": "player back",
    "pick-up": "chips picked up", "must-move": "must-move link", "setting": "board setting",
}


def floor_of(services: Any, since: datetime, until: datetime | None, *,
             table: str | None = None) -> FloorFigures | None:
    """The floor's figures for the period, up to now (None: no floor board, or it recorded
    nothing)."""
    board = getattr(services, "floor_board", None)
    if board is None:
        return None
    entries = board.records.entries()
    if not entries:
        return None
    now = services.clock()
    until = now if until is None else min(until, now)  # a day not over yet counts to now
    tables = [t for t in board.tables.floor_tables() if table is None or t.name == table]
    return floor_figures(entries, tables, since, until)


def floor_story(figs: FloorFigures | None, st: Styles, width: float) -> list[Flowable]:
    """The day summary's floor section."""
    if figs is None or not figs.games:
        return []
    out = heading("Floor: tables, seats and waiting lists", st)
    out.append(data_table(
        ["Game", "Table hours open", "Table hours going", "Player hours",
         "Seats filled per table hour", "Seated from a list", "Wait average (min)",
         "Wait 90th percentile (min)", "Calls", "Calls not answered"],
        [[g.game, hours(g.open_s), hours(g.going_s), hours(g.player_s),
          f"{g.seats_per_table_hour:.1f}", str(len(g.waits_s)), minutes(g.wait_average_s),
          minutes(g.wait_p90_s), str(g.calls), str(g.unanswered)] for g in figs.games],
        [46 * mm, 22 * mm, 22 * mm, 22 * mm, 26 * mm, 24 * mm, 24 * mm, 26 * mm, 16 * mm,
         24 * mm],
        right=list(range(1, 10)), st=st))
    out.append(paragraph("Going: open with at least the game's fewest players seated. A wait "
                         "runs from the list to the seat; a call not answered ended without "
                         "its player seated (not here, removed, or its time ran out).",
                         st.small))
    return out


def floor_kinds_story(figs: FloorFigures | None, st: Styles, width: float) -> list[Flowable]:
    """The audit report's count of the floor's records by kind."""
    if figs is None or not figs.kinds:
        return []
    out = heading("Floor board records by kind", st)
    out.append(data_table(["Kind", "What", "Records"],
                          [[k, KIND_WORDS.get(k, k), str(n)] for k, n in figs.kinds],
                          [40 * mm, 80 * mm, 30 * mm], right=[2], st=st,
                          total=["All", "", str(sum(n for _, n in figs.kinds))]))
    return out
