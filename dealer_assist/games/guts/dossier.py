"""What the game-approval dossier says of Guts: the rules and rulings in our words, its sample
hands' strategy, and its own numbers: how often a pot is won, carried or split, and how large
the pot grows."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values
from dealer_assist.games.guts.settle import outcome
from dealer_assist.games.guts.state import BARRED


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    """One finished hand's numbers, read off its state and outcome (what its report says,
    without describing every hand shown)."""
    ins = len(state.ins)
    o = outcome(state)
    return {
        "nobody_in": ins == 0,
        "unseen": ins == 1,
        "showdown": ins >= 2,
        "split": len(o.winners) >= 2 if ins >= 2 else None,
        "short": bool(o.short),
        "barred": any(state.barred(s) for s in state.table.seats)
        if state.table.short == BARRED else None,
        "pot_played": state.pot,
        "pot_left": settlement.carry_out,
    }


DOSSIER = GameDossier(
    rules=(
        "Two cards each; every player declares in or out. The pot does not end with the hand: "
        "the players in who lose pay the pot into the next one, so the table's running pot "
        "is carried from hand to hand, and everyone antes only when it is empty.",
        "The app shows the pot and what a loss would cost before each declaration, holds the "
        "declarations in turn (or takes them in any order at a table that declares all at "
        "once), checks the cards shown, and works out who takes the pot, what each loser pays, "
        "what a split leaves, and the fee on the chips put in during the hand.",
    ),
    rulings=(
        Ruling("guts-1", "Everyone antes when the pot is empty (the start of the game, or "
               "after a pot is won with no loser to refill it); otherwise the pot from the last "
               "hand is the stake."),
        Ruling("guts-2", "Two cards each; from the dealer's left each declares in or out, in "
               "turn, or all at once as a table setting. Nobody in: the pot carries unchanged. "
               "One in: that player takes the pot unseen."),
        Ruling("guts-3", "Showdown: a pair beats any unpaired hand, a higher pair a lower; "
               "unpaired hands by the higher card, then the lower; aces high; suits never "
               "count. Tied winners split the pot in the smallest chip; what cannot be split "
               "stays as the next pot's start."),
        Ruling("guts-4", "Each player in who did not win pays the amount of the pot just won "
               "(the whole pot, what a split left included) into the next pot, or the table's "
               "maximum when one is set and the pot is larger."),
        Ruling("guts-5", "A player who cannot cover what they owe pays what they have (the "
               "default); a table may instead bar a player from declaring in while their chips "
               "behind could not cover what a loss would cost."),
        Ruling("guts-6", "With declarations all at once, the players in show in any order; "
               "every player in shows."),
        Ruling("fees", "A fee is worked out on the chips put in during the hand (antes and "
               "payments into the pot), never again on a pot carried in, and is taken when the "
               "hand settles, from the next pot first, then from what is pushed. \"No flop, no "
               "drop\" means nobody declared in."),
    ),
    strategy=(
        "Each player declares in seven times in ten with a pair or a king or an ace, three "
        "times in ten otherwise, and out when barred; the players in show in a random order."
    ),
    measures=(
        Measure("nobody_in", "Hands nobody declares in (the pot carries)", "share"),
        Measure("unseen", "Hands one player takes unseen", "share"),
        Measure("showdown", "Hands with a showdown", "share"),
        Measure("split", "Showdowns with tied winners", "share"),
        Measure("short", "Hands where a loser cannot cover the pot", "share",
                "ruling guts-5"),
        Measure("barred", "Hands where a player is barred from declaring in", "share",
                "ruling guts-5, at a table that bars a player who cannot cover the pot"),
        Measure("pot_played", "The pot played for", "money"),
        Measure("pot_left", "The pot left for the next hand", "money"),
    ),
    measure=measure,
    played="game",
)
