"""Helpers for the Dicey Poker tests: a table under test that records events as a dealer
would (each checked, a refusal leaving the state as it was), and whole rounds played from a
plan per seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start, event_from_json

GAME: Any = get_game("dicey-poker")


def ev(kind: str, seat: int | None = None, **fields: Any) -> Event:
    body: dict[str, Any] = {"type": kind, **fields}
    if seat is not None:
        body["seat"] = seat
    return event_from_json(body, GAME.events)


class Table:
    """A hand under test: ``t("roll", 1, die="d10", value=3)`` records, ``t.refused(...)``
    asserts a refusal (its words and its ruling) and that nothing changed."""

    def __init__(self, seats: Sequence[int] = (1,), **params: Any) -> None:
        params.setdefault("dealer", seats[-1])
        self.events: list[Event] = [Start(game="dicey-poker", seats=tuple(seats), params=params)]
        self.state = GAME.start(self.events[0])

    def __call__(self, kind: str, seat: int | None = None, **fields: Any) -> Table:
        e = ev(kind, seat, **fields)
        self.state = GAME.apply(self.state, e)
        self.events.append(e)
        return self

    def refused(self, words: str, kind: str, seat: int | None = None, *, rule: str | None = None,
                **fields: Any) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as info:
            GAME.apply(self.state, ev(kind, seat, **fields))
        assert words in str(info.value), str(info.value)
        if rule is not None:
            assert info.value.rule == rule
        assert self.state is before
        return info.value

    def deal(self, seat: int, cards: str) -> Table:
        return self("deal", seat, cards=cards.split())

    def roll(self, seat: int, die: str, value: int) -> Table:
        return self("roll", seat, die=die, value=value)

    @property
    def prompt(self) -> Any:
        return GAME.prompt(self.state)

    def up(self, seat: int) -> list[str]:
        return [f.card.code + ("*" if f.chipped else "") for f in self.state.face_up(seat)]

    def hole(self, seat: int) -> list[str]:
        return sorted(c.code for c in self.state.hole[seat])


@dataclass(frozen=True)
class Plan:
    """One seat's whole round: dealt ``hole``; turns 1-3 put up ``ups`` (the base die, the
    face die, the base, the face, the base: (value, card)) drawing ``draws`` after each; turns
    4-8 swap each of ``swaps`` ((the base die's value, the hole card)) for the face-up cards
    in the order they went up; the last two rounds roll the base die for a hole card
    (``finals``: (value, card discarded, card drawn))."""

    hole: str
    ups: tuple[tuple[int, str], ...]
    draws: str
    swaps: tuple[tuple[int, str], ...]
    finals: tuple[tuple[int, str, str], ...]


def play_round(plans: dict[int, Plan], rounds: int = 10, *, start: Start | None = None,
               **params: Any) -> Table:
    """The hand the plans make (``start``: begun with this start event instead)."""
    seats = tuple(sorted(plans))
    t = Table(seats, **params)
    if start is not None:
        t.events = [start]
        t.state = GAME.start(start)
    order = t.state.settings.order
    for s in order:
        t.deal(s, plans[s].hole)
    dice = ("d10", "d6", "d10", "d6", "d10")
    for rnd in range(1, rounds + 1):
        for s in order:
            p = plans[s]
            assert t.state.seat == s and t.state.round == rnd
            if rnd <= 3:
                for i in range((rnd - 1) * 2, min(rnd * 2, 5)):
                    value, card = p.ups[i]
                    t.roll(s, dice[i], value)("up", s, card=card)
                    t("draw", s, card=p.draws.split()[i])
            elif rnd <= 8:
                value, card = p.swaps[rnd - 4]
                back = next(f.card.code for f in t.state.face_up(s) if not f.chipped)
                t.roll(s, "d10", value)("swap", s, up=back, hole=card)
            else:
                value, out, drawn = p.finals[rnd - 9]
                t.roll(s, "d10", value)("discard", s, card=out)("draw", s, card=drawn)
    return t


#: Three seats' rounds whose cards never meet (one deck holds them all), and a fourth of
#: spades and hearts only (the second copies a 3-4 player pack holds, and the 4♠ twice).
A = Plan("3h Jd 4h Qh 5h 6c 7c 8c 9c Tc",
         ((3, "3h"), (1, "Jd"), (4, "4h"), (3, "Qh"), (5, "5h")), "6h 7h 2h Ah Kh",
         ((6, "6c"), (7, "7c"), (8, "8c"), (9, "9c"), (10, "Tc")),
         ((2, "2h", "8h"), (1, "Ah", "Th")))
B = Plan("4c Jc 5c Qc 6s 3d 3s 3c 8d 8s",
         ((4, "4c"), (2, "Jc"), (5, "5c"), (4, "Qc"), (6, "6s")), "9s 9d Ks Kd Ac",
         ((3, "3d"), (3, "3s"), (3, "3c"), (8, "8d"), (8, "8s")),
         ((1, "Ac", "9h"), (4, "4c", "2d")))
C = Plan("7d Qd Td Qs 5d 4d 5s 6d 7s Ts",
         ((7, "7d"), (3, "Qd"), (10, "Td"), (4, "Qs"), (5, "5d")), "2c 2s Kc Jh Js",
         ((4, "4d"), (5, "5s"), (6, "6d"), (7, "7s"), (10, "Ts")),
         ((2, "2c", "As"), (2, "2s", "Ad")))
D = Plan("3h Qs 5h Qh 7h 4s 4s 6s 8s Ts",
         ((3, "3h"), (4, "Qs"), (5, "5h"), (3, "Qh"), (7, "7h")), "9s 9h Ks 2h 2s",
         ((4, "4s"), (4, "4s"), (6, "6s"), (8, "8s"), (10, "Ts")),
         ((2, "2h", "Kh"), (2, "2s", "Js")))
