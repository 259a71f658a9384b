"""The market leader, the niche, the auction's shares and the pot paid in two halves.

All in chips (the betting engine works in cents, whole chips only); the settlement turns chips
into cents with the chip's value. The price of the supplier is shared equally among every player
of the hand (folded players and the buyer included), whole chips only, the remainder going to
the pot. The pot is halved, the odd chip to
the leader's half; a half shared by several seats is split in whole chips and its leftover
chips go one each to the tied seats in the order the app drew and recorded (``draw``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dealer_assist.cards import SUIT_STRENGTH, Card
from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.evaluate import HandValue, evaluate
from dealer_assist.fees import FeeContext, down_to_chip, pot_fees
from dealer_assist.games.markets.state import GAME_FLOOR, State
from dealer_assist.money import format_cents


def points(card: Card) -> int:
    """A card's niche points: a two 15, an ace 1, tens and face cards 10, the others their
    pips (ruling markets-5)."""
    if card.rank == 2:
        return 15
    if card.rank == 14:
        return 1
    return min(card.rank, 10)


def niche_points(product: tuple[Card, ...], advantage: Card | None) -> int:
    """The product's points, the advantage card taking the place of one product card when that
    scores more."""
    total = sum(points(c) for c in product)
    if advantage is None:
        return total
    return max(total, total - min(points(c) for c in product) + points(advantage))


def advantage_rank(card: Card | None) -> tuple[int, int]:
    """How an advantage card breaks a niche tie: aces high, then spades, hearts, diamonds,
    clubs; no card below every card."""
    return (0, 0) if card is None else (card.rank, SUIT_STRENGTH[card.suit])


def product(state: State, seat: int) -> tuple[Card, ...]:
    return state.shown.get(seat, ())


def best_hands(state: State) -> dict[int, HandValue]:
    """Each shown seat's best five of its product, its advantage card and the externalities."""
    out: dict[int, HandValue] = {}
    for seat, cards in state.shown.items():
        adv = state.advantage.get(seat)
        pool = (*cards, *state.externalities, *((adv,) if adv is not None else ()))
        out[seat] = evaluate(pool)
    return out


def niches(state: State) -> dict[int, int]:
    """Each shown seat's niche points."""
    return {s: niche_points(c, state.advantage.get(s)) for s, c in state.shown.items()}


def leader_seats(state: State) -> tuple[int, ...]:
    """The market leader (several when their hands tie), clockwise from the dealer's left."""
    if len(state.live) == 1:
        return state.live
    hands = best_hands(state)
    if len(hands) < len(state.live):
        return ()
    top = max(h.strength for h in hands.values())
    return tuple(s for s in state.live if hands[s].strength == top)


def niche_seats(state: State) -> tuple[int, ...]:
    """The niche: the most points; a tie goes to the higher advantage card (a seat with one
    beats a seat without); otherwise shared."""
    if len(state.live) == 1:
        return state.live
    found = niches(state)
    if len(found) < len(state.live):
        return ()
    top = max(found.values())
    tied = [s for s in state.live if found[s] == top]
    with_card = [s for s in tied if s in state.advantage]
    if len(tied) > 1 and with_card:
        return (max(with_card, key=lambda s: advantage_rank(state.advantage.get(s))),)
    return tuple(tied)


def auction_split(state: State) -> tuple[dict[int, int], int]:
    """Each seat's share of the supplier's price, and the remainder to the pot (chips)."""
    price = state.price
    n = len(state.seats)
    each = price // n
    return {s: each for s in state.seats}, price - each * n


def pot_chips(state: State) -> int:
    """The pot in chips: antes and called bets, and the auction's remainder."""
    bet = state.bet
    return (sum(bet.put_in) - sum(bet.returned)) // state.chip + auction_split(state)[1]


def house_lines(state: State) -> tuple[FeeLine, ...]:
    """The fees out of the pot (fees ruling): a rake or a collection, then a jackpot or
    promotional drop, worked out on the pot in cents and rounded down to whole chips. "No flop,
    no drop" reads as: no fee from a hand that ended in the first betting round (before the
    second externality card)."""
    if state.policy is None or (state.policy.before_deal and state.policy.jackpot is None):
        return ()
    chip = state.chip
    lines = pot_fees(state.policy, FeeContext(
        seats=state.seats, button=state.dealer, pot=pot_chips(state) * chip,
        saw_flop=len(state.externalities) >= 2, smallest_chip=chip))
    out = []
    for line in lines:
        amount = down_to_chip(line.amount, chip)
        if amount:
            out.append(FeeLine(line.kind, amount, None, line.note, line.base))
    return tuple(out)


def halves(state: State) -> tuple[int, int]:
    """(the leader's half, the niche's half) of the pot after the house's fee: the odd chip to
    the leader's half."""
    pot = pot_chips(state) - sum(f.amount for f in house_lines(state)) // state.chip
    return pot - pot // 2, pot // 2


def draws_needed(state: State) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """("leader" or "niche", its tied seats) for each shared half whose chips do not split
    evenly, the leader's half first: each needs a draw, recorded in this order."""
    if len(state.live) == 1:
        return ()
    return _draws(leader_seats(state), niche_seats(state), halves(state))


