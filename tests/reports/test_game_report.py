"""The game report: a table's latest game of many hands printed with its score sheet and each
hand's money (Tally, the test game in tests/anygame, played to its target over several hands),
from the CLI and from the services, logged with its serial like every report."""

from __future__ import annotations

from pathlib import Path

import pytest
from anygame.play import play_rolls, tally_table
from services.support import make_room

from dealer_assist.errors import BadInput
from dealer_assist.reports.generate import game_report

from .pdftext import pages


def _game_of_three_hands():  # type: ignore[no-untyped-def]
    room = make_room()
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    play_rolls(room.svc, dee, table, [[6, 6], [1], [1], [1]])
    play_rolls(room.svc, dee, table, [[6, 6, 6], [2], [2], [2]])
    return room, table


def test_game_report_prints_the_score_sheet_and_every_hand_of_the_game(tmp_path: Path) -> None:
    room, table = _game_of_three_hands()
    so_far = room.svc.game_so_far(table)
    assert len(so_far.hands) == 3 and so_far.sheet is not None
    done = game_report(room.svc, room.floor, tmp_path / "game.pdf", table="Tally")
    text = "\n".join(pages(done.path))
    assert "Game report" in text and "Tally score sheet" in text
    for line in so_far.sheet.lines:  # the sheet's own lines: the totals, the status
        assert line in text
    assert "hands 1 to 3" in text
    r = done.report
    assert [h.number for h in r.hands] == [1, 2, 3]
    assert all(h.conserved for h in r.hands) and not r.exceptions
    # every hand's money is on the page: what was put in, and the serial of its audit entry
    assert f"Serial no. {r.generated.serial}" in text
    entry = room.svc.audit_log(room.floor)[-1]
    assert entry.action == "report" and entry.detail.startswith("game report: table Tally, "
                                                                "hands 1 to 3")


def test_game_report_of_a_table_with_no_settled_hand_is_refused_with_what_to_do(
    tmp_path: Path,
) -> None:
    room = make_room()
    tally_table(room.svc, room.admin)
    with pytest.raises(BadInput, match="has no settled hand yet"):
        game_report(room.svc, room.floor, tmp_path / "game.pdf", table="Tally")
    assert not (tmp_path / "game.pdf").exists()


def test_a_dealer_may_not_print_the_game_report(tmp_path: Path) -> None:
    from dealer_assist.services.errors import NotAllowed

    room, _ = _game_of_three_hands()
    with pytest.raises(NotAllowed, match="only a"):
        game_report(room.svc, room.dealer, tmp_path / "game.pdf", table="Tally")
