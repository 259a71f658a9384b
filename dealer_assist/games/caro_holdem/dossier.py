"""What the game-approval dossier says of Caro Hold 'em: the rules and rulings in our words (as
docs/games/caro-holdem.md says them), its sample hands' strategy, and the numbers a board asks
of it: pot sizes and showdown categories by the cards the winner kept."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values
from dealer_assist.games.caro_holdem.showdown import best_hands

_KEPT = {1: "1 card", 2: "2 cards", 3: "3 cards", 4: "4 cards", 5: "5 cards"}


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    """One finished hand's numbers: its pots as its settlement gives them, the cards each seat
    held and the best hands shown (what ``replay --json`` reports, without building the rest
    of the report or settling the pots again)."""
    shown = best_hands(state)
    pots = settlement.extra.get("pots") or []
    showdown = len(shown) >= 2
    out: dict[str, Any] = {"showdown": showdown, "side_pots": max(0, len(pots) - 1)}
    if pots and pots[0].get("winners"):
        winner = pots[0]["winners"][0]
        kept = next((s.held for s in state.seats if s.seat == winner), 0)
        total = sum(int(p["amount"]) for p in pots)
        out[f"pot_kept_{kept}"] = total
        if showdown:
            out["kept"] = f"winner kept {_KEPT.get(kept, str(kept))}"
            best = shown.get(winner)
            if best is not None:
                out["category"] = str(best.category)
                out["by_kept"] = f"{_KEPT.get(kept, str(kept))}: {best.category}"
    return out


DOSSIER = GameDossier(
    rules=(
        "Hold 'em with five private cards and a board dealt 2-1-2 (flip, blip, reflip), where "
        "every wager is paid once per card the player still holds. A player may throw cards "
        "away face up just before a bet, call or raise, down to one card; at the showdown at "
        "most two private cards play.",
        "Because each player's price depends on their own card count, the app says, before the "
        "chips move, what each player owes and what each bet or raise would cost for every "
        "number of cards they could keep, builds the pots the Caro way, and gives the push "
        "steps.",
    ),
    rulings=(
        Ruling("caro-1", "Table settings: a unit; the round limits are one unit before the flip "
               "and on the flip, two on the blip and four on the reflip; forced bets are antes "
               "or blinds; bets and raises are capped per round."),
        Ruling("caro-2", "Each player gets five private cards; the board comes two (flip), one "
               "(blip), two (reflip), each after a round of betting."),
        Ruling("caro-3", "With blinds the first round starts left of the big blind; with antes, "
               "left of the button. Later rounds start with the first player still able to act "
               "left of the button. Heads-up with blinds, the button posts the small blind."),
        Ruling("caro-4", "A player holding k cards at level L owes L × the round's limit × k for "
               "the round in total; owed now is that less what they already put in this round, "
               "never below zero. A bet takes the round to level 1, a raise adds a level up to "
               "the cap, a call pays what is owed."),
        Ruling("caro-5", "Discards are face up, final, only just before a bet, call or raise, and "
               "at least one card is kept. Reducing never refunds chips."),
        Ruling("caro-6", "A player short of a call goes all-in for what they have and keeps "
               "every card; there are no partial bets or raises. Chips are compared over the "
               "whole hand, never round by round: side pots come only from all-in players, only "
               "chips nobody else could win go back, unraked, and a pot won by a fold is raked "
               "like any other."),
        Ruling("caro-7", "Showdown: the best five-card hand from the five board cards and at "
               "most two private cards; ties split in the smallest chip, odd chips clockwise "
               "from the button."),
        Ruling("caro-8", "The rules' worked example (a blip bet for four cards, a raise for two, "
               "a call) is one of the app's tests."),
        Ruling("caro-9", "Three private cards of a suit never make a flush with two on the "
               "board: at most two private cards play."),
        Ruling("fees", "The table's fee comes out of the pots the fees engine works it out on; "
               "uncalled chips go back unraked."),
    ),
    strategy=(
        "Each player in turn folds with probability 12% when there is a bet to face, otherwise "
        "chooses at random among the legal checks, bets, calls and raises, keeping two cards "
        "three times as often as any other count; one showdown hand in ten is folded unseen."
    ),
    measures=(
        Measure("showdown", "Hands that reach a showdown", "share"),
        Measure("side_pots", "Side pots per hand", "count", "from all-in players only "
                "(ruling caro-6)"),
        *(Measure(f"pot_kept_{k}", f"Pot when the winner kept {v}", "money")
          for k, v in _KEPT.items()),
        Measure("kept", "Cards the showdown winner kept", "category"),
        Measure("category", "Showdown categories (the winning hand)", "category"),
        Measure("by_kept", "Showdown categories by cards kept", "category"),
    ),
    measure=measure,
)
