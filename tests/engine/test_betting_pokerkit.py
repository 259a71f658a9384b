"""The betting engine against pokerkit, hand by hand, for hold 'em betting.

Random legal hands in fixed limit, pot-limit and no-limit, with blinds (and sometimes antes) or
antes only, are played through both engines at
once. At every decision both must agree on who acts, the call, whether a bet or raise is open and
its smallest and largest total; at the end, on the pots and on every seat's final stack (uncalled
chips, side pots and split pots included). Pokerkit's seat 0 is the first left of the button and
the button is the last seat, so our seats 1..n with the button at n line up with its indices.

Where the two rule books differ the hand is compared only up to that point:

- pokerkit lets a player who already acted raise after any run of short all-ins adding up to a
  full raise, and takes the first bet or raise of a round as full whatever its size; we ask
  whether that player faces a full raise since it acted (so a short all-in bet does not reopen
  the betting to those who checked, nor a raise before the flop smaller than the big blind to
  those who limped);
- pokerkit has no half-bet rule for limit all-ins: limit hands are dealt deep enough that nobody
  goes all-in; it cannot lift the cap heads-up (only play without one), so that is compared in
  hands that start heads-up;
- odd chips: a three-way split's go one at a time from the button here, all to the first winner
  there; and pokerkit splits the pots once the hands that lost at the showdown are out of them
  (merging side pots), where we split each side pot as it was built, each with its odd chip.
  There the stacks may differ by those odd chips and no more.
"""

from __future__ import annotations

import random
import warnings

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    Automation,
    BettingStructure,
    Deck,
    Opening,
    StandardHighHand,
    State,
    Street,
)
from pokerkit.state import BoardDealing, HoleDealing  # noqa: E402

from dealer_assist.engine import betting as b  # noqa: E402
from dealer_assist.engine.pots import Pot  # noqa: E402

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.CHIPS_PULLING,
)

KINDS = {
    b.Structure.LIMIT: BettingStructure.FIXED_LIMIT,
    b.Structure.POT_LIMIT: BettingStructure.POT_LIMIT,
    b.Structure.NO_LIMIT: BettingStructure.NO_LIMIT,
}


def _pokerkit_state(rules: b.BettingRules, stacks: list[int]) -> State:
    limit = rules.structure is b.Structure.LIMIT
    small = rules.small_bet if limit else rules.opening_bet
    big = rules.big_bet if limit else rules.opening_bet
    # our cap counts the big blind as the first bet before the flop; pokerkit counts raises only
    uncapped = rules.heads_up_uncapped and len(stacks) == 2
    counts: list[int | None] = [None] * 4
    if limit and rules.cap and not uncapped:
        first = rules.cap - 1 if rules.big_blind else rules.cap
        counts = [first, rules.cap, rules.cap, rules.cap]
    streets = tuple(
        Street(
            i > 0,
            (False, False) if i == 0 else (),
            (0, 3, 1, 1)[i],
            False,
            Opening.POSITION,
            small if i < 2 else big,
            counts[i],
        )
        for i in range(4)
    )
    return State(
        AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        streets,
        KINDS[rules.structure],
        True,
        rules.ante,
        (rules.small_blind, rules.big_blind),
        0,
        tuple(stacks),
        len(stacks),
    )


class _Diverged(Exception):
    """The hand reached a spot where the two rule books differ on purpose."""


def _compare_decision(ours: b.BettingState, theirs: State, short_all_ins: int) -> None:
    opts = b.options(ours)
    assert opts is not None
    i = ours.to_act
    assert theirs.actor_index == i
    call = opts.choice("call")
    assert theirs.checking_or_calling_amount == (call.amount if call else 0)
    wager = opts.choice("bet") or opts.choice("raise")
    all_in = opts.choice("all-in")
    ours_open = wager is not None or (all_in is not None and "call" not in all_in.label)
    theirs_open = theirs.can_complete_bet_or_raise_to()
    if ours_open != theirs_open:
        if short_all_ins >= 2:
            raise _Diverged
        raise AssertionError(f"raise open: ours {ours_open}, pokerkit {theirs_open}: {opts}")
    if not ours_open:
        return
    low = wager.low if wager is not None else all_in.low  # type: ignore[union-attr]
    high = wager.high if wager is not None else all_in.high  # type: ignore[union-attr]
    assert theirs.min_completion_betting_or_raising_to_amount == low
    assert theirs.max_completion_betting_or_raising_to_amount == high


def _pick(rng: random.Random, ours: b.BettingState) -> tuple[str, int | None]:
    opts = b.options(ours)
    assert opts is not None
    choices = [c for c in opts.choices if not (c.kind == "fold" and opts.owed == 0)]
    weights = {"check": 4, "call": 5, "fold": 2, "bet": 3, "raise": 3, "all-in": 1}
    choice = rng.choices(choices, weights=[weights[c.kind] for c in choices])[0]
    if choice.kind in ("bet", "raise"):
        assert choice.low is not None and choice.high is not None
        to = rng.choice([choice.low, choice.high, rng.randint(choice.low, choice.high)])
        return choice.kind, to
    return choice.kind, None


def _apply(ours: b.BettingState, theirs: State, kind: str, to: int | None) -> b.BettingState:
    seat = ours.seats[ours.to_act]  # type: ignore[index]
    if kind == "check":
        theirs.check_or_call()
        return b.check(ours, seat)
    if kind == "call":
        theirs.check_or_call()
        return b.call(ours, seat)
    if kind == "fold":
        theirs.fold()
        return b.fold(ours, seat)
    if kind == "all-in":
        i = ours.to_act
        assert i is not None
        everything = ours.in_round[i] + ours.stacks[i]
        if everything <= ours.bet:
            theirs.check_or_call()
        else:
            theirs.complete_bet_or_raise_to(everything)
        return b.all_in(ours, seat)
    assert to is not None
    theirs.complete_bet_or_raise_to(to)
    return b.bet(ours, seat, to=to) if kind == "bet" else b.raise_to(ours, seat, to=to)


