"""No report fails for its size: every report kind built for a room-size gaming day (50 tables,
10,000 hands, a hundred reports already made, each of whose audit entries names every table's
chain head in full). The database is the demo's, with each game's hands dealt once and repeated
at its other tables (``fill_demo(repeat=True)``), so it is built in seconds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dealer_assist.db.bootstrap import open_database, open_services
from dealer_assist.db.demo import fill_demo
from dealer_assist.reports import generate
from dealer_assist.services import Argon2PinHasher, Services, Session

from .pdftext import pages

FAST = Argon2PinHasher(fast=True)
START = datetime(2026, 11, 20, 1, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Services, Session, Session]:
    url = f"sqlite:///{tmp_path_factory.mktemp('room') / 'room.sqlite3'}"
    done = fill_demo(open_database(url), hands=10_000, tables=50, start=START, hasher=FAST,
                     repeat=True)
    assert (done.hands, done.tables) == (10_000, 50)
    svc = open_services(url, hasher=FAST, clock=lambda: datetime(2026, 11, 22, 12, 0,
                                                                 tzinfo=UTC))
    floor = svc.sign_in("fran", "2000")
    heads = "; ".join(f"Table {i} #{4000 + i} {'%064x' % (i * 7919)}" for i in range(1, 51))
    for n in range(100):  # what a hundred earlier reports left in the log
        svc.log(floor, "report", f"shift report: table Table {n % 50 + 1}, shift {n}, 200 "
                f"hands, 9 pages, chain head 4000; checkpoint {n + 1}, key ab12 cd34; "
                f"heads {heads}")
    return svc, floor, svc.sign_in("otto", "4000")


def test_regression_every_report_kind_is_built_for_a_room_size_day(
        big: tuple[Services, Session, Session], tmp_path: Path) -> None:
    svc, floor, auditor = big
    audit = generate.audit_report(svc, auditor, tmp_path / "a.pdf", since=START,
                                  until=START + timedelta(days=3))
    text = " ".join(" ".join(p.split()) for p in pages(audit.path))
    assert "Appendix: values in full" in text
    assert "in full in appendix note 100]" in text  # every report entry's heads summarised
    assert f"Table 50 #4050 {'%064x' % (50 * 7919)}"[:40] in text  # ...and printed whole
    day = generate.day_report(svc, floor, tmp_path / "d.pdf")
    assert day.report.total("hands") == 10_000  # type: ignore[union-attr]
    assert not [e for e in day.report.exceptions  # type: ignore[union-attr]
                if "no ledger lines" in e.text]  # hands where no money moved are correct
    assert day.pages > 10
    shift = generate.shift_report(svc, floor, tmp_path / "s.pdf")
    hand = generate.hand_report(svc, floor, tmp_path / "h.pdf")
    assert shift.pages >= 1 and hand.pages >= 1
