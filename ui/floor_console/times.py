"""Times in the floor console: shown in UTC, the filters' from/until boxes kept in UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dealer_assist.ui.qt import (
    QDate,
    QDateTime,
    QDateTimeEdit,
    QTime,
    QTimeZone,
)


def _fmt_time(t: datetime | None) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%d %H:%M") if t is not None else ""


def utc_time_box() -> QDateTimeEdit:
    """A from/until box that keeps UTC (Qt 6.7's time zone on the box): a time typed or set
    there is that UTC instant whatever the station's own zone, so a daylight-saving jump of the
    local clock never moves it (02:30 UTC on the night New York skips 02:00-03:00 stays 02:30)."""
    box = QDateTimeEdit()
    box.setTimeZone(QTimeZone(QTimeZone.Initialization.UTC))
    box.setDisplayFormat("yyyy-MM-dd HH:mm")
    return box


def _wall_clock(t: datetime) -> QDateTime:
    """``t`` as a UTC QDateTime, to the millisecond (read back by :func:`_aware`)."""
    t = t.astimezone(UTC) if t.tzinfo is not None else t
    return QDateTime(QDate(t.year, t.month, t.day),
                     QTime(t.hour, t.minute, t.second, t.microsecond // 1000),
                     QTimeZone(QTimeZone.Initialization.UTC))


def _aware(t: Any) -> datetime | None:
    """A filter box's time as an aware UTC datetime (a QDateTime is read as the instant it
    names; a naive datetime is taken as UTC)."""
    if t is None:
        return None
    if isinstance(t, QDateTime):
        u = t.toUTC()
        d, c = u.date(), u.time()
        return datetime(d.year(), d.month(), d.day(), c.hour(), c.minute(), c.second(),
                        c.msec() * 1000, tzinfo=UTC)
    assert isinstance(t, datetime)
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
