"""Issue 46: every section of a dossier describes the table given (Mille's record by the sheet
or turn by turn), games of many hands are played to their end (stacks from the buy-in, Guts'
"barred" ruling met), every game's dossier builds at another settings file of that game, and
the dossier is a signed filing (who prepared and who approved it, the settings file's text, the
room's chain head) with its shares rounded alike."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli.dossier_cmd import read_document
from dealer_assist.dossier.build import Dossier, Figure, build_dossier
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import BadInput
from dealer_assist.reports.dossier import share_decimals, write_dossier
from dealer_assist.settings.table import parse_table_settings, read_table_settings
from tests.dossier.test_dossier_pdf import _room, _text

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "docs" / "examples" / "tables"
#: For every game, a settings file beside its demo table's.
OTHER = {
    "champs-and-cowards": "champs-and-cowards-bonus-rake.json",
    "caro-holdem": "caro-holdem-rake.toml",
    "ofc": "ofc-pineapple.toml",
    "chinese-poker": "chinese-poker-5.toml",
    "pineapple": "pineapple-crazy-hi-lo-pot-limit.toml",
    "guts": "guts-barred.toml",
    "anaconda": "anaconda-pot-limit.toml",
    "dicey-poker": "dicey-poker-150.toml",
    "mille": "mille-turns.toml",
    "commerce": "commerce-player-fee.toml",
    "paiute": "paiute-rake.toml",
    "rams": "rams-rake.toml",
    "preference": "preference-three.toml",
    "markets": "markets-2-dollar.toml",
}
SHIPPED = [g for g in game_names()
           if type(get_game(g)).__module__.startswith("dealer_assist.games.")]
pdf = pytest.mark.skipif(shutil.which("pdftotext") is None,
                         reason="pdftotext (poppler-utils) is not installed")


def _from_file(name: str, hands: int, seed: int = 5, logs: Path | None = None) -> Dossier:
    path = TABLES / name
    raw = path.read_bytes()
    return build_dossier(read_document(path), read_table_settings(path), source=name,
                         sha256=hashlib.sha256(raw).hexdigest(), text=raw.decode(),
                         hands=hands, seed=seed, workers=1, chunk=max(10, hands // 2),
                         base=str(path.parent), logs=None if logs is None else str(logs))


def _demo(game: str, hands: int, logs: Path | None = None) -> Dossier:
    demo = get_game(game).demo
    assert demo is not None
    document = dict(demo.settings)
    return build_dossier(document, parse_table_settings(document), source=f"{game}.toml",
                         sha256="ef" * 32, hands=hands, seed=8, workers=1, chunk=50,
                         logs=None if logs is None else str(logs))


def _figure(figures: tuple[Figure, ...], label: str) -> Figure:
    found = next((f for f in figures if f.label == label), None)
    assert found is not None, f"no figure {label!r}"
    return found


def _starts(folder: Path) -> list[dict[str, Any]]:
    return [obj for path in sorted(folder.glob("*.jsonl"))
            for obj in map(json.loads, path.read_text().splitlines()) if obj["type"] == "start"]


def test_every_game_has_another_settings_file() -> None:
    assert set(OTHER) == set(SHIPPED)
    for game, name in OTHER.items():
        assert read_table_settings(TABLES / name).game == game


@pdf
@pytest.mark.parametrize("game", SHIPPED)
def test_dossier_at_another_settings_file_of_every_game(game: str, tmp_path: Path) -> None:
    d = _from_file(OTHER[game], hands=20 if game in ("dicey-poker", "anaconda") else 40)
    assert d.failed == 0 and d.checked == d.hands >= d.hands_asked
    assert d.procedure and d.refusals
    svc, auditor, _ = _room()
    text = _text(write_dossier(svc, auditor, tmp_path / "d.pdf", d).path)
    first = (TABLES / OTHER[game]).read_text().splitlines()[0]
    assert " ".join(first[:60].split()) in text  # the file's text, in appendix A
    assert "Appendix A: the settings file" in text and "8. Signatures" in text


def test_mille_dossier_describes_the_table_it_is_given(tmp_path: Path) -> None:
    # issue 46: the demo's Mille table records each deal by its score sheet; its dossier
    # showed the dealer entering upcard, draw and discard, refused them in section 6 (988
    # times) and simulated a third of its deals turn by turn.
    d = _demo("mille", 40, logs=tmp_path)
    told = " ".join(s.dealer for s in d.procedure)
    assert "melds" in told
    assert not any(w in told for w in ("upcard", "draws", "discards"))
    assert all(s.phase == "sheet" for s in d.procedure)
    assert not any("is not an input of this table" in r.example for r in d.refusals)
    assert {s.get("turns") for s in _starts(tmp_path)} == {False}
    # the table that records turn by turn: its dossier shows the turns, and deals them only
    (tmp_path / "turns").mkdir()
    t = _from_file("mille-turns.toml", 30, logs=tmp_path / "turns")
    assert t.procedure[0].dealer.startswith("upcard")
    assert {s.get("turns") for s in _starts(tmp_path / "turns")} == {True}
    assert any("turns=true" in v for _, v in t.settings) and t.defaults == ()
    # the demo's table leaves "turns" out: section 3 says how its hands are dealt
    assert d.defaults == (("turns", "play recorded turn by turn: no"),)


def test_mille_games_are_played_from_zero_to_their_end() -> None:
    # issue 46: each deal started from zero, so 0.2% ended a game and every game that ended
    # was a skunk; played as whole games, about one deal in five ends one
    d = _demo("mille", 120)
    ends = _figure(d.game_figures, "Deals that end a game")
    assert d.games == round(ends.mean * ends.n) and 0.1 < ends.mean < 0.5
    per_game = _figure(d.per_game_figures, "Hands per game")
    assert per_game.n == d.games and per_game.mean > 2
    skunks = next(c for c in d.categories if c.label == "Skunks at the end of a game")
    assert skunks.n == d.games
    assert dict((r.name, r.count) for r in skunks.rows).get("none", 0) > d.games // 2
    paid = _figure(d.game_figures, "Paid by the loser at a game's end")
    assert paid.n == d.games


def test_guts_stacks_run_down_from_the_buy_in_and_barred_is_met(tmp_path: Path) -> None:
    d = _from_file("guts-barred.toml", 150, logs=tmp_path)
    barred = _figure(d.game_figures, "Hands where a player is barred from declaring in")
    assert barred.mean > 0.05  # (ruling guts-5: stacks run down below the pot)
    # the sample hands reach into games too: section 6 shows the refusal a barred player meets
    assert any(r.citation == "ruling guts-5" and "cannot" in r.example for r in d.refusals)
    starts = _starts(tmp_path)
    first = {int(k): v for k, v in starts[0]["stacks"].items()}
    assert set(first.values()) == {20000}  # the buy-in
    assert any(set(s["stacks"].values()) != {20000} for s in starts[1:])
    assert any(s["pot_in"] > 0 for s in starts)  # pots carried in
    assert _figure(d.per_game_figures, "Hands per game").n == d.games > 0


def test_markets_starts_every_game_again_from_the_buy_in(tmp_path: Path) -> None:
    # a Markets game ends when a player ends a hand below 12 chips (ruling markets-1); the
    # next game starts every stack from the buy-in
    d = _from_file("markets-2-dollar.toml", 80, logs=tmp_path)
    assert d.games > 0 and d.failed == 0
    starts = _starts(tmp_path)
    assert sum(1 for s in starts if set(s["stacks"].values()) == {6000}) >= d.games


def test_shares_and_their_intervals_print_with_the_same_decimals() -> None:
    # issue 46: "100.0% to 100.0%" printed beside "0.0% to 0.02%"
    assert share_decimals(1.0, 0.99981, 1.0) == 2  # 100.00%, 99.98% to 100.00%
    assert share_decimals(0.0, 0.0, 0.00019) == 2  # 0.00% to 0.02%
    assert share_decimals(0.35, 0.3401, 0.3611) == 1
    assert share_decimals(0.5, 0.5, 0.5) == 1
    assert share_decimals(0.12345, 0.12344, 0.12346) == 3
    assert share_decimals(0.123451, 0.123450, 0.123452) == 4  # (four at most)


def test_a_share_of_every_hand_prints_its_interval_apart() -> None:
    from dealer_assist.dossier.stats import wilson
    from dealer_assist.reports.dossier import _shown

    low, high = wilson(20000, 20000)
    assert _shown(Figure("every hand", "share", 1.0, low, high, 20000)) == (
        "100.00%", "99.98% to 100.00%")
    low, high = wilson(0, 20000)
    assert _shown(Figure("no hand", "share", 0.0, low, high, 20000)) == (
        "0.00%", "0.00% to 0.02%")
    low, high = wilson(7000, 20000)
    assert _shown(Figure("some", "share", 0.35, low, high, 20000)) == (
        "35.0%", "34.3% to 35.7%")


@pdf
def test_a_dossier_approved_for_filing_names_the_approver(tmp_path: Path) -> None:
    svc, auditor, _ = _room()
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    d = _demo("guts", 30)
    done = write_dossier(svc, auditor, tmp_path / "d.pdf", d, approver="fran")
    text = _text(done.path)
    assert "Fran Floor" in text.split("1. The game in our words")[0]  # on the first page
    assert "Signature — Fran Floor" in text or "Signature - Fran Floor" in text
    assert svc.store.audit_log(action="report")[-1].detail.endswith(
        "approved for filing by fran")
    for who, message in (("otto", "prepares this dossier and cannot also approve it"),
                         ("dee", "only an active floor or admin user approves"),
                         ("nobody", "there is no user 'nobody'")):
        with pytest.raises(BadInput, match=message):
            write_dossier(svc, auditor, tmp_path / "e.pdf", d, approver=who)
    assert not (tmp_path / "e.pdf").exists()


def test_settings_the_table_leaves_out_are_dealt_as_the_game_plays_them() -> None:
    # a setting a game's sample would pick at random is declared at the game's own default,
    # and that default is what the game plays when the start leaves it out
    for name in SHIPPED:
        game = get_game(name)
        spec = game.dossier()
        assert spec is not None
        for key, value in spec.defaults.items():
            demo = game.demo
            assert demo is not None
            settings = parse_table_settings(dict(demo.settings))
            params = {k: v for k, v in settings.params.items() if k != key}
            events = game.sample_hand(random.Random(3), players=demo.players[0],
                                      params={**params, key: value})
            start = events[0]
            without = type(start)(game=start.game, seats=start.seats,
                                  params={k: v for k, v in start.params.items() if k != key})
            assert game.report(game.start(without)) == game.report(game.start(start)), key


def test_cli_writes_the_logs_and_names_the_approver(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from dealer_assist.cli import main

    url = f"sqlite:///{tmp_path}/demo.db"
    assert main(["demo", "--db", url, "--hands", "2", "--tables", "1", "--seed", "3"]) == 0
    logs = tmp_path / "logs"
    logs.mkdir()
    out = tmp_path / "guts.pdf"
    assert main(["dossier", "guts", "--settings", str(TABLES / "guts-barred.toml"), "--out",
                 str(out), "--hands", "30", "--seed", "4", "--workers", "1", "--db", url,
                 "--as", "otto", "--pin", "4000", "--approver", "fran",
                 "--logs", str(logs)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    written = sorted(p.name for p in logs.iterdir())
    assert written == ["session-00001.jsonl"]
    capsys.readouterr()
    assert main(["dossier", "guts", "--settings", str(TABLES / "guts-barred.toml"), "--out",
                 str(out), "--hands", "30", "--db", url, "--as", "otto", "--pin", "4000",
                 "--approver", "dana"]) == 2
    assert "only an active floor or admin user approves" in capsys.readouterr().err
