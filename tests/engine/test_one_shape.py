"""The games' one shape: the seat order from the dealer's left and the table's fee each read in
one place (``engine/seats.py``, ``fees/table.py``), every game laid out as Guts is, and the
hooks a game must supply abstract, so a game that leaves one out cannot be made."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.seats import after, from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees.table import fees_by_seat, player_to_player_fees, table_policy
from dealer_assist.games.tricks.table import PotTrickGame

GAMES = Path(__file__).resolve().parents[2] / "dealer_assist" / "games"


def test_rule_seats_go_clockwise_from_the_dealers_left_the_dealer_last() -> None:
    assert from_left((1, 2, 3, 4), 2) == (3, 4, 1, 2)
    assert from_left([2, 5, 9], 9) == (2, 5, 9)
    assert from_left((7,), 7) == (7,)
    assert after((3, 4, 1, 2), 4) == (1, 2)
    assert after((3, 4, 1, 2), 2) == ()


def test_a_dealer_not_at_the_table_has_no_left() -> None:
    with pytest.raises(ValueError):
        from_left((1, 2, 3), 9)


def test_the_tables_fee_is_the_starts_fee_setting() -> None:
    start = Start(game="guts", seats=(1, 2, 3), params={"fee": {"kind": "per-player",
                                                              "amount": 100}})
    policy = table_policy(start)
    assert policy is not None and (policy.kind, policy.amount) == ("per-player", 100)
    assert table_policy(Start(game="guts", seats=(1, 2), params={})) is None


def test_a_game_settled_player_to_player_pays_its_fee_before_the_deal() -> None:
    start = Start(game="mille", seats=(1, 2), params={
        "fee": {"kind": "per-player", "amount": 100}, "smallest_chip": 100})
    fees = player_to_player_fees(start, (1, 2), 1)
    assert [(f.kind, f.amount, f.from_seat) for f in fees] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2)]
    assert fees_by_seat((1, 2, 3), fees) == {1: 100, 2: 100, 3: 0}


def test_a_rake_at_a_game_without_a_pot_is_refused_with_what_to_use_instead() -> None:
    start = Start(game="mille", seats=(1, 2), params={"fee": {"kind": "rake", "percent": "5"}})
    with pytest.raises(RuleViolation, match="mille is settled player to player and has no pot: "
                       "a rake, a collection from the pot or a jackpot drop has nothing to "
                       "come out of; use a per-player fee"):
        player_to_player_fees(start, (1, 2), 1)


def _calls(tree: ast.AST, name: str) -> int:
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.Call)
               and getattr(n.func, "id", getattr(n.func, "attr", None)) == name)


def test_no_game_reads_the_fee_setting_or_the_seat_order_its_own_way() -> None:
    """The fee setting is parsed by ``fees.table`` alone, and no game slices the seats round
    the dealer by index arithmetic (``seats[i + 1:] + seats[:i + 1]``)."""
    found = []
    for path in sorted(GAMES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if _calls(ast.parse(text), "parse_fee_policy"):
            found.append(f"{path.name}: parse_fee_policy")
        if "[i + 1:] + " in text or "[i + 1 :] + " in text:
            found.append(f"{path.relative_to(GAMES)}: its own seat order")
    assert found == []


def test_every_game_has_the_layout_of_guts() -> None:
    """Each game's package has its state, its rules, its screen and its declaration apart
    (``state.py``, ``play.py``, ``present.py``, ``game.py``), as docs/adding-a-game.md says."""
    from dealer_assist.engine import registry

    missing = {}
    ours = [n for n, module in registry._MODULES.items()
            if module.startswith("dealer_assist.games.")]
    assert len(ours) == 14
    for name in ours:
        package = GAMES / registry._MODULES[name].split(".")[2]
        lacks = [f for f in ("state.py", "play.py", "present.py", "game.py", "sample.py",
                             "dossier.py") if not (package / f).exists()]
        if lacks:
            missing[name] = lacks
    assert missing == {}


def test_a_trick_game_without_its_antes_cannot_be_made() -> None:
    class NoAntes(PotTrickGame[Any]):  # type: ignore[misc]
        name = "no-antes"
        title = "No antes"

        def sample(self, rng: random.Random, *, players: int, **params: Any) -> list[Any]:
            return []

    with pytest.raises(TypeError, match="antes"):
        NoAntes()  # type: ignore[abstract]
