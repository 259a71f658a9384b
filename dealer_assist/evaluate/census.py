"""The five-card census: every one of the 2,598,960 five-card hands ranked and counted.

A self-test a gaming lab can run: the counts per category and the number of distinct hand values
are known exactly (40 straight flushes of which 4 royal, 624 fours of a kind, ... 7,462 values),
so any fault in the ranking core or in our category table shows up as a wrong number.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, starmap

from dealer_assist.evaluate.classes import CATEGORIES, key_category
from dealer_assist.evaluate.high import class_keys, evaluator_5


@dataclass(frozen=True)
class Census:
    """Hands counted per category (best category first) and the number of distinct values."""

    categories: dict[str, int]
    distinct: int

    @property
    def hands(self) -> int:
        return sum(self.categories.values())

    def to_json(self) -> dict[str, object]:
        return {"categories": dict(self.categories), "distinct": self.distinct}


def five_card_census() -> Census:
    """Rank all C(52, 5) hands through the same evaluator and class table ``evaluate`` uses."""
    per_class = Counter(starmap(evaluator_5(), combinations(range(52), 5)))
    keys = class_keys()
    per_category = [0] * len(CATEGORIES)
    values = set()
    for cls, n in per_class.items():
        key = keys[cls]
        values.add(key)
        per_category[key_category(key)] += n
    categories = {
        CATEGORIES[i]: per_category[i] for i in range(len(CATEGORIES) - 1, -1, -1)
    }
    return Census(categories=categories, distinct=len(values))
