"""What the game-approval dossier says of Commerce: the rules and rulings in our words (as
docs/games/commerce.md says them), its sample hands' strategy, and its own numbers: which
hand wins, how often the pot is split, how long a hand runs."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    winners = r.get("winners") or []
    hands = r.get("hands") or {}
    rank = hands.get(str(winners[0]), {}).get("rank") if winners else None
    return {"split": len(winners) > 1, "rank": rank, "blind": bool(r.get("blind")),
            "turns": state.turns}


DOSSIER = GameDossier(
    rules=(
        "Three to ten players each ante one stake and get three cards; three more go face up "
        "in the middle. Before looking, the dealer may exchange one to three cards blind with "
        "the middle. Then from the dealer's left each turn is an exchange of one to three "
        "cards with the middle, or a knock; after a knock every other player has one last "
        "turn, and every hand is shown. The best three-card hand takes the pot.",
        "The app keeps the cards in the middle exactly and where every card taken from it "
        "went, and refuses a hand shown that does not hold what its player took and kept.",
    ),
    rulings=(
        Ruling("Commerce 1", "One stake each; three cards each and three face up; the dealer "
               "may exchange one to three cards blind before the first turn."),
        Ruling("Commerce 2", "From the dealer's left: an exchange of one to three cards or a "
               "knock; a three-card exchange once per player per hand (the dealer's blind one "
               "counts); after a knock one last turn each (exchange or stand), ending with the "
               "player on the knocker's right; then every hand is shown."),
        Ruling("Commerce 3", "Tricon > sequence (A-K-Q highest, 3-2-A lowest, K-A-2 none) > "
               "flush (by point) > pair (by pair, then kicker) > point (ace 11, faces 10, "
               "others pips; ties by the highest card, the next, the lowest). A tie splits the "
               "pot in the smallest chip, the odd chips one at a time from the dealer's left."),
        Ruling("fees", "A house fee is collected from each seat before the deal, or out of the "
               "pot, as the table's fee says."),
    ),
    strategy=(
        "Each player makes the exchange that improves its hand most (one or two cards, now and "
        "then three), knocks once it holds a pair or better (seven times in ten), and in a "
        "last turn exchanges only to improve; the dealer exchanges blind three times in ten."
    ),
    measures=(
        Measure("rank", "Winning hand", "category"),
        Measure("split", "Pots split", "share", "ruling Commerce 3"),
        Measure("blind", "Hands with a blind exchange by the dealer", "share",
                "ruling Commerce 1"),
        Measure("turns", "Turns before the knock", "count"),
    ),
    measure=measure,
)
