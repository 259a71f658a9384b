"""What the game-approval dossier says of Pineapple, Crazy Pineapple and Crazy Pineapple Hi-Lo:
the rules and rulings in our words (docs/games/pineapple.md's house rulings), its sample hands'
strategy, and the numbers a board asks of it: showdowns, categories, how often the low
qualifies."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values
from dealer_assist.games.pineapple.settle import best_hands, result
from dealer_assist.games.pineapple.state import OVER


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    """One finished hand's numbers, from its result (the pots, each half's winners) and the
    best hands shown: what ``replay --json`` reports of it, without building the rest."""
    if state.phase != OVER:  # (never, for a hand dealt to its end)
        return _reported(game.report(state))
    shown = best_hands(state)
    r = result(state)
    pots = r.payout.pots
    showdown = len(shown) >= 2
    out: dict[str, Any] = {"showdown": showdown, "killed": bool(state.killed),
                           "side_pots": max(0, len(pots) - 1)}
    if showdown and pots:
        hi_lo = state.settings.hi_lo
        winners = (hi_lo and r.high[0]) or pots[0].winners
        if winners and winners[0] in shown:
            out["category"] = str(shown[winners[0]].category)
        if str(state.settings.variant).endswith("hi-lo"):
            out["low"] = bool(hi_lo and r.low[0])
    return out


def _reported(r: dict[str, Any]) -> Values:
    shown = r.get("best_hands") or {}
    pots = r.get("pots") or []
    showdown = len(shown) >= 2
    out: dict[str, Any] = {"showdown": showdown, "killed": bool(r.get("killed")),
                           "side_pots": max(0, len(pots) - 1)}
    if showdown and pots:
        main = pots[0]
        winners = main.get("high_winners") or main.get("winners") or []
        if winners and str(winners[0]) in shown:
            out["category"] = str(shown[str(winners[0])]["category"])
        if str(r.get("variant", "")).endswith("hi-lo"):
            out["low"] = bool(main.get("low_winners"))
    return out


DOSSIER = GameDossier(
    rules=(
        "Hold 'em with three hole cards, one thrown away face down before the flop (Pineapple) "
        "or before the turn (Crazy Pineapple), in fixed limit, pot-limit or no-limit; Crazy "
        "Pineapple Hi-Lo splits each pot with an eight-or-better low.",
        "The app gives each legal action with its cost, keeps the checklist of who still owes "
        "a discard and holds the next board card until all have (or the dealer kills the hand), "
        "says who shows first and who may muck, and runs the betting, side pots, uncalled chips "
        "and the rake through the shared betting engine.",
    ),
    rulings=(
        Ruling("pineapple-1", "Betting. Blinds, antes or both (antes are dead money, posted "
               "first); fixed limit (the small bet before and on the flop, the big bet on the "
               "turn and river, four bets a round, lifted heads-up as a setting), pot-limit or "
               "no-limit, with the betting engine's minimum raise and reopening rules."),
        Ruling("pineapple-2", "The discard. Every player still in discards one hole card face "
               "down: in Pineapple after the pre-flop betting and before the flop, in Crazy "
               "Pineapple after the flop betting and before the turn. A hand that has not "
               "discarded when the next board card comes is dead: the app names who still owes "
               "a discard and refuses the board card until all have, or until the dealer kills "
               "the hand that will not (kill). The app records that a discard happened; which "
               "card, only if it was shown."),
        Ruling("pineapple-3", "The showdown. Any five of the two hole cards and the five board "
               "cards. The last to bet or raise in the last round shows first (if it was checked "
               "through, the first left of the button), then clockwise; the first hand must be "
               "shown, the others may muck, unless a player is all-in: then every hand still in "
               "is shown. Hi-lo: half to the best high, half to the best ace-to-five low of five "
               "unpaired cards eight or lower (straights and flushes do not count); the halves "
               "may use different cards; no qualifying low, the high takes the whole pot; the "
               "pot's odd chip goes to the high half; within a half tied winners split in the "
               "smallest chip, odd chips one at a time from the first winner left of the "
               "button."),
        Ruling("pineapple-4", "A dead hand. A hand killed by the dealer or mucked gives up only "
               "the pots another player still in contests. A side pot everyone else in it folded "
               "out of stays with the last player in it, even if that hand is then killed or "
               "mucked: it was won when the others folded."),
        Ruling("pineapple-5", "A face-down discard is {\"type\":\"discard\",\"seat\":S}: one "
               "card, since one is all a player may throw; \"count\":1 may be given and means "
               "the same."),
        Ruling("betting-turn", "Players act in turn."),
        Ruling("betting-closed", "No action once the betting round is closed."),
        Ruling("fees", "Only uncalled chips go back; a pot won because everyone else folded is "
               "raked like any other; \"no flop, no drop\" means no flop was dealt. The rake is "
               "worked out by the fees engine on every chip in the pots and comes out of the "
               "main pot first."),
    ),
    strategy=(
        "Each player in turn chooses among the legal actions at random, weighted check 6, "
        "call 6, fold 2, bet 2, raise 2, all-in 1 (a bet or raise of the minimum, the maximum "
        "or an amount between, equally often); one discard in ten is shown, one hand in fifty "
        "is killed for a missed discard, and a hand that need not be shown is mucked one time "
        "in five."
    ),
    measures=(
        Measure("showdown", "Hands that reach a showdown", "share"),
        Measure("low", "Hi-lo showdowns in which a low qualifies", "share",
                "eight or better (ruling pineapple-3)"),
        Measure("killed", "Hands in which the dealer kills a hand", "share",
                "a missed discard (ruling pineapple-2)"),
        Measure("side_pots", "Side pots per hand", "count"),
        Measure("category", "Showdown categories (the winning high hand)", "category"),
    ),
    measure=measure,
)
