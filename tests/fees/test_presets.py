"""Jurisdiction presets: each built-in one accepting and refusing, citing its rule; a room's own
preset folder; bad preset files named with their rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees.jurisdiction import builtin_presets, get_preset, load_presets
from dealer_assist.fees.schedule import FeeSchedule, parse_fee_schedule


def sched(obj: dict[str, Any]) -> FeeSchedule | None:
    return parse_fee_schedule(obj)


def test_builtin_presets_are_the_three_documented() -> None:
    assert sorted(builtin_presets()) == ["fixed-fees-only", "one-fee-type", "rake-with-cap"]


def test_preset_fixed_fees_only_accepts_a_per_player_fee_and_five_rates() -> None:
    p = get_preset("fixed-fees-only")
    assert p.violations(sched({"kind": "per-player", "amount": 100})) == []
    assert p.violations(sched({"kind": "fixed", "amount": 300, "from": "button"})) == []
    five = {"kind": "by-limit", "rates": [
        {"up_to": 100 * i, "kind": "per-player", "amount": 25 * i} for i in range(1, 5)
    ] + [{"kind": "per-player", "amount": 150}]}
    assert p.violations(sched(five)) == []


def test_preset_fixed_fees_only_rule_2_no_percentage_of_the_pot() -> None:
    p = get_preset("fixed-fees-only")
    with pytest.raises(RuleViolation) as info:
        p.check(sched({"kind": "rake", "percent": "5", "cap": 500}))
    assert str(info.value).startswith(
        'preset "fixed-fees-only" rule 1: every fee is a fixed amount collected before the deal'
    )
    found = p.violations(sched({"kind": "rake", "percent": "5", "cap": 500}))
    assert found[1] == (
        'preset "fixed-fees-only" rule 2: no percentage of the pot '
        "(this table has a percentage rake)"
    )


def test_preset_fixed_fees_only_rule_1_refuses_a_collection_from_the_pot() -> None:
    found = get_preset("fixed-fees-only").violations(sched({"kind": "fixed", "amount": 300}))
    assert found == [
        'preset "fixed-fees-only" rule 1: every fee is a fixed amount collected before the deal '
        "(this table takes fixed collection of $3 a hand from the pot)"
    ]


def test_preset_fixed_fees_only_rule_3_at_most_five_rates() -> None:
    six = {"kind": "by-limit", "rates": [
        {"up_to": 100 * i, "kind": "per-player", "amount": 25 * i} for i in range(1, 6)
    ] + [{"kind": "per-player", "amount": 200}]}
    assert get_preset("fixed-fees-only").violations(sched(six)) == [
        'preset "fixed-fees-only" rule 3: at most five rates (this table sets 6 rates)'
    ]


def test_preset_one_fee_type_accepts_the_limits_exactly() -> None:
    p = get_preset("one-fee-type")
    assert p.violations(sched({"kind": "per-player", "amount": 100})) == []
    assert p.violations(sched({"kind": "time", "amount": 500, "period_minutes": 30})) == []
    assert p.violations(sched({"kind": "rake", "percent": "10"})) == []


@pytest.mark.parametrize(
    ("fee", "message"),
    [
        ({"kind": "rake", "percent": "5", "jackpot": {"amount": 100}},
         'preset "one-fee-type" rule 1: one fee type per table (this table has a percentage '
         "rake and a jackpot or promotional drop)"),
        ({"kind": "per-player", "amount": 125},
         'preset "one-fee-type" rule 2: a per-hand fee of at most $1 a player '
         "(this table charges $1.25 a player a hand)"),
        ({"kind": "time", "amount": 600, "period_minutes": 30},
         'preset "one-fee-type" rule 3: a time fee of at most $10 an hour a player '
         "(this table's time fee comes to $12 an hour)"),
        ({"kind": "time", "amount": 800, "period_minutes": 45},
         'preset "one-fee-type" rule 3: a time fee of at most $10 an hour a player '
         "(this table's time fee comes to over $10.66 an hour)"),
        ({"kind": "rake", "percent": "10.5"},
         'preset "one-fee-type" rule 4: a rake of at most 10% (this table rakes 10.5%)'),
    ],
)
def test_preset_one_fee_type_refuses_citing_its_rule(fee: dict[str, Any], message: str) -> None:
    assert get_preset("one-fee-type").violations(sched(fee)) == [message]


def test_preset_one_fee_type_refuses_two_types_across_limits() -> None:
    mixed = {"kind": "by-limit", "rates": [
        {"up_to": 1000, "kind": "per-player", "amount": 100},
        {"kind": "time", "amount": 500},
    ]}
    assert get_preset("one-fee-type").violations(sched(mixed)) == [
        'preset "one-fee-type" rule 1: one fee type per table (this table has a per-player fee '
        "and a time collection)"
    ]


def test_preset_rake_with_cap() -> None:
    p = get_preset("rake-with-cap")
    assert p.violations(sched({"kind": "rake", "percent": "5", "cap": 500,
                               "jackpot": {"amount": 100}})) == []
    assert p.violations(sched({"kind": "rake", "percent": "5"})) == [
        'preset "rake-with-cap" rule 2: the rake has a cap (this table\'s rake has no cap)'
    ]
    assert p.violations(sched({"kind": "per-player", "amount": 100})) == [
        'preset "rake-with-cap" rule 1: the house fee is a percentage rake (a jackpot drop may '
        "be added) (this table has a per-player fee)"
    ]


def test_a_room_adds_its_own_preset_folder(tmp_path: Path) -> None:
    (tmp_path / "nevada-room.toml").write_text(
        'title = "Our room"\n[[rules]]\ntext = "rake cap at most $4"\nmax_cap = 400\n'
        '[[rules]]\ntext = "no promotional drop"\nmax_drop = 0\n',
        encoding="utf-8",
    )
    presets = load_presets([tmp_path])
    assert "nevada-room" in presets and "rake-with-cap" in presets
    p = presets["nevada-room"]
    assert p.source == str(tmp_path / "nevada-room.toml")
    assert p.violations(sched({"kind": "rake", "percent": "5", "cap": 500})) == [
        'preset "nevada-room" rule 1: rake cap at most $4 (this table\'s rake cap is $5)'
    ]
    assert p.violations(sched({"kind": "none", "jackpot": {"amount": 100, "fund": "promo"}})) == [
        'preset "nevada-room" rule 2: no promotional drop (this table\'s promo drop is $1)'
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[rules]]\ntext = "x"\nmax_rake = 3\n', "rule 1: unknown check 'max_rake'"),
        ('[[rules]]\nmax_rates = 3\n', "rule 1: needs text"),
        ('[[rules]]\ntext = "x"\nforbid = ["tips"]\n', "forbid must list fee types"),
        ('[[rules]]\ntext = "x"\n', "rule 1: checks nothing"),
        ('title = "no rules"\n', "needs at least one [[rules]]"),
        ("[[rules]\n", "is not valid TOML"),
    ],
)
def test_a_bad_preset_file_is_named_with_its_rule(
    tmp_path: Path, body: str, message: str
) -> None:
    (tmp_path / "bad.toml").write_text(body, encoding="utf-8")
    with pytest.raises(BadInput) as info:
        load_presets([tmp_path])
    assert message in str(info.value)
    assert "bad.toml" in str(info.value)


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(BadInput, match='unknown preset "texas": known presets are fixed-fees-only'):
        get_preset("texas")
