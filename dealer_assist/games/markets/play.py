"""The hand's start and each input's effect: :func:`step` returns the next state or raises
:class:`RuleViolation` naming the rule (a Markets poker ruling ``markets-N``, or the betting
engine's)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from dealer_assist.cards import Card, parse_card
from dealer_assist.engine import betting
from dealer_assist.engine import start as read
from dealer_assist.engine.betting import BettingRules, Structure
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Bet, Call, Check, Event, Fold, Raise, Show, Start
from dealer_assist.fees import FeeContext, pre_deal_fees
from dealer_assist.fees.table import table_policy
from dealer_assist.games.markets.events import (
    Advantage,
    Bid,
    Choose,
    Disclose,
    DrawOrder,
    Externality,
    Replace,
    Supplier,
    Withdraw,
)
from dealer_assist.games.markets.settle import draws_needed
from dealer_assist.games.markets.state import (
    ADVANTAGE,
    AUCTION,
    BETTING,
    CHOOSE,
    DISCLOSE,
    DRAW,
    EXTERNALITY,
    GAME_FLOOR,
    OVER,
    REPLACE,
    ROUND_MAX,
    SHOW,
    SUPPLIER,
    Auction,
    State,
)
from dealer_assist.money import format_cents

NAME = "markets"
#: The start settings a Markets poker hand takes (beside the fee and the smallest chip).
START_KEYS = ("dealer", "stacks", "chip", "advantage")


def violation(text: str, n: int) -> RuleViolation:
    """A refusal under Markets poker ruling ``n`` (RULINGS.md)."""
    return RuleViolation(text, rule=f"markets-{n}")


def chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def rules(chip: int) -> BettingRules:
    """No-limit, the smallest bet one chip, at most five chips a player in one round."""
    return BettingRules(structure=Structure.NO_LIMIT, min_bet=chip, max_in_round=ROUND_MAX * chip,
                        chip=chip)


def _advantage_in(start: Start, seats: tuple[int, ...]) -> dict[int, Card] | None:
    raw = start.get("advantage")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise BadInput('"advantage" gives the advantage card each seat kept: {"3": "7h"}')
    out: dict[int, Card] = {}
    for key, value in raw.items():
        try:
            seat = int(key)
        except ValueError:
            raise BadInput(f'"advantage" key {key!r} is not a seat number') from None
        if seat not in seats:
            raise RuleViolation(f'"advantage" names seat {seat}, which is not in the hand')
        if not isinstance(value, str):
            raise BadInput(f'"advantage" of seat {seat} must be a card like "7h"')
        card = parse_card(value)
        if card.is_joker:
            raise BadInput("Markets poker is played without jokers")
        if card in out.values():
            raise RuleViolation(f'"advantage" gives {card.code} to two seats')
        out[seat] = card
    return out


def start_state(start: Start) -> State:
    """The antes posted (two chips for the dealer and the player on the dealer's left, one for
    the others); on the first hand of a game every seat is dealt an advantage card next."""
    read.only(start, START_KEYS)
    seats = read.seats_between(start, low=3, high=5)
    dealer = read.button(start, seats, "dealer")
    chip = read.cents(start.get("chip", start.get("smallest_chip", 100)), "chip", low=1)
    if "stacks" not in start.params:
        raise RuleViolation('the start needs "stacks": each seat\'s chips in cents')
    cents = read.stacks(start, seats)
    stacks: dict[int, int] = {}
    for seat in seats:
        value = cents[seat]
        if value % chip:
            raise violation(
                f"seat {seat}'s stack of {format_cents(value)} is not a whole number of "
                f"{format_cents(chip)} chips: Markets poker is played in whole chips", 1)
        if value // chip < GAME_FLOOR:
            raise violation(
                f"seat {seat} has {chips(value // chip)}: a Markets poker game needs at least "
                f"{GAME_FLOOR} chips each (below that the game is over); top the stack up or "
                "leave the seat out", 1)
        stacks[seat] = value
    advantage = _advantage_in(start, seats)
    order = from_left(seats, dealer)
    policy = table_policy(start)
    pre = tuple(pre_deal_fees(policy, FeeContext(seats=seats, button=dealer, smallest_chip=chip)))
    behind = dict(stacks)
    for line in pre:
        assert line.from_seat is not None
        if line.amount % chip:
            raise RuleViolation(
                f"the table's {line.kind} of {format_cents(line.amount)} is not a whole number "
                f"of {format_cents(chip)} chips: Markets poker is played in whole chips; make "
                "the fee a multiple of the chip", rule="fees")
        if behind[line.from_seat] - line.amount < 3 * chip:
            raise violation(
                f"seat {line.from_seat} has {chips(behind[line.from_seat] // chip)}: not enough "
                f"to pay the {line.kind} of {format_cents(line.amount)} and the ante", 1)
        behind[line.from_seat] -= line.amount
    antes = {s: (2 if s in (dealer, order[0]) else 1) * chip for s in seats}
    bet = betting.start(rules(chip), seats=seats, button=dealer, stacks=behind, antes=antes)
    first = advantage is None
    return State(
        policy=policy, pre_fees=pre,
        seats=seats, dealer=dealer, chip=chip, order=order,
        stacks_in=MappingProxyType({s: v // chip for s, v in stacks.items()}),
        first=first, bet=bet, phase=ADVANTAGE if first else DISCLOSE,
        advantage=MappingProxyType(advantage or {}),
        known=frozenset((advantage or {}).values()),
    )


def next_step(state: State) -> str:
    """What the dealer does next, in words (for a refusal and the prompt)."""
    p = state.phase
    if p == ADVANTAGE:
        return f"deal seat {state.to_deal_advantage()} its advantage card face up"
    if p == DISCLOSE:
        return f"deal the products: seat {state.to_disclose()}'s disclosure is next"
    if p == SUPPLIER:
        return "deal the supplier card face up in the middle"
    if p == EXTERNALITY:
        return ("deal the first externality card" if not state.externalities
                else "deal the second externality card")
    if p == BETTING:
        return f"seat {state.bet.seat_to_act} is to act in the betting"
    if p == AUCTION:
        assert state.auction is not None
        return f"the supplier auction: seat {state.auction.turn} bids or withdraws"
    if p == REPLACE:
        return f"seat {state.buyer} gives up one product card for the supplier"
    if p == SHOW:
        return f"seat {state.to_show()} shows its five product cards"
    if p == DRAW:
        return "the app draws who gets the leftover chips of a shared half"
    if p == CHOOSE:
        return f"seat {state.to_choose()} (folded) chooses its advantage card for the next hand"
    return "the hand is over: settle it"


def _not_now(state: State, event: Event) -> RuleViolation:
    return RuleViolation(f'"{event.TYPE}" is not next: {next_step(state)}')


def _new_card(state: State, card: Card, what: str, *, also: frozenset[Card] = frozenset()
              ) -> None:
    if card.is_joker:
        raise BadInput("Markets poker is played without jokers")
    if card in state.known and card not in also:
        raise RuleViolation(f"{card.code} is already out in this hand: {what} cannot be it")


def _seat_turn(state: State, seat: int, want: int | None, what: str, n: int) -> None:
    if seat != want:
        raise violation(f"{what}: seat {want} is next, not seat {seat}", n)


def step(state: State, event: Event) -> State:
    """The state after ``event``, or a :class:`RuleViolation` saying why not."""
    if state.phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    seat = event.seat_of
    if seat is not None and seat not in state.seats:
        raise RuleViolation(f"seat {seat} is not in this hand")
    handler = _HANDLERS.get(state.phase)
    assert handler is not None
    return handler(state, event)


def _advantage(state: State, event: Event) -> State:
    if not isinstance(event, Advantage):
        raise _not_now(state, event)
    _seat_turn(state, event.seat, state.to_deal_advantage(),
               "advantage cards go round from the dealer's left", 2)
    _new_card(state, event.card, f"seat {event.seat}'s advantage card")
    adv = MappingProxyType({**state.advantage, event.seat: event.card})
    moved = replace(state, advantage=adv, known=state.known | {event.card})
    return replace(moved, phase=ADVANTAGE if moved.to_deal_advantage() else DISCLOSE)


def _disclose(state: State, event: Event) -> State:
    if isinstance(event, Advantage):
        raise violation("an advantage card is dealt only on the first hand of a game; later "
                        "only a player who folded the last hand has one, carried in", 2)
    if not isinstance(event, Disclose):
        raise _not_now(state, event)
    _seat_turn(state, event.seat, state.to_disclose(),
               "the products are dealt from the dealer's left", 3)
    _new_card(state, event.card, f"seat {event.seat}'s disclosure")
    shown = MappingProxyType({**state.disclosed, event.seat: event.card})
    moved = replace(state, disclosed=shown, known=state.known | {event.card})
    return replace(moved, phase=DISCLOSE if moved.to_disclose() else SUPPLIER)


def _supplier(state: State, event: Event) -> State:
    if not isinstance(event, Supplier):
        raise _not_now(state, event)
    _new_card(state, event.card, "the supplier")
    return replace(state, supplier=event.card, known=state.known | {event.card},
                   phase=EXTERNALITY)


def _externality(state: State, event: Event) -> State:
    if not isinstance(event, Externality):
        raise _not_now(state, event)
    _new_card(state, event.card, "an externality")
    moved = replace(state, externalities=(*state.externalities, event.card),
                    known=state.known | {event.card})
    bet = moved.bet if len(moved.externalities) == 1 else betting.next_round(moved.bet)
    return _after_betting(replace(moved, bet=bet, phase=BETTING))


def _betting(state: State, event: Event) -> State:
    if isinstance(event, Externality):
        raise violation(f"the betting round is not over: {next_step(state)}", 3)
    if not isinstance(event, (Check, Call, Fold, Bet, Raise)):
        raise _not_now(state, event)
    seat = event.seat
    try:
        if isinstance(event, (Bet, Raise)):
            to = event.to
            if to is None:
                raise violation(f'say how many chips: a {event.TYPE} gives "to", the seat\'s '
                                "total in chips in this betting round", 3)
            if isinstance(to, bool) or not isinstance(to, int):
                raise BadInput(f'"to" must be a whole number of chips, not {to!r}')
            total = to * state.chip
            bet = (betting.bet(state.bet, seat, to=total) if isinstance(event, Bet)
                   else betting.raise_to(state.bet, seat, to=total))
        elif isinstance(event, Check):
            bet = betting.check(state.bet, seat)
        elif isinstance(event, Call):
            bet = betting.call(state.bet, seat)
        else:
            bet = betting.fold(state.bet, seat)
    except RuleViolation as refusal:
        if refusal.rule and refusal.rule.startswith("markets-"):
            raise
        raise violation(refusal.message, 3) from refusal
    return _after_betting(replace(state, bet=bet))


def _after_betting(state: State) -> State:
    bet = state.bet
    if bet.hand_over:  # play stops at once: no auction, no show (ruling markets-4)
        return replace(state, phase=CHOOSE)
    if bet.to_act is not None:
        return replace(state, phase=BETTING)
    if len(state.externalities) < 2:
        return replace(state, phase=EXTERNALITY)
    bidders = bet.live
    return replace(state, phase=AUCTION, auction=Auction(bidders=bidders, turn=bidders[0]))


def _next_bidder(auction: Auction, after: int) -> int | None:
    """The next seat to bid after ``after``: None when the auction is over (everyone else
    withdrew from the highest bid, or everyone withdrew)."""
    order = auction.bidders
    k = order.index(after)
    for j in range(1, len(order) + 1):
        s = order[(k + j) % len(order)]
        if s in auction.withdrawn:
            continue
        if auction.high is not None and s == auction.high[0]:
            return None
        return s
    return None


def _auction(state: State, event: Event) -> State:
    auction = state.auction
    assert auction is not None and auction.turn is not None
    if isinstance(event, (Check, Call, Fold, Bet, Raise)):
        raise violation("the betting is over: the supplier auction is on, "
                        f"seat {auction.turn} bids or withdraws", 4)
    if not isinstance(event, (Bid, Withdraw)):
        raise _not_now(state, event)
    seat = event.seat
    if seat not in auction.bidders:
        raise violation(f"seat {seat} folded: only players still in bid for the supplier", 4)
    if seat in auction.withdrawn:
        raise violation(f"seat {seat} has withdrawn from the auction: a withdrawal is final", 4)
    _seat_turn(state, seat, auction.turn, "the auction goes clockwise from the dealer's left",
               4)
    if isinstance(event, Withdraw):
        moved = replace(auction, withdrawn=auction.withdrawn | {seat},
                        bids=(*auction.bids, (seat, None)))
    else:
        n = event.chips
        if isinstance(n, bool) or not isinstance(n, int):
            raise BadInput(f'"chips" must be a whole number of chips, not {n!r}')
        low = 1 if auction.high is None else auction.high[1] + 1
        if n < low:
            why = ("the smallest bid is 1 chip" if auction.high is None else
                   f"each bid is higher than the last: seat {auction.high[0]} bid "
                   f"{chips(auction.high[1])}")
            raise violation(f"{why}: bid at least {chips(low)}, or withdraw", 4)
        behind = state.behind(seat)
        if n > behind:
            raise violation(f"seat {seat} has {chips(behind)} behind: it cannot bid "
                            f"{chips(n)}", 4)
        moved = replace(auction, high=(seat, n), bids=(*auction.bids, (seat, n)))
    moved = replace(moved, turn=_next_bidder(moved, seat))
    done = replace(state, auction=moved)
    if moved.turn is not None:
        return done
    return replace(done, phase=REPLACE if done.buyer is not None else SHOW)


def _replace(state: State, event: Event) -> State:
    buyer = state.buyer
    assert buyer is not None
    if not isinstance(event, Replace):
        raise _not_now(state, event)
    if event.seat != buyer:
        raise violation(f"seat {buyer} bought the supplier: only seat {buyer} replaces a "
                        "product card", 4)
    card = event.card
    if card == state.supplier:
        raise violation("the card given up is one of the buyer's five product cards, not the "
                        "supplier itself", 4)
    own = state.disclosed.get(buyer)
    _new_card(state, card, f"seat {buyer}'s product card",
              also=frozenset(() if own is None else (own,)))
    return replace(state, replaced=card, known=state.known | {card}, phase=SHOW)


def _show(state: State, event: Event) -> State:
    if not isinstance(event, Show):
        raise _not_now(state, event)
    seat = event.seat
    if seat not in state.live:
        raise violation(f"seat {seat} folded: a folded player keeps its cards and does not "
                        "show", 3)
    _seat_turn(state, seat, state.to_show(), "the players still in show from the dealer's left",
               5)
    cards = tuple(event.cards)
    if len(cards) != 5:
        raise violation(f"seat {seat} shows its five product cards, not {len(cards)}", 5)
    if len(set(cards)) != 5:
        raise RuleViolation(f"seat {seat}'s show names the same card twice")
    up = state.product_face_up(seat)
    for card in up:
        if card not in cards:
            what = "the supplier it bought" if card == state.supplier else "its disclosure"
            raise violation(f"seat {seat}'s product holds {what}, {card.code}: show it among "
                            "the five", 5)
    if seat == state.buyer and state.replaced in cards:
        assert state.replaced is not None
        raise violation(f"seat {seat} gave up {state.replaced.code} for the supplier: it is "
                        "no longer in its product", 4)
    for card in cards:
        _new_card(state, card, f"seat {seat}'s product", also=frozenset(up))
    moved = replace(state, shown=MappingProxyType({**state.shown, seat: cards}),
                    known=state.known | set(cards))
    if moved.to_show() is not None:
        return moved
    return _after_shows(moved)


def _after_shows(state: State) -> State:
    if len(state.draws) < len(draws_needed(state)):
        return replace(state, phase=DRAW)
    return _to_choose(state)


def _to_choose(state: State) -> State:
    return replace(state, phase=CHOOSE if state.to_choose() is not None else OVER)


def _draw(state: State, event: Event) -> State:
    if not isinstance(event, DrawOrder):
        raise _not_now(state, event)
    name, group = draws_needed(state)[len(state.draws)]
    order = tuple(event.order)
    if sorted(order) != sorted(group) or len(order) != len(group):
        half = "market leader's" if name == "leader" else "niche's"
        raise violation(f"the draw for the {half} half orders the tied seats "
                        f"{', '.join(map(str, group))}, each once", 6)
    return _after_shows(replace(state, draws=(*state.draws, order)))


def _choose(state: State, event: Event) -> State:
    if not isinstance(event, Choose):
        raise _not_now(state, event)
    want = state.to_choose()
    if event.seat in state.live:
        raise violation(f"seat {event.seat} did not fold: only a player who folded chooses an "
                        "advantage card for the next hand", 2)
    _seat_turn(state, event.seat, want, "folded players choose from the dealer's left", 2)
    own = state.disclosed.get(event.seat)
    _new_card(state, event.card, f"seat {event.seat}'s advantage card (one of its own "
              "product cards)", also=frozenset(() if own is None else (own,)))
    moved = replace(state, chosen=MappingProxyType({**state.chosen, event.seat: event.card}),
                    known=state.known | {event.card})
    return _to_choose(moved)


_HANDLERS = {
    ADVANTAGE: _advantage, DISCLOSE: _disclose, SUPPLIER: _supplier, EXTERNALITY: _externality,
    BETTING: _betting, AUCTION: _auction, REPLACE: _replace, SHOW: _show, DRAW: _draw,
    CHOOSE: _choose,
}
