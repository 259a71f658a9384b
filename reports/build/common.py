"""What every report builder shares: the room's zone for exception texts, who approved a void,
reveals and disputes as lines, the room clock and the gaming day, the tables' chain heads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from contextvars import ContextVar, copy_context
from datetime import date, datetime
from functools import wraps
from typing import Any, TypeVar

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.reports.data.lines import DisputeLine, DisputeNote, RevealLine
from dealer_assist.reports.data.records import ChainCheck
from dealer_assist.reports.source import person, scan_table
from dealer_assist.services.chain import utc
from dealer_assist.services.model import AuditEntry as StoredAudit
from dealer_assist.services.model import Dispute as StoredDispute
from dealer_assist.services.model import Table
from dealer_assist.services.reads import Reads

_B = TypeVar("_B")


#: How exception texts print a time: the room's zone, set by the builder of the report (each
#: builder runs in a context of its own, so one report's zone never reaches another's).
TEXT_ZONE: ContextVar[Any] = ContextVar("dealer_assist_text_zone", default=None)


def own_zone(fn: Callable[..., _B]) -> Callable[..., _B]:
    """Run a report's builder in a context of its own: the zone it sets for its exception
    texts never reaches another report's."""
    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> _B:
        return copy_context().run(fn, *args, **kwargs)

    return run


#: The key under which :func:`void_approvals` keeps the floor who approved a hand's misdeal.
MISDEAL_KEY = 0


def void_approvals(store: Reads, hand_ids: set[int]) -> dict[tuple[int, int], str]:
    """(hand id, voided event) -> the floor person who approved a void in a finished hand;
    (hand id, ``MISDEAL_KEY``) -> the floor person who approved the hand's misdeal."""
    out: dict[tuple[int, int], str] = {}
    pat = re.compile(r"^event (\d+) .*; approved by (\S+)$")
    for e in store.audit_log(action="void"):
        if e.hand_id in hand_ids:
            m = pat.match(e.detail)
            if m:
                out[(e.hand_id, int(m.group(1)))] = m.group(2)
    misdeal = re.compile(r"^hand \d+: .*; approved by (\S+)$")
    for e in store.audit_log(action="misdeal"):
        if e.hand_id in hand_ids:
            m = misdeal.match(e.detail)
            if m:
                out[(e.hand_id, MISDEAL_KEY)] = m.group(1)
    return out


_REVEAL = re.compile(r"^hand \d+ after event (\d+)(?:: (.*))?$", re.S)


def reveal_line(number: int, e: StoredAudit, names: dict[str, str]) -> RevealLine:
    """A logged reveal as a report prints it: the reason given, and after which event (a
    reveal logged before reasons were asked for says so rather than show an event number)."""
    m = _REVEAL.match(e.detail)
    if m is None:
        return RevealLine(number, utc(e.at), person(names, e.actor), e.detail)
    reason = m.group(2) or "(no reason recorded)"
    return RevealLine(number, utc(e.at), person(names, e.actor), reason,
                      after_event=int(m.group(1)))


def dispute_line(d: StoredDispute, number: int, names: dict[str, str]) -> DisputeLine:
    """A recorded dispute as a report lists it, with the floor person's full name."""
    by = person(names, d.floor)
    return DisputeLine(
        dispute_id=d.id, hand_number=number, opened_at=utc(d.at), opened_by=by,
        notes=(DisputeNote(utc(d.at), by, d.notes),) if d.notes else (),
        ruling=d.ruling, ruled_by=by if d.ruling else "", ruled_at=utc(d.at) if d.ruling else None,
        adjustments=tuple((a.seat, a.amount, a.note) for a in d.adjustments),
    )


def game_title(games: Iterable[str]) -> str:
    """The games' titles, each once in the order dealt (a game no longer registered by its
    name), so a report names what was dealt."""
    titles = []
    for g in dict.fromkeys(games):
        try:
            titles.append(get_game(g).title)
        except DealerAssistError:
            titles.append(g)
    return ", ".join(titles) or "no hands dealt"


def named_in_full(names: dict[str, str], user: str | None) -> str:
    """A person's full name for a signature line; their sign-in name when none is known."""
    return names.get(user or "", user or "")


def when_text(t: datetime) -> str:
    """A time in an exception's words: the room's local time with its zone named."""
    zone = TEXT_ZONE.get()
    lt = utc(t).astimezone(zone) if zone is not None else utc(t)
    return f"{lt:%Y-%m-%d %H:%M} {lt.tzname() or 'UTC'}"


def chain_heads(store: Reads, tables: Iterable[Table]) -> tuple[ChainCheck, ...]:
    """Each table's chain re-checked from its first event: the heads a report rests on."""
    return tuple(scan_table(store, t, ()).head for t in tables)


def number_ranges(numbers: Iterable[int]) -> str:
    """``[3, 4, 5, 9]`` as ``3-5, 9``."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(numbers):
        if run and n != run[-1] + 1:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
            run = []
        run.append(n)
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


def clock_at(store: Reads, t: datetime) -> Any:
    """The room clock that keeps the gaming day ``t`` belongs to (a change applies from the
    next day not yet started)."""
    from dealer_assist.services.counts import room_clock_at

    return room_clock_at(store, t)


def gaming_day_at(store: Reads, t: datetime) -> date:
    """The gaming day ``t`` belongs to by the room's clock."""
    from dealer_assist.services.counts import gaming_day_of

    return gaming_day_of(store, t)


def room_zone(store: Reads) -> str:
    """The room's time zone, in which a report prints its times."""
    from dealer_assist.services.counts import room_clock_of

    return room_clock_of(store).zone

