"""A report issued at a station without the room's key prints its warning whole: in full at
the top of page 1 (the page header holds only a short form, never cut to "…")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from services.support import FAST, make_room

from dealer_assist.db.bootstrap import open_services
from dealer_assist.reports import generate

from .pdftext import pages


def test_the_missing_key_warning_is_printed_whole_in_every_report(tmp_path: Path) -> None:
    key = tmp_path / "a-folder-with-a-long-name-for-the-room-key" / "room-signing-key.pem"
    svc = open_services(f"sqlite:///{tmp_path / 'room.db'}", hasher=FAST, key=key)
    room = make_room(svc.store)  # type: ignore[arg-type]
    room.svc.sealer = svc.sealer
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd", "Qd"]))
    done = [generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf"),
            generate.day_report(room.svc, room.floor, tmp_path / "day.pdf"),
            generate.audit_report(room.svc, room.floor, tmp_path / "audit.pdf",
                                  since=datetime(2026, 11, 21, tzinfo=UTC),
                                  until=datetime(2026, 11, 22, tzinfo=UTC))]
    for w in done:
        warning = w.unsigned
        assert warning.startswith("no checkpoint signed: this station has no room key (none at ")
        assert str(key) in warning and "`dealer-assist keys init`" in warning
        text = " ".join(" ".join(pages(w.path)).split())
        whole = "Not signed. " + warning[:1].upper() + warning[1:]
        assert "".join(whole.split()) in "".join(text.split()), w.path.name  # (lines wrap)
        short = "No checkpoint signed: why, in full, at the top of page 1"
        assert all(short in " ".join(p.split()) for p in pages(w.path))  # every page's header
    room.store.close()
