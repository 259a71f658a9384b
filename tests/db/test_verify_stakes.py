"""Verify holds every hand to its settings version's stakes, not only its fee; the demo deals at
its tables' settings. A hand at other stakes is named; a seat new to the table starts with the
buy-in unless a rebuy is recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.demo_plan import demo_kinds, demo_table
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Services
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.chain import canonical
from dealer_assist.services.model import NewEvent
from dealer_assist.settings.table import check_table, parse_table_settings, start_params

FAST = Argon2PinHasher(fast=True)

CARO = {
    "game": "caro-holdem", "seats": 6, "smallest_chip": 100, "buy_in": 100000,
    "params": {"unit": 1000, "ante": 100, "cap": 4},
}


def _caro_room(database: Database) -> tuple[Services, Any, int]:
    svc = Services(SqlStore(database), hasher=FAST)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    table = svc.add_table(admin, CARO, name="Caro 1")
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran")
    return svc, dealer, table.id


def _crafted_start(svc: Services, table_id: int, start: dict[str, Any]) -> None:
    """A hand start written past the services (what a station's own code, or the old demo,
    could write): the chain takes it, verify must judge it."""
    shift = svc.store.current_shift(table_id)
    version = svc.settings(table_id)
    assert shift is not None
    svc.store.start_hand(
        table_id=table_id, shift_id=shift.id, settings_id=version.id, game=start["game"],
        seats=tuple(start["seats"]),
        start=NewEvent(body=json.loads(canonical(start)), actor="dee", time=svc.clock()),
    )


def _start(**changes: Any) -> dict[str, Any]:
    settings = parse_table_settings(CARO)
    out = start_params(settings, button=6, stacks=dict.fromkeys(settings.seats, 100000))
    out.update(changes)
    return out


def test_verify_names_a_hand_dealt_at_another_unit_and_chip_than_its_settings(
    database: Database,
) -> None:
    svc, _, table_id = _caro_room(database)
    _crafted_start(svc, table_id, _start(unit=100, smallest_chip=25))
    report = verify_database(database)
    assert not report.ok
    assert report.problem is not None and report.problem.message == (
        "hand 1 does not match settings version 1, in force when it started: unit is 100 "
        "where the settings say 1000; smallest_chip is 25 where the settings say 100"
    )


def test_verify_names_a_seat_the_table_does_not_have_and_a_missing_ante(
    database: Database,
) -> None:
    svc, _, table_id = _caro_room(database)
    start = _start(seats=[1, 2, 7])
    start.pop("ante")
    start["stacks"] = {"1": 100000, "2": 100000, "7": 100000}
    start["button"] = 7
    _crafted_start(svc, table_id, start)
    problem = verify_database(database).problem
    assert problem is not None and problem.message == (
        "hand 1 does not match settings version 1, in force when it started: it seats 7, which "
        "the table does not have; ante is nothing where the settings say 100"
    )


def test_verify_names_a_new_seat_that_starts_with_other_than_the_buy_in(
    database: Database,
) -> None:
    svc, _, table_id = _caro_room(database)
    stacks = dict.fromkeys(range(1, 7), 100000)
    stacks[4] = 250000
    _crafted_start(svc, table_id, _start(stacks={str(k): v for k, v in stacks.items()}))
    problem = verify_database(database).problem
    assert problem is not None and problem.message == (
        "hand 1 starts seat 4, new to the table, with 250000 where the buy-in is 100000, and "
        "no rebuy is recorded"
    )


def test_a_hand_the_services_start_matches_its_settings_and_a_recorded_rebuy_passes(
    database: Database,
) -> None:
    svc, dealer, table_id = _caro_room(database)
    svc.start_hand(dealer, table_id, stacks={4: 250000})  # written to the audit log
    report = verify_database(database)
    assert report.ok and not report.notes, report.summary()


@pytest.mark.parametrize(("game", "kind"), demo_kinds())
def test_every_demo_table_passes_the_checks_a_table_the_floor_adds_passes(
    game: str, kind: int
) -> None:
    settings = parse_table_settings(demo_table(game, kind).settings)
    check_table(settings)
    assert len(settings.seats) <= 10


def test_the_demo_deals_every_hand_at_its_tables_settings(tmp_path: Path) -> None:
    """Regression: the demo dealt Caro hands at random units and chips on tables whose
    settings said $10 and $1; verify, strict, finds nothing now, not even a note."""
    db = open_database(f"sqlite:///{tmp_path / 'demo.db'}")
    fill_demo(db, hands=len(demo_kinds()) * 6, tables=len(demo_kinds()), seed=3, hasher=FAST,
              workers=1)
    report = verify_database(db)
    assert report.ok and report.notes == [], report.summary()
    db.close()
