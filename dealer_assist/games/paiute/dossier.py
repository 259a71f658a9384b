"""What the game-approval dossier says of Paiute: the rules and rulings in our words (as
docs/games/paiute.md says them), its sample hands' strategy, and its own numbers: which call
wins, how often the dealer calls first, how often a call is beaten in a last turn."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    calls = r.get("calls") or []
    winners = r.get("winners") or []
    first = calls[0]["seat"] if calls else None
    return {
        "combination": (r.get("hands") or {}).get(str(winners[0]), {}).get("rank")
        if winners else None,
        "dealer_first": len(calls) == 1 and first == r.get("dealer"),
        "beaten": bool(calls) and first not in winners,
        "split": len(winners) > 1,
        "calls": len(calls),
    }


DOSSIER = GameDossier(
    rules=(
        "Two to five players ante and get five cards. A card turned up names the wild rank "
        "and another starts the discard pile. From the dealer's left each turn draws from the "
        "stock or takes the top of the pile, then discards one card; the card just taken "
        "cannot go straight back.",
        "A player calls by showing five cards after the discard, or six straight after the "
        "draw, as five of a kind, a royal flush, a straight flush, four/two, three/three or a "
        "paiute (three pairs, on the caller's first turn only). Every player after the caller, "
        "through the dealer, has one last turn and may call only to beat or tie the best call. "
        "The best call takes the pot; a dealer who calls first wins at once.",
        "The app keeps the discard pile and the stock's count, knows who holds each card "
        "taken from the pile, and checks each call against the wild rank and the best call.",
    ),
    rulings=(
        Ruling("Paiute 1", "Ante; five cards each; the card turned up names the wild rank; one "
               "card starts the discard pile. A turn draws from the stock or the pile and "
               "discards one card; the top of the pile must change."),
        Ruling("Paiute 2", "A call: five of a kind > royal flush > straight flush > four/two > "
               "three/three > paiute (three pairs, first turn only); wild cards stand for any "
               "card; a sixth card is kept only if it is part of the combination. The players "
               "after the caller, through the dealer, have one more turn and call only to beat "
               "or tie the best call; a dealer who calls first wins at once; tied best calls "
               "split the pot, the odd chips from the dealer's left."),
        Ruling("fees", "A house fee is collected from each seat before the deal, or out of the "
               "pot, as the table's fee says."),
    ),
    strategy=(
        "Each player takes the top of the pile when it matches a rank it holds or is wild, "
        "calls its best combination eight times in ten (in a last turn whenever it beats or "
        "ties), and throws its rarest rank; after four rounds without a call the player to "
        "play holds a three/three (or, with a wild card among them, a four/two), called as the "
        "best combination its cards make."
    ),
    measures=(
        Measure("combination", "Winning call", "category"),
        Measure("dealer_first", "Hands the dealer called first", "share", "ruling Paiute 2"),
        Measure("beaten", "Hands where a last turn beat the first call", "share"),
        Measure("split", "Pots split", "share"),
        Measure("calls", "Calls per hand", "count"),
    ),
    measure=measure,
)
