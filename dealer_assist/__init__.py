"""Dealer Assist: the core engine (cards, games, fees, services). Pure Python, no Qt/SQL/PDF."""

__version__ = "0.2.0"
