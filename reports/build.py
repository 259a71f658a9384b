"""Report-data objects built from the store (read-only).

Every figure is re-derived by replaying the hands through their games, then compared with the
ledger the store wrote at settlement; any difference becomes an exception line rather than a
silently chosen number. The chain each report rests on is re-checked from its first event.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import lru_cache, wraps
from typing import Any, TypeVar

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import Folded, Refused, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.engine.stored import earlier_difference, fold, parser_of
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.events import Event, Start, Void
from dealer_assist.gc_pause import paused_gc
from dealer_assist.money import format_cents
from dealer_assist.reports.data import (
    AdjustmentLine,
    AuditLine,
    AuditReport,
    ChainCheck,
    CountLine,
    CountSignoff,
    DayReport,
    DisputeLine,
    DisputeNote,
    DropCount,
    DropRecord,
    EventLine,
    ExceptionLine,
    FeeSchedule,
    FeeTotal,
    FundBalance,
    Generated,
    HandLine,
    HandReport,
    ImportedHand,
    LedgerEntry,
    Record,
    RevealLine,
    SeatLine,
    SettlementData,
    ShiftReport,
    Signature,
    Snapshot,
    StackChange,
    TableDay,
    TimeCollection,
    VoidLine,
    fees_by_kind,
    fund_balance,
    table_label,
)
from dealer_assist.reports.funds import drop_funds
from dealer_assist.reports.source import (
    Row,
    TableScan,
    find_hand,
    find_shift,
    full_names,
    ledger_rows,
    person,
    scan_table,
    shift_hands,
)
from dealer_assist.reports.sql import LedgerRow, ledger_line
from dealer_assist.services.audit_chain import check_audit_chain
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.ledger import ledger_lines, same_lines
from dealer_assist.services.model import AuditEntry as StoredAudit
from dealer_assist.services.model import Dispute as StoredDispute
from dealer_assist.services.model import Hand, HandFilter, LedgerLine, Shift, StoredEvent, Table
from dealer_assist.services.ports import Store
from dealer_assist.services.timeacct import TimeMark, compare_time_lines, fold_time
from dealer_assist.services.verify import ledger_diff

_B = TypeVar("_B")
#: How exception texts print a time: the room's zone, set by the builder of the report (each
#: builder runs in a context of its own, so one report's zone never reaches another's).
_TEXT_ZONE: ContextVar[Any] = ContextVar("dealer_assist_text_zone", default=None)


def _own_zone(fn: Callable[..., _B]) -> Callable[..., _B]:
    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> _B:
        return copy_context().run(fn, *args, **kwargs)

    return run


#: Replay large shifts in parallel (switch off where forking is unwelcome, e.g. inside a GUI).
PARALLEL = True
#: At most this many "table after a key step" snapshots in a hand history (the last is the end).
MAX_SNAPSHOTS = 12


@dataclass(frozen=True, slots=True)
class Figures(Record):
    """One hand's money, re-derived, and what did not add up."""

    line: HandLine
    exceptions: tuple[ExceptionLine, ...]
    voids: tuple[VoidLine, ...]
    ledger_fees: tuple[FeeTotal, ...]


def _parse(text: str, game: str = "") -> Event:
    """An event from its stored canonical text, in the events of ``game`` ("": the start);
    cached per game (verify's readers): most inputs repeat exactly."""
    return parser_of(game)(text)


@lru_cache(maxsize=4096)
def _fee(kind: str, amount: int, base: int = 0) -> FeeTotal:
    """One collection of ``amount`` (records are immutable, so equal ones are shared: a large
    shift's lines then pickle and travel between processes as references); ``base`` is what a
    fee from the pot was worked out on."""
    return FeeTotal(kind, amount, 1, base)


def _events(rows: Sequence[Row]) -> list[Event]:
    """A hand's events from its rows: the start first, whose game names the rest's events."""
    if not rows:
        return []
    first = _parse(rows[0].text)
    parse = parser_of(first.game if isinstance(first, Start) else "")
    return [first, *[parse(r.text) for r in rows[1:]]]


def _show_money_line(x: LedgerLine) -> str:
    who = "" if x.seat is None else f" seat {x.seat}"
    kind = f"{x.kind} ({x.detail})" if x.detail else x.kind
    return f"{kind}{who} {format_cents(x.amount)}"


def _ledger_diff(derived: list[LedgerLine], stored: list[LedgerLine]) -> str:
    return ledger_diff(derived, stored, show=_show_money_line, ours="replay gives",
                       fallback="the lines differ")


def hand_figures(
    hand: Hand, rows: Sequence[Row], ledger: list[LedgerLine], names: dict[str, str],
    *, approvals: dict[tuple[int, int], str] | None = None,
) -> Figures:
    """Replay one hand (no narration, for speed) and compare its settlement with the ledger."""
    n = hand.number
    exc: list[ExceptionLine] = []
    voids: list[VoidLine] = []
    ledger_fees = tuple(_fee(x.detail or "fee", x.amount) for x in ledger if x.kind == "fee")
    started = utc(rows[0].time) if rows else utc(hand.started_at)
    ended = utc(rows[-1].time) if rows else None
    settlement: Settlement | None = None
    if hand.imported:
        exc.append(ExceptionLine(
            n, "imported from a hand log, not dealt at this table: its figures are the log's "
            "own and it fed no live hand", "imported"))
    try:
        events = _events(rows)
    except (DealerAssistError, ValueError) as e:
        events = []
        exc.append(ExceptionLine(n, f"a stored event cannot be read: {e}", "integrity"))
    for row, ev in zip(rows, events, strict=False):
        if isinstance(ev, Void):
            approved = (approvals or {}).get((hand.id, ev.target), "")
            voids.append(VoidLine(n, utc(row.time), person(names, row.actor), ev.target,
                                  ev.reason, person(names, approved) if approved else ""))
    if events:
        folded = fold(events)  # the same rules as verify and the replay screen
        if isinstance(folded, Refused):
            exc.append(ExceptionLine(
                n, f"does not replay at event {folded.index + 1}: {folded.reason}", "integrity"))
        else:
            if folded.misdeal is not None:
                floor = (approvals or {}).get((hand.id, MISDEAL_KEY), "")
                who = (f"approved by {person(names, floor)}" if floor
                       else "NO APPROVING FLOOR RECORDED")
                exc.append(ExceptionLine(
                    n, f"called off as a misdeal ({folded.misdeal.reason}; {who}): every chip "
                    "put in was returned to the seat that put it in, no fee taken", "misdeal"))
            if folded.over:
                try:
                    settlement = folded.settle()
                except DealerAssistError as e:
                    exc.append(ExceptionLine(n, f"cannot be settled: {e}", "integrity"))
            else:
                exc.append(ExceptionLine(
                    n, "not finished: its money is still on the table and is not counted here",
                    "unfinished"))
    if settlement is not None:
        if not settlement.conserved:
            exc.append(ExceptionLine(
                n, f"settlement does not conserve chips: in {format_cents(settlement.total_in)}, "
                f"out {format_cents(settlement.total_out)}", "integrity"))
        if hand.status != "settled":
            exc.append(ExceptionLine(
                n, "finished but not settled since its last correction: the ledger is not "
                "written for it", "unsettled"))
        elif not ledger and not ledger_lines(hand.id, settlement):
            pass  # no money moved (an OFC or Chinese Poker hand that evened out): nothing owed
        elif not ledger:
            exc.append(ExceptionLine(n, "marked settled but has no ledger lines, though the "
                                     "replay moves money", "ledger"))
        elif not same_lines(ledger_lines(hand.id, settlement), ledger):
            assert isinstance(folded, Folded)  # the settlement is its replay's
            earlier = next((r for r in folded.game.earlier_rules(folded.state)
                            if folded.misdeal is None
                            and same_lines(ledger_lines(hand.id, r.settlement), ledger)), None)
            if earlier is not None:  # a genuine record of an earlier rule, as verify says
                exc.append(ExceptionLine(
                    n, f"settled under {earlier.name}: "
                    + earlier_difference(settlement, earlier.settlement), "earlier rule"))
            else:
                exc.append(ExceptionLine(
                    n, "ledger differs from the replay: "
                    + _ledger_diff(ledger_lines(hand.id, settlement), ledger), "ledger"))
    if settlement is not None:
        s = settlement
        winners = tuple(sorted(((seat, a) for seat, a in s.payouts.items() if a),
                               key=lambda x: (-x[1], x[0])))
        line = HandLine(
            hand_id=hand.id, number=n, started_at=started, ended_at=ended, seats=hand.seats,
            put_in=sum(s.put_in.values()), carry_in=s.carry_in, pushed=sum(s.payouts.values()),
            carry_out=s.carry_out,
            fees=tuple(_fee(f.kind, f.amount, f.base or 0) for f in s.fees if f.amount),
            winners=() if s.extra.get("misdeal") is not None else winners,
            status="settled" if hand.status == "settled" else "unsettled",
            voids=len(voids), disputed=hand.disputed,
            misdeal="misdeal" in s.extra,
        )
    else:
        line = HandLine(
            hand_id=hand.id, number=n, started_at=started, ended_at=None, seats=hand.seats,
            put_in=0, carry_in=0, pushed=0, carry_out=0, status="unfinished", voids=len(voids),
            disputed=hand.disputed,
        )
    return Figures(line, tuple(exc), tuple(voids), ledger_fees)


