"""What the game-approval dossier says of Markets poker: the rules and rulings in our words
(docs/games/markets.md), its sample hands' strategy, and its own numbers: how often the hand
ends on folds, the supplier sold and its price, the leader and niche halves shared."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    auction = r.get("auction") or {}
    leader = r.get("leader") or {}
    niche = r.get("niche") or {}
    out: dict[str, Any] = {
        "folded_out": len(r.get("folded") or []) == len(state.seats) - 1,
        "sold": auction.get("buyer") is not None,
        "game_over": bool(r.get("game_over")),
    }
    if auction.get("buyer") is not None:
        out["price"] = auction.get("price", 0)
    if len(leader.get("best_hands") or {}) >= 2:
        out["shared"] = len(leader.get("seats") or []) > 1 or len(niche.get("seats") or []) > 1
        out["same_seat"] = leader.get("seats") == niche.get("seats")
    return out


DOSSIER = GameDossier(
    rules=(
        "Three to five players keep their chips from hand to hand; the game ends when anyone "
        "ends a hand below 12 chips. Each hand everyone antes a chip, the dealer and the "
        "player on the dealer's left two. On a game's first hand everyone gets an advantage "
        "card face up; later only the players who folded the hand before have one, a card "
        "they kept from their own product. Each player gets five product cards, the first face "
        "up; a supplier card goes face up in the middle, then an externality, a betting round, "
        "a second externality and a second betting round, at most five chips a player in a "
        "round.",
        "The players still in then bid for the supplier, clockwise from the dealer's left; the "
        "price is shared equally among every player of the hand, the chips that do not share "
        "evenly going to the pot, and the buyer swaps one product card for the supplier. The "
        "pot is halved: the market leader (best five of product, advantage card and the two "
        "externalities) takes one half, with the odd chip; the niche (the most points in the "
        "product, the advantage card standing in for one card) the other. A shared half is "
        "split in whole chips, the leftover chips going by a draw the app makes and records.",
    ),
    rulings=(
        Ruling("markets-1", "Players, stacks and antes. 3 to 5 players, at least 12 chips each "
               "when a hand starts (a stack is a whole number of chips); the game ends when "
               "anyone ends a hand below 12 chips. Ante 1 chip each, 2 for the dealer and the "
               "player on the dealer's left."),
        Ruling("markets-2", "Advantage cards. First hand of a game: everyone gets one face up. "
               "Later hands: only the players who folded the last hand, each the card it chose "
               "from its own product at the end of that hand."),
        Ruling("markets-3", "Five product cards each, the first face up; the supplier face up; "
               "one externality; betting; a second externality; betting. No-limit, the "
               "smallest bet one chip, a player's total in one round at most 5 chips; folded "
               "players keep their cards."),
        Ruling("markets-4", "The supplier auction, clockwise from the dealer's left among the "
               "players still in: minimum bid 1, each bid higher, a withdrawal final. The price "
               "is shared equally among all players, whole chips, the remainder to the pot; the "
               "buyer replaces one product card with the supplier. When all but one fold, play "
               "stops at once: no auction, no show, the last player takes the pot."),
        Ruling("markets-5", "Market leader: the best five of product, advantage card and the "
               "externalities. Niche: the most points of the product (2 = 15, ace = 1, faces "
               "10), the advantage card may replace one product card; a tie goes to the higher "
               "advantage card (aces high, then spades, hearts, diamonds, clubs), a player with "
               "one beats one without; otherwise the niche is shared."),
        Ruling("markets-6", "The pot is halved, the odd chip to the leader's half; a shared "
               "half is split in whole chips and the leftover chips go one each to the tied "
               "seats in the order of a draw the app makes, shows and records."),
        Ruling("fees", "A fee per player or a fixed fee from the dealer is paid from the "
               "stack before the deal, in whole chips; a time collection is billed per seat. A "
               "rake, a collection from the pot or a jackpot drop comes out of the pot (antes, "
               "called bets and the auction's remainder) before it is halved, rounded down to "
               "whole chips. \"No flop, no drop\" means the hand ended in the first betting "
               "round."),
    ),
    strategy=(
        "Each player in turn chooses among the legal betting actions at random, weighted check "
        "6, call 6, fold 3, bet 2, raise 2 (any amount in the range, equally often); in the "
        "auction the first bid comes six times in ten and each later one about one time in "
        "three, one to four chips above the last; the buyer gives up a product card at random "
        "and a folded player keeps a product card at random."
    ),
    measures=(
        Measure("folded_out", "Hands ended by folds (no auction, no show)", "share"),
        Measure("sold", "Hands in which the supplier is sold", "share"),
        Measure("price", "The supplier's price", "money"),
        Measure("shared", "Showdowns with a shared half", "share"),
        Measure("same_seat", "Showdowns in which one player is leader and niche", "share"),
        Measure("game_over", "Hands that end a game", "share"),
    ),
    measure=measure,
    played="game",
    restack=True,
)
