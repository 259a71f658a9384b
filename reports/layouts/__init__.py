"""The four reports laid out as pages: shift, hand history / dispute, audit, day summary.

Each ``render_*`` takes a report-data object and an output (path or binary file) and returns the
page count. Sections a reviewer needs are always present; an empty one says "None" rather than
disappearing, so a missing section is never mistaken for a clean one. One module per report
(``shift``, ``hand``, ``audit``, ``day``) over the shared ``sections`` and ``counts``.
"""

from __future__ import annotations

from dealer_assist.reports.layouts.audit import render_audit
from dealer_assist.reports.layouts.day import render_day
from dealer_assist.reports.layouts.hand import render_hand
from dealer_assist.reports.layouts.shift import render_shift

__all__ = [
    "render_audit", "render_day", "render_hand", "render_shift",
]
