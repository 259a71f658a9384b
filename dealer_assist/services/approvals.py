"""What each approved change approves, in words: the one place the subjects are made.

A change that needs a floor person's approval (a void in a finished hand, a misdeal, a floor
decision, dispute adjustments, a shift close, a hand start that changes what the last hand
carries) carries the id of its ``approval`` audit entry (``approval_id`` on its row, schema
0016). The entry's detail is the subject these functions give for that very change; on
PostgreSQL the database checks it when the change is written (the approver's one-time ticket,
schema 0010, spent on that change and no other), and ``verify`` checks it on both dialects
(:func:`subject_of_event`, :func:`dispute_subject`, :func:`shift_subject`). The SQL of schema
0016 writes the same words: a test holds the two to each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dealer_assist.money import format_cents

#: The roles whose approval counts (the services' ``PERMISSIONS["approve"]``).
APPROVERS = frozenset({"floor"})
#: The roles that configure tables and settings (``PERMISSIONS["configure"]``).
CONFIGURERS = frozenset({"floor", "admin"})


def misdeal_subject(number: int) -> str:
    return f"misdeal of hand {number}"


def void_subject(target: int, number: int) -> str:
    return f"void of event {target} in hand {number}"


def floor_subject(kind: str, number: int) -> str:
    return f"{kind} in hand {number}"


def shift_subject(shift_id: int) -> str:
    return f"closing shift {shift_id}"


def adjustments_subject(number: int, adjustments: Iterable[tuple[int | None, int]]) -> str:
    """The adjustments of a dispute with their amounts ("adjustments in hand 12: seat 3 +$4,
    house -$4"): ``adjustments`` as (seat or None for the house, cents)."""
    parts = [("house" if seat is None else f"seat {seat}") + " "
             + ("+" if amount >= 0 else "") + format_cents(amount)
             for seat, amount in adjustments]
    return f"adjustments in hand {number}: {', '.join(parts)}"


def start_prefix(table: str, after: int) -> str:
    """How the approval of a hand's start begins: the table, and the number of the hand it
    follows (0: none), whose carry it changes (what the database checks of it)."""
    return f"start at {table} after hand {after}: "


def start_subject(table: str, after: int, changes: Sequence[str]) -> str:
    """A hand start that changes what the last hand carries, each change in words ("carry-in
    $50,000 ($37 carried from the last hand)", "seat 3 $10 ($50 kept from the last hand)",
    "new game: carried not carried from the last hand")."""
    return start_prefix(table, after) + "; ".join(changes)


def carry_change(amount: int, carried: int) -> str:
    return f"carry-in {format_cents(amount)} ({format_cents(carried)} carried from the last hand)"


def subject_of_event(kind: str, number: int, body: dict[str, object]) -> str:
    """The subject an approved event of type ``kind`` in hand ``number`` approves (a start's
    is checked by its beginning, :func:`start_prefix`)."""
    if kind == "misdeal":
        return misdeal_subject(number)
    if kind == "void":
        target = body.get("target")
        return void_subject(target if isinstance(target, int) else -1, number)
    return floor_subject(kind, number)
