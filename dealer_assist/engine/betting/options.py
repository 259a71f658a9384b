"""What the player to act may do now, and the words the dealer sees for each choice:
"check", "call $20", "bet $20", "raise to $40-$140", "all-in $500", and for pot-limit the
maximum worked out ("pot is $145: raise to at most $185")."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.engine.base import Action
from dealer_assist.engine.betting.actions import (
    Range,
    verify_all_in,
    verify_bet,
    verify_raise,
    wager_range,
)
from dealer_assist.engine.betting.rules import Structure
from dealer_assist.engine.betting.state import BettingState
from dealer_assist.engine.inputs import Amount
from dealer_assist.errors import RuleViolation
from dealer_assist.money import format_cents as money


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action: ``kind`` (``check``, ``call``, ``fold``, ``bet``, ``raise``,
    ``all-in``), the cents it puts in (for ``bet``/``raise`` the smallest), the totals it may
    go to (``low``..``high``, equal when fixed) and the text for its button."""

    kind: str
    label: str
    amount: int = 0
    low: int | None = None
    high: int | None = None
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Options:
    """Who acts and everything they may do; ``note`` explains a pot-limit maximum or why a
    raise is closed."""

    seat: int
    owed: int
    choices: tuple[Choice, ...]
    note: str = ""
    #: The table's smallest chip: a bet or raise short of all-in goes to a whole number of it.
    chip: int = 1

    def choice(self, kind: str) -> Choice | None:
        return next((c for c in self.choices if c.kind == kind), None)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.choices)


#: The key of each betting action's button on the dealer's screen.
KEYS = {"check": "k", "call": "c", "bet": "b", "raise": "r", "all-in": "a", "fold": "f"}


def option_actions(opts: Options, *, typed: bool) -> list[Action]:
    """The dealer's buttons for ``opts``: one per legal action, its label capitalised, its key
    from :data:`KEYS`. A bet or raise whose total ranges (``typed``: not fixed limit) takes the
    total it goes to as an amount; a fixed one records its amount as it is."""
    actions: list[Action] = []
    for c in opts.choices:
        label = c.label[0].upper() + c.label[1:]
        if c.kind in ("bet", "raise"):
            assert c.low is not None and c.high is not None
            amount_in = Amount("to", c.low, c.high) if typed and c.low != c.high else None
            actions.append(Action(c.kind, label, opts.seat, c.amount, KEYS[c.kind],
                                  input=amount_in))
        else:
            actions.append(Action(c.kind, label, opts.seat, c.amount or 0, KEYS[c.kind]))
    return actions


def _span(low: int, high: int) -> str:
    return money(low) if low == high else f"{money(low)}-{money(high)}"


def options(state: BettingState) -> Options | None:
    """The legal actions of the seat to act, or ``None`` when nobody is to act."""
    i = state.to_act
    if i is None:
        return None
    seat = state.seats[i]
    stack = state.stacks[i]
    owed = max(0, state.bet - state.in_round[i])
    everything = state.in_round[i] + stack
    choices: list[Choice] = []
    note = ""
    if owed == 0:
        choices.append(Choice("check", "check"))
    elif stack <= owed:
        choices.append(Choice("call", f"call {money(stack)} (all-in)", stack, all_in=True))
    else:
        choices.append(Choice("call", f"call {money(owed)}", owed))
    kind = "bet" if state.bet == 0 else "raise"
    verify = verify_bet if kind == "bet" else verify_raise
    rng: Range = wager_range(state, i)
    try:
        verify(state, seat, to=everything if rng.short else rng.low)
        open_ = True
    except RuleViolation as refusal:
        open_ = False
        if stack > owed:
            note = refusal.message
    if open_ and not rng.short:
        verb = "bet" if kind == "bet" else "raise to"
        choices.append(
            Choice(
                kind,
                f"{verb} {_span(rng.low, rng.high)}",
                rng.low - state.in_round[i],
                rng.low,
                rng.high,
                all_in=rng.low == everything,
            )
        )
        if rng.pot is not None:
            note = f"pot is {money(rng.pot)}: {verb} at most {money(rng.high)}"
    limit_full = state.rules.structure is Structure.LIMIT and everything == rng.low
    if stack > owed and not limit_full:
        try:
            what = verify_all_in(state, seat)
        except RuleViolation:
            what = ""
        if what:
            choices.append(
                Choice("all-in", f"all-in {money(stack)} ({what})", stack, everything,
                       everything, all_in=True)
            )
    choices.append(Choice("fold", "fold"))
    return Options(seat=seat, owed=owed, choices=tuple(choices), note=note,
                   chip=state.rules.chip)


