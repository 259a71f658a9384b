"""What verify holds each hand to beyond its own replay: the fee and the stakes it ran under are
those of the settings version in force when it started (the game, seats among the table's, the
smallest chip and every setting the table gives its hands; a seat new to the table starts with
the buy-in), and it takes over from the table's hand before it
(carry-in equal to that hand's carry-out, each seat's stack equal to what it left that hand
with), unless the change was recorded (a rebuy or a carry-in the dealer gave, written to the
audit log as ``stacks`` for the hand).

Pure: the database layer reads the hands' start events, settings and ledger lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from dealer_assist.engine.bodies import read_body
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import parse_fee_policy
from dealer_assist.services.model import SettingsVersion
from dealer_assist.services.verify import HandNote
from dealer_assist.settings.table import TableSettings, parse_table_settings, start_params


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand as these rules see it: the hands table's word and its start event."""

    hand_id: int
    table_id: int
    number: int
    game: str
    status: str
    settings_id: int | None
    seq: int
    time: datetime
    body: str
    #: Who the hands table says started it, and who the start event (hashed) says.
    started_by: str = ""
    actor: str = ""
    shift_id: int | None = None
    #: The ``approval`` audit entry the start carries (schema 0016), if any.
    approval_id: int | None = None
    #: The hands table's seats (its JSON text) and start time, compared with the start event.
    seats: str | None = None
    started_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ShiftSpan:
    """A shift as the hands are checked against it: its table, when it opened and closed."""

    table_id: int
    opened_at: datetime
    closed_at: datetime | None


@dataclass(slots=True)
class Outcome:
    """A settled hand's money per seat, from its latest ledger lines."""

    put_in: dict[int, int] = field(default_factory=dict)
    push: dict[int, int] = field(default_factory=dict)
    carry_out: int = 0


def outcomes(lines: Iterable[tuple[int, int, str, int | None, int]]) -> dict[int, Outcome]:
    """(hand id, settlement, kind, seat, amount) in (hand, settlement) order: the latest
    settlement's put-ins, pushes and carry-out of each hand."""
    out: dict[int, Outcome] = {}
    latest: dict[int, int] = {}
    for hand_id, settlement, kind, seat, amount in lines:
        if latest.get(hand_id) != settlement:
            latest[hand_id] = settlement
            out[hand_id] = Outcome()
        o = out[hand_id]
        if kind == "put_in" and seat is not None:
            o.put_in[seat] = o.put_in.get(seat, 0) + int(amount)
        elif kind == "push" and seat is not None:
            o.push[seat] = o.push.get(seat, 0) + int(amount)
        elif kind == "carry_out":
            o.carry_out += int(amount)
    return out


_SEAT = re.compile(r"seat (\d+) ")


def recorded_changes(entries: Iterable[tuple[int | None, str, str]]) -> dict[int, set[str]]:
    """Per hand, what the audit log records as given by hand at its start (the ``stacks``
    entries): ``seat N`` for each seat's stack, ``carry-in`` for the carry-in."""
    out: dict[int, set[str]] = {}
    for hand_id, action, detail in entries:
        if action != "stacks" or hand_id is None:
            continue
        marks = out.setdefault(hand_id, set())
        marks.update(f"seat {m}" for m in _SEAT.findall(detail + " "))
        if "carry-in" in detail:
            marks.add("carry-in")
        if NEW_GAME in detail:
            marks.add(NEW_GAME)
    return out


#: What the audit log's ``stacks`` entry of a hand says when the dealer started a new game at
#: it: nothing the game carries from the hand before is taken over (verify accepts it).
NEW_GAME = "new game"


