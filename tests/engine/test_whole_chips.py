"""Every wager is a whole number of the table's smallest chip (issue 41 item 6): a bet or raise,
each seat's stack, the antes, blinds, bets and units of every game's start, a table's buy-in and
settings, and every hand the demo deals. The refusal names the chip and the two amounts either
side; verify names a stored hand that breaks it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.db.bootstrap import open_database, open_services
from dealer_assist.db.demo_plan import demo_kinds, plan_table
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.hand import parse_lines, replay
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import Raise
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.chain import canonical
from dealer_assist.services.model import NewEvent
from dealer_assist.settings.table import parse_table_settings

FAST = Argon2PinHasher(fast=True)

HI_LO: dict[str, Any] = {
    "type": "start", "game": "pineapple", "seats": [1, 2, 3], "button": 3,
    "variant": "crazy-hi-lo", "structure": "no-limit", "blinds": [100, 200],
    "smallest_chip": 100, "stacks": {"1": 20000, "2": 20000, "3": 20000},
}


def _play(*lines: dict[str, Any]) -> Any:
    events, numbers = parse_lines([json.dumps(x) for x in lines])
    return replay(events, lines=numbers)


def _refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        _play(*lines)
    return str(info.value)


def test_regression_no_limit_crazy_hi_lo_refuses_a_raise_to_666_at_a_one_dollar_chip() -> None:
    """Regression: a raise to $6.66 was taken at a table whose smallest chip is $1."""
    assert _refused(HI_LO, {"type": "raise", "seat": 3, "to": 666}) == (
        "line 2: a raise to $6.66 is not a whole number of the table's $1.00 smallest chip: "
        "make it $6 or $7 (ruling pineapple-1)")
    hand = _play(HI_LO, {"type": "raise", "seat": 3, "to": 700})
    assert hand.steps[-1].event.to_json() == {"type": "raise", "seat": 3, "to": 700}


def test_a_bet_short_of_a_chip_is_refused_in_every_structure_of_the_betting_engine() -> None:
    """Pot-limit too; an all-in of the whole stack is whatever the stack is (a whole number of
    chips, the start's check says)."""
    pot = {**HI_LO, "structure": "pot-limit", "smallest_chip": 25}
    assert "a raise to $4.10 is not a whole number of the table's $0.25 smallest chip: make it " \
        "$4 or $4.25" in _refused(pot, {"type": "raise", "seat": 3, "to": 410})
    assert _play(pot, {"type": "raise", "seat": 3, "to": 425}).state is not None
    anaconda = {"type": "start", "game": "anaconda", "seats": [1, 2], "button": 2,
                "structure": "no-limit", "ante": 500, "smallest_chip": 500,
                "stacks": {"1": 10000, "2": 10000}}
    hand = _play(anaconda)
    seat = hand.game.prompt(hand.state).to_act
    assert "a bet to $7 is not a whole number of the table's $5.00 smallest chip: make it $5 " \
        "or $10" in _refused(anaconda, {"type": "bet", "seat": seat, "to": 700})


def _chips(start: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as info:
        get_game(start["game"]).check_chips(start)
    return str(info.value)


def test_regression_a_stack_of_181_66_is_refused_at_the_start_naming_the_chip() -> None:
    stacks = {**HI_LO, "stacks": {"1": 18166, "2": 20000, "3": 20000}}
    assert _chips(stacks) == (
        "seat 1's stack $181.66 is not a whole number of the table's $1.00 smallest "
        "chip: make it $181 or $182")


@pytest.mark.parametrize(("game", "start", "said"), [
    ("pineapple", {**HI_LO, "blinds": [50, 200]},
     '"blinds" $0.50 is not a whole number of the table\'s $1.00 smallest chip: make it $1'),
    ("caro-holdem", {"type": "start", "game": "caro-holdem", "seats": [1, 2], "unit": 1050,
                     "ante": 100, "smallest_chip": 100, "stacks": {"1": 50000, "2": 50000}},
     '"unit" $10.50 is not a whole number of the table\'s $1.00 smallest chip: make it $10 or '
     "$11"),
    ("guts", {"type": "start", "game": "guts", "seats": [1, 2], "ante": 100, "max": 2550,
              "smallest_chip": 100, "stacks": {"1": 5000, "2": 5000}},
     '"max" $25.50 is not a whole number of the table\'s $1.00 smallest chip'),
    ("paiute", {"type": "start", "game": "paiute", "seats": [1, 2], "ante": 150,
                "smallest_chip": 100},
     '"ante" $1.50 is not a whole number of the table\'s $1.00 smallest chip'),
    ("ofc", {"type": "start", "game": "ofc", "seats": [1, 2], "unit": 5, "smallest_chip": 25},
     '"unit" $0.05 is not a whole number of the table\'s $0.25 smallest chip: make it $0.25'),
])
def test_every_games_start_amounts_are_whole_chips(game: str, start: dict[str, Any],
                                                    said: str) -> None:
    assert said in _chips(start)
    get_game(game).check_chips({**start, "smallest_chip": 1})  # (any amount is whole cents)


def test_every_game_declares_its_money_so_the_start_check_reaches_it() -> None:
    """The check reads the game's money settings (``Setting(kind="money")``): a game whose
    hands take money from the table declares at least one, so none is left unchecked."""
    for name in game_names():
        game = get_game(name)
        if game.demo is None or not type(game).__module__.startswith("dealer_assist."):
            continue  # (a test's own game, registered by another test, is not installed)
        assert any(s.kind == "money" for s in game.settings), name


@pytest.mark.parametrize(("doc", "said"), [
    ({"game": "pineapple", "seats": 6, "smallest_chip": 100, "buy_in": 18166,
      "params": {"variant": "crazy-hi-lo", "structure": "no-limit", "blinds": [100, 200]}},
     "buy_in $181.66 is not a whole number of the table's $1.00 smallest chip: make it $181 "
     "or $182"),
    ({"game": "guts", "seats": 6, "smallest_chip": 500, "buy_in": 10000,
      "params": {"ante": 100}},
     "params.ante $1 is not a whole number of the table's $5.00 smallest chip: make it $5"),
])
def test_a_table_whose_buy_in_or_stakes_are_not_whole_chips_is_refused(
    doc: dict[str, Any], said: str
) -> None:
    with pytest.raises(RuleViolation) as info:
        parse_table_settings(doc)
    assert str(info.value) == said


@pytest.mark.parametrize(("game", "kind"), demo_kinds())
def test_the_demo_deals_every_wager_in_whole_chips(game: str, kind: int) -> None:
    """Every stack, ante, bet and raise of a demo table's hands is a whole number of its
    smallest chip (the old demo dealt stacks of $181.66 and raises to odd cents)."""
    for hand in plan_table(game, 12, 5, False, kind):
        start = json.loads(hand.bodies[0])
        chip = start["smallest_chip"]
        stacks = start.get(get_game(game).key("stacks")) or {}
        assert all(v % chip == 0 for v in stacks.values()), stacks
        for body in hand.bodies[1:]:
            to = json.loads(body).get("to")
            if isinstance(to, int) and game != "markets":  # (Markets counts "to" in chips)
                assert to % chip == 0, body


def _room(url: str) -> tuple[Any, Any, Any]:
    svc = open_services(url, hasher=FAST)
    svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    table = svc.add_table(admin, {
        "name": "Hi-Lo 1", "game": "pineapple", "seats": 3, "smallest_chip": 100,
        "buy_in": 20000, "params": {"variant": "crazy-hi-lo", "structure": "no-limit",
                                    "blinds": [100, 200]}})
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran")
    return svc, dealer, table


def _verified(url: str) -> Any:
    db = open_database(url)
    try:
        return verify_database(db)
    finally:
        db.close()


def test_verify_names_a_stored_hand_with_a_raise_that_is_not_whole_chips(tmp_path: Path) -> None:
    """A raise to $6.66 written past the services (what an old station could store): verify
    names the hand, with the chip."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    svc, dealer, table = _room(url)
    now = svc.start_hand(dealer, table.id)
    seat = now.prompt().to_act
    with pytest.raises(RuleViolation, match=r"\$1\.00 smallest chip: make it \$6 or \$7"):
        svc.record(dealer, now.hand.id, Raise(seat=seat, to=666))
    assert len(svc.hand_events(now.hand.id)) == 1  # the refusal recorded nothing
    svc.store.append_event(now.hand.id, expected=1, event=NewEvent(
        body=json.loads(canonical({"type": "raise", "seat": seat, "to": 666})), actor="dee",
        time=svc.clock()))
    report = _verified(url)
    assert not report.ok
    assert report.problem is not None
    assert report.problem.message == (
        "hand 1 does not replay: a raise to $6.66 is not a whole number of the table's $1.00 "
        "smallest chip: make it $6 or $7")


def test_a_typed_stack_of_181_66_is_refused_and_verify_names_a_stored_one(tmp_path: Path) -> None:
    """The dealer's Stacks... (a rebuy) goes into the start: $181.66 is refused there, nothing
    stored; a start written past the services with it is named by verify."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    svc, dealer, table = _room(url)
    with pytest.raises(RuleViolation, match=r"seat 1's stack \$181\.66 is not a whole number "
                       r"of the table's \$1\.00 smallest chip: make it \$181 or \$182"):
        svc.start_hand(dealer, table.id, stacks={1: 18166})
    assert svc.store.last_hand(table.id) is None
    start = {**HI_LO, "seats": [1, 2, 3], "button": 3, "fee": None}
    start.pop("fee")
    start.update(stacks={"1": 18166, "2": 20000, "3": 20000})
    shift = svc.store.current_shift(table.id)
    version = svc.settings(table.id)
    svc.store.start_hand(
        table_id=table.id, shift_id=shift.id, settings_id=version.id, game="pineapple",
        seats=(1, 2, 3), start=NewEvent(body=json.loads(canonical(start)), actor="dee",
                                        time=svc.clock()))
    report = _verified(url)
    assert not report.ok
    assert any(p.message == "hand 1: seat 1's stack $181.66 is not a whole number of the "
               "table's $1.00 smallest chip: make it $181 or $182" for p in report.problems), \
        report.summary()
