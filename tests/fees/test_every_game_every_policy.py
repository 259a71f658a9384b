"""The fees ruling over the registry: for every registered game, every fee policy the ruling
lists (a fixed collection from the pot or from the button seat, a fee per player, a percentage
rake, a time collection, a jackpot drop in its own fund) is either taken, and a few sample hands
with it conserve chips and carry the fee's ledger lines, or refused with a message saying why.

A refusal is accepted only where the ruling or the game's own declaration gives the reason (a
fee from the button seat in a game without a button), or where our reading for games settled
player to player (OFC, Chinese Poker, Mille: no pot) is written in the game's page: a policy
that comes out of the pot is refused there, saying so and what to use instead. A game whose
sample hands put nothing into a pot (no entries, no antes) is held only to taking the policy
and conserving chips."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from dealer_assist.engine.base import Game, Settlement
from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event, Start
from dealer_assist.fees import fund_of

#: The shipped games (test doubles registered by other test modules left out).
GAMES = [g for g in game_names() if type(get_game(g)).__module__.startswith("dealer_assist.")]

#: One policy of each kind the ruling lists; generous, so that a sample hand's pot pays it, in
#: amounts every game's smallest chip divides.
POLICIES: dict[str, dict[str, Any]] = {
    "rake": {"kind": "rake", "percent": "50", "no_flop_no_drop": False},
    "rake-capped": {"kind": "rake", "percent": "50", "cap": 1000, "min_pot": 100},
    "fixed-from-pot": {"kind": "fixed", "amount": 1000},
    "fixed-from-button": {"kind": "fixed", "amount": 100, "from": "button"},
    "per-player": {"kind": "per-player", "amount": 100},
    "time": {"kind": "time", "amount": 500, "period_minutes": 30},
    "jackpot-drop": {"kind": "none", "jackpot": {"amount": 1000, "no_flop_no_drop": False}},
}
#: The ledger line kinds each policy may write for the house or its fund.
LINE_KINDS = {
    "rake": {"rake"}, "rake-capped": {"rake"}, "fixed-from-pot": {"collection"},
    "fixed-from-button": {"button-fee"}, "per-player": {"player-fee"}, "time": set(),
    "jackpot-drop": {"jackpot"},
}
HANDS = 6

#: The policies that come out of a pot (a game with no pot refuses them, saying so).
FROM_POT = {"rake", "rake-capped", "fixed-from-pot", "jackpot-drop"}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def with_fee(events: list[Event], fee: dict[str, Any]) -> list[Event]:
    start = events[0]
    assert isinstance(start, Start)
    params = MappingProxyType({**start.params, "fee": fee})
    return [replace(start, params=params), *events[1:]]


def ruled_refusal(game: Game[Any], policy: str, message: str) -> bool:
    """A refusal the ruling, the game's declaration or its written reading explains."""
    if policy == "fixed-from-button" and not game.has_button and "button" in message:
        return True
    return (policy in FROM_POT and "has no pot" in message and "time collection" in message
            and _page_says_no_pot(game))


def _page_says_no_pot(game: Game[Any]) -> bool:
    """The game's page says, in our words, that it has no pot (and which fees it takes)."""
    page = DOCS / f"{game.name}.md"
    return page.is_file() and "no pot" in page.read_text(encoding="utf-8")


def sample_hands(game: Game[Any], fee: dict[str, Any]) -> list[list[Event]]:
    """Sample hands played with the fee (stacks and bets allow for a fee paid before the
    deal); a sample that does not take the fee gets it written into its start."""
    rng = random.Random(30)
    low, high = game.players
    out = []
    for _ in range(HANDS):
        players = rng.randint(low, min(high, 5))
        try:
            out.append(game.sample_hand(rng, players=players, params={"fee": fee}))
        except ValueError:
            out.append(with_fee(game.sample_hand(rng, players=players), fee))
    return out


def check_lines(s: Settlement, policy: str, fee: dict[str, Any], seats: set[int]) -> None:
    for line in s.fees:
        assert line.kind in LINE_KINDS[policy], line
        assert line.amount > 0
        if line.from_seat is None:
            # taken from the pot: worked out on what the pot held, never more
            assert line.base is not None and line.amount <= line.base, line
        else:
            assert line.from_seat in seats
    if policy == "per-player":
        payers = [f.from_seat for f in s.fees]
        assert payers and None not in payers and len(set(payers)) == len(payers)
        assert all(f.amount == fee["amount"] for f in s.fees)
    if policy == "fixed-from-button":
        assert [f.amount for f in s.fees] == [fee["amount"]]
    if policy == "rake-capped":
        assert all(f.amount <= fee["cap"] for f in s.fees)
    if policy == "jackpot-drop":
        assert all(fund_of(f.kind) == "jackpot" for f in s.fees)


def cases() -> list[Any]:
    out = []
    for name in GAMES:
        for policy in POLICIES:
            out.append(pytest.param(name, policy, id=f"{name}-{policy}"))
    return out


@pytest.mark.parametrize(("name", "policy"), cases())
def test_ruling_fees_every_game_takes_every_policy_or_says_why(name: str, policy: str) -> None:
    game = get_game(name)
    fee = POLICIES[policy]
    collected = into_pots = 0
    try:
        hands = sample_hands(game, fee)
    except DealerAssistError as exc:
        assert ruled_refusal(game, policy, str(exc)), str(exc)
        return
    for events in hands:
        try:
            hand = replay(events)
            s = hand.settle()
        except DealerAssistError as exc:
            message = str(exc)
            assert ruled_refusal(game, policy, message), message
            return
        assert s.conserved, (name, policy)
        start = events[0]
        assert isinstance(start, Start)
        check_lines(s, policy, fee, set(start.seats))
        collected += sum(f.amount for f in s.fees)
        before = sum(f.amount for f in s.fees if f.from_seat is not None)
        into_pots += sum(s.put_in.values()) - before
    if LINE_KINDS[policy] and into_pots:
        # the policy was taken, not ignored: some hand paid it
        assert collected > 0, f"{name} took no {policy} fee in {HANDS} sample hands"
