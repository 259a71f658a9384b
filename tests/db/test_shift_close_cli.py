"""``dealer-assist shift close``: a room closes the shift a dead station left open, from the
command line, with a floor person's name and PIN as every approval (SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from services.support import Room

from dealer_assist.cli import main


def _close(url: str, tmp_path: Path, *extra: str) -> list[str]:
    return ["--db", url, "--key", str(tmp_path / "no-key.pem"), "shift", "close", *extra]


def test_shift_close_from_the_command_line_with_the_floors_pin(
        room: Room, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    room.svc.add_user(room.admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    room.svc.settle(room.dealer, room.hand(["As", "Kd", "2c"]))
    shift = room.store.list_shifts(room.table_id)[0]
    pin = tmp_path / "gil.pin"
    pin.write_text("5555\n")
    pin.chmod(0o600)
    args = ["--shift", str(shift.id), "--approved-by", "fran", "--as", "fran", "--pin", "2222"]
    assert main(_close(db_url, tmp_path, *args, "--approver-pin", "2222")) == 2
    assert "cannot approve their own closing shift" in capsys.readouterr().err
    wrong = ["--shift", str(shift.id), "--approved-by", "gil", "--as", "fran", "--pin", "2222"]
    assert main(_close(db_url, tmp_path, *wrong, "--approver-pin", "0000")) == 2
    assert "wrong PIN" in capsys.readouterr().err
    assert room.store.get_shift(shift.id).open  # type: ignore[union-attr]
    assert main(_close(db_url, tmp_path, *wrong, "--approver-pin-file", str(pin))) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"shift {shift.id} at T1 closed by fran, approved by gil")
    assert "warning: the shift is closed; no checkpoint signed: this station has no room key" \
        in err
    closed = room.store.get_shift(shift.id)
    assert closed is not None and not closed.open and closed.closed_floor == "gil"
    actions = [(e.action, e.actor) for e in room.store.audit_log()][-3:]
    assert actions == [("approval", "gil"), ("shift-closed", "fran"), ("no-checkpoint", "fran")]
    assert main(_close(db_url, tmp_path, *wrong, "--approver-pin-file", str(pin))) == 2
    assert f"shift {shift.id} is already closed" in capsys.readouterr().err


def test_shift_close_refused_while_a_hand_is_unfinished(
        room: Room, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    room.hand(["As"])
    shift = room.store.list_shifts(room.table_id)[0]
    room.svc.add_user(room.admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    assert main(_close(db_url, tmp_path, "--shift", str(shift.id), "--approved-by", "gil",
                       "--approver-pin", "5555", "--as", "dee", "--pin", "1111")) == 2
    assert "hand 1 is not finished: finish and settle it before closing" \
        in capsys.readouterr().err