def carried_by(bodies: Sequence[str], seats: Sequence[int]) -> dict[str, Any] | None:
    """What a settled hand (its stored event texts, start first) gives the next hand at
    ``seats`` for each key its game carries (``Game.carries``; absent keys as None), in the
    log's names. None when the hand does not read, replay or finish (its own replay names
    that) or its game carries nothing."""
    from dealer_assist.engine.hand import Folded, fold
    from dealer_assist.engine.log import hand_events
    from dealer_assist.services.next_hand import carried_from

    try:
        events = hand_events(read_body(b) for b in bodies)
    except (DealerAssistError, ValueError):
        return None
    if not events or not isinstance(events[0], Start):
        return None
    result = fold(events)
    if not isinstance(result, Folded) or not result.over or not result.game.carries:
        return None
    carried = carried_from(result.game, events[0], result.state, seats,
                           misdealt=result.misdeal is not None)
    return {k: carried.get(k) for k in result.game.carries}


def floor_events(game: str) -> frozenset[str]:
    """The event types the game records only as the floor's decision (``Game.floor_events``)."""
    try:
        return get_game(game).floor_events
    except DealerAssistError:
        return frozenset()


def floor_findings(
    number: int, hand_id: int, rows: Sequence[tuple[int, int, str]], decided: set[int]
) -> list[tuple[int, str, int]]:
    """(seq, message, hand id) for each floor decision of hand ``number`` (``rows``: its event
    number, seq and type) with no ``floor-decision`` entry for that event on the audit chain
    (``decided``: the event numbers the audit log records): a decision written into the hand
    behind the app's back, without a floor person's approval."""
    return [(seq, f"hand {number} event {n} ({kind}) is a floor decision, but no floor "
             "person's approval of it is on the audit chain", hand_id)
            for n, seq, kind in rows if n not in decided]


_DECIDED = re.compile(r"^hand \d+ event (\d+): ")


def decisions(entries: Iterable[tuple[int | None, str]]) -> dict[int, set[int]]:
    """Per hand id, the event numbers the audit log's ``floor-decision`` entries approve."""
    out: dict[int, set[int]] = {}
    for hand_id, detail in entries:
        m = _DECIDED.match(detail)
        if hand_id is not None and m:
            out.setdefault(hand_id, set()).add(int(m.group(1)))
    return out


def carries(game: str) -> bool:
    """Whether the game carries keys from hand to hand that verify must follow."""
    try:
        return bool(get_game(game).carries)
    except DealerAssistError:
        return False


@lru_cache(maxsize=64)
def continuity_names(game: str) -> tuple[str, str]:
    """The game's names in its logs for the carry-in and the stacks (``Game.key``): what
    verify reads from a start to hold it to the hand before. A game this installation does
    not know keeps the engine's names (its hands are named by the replay anyway)."""
    try:
        found = get_game(game)
    except DealerAssistError:
        return "carry_in", "stacks"
    return found.key("carry_in"), found.key("stacks")


def takes_over(game: str, body: str) -> bool:
    """Whether a hand's stored start (``body``, its JSON text) holds a carry-in or stacks under
    the game's names: a hand whose hand before must be read to check it."""
    carry_key, stacks_key = continuity_names(game)
    return f'"{stacks_key}"' in body or f'"{carry_key}"' in body


