"""Markets poker: products, disclosure, the supplier auction, the market leader and the niche,
played over many hands with chips kept from hand to hand."""

from dealer_assist.games.markets.game import Markets

GAME = Markets()

__all__ = ["GAME", "Markets"]