#: Shifts with at least this many hands are replayed by several processes at once.
PARALLEL_MIN = 600
#: Hands handed to a replaying process at a time.
BATCH = 100


def _rows_of(columns: tuple[tuple[Any, ...], ...]) -> list[Row]:
    """A hand's rows from their columns (seq, hand id, number, stamp, actor, text): a few
    tuples pickle far faster than a list of rows on their way to another process."""
    new = tuple.__new__
    return [new(Row, r) for r in zip(*columns, strict=True)]


#: The Replays whose worker processes are being forked: they inherit it (hands, ledger lines,
#: names, approvals), so a batch sent to them carries only hand ids and rows.
_FORKING: Replays | None = None
_FORK_LOCK = threading.Lock()


def _replay_batch(batch: list[tuple[int, tuple[tuple[Any, ...], ...]]]) -> list[Figures]:
    """In a worker process: the figures of (hand id, row columns) pairs."""
    replays = _FORKING
    if replays is None:
        raise RuntimeError("a report worker was not forked from a report")
    return replays.figures([(hand_id, _rows_of(columns)) for hand_id, columns in batch])


def _idle_processors() -> int:
    """Processors this process may run on (at most 8). The process reading and re-checking the
    chain keeps one of them busy; the replaying processes take the others."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(8, cpus))


class Replays:
    """Every hand's figures: the hands are replayed as the chain scan hands them over.

    For a large shift (``PARALLEL_MIN`` hands or more, several processors, a platform that can
    fork) the replays run on worker processes, one per processor but this process's, while this
    process goes on reading and re-checking the chain; batches no worker has started by the end
    of the chain are replayed here. Otherwise every hand is replayed here at the end. Either way
    each hand is replayed from exactly the rows the scan re-checked: a hand handed over before
    all its rows were read (a correction recorded after the next hand began) is replayed again
    from all of them.
    """

    def __init__(
        self, hands: Sequence[Hand], led: dict[int, list[LedgerRow]], names: dict[str, str],
        approvals: dict[tuple[int, int], str],
    ) -> None:
        global _FORKING
        self.hands = {h.id: h for h in hands}
        self.order = [h.id for h in hands]
        self.led = led
        self.names = names
        self.approvals = approvals
        self.sent: dict[int, int] = {}  # hand id -> rows it was replayed from
        self.batch: list[tuple[int, tuple[tuple[Any, ...], ...]]] = []
        self.futures: list[Future[list[Figures]]] = []
        self.pool: Any = None
        workers = _idle_processors() - 1  # this process reads and re-checks the chain
        if len(hands) >= PARALLEL_MIN and workers >= 1 and PARALLEL:
            for game in {h.game for h in hands}:  # imported once here, not in every worker
                with suppress(DealerAssistError):  # (the hand's replay says what is wrong)
                    get_game(game)
            with _FORK_LOCK:
                _FORKING = self
                try:
                    ctx = multiprocessing.get_context("fork")
                    self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
                    # Fork now (every worker starts at the first task), before the chain's
                    # cursor is open and while this object is the one the workers inherit.
                    self.pool.submit(os.getpid).result()
                except (ValueError, OSError, BrokenProcessPool):
                    self.close()
                finally:
                    _FORKING = None

    def __enter__(self) -> Replays:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def figures(self, items: Iterable[tuple[int, Sequence[Row]]]) -> list[Figures]:
        """Replay these hands from these rows (here, or in a worker process)."""
        with paused_gc():
            return [hand_figures(self.hands[hand_id], rows,
                                 [ledger_line(x) for x in self.led.get(hand_id, [])],
                                 self.names, approvals=self.approvals)
                    for hand_id, rows in items]

    def ready(self, hand_id: int, rows: list[Row]) -> None:
        """The scan has (probably) read all of this hand's rows: start replaying it."""
        if self.pool is None or hand_id in self.sent or hand_id not in self.hands:
            return
        self.sent[hand_id] = len(rows)
        self.batch.append((hand_id, tuple(zip(*rows, strict=True))))
        if len(self.batch) >= BATCH:
            self._send()

    def _send(self) -> None:
        if self.batch and self.pool is not None:
            try:
                self.futures.append(self.pool.submit(_replay_batch, self.batch))
            except (OSError, RuntimeError, BrokenProcessPool):
                for hand_id, _ in self.batch:  # no process to be had: replay these here
                    del self.sent[hand_id]
            self.batch = []

    def results(self, scan: TableScan) -> list[Figures]:
        """Every hand's figures in the hands' order, once the scan is complete."""
        self._send()
        # Batches no worker has started yet are replayed here rather than waited for.
        for fut in reversed(self.futures):
            if not fut.cancel():
                break
        done: dict[int, Figures] = {}
        for fut in self.futures:
            if fut.cancelled():
                continue
            try:
                for f in fut.result():
                    done[f.line.hand_id] = f
            except Exception:  # whatever went wrong there, its hands are replayed here below
                continue  # (a fault in replaying itself then shows here, with its traceback)
        self.close()
        redo = [hand_id for hand_id in self.order if hand_id not in done
                or self.sent.get(hand_id) != len(scan.rows.get(hand_id, ()))]
        done.update((f.line.hand_id, f) for f in self.figures(
            (hand_id, scan.rows.get(hand_id, [])) for hand_id in redo))
        return [done[hand_id] for hand_id in self.order]


