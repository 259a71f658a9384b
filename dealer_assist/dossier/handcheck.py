"""Each simulated hand's log written and checked as the table would: its lines written once per
distinct event (LineWriter), its start held to the table's settings (SettingsCheck), and its log
read back as verify reads a stored hand and settled again (replayed)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from dealer_assist.engine.base import PER_HAND_KEYS, Settlement
from dealer_assist.engine.hand import Folded
from dealer_assist.engine.registry import get_game
from dealer_assist.engine.stored import fold as replay_fold
from dealer_assist.engine.stored import parse_body, parser_of, settlement_keys
from dealer_assist.events import Event, Start
from dealer_assist.services.handrules import stakes_differences
from dealer_assist.settings.table import TableSettings, start_params

#: Lines (and starts) remembered per session before the memory is emptied.
MEMO = 65536


class LineWriter:
    """Each event's line of the log (``Event.to_line``), an event equal to one already written
    taking that line again: ``to_line`` reads nothing but the event's fields, which equality
    compares. The very event object written before is found by its identity first (sample
    dealings reuse one object per event; the memory holds each object, so its identity is not
    reused), and a start (its settings a mapping, unhashable) by :func:`_start_key`."""

    def __init__(self) -> None:
        self.memo: dict[Event, str] = {}
        self.seen: dict[int, tuple[Event, str]] = {}
        self.starts: dict[Any, str] = {}

    def __call__(self, events: Sequence[Event]) -> list[str]:
        memo = self.memo
        seen = self.seen
        if len(memo) > MEMO or len(seen) > MEMO:
            memo.clear()
            seen.clear()
        out: list[str] = []
        append = out.append
        for ev in events:
            found = seen.get(id(ev))
            if found is not None and found[0] is ev:
                append(found[1])
                continue
            try:
                line = memo.get(ev)
            except TypeError:  # unhashable: a start's settings
                append(self.start_line(ev))
                continue
            if line is None:
                line = memo[ev] = ev.to_line()
            seen[id(ev)] = (ev, line)
            append(line)
        return out

    def start_line(self, ev: Event) -> str:
        key = _start_key(ev)
        if key is None:
            return ev.to_line()
        try:
            line = self.starts.get(key)
        except TypeError:  # (a setting of a type that does not hash)
            return ev.to_line()
        if line is None:
            if len(self.starts) > MEMO:
                self.starts.clear()
            line = self.starts[key] = ev.to_line()
        return line


def _start_key(ev: Event) -> Any:
    """What a start's line is made of, hashable (each value with its type, mappings in their
    order, as the line writes them), or None for any other event."""
    if ev.__class__ is not Start:
        return None
    assert isinstance(ev, Start)
    return (ev.game, _frozen(ev.seats), _frozen(ev.params))


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return (Mapping, tuple((k.__class__, k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (list, tuple(_frozen(v) for v in value))
    return (value.__class__, value)


class SettingsCheck:
    """What a hand's start says differently from the table (:func:`stakes_differences`) and
    from the settings the plan deals (the game's own settings the table leaves out, at the
    values the game plays them), worked out once per start line: the hands of a session start
    alike but for what they carry in."""

    def __init__(self, settings: TableSettings, params: Mapping[str, Any]) -> None:
        self.settings = settings
        #: Found problems by start line, and by what the check reads of a start.
        self.seen: dict[Any, tuple[str, ...]] = {}
        game = get_game(settings.game)
        per_hand = {game.key(k) for k in PER_HAND_KEYS} | set(game.carries) | {"fee"}
        given = start_params(settings)  # (compared by stakes_differences)
        self.dealt = {k: json.dumps(v, sort_keys=True) for k, v in params.items()
                      if k not in per_hand and k not in given}
        #: What the check does not read (what changes from hand to hand in a game).
        self.skip = {game.key(k) for k in PER_HAND_KEYS} | set(game.carries)

    def __call__(self, line: str, start: Event) -> list[str]:
        """``line`` is the start's line; a start whose line was not seen is looked up by what
        the check reads of it (its game, seats and settings but the stacks, button, pot and
        what the game carries), so the hands of a game, each with its own stacks, are
        compared once."""
        found = self.seen.get(line)
        if found is None and isinstance(start, Start):
            try:
                key = (start.game, tuple(start.seats), _frozen(
                    {k: v for k, v in start.params.items() if k not in self.skip}))
                found = self.seen.get(key)
            except TypeError:  # (a setting of a type that does not hash)
                key = None
            if found is not None:
                return list(found)
        else:
            key = None
        if found is None:
            if len(self.seen) > MEMO:
                self.seen.clear()
            data = start.to_json()
            problems = stakes_differences(data, self.settings)
            problems += [f"{k} is {json.dumps(data.get(k), sort_keys=True)} where the table "
                         f"plays {v}" for k, v in self.dealt.items()
                         if json.dumps(data.get(k), sort_keys=True) != v]
            found = self.seen[line] = (
                (f"it is not dealt at the table's settings: {'; '.join(problems)}",)
                if problems else ())
            if key is not None:
                self.seen[key] = found
        return list(found)


def replayed(lines: Sequence[str], s: Settlement) -> list[str]:
    """The hand's log (its JSON Lines) read back line by line the way ``verify`` reads a stored
    hand (the start line names the game whose events the others are), folded and settled: the
    same settlement as the hand as dealt?"""
    try:
        first = parse_body(lines[0])
        parse = parser_of(first.game if isinstance(first, Start) else "")
        again = [first]
        again.extend(map(parse, lines[1:]))
        folded = replay_fold(again, start_text=lines[0])
        if not isinstance(folded, Folded):
            return [f"its log does not replay: event {folded.index + 1}: {folded.reason}"]
        replayed = folded.settle()
    except Exception as exc:  # a log that cannot be read back is named
        return [f"its log does not replay: {type(exc).__name__}: {exc}"]
    if settlement_keys(replayed) != settlement_keys(s):
        return ["the replay of its log settles differently from the hand as dealt"]
    return []
