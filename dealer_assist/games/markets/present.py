"""What the dealer sees: the prompt with each legal action (the auction as its own step with the
current bid and who may still bid; the leader and the niche worked out before the pot moves),
the table, the ``replay --json`` report and the replay's words."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine import betting
from dealer_assist.engine.base import Action, Prompt, SeatView, TableView
from dealer_assist.engine.inputs import Amount, Cards, Drawn
from dealer_assist.events import Bet, Call, Check, Event, Fold, Raise, Show
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
from dealer_assist.games.markets.play import chips, next_step
from dealer_assist.games.markets.settle import (
    auction_split,
    best_hands,
    draws_needed,
    halves,
    leader_seats,
    niche_seats,
    niches,
    pot_chips,
    settlement,
    short_seats,
    splits,
    stacks_after,
    stacks_left,
)
from dealer_assist.games.markets.state import (
    ADVANTAGE,
    AUCTION,
    BETTING,
    CHOOSE,
    DISCLOSE,
    DRAW,
    EXTERNALITY,
    OVER,
    REPLACE,
    SHOW,
    SUPPLIER,
    State,
)
from dealer_assist.money import format_cents as money

TITLE = "Markets poker"
ONE = Cards(1, 1, field="card")
_KEYS = {"check": "k", "call": "c", "bet": "b", "raise": "r", "fold": "f"}


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def _betting_prompt(state: State) -> Prompt:
    opts = betting.options(state.bet)
    assert opts is not None
    chip = state.chip
    actions: list[Action] = []
    for c in opts.choices:
        if c.kind not in _KEYS:
            continue  # (an all-in is a call, bet or raise of whole chips here)
        if c.kind in ("bet", "raise"):
            assert c.low is not None and c.high is not None
            low, high = c.low // chip, c.high // chip
            span = chips(low) if low == high else f"{low}-{high} chips"
            label = f"Bet {span}" if c.kind == "bet" else f"Raise to {span}"
            actions.append(Action(c.kind, label, opts.seat, c.amount, _KEYS[c.kind],
                                  input=Amount("to", low, high, money=False)))
        elif c.kind == "call":
            actions.append(Action("call", f"Call {chips(c.amount // chip)}", opts.seat,
                                  c.amount, "c"))
        else:
            actions.append(Action(c.kind, c.kind.capitalize(), opts.seat, 0, _KEYS[c.kind]))
    i = state.bet.index(opts.seat)
    rnd = "first" if state.bet.round == 0 else "second"
    message = (f"Seat {opts.seat} to act ({rnd} betting round, {chips(state.behind(opts.seat))} "
               f"behind, {chips(state.bet.in_round[i] // chip)} in this round, pot "
               f"{chips(pot_chips(state))}; at most 5 chips a player a round)")
    notes = (opts.note,) if opts.note else ()
    return Prompt(BETTING, opts.seat, message, tuple(actions), notes)


def auction_lines(state: State) -> tuple[str, ...]:
    """The auction as the table sees it: the current bid and who may still bid."""
    a = state.auction
    if a is None:
        return ()
    still = tuple(s for s in a.bidders if s not in a.withdrawn)
    high = ("no bid yet (the smallest bid is 1 chip)" if a.high is None
            else f"seat {a.high[0]} bids {chips(a.high[1])}")
    out = [f"Supplier {state.supplier.code if state.supplier else '?'}: {high}"]
    if a.turn is not None:
        out.append(f"may still bid: {_seats(still)}")
        if a.withdrawn:
            out.append(f"withdrawn: {_seats(tuple(s for s in a.bidders if s in a.withdrawn))}")
    elif a.high is None:
        out.append("no sale: everyone withdrew")
    else:
        shares, rest = auction_split(state)
        each = next(iter(shares.values()))
        out.append(f"sold to seat {a.high[0]} for {chips(a.high[1])}: {chips(each)} to each "
                   f"player, {chips(rest)} to the pot")
    return tuple(out)


def result_lines(state: State) -> tuple[str, ...]:
    """The leader and the niche, worked out once every hand still in is shown."""
    if len(state.live) == 1:
        return (f"Seat {state.live[0]} is the only player left: it takes the whole pot, "
                f"{chips(sum(halves(state)))}",)
    if state.to_show() is not None:
        return ()
    hands = best_hands(state)
    pts = niches(state)
    lead, niche = leader_seats(state), niche_seats(state)
    lh, nh = halves(state)
    out = [f"Market leader: {_seats(lead)} ({hands[lead[0]].description}), half of "
           f"{chips(lh)}",
           f"Niche: {_seats(niche)} ({pts[niche[0]]} points), half of {chips(nh)}"]
    out.append("Points: " + ", ".join(f"seat {s} {pts[s]}" for s in state.live))
    return tuple(out)


def prompt(state: State) -> Prompt:
    p = state.phase
    msg = next_step(state)
    msg = msg[0].upper() + msg[1:]
    if p == ADVANTAGE:
        s = state.to_deal_advantage()
        return Prompt(p, s, msg, (Action("advantage", f"Seat {s}'s advantage card", s, key="a",
                                         input=ONE),),
                      ("First hand of the game: every player gets an advantage card face up",))
    if p == DISCLOSE:
        s = state.to_disclose()
        return Prompt(p, s, msg + " (five product cards each, the first face up)",
                      (Action("disclose", f"Seat {s}'s disclosure", s, key="d", input=ONE),))
    if p == SUPPLIER:
        return Prompt(p, None, msg + ", marked with a chip",
                      (Action("supplier", "Supplier card", key="s", input=ONE),))
    if p == EXTERNALITY:
        return Prompt(p, None, msg + " face up in the middle",
                      (Action("externality", "Externality card", key="e", input=ONE),))
    if p == BETTING:
        return _betting_prompt(state)
    if p == AUCTION:
        a = state.auction
        assert a is not None and a.turn is not None
        s = a.turn
        low = 1 if a.high is None else a.high[1] + 1
        behind = state.behind(s)
        can = behind >= low
        return Prompt(p, s, f"Supplier auction: seat {s} bids at least {chips(low)} or "
                      "withdraws (a withdrawal is final)", (
                          Action("bid", f"Seat {s} bids", s, key="b", enabled=can,
                                 reason="" if can else f"seat {s} has {chips(behind)} behind",
                                 input=Amount("chips", low, max(low, behind), money=False)),
                          Action("withdraw", f"Seat {s} withdraws", s, key="w"),
                      ), auction_lines(state))
    if p == REPLACE:
        s = state.buyer
        return Prompt(p, s, msg + f" ({state.supplier.code if state.supplier else ''}); "
                      "a disclosure replaced leaves the supplier face up",
                      (Action("replace", f"Seat {s} gives up", s, key="r", input=ONE),),
                      auction_lines(state))
    if p == SHOW:
        s = state.to_show()
        return Prompt(p, s, msg, (Action("show", f"Seat {s} shows", s, key="s",
                                         input=Cards(5, 5)),), auction_lines(state))
    if p == DRAW:
        name, group = draws_needed(state)[len(state.draws)]
        half = "market leader's" if name == "leader" else "niche's"
        return Prompt(p, None, f"The {half} half is shared by {_seats(group)}: the app draws "
                      "the order for the leftover chips and shows it to the table",
                      (Action("draw", "Draw the order", key="d",
                              input=Drawn("order", among=group)),),
                      result_lines(state))
    if p == CHOOSE:
        s = state.to_choose()
        return Prompt(p, s, msg + " (any card of its own product)",
                      (Action("choose", f"Seat {s} chooses", s, key="c", input=ONE),),
                      result_lines(state))
    r = settlement(state)
    pushed = "; ".join(f"seat {s} {money(c)}" for s, c in sorted(r.payouts.items()) if c)
    lines = result_lines(state)
    short = short_seats(state)
    if short:
        lines = (*lines, f"Game over: {_seats(short)} ended below 12 chips; the next hand "
                 "starts a new game")
    return Prompt(OVER, None, f"Hand over: push {pushed or 'nothing'}", (), lines, True)


def view(state: State, *, reveal: bool = False) -> TableView:
    bet = state.bet
    chip = state.chip
    left = stacks_left(state)
    seats = []
    to_act = _to_act(state)
    for i, s in enumerate(bet.seats):
        out = bet.folded[i]
        shown = state.shown.get(s)
        up = state.product_face_up(s)
        cards = shown if shown is not None else up
        adv = state.advantage.get(s)
        if out:
            status = "folded"
        elif s == to_act:
            status = "to act"
        else:
            status = "shown" if shown else ""
        notes = []
        if adv is not None:
            notes.append(f"advantage {adv.code}")
        if s == state.buyer:
            notes.append(f"bought the supplier for {chips(state.price)}")
        if s in state.chosen:
            notes.append(f"keeps {state.chosen[s].code} for the next hand")
        seats.append(SeatView(
            seat=s, cards=tuple(c.code for c in cards),
            hidden=0 if shown else max(0, 5 - len(up)) if s in state.disclosed else 0,
            status=status, detail=f"{chips(left[s] // chip)} behind",
            put_in=bet.put_in[i] - bet.returned[i], stack=left[s],
            note="; ".join(notes), face_down=out, to_act=s == to_act,
        ))
    middle = (() if state.supplier is None or state.replaced is not None
              else (state.supplier,))
    board = tuple(c.code for c in middle + state.externalities)
    info = [TITLE, f"chip {money(chip)}"]
    if state.supplier is not None:
        info.append(f"supplier {state.supplier.code}"
                    + (f" (bought by seat {state.buyer})" if state.buyer else ""))
    info.extend(auction_lines(state))
    info.extend(result_lines(state) if state.phase in (DRAW, CHOOSE, OVER) else ())
    return TableView(game="markets", seats=tuple(seats), to_act=to_act, button=state.dealer,
                     board=board, pots=(("Pot", pot_chips(state) * chip),), info=tuple(info))


def _to_act(state: State) -> int | None:
    p = state.phase
    if p == BETTING:
        return state.bet.seat_to_act
    if p == AUCTION:
        return state.auction.turn if state.auction else None
    return {ADVANTAGE: state.to_deal_advantage, DISCLOSE: state.to_disclose,
            REPLACE: lambda: state.buyer, SHOW: state.to_show,
            CHOOSE: state.to_choose}.get(p, lambda: None)()


def _act_json(a: betting.Act, chip: int) -> dict[str, Any]:
    return {"seat": a.seat, "type": a.kind, "amount": a.amount, "to": a.to,
            "to_chips": a.to // chip, "round": a.round + 1}


def report(state: State) -> dict[str, Any]:
    """The game's part of ``replay --json``: every amount in cents."""
    bet = state.bet
    chip = state.chip
    out: dict[str, Any] = {
        "dealer": state.dealer,
        "chip": chip,
        "advantage": {str(s): c.code for s, c in sorted(state.advantage.items())},
        "disclosed": {str(s): c.code for s, c in sorted(state.disclosed.items())},
        "supplier": state.supplier.code if state.supplier else None,
        "externalities": [c.code for c in state.externalities],
        "actions": [_act_json(a, chip) for a in bet.log],
        "folded": list(state.folded),
        "put_in": {str(s): bet.put_in[i] - bet.returned[i] for i, s in enumerate(bet.seats)},
    }
    a = state.auction
    if a is not None:
        shares, rest = auction_split(state)
        out["auction"] = {
            "bids": [{"seat": s, "chips": n} if n is not None else {"seat": s, "withdraw": True}
                     for s, n in a.bids],
            "buyer": state.buyer,
            "price": state.price * chip,
            "shares": {str(s): c * chip for s, c in shares.items()} if state.buyer else {},
            "remainder": rest * chip,
            "replaced": state.replaced.code if state.replaced else None,
        }
    if state.phase != OVER:
        return out
    hands = best_hands(state)
    lead_half, niche_half = splits(state)
    out["leader"] = {
        "seats": list(lead_half.seats), "half": lead_half.chips * chip,
        "shares": {str(s): c * chip for s, c in lead_half.shares.items()},
        "best_hands": {str(s): {"cards": [c.code for c in v.cards], "category": v.category,
                                "description": v.description} for s, v in hands.items()},
    }
    out["niche"] = {
        "seats": list(niche_half.seats), "half": niche_half.chips * chip,
        "shares": {str(s): c * chip for s, c in niche_half.shares.items()},
        "points": {str(s): p for s, p in niches(state).items()},
    }
    out["draws"] = [list(d) for d in state.draws]
    out["chosen"] = {str(s): c.code for s, c in state.chosen.items()}
    s = settlement(state)
    out["payouts"] = {str(k): v for k, v in s.payouts.items() if v}
    out["carry"] = carry(state)
    out["game_over"] = bool(short_seats(state))
    out["stacks_after"] = {str(k): v for k, v in sorted(stacks_after(state).items())}
    return out


