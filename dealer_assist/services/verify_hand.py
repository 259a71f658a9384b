"""One stored hand checked as verify checks it: its events read and replayed through its game,
its settlement against its ledger lines (pure, so it runs in any worker); and a table's time
collections against their fold."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from dealer_assist.engine.bodies import read_body
from dealer_assist.engine.hand import Refused
from dealer_assist.engine.stored import (
    earlier_difference,
    fold,
    parser_of,
    settlement_keys,
)
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event, Misdeal, Start, Void
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.model import LedgerLine, SettingsVersion, StoredEvent
from dealer_assist.services.timeacct import compare_time_lines, fold_time
from dealer_assist.services.verify_report import HandInfo


def time_findings(
    table_id: int, name: str, time_rows: Sequence[tuple[int, datetime | str, str, str]],
    versions: Sequence[SettingsVersion], stored: Sequence[LedgerLine],
) -> list[tuple[int, str]]:
    """What is wrong with a table's time collections: the fold of its table-level rows (seq,
    time, actor, event text, in seq order) against the recorded lines; (seq, message) each,
    in the order :meth:`TableCheck.check_time` names them (pure; runs anywhere)."""
    rows: list[StoredEvent] = []
    for n, (seq, at, actor, text) in enumerate(time_rows, start=1):
        try:
            body = read_body(text)
        except DealerAssistError as exc:  # that record's fault: the fold stops before it
            return [(seq, f"the seat or period event cannot be read: {exc}")]
        rows.append(StoredEvent(
            table_id=table_id, seq=seq, hand_id=None, number=n, actor=actor,
            time=datetime.fromisoformat(at) if isinstance(at, str) else at,
            body=body, prev_hash="", hash="",
        ))
    try:
        fold = fold_time(table_id, name, versions, rows, None)
    except (ValueError, DealerAssistError) as exc:
        return [(time_rows[0][0], f"a seat or period event cannot be read: {exc}")]
    found: list[tuple[int, str]] = []
    if fold.problem is not None:
        found.append((fold.problem.seq, fold.problem.message))
    upto = fold.problem.seq if fold.problem is not None else None
    differs = compare_time_lines(
        fold.lines, [x for x in stored if upto is None or (x.seq or 0) < upto]
    )
    if differs is not None:
        found.append((differs.seq, differs.message))
    return found


class StoredLine(NamedTuple):
    """A hand's ledger line as verify reads it back: what it compares and what it shows."""

    kind: str
    detail: str
    seat: int | None
    amount: int

    def key(self) -> tuple[str, str, int, int]:
        """The same key as :meth:`LedgerLine.key`."""
        return (self.kind, self.detail, -1 if self.seat is None else self.seat, self.amount)


#: One hand to check: id, what the hands table says, its seqs and event texts, its ledger.
HandJob = tuple[
    int, HandInfo, list[int], list[str], "Sequence[LedgerLine] | Sequence[StoredLine] | None"
]


class RecordFault(NamedTuple):
    """A stored event that cannot be read (out of bounds, not an event of its hand's game):
    that record's fault alone. Named as a fault, its hand skipped; since the chain's hashes
    and links were checked without reading it, the table's other hands and rules are still
    checked and their faults named (:meth:`TableCheck.absorb` keeps it apart from the table's
    first problem). Shaped as a problem, to travel from the workers the same way."""

    seq: int
    message: str
    hand_id: int


class HandNote(NamedTuple):
    """Not a fault: a hand that is a genuine record of something verify names in its own
    words (settled under a rule the app applied before, say). Shaped as a problem, so that it
    travels from the workers the same way; :meth:`TableCheck.absorb` keeps it apart."""

    seq: int
    message: str
    hand_id: int


#: What is wrong with a hand: (seq, message, hand id), or None when it is right; a
#: :class:`HandNote` when it is a genuine record named in its own words, a
#: :class:`RecordFault` when one of its stored events cannot be read.
HandProblem = tuple[int, str, int] | None
Runner = Callable[[list[HandJob]], Iterable[HandProblem]]


