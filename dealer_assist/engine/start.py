"""Reading a hand's start settings: one reader of the keys games have in common.

Every game checks its start event before the first card: the seats, the button, whole-number
settings, each seat's stack, blinds or an ante, and no key it does not know. The checks and
their messages live here once; a game reads its own keys with the same functions. Each refusal
names the key and what it allows (a :class:`RuleViolation` for a value the rules refuse, a
:class:`BadInput` for one of the wrong kind).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.money import format_cents


def only(start: Start, allowed: Iterable[str]) -> None:
    """Refuse a start setting the game does not know, so a typo cannot pass unnoticed (the
    fee and the smallest chip are every game's)."""
    known = set(allowed) | {"fee", "smallest_chip"}
    unknown = sorted(set(start.params) - known)
    if unknown:
        raise RuleViolation(
            f"{start.game} does not take {', '.join(unknown)}: its settings are "
            + ", ".join(sorted(known)), rule="settings")


def seats_between(start: Start, *, low: int, high: int) -> tuple[int, ...]:
    """The seats, ``low`` to ``high`` of them, each once and numbered from 1."""
    seats = tuple(start.seats)
    if not low <= len(seats) <= high:
        raise RuleViolation(
            f"this game takes {low} to {high} players, not {len(seats)}", rule="settings"
        )
    if len(set(seats)) != len(seats):
        raise RuleViolation("a seat is listed twice", rule="settings")
    if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in seats):
        raise RuleViolation("seats are numbered 1 and up", rule="settings")
    return seats


def button(start: Start, seats: tuple[int, ...], key: str = "button") -> int:
    """The button's seat (default: the last seat); ``key`` is the game's name for it in its
    logs (``"dealer"`` in a game whose dealer deals in turn)."""
    value = start.get(key, seats[-1])
    if value not in seats or isinstance(value, bool):
        what = "button" if key == "button" else f'"{key}"'
        raise RuleViolation(f"the {what} must be one of the seats, not {value!r}",
                            rule="settings")
    return int(value)


def whole(start: Start, key: str, default: int | None, *, low: int, what: str) -> int:
    """A whole-number setting of at least ``low``; ``what`` says what it is, for a refusal.
    No ``default``: the start must give it."""
    value = start.get(key, default)
    if value is None:
        raise RuleViolation(f'the start needs "{key}": {what}')
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f'"{key}" must be a whole number ({what}), not {value!r}')
    if value < low:
        raise RuleViolation(f'"{key}" must be at least {low} ({what}), not {value}')
    return value


def cents(value: Any, name: str, *, low: int = 0) -> int:
    """``value`` as whole cents of at least ``low`` (``name``: the setting, for a refusal)."""
    if value.__class__ is not int and (not isinstance(value, int) or isinstance(value, bool)):
        raise BadInput(f'"{name}" must be a whole number of cents, not {value!r}')
    if value < low:
        raise RuleViolation(f'"{name}" must be at least {low}, not {value}')
    return value


def stacks(start: Start, seats: tuple[int, ...]) -> dict[int, int]:
    """``"stacks"``: each seat's chips in cents, every seat of the hand given, at least 1."""
    raw = start.params.get("stacks")
    if raw.__class__ is not dict and not isinstance(raw, Mapping):
        raise BadInput('"stacks" must give each seat\'s chips in cents: {"1": 100000, ...}')
    out: dict[int, int] = {}
    for key, value in raw.items():
        try:
            seat = int(key)
        except ValueError as exc:
            raise BadInput(f'"stacks" key {key!r} is not a seat number') from exc
        if seat not in seats:
            raise RuleViolation(f'"stacks" names seat {seat}, which is not in the hand')
        if value.__class__ is int and value >= 1:  # cents()'s test, without naming the setting
            out[seat] = value
        else:
            out[seat] = cents(value, f"stacks {seat}", low=1)
    missing = [s for s in seats if s not in out]
    if missing:
        raise RuleViolation(f'"stacks" is missing seat {", ".join(map(str, missing))}')
    return out


def blinds_or_ante(
    start: Start, *, both: bool = False
) -> tuple[tuple[int, int] | None, int]:
    """``"blinds"`` ([small, big] in cents) and/or ``"ante"`` (cents): (blinds or None, the
    ante). Only a game that allows ``both`` takes the two together."""
    get = start.params.get
    ante = get("ante")
    raw = get("blinds")
    if raw is None:
        return None, 0 if ante is None else cents(ante, "ante")
    if ante and not both:
        raise RuleViolation('give either "ante" or "blinds", not both')
    if not isinstance(raw, list) or len(raw) != 2:
        raise BadInput('"blinds" must be [small blind, big blind] in cents')
    sb = cents(raw[0], "blinds")
    bb = cents(raw[1], "blinds", low=1)
    if sb > bb:
        raise RuleViolation("the small blind cannot be larger than the big blind")
    return (sb, bb), 0 if ante is None else cents(ante, "ante")


def chip_text(chip: int) -> str:
    """The table's smallest chip as a refusal names it ("the $1.00 smallest chip")."""
    return f"the table's {format_cents(chip, always_cents=True)} smallest chip"


def off_chip(amount: int, chip: int) -> str:
    """Why ``amount`` is not a wager at a table whose smallest chip is ``chip``, with the two
    amounts either side that are (the dealer's choice, never the app's)."""
    below = amount - amount % chip
    around = (f"{format_cents(below)} or {format_cents(below + chip)}" if below
              else format_cents(chip))
    return (f"{format_cents(amount)} is not a whole number of {chip_text(chip)}: "
            f"make it {around}")


def whole_chips(params: Mapping[str, Any], money: Iterable[str],
                stacks_key: str = "stacks") -> None:
    """Every amount of money a start's ``params`` give (``money``: the game's money settings,
    a list's each amount too; each seat's stack under ``stacks_key``) is a whole number of the
    table's smallest chip: nobody can bet, ante or hold a part of a chip. A start without a
    smallest chip, or with one that is not a whole number, is left to the game's own reader."""
    chip = params.get("smallest_chip")
    if chip.__class__ is not int or chip <= 1:
        return
    for key in money:
        value = params.get(key)
        for amount in value if isinstance(value, list) else [value]:
            if amount.__class__ is int and amount % chip:
                raise RuleViolation(f'"{key}" {off_chip(amount, chip)}', rule="chips")
    raw = params.get(stacks_key)
    if isinstance(raw, Mapping):
        for seat, amount in raw.items():
            if amount.__class__ is int and amount % chip:
                raise RuleViolation(f"seat {seat}'s stack {off_chip(amount, chip)}",
                                    rule="chips")


def sample_unit(params: Mapping[str, Any], dollars: int = 100) -> int:
    """A sample hand's unit of money: ``dollars`` cents rounded up to a whole number of the
    smallest chip its caller gives (default 100), so its antes, bets and stacks are chips."""
    chip = params.get("smallest_chip", 100)
    if chip.__class__ is not int or chip < 1:
        return dollars
    return -(-dollars // chip) * chip