def all_figures(
    store: Store, tbl: Table, hands: Sequence[Hand], names: dict[str, str],
    approvals: dict[tuple[int, int], str],
) -> tuple[TableScan, list[Figures]]:
    """Re-check the table's chain and every hand's figures, in order. Replaying is most of a
    large report's work, so for a large shift it runs on the machine's other processors while
    the chain is read (where processes can be forked)."""
    ids = [h.id for h in hands]
    with paused_gc():
        led = ledger_rows(store, ids)
        with Replays(hands, led, names, approvals) as replays:
            scan = scan_table(store, tbl, ids, ready=replays.ready)
            return scan, replays.results(scan)


#: The key under which :func:`_void_approvals` keeps the floor who approved a hand's misdeal.
MISDEAL_KEY = 0


def _void_approvals(store: Store, hand_ids: set[int]) -> dict[tuple[int, int], str]:
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


def _dispute(d: StoredDispute, number: int, names: dict[str, str]) -> DisputeLine:
    by = person(names, d.floor)
    return DisputeLine(
        dispute_id=d.id, hand_number=number, opened_at=utc(d.at), opened_by=by,
        notes=(DisputeNote(utc(d.at), by, d.notes),) if d.notes else (),
        ruling=d.ruling, ruled_by=by if d.ruling else "", ruled_at=utc(d.at) if d.ruling else None,
        adjustments=tuple((a.seat, a.amount, a.note) for a in d.adjustments),
    )


def _game_title(games: Iterable[str]) -> str:
    titles = []
    for g in dict.fromkeys(games):
        try:
            titles.append(get_game(g).title)
        except DealerAssistError:
            titles.append(g)
    return ", ".join(titles) or "no hands dealt"


def _full(names: dict[str, str], user: str | None) -> str:
    return names.get(user or "", user or "")


@_own_zone
def build_shift(
    store: Store, *, shift_id: int | None = None, table: str | None = None, by: str,
    at: datetime, cage: str = "",
) -> ShiftReport:
    """The shift report of ``shift_id`` (default: the latest shift of ``table``, or of any)."""

    shift = find_shift(store, shift_id, table)
    tbl = store.get_table(shift.table_id)
    if tbl is None:
        raise NotFound(f"shift {shift.id} names a table that does not exist")
    room = clock_at(store, utc(shift.opened_at))
    _TEXT_ZONE.set(room.tz)
    names = full_names(store)
    hands = shift_hands(store, shift)
    ids = [h.id for h in hands]
    approvals = _void_approvals(store, set(ids))
    scan, figures = all_figures(store, tbl, hands, names, approvals)
    lines: list[HandLine] = []
    exc: list[ExceptionLine] = []
    voids: list[VoidLine] = []
    ledger_fee_lines: list[FeeTotal] = []
    revealed = {e.hand_id for e in store.audit_log(action="reveal")}
    for f in figures:
        lines.append(replace(f.line, revealed=True) if f.line.hand_id in revealed else f.line)
        exc.extend(f.exceptions)
        voids.extend(f.voids)
        ledger_fee_lines.extend(f.ledger_fees)
    exc[:0] = _shift_exceptions(shift, scan.head)
    tf = time_figures(store, tbl, shift.opened_at, shift.closed_at, names)
    if tf.exception is not None:
        exc.append(tf.exception)
    exc.extend(tf.void_exceptions)
    voids.extend(tf.voids)
    if tf.ledger_count:
        ledger_fee_lines.append(FeeTotal("time", tf.ledger_total, tf.ledger_count))
    number = {h.id: h.number for h in hands}
    disputes = tuple(_dispute(d, number[d.hand_id], names) for d in store.disputes()
                     if d.hand_id in number)
    for d in disputes:
        if d.adjustments:
            moved = sum(a for _, a, _ in d.adjustments if a > 0)
            exc.append(ExceptionLine(d.hand_number, f"dispute {d.dispute_id} ruling moved "
                                     f"{format_cents(moved)} outside the hand's settlement",
                                     "adjustment"))
    reveals = tuple(
        reveal_line(number[e.hand_id], e, names)
        for e in store.audit_log(action="reveal") if e.hand_id in number
    )
    stack_changes = _stack_changes(store, number, names)
    exc.extend(ExceptionLine(c.hand_number, f"started with {c.changes}, approved by "
                             f"{c.approved_by}", "carry")
               for c in stack_changes if c.approved_by)
    dealers = list(dict.fromkeys([shift.dealer, *(h.started_by for h in hands),
                                  *([shift.closed_by] if shift.closed_by else [])]))
    floors = list(dict.fromkeys([shift.floor, *([shift.closed_floor] if shift.closed_floor
                                                 else [])]))
    drop = drop_count(store, names, shift.id, tbl.name, fees_by_kind(
        [*(f for line in lines for f in line.fees),
         *(FeeTotal("time", c.amount, 1) for c in tf.derived)]),
        count_entries(store, names).get(shift.id, ()))
    exc.extend(count_exceptions(drop, shift=shift, tolerance=_tolerance(store)))
    funds, fund_exc = drop_funds(store, shift.opened_at, shift.closed_at or at)
    exc.extend(fund_exc)
    exc.extend(_replay_vs_ledger(funds, shift.table_id, tbl.name, lines))
    return ShiftReport(
        cardroom=store.cardroom_name(), table=tbl.name, game=_game_title(h.game for h in hands),
        shift_id=shift.id, opened_at=utc(shift.opened_at),
        closed_at=utc(shift.closed_at) if shift.closed_at else None,
        dealers=tuple(person(names, d) for d in dealers),
        floor=tuple(person(names, f) for f in floors),
        hands=tuple(lines), chain=scan.head, generated=Generated(utc(at), by, zone=room.zone),
        signatures=(
            Signature("Dealer", _full(names, shift.closed_by or shift.dealer)),
            Signature("Floor", _full(names, shift.closed_floor or shift.floor)),
            Signature("Cage", cage),
        ),
        voids=tuple(voids), disputes=disputes, reveals=reveals, exceptions=tuple(exc),
        ledger_fees=fees_by_kind(ledger_fee_lines), time=tf.derived,
        stack_changes=stack_changes,
        schedules=fee_schedules(store, tbl, shift.opened_at, shift.closed_at, names),
        gaming_day=_gaming_day(store, utc(shift.opened_at)),
        room_shift=room.shift_of(utc(shift.opened_at)),
        count=drop, drop_funds=funds,
    )