def _short(value: Any) -> str:
    """A carried value as a finding shows it: its JSON, cut short."""
    text = "nothing" if value is None else json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _aware(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def _fee_json(obj: Any) -> str:
    policy = parse_fee_policy(obj)
    return "null" if policy is None else json.dumps(policy.to_json(), sort_keys=True)


#: Start keys compared on their own (the fee) or against the table as a whole (game, seats).
_NOT_STAKES = ("type", "game", "seats", "fee")


def stakes_differences(start: Mapping[str, Any], settings: TableSettings) -> list[str]:
    """What a hand's start event says differently from its table's settings: another game,
    a seat the table does not have, or any setting the table gives every hand (the smallest
    chip, the unit, blinds or antes, bet sizes, the cap...) with another value. The fee is
    compared on its own (:func:`hand_findings`)."""
    out: list[str] = []
    if start.get("game") != settings.game:
        out.append(f"its game is {start.get('game')!r}, the table's is {settings.game!r}")
    seats = start.get("seats")
    if isinstance(seats, list):
        extra = [s for s in seats if s not in settings.seats]
        if extra:
            out.append("it seats " + ", ".join(map(str, extra)) + ", which the table does "
                       "not have")
    for key, want in start_params(settings).items():
        if key in _NOT_STAKES:
            continue
        got = start.get(key)
        if got != want:
            shown = "nothing" if got is None else json.dumps(got, sort_keys=True)
            out.append(f"{key} is {shown} where the settings say "
                       f"{json.dumps(want, sort_keys=True)}")
    return out


def chip_fault(game: str, start: Mapping[str, Any]) -> str:
    """Why a stored start is not in whole chips of its smallest chip (a stack, an ante, a unit,
    a pot carried in: ``Game.check_chips``), or "" when it is (or its game is unknown here: its
    replay names that)."""
    try:
        get_game(game).check_chips(start)
    except RuleViolation as exc:
        return str(exc)
    except DealerAssistError:
        return ""
    return ""


def in_force(versions: Sequence[SettingsVersion], at: datetime) -> SettingsVersion | None:
    """The table's settings version in force at ``at``: the latest created at or before it."""
    found = None
    for v in versions:
        if _aware(v.created_at) <= at:
            found = v
    return found


def hand_findings(
    name: str,
    hands: Sequence[HandStart],
    versions: Sequence[SettingsVersion],
    ledger: Mapping[int, Outcome],
    changes: Mapping[int, set[str]],
    baseline: int = 0,
    shifts: Mapping[int, ShiftSpan] | None = None,
    imported: Iterable[int] | None = None,
    check_numbers: bool = False,
    first_number: int | None = None,
    carried: Mapping[int, Mapping[str, Any]] | None = None,
    approved: Mapping[int, set[str]] | None = None,
) -> list[tuple[int, str, int]]:
    """(seq, message, hand id) for every hand of one table (``hands`` in number order) whose
    fee is not its settings version's, that does not take over from the table's last hand dealt
    before it (an imported hand, which has no settings version, neither is held to it nor
    feeds the next), or whose
    row in the hands table disagrees with its start event (who started it) or its shift (the
    shift is of another table, or was not open when the hand started: ``shifts``), or whose
    start does not hold what the game carries from the hand before (``carried``: by hand id,
    what :func:`carried_by` of the hand before gives), unless a new game was recorded.

    ``hands`` are in the order they start on the chain; the hands table's word is held to the
    start event's (the game, the seats, when and by whom it started) and, with
    ``check_numbers``, to that order (each number one more than the hand before, the first
    ``first_number`` if given); a hand with no
    settings version must be one the audit log records as imported (``imported``: their ids;
    None: not checked).

    ``approved`` (by hand id) is what a floor person approved of its start (its approval's
    subject, read like a ``stacks`` entry): a carry-in other than the last hand's carry-out, a
    new game, and a stack cut below what the seat left the last hand with while a pot carries
    need it; a ``stacks`` entry (``changes``) accepts only a rebuy. None: ``changes`` accepts
    all (the rule before schema 0016)."""
    found: list[tuple[int, str, int]] = []
    floor_ok = changes if approved is None else approved
    was_imported = None if imported is None else set(imported)
    last_number: int | None = None if first_number is None else first_number - 1
    expected_fee: dict[int, str | None] = {}
    parsed: dict[int, TableSettings | None] = {}
    #: Per settings version, a start event's fee object found to be its fee (most hands of a
    #: table carry the very same object: compared as is, not parsed again).
    same_fee: dict[int, Any] = {}
    prev: HandStart | None = None
    prev_start: dict[str, Any] = {}
    for h in hands:
        label = f"hand {h.number}"
        if check_numbers and last_number is not None and h.number != last_number + 1:
            found.append((h.seq, f"{label}: the hands table numbers it {h.number}, but it is "
                          f"the hand after hand {last_number} on the table's chain (its number "
                          "was changed behind the app's back)", h.hand_id))
        last_number = h.number
        if h.settings_id is None and was_imported is not None and h.hand_id not in was_imported:
            found.append((h.seq, f"{label}: the hands table gives it no settings version, but "
                          "it was not imported (changed behind the app's back: its fee and "
                          "continuity would go unchecked)", h.hand_id))
        if h.actor and h.started_by != h.actor:
            found.append((h.seq, f"{label}: the hands table says {h.started_by} started it, its "
                          f"start event says {h.actor} (changed behind the app's back)",
                          h.hand_id))
        if shifts is not None and h.shift_id is not None:
            span = shifts.get(h.shift_id)
            at = _aware(h.time)
            if span is None or span.table_id != h.table_id or not (
                _aware(span.opened_at) <= at
                and (span.closed_at is None or at <= _aware(span.closed_at))
            ):
                found.append((h.seq, f"{label}: the hands table puts it in shift {h.shift_id}, "
                              "which was not open at its table when it started (changed behind "
                              "the app's back)", h.hand_id))
        try:
            start = read_body(h.body)
        except DealerAssistError:  # (bounded: the replay names an unreadable event)
            prev, prev_start = h, {}
            continue  # (the replay names an unreadable event)
        if not isinstance(start, dict):
            prev, prev_start = h, {}
            continue
        fault = chip_fault(h.game, start)
        if fault and h.seq <= baseline:  # dealt one by one (an old demo, an old schema)
            found.append(HandNote(h.seq, f"{label} was dealt before every wager had to be whole "
                                  f"chips: {fault}", h.hand_id))
        elif fault:
            found.append((h.seq, f"{label}: {fault}", h.hand_id))
        said = start.get("game")
        if isinstance(said, str) and h.game != said:
            found.append((h.seq, f"{label}: the hands table says its game is {h.game}, its "
                          f"start event says {said} (changed behind the app's back)", h.hand_id))
        if h.seats is not None:
            try:
                seats = json.loads(h.seats)
            except (ValueError, RecursionError):
                seats = h.seats
            if "seats" in start and seats != start["seats"]:
                found.append((h.seq, f"{label}: the hands table says its seats are {h.seats}, "
                              f"its start event says {start['seats']} (changed behind the "
                              "app's back)", h.hand_id))
        if (h.started_at is not None and h.settings_id is not None
                and abs(_aware(h.started_at) - _aware(h.time)) >= timedelta(seconds=1)):
            found.append((h.seq, f"{label}: the hands table says it started at "
                          f"{_aware(h.started_at).isoformat()}, its start event at "
                          f"{_aware(h.time).isoformat()} (changed behind the app's back)",
                          h.hand_id))
        if h.settings_id is not None:
            version = in_force(versions, _aware(h.time))
            if version is None or version.id != h.settings_id:
                found.append((h.seq, f"{label} says it ran under settings id {h.settings_id}, "
                              "but the version in force when it started was "
                              + ("none" if version is None else
                                 f"version {version.version} (id {version.id})"), h.hand_id))
            else:
                if version.id not in expected_fee:
                    try:
                        table = parse_table_settings(version.document)
                        policy = table.fee_policy
                        expected_fee[version.id] = (
                            "null" if policy is None else _fee_json(policy.to_json())
                        )
                        parsed[version.id] = table
                    except DealerAssistError:
                        expected_fee[version.id] = None
                        parsed[version.id] = None
                table_settings = parsed[version.id]
                differs = (
                    "; ".join(stakes_differences(start, table_settings))
                    if table_settings is not None else ""
                )
                if differs and h.seq <= baseline:  # dealt one by one (the demo): no fault
                    found.append(HandNote(
                        h.seq, f"{label} was dealt by the demo at other stakes than settings "
                        f"version {version.version}: {differs}", h.hand_id))
                elif differs:
                    found.append((h.seq, f"{label} does not match settings version "
                                  f"{version.version}, in force when it started: {differs}",
                                  h.hand_id))
                if table_settings is not None:
                    buy_in = table_settings.buy_in
                    stacks = start.get("stacks")
                    if (
                        buy_in is not None and isinstance(stacks, dict) and h.seq > baseline
                        and (prev is None or (prev.game == h.game and prev.status == "settled"))
                    ):
                        before = prev_start.get("stacks") if prev is not None else None
                        kept = before if isinstance(before, dict) else {}
                        given = changes.get(h.hand_id, set())
                        for key, value in sorted(stacks.items()):
                            if key in kept or f"seat {key}" in given or value == buy_in:
                                continue
                            found.append((h.seq, f"{label} starts seat {key}, new to the "
                                          f"table, with {value} where the buy-in is {buy_in}, "
                                          "and no rebuy is recorded", h.hand_id))
                want = expected_fee[version.id]
                fee = start.get("fee")
                if fee is not None and fee == same_fee.get(version.id):
                    got: str | None = want  # (the same object as a hand already checked)
                else:
                    try:
                        got = _fee_json(fee)
                    except DealerAssistError:
                        got = None
                    if got == want and isinstance(fee, dict):
                        same_fee[version.id] = fee
                if want is not None and got != want:
                    found.append((h.seq, f"{label}'s fee {got} is not the fee {want} of "
                                  f"settings version {version.version}, in force when it "
                                  "started", h.hand_id))
        if h.settings_id is None:  # imported: its own log's stacks; it feeds no later hand
            continue
        carry_of = None if carried is None else carried.get(h.hand_id)
        if (
            carry_of is not None and h.seq > baseline and prev is not None
            and prev.game == h.game and prev.status == "settled"
            and NEW_GAME not in floor_ok.get(h.hand_id, set())
        ):
            for key, value in carry_of.items():
                if start.get(key) != value:
                    found.append((h.seq, f"{label} starts with {key} {_short(start.get(key))} "
                                  f"but hand {prev.number} carries {_short(value)}, and no new "
                                  "game is approved by a floor person", h.hand_id))
        if (
            h.seq > baseline and prev is not None
            and prev.game == h.game and prev.status == "settled" and prev.hand_id in ledger
        ):
            out = ledger[prev.hand_id]
            ok = floor_ok.get(h.hand_id, set())
            given = changes.get(h.hand_id, set()) | ok
            carry_key, stacks_key = continuity_names(h.game)
            carry = start.get(carry_key)
            if isinstance(carry, int) and carry != out.carry_out and "carry-in" not in ok:
                named = "" if carry_key == "carry_in" else f" ({carry_key})"
                found.append((h.seq, f"{label} starts with a carry-in{named} of {carry} but hand "
                              f"{prev.number} carried out {out.carry_out}, and no change is "
                              "approved by a floor person", h.hand_id))
            stacks = start.get(stacks_key)
            before = prev_start.get(stacks_key)
            if isinstance(stacks, dict) and isinstance(before, dict):
                for key, value in sorted(stacks.items()):
                    if key not in before:
                        continue
                    try:
                        seat = int(key)
                        left = int(before[key]) - out.put_in.get(seat, 0) + out.push.get(seat, 0)
                    except (TypeError, ValueError):
                        continue
                    cut = isinstance(value, int) and value < left and out.carry_out > 0
                    if cut and f"seat {key}" not in ok:
                        found.append((h.seq, f"{label} starts seat {seat} with {value} but it "
                                      f"left hand {prev.number} with {left}: chips taken off "
                                      f"the table while {out.carry_out} carries, and no floor "
                                      "person approved it", h.hand_id))
                        break
                    if value != left and f"seat {key}" not in given:
                        found.append((h.seq, f"{label} starts seat {seat} with {value} but it "
                                      f"left hand {prev.number} with {left}, and no rebuy is "
                                      "recorded", h.hand_id))
                        break
        prev, prev_start = h, start
    return found
