"""``dealer-assist dossier`` on the command line: it writes the PDF and names its serial and seed;
bad input gets a message and exit 2, before any simulation or audit entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.cli import main

ROOT = Path(__file__).resolve().parents[2]
CC = ROOT / "docs" / "examples" / "tables" / "champs-and-cowards-player-fee.toml"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('dossier')}/demo.db"
    assert main(["demo", "--db", url, "--hands", "2", "--tables", "1", "--seed", "3"]) == 0
    return url


def test_dossier_command_writes_the_pdf_with_its_serial_and_seed(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cc.pdf"
    assert main(["dossier", "champs-and-cowards", "--settings", str(CC), "--out", str(out),
                 "--hands", "60", "--seed", "9", "--workers", "1", "--db", demo,
                 "--as", "otto", "--pin", "4000"]) == 0
    said = capsys.readouterr().out
    assert out.read_bytes().startswith(b"%PDF")
    assert "game-approval dossier for Champs and Cowards" in said
    assert "seed 9, 60 hands checked, 0 failed" in said and "serial " in said


@pytest.mark.parametrize(("argv", "message"), [
    (["caro-holdem", "--settings", str(CC)], "is a champs-and-cowards table, not caro-holdem"),
    (["no-such-game", "--settings", str(CC)], 'unknown game "no-such-game"'),
    (["champs-and-cowards", "--settings", "/nonexistent.toml"], "no such table settings file"),
    (["champs-and-cowards", "--settings", str(CC), "--players", "2"], "give --players from 3"),
    (["champs-and-cowards", "--settings", str(CC), "--logs", "/nonexistent/logs"],
     "the folder /nonexistent/logs does not exist"),
    (["champs-and-cowards", "--settings", str(CC), "--approver", "otto"],
     "otto prepares this dossier and cannot also approve it for filing"),
])
def test_bad_input_is_refused_with_exit_2(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
    message: str,
) -> None:
    assert main(["dossier", *argv, "--out", str(tmp_path / "d.pdf"), "--hands", "5",
                 "--workers", "1", "--db", demo, "--as", "otto", "--pin", "4000"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "d.pdf").exists()


def test_a_setting_the_sample_hands_do_not_deal_is_refused(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ofc = tmp_path / "ofc.json"
    ofc.write_text('{"game": "ofc", "seats": 3, "smallest_chip": 100, '
                   '"params": {"unit": 100, "pair_units": {}}}')
    assert main(["dossier", "ofc", "--settings", str(ofc), "--out", str(tmp_path / "d.pdf"),
                 "--hands", "5", "--workers", "1", "--db", demo, "--as", "otto",
                 "--pin", "4000"]) == 2
    assert "do not take pair_units" in capsys.readouterr().err


def test_a_dossier_to_a_file_not_ending_in_pdf_is_refused(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dossier", "champs-and-cowards", "--settings", str(CC), "--out",
                 str(tmp_path / "d.txt"), "--db", demo, "--as", "otto", "--pin", "4000"]) == 2
    assert "does not end in .pdf" in capsys.readouterr().err
