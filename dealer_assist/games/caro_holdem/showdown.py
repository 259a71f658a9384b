"""Showdown and settlement: best hands with at most two private cards, pots, splits and fees.

Ruling caro-6: chips are compared over the whole hand, never round by round. Side pots come only
from all-in players (one per all-in total; an all-in player wins from each opponent at most what
they put in); every player still in and not all-in contests all the rest, whatever they put in,
and when every player still in is all-in, every one of them contests what lies above the highest
all-in total. The only chips that go back are those nobody else could win: what the one player
still in who can act (or, when none can, the all-in player) put in over the hand above every
other player's total. A pot one player wins because the others in it folded is a win: pushed as
one and raked like any other. The house fee comes out of the pots, the main pot first, before
anything is pushed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.evolve import builder
from dealer_assist.engine.pots import Pot, build_pots, clockwise_from_button, pot_name, split_pot
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import HandValue, best_hand
from dealer_assist.fees import FeeContext, pot_fees
from dealer_assist.fees.table import fee_setting_policy
from dealer_assist.games.caro_holdem.state import OVER, SeatState, State
from dealer_assist.money import format_cents

MAX_PRIVATE = 2


def current_pots(state: State) -> list[Pot]:
    """The pots as they stand: the main pot, then one side pot per all-in total (ruling caro-6)."""
    return _pots(state, {s.seat: s.hand_in for s in state.seats})


def _pots(state: State, contributions: dict[int, int]) -> list[Pot]:
    live = [s.seat for s in state.seats if not s.folded]
    if len(live) == 1:
        return [_pot(sum(contributions.values()), (live[0],), None)]
    all_in = [s.seat for s in state.seats if not s.folded and s.all_in]
    return build_pots(
        contributions, live=live, capped=all_in, order=state.settings.seats,
        top_to_every_live=True,
    )


def best_hands(state: State) -> dict[int, HandValue]:
    """Each shown hand's best five: board plus at most two of the player's cards."""
    if len(state.board) != 5:
        return {}
    return {
        s.seat: best_hand(state.board, s.shown, max_private=MAX_PRIVATE)
        for s in state.live()
        if s.shown is not None
    }


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot at settlement: its cents before and after fees, who could and who did win.

    ``returned`` marks chips that go back to the seat that put them in, unraked: the uncalled
    part of the last bet or raise, or a pot holding only its one possible winner's own chips.
    """

    name: str
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    fee: int
    shares: Mapping[int, int]
    returned: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "fee": self.fee,
            "shares": {str(k): v for k, v in self.shares.items()},
        }
        if self.returned:
            out["returned"] = True
        return out


@dataclass(frozen=True, slots=True)
class Uncalled:
    """Chips one player put in over the hand that nobody else could win (ruling caro-6).

    ``kind`` names that player's last bet, raise or big blind ("" if they made none); ``last``
    is what that wager put in, so a return within it reads as the part of it nobody called.
    """

    seat: int
    amount: int
    kind: str  # "bet", "raise", "big blind" or ""
    last: int = 0


#: The actions that set a betting level another player must match.
_AGGRESSIVE = ("bet", "raise", "big blind")


def uncalled(state: State) -> Uncalled | None:
    """The chips that go back unraked at the end of the hand, or ``None`` (ruling caro-6).

    Totals over the hand decide, never one round's amounts: when the player who put in the most
    is still in and no other player still in can act, what they put in above every other
    player's total (all-in or folded) could not be won by anyone, so it goes back. A player who
    put in more earlier (for more cards, or before going all-in) has matched a later bet up to
    that total, whatever round it came in.
    """
    top: SeatState | None = None
    second = 0
    for s in state.seats:
        if top is None or s.hand_in > top.hand_in:
            if top is not None:
                second = max(second, top.hand_in)
            top = s
        else:
            second = max(second, s.hand_in)
    if top is None or top.folded or top.hand_in <= second:
        return None
    for s in state.seats:
        if s is not top and not s.folded and not s.all_in:
            return None  # another player still in can act: they contest all of it
    kind, last = "", 0
    for w in reversed(state.actions):
        if w.seat == top.seat and w.kind in _AGGRESSIVE:
            kind, last = w.kind, w.amount
            break
    return _uncalled(top.seat, top.hand_in - second, kind, last)


def _winners(pot: Pot, hands: Mapping[int, HandValue]) -> tuple[int, ...]:
    if len(pot.eligible) == 1:
        return pot.eligible
    strengths = {s: hands[s].strength for s in pot.eligible if s in hands}
    if not strengths:
        return pot.eligible
    top = max(strengths.values())
    return tuple(s for s, v in strengths.items() if v == top)


def final_pots(state: State) -> tuple[list[tuple[Pot, bool]], Uncalled | None]:
    """The pots of a finished hand, each with whether it goes back unraked, and the uncalled
    chips taken out before the pots are built.

    Once the uncalled chips are out, no pot holds only its one possible winner's own chips; a
    pot only one seat can win that holds anyone else's chips is won, never returned.
    """
    back = uncalled(state)
    contributions = {s.seat: s.hand_in for s in state.seats}
    if back is not None:
        contributions[back.seat] -= back.amount
    return mark_returned(state, _pots(state, contributions), contributions), back


def mark_returned(
    state: State, pots: list[Pot], contributions: dict[int, int]
) -> list[tuple[Pot, bool]]:
    """Each pot with whether it goes back unraked: a pot only one seat can win that holds
    nobody else's chips (while more than one player is still in)."""
    live = sum(1 for s in state.seats if not s.folded)
    out: list[tuple[Pot, bool]] = []
    below = 0
    for i, pot in enumerate(pots):
        returned = False
        if len(pot.eligible) == 1 and live > 1:
            owner = pot.eligible[0]
            returned = not any(c > below for s, c in contributions.items() if s != owner)
        out.append((pot, returned))
        if i < len(pots) - 1 and pot.level is not None:
            below = pot.level
    return out


