"""The demo's hands dealt in memory: each table's game (its own demo table), each hand dealt
by the game's ``sample_hand`` and replayed, at the demo's pace, and how many hands each table
deals (:mod:`dealer_assist.db.demo` stores them)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from dealer_assist.engine.base import DemoTable
from dealer_assist.engine.hand import Folded
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.engine.stored import fold
from dealer_assist.errors import BadInput
from dealer_assist.events import Event, Misdeal, Start, Void
from dealer_assist.services.chain import canonical
from dealer_assist.services.handrules import stakes_differences
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.next_hand import carried_from
from dealer_assist.settings.table import parse_table_settings, start_params


def demo_table(game_name: str, kind: int = 0) -> DemoTable:
    """How the demo spreads ``game_name`` (the game's own declaration); ``kind``: which of the
    game's demo tables (a game may declare one per betting structure)."""
    tables = get_game(game_name).demo_tables()
    if not tables:
        raise BadInput(f"{game_name} has no demo table")
    return tables[kind]


#: Halfway through its hands a table of a game whose demo says so switches to time collection (a
#: new settings version): the dealer then marks seats in and out between hands and collects
#: every period.
TIME_FEE: dict[str, Any] = {"kind": "time", "amount": 500, "period_minutes": 30}


def time_switch(game_name: str, hands: int, kind: int = 0) -> int | None:
    """The index of the table's first hand under time collection, or None (no switch)."""
    return hands // 2 if demo_table(game_name, kind).time_switch and hands >= 2 else None
SHIFT_LENGTH = timedelta(hours=4)
#: The demo's pace: each dealer input takes 2 to 9 seconds (5.5 on average), so a hand lasts as
#: long as its own inputs take; 20 to 60 seconds between hands (the push, gathering, the shuffle).
INPUT_SECONDS = (2.0, 9.0)
BETWEEN_SECONDS = (20.0, 60.0)
#: A room's demo day: where the even share of the hands would keep a table dealing longer than
#: this while the room's hands could all be dealt within it, each table is given hands in
#: proportion to its pace instead (fewer at a table of long hands), so the tables close the
#: day together.
DEMO_DAY = timedelta(hours=20)
#: Hands dealt per demo table to measure its pace (only for a demo that may not fit its day:
#: one whose even share at a table, each hand as long as the longest a demo game deals, would).
PACE_SAMPLE = 6
#: The share of the demo's day a table's measured pace may fill and keep the even share (a few
#: hands measure the pace of a game whose hands vary: a table may run longer than measured).
PACE_MARGIN = 0.8
LONGEST_HAND = timedelta(hours=2)
#: The time a shift change takes at the table (the next shift opens this much later).
SHIFT_CHANGE = timedelta(minutes=2)


@dataclass
class PlannedHand:
    """One dealt hand: its events as JSON, its ledger lines, and when it was dealt."""

    bodies: list[str]  # canonical JSON texts, as stored
    types: list[str]
    seats: list[int]
    lines: list[tuple[str, str, int | None, int]]
    offsets: list[float]  # seconds after the hand's start, per event
    voided: int = 0  # the number of the void event in the hand, if any
    misdeal: int = 0  # the number of the misdeal event in the hand, if any



def demo_games() -> list[str]:
    """The games of this installation that have a demo table, in the registry's order."""
    return [g for g in game_names() if get_game(g).demo is not None]


def demo_kinds() -> list[tuple[str, int]]:
    """Every demo table of every game: (game, which of its tables), in the registry's order."""
    return [(g, k) for g in demo_games() for k in range(len(get_game(g).demo_tables()))]


def room_kinds(tables: int) -> list[tuple[str, int]]:
    """The demo tables of a room of ``tables``: the games' demo tables in turn (every demo
    table of every game, again from the first once all are dealt); a room with at least one
    table per game but fewer than every demo table deals every game, each game's other demo
    tables (other betting structures) filling the tables left, in the registry's order."""
    kinds = demo_kinds()
    games = len({g for g, _ in kinds})
    if not games <= tables < len(kinds):
        return [kinds[i % len(kinds)] for i in range(tables)]
    spare = tables - games
    out = []
    for g, k in kinds:
        if k == 0:
            out.append((g, k))
        elif spare > 0:
            out.append((g, k))
            spare -= 1
    return out


def plan_table(
    game_name: str, hands: int, seed: int, with_void: bool, kind: int = 0,
    last_hand: Sequence[str] = (),
) -> list[PlannedHand]:
    """Deal ``hands`` hands of one table (runs in a worker process when there are many).

    Each hand starts with what the hand before carries (the game's ``carries``, a carry-in),
    as the app starts it; ``last_hand``: the stored event texts of the table's last hand, when the
    demo adds hands to a table it filled before, so the first new hand follows on from it."""
    rng = random.Random(seed)
    game = get_game(game_name)
    switch = time_switch(game_name, hands, kind)
    table = demo_table(game_name, kind)
    low, high = table.players
    out: list[PlannedHand] = []
    carry_key = game.key("carry_in")
    before, carry = _hand_before(game_name, last_hand)  # the hand before: what it carries
    settings = parse_table_settings(table.settings)
    # every hand is dealt at the table's own settings (the smallest chip, the unit, the blinds
    # or antes...), as a hand the app starts at that table is: verify holds them to it
    stakes = {k: v for k, v in start_params(settings).items()
              if k not in ("type", "game", "seats", "fee")}
    for i in range(hands):
        n = rng.randint(low, high)
        timed = switch is not None and i >= switch
        fee = TIME_FEE if timed else table.settings.get("fee")
        params: dict[str, Any] = {**stakes, **table.sample}
        if fee is not None:
            params["fee"] = fee
        if "carry_in" in game.start_keys:
            params[carry_key] = carry
        if before is not None and game.carries:  # the hands follow on: a running total...
            last_start, last = before
            carried = carried_from(game, last_start, last.state, tuple(range(1, n + 1)),
                                   misdealt=last.misdeal is not None)
            params.update((k, v) for k, v in carried.items() if k in game.carries)
        events: list[Event] = list(game.sample_hand(rng, players=n, params=params))
        voided = 0
        if with_void and i == 2 and len(events) > 3:
            # the dealer keyed an input too early, voided it, then entered it again
            k = 3
            events = [*events[:k], events[k], Void(target=k + 1, reason="keyed too early"),
                      *events[k:]]
            voided = k + 2
        misdeal = 0
        if with_void and i == 7 and len(events) > 4:
            # a card exposed on the deal: the floor calls the hand off, every chip goes back
            events = [*events[:4], Misdeal(reason="card exposed on the deal")]
            misdeal = 5
        result = fold(events)
        if not isinstance(result, Folded):
            raise AssertionError(f"{game_name} dealt a hand that does not replay: {result}")
        differs = stakes_differences(events[0].to_json(), settings)
        if differs:
            raise AssertionError(f"{game_name} dealt a hand at other stakes than its table's: "
                                 + "; ".join(differs))
        settlement = result.settle()
        if not settlement.conserved:
            raise AssertionError(f"{game_name} dealt a hand that does not conserve chips")
        carry = settlement.carry_out if "carry_in" in game.start_keys else 0
        if isinstance(events[0], Start):
            before = (events[0], result)
        lines = [(x.kind, x.detail, x.seat, x.amount) for x in ledger_lines(0, settlement)]
        t, offsets = 0.0, []
        for _ in events:  # every input at the demo's pace: a long hand takes long
            offsets.append(t)
            t += rng.uniform(*INPUT_SECONDS)
        out.append(PlannedHand(
            bodies=[canonical(e.to_json()) for e in events], types=[e.TYPE for e in events],
            seats=list(getattr(events[0], "seats", ())), lines=lines, offsets=offsets,
            voided=voided, misdeal=misdeal,
        ))
    return out


def _hand_before(game_name: str, last: Sequence[str]) -> tuple[tuple[Start, Folded] | None, int]:
    """The table's last stored hand (its event texts) as the hand before the demo's next one,
    and the carry-in it leaves; (None, 0) when there is none of this game or it is not over."""
    from dealer_assist.engine.log import hand_events

    if not last:
        return None, 0
    events = hand_events(json.loads(b) for b in last)
    if not events or not isinstance(events[0], Start) or events[0].game != game_name:
        return None, 0
    result = fold(events)
    if not isinstance(result, Folded) or not result.over:
        return None, 0
    carry = result.settle().carry_out if "carry_in" in get_game(game_name).start_keys else 0
    return (events[0], result), carry



def share_hands(hands: int, table_games: Sequence[tuple[str, int]], seed: int) -> list[int]:
    """How many of ``hands`` each table deals: an even share (the first tables one more where
    they do not divide), unless that could keep a table dealing past :data:`DEMO_DAY` (more
    than :data:`PACE_MARGIN` of it at its measured pace) while the room's hands fit the day at
    the tables' paces: then each table's share follows its pace
    (hands an hour, measured on :data:`PACE_SAMPLE` hands of its game), every table at least
    one hand."""
    tables = len(table_games)
    even = [hands // tables + (1 if i < hands % tables else 0) for i in range(tables)]
    if tables < 2 or max(even) * LONGEST_HAND <= DEMO_DAY:
        return even
    seconds = {kind: seconds_per_hand(*kind, seed) for kind in set(table_games)}
    per_hand = [seconds[kind] for kind in table_games]
    day = DEMO_DAY.total_seconds()
    if max(n * t for n, t in zip(even, per_hand, strict=True)) <= day * PACE_MARGIN:
        return even
    rates = [1.0 / t for t in per_hand]
    each = (hands - tables) / sum(rates)  # the time every table deals, one hand each aside
    if each + max(per_hand) > day:  # the room's hands do not fit one day at any share
        return even
    exact = [1 + each * r for r in rates]
    out = [int(x) for x in exact]
    by_remainder = sorted(range(tables), key=lambda i: (out[i] - exact[i], i))
    for i in by_remainder[:hands - sum(out)]:
        out[i] += 1
    return out


@lru_cache(maxsize=256)
def seconds_per_hand(game_name: str, kind: int, seed: int) -> float:
    """A demo table's seconds a hand at the demo's pace (its inputs, the time between hands),
    measured on :data:`PACE_SAMPLE` hands of its game."""
    plan = plan_table(game_name, PACE_SAMPLE, seed, False, kind)
    between = sum(BETWEEN_SECONDS) / 2
    dealing = sum(h.offsets[-1] + between for h in plan) / len(plan)
    return dealing * (1 + SHIFT_CHANGE / SHIFT_LENGTH)  # and the shift changes