def _stack_changes(
    store: Store, number: dict[int, int], names: dict[str, str],
) -> tuple[StackChange, ...]:
    """The ``stacks`` entries of the shift's hands (``number``: hand id to number): what each
    hand started with other than the last hand left it, and the floor person who approved a
    change that needs one ("...; approved by fran")."""
    out: list[StackChange] = []
    for e in store.audit_log(action="stacks"):
        if e.hand_id not in number:
            continue
        text = e.detail.split(": ", 1)[1] if ": " in e.detail else e.detail
        changes, sep, who = text.rpartition("; approved by ")
        if not sep:
            changes, who = text, ""
        out.append(StackChange(number[e.hand_id], utc(e.at), person(names, e.actor or ""),
                               changes, person(names, who) if who else ""))
    return tuple(out)


def count_entries(store: Store, names: dict[str, str]) -> dict[int, list[CountLine]]:
    """Every drop count entry, by shift id, in the order entered."""
    from dealer_assist.services.counts import counts

    out: dict[int, list[CountLine]] = {}
    for e in counts(store):
        c = e.count
        out.setdefault(c.shift_id, []).append(CountLine(
            e.number, utc(e.at), person(names, e.by), c.box, c.counted, c.team,
            tuple(sorted(c.denominations.items(), reverse=True)), c.corrects, c.reason,
            started=c.started, ended=c.ended, boxes=c.boxes, independence=c.independence))
    return out


def drop_count(store: Store, names: dict[str, str], shift_id: int, table: str,
               expected: tuple[FeeTotal, ...], entries: Sequence[CountLine]) -> DropCount:
    """A shift's drop: the expected figures, its count entries, the box's registration and
    drop, and the sign-off of the count in force."""
    from dealer_assist.services.counts import box_entries, signoffs

    boxes = box_entries(store)
    numbers = {e.number for e in entries}
    signed = tuple(CountSignoff(so.number, utc(so.at), person(names, so.by), so.explanation,
                                so.entry, so.follows, so.reason)
                   for so in signoffs(store) if so.entry in numbers)
    drop = None
    if entries:
        box = entries[-1].box
        reg = next((b for b in boxes if b.box == box and b.shift_id is None), None)
        dropped = next((b for b in boxes if b.box == box and b.shift_id == shift_id), None)
        drop = DropRecord(box, utc(reg.at) if reg else None,
                          person(names, reg.by) if reg else "",
                          utc(dropped.at) if dropped else None,
                          person(names, dropped.by) if dropped else "")
    else:
        dropped = next((b for b in boxes if b.shift_id == shift_id), None)
        if dropped is not None:
            drop = DropRecord(dropped.box, None, "", utc(dropped.at),
                              person(names, dropped.by))
    return DropCount(table, shift_id, expected, tuple(entries), signoffs=signed, drop=drop)


def count_exceptions(drop: DropCount, prefix: str = "", shift: Shift | None = None,
                     tolerance: timedelta = timedelta(minutes=5)) -> list[ExceptionLine]:
    """What a count (or its absence) leaves to check: a count that differs from the records
    (with both figures and whether the variance was explained and signed off), a closed shift
    whose box was never counted, a count entered while its shift was still open, a count
    team of one person, a count whose times lie before its shift opened or its box's drop or
    after it was entered, and a sign-off made before the count it signs off had ended."""
    out: list[ExceptionLine] = []
    out += _count_time_exceptions(drop, prefix, shift, tolerance)
    closed = utc(shift.closed_at) if shift is not None and shift.closed_at else None
    if shift is not None and closed is not None and not drop.entries:
        out.append(ExceptionLine(None, f"{prefix}shift {drop.shift_id} closed at "
                                 f"{when_text(closed)} and its drop box was never counted",
                                 "count"))
    for e in drop.entries:
        if shift is not None and (closed is None or e.at < closed):
            out.append(ExceptionLine(None, f"{prefix}count entry {e.number} (drop box {e.box}) "
                                     f"was entered at {when_text(e.at)}, while shift "
                                     f"{drop.shift_id} was still open", "count"))
        if len(e.team) < 2:
            out.append(ExceptionLine(None, f"{prefix}count entry {e.number} (drop box {e.box}) "
                                     f"was counted by one person ({', '.join(e.team)}): a "
                                     "count team has at least two", "count"))
    c, v = drop.in_force, drop.variance
    if c is None or not v:
        return out
    word = f"over by {format_cents(v)}" if v > 0 else f"SHORT by {format_cents(-v)}"
    signed = drop.signoff
    tail = (f"; explained ({signed.explanation}) and signed off by {signed.by}" if signed
            else "; NOT YET EXPLAINED AND SIGNED OFF by a second person")
    out.append(ExceptionLine(None, f"{prefix}drop box {c.box} (shift {drop.shift_id}) counted "
                             f"{format_cents(c.counted)} where the records give "
                             f"{format_cents(drop.expected_total)}: {word} (count entry "
                             f"{c.number}){tail}", "count"))
    return out


def _tolerance(store: Store) -> timedelta:
    from dealer_assist.services.counts import room_clock_of

    return room_clock_of(store).tolerance


def _count_time_exceptions(drop: DropCount, prefix: str, shift: Shift | None,
                           tolerance: timedelta) -> list[ExceptionLine]:
    """The rules a count's times keep at input (docs/reports.md, Drop count), re-checked on the
    records: whatever let a count in, the report names it."""
    out: list[ExceptionLine] = []

    def minute(t: datetime) -> datetime:
        return utc(t).replace(second=0, microsecond=0)

    dropped = drop.drop.dropped_at if drop.drop is not None else None
    by_number = {e.number: e for e in drop.entries}
    for e in drop.entries:
        if e.started is None or e.ended is None:
            continue
        what = f"{prefix}count entry {e.number} (drop box {e.box}) ran {when_text(e.started)} " \
               f"to {when_text(e.ended)}"
        if utc(e.ended) > utc(e.at) + tolerance:
            out.append(ExceptionLine(None, f"{what}, yet was entered at {when_text(e.at)}: "
                                     "it ends after it was entered", "count"))
        if shift is not None and utc(e.started) < minute(shift.opened_at):
            out.append(ExceptionLine(None, f"{what}: it starts before shift {drop.shift_id} "
                                     f"opened ({when_text(utc(shift.opened_at))})", "count"))
        if dropped is not None and utc(e.started) < minute(dropped):
            out.append(ExceptionLine(None, f"{what}: it starts before the box's drop "
                                     f"({when_text(dropped)})", "count"))
    for so in drop.signoffs:
        c = by_number.get(so.entry)
        if c is not None and c.ended is not None and utc(so.at) < utc(c.ended):
            out.append(ExceptionLine(None, f"{prefix}sign-off entry {so.number} of count entry "
                                     f"{c.number} was made at {when_text(so.at)}, before the "
                                     f"count ended ({when_text(c.ended)})", "count"))
    return out


def when_text(t: datetime) -> str:
    """A time in an exception's words: the room's local time with its zone named."""
    zone = _TEXT_ZONE.get()
    lt = utc(t).astimezone(zone) if zone is not None else utc(t)
    return f"{lt:%Y-%m-%d %H:%M} {lt.tzname() or 'UTC'}"


