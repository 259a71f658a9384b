"""Replaying a hand as it is stored: its events read back from their stored texts, folded
through its game, and its settlement reduced to the keys of its ledger lines.

Verify, the reports, the store's tools and the dossier's simulation all replay hands this way,
so the readers (one cache per game) and the starting states (one per start text) are shared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from dealer_assist.engine.base import Game, Settlement
from dealer_assist.engine.bodies import read_body, read_event
from dealer_assist.engine.hand import Folded, Refused, begin
from dealer_assist.engine.hand import fold as fold_hand
from dealer_assist.engine.registry import get_game
from dealer_assist.events import Event, Start
from dealer_assist.money import format_cents


def parse_body(body_text: str, game: str = "") -> Event:
    """An event from its stored JSON text, in the events of ``game`` (its hand's; "": a start
    or a table-level event, which every game shares). Cached: most inputs repeat exactly."""
    return parser_of(game)(body_text)


_PARSERS: dict[str, Callable[[str], Event]] = {}


def parser_of(game: str) -> Callable[[str], Event]:
    """The cached reader of stored texts in the events of ``game`` ("": the shared events):
    one cache per game, keyed by the text alone, as a replay loop calls it for every row.
    A text out of bounds or not an event of the game raises :class:`BadInput` saying why."""
    found = _PARSERS.get(game)
    if found is not None:
        return found
    reader = get_game(game) if game else None  # BadInput: a game not installed

    @lru_cache(maxsize=65536)
    def parse(body_text: str) -> Event:
        return read_event(read_body(body_text), reader)  # BadInput: named, never a crash

    _PARSERS[game] = parse
    return parse


def settlement_keys(s: Settlement) -> list[tuple[str, str, int, int]]:
    """The sorted keys of the ledger lines of ``s``, without building the lines
    (:func:`dealer_assist.services.ledger.ledger_lines`).

    Verify compares these for every hand; a difference is confirmed and described with the
    lines themselves, and the tests hold the two to each other.
    """
    keys = [("put_in", "", seat, amount) for seat, amount in s.put_in.items() if amount]
    if s.carry_in:
        keys.append(("carry_in", "", -1, s.carry_in))
    keys.extend(("push", "", seat, amount) for seat, amount in s.payouts.items() if amount)
    keys.extend(
        ("fee", fee.kind, -1 if fee.from_seat is None else fee.from_seat, fee.amount)
        for fee in s.fees if fee.amount
    )
    if s.carry_out:
        keys.append(("carry_out", "", -1, s.carry_out))
    keys.sort()
    return keys


def earlier_difference(now: Settlement, then: Settlement) -> str:
    """What a settlement by an earlier rule gave differently from today's, in words: the fee
    short or over, and each seat pushed more or less."""
    parts = []
    fee_now = sum(f.amount for f in now.fees if f.from_seat is None)
    fee_then = sum(f.amount for f in then.fees if f.from_seat is None)
    if fee_then != fee_now:
        way = "short" if fee_then < fee_now else "over"
        parts.append(f"the house fee {format_cents(abs(fee_now - fee_then))} {way} "
                     f"({format_cents(fee_then)} taken, {format_cents(fee_now)} owed)")
    for seat in sorted(set(now.payouts) | set(then.payouts)):
        d = then.payouts.get(seat, 0) - now.payouts.get(seat, 0)
        if d:
            parts.append(f"seat {seat} pushed {format_cents(abs(d))} "
                         + ("more" if d > 0 else "less"))
    return "; ".join(parts) or "the same amounts by other lines"


def fold(events: list[Event], *, start_text: str | None = None) -> Folded | Refused:
    """:func:`dealer_assist.engine.hand.fold` (the replay's own fold, without steps).

    ``start_text``: the stored text the first event was read from (:func:`parse_body`), whose
    starting state is then worked out once for every hand that starts the same way.
    """
    if start_text is None or not isinstance(events[0], Start):
        return fold_hand(events)
    return fold_hand(events, begun=_begin_text(start_text))


@lru_cache(maxsize=1024)
def _begin_text(start_text: str) -> tuple[Game[Any], Any] | str:
    """:func:`begin` of the start event stored as ``start_text`` (cached: the hands of a table
    often start alike, and no game changes a state in place, so one state serves them all)."""
    first = parse_body(start_text)
    assert isinstance(first, Start)  # (fold reads the text only after the event it gives)
    return begin(first)
