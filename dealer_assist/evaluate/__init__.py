"""Hand evaluation for every game: high hands, constrained best hands, ace-to-five lows, front rows.

Every value orders so that greater is better, and equal values tie exactly (a split pot).
"""

from __future__ import annotations

from dealer_assist.evaluate.census import Census, five_card_census
from dealer_assist.evaluate.classes import CATEGORIES
from dealer_assist.evaluate.front import front_fouls, front_value
from dealer_assist.evaluate.high import Encoded, HandValue, best_hand, encode, evaluate, strength
from dealer_assist.evaluate.low import LowValue, low_hand

__all__ = [
    "CATEGORIES",
    "Census",
    "Encoded",
    "HandValue",
    "LowValue",
    "best_hand",
    "encode",
    "evaluate",
    "five_card_census",
    "front_fouls",
    "front_value",
    "low_hand",
    "strength",
]