def fee_schedules(store: Store, table: Table, since: datetime, until: datetime | None,
                  names: dict[str, str]) -> tuple[FeeSchedule, ...]:
    """The table's fee schedule in force at ``since`` and every change before ``until``."""
    from dealer_assist.fees import parse_fee_policy

    versions = store.settings_versions(table.id)
    out: list[FeeSchedule] = []
    for i, v in enumerate(versions):
        starts = utc(v.created_at)
        ends = utc(versions[i + 1].created_at) if i + 1 < len(versions) else None
        if (ends is not None and ends <= utc(since)) or (until is not None
                                                          and starts >= utc(until)):
            continue
        doc = v.document
        try:
            policy = parse_fee_policy(doc.get("fee"))
            fee = policy.describe() if policy is not None else "no house fee"
        except DealerAssistError as e:
            fee = f"unreadable fee settings: {e}"
        out.append(FeeSchedule(table.name, v.version, starts, person(names, v.created_by), fee,
                               str(doc.get("preset") or "")))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TimeFigures:
    """A table's time collections in a window: by folding its seat and period events again,
    and as the ledger recorded them (a difference is an exception line)."""

    derived: tuple[TimeCollection, ...]
    ledger_total: int
    ledger_count: int
    exception: ExceptionLine | None = None
    #: The seat and period marks voided in the window, and an exception line for each.
    voids: tuple[VoidLine, ...] = ()
    void_exceptions: tuple[ExceptionLine, ...] = ()


def time_figures(store: Store, table: Table, since: datetime, until: datetime | None,
                 names: dict[str, str] | None = None) -> TimeFigures:
    """Fold the table's seat and period events; keep the collections made in the window."""
    rows = store.table_level_events(table.id)
    stored = store.time_ledger(table.id, since=since, until=until)
    if not rows and not stored:
        return TimeFigures((), 0, 0)
    fold = fold_time(table.id, table.name, store.settings_versions(table.id), rows, None,
                     marks=True)

    def inside(at: datetime | None) -> bool:
        return at is not None and utc(since) <= utc(at) and (until is None or utc(at) < utc(until))

    derived = [x for x in fold.lines if inside(x.at)]
    exception = None
    problem = fold.problem or compare_time_lines(derived, stored)
    if problem is not None:
        exception = ExceptionLine(None, f"time collection, event {problem.seq}: "
                                  f"{problem.message}", "ledger")
    voids, void_exc = _time_voids(store, table, fold.marks, rows, derived, inside, names or {})
    return TimeFigures(
        tuple(TimeCollection(utc(x.at), x.seat or 0, x.amount, x.period or 0)
              for x in derived if x.at is not None),
        sum(x.amount for x in stored), len(stored), exception, voids, void_exc,
    )


def _time_voids(
    store: Store, table: Table, marks: Sequence[TimeMark], rows: Sequence[StoredEvent],
    derived: Sequence[LedgerLine], inside: Callable[[datetime | None], bool],
    names: dict[str, str],
) -> tuple[tuple[VoidLine, ...], tuple[ExceptionLine, ...]]:
    """The voided seat and period marks of the window: a void line each (what, why, who, the
    floor's approval) and an exception line naming the money the void moved."""
    what = {m.number: m.what for m in marks}
    approved: dict[int, str] = {}
    pat = re.compile(r"^table mark (\d+) .*; approved by (\S+)$")
    for e in store.audit_log(action="void"):
        if e.table_id == table.id and e.hand_id is None:
            m = pat.match(e.detail)
            if m:
                approved[int(m.group(1))] = m.group(2)
    voids: list[VoidLine] = []
    exc: list[ExceptionLine] = []
    for row in rows:
        if row.body.get("type") != "void" or not inside(row.time):
            continue
        target, reason = row.body.get("target"), row.body.get("reason")
        if not isinstance(target, int) or not isinstance(reason, str):
            continue  # unreadable: the fold names it
        floor = approved.get(target, "")
        voids.append(VoidLine(None, utc(row.time), person(names, row.actor), target, reason,
                              person(names, floor) if floor else "", f"mark {target}"))
        moved = [x for x in derived if x.seq == row.seq]
        money = "; ".join(
            f"seat {x.seat} {'given back' if x.amount < 0 else 'collected'} "
            f"{format_cents(abs(x.amount))}" for x in moved) or "no money moved"
        exc.append(ExceptionLine(
            None, f"{table_label(table.name)} time mark {target} "
            f"({what.get(target, 'a mark')}) voided at {when_text(row.time)} by "
            f"{person(names, row.actor)}: {reason}; {money}"
            + (f"; approved by {person(names, floor)}" if floor else ""), "void"))
    return tuple(voids), tuple(exc)


def _shift_exceptions(shift: Shift, head: ChainCheck) -> list[ExceptionLine]:
    out = []
    if not head.verified:
        out.append(ExceptionLine(None, f"the event chain failed verification: {head.message}",
                                 "integrity"))
    if shift.closed_at is None:
        out.append(ExceptionLine(None, "the shift is still open: figures are as of the report "
                                 "time", "open shift"))
    return out


# --- hand history / dispute --------------------------------------------------------------------

_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _card_codes(ev: Event) -> list[str]:
    """The codes of the cards the event says it carries (its own declaration)."""
    return [c.code for c in ev.carried_cards()]


def _pretty_code(text: str) -> str:
    """``10♦`` -> ``Td`` (seat views carry screen forms; reports keep codes)."""
    for sym, letter in _SUITS.items():
        if text.endswith(sym):
            rank = text[: -len(sym)]
            return ("T" if rank == "10" else rank) + letter
    return text


def _voided_text(ev: Event) -> str:
    """What a voided event had said, for the history (it did not count)."""
    seat = f" for seat {ev.seat_of}" if ev.seat_of is not None else ""
    codes = " ".join(_card_codes(ev))
    return f"{ev.TYPE}{seat}{': ' + codes if codes else ''} (voided: it does not count)"


def _mask(text: str, codes: set[str]) -> str:
    if not codes:
        return text
    pat = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(map(re.escape, codes))) +
                     r")(?![A-Za-z0-9])")
    return pat.sub("[withheld]", text)