def _draws(leader: tuple[int, ...], niche: tuple[int, ...],
           chips: tuple[int, int]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """:func:`draws_needed` of the seats and halves already worked out."""
    out = []
    for name, group, half in zip(("leader", "niche"), (leader, niche), chips, strict=True):
        if len(group) > 1 and half % len(group):
            out.append((name, group))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Split:
    """One half paid: its chips, its seats, each seat's chips, the draw's order if any."""

    name: str
    chips: int
    seats: tuple[int, ...]
    shares: Mapping[int, int]
    order: tuple[int, ...] = ()


def _split(name: str, chips: int, seats: tuple[int, ...], order: tuple[int, ...]) -> Split:
    each = chips // len(seats)
    left = chips - each * len(seats)
    shares = dict.fromkeys(seats, each)
    for s in order[:left]:
        shares[s] += 1
    return Split(name, chips, seats, shares, order if left else ())


def splits(state: State) -> tuple[Split, Split]:
    """The two halves paid (the hand must be finished: shows and draws done)."""
    chips = halves(state)
    leader_half, niche_half = chips
    if len(state.live) == 1:
        seat = state.live
        return (_split("leader", leader_half, seat, ()), _split("niche", niche_half, seat, ()))
    leader, niche = leader_seats(state), niche_seats(state)  # (each hand valued once)
    orders = {name: state.draws[k] for k, (name, _) in enumerate(_draws(leader, niche, chips))
              if k < len(state.draws)}
    return (_split("leader", leader_half, leader, orders.get("leader", ())),
            _split("niche", niche_half, niche, orders.get("niche", ())))


def won(state: State) -> dict[int, int]:
    """Chips each seat takes from the pot."""
    out = dict.fromkeys(state.seats, 0)
    for half in splits(state):
        for s, c in half.shares.items():
            out[s] += c
    return out


def settlement(state: State) -> Settlement:
    """The hand in cents: what each seat put in (antes, bets, the price it paid), what is pushed
    to it (its share of the price, its uncalled chips, its part of the pot), in push steps."""
    chip = state.chip
    bet = state.bet
    shares, remainder = auction_split(state)
    buyer, price = state.buyer, state.price
    paid = won(state)
    put_in: dict[int, int] = {}
    payouts: dict[int, int] = {}
    for i, s in enumerate(bet.seats):
        put_in[s] = bet.put_in[i] + (price * chip if s == buyer else 0)
        payouts[s] = bet.returned[i] + (shares[s] + paid[s]) * chip
    for line in state.pre_fees:
        if line.from_seat is not None:
            put_in[line.from_seat] += line.amount
    house = house_lines(state)
    steps: list[PushStep] = []

    def push(text: str, chips: int, seat: int | None, kind: str = "push") -> None:
        steps.append(PushStep(len(steps) + 1, text, chips * chip, seat, kind))

    def amount(chips: int) -> str:
        return f"{chips} chip{'' if chips == 1 else 's'} ({format_cents(chips * chip)})"

    for i, s in enumerate(bet.seats):
        if bet.returned[i]:
            back = bet.returned[i] // chip
            push(f"Return seat {s}'s uncalled {amount(back)}", back, s, "return")
    if buyer is not None:
        each = shares[buyer]
        for s in bet.seats:
            if each:
                push(f"Auction: seat {buyer}'s {amount(price)} for the supplier: "
                     f"{amount(each)} to seat {s}", each, s)
        if remainder:
            push(f"Auction: the remaining {amount(remainder)} of the price into the pot",
                 0, None, "note")
    for line in house:
        push(f"Drop {amount(line.amount // chip)} {line.kind} from the pot ({line.note})",
             line.amount // chip, None, "fee")
    for half in splits(state):
        for s in half.seats:
            c = half.shares[s]
            who = "market leader" if half.name == "leader" else "niche"
            push(f"Push the {who}'s half: {amount(c)} to seat {s}", c, s)
    if not steps:
        steps.append(PushStep(1, "Nothing to push", 0, None, "note"))
    return Settlement(put_in=put_in, payouts=payouts, fees=state.pre_fees + house,
                      steps=tuple(steps)).require_conserved()


def stacks_left(state: State) -> dict[int, int]:
    """Each seat's cents behind: its stack less what it put in (the buyer's price included);
    with the settlement's pushes, what it takes to the next hand."""
    bet = state.bet
    out = {s: bet.stacks[i] - bet.returned[i] for i, s in enumerate(bet.seats)}
    buyer = state.buyer
    if buyer is not None:
        out[buyer] -= state.price * state.chip
    return out


def stacks_after(state: State) -> dict[int, int]:
    """Each seat's cents after the finished hand."""
    pushed = settlement(state).payouts
    return {s: c + pushed.get(s, 0) for s, c in stacks_left(state).items()}


def short_seats(state: State) -> tuple[int, ...]:
    """Seats that end the finished hand below the game's floor of chips: the game is over."""
    floor = GAME_FLOOR * state.chip
    return tuple(s for s, c in stacks_after(state).items() if c < floor)
