"""Report-data objects built from the store (read-only).

Every figure is re-derived by replaying the hands through their games, then compared with the
ledger the store wrote at settlement; any difference becomes an exception line rather than a
silently chosen number. The chain each report rests on is re-checked from its first event.
One module per report (``shift``, ``hand``, ``audit``, ``day``, as in ``layouts``) over the
shared pieces: ``common``, ``figures`` (one hand re-derived), ``replays`` (every hand of a table),
``counts`` and ``schedules``.
"""

from __future__ import annotations

from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.build.common import clock_at, number_ranges, reveal_line, when_text
from dealer_assist.reports.build.counts import count_entries, count_exceptions, drop_count
from dealer_assist.reports.build.day import build_day, latest_day, parse_day
from dealer_assist.reports.build.figures import hand_figures
from dealer_assist.reports.build.hand import build_hand
from dealer_assist.reports.build.replays import Replays, all_figures
from dealer_assist.reports.build.schedules import fee_schedules, time_figures
from dealer_assist.reports.build.shift import build_shift

__all__ = [
    "Replays", "all_figures", "build_audit", "build_day", "build_hand", "build_shift",
    "clock_at", "count_entries", "count_exceptions", "drop_count", "fee_schedules",
    "hand_figures", "latest_day", "number_ranges", "parse_day", "reveal_line", "time_figures",
    "when_text",
]