def _strengths(theirs: State) -> dict[int, StandardHighHand]:
    holes: dict[int, list[object]] = {}
    board: list[object] = []
    for op in theirs.operations:
        if isinstance(op, HoleDealing):
            holes.setdefault(op.player_index, []).extend(op.cards)
        elif isinstance(op, BoardDealing):
            board.extend(op.cards)
    return {
        i + 1: StandardHighHand.from_game(cards, board)  # type: ignore[arg-type]
        for i, cards in holes.items()
    }


def _merged(pots: list[tuple[int, tuple[int, ...]]]) -> list[tuple[int, tuple[int, ...]]]:
    out: list[tuple[int, tuple[int, ...]]] = []
    for amount, eligible in pots:
        if out and out[-1][1] == eligible:
            out[-1] = (out[-1][0] + amount, eligible)
        elif amount:
            out.append((amount, eligible))
    return out


def play(seed: int, structure: b.Structure) -> str:
    """One random hand through both engines; returns how far it was compared."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles with the module's generator
    n = rng.randint(2, 6)
    ante = rng.choice([0, 0, 25])
    blinds = rng.random() < 0.8  # else antes only: the first left of the button opens
    if not blinds:
        ante = 100
    if structure is b.Structure.LIMIT:
        rules = b.BettingRules(structure=structure, small_blind=100 * blinds,
                               big_blind=200 * blinds, ante=ante, small_bet=200, big_bet=400,
                               cap=rng.choice([3, 4]),
                               heads_up_uncapped=n == 2 and rng.random() < 0.5)
        stacks = [rng.randint(8000, 12000) for _ in range(n)]
    else:
        rules = b.BettingRules(structure=structure,
                               small_blind=rng.choice([100, 50]) * blinds,
                               big_blind=200 * blinds, ante=ante,
                               min_bet=None if blinds else 200)
        stacks = [rng.choice([rng.randint(300, 3000), rng.randint(3000, 20000)])
                  for _ in range(n)]
    seats = list(range(1, n + 1))
    ours = b.start(rules, seats=seats, button=n, stacks=dict(zip(seats, stacks, strict=True)))
    theirs = _pokerkit_state(rules, stacks)
    short_all_ins = 0
    try:
        while True:
            if ours.to_act is None:
                if ours.betting_done or ours.round == 3:  # the river's betting is the last
                    break
                ours = b.next_round(ours)
                short_all_ins = 0
                continue
            _compare_decision(ours, theirs, short_all_ins)
            kind, to = _pick(rng, ours)
            before = ours
            ours = _apply(ours, theirs, kind, to)
            if ours.bet > before.bet and ours.full_level == before.full_level:
                # pokerkit takes the first bet or raise of a round as full whatever its size (a
                # short all-in bet, or a raise before the flop short of the big blind), so it
                # reopens the betting to those who acted; here they face less than a full raise
                first = before.bet == 0 or (before.round == 0 and before.raises == 1)
                short_all_ins += 2 if first else 1
            elif ours.full_level != before.full_level:
                short_all_ins = 0
    except _Diverged:
        return "diverged"
    # pots as pokerkit holds them once the betting is over
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine = [(p.amount, p.eligible) for p in b.pots(ours)]
        def winners(pot: Pot) -> list[list[int]]:
            strengths = _strengths(theirs)
            top = max(strengths[s] for s in pot.eligible)
            return [[s for s in pot.eligible if strengths[s] == top]]

        while theirs.can_show_or_muck_hole_cards():
            theirs.show_or_muck_hole_cards(True)  # every hand shown: no pot loses a seat
        theirs_pots = _merged(
            [(p.amount, tuple(i + 1 for i in p.player_indices)) for p in theirs.pots]
        )
        if not ours.hand_over:  # (pokerkit keeps the last street's bets out of a won pot)
            assert _merged(mine) == theirs_pots
        while theirs.can_kill_hand():
            theirs.kill_hand()
        while theirs.status and theirs.can_push_chips():
            theirs.push_chips()
    payout = b.award(ours, winners=winners)
    assert sum(mine_amount for mine_amount, _ in mine) == sum(payout.put_in.values()) - sum(
        payout.returned.values()
    )
    odd_chips = sum(
        1 for a in payout.pots for part in a.parts if (a.amount - a.fee) % len(part)
    )
    final = [ours.stacks[i] + payout.won[s] for i, s in enumerate(ours.seats)]
    if not odd_chips:
        assert list(theirs.stacks) == final, (seed, ours.log, payout)
    else:  # the odd chips may sit elsewhere, nothing more
        assert all(abs(x - y) <= odd_chips for x, y in zip(theirs.stacks, final, strict=True))
    assert sum(theirs.stacks) == sum(final)
    return "compared"


@pytest.mark.parametrize(
    ("structure", "hands"),
    [(b.Structure.LIMIT, 150), (b.Structure.POT_LIMIT, 200), (b.Structure.NO_LIMIT, 200)],
)
def test_betting_agrees_with_pokerkit(structure: b.Structure, hands: int) -> None:
    results = [play(seed, structure) for seed in range(hands)]
    assert results.count("compared") >= hands * 9 // 10
