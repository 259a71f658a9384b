"""The citation rule of a refused hand-log line (engine/hand.py ``cite``): a numbered ruling or a
ruling section is cited as "(ruling …)", the betting engine's rules by their own words
("(betting rule: minimum raise)"), and a tag that names no ruling is not cited. Regression: the
old rule cited any tag with a digit (so a jurisdiction preset with a number was a "ruling") and
never the betting engine's tags."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dealer_assist.engine.betting as betting_pkg
from dealer_assist.engine.hand import BETTING_RULES, cite
from dealer_assist.errors import RuleViolation


@pytest.mark.parametrize(("tag", "cited"), [
    ("cc-8", " (ruling cc-8)"),
    ("caro-3", " (ruling caro-3)"),
    ("pineapple-1", " (ruling pineapple-1)"),
    ("OFC 5", " (ruling OFC 5)"),
    ("Chinese 1-2", " (ruling Chinese 1-2)"),
    ("fees", " (ruling fees)"),
    ("betting-min-raise", " (betting rule: minimum raise)"),
    ("betting-turn", " (betting rule: act in turn)"),
    ("preset uk-2", ""),
    ("settings", ""),
    ("cc-over", ""),
    ("OFC pineapple", ""),
])
def test_cite_names_rulings_and_betting_rules_only(tag: str, cited: str) -> None:
    assert cite(RuleViolation("refused", rule=tag)) == "refused" + cited


def test_every_betting_engine_tag_is_said_in_words() -> None:
    """A new betting rule without words would be refused without saying which rule it is."""
    tags: set[str] = set()
    for path in Path(betting_pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None)
            if name == "_violation" and isinstance(node.args[-1], ast.Constant):
                tags.add(f"betting-{node.args[-1].value}")
            for kw in node.keywords:
                if (kw.arg == "rule" and isinstance(kw.value, ast.Constant)
                        and str(kw.value.value).startswith("betting-")):
                    tags.add(str(kw.value.value))
    assert {"betting-min-raise", "betting-turn", "betting-seat", "betting-cap"} <= tags
    assert tags <= set(BETTING_RULES), sorted(tags - set(BETTING_RULES))
