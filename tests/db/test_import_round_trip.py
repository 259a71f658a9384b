"""Export, then import: a hand exported from a table is imported back into it, and the same log
is imported once whatever its game carries in (issue 40, item 8).

Regressions: the "once" fingerprint left out only the literal keys ``carry_in``, ``stacks`` and
``carried``, so the same Guts log imported with ``pot_in`` 3,700, then 10^12, then 3,800 was
taken three times; and a hand exported from a table whose start's fee was written without a
key the fee now defaults (``min_pot``, ``no_flop_no_drop``, a time fee's ``billing``) was
refused by the table it came from.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from services.support import make_room

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import Database, open_database, open_services
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.errors import BadInput
from dealer_assist.services import Argon2PinHasher
from dealer_assist.services.imports import brought_in
from dealer_assist.services.model import HandFilter

GUTS = {"game": "guts", "seats": 3, "smallest_chip": 100, "stakes": "$1 ante",
        "buy_in": 100_000, "fee": {"kind": "rake", "percent": "5", "cap": 200},
        "params": {"ante": 100, "max": 2000}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def test_the_games_own_names_are_left_out_of_the_fingerprint() -> None:
    assert brought_in("guts") >= {"pot_in", "stacks"}
    assert "pot_in" in brought_in("anaconda")
    assert {"totals_in", "chapeaux_in"} <= brought_in("mille")
    assert "advantage" in brought_in("markets")


def test_regression_a_guts_log_is_imported_once_whatever_its_pot_in(database: Database) -> None:
    import random

    from dealer_assist.engine.registry import get_game

    room = make_room(SqlStore(database))
    svc = room.svc
    table = svc.add_table(room.admin, GUTS, name="Guts 1")
    svc.add_user(room.admin, name="gus", full_name="Gus Guts", role="dealer", pin="5555")
    gus = svc.sign_in("gus", "5555")
    svc.open_shift(gus, table.id, floor="fran")
    now = svc.start_hand(gus, table.id, seats=(1, 2, 3))
    game = get_game("guts")
    sample = game.sample_hand(random.Random(8), players=3,
                              params=dict(now.replay.start.params))
    assert sample[0] == now.replay.start
    for ev in sample[1:]:
        now = svc.record(gus, now.hand.id, ev)
    svc.settle(gus, now.hand.id)
    lines = svc.export_hand(room.floor, now.hand.id).splitlines()
    assert json.loads(lines[0])["pot_in"] == 0

    def with_pot_in(cents: int) -> list[str]:
        first = json.loads(lines[0])
        first["pot_in"] = cents
        return [json.dumps(first), *lines[1:]]

    hand = svc.import_hand(room.admin, table.id, with_pot_in(3_700))
    for cents in (10**12, 3_800, 3_700):
        with pytest.raises(BadInput, match=rf"this hand log was imported before \(hand "
                           rf"{hand.number}, id {hand.id}\)"):
            svc.import_hand(room.admin, table.id, with_pot_in(cents))
    assert len(room.store.audit_log(action="import")) == 1


def test_regression_every_hand_exported_from_a_table_is_imported_back_into_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's tables (a Champs and Cowards fee per player, a Caro rake with a minimum pot,
    a time fee) each take back every hand exported from them."""
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    assert main(["demo", "--db", url, "--hands", "16", "--tables", "2", "--seed", "40"]) == 0
    db = open_database(url)
    store = SqlStore(db)
    hands = store.list_hands(HandFilter(limit=None))
    names = {t.id: t.name for t in store.list_tables()}
    fees = {json.dumps(store.hand_events(h.id)[0].body.get("fee"), sort_keys=True)
            for h in hands}
    assert any('"min_pot"' in f and '"no_flop_no_drop"' not in f for f in fees)
    db.close()
    who = ("--as", "admin", "--pin", "1000")
    first = hands[0]
    log = tmp_path / "first.jsonl"  # the commands, once
    assert main(["--db", url, "export", "--hand", str(first.id), "--out", str(log), *who]) == 0
    assert main(["--db", url, "import", str(log), "--table", names[first.table_id], *who]) == 0, \
        capsys.readouterr().err
    assert main(["--db", url, "import", str(log), "--table", names[first.table_id], *who]) == 2
    assert "this hand log was imported before" in capsys.readouterr().err
    svc = open_services(url, hasher=Argon2PinHasher(fast=True))  # then every other hand
    admin = svc.sign_in("admin", "1000")
    for h in hands[1:]:
        lines = svc.export_hand(admin, h.id).splitlines()
        imported = svc.import_hand(admin, h.table_id, lines)
        assert imported.imported and imported.events == h.events
        with pytest.raises(BadInput, match="this hand log was imported before"):
            svc.import_hand(admin, h.table_id, lines)
    svc.store.close()  # type: ignore[attr-defined]
    db = open_database(url)
    report = verify_database(db)
    assert report.ok, report.summary()
    db.close()
