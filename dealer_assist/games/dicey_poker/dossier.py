"""What the game-approval dossier says of Dicey Poker: the rules and rulings in our words
(docs/games/dicey-poker.md), its sample hands' strategy, and its own numbers: the rounds a hand
lasts, the wild challenges and jokers, the face-up categories, the points a round scores."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    scores = r.get("scores") or {}
    won = [c for c in r.get("challenges", []) if c.get("winner") is not None]
    out: dict[str, Any] = {"rounds": int(r.get("rounds", 0)),
                           "challenges": len(r.get("challenges", [])),
                           "challenges_won": len(won), "jokers": int(r.get("jokers_taken", 0)),
                           "game_over": bool(r.get("game_over"))}
    if scores:
        out["points"] = round(sum(s["total"] for s in scores.values()) / len(scores))
        best = max(scores.values(), key=lambda s: (s["up_score"], s["total"]))
        out["up_category"] = str(best["up_category"])
    return out


DOSSIER = GameDossier(
    rules=(
        "Cards and dice: ten hole cards each, open to the dealer; a base die (d10, ace to ten) "
        "and a face die (d6, red or black jack, queen or king) match hole cards that go face "
        "up, five at most, with chips put on them; a wild challenge on the percentile die and "
        "the wild die (d4) win jokers. When every player has five chipped face-up cards, two "
        "more rounds end the hand; the face-up five and the best five of the hole score on "
        "the scoring table, and the totals run from hand to hand to the target (150 by "
        "default).",
        "The app rolls the dice from its own random source, shows them and records them, or "
        "takes the values of physical dice; it knows which card each roll matches, what may "
        "be put up, swapped, chipped or discarded, who is due a wild challenge, which joker a "
        "wild roll takes, when the last two rounds start, and the score.",
    ),
    rulings=(
        Ruling("Dicey 1", "1-2 players: one deck and 2 jokers; 3-4: a deck plus the spades and "
               "hearts of a second and 3 jokers; 5-6: two decks and 4 jokers. The jokers wait "
               "beside the table. Five chips and ten cards each; hole cards open to the dealer; "
               "the dice from the app or entered from the table."),
        Ruling("Dicey 2", "Fewer than five face up: the base die, then the face die, skipped "
               "when the base roll (with any joker it brought) made five face up. Five face up: "
               "one die of the player's choice, only with at least three cards of its kind in "
               "the hole."),
        Ruling("Dicey 3", "A match with fewer than five up goes face up and the player draws; "
               "with five up the match is swapped for an unchipped face-up card (chipped, no "
               "draw) or a face-up card is chipped and the match discarded and a card drawn; "
               "all five chipped: the match is discarded and a card drawn; no match: any card "
               "is discarded and a card drawn. After every roll: at most five up, ten in the "
               "hole."),
        Ruling("Dicey 4", "Chipped cards and jokers stay. An ace, J♠, J♥, K♥ or a two put "
               "face up starts a wild challenge once the roll is played, unless every joker is "
               "taken or it is one of the last two rounds."),
        Ruling("Dicey 5", "The challenge: from the challenger clockwise each rolls the "
               "percentile die as often as they choose, at least once, twice after only players "
               "who went over; over 100 loses; the single closest to 100 wins; a tie or all "
               "over: nobody. Solitaire: 70 to 100 wins. A holder of two jokers takes part but "
               "rolls no wild die."),
        Ruling("Dicey 6", "The wild die: 1-2 players, the first joker needs 1 or 2, the second "
               "3 or 4; 3-6 players, the first needs 1, the second 2, the third 3, the fourth "
               "4, and with 3-4 players a 4 takes the next joker still free. A joker won with "
               "five face up sends a face-up card back to the hole and a hole card to the "
               "discards."),
        Ruling("Dicey 7", "Two more full rounds once every player has five chipped face-up "
               "cards. The face-up five (jokers wild) at the face-up column plus 4 a joker, 3 "
               "an ace, 2 a face card, 1 any other; the best five hole cards at the hole "
               "column. The game to the target; the highest total wins; the entries (if any) "
               "go to the winner, split on a tie."),
    ),
    strategy=(
        "Each die is rolled uniformly; with five face up the die is chosen at random among "
        "those allowed; a match is chosen at random; with five up a swap or a chip equally "
        "often; a discard without a match is any hole card at random; in a challenge a player "
        "stops at 70, 80 or 90 (chosen at random) and otherwise one time in seven; a joker won "
        "with five up sends back a random face-up card and discards a random hole card."
    ),
    measures=(
        Measure("rounds", "Rounds per hand", "count"),
        Measure("challenges", "Wild challenges per hand", "count"),
        Measure("challenges_won", "Wild challenges won per hand", "count",
                "a tie or everyone over: nobody wins (ruling Dicey 5)"),
        Measure("jokers", "Jokers taken per hand", "count"),
        Measure("points", "Points a player scores in a round (mean of the table)", "count"),
        Measure("up_category", "The best face-up category of the round", "category"),
        Measure("game_over", "Hands that end the game", "share"),
    ),
    measure=measure,
    played="game",
)
