"""A refusal said with what it enforces: the ruling it names, or the betting engine's rule in
its own words. The replay, verify, the reports, the dossier and the dealer's screen cite alike."""

from __future__ import annotations

import re
from collections.abc import Mapping

from dealer_assist.errors import DealerAssistError

#: A tag that names a numbered ruling of RULINGS.md: the game's prefix and the ruling's number
#: or numbers ("cc-8", "caro-3", "pineapple-1", "OFC 5", "Chinese 1-2"). A jurisdiction preset
#: ("preset …") is a setting, not a ruling, even when its name has a number.
_NUMBERED_RULING = re.compile(r"(?!preset )[A-Za-z]+(?:[- ][A-Za-z]+)*[- ][0-9]+(?:-[0-9]+)?")
#: Tags that name a whole section of RULINGS.md rather than one numbered ruling.
_SECTION_RULINGS = frozenset({"fees"})
#: The betting engine's rules in their own words: its tags are not rulings of one game, so they
#: are said as what they are ("betting rule: minimum raise"), never as "ruling betting-…".
BETTING_RULES: Mapping[str, str] = {
    "betting-seat": "who is dealt in, with what",
    "betting-closed": "no action once the round is closed",
    "betting-turn": "act in turn",
    "betting-stack": "no more than the stack",
    "betting-all-in": "no raise when everyone else is all-in",
    "betting-round-max": "most in one round",
    "betting-cap": "the cap on bets in a round",
    "betting-reopen": "a short all-in does not reopen the betting",
    "betting-amount": "say the amount",
    "betting-chip": "whole chips",
    "betting-limit": "limit bet size",
    "betting-min-raise": "minimum raise",
    "betting-pot-limit": "pot-limit maximum",
    "betting-check": "check only when nothing is owed",
    "betting-call": "call only what is owed",
    "betting-bet": "a bet opens a round",
    "betting-raise": "a raise needs a bet to raise",
    "betting-kill": "kill a hand still in",
}


def cite(exc: DealerAssistError) -> str:
    """The error's message with what it enforces: "(ruling cc-8)" for a numbered ruling or a
    ruling section ("fees"), "(betting rule: minimum raise)" for the betting engine's rules, and
    nothing for the other tags ("settings", "input", "preset …"), which name no ruling."""
    rule = getattr(exc, "rule", None)
    if not rule:
        return str(exc)
    if _NUMBERED_RULING.fullmatch(rule) or rule in _SECTION_RULINGS:
        return f"{exc} (ruling {rule})"
    words = BETTING_RULES.get(rule)
    if words is not None:
        return f"{exc} (betting rule: {words})"
    return str(exc)