def serial(jobs: list[HandJob]) -> Iterable[HandProblem]:
    return [check_hand(job) for job in jobs]


def unreadable(label: str, number: int, exc: Exception) -> str:
    """Verify's words for a stored event that fails to read: that record's fault; the hand
    is not replayed, and everything else is checked."""
    return (f"{label}, event {number}: the stored event cannot be read ({exc}); the hand is "
            "skipped")


def check_hand(job: HandJob) -> HandProblem:
    """Replay one hand and check its settlement against its ledger (pure; runs anywhere)."""
    hand_id, info, seqs, bodies, ledger = job
    label = f"hand {info.number}"
    events: list[Event] = []
    parse = parser_of("")  # (the start's game names the events of the rows after it)
    for seq, text in zip(seqs, bodies, strict=True):
        try:
            event = parse(text)
            if not events and isinstance(event, Start):
                parse = parser_of(event.game)  # BadInput: a game not installed
            events.append(event)
        except (DealerAssistError, ValueError) as exc:
            return RecordFault(seq, unreadable(label, len(events) + 1, exc), hand_id)
    result = fold(events, start_text=bodies[0])
    if isinstance(result, Refused):
        return seqs[result.index], f"{label} does not replay: {result.reason}", hand_id
    last = seqs[-1]
    if info.status != "settled":
        # only a void or a misdeal reopens a settled hand (its lines stay): lines on an open
        # hand without either mean the status was changed, hiding the hand from the ledger check
        if ledger and not any(e.__class__ in (Void, Misdeal) for e in events):
            return last, (f"{label} has ledger lines but is marked open, and no void or "
                          "misdeal reopened it (its status was changed)"), hand_id
        return None
    if not result.over:
        return last, f"{label} is marked settled but its events do not finish it", hand_id
    try:
        settlement = result.settle()
    except DealerAssistError as exc:
        return last, f"{label} cannot be settled: {exc}", hand_id
    except Exception as exc:  # (a state its game cannot settle: the hand's fault, named)
        return last, f"{label} cannot be settled ({type(exc).__name__}: {exc})", hand_id
    if not ledger:
        if not settlement_keys(settlement):  # nothing to settle (no chip moved): no lines
            return None
        return last, f"{label} is marked settled but has no ledger lines", hand_id
    if not settlement.conserved:
        return last, (f"{label}'s settlement does not conserve chips (in "
                      f"{settlement.total_in}, out {settlement.total_out})"), hand_id
    stored = sorted(x.key() for x in ledger)
    if settlement_keys(settlement) == stored:
        return None
    derived = ledger_lines(hand_id, settlement)
    if sorted(x.key() for x in derived) == stored:  # (same_lines, for either kind of line)
        return None
    for earlier in result.game.earlier_rules(result.state) if result.misdeal is None else ():
        if settlement_keys(earlier.settlement) == stored:
            return HandNote(last, f"{label} was settled under {earlier.name}: "
                            + earlier_difference(settlement, earlier.settlement), hand_id)
    return last, (f"{label}'s ledger lines do not match its events: "
                  f"{ledger_diff(derived, ledger)}"), hand_id


def _show_line(x: LedgerLine | StoredLine) -> str:
    who = "" if x.seat is None else f" seat {x.seat}"
    kind = f"{x.kind}:{x.detail}" if x.detail else x.kind
    return f"{kind}{who} {x.amount}"


def ledger_diff(
    derived: Sequence[LedgerLine],
    stored: Sequence[LedgerLine] | Sequence[StoredLine],
    *,
    show: Callable[[Any], str] = _show_line,
    ours: str = "events give",
    fallback: str = "different lines",
) -> str:
    """Where the lines the events give and the stored ledger part, in words (verify, reports)."""
    a = sorted(show(x) for x in derived)
    b = sorted(show(x) for x in stored)
    missing = [x for x in a if x not in b]
    extra = [x for x in b if x not in a]
    parts = []
    if missing:
        parts.append(f"{ours} " + ", ".join(missing))
    if extra:
        parts.append("ledger has " + ", ".join(extra))
    return "; ".join(parts) or fallback