#: A finished hand's pots, each with whether it goes back unraked, and its uncalled chips.
Finals = tuple[list[tuple[Pot, bool]], Uncalled | None]


def settle_pots(
    state: State, finals: Finals | None = None
) -> tuple[list[PotResult], list[FeeLine]]:
    """Winners and shares of every pot, after the fees the policy takes out of them.

    The rake base is every chip in the pots except those returned (ruling caro-6 and the fees
    ruling); the fee note says that base ("5% of $178.25").
    """
    cfg = state.settings
    pots, back = final_pots(state) if finals is None else finals
    hands = best_hands(state)
    policy = cfg.policy if cfg.policy is not None else fee_setting_policy(cfg.fee)
    ctx = _fee_context(
        seats=cfg.seats,
        button=cfg.button,
        pot=sum(p.amount for p, returned in pots if not returned),
        saw_flop=state.saw_flip,
        smallest_chip=cfg.smallest_chip,
    )
    lines = pot_fees(policy, ctx)
    to_take = sum(line.amount for line in lines)
    results: list[PotResult] = []
    for i, (pot, returned) in enumerate(pots):
        fee = 0 if returned else min(to_take, pot.amount)
        to_take -= fee
        winners = pot.eligible if returned else _winners(pot, hands)
        shares = split_pot(
            pot.amount - fee,
            winners,
            seats=cfg.seats,
            button=cfg.button,
            smallest_chip=cfg.smallest_chip,
        )
        results.append(
            _pot_result(
                pot_name(i, len(pots)), pot.amount, pot.eligible, winners, fee, shares,
                returned,
            )
        )
    if back is not None:
        what = back.kind if back.kind and back.amount <= back.last else "chips"
        results.append(
            _pot_result(
                f"the uncalled {what}", back.amount, (back.seat,), (back.seat,), 0,
                {back.seat: back.amount}, True,
            )
        )
    return results, lines


#: ``PotResult(...)``, ``PushStep(...)`` and ``Settlement(...)`` without the frozen
#: constructors' cost: every replayed hand settles again.
_pot_result = builder(PotResult)
_uncalled = builder(Uncalled)
_pot = builder(Pot)
_fee_context = builder(FeeContext)
_push_step = builder(PushStep)
_settlement = builder(Settlement)


def settlement(state: State, finals: Finals | None = None) -> Settlement:
    """Put in, payouts, fees and the dealer's push steps; chips are conserved.

    ``finals``: the pots as an earlier rule built them (``_legacy``), for verify only.
    """
    if state.phase != OVER:
        raise RuleViolation("the hand is not over yet: nothing can be pushed")
    results, post = settle_pots(state, finals)
    fees = tuple(state.pre_fees) + tuple(post)
    put_in: dict[int, int] = {s.seat: s.hand_in for s in state.seats}
    for line in state.pre_fees:
        if line.from_seat is not None:
            put_in[line.from_seat] = put_in.get(line.from_seat, 0) + line.amount
    payouts: dict[int, int] = {s: 0 for s in state.settings.seats}
    for r in results:
        for seat, amount in r.shares.items():
            payouts[seat] += amount
    steps = push_steps(state, results, post)
    return _settlement(
        put_in=put_in,
        payouts=payouts,
        fees=fees,
        steps=tuple(steps),
        extra={"pots": [r.to_json() for r in results]},
    ).require_conserved()


def push_steps(state: State, results: list[PotResult], post: list[FeeLine]) -> list[PushStep]:
    """The dealer's steps: drop the fees first, then each pot from the main pot out."""
    steps: list[PushStep] = []

    def add(text: str, amount: int, to: int | None, kind: str) -> None:
        steps.append(_push_step(len(steps) + 1, text, amount, to, kind))

    for line in post:
        what = line.note if line.note and line.kind != "rake" else line.kind
        add(f"Drop {format_cents(line.amount)} {what}", line.amount, None, "fee")
    order = clockwise_from_button(state.settings.seats, state.settings.button)
    several = sum(1 for s in state.seats if not s.folded) > 1  # len(state.live()) > 1
    for r in results:
        net = r.amount - r.fee
        if net == 0:
            continue
        name = r.name
        if r.returned:
            seat = r.eligible[0]
            if name == "the uncalled chips":
                text = (f"Return {format_cents(net)} uncalled to seat {seat}: more than any "
                        "other player put in over the hand, so nobody could win it")
            elif name.startswith("the uncalled "):
                text = (f"Return {format_cents(net)} uncalled to seat {seat}: the part of its "
                        f"{name.removeprefix('the uncalled ')} nobody called")
            else:
                text = f"Return {name} {format_cents(net)} to seat {seat}: nobody else can win it"
            add(text, net, seat, "return")
            continue
        if len(r.winners) == 1:
            seat = r.winners[0]
            why = ": the others in it folded" if len(r.eligible) == 1 and several else ""
            add(f"Push {name} {format_cents(net)} to seat {seat}{why}", net, seat, "push")
            continue
        low = min(r.shares.values())
        add(
            f"Split {name} {format_cents(net)} between seats "
            + ", ".join(str(s) for s in r.winners),
            0,
            None,
            "split",
        )
        for seat in [s for s in order if s in r.shares]:
            amount = r.shares[seat]
            odd = " (with the odd chip)" if amount > low else ""
            add(f"  Push {format_cents(amount)} to seat {seat}{odd}", amount, seat, "push")
    return steps
