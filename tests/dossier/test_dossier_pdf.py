"""A dossier PDF for every registered game: its sections, its serial (the audit entry that
records it), the checked-hands line; and a dossier naming a hand that failed its check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.dossier.build import build_dossier
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.reports.dossier import write_dossier
from dealer_assist.services import InMemoryStore, Services
from dealer_assist.services.errors import NotAllowed
from dealer_assist.settings.table import parse_table_settings
from tests.reports.room import FAST, Clock

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler-utils) is not installed")

SECTIONS = ("1. The game in our words", "2. The rulings it applies",
            "3. Table settings and the fee policy", "4. The dealer's procedure",
            "5. The game's numbers", "6. What the game refuses",
            "7. Every simulated hand checked", "8. Signatures",
            "Appendix A: the settings file")


def _room() -> tuple[Services, Any, Any]:
    svc = Services(InMemoryStore("Riverside Card Club"), clock=Clock(), hasher=FAST)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="otto", full_name="Otto Auditor", role="auditor", pin="4444")
    svc.add_user(admin, name="dee", full_name="Deandra Dealer", role="dealer", pin="1111")
    return svc, svc.sign_in("otto", "4444"), svc.sign_in("dee", "1111")


def _text(pdf: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return " ".join(out.split())


def _dossier(game: str, hands: int = 200) -> Any:
    demo = get_game(game).demo
    assert demo is not None, f"{game} declares no demo table to take settings from"
    document = dict(demo.settings)
    return build_dossier(document, parse_table_settings(document), source=f"{game}.toml",
                         sha256="ab" * 32, hands=hands, seed=42, workers=1, chunk=100,
                         text=f'game = "{game}"  # the settings file as read\n')


#: The games this installation ships (test games a test registers are not filed with a board).
SHIPPED = [g for g in game_names()
           if type(get_game(g)).__module__.startswith("dealer_assist.games.")]


@pytest.mark.parametrize("game", SHIPPED)
def test_dossier_of_every_registered_game(game: str, tmp_path: Path) -> None:
    svc, auditor, _ = _room()
    d = _dossier(game)
    # a game of many hands plays each session's last game to its end: a few more hands
    assert d.failed == 0 and d.checked == d.hands and d.hands_asked == 200
    assert d.hands == 200 if d.played == "hand" else d.hands >= 200
    assert d.procedure and d.refusals and d.rulings
    head = svc.store.audit_head()
    done = write_dossier(svc, auditor, tmp_path / "dossier.pdf", d)
    text = _text(done.path)
    for section in SECTIONS:
        assert section in text, f"{game}: no section {section!r}"
    entry = svc.store.audit_head().entries
    assert done.report.generated.serial == entry == head.entries + 1
    assert f"Serial no. {entry} (audit log entry {entry})" in text
    assert f"Page 1 of {done.pages}" in text and f"Page {done.pages} of {done.pages}" in text
    assert (f"{d.hands:,} of {d.hands:,} simulated hands checked: chips conserved and the "
            "replay of each hand's log gives the same settlement; none failed.") in text
    # a signed filing: who prepared it, the line to approve it, the room's chain head it was
    # made at, and the settings file's text in the appendix
    assert "Prepared by Otto Auditor" in text and "Approved for filing by" in text
    assert "Signature — Otto Auditor" in text or "Signature - Otto Auditor" in text
    assert f"#{head.entries} {head.hash[:8]} {head.hash[8:16]}" in text
    assert f'game = "{game}" # the settings file as read' in text
    assert "Seed 42" in text and "abababab" in text
    assert "95% interval" in text and "Hands per hour" in text
    assert "ruling " in text  # the rulings and refusals cited as the app cites them
    logged = svc.store.audit_log(action="report")[-1]
    assert logged.seq == entry and logged.actor == "otto"
    assert logged.detail.startswith(f"game-approval dossier: {game}, settings {game}.toml "
                                    f"sha256 {'ab' * 32}, seed 42, {d.hands} hands, "
                                    f"{d.hands} checked, 0 failed, ")
    assert f"made at audit chain head #{head.entries} {head.hash}" in logged.detail


def test_dossier_names_the_failed_hands(tmp_path: Path) -> None:
    from tests.dossier.broken_game import in_place_of_champs
    from tests.dossier.test_simulate import CC

    with in_place_of_champs():
        d = build_dossier(CC, parse_table_settings(CC), source="cc.toml", sha256="0" * 64,
                          hands=12, seed=1, workers=1, chunk=12)
    svc, auditor, _ = _room()
    text = _text(write_dossier(svc, auditor, tmp_path / "d.pdf", d).path)
    assert "0 of 12 simulated hands checked; 12 FAILED" in text
    assert "session 1, hand 1: its settlement does not conserve chips" in text


def test_a_dealer_cannot_generate_a_dossier(tmp_path: Path) -> None:
    svc, _, dealer = _room()
    d = _dossier("champs-and-cowards", hands=20)
    with pytest.raises(NotAllowed, match="only a"):
        write_dossier(svc, dealer, tmp_path / "d.pdf", d)
    assert not (tmp_path / "d.pdf").exists()
    refused = svc.store.audit_log(action="refused")[-1]
    assert refused.actor == "dee" and "dossier" in refused.detail