def carry(state: State) -> dict[str, Any]:
    """What the next hand of the same game takes from this one: the advantage cards the folded
    players chose (written even when there are none); nothing once the game is over."""
    if short_seats(state):
        return {}
    return {"advantage": {str(s): c.code for s, c in sorted(state.chosen.items())}}


def narrate(before: State, event: Event, after: State) -> list[str]:
    """Lines a dealer reads for one step."""
    lines: list[str] = []
    chip = after.chip
    if isinstance(event, Advantage):
        lines.append(f"Seat {event.seat}'s advantage card: {event.card.code} (face up)")
    elif isinstance(event, Disclose):
        lines.append(f"Seat {event.seat}'s product, disclosure {event.card.code} face up")
    elif isinstance(event, Supplier):
        lines.append(f"Supplier: {event.card.code}, marked with a chip")
    elif isinstance(event, Externality):
        lines.append(f"Externality: {event.card.code}")
    elif isinstance(event, Bid):
        lines.append(f"Seat {event.seat} bids {chips(event.chips)} for the supplier")
    elif isinstance(event, Withdraw):
        lines.append(f"Seat {event.seat} withdraws from the auction")
    elif isinstance(event, Replace):
        lines.append(f"Seat {event.seat} gives up {event.card.code} for the supplier")
    elif isinstance(event, Show):
        lines.append(f"Seat {event.seat} shows " + " ".join(c.code for c in event.cards))
    elif isinstance(event, DrawOrder):
        lines.append("The app's draw for the leftover chips: "
                     + ", ".join(f"seat {s}" for s in event.order))
    elif isinstance(event, Choose):
        lines.append(f"Seat {event.seat} keeps {event.card.code} as its advantage card for the "
                     "next hand")
    elif isinstance(event, (Check, Call, Fold, Bet, Raise)) and after.bet.log:
        act = after.bet.log[-1]
        if act.kind in ("check", "fold"):
            lines.append(f"Seat {act.seat} {act.kind}s")
        elif act.kind == "call":
            lines.append(f"Seat {act.seat} calls {chips(act.amount // chip)}")
        else:
            lines.append(f"Seat {act.seat} {act.kind}s to {chips(act.to // chip)}")
    else:
        lines.append(event.TYPE)
    if before.auction is not None and after.auction is not None and \
            before.auction.turn is not None and after.auction.turn is None:
        lines.extend("  " + x for x in auction_lines(after))
    if after.phase != before.phase and after.phase in (DRAW, CHOOSE, OVER):
        lines.extend("  " + x for x in result_lines(after))
    if after.phase != before.phase or after.phase == OVER:
        lines.append("  " + prompt(after).message)
    return lines
