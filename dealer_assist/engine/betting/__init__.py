"""The hold 'em style betting engine every betting game builds on.

Fixed limit, pot-limit and no-limit; blinds, antes or both; check, bet, call, raise, fold and
all-in with the minimum-raise, reopening and cap rules; uncalled chips returned; side pots and
payouts with the fee and the winners given by the game. Pure functions of an immutable
:class:`BettingState`. How a game uses it: docs/betting.md.
"""

from dealer_assist.engine.betting.actions import (
    Range,
    all_in,
    bet,
    call,
    can_all_in,
    can_bet,
    can_call,
    can_check,
    can_fold,
    can_kill,
    can_raise,
    check,
    fold,
    kill,
    pot_limit_max,
    raise_to,
    verify_all_in,
    verify_bet,
    verify_call,
    verify_check,
    verify_fold,
    verify_kill,
    verify_raise,
    wager_range,
)
from dealer_assist.engine.betting.options import Choice, Options, option_actions, options
from dealer_assist.engine.betting.rules import BettingRules, Structure
from dealer_assist.engine.betting.settle import (
    Payout,
    PotAward,
    award,
    best_first,
    pots,
    showdown_order,
)
from dealer_assist.engine.betting.state import Act, BettingState, next_round, start
from dealer_assist.engine.betting.wagers import WAGERS, AllIn, is_wager, random_wager, wager

__all__ = [
    "WAGERS",
    "Act",
    "AllIn",
    "BettingRules",
    "BettingState",
    "Choice",
    "Options",
    "Payout",
    "PotAward",
    "Range",
    "Structure",
    "all_in",
    "award",
    "best_first",
    "bet",
    "call",
    "can_all_in",
    "can_bet",
    "can_call",
    "can_check",
    "can_fold",
    "can_kill",
    "can_raise",
    "check",
    "fold",
    "is_wager",
    "kill",
    "next_round",
    "option_actions",
    "options",
    "pot_limit_max",
    "pots",
    "raise_to",
    "random_wager",
    "showdown_order",
    "start",
    "verify_all_in",
    "verify_bet",
    "verify_call",
    "verify_check",
    "verify_fold",
    "verify_kill",
    "verify_raise",
    "wager",
    "wager_range",
]
