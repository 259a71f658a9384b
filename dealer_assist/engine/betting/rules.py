"""The betting structure a table plays: fixed limit, pot-limit or no-limit, and its forced bets.

A game builds one :class:`BettingRules` from its start settings (keyword arguments only) and
hands it to :func:`dealer_assist.engine.betting.start`. Every amount is integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.errors import BadInput


class Structure(StrEnum):
    """How much a bet or raise may be: one fixed size, up to the pot, or up to the stack."""

    LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingRules:
    """The table's betting settings.

    - ``small_blind``/``big_blind``: posted left of the button (heads-up the button posts the small
      blind); the big blind is a live bet, and in limit it counts as the first bet of the round.
    - ``ante``: what every seat puts in before the deal (dead money, not a bet); a game whose
      antes differ by seat passes them to ``start``.
    - Limit: every bet and raise is ``small_bet`` in the rounds before ``big_bet_from`` (hold 'em
      and Anaconda: the first two) and ``big_bet`` from then on; at most ``cap`` bets a round
      (``None``: no cap), lifted while only two players are in when ``heads_up_uncapped``.
    - Pot-limit and no-limit: the smallest opening bet is ``min_bet`` (default: the big blind,
      or ``small_bet`` in a game without blinds); a raise is at least the last full raise.
    - ``max_in_round``: the most one player may put in during one betting round (Markets poker
      caps it at five chips); ``None`` for none.
    - ``chip``: the table's smallest chip: a bet or raise is to a whole number of it (a stack
      all-in is whatever the stack is).
    """

    structure: Structure
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    small_bet: int = 0
    big_bet: int = 0
    big_bet_from: int = 2
    cap: int | None = 4
    heads_up_uncapped: bool = True
    min_bet: int | None = None
    max_in_round: int | None = None
    chip: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.chip, int) or isinstance(self.chip, bool) or self.chip < 1:
            raise BadInput(f"the smallest chip must be a whole number of cents, 1 or more: "
                           f"{self.chip!r}")
        for name in ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "big_bet_from"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise BadInput(f"{name} must be a whole number of cents, 0 or more: {value!r}")
        if not isinstance(self.structure, Structure):
            try:  # the hand log's text ("pot-limit") is accepted as well
                object.__setattr__(self, "structure", Structure(self.structure))
            except ValueError:
                raise BadInput(
                    f"unknown betting structure {self.structure!r}: "
                    "write limit, pot-limit or no-limit"
                ) from None
        if self.small_blind > self.big_blind:
            raise BadInput("the small blind cannot be bigger than the big blind")
        if self.structure is Structure.LIMIT:
            if self.small_bet <= 0 or self.big_bet <= 0:
                raise BadInput("a limit game needs a small bet and a big bet above 0")
            if self.big_blind and self.big_blind != self.small_bet:
                raise BadInput(
                    "in limit the big blind is the first bet: it must equal the small bet"
                )
            if self.cap is not None and self.cap < 1:
                raise BadInput("the cap must allow at least one bet a round")
        elif self.opening_bet <= 0:
            raise BadInput("pot-limit and no-limit need a big blind or a minimum bet above 0")
        if self.min_bet is not None and self.min_bet <= 0:
            raise BadInput("the minimum bet must be above 0")
        if self.max_in_round is not None and self.max_in_round < self.opening_bet:
            raise BadInput("the most a player may put in a round is below the smallest bet")

    @property
    def opening_bet(self) -> int:
        """The smallest full bet in pot-limit and no-limit (and the limit bet of round 0)."""
        if self.min_bet is not None:
            return self.min_bet
        if self.structure is Structure.LIMIT:
            return self.small_bet
        return self.big_blind or self.small_bet

    def bet_size(self, round_index: int) -> int:
        """Limit: the size of every bet and raise in this round. Others: the smallest bet."""
        if self.structure is Structure.LIMIT:
            return self.big_bet if round_index >= self.big_bet_from else self.small_bet
        return self.opening_bet
