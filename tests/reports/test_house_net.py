"""The house net is every house fee: the hands' fees and rake and the time collected from seats,
with the house's dispute adjustments (docs/reports.md, Money words). Jackpot and promotional
drops are the funds', never in it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from services.support import make_room
from services.test_time_collection import time_room

from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.day import render_day
from dealer_assist.reports.layouts.shift import render_shift

from .pdftext import pages

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


def _room():  # type: ignore[no-untyped-def]
    """Two hands raked $0.10 each, then the table on time: two seats pay one $5 period each."""
    room = make_room()
    for cards in (["As", "Kd", "2c"], ["Qs", "Jd", "3c"]):
        room.svc.settle(room.dealer, room.hand(cards))
    time_room(room)
    room.svc.seat_in(room.dealer, room.table_id, 1)
    room.svc.seat_in(room.dealer, room.table_id, 2)
    room.clock.advance(minutes=5)
    room.svc.mark_period(room.dealer, room.table_id)
    return room


def test_shift_house_net_includes_the_time_collected_from_seats(tmp_path: Path) -> None:
    r = build_shift(_room().store, by="test", at=AT)
    assert r.house_fees == 20 and r.time_total == 1000 and r.house_adjustments == 0
    assert r.house_net == 1020
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "House net $10.20" in text
    assert "House net (fees, rake, time, adjustments) $10.20" in text


def test_day_house_net_includes_the_time_collected_from_seats(tmp_path: Path) -> None:
    r = build_day(_room().store, day=date(2026, 11, 21), by="test", at=AT)
    assert (r.total("house_fees"), r.total("time_fees")) == (20, 1000)
    assert r.house_net == 1020
    out = tmp_path / "day.pdf"
    render_day(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "House net (fees, rake, time, adjustments) $10.20" in text