def build_hand(
    store: Store, *, hand_id: int | None = None, table: str | None = None, by: str,
    at: datetime, reveal: RevealLine | None = None, cage: str = "",
) -> HandReport:
    """Hand history of ``hand_id`` (default: the latest hand); with ``reveal`` (a floor
    authorisation already checked and logged by the caller) destroyed hands' cards are shown."""
    hand = find_hand(store, hand_id, table)
    tbl = store.get_table(hand.table_id)
    if tbl is None:
        raise NotFound(f"hand {hand.id} names a table that does not exist")
    names = full_names(store)
    scan = scan_table(store, tbl, [hand.id])
    rows = scan.rows.get(hand.id, [])
    ledger = store.ledger(hand.id)
    approvals = _void_approvals(store, {hand.id})
    fig = hand_figures(hand, rows, ledger, names, approvals=approvals)
    exc = list(fig.exceptions)
    if not scan.head.verified:
        exc.insert(0, ExceptionLine(None, f"the event chain failed verification: "
                                    f"{scan.head.message}", "integrity"))
    shift = store.get_shift(hand.shift_id)
    events_out: list[EventLine] = []
    snaps: list[Snapshot] = []
    settlement: SettlementData | None = None
    try:
        rep = replay(_events(rows))
    except DealerAssistError:
        rep = None
    if rep is not None:
        game = rep.game
        # Seats whose cards end the hand turned down (destroyed, folded) keep them secret
        # throughout; cards that were shown in the end may be printed at every step.
        hidden_seats = set(game.secret_seats(rep.state))
        hidden_codes = {c for step in rep.steps if step.event.seat_of in hidden_seats
                        for c in _card_codes(step.event)}
        show = reveal is not None
        for step, row in zip(rep.steps, rows, strict=False):
            ev = step.event
            secret = ev.seat_of in hidden_seats and bool(_card_codes(ev))
            text = _voided_text(ev) if step.voided else "; ".join(step.lines)
            if not show:
                text = (f"{ev.TYPE} for seat {ev.seat_of}: cards withheld (hand later "
                        "turned down)") if secret else _mask(text, hidden_codes)
            elif secret:
                text += "  [REVEALED]"
            events_out.append(EventLine(
                n=step.number, seq=row.seq, at=utc(row.time), actor=_full(names, row.actor),
                kind=ev.TYPE, text=text, voided=step.voided, hidden=secret and not show))
        snaps = _snapshots(rep, hidden_seats, show, hidden_codes)
        if rep.over:
            s = rep.settle()
            settlement = SettlementData(
                put_in=dict(s.put_in), payouts=dict(s.payouts), carry_in=s.carry_in,
                carry_out=s.carry_out, fees=tuple((f.kind, f.amount, f.from_seat, f.note)
                                                  for f in s.fees),
                steps=tuple((p.n, p.text if show else _mask(p.text, hidden_codes), p.amount)
                            for p in s.steps))
    disputes = tuple(_dispute(d, hand.number, names) for d in store.disputes(hand.id))
    for d in disputes:  # the same exception the shift and day reports list for this hand
        if d.adjustments:
            moved = sum(a for _, a, _ in d.adjustments if a > 0)
            exc.append(ExceptionLine(d.hand_number, f"dispute {d.dispute_id} ruling moved "
                                     f"{format_cents(moved)} outside the hand's settlement",
                                     "adjustment"))
    dealer = _full(names, hand.started_by)
    floor_user = (reveal.by if reveal is not None else
                  (disputes[-1].ruled_by if disputes else
                   person(names, shift.floor) if shift else ""))
    sigs = [Signature("Dealer", dealer),
            Signature("Floor", floor_user.rsplit(" (", 1)[0] if floor_user else "")]
    if cage:
        sigs.append(Signature("Cage", cage))
    return HandReport(
        cardroom=store.cardroom_name(), table=tbl.name, game=_game_title([hand.game]),
        hand_id=hand.id, number=hand.number, shift_id=hand.shift_id,
        started_at=utc(rows[0].time) if rows else utc(hand.started_at),
        ended_at=fig.line.ended_at if fig.line.status != "unfinished" else None,
        dealer=person(names, hand.started_by), events=tuple(events_out),
        snapshots=tuple(snaps), settlement=settlement,
        ledger=tuple(LedgerEntry(x.kind, x.amount, x.seat, x.detail) for x in ledger),
        disputes=disputes, chain=scan.head,
        generated=Generated(utc(at), by, zone=clock_at(store, utc(hand.started_at)).zone),
        signatures=tuple(sigs), revealed=reveal, exceptions=tuple(exc),
    )


def _snapshots(rep: Any, hidden_seats: set[int], show: bool,
               hidden_codes: set[str]) -> list[Snapshot]:
    """The table after key steps: the end of the first phase, whenever a hand is turned down
    or an event voided, and at the end."""
    game = rep.game
    keys: list[tuple[int, str]] = []
    first_phase = game.prompt(rep.steps[0].state).phase
    left_first = False
    down_before: frozenset[int] = frozenset()
    for i, step in enumerate(rep.steps):
        view = game.view(step.state, reveal=True)
        down = frozenset(sv.seat for sv in view.seats if sv.face_down)
        last = i == len(rep.steps) - 1
        label = ""
        if i and not left_first and game.prompt(step.state).phase != first_phase:
            left_first = True
            label = "the first round is complete"
        if down != down_before:
            turned = sorted(down - down_before)
            if turned:
                label = label or ("seat " + ", ".join(map(str, turned)) + " turned down")
        if step.event.TYPE == "void":
            label = label or f"correction: event {step.event.target} voided"
        if last:
            label = "end of the hand" if rep.over else "the hand as it stands (not finished)"
        down_before = down
        if label:
            keys.append((i, label))
    if len(keys) > MAX_SNAPSHOTS:
        keys = keys[: MAX_SNAPSHOTS - 1] + keys[-1:]
    out = []
    for i, label in keys:
        step = rep.steps[i]
        view = game.view(step.state, reveal=True)
        seats = []
        for sv in view.seats:
            secret = sv.seat in hidden_seats
            codes = tuple(_pretty_code(c) for c in sv.cards)
            if secret and not show:
                seats.append(SeatLine(sv.seat, (), withheld=len(codes) + sv.hidden,
                                       status=sv.status, detail="", put_in=sv.put_in))
            else:
                seats.append(SeatLine(sv.seat, codes, face_down=sv.hidden, status=sv.status,
                                       detail=sv.detail if show else _mask(sv.detail,
                                                                           hidden_codes),
                                       put_in=sv.put_in, revealed=secret and show))
        out.append(Snapshot(
            after_event=step.number, label=label, seats=tuple(seats),
            board=tuple(_pretty_code(c) for c in view.board), pots=tuple(view.pots),
            info=tuple(x for x in view.info if not x.startswith("Order"))))
    return out


# --- audit -------------------------------------------------------------------------------------


def _chains(store: Store, tables: Iterable[Table]) -> tuple[ChainCheck, ...]:
    return tuple(scan_table(store, t, ()).head for t in tables)


