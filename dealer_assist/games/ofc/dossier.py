"""What the game-approval dossier says of Open-Face Chinese Poker: the rules and rulings in our
words (as docs/games/ofc.md says them), its sample hands' strategy, and the numbers a board asks
of it: how often hands foul, how often fantasyland is earned, royalties."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    seats = len(r.get("seats") or ())
    fouled = len(r.get("fouled") or ())
    fantasy = len(settlement.extra.get("fantasyland") or ())
    royalties = sum(1 for v in (r.get("royalties") or {}).values() if v)
    swing = sum(abs(int(v)) for v in (settlement.extra.get("net_cents") or {}).values()) // 2
    return {
        "fouls": fouled, "foul_any": fouled > 0, "fantasy": fantasy, "fantasy_any": fantasy > 0,
        "royalties": royalties, "won": swing,
        "fouled_of": f"{fouled} of {seats} hands foul",
    }


DOSSIER = GameDossier(
    rules=(
        "Two to four players each build three rows face up: a three-card front, a five-card "
        "middle and a five-card back. Everyone places a first five cards, then one card a turn, "
        "until every row is full. The back must be the strongest row and the front the "
        "weakest, or the hand fouls. There is no pot: each pair of players settles on its own, "
        "in units, for the rows won, a bonus for winning all three, and the royalties. A strong "
        "front earns a hand in fantasyland, where a player gets all thirteen cards at once. "
        "Pineapple (three cards a turn, one thrown away) is a table setting.",
    ),
    rulings=(
        Ruling("OFC 1", "Play starts with the seat on the button's left and goes clockwise. Each "
               "seat places its first five cards, then the next seat does; after that each seat "
               "places one card a turn. A placement out of turn, in a full row, or of a card "
               "already out is refused."),
        Ruling("OFC 2", "Rows rank as poker hands; the front row knows only trips, a pair or high "
               "card and is compared with the middle by category, then rank by rank as far as "
               "the front has cards. A hand whose middle ranks above its back, or whose front "
               "ranks above its middle, fouls."),
        Ruling("OFC 3", "Royalties by the table's royalty table (rules-text or pineapple); a "
               "fouled hand earns none."),
        Ruling("OFC 4", "Every pair of players settles on its own: one point per row won (a tied "
               "row scores nothing), three more for all three rows, plus the difference of the "
               "royalties; a fouled hand pays 6 plus the other's royalties; two fouled hands "
               "exchange nothing."),
        Ruling("OFC 5", "A hand with a pair of queens or better in front (any trips count) that "
               "did not foul plays the next hand in fantasyland: it is dealt thirteen cards "
               "once everyone else has placed five, and sets them with one set event. The button "
               "does not move after a hand in which anyone played in fantasyland."),
        Ruling("OFC 6", "The rules' worked example (seat 1 nets six units and enters "
               "fantasyland) is one of the app's tests."),
        Ruling("OFC pineapple", "Pineapple OFC: after the first five, each turn deals three "
               "cards: two are placed and one discarded, in any order within the turn; a "
               "fantasyland seat is dealt fourteen and throws one away."),
        Ruling("fees", "A house fee is collected from each seat before the deal or by time; "
               "there is no pot to rake."),
    ),
    strategy=(
        "Each player places each card it is dealt in a row chosen at random among those with "
        "room, and discards the card the turn leaves over (Pineapple)."
    ),
    measures=(
        Measure("foul_any", "Deals with at least one fouled hand", "share"),
        Measure("fouls", "Fouled hands per deal", "count", "divide by the players for the "
                "foul rate per hand"),
        Measure("fantasy_any", "Deals in which a hand earns fantasyland", "share",
                "ruling OFC 5"),
        Measure("fantasy", "Hands earning fantasyland per deal", "count"),
        Measure("royalties", "Hands scoring royalties per deal", "count"),
        Measure("won", "Money changing hands per deal", "money", "the total the losers pay"),
        Measure("fouled_of", "Fouled hands in a deal", "category"),
    ),
    measure=measure,
)
