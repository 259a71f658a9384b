"""The screens show a game's settings and seat statuses as the game describes them, not by
guessing from a key's name or a game's name."""

from __future__ import annotations

from dealer_assist.engine.base import Setting
from dealer_assist.engine.registry import get_game
from dealer_assist.ui.dialogs import settings_lines
from dealer_assist.ui.table_view import status_text


def test_regression_pineapple_bets_and_blinds_show_as_money() -> None:
    lines = settings_lines("pineapple", {"params": {"small_bet": 200, "big_bet": 400,
                                                    "blinds": [100, 200], "cap": 4,
                                                    "structure": "limit"}})
    assert ("game settings: small_bet $2, big_bet $4, blinds $1 / $2, cap 4, "
            "structure limit") in lines


def test_a_setting_of_chips_counts_and_flags_reads_as_words() -> None:
    assert Setting("entry", "entry", "chips").shown(5) == "5 chips"
    assert Setting("turns", "turns", "flag").shown(True) == "yes"
    assert Setting("unit", "unit", "money").shown(150) == "$1.50"
    assert get_game("caro-holdem").setting("unit") == Setting("unit", "unit", "money")


def test_seat_statuses_are_the_games_words() -> None:
    assert status_text("dealer_destroyed", "champs-and-cowards") == "destroyed by the dealer"
    assert status_text("voluntarily_destroyed", "champs-and-cowards") == \
        "destroyed (stopped low)"
    # another game's seat with that status is not read with Champs and Cowards' words
    assert status_text("dealer_destroyed", "ofc") == "dealer destroyed"
    assert status_text("to_act") == "to act"