def build_audit(
    store: Store, *, since: datetime, until: datetime, by: str, at: datetime,
    signer: str = "",
) -> AuditReport:
    """The sensitive-actions log for ``[since, until)``."""
    names = full_names(store)
    roles = {u.name: u.role for u in store.list_users()}
    tables = {t.id: t for t in store.list_tables()}
    hand_no: dict[int, int] = {}

    def target(e: StoredAudit) -> str:
        parts = []
        if e.table_id is not None and e.table_id in tables:
            parts.append(table_label(tables[e.table_id].name))
        if e.hand_id is not None:
            if e.hand_id not in hand_no:
                h = store.get_hand(e.hand_id)
                hand_no[e.hand_id] = h.number if h else e.hand_id
            parts.append(f"hand {hand_no[e.hand_id]}")
        return ", ".join(parts)

    floors = dict.fromkeys(e.actor for e in store.audit_log(since=since, until=until)
                           if e.actor and roles.get(e.actor) == "floor")
    floor_sigs = tuple(Signature("Floor", _full(names, f)) for f in floors) or (
        Signature("Floor", ""),)
    entries = tuple(
        AuditLine(utc(e.at), person(names, e.actor), roles.get(e.actor or "", ""), e.action,
                   _subject(e.action, target(e), e.detail),
                   _named(_detail(e.action, e.detail), names),
                   e.seq or e.id)
        for e in sorted(store.audit_log(since=since, until=until), key=lambda e: (e.seq, e.at,
                                                                                  e.id))
    )
    every = store.audit_log(records=True)
    inside = [e for e in every if utc(since) <= utc(e.at) < utc(until)]
    by_kind: dict[str, list[int]] = {}
    for e in inside:
        if e.action.startswith("record-"):
            by_kind.setdefault(e.action, []).append(e.seq or e.id)
    records = tuple((k, len(v), number_ranges(v)) for k, v in sorted(by_kind.items()))
    seen = sorted({e.seq or e.id for e in inside})
    missing = ([n for n in range(seen[0], seen[-1] + 1) if n not in set(seen)]
               if seen else [])
    head = store.audit_head()
    check = check_audit_chain(every, head)
    audit_chain = ChainCheck("audit log", head.entries, head.hash, check.ok,
                            check.problem or f"{check.entries} entries re-checked")
    funds, fund_exc = drop_funds(store, since, until)
    exceptions = (*fund_exc, *_rule_exceptions(store, since, until))
    return AuditReport(
        cardroom=store.cardroom_name(), period_from=utc(since), period_to=utc(until),
        entries=entries, chains=_chains(store, tables.values()), audit_chain=audit_chain,
        generated=Generated(utc(at), by, zone=_zone(store)),
        signatures=(Signature("Auditor", signer), *floor_sigs),
        records=records, gaps=number_ranges(missing),
        drop_funds=funds, exceptions=exceptions,
    )


def _rule_exceptions(store: Store, since: datetime, until: datetime) -> list[ExceptionLine]:
    """The rules enforced at input, re-checked as ``verify`` does: each breach whose record
    falls in the period, named with its records."""
    from dealer_assist.services.rulecheck import rule_findings, rule_records

    return [ExceptionLine(None, f"{f.rule}: {f.text}", "rule")
            for f in rule_findings(rule_records(store))
            if utc(since) <= utc(f.at) < utc(until)]


def _replay_vs_ledger(funds: Sequence[Any], table_id: int, table: str,
                      lines: Sequence[HandLine]) -> list[ExceptionLine]:
    """Each fund's drops at this table as the hands' replay gives them must be the drops the
    ledger recorded (what the fund's balance is built from)."""
    from dealer_assist.fees import fund_of

    out = []
    for f in funds:
        replayed = sum(x.amount for h in lines for x in h.fees
                       if x.fund and fund_of(x.kind) == f.fund)
        recorded = sum(d.amount for d in f.drops if d.table == table)
        if replayed != recorded:
            out.append(ExceptionLine(None, (
                f"{f.fund} fund: the ledger records {format_cents(recorded)} dropped at "
                f"{table_label(table)} in the period; the hands' replay gives "
                f"{format_cents(replayed)}"), "error"))
    return out


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


def _detail(action: str, detail: str) -> str:
    """An entry's detail in words (a count or the room clock is stored as JSON)."""
    from dealer_assist.services.room import describe_entry

    said = describe_entry(action, detail)
    return detail if said is None else said


_APPROVED_BY = re.compile(r"(approved by |floor )([a-z0-9_.-]+)\b")


def _named(detail: str, names: dict[str, str]) -> str:
    """A detail naming a person by sign-in name ("approved by fran", "floor fran") with the
    full name too, as everywhere else in the reports."""
    return _APPROVED_BY.sub(
        lambda m: m.group(1) + (person(names, m.group(2)) if m.group(2) in names
                                else m.group(2)), detail)


#: How a refused approval's detail says who was refused, before what they tried to approve
#: ("floor cannot approve ...", "fran tried to approve their own ...").
_REFUSED_APPROVAL = re.compile(r"^.*? (?:cannot approve|tried to approve their own) ")


def _subject(action: str, where: str, detail: str) -> str:
    """What an entry concerns: an approval names what it approved ("misdeal of hand 8"),
    with the table; a refused one what it would have approved (who was refused, and why,
    stays in the detail); other entries their table and hand."""
    if action in ("approval", "approval-refused") and detail:
        what = _REFUSED_APPROVAL.sub("", detail, count=1) if action != "approval" else detail
        return f"{where}: {what}" if where else what
    return where


# --- day summary -------------------------------------------------------------------------------


def clock_at(store: Store, t: datetime) -> Any:
    """The room clock that keeps the gaming day ``t`` belongs to (a change applies from the
    next day not yet started)."""
    from dealer_assist.services.counts import room_clock_at

    return room_clock_at(store, t)


def _gaming_day(store: Store, t: datetime) -> date:
    from dealer_assist.services.counts import gaming_day_of

    return gaming_day_of(store, t)


def _zone(store: Store) -> str:
    from dealer_assist.services.counts import room_clock_of

    return room_clock_of(store).zone


def latest_day(store: Store) -> date:
    """The gaming day of the most recent hand, by the room's clock."""
    from dealer_assist.services.counts import gaming_day_of

    last = store.list_hands(HandFilter(limit=1))
    if not last:
        raise NotFound("no hand has been dealt yet: nothing to report")
    return gaming_day_of(store, utc(last[0].started_at))


