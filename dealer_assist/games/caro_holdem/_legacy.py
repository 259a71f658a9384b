"""Settlements by the rules this app applied before, kept only so that ``verify`` can tell a
hand settled by an earlier rule (a genuine record) from a tampered one. Nothing else uses them:
every hand dealt today is settled by :mod:`.showdown`.

- Before 2026-11-24 (commit b638a2d), the rake rule: nothing was returned as uncalled; a pot only
  one player could win went back to them unraked, even when it held folded players' chips.
- Before version 0.2.0, the uncalled-chips rule compared the last bet's round, not the totals
  over the hand (ruling caro-6 as it now reads).
"""

from __future__ import annotations

from dealer_assist.engine.base import EarlierRule, Settlement
from dealer_assist.engine.pots import Pot, build_pots
from dealer_assist.games.caro_holdem.showdown import Finals, Uncalled, mark_returned, settlement
from dealer_assist.games.caro_holdem.state import OVER, State

RAKE_RULE = "the rake rule before 2026-11-24 (commit b638a2d)"
ROUND_RULE = "the uncalled-chips rule before version 0.2.0, which compared one round"


def earlier_rules(state: State) -> list[EarlierRule]:
    """The settlements the earlier rules give for ``state`` (a finished hand)."""
    if state.phase != OVER:
        return []
    out = []
    for name, finals in ((RAKE_RULE, _rake_rule_finals(state)),
                         (ROUND_RULE, _round_rule_finals(state))):
        s: Settlement = settlement(state, finals)
        out.append(EarlierRule(name=name, settlement=s))
    return out


def _pots(state: State, contributions: dict[int, int]) -> list[Pot]:
    live = [s.seat for s in state.seats if not s.folded]
    if len(live) == 1:
        return [Pot(sum(contributions.values()), (live[0],), None)]
    all_in = [s.seat for s in state.seats if not s.folded and s.all_in]
    return build_pots(contributions, live=live, capped=all_in, order=state.settings.seats)


def _rake_rule_finals(state: State) -> Finals:
    alone = sum(1 for s in state.seats if not s.folded) == 1
    pots = _pots(state, {s.seat: s.hand_in for s in state.seats})
    return [(p, not p.contested and not alone) for p in pots], None


def _round_rule_finals(state: State) -> Finals:
    back = _uncalled_by_round(state)
    contributions = {s.seat: s.hand_in for s in state.seats}
    if back is not None:
        contributions[back.seat] -= back.amount
    return mark_returned(state, _pots(state, contributions), contributions), back


def _uncalled_by_round(state: State) -> Uncalled | None:
    actions = state.actions
    last = next((i for i in range(len(actions) - 1, -1, -1)
                 if actions[i].kind in ("bet", "raise", "big blind")), None)
    if last is None:
        return None
    w = actions[last]
    street, bettor = w.street, w.seat
    limit = state.settings.limit(street)
    in_round: dict[int, int] = {}
    held: dict[int, int] = {}
    blinds: set[int] = set()
    for a in actions:
        if a.street != street or a.kind == "ante":
            continue
        in_round[a.seat] = in_round.get(a.seat, 0) + a.amount
        held[a.seat] = a.cards_held
        if a.kind in ("small blind", "big blind"):
            blinds.add(a.seat)
    matched = (w.level - 1) * limit * w.cards_held
    for a in actions[last + 1:]:
        if (a.street == street and a.seat != bettor and a.kind == "call"
                and in_round[a.seat] >= w.level * limit * held[a.seat]):
            return None
    for s in state.seats:
        if s.seat != bettor and (s.all_in or s.seat in blinds):
            matched = max(matched, in_round.get(s.seat, 0))
    mine = in_round.get(bettor, 0)
    amount = mine - min(matched, mine)
    return Uncalled(bettor, amount, w.kind, w.amount) if amount > 0 else None