@_own_zone
def build_day(
    store: Store, *, day: date | None = None, by: str, at: datetime, cage: str = "",
) -> DayReport:
    """Every table's hands started in the gaming day ``day`` (from the room's day-start hour,
    local time, to the next; UTC midnight when no room clock is set), with the room's totals."""

    from dealer_assist.services.counts import day_bounds_of

    day = day or latest_day(store)
    since, until, room = day_bounds_of(store, day)
    _TEXT_ZONE.set(room.tz)
    names = full_names(store)
    hands = sorted(store.list_hands(HandFilter(since=since, until=until, limit=None)),
                   key=lambda h: (h.table_id, h.number))
    imported = [h for h in hands if h.imported]  # their own section, outside every total
    hands = [h for h in hands if not h.imported]
    by_table: dict[int, list[Hand]] = {}
    for h in hands:
        by_table.setdefault(h.table_id, []).append(h)
    for x in store.time_ledger(since=since, until=until):  # tables that only collected time
        if x.table_id is not None:
            by_table.setdefault(x.table_id, [])
    by_table = dict(sorted(by_table.items()))
    tables = {t.id: t for t in store.list_tables()}
    all_disputes = store.disputes()
    reveals = store.audit_log(action="reveal")
    approvals = _void_approvals(store, {h.id for h in hands})
    rows: list[TableDay] = []
    chains: list[ChainCheck] = []
    exc: list[ExceptionLine] = []
    fee_lines: list[FeeTotal] = []
    shift_lines: list[tuple[str, int, datetime, datetime | None, str, int, int]] = []
    schedules: list[FeeSchedule] = []
    drops: list[DropCount] = []
    by_room_shift: dict[str, list[int]] = {}
    entries = count_entries(store, names)
    floors: list[str] = []
    funds: list[FundBalance] = []
    adjustments: list[AdjustmentLine] = []
    for table_id, th in by_table.items():
        t = tables[table_id]
        ids = [h.id for h in th]
        scan, figs = all_figures(store, t, th, names, approvals)
        chains.append(scan.head)
        if not scan.head.verified:
            exc.append(ExceptionLine(None, f"{table_label(t.name)}: the event chain failed "
                                     f"verification: {scan.head.message}", "integrity"))
        for f in figs:
            exc.extend(ExceptionLine(x.hand_number, f"{table_label(t.name)}: {x.text}", x.severity)
                       for x in f.exceptions)
            fee_lines.extend(f.line.fees)
        lines = [f.line for f in figs]
        idset = set(ids)
        number = {h.id: h.number for h in th}
        for d in all_disputes:
            if d.hand_id in idset and d.adjustments:
                moved = sum(a.amount for a in d.adjustments if a.amount > 0)
                exc.append(ExceptionLine(
                    number[d.hand_id], f"{table_label(t.name)}: dispute {d.id} ruling moved "
                    f"{format_cents(moved)} outside the hand's settlement", "adjustment"))
        tf = time_figures(store, t, since, until, names)
        if tf.exception is not None:
            exc.append(replace(tf.exception, text=f"{table_label(t.name)}: {tf.exception.text}"))
        exc.extend(tf.void_exceptions)
        fee_lines.extend(FeeTotal("time", c.amount, 1) for c in tf.derived)
        per_shift: dict[int, list[HandLine]] = {}
        for h, line in zip(th, lines, strict=True):
            per_shift.setdefault(h.shift_id, []).append(line)
        shifts = {s.id: s for s in store.list_shifts(t.id)
                  if utc(s.opened_at) < until and (s.closed_at is None
                                                   or utc(s.closed_at) > since)}
        for sid in sorted(set(per_shift) | set(shifts)):
            sh = shifts.get(sid) or store.get_shift(sid)
            if sh is None:
                continue
            sl = per_shift.get(sid, [])
            opened, closed = utc(sh.opened_at), utc(sh.closed_at) if sh.closed_at else None
            in_shift = [c for c in tf.derived
                        if opened <= c.at and (closed is None or c.at < closed)]
            timed = sum(c.amount for c in in_shift)
            if closed is None and utc(at) >= until and opened < until:
                exc.append(ExceptionLine(None, f"{table_label(t.name)}: shift {sid} is still "
                                         f"open after its gaming day ended at "
                                         f"{when_text(until)}", "open shift"))
            if not sl and not timed and sid not in entries:
                continue
            floors.append(sh.closed_floor or sh.floor)
            shift_lines.append((t.name, sid, opened, closed, person(names, sh.dealer), len(sl),
                                sum(x.fee for x in sl) + timed))
            drops.append(drop_count(store, names, sid, t.name, fees_by_kind(
                [*(f for x in sl for f in x.fees),
                 *(FeeTotal("time", c.amount, 1) for c in in_shift)]),
                entries.get(sid, ())))
            exc.extend(count_exceptions(drops[-1], f"{table_label(t.name)}: ", sh,
                                        _tolerance(store)))
        schedules.extend(fee_schedules(store, t, since, until, names))
        for line in lines:
            name = room.shift_of(line.ended_at or line.started_at) or "all day"
            got = by_room_shift.setdefault(name, [0, 0, 0])
            got[0] += 1
            got[1] += line.fee
        for c in tf.derived:
            name = room.shift_of(c.at) or "all day"
            by_room_shift.setdefault(name, [0, 0, 0])[2] += c.amount
        day_fund = fund_balance(t.name, None, lines)
        if day_fund is not None:
            funds.append(day_fund)
            for sid2, sl2 in sorted(per_shift.items()):
                shift_fund = fund_balance(t.name, sid2, sl2)
                if shift_fund is not None:
                    funds.append(shift_fund)
        adjustments.extend(
            AdjustmentLine(t.name, number[d.hand_id], d.id, a.seat, a.amount, a.note)
            for d in all_disputes if d.hand_id in idset for a in d.adjustments)
        rows.append(TableDay(
            table=t.name, game=_game_title(h.game for h in th), shifts=len(per_shift),
            hands=len(lines), put_in=sum(x.put_in for x in lines),
            carried_in=sum(x.carry_in for x in lines), pushed=sum(x.pushed for x in lines),
            carried_out=sum(x.carry_out for x in lines),
            house_fees=sum(x.house_fee for x in lines),
            jackpot_drop=sum(x.fund_drop for x in lines),
            voids=sum(len(f.voids) for f in figs) + len(tf.voids),
            disputes=sum(1 for d in all_disputes if d.hand_id in idset),
            reveals=sum(1 for e in reveals if e.hand_id in idset
                        and since <= utc(e.at) < until),
            time_fees=sum(c.amount for c in tf.derived),
        ))
    sigs = [Signature("Floor", _full(names, f)) for f in dict.fromkeys(floors)]
    sigs.append(Signature("Cage", cage))
    return DayReport(
        imported=tuple(_imported_line(store, tables, h, names) for h in imported),
        cardroom=store.cardroom_name(), day=day, tables=tuple(rows),
        fees=fees_by_kind(fee_lines), chains=tuple(chains),
        generated=Generated(utc(at), by, zone=room.zone),
        signatures=tuple(sigs), exceptions=tuple(exc), shift_lines=tuple(shift_lines),
        schedules=tuple(schedules), counts=tuple(drops), period=(since, until),
        clock=room.describe(), funds=tuple(funds), adjustments=tuple(adjustments),
        room_shifts=tuple((n, by_room_shift[n][0], by_room_shift[n][1], by_room_shift[n][2])
                          for n in
                          [*(x for x, _ in sorted(room.shifts, key=lambda s: s[1])
                             if x in by_room_shift),
                           *(["all day"] if "all day" in by_room_shift else [])]),
    )


def _imported_line(store: Store, tables: dict[int, Table], h: Hand,
                   names: dict[str, str]) -> ImportedHand:
    """An imported hand as the day summary lists it: what its log says came in, and its fee."""
    lines = store.ledger(h.id)
    t = tables.get(h.table_id)
    return ImportedHand(
        table=t.name if t is not None else f"#{h.table_id}", number=h.number, game=h.game,
        imported_by=person(names, h.started_by), at=utc(h.started_at), status=h.status,
        money_in=sum(x.amount for x in lines if x.kind in ("put_in", "carry_in")),
        fees=sum(x.amount for x in lines if x.kind == "fee"),
    )


def parse_day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError as exc:
        raise BadInput(f"{text!r} is not a day: write it like 2026-11-21") from exc
    if not 1970 <= day.year <= 9998:
        raise BadInput(f"{text!r} is not a day the room can have records for: write a year "
                       "from 1970 to 9998")
    return day
