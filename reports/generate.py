"""Produce a report end to end: check who asks, build it from the store, write the PDF, log it.

The CLI (``dealer-assist report``) and the floor console's export buttons both call these, so a
report is the same whichever way it was asked for, and every one of them is in the audit log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from dealer_assist.bounded import check_output_file
from dealer_assist.errors import BadInput
from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.hand import build_hand
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.data.audit import AuditReport
from dealer_assist.reports.data.day import DayReport
from dealer_assist.reports.data.hand import HandReport
from dealer_assist.reports.data.lines import RevealLine
from dealer_assist.reports.data.shift import ShiftReport
from dealer_assist.reports.dealer_hours import for_day, for_shift
from dealer_assist.reports.floor_section import floor_of
from dealer_assist.reports.funds import logged as fund_closings
from dealer_assist.reports.game_report import GameReport, build_game, render_game
from dealer_assist.reports.layouts.audit import render_audit
from dealer_assist.reports.layouts.day import render_day
from dealer_assist.reports.layouts.hand import render_hand
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.services import Services, Session
from dealer_assist.services.model import AuditEntry, Seal

Report = ShiftReport | HandReport | AuditReport | DayReport | GameReport


@dataclass(frozen=True, slots=True)
class Written:
    """A report written to ``path``: its data, its page count and the audit line it left."""

    report: Report
    path: Path
    pages: int
    #: The CSV files written beside the PDF (``csv=True``), one per table.
    csv: tuple[Path, ...] = ()
    #: Every table of this report as data (section, header, rows, total), as laid out.
    tables: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def unsigned(self) -> str:
        """Why no checkpoint was signed for this report ("" when one was)."""
        return str(self.report.generated.unsigned)


def signer(session: Session) -> str:
    """How the footer names who generated a report: full name, user name and role."""
    u = session.user
    return f"{u.full_name} ({u.name}, {u.role})"


def _may(svc: Services, session: Session, permission: str, what: str) -> None:
    """The role may do it and the name is still active: the authorizer's check (a refusal is
    written to the audit log first)."""
    svc.authorizer.require(session, permission, what, users=True)


def _check_out(out: str | Path) -> Path:
    path = Path(out)
    if path.suffix.lower() != ".pdf":
        raise BadInput(f"{path} does not end in .pdf: name the report file like shift.pdf")
    if not path.parent.exists():
        raise BadInput(f"the folder {path.parent} does not exist: create it or choose another")
    return check_output_file(path, what="written")


def _seal(svc: Services) -> Seal | None:
    """Sign a checkpoint of every chain head: the report is built under it. A seal without a
    number says why none was signed (no room key at this station): the report says so."""
    sealer = getattr(svc, "sealer", None)
    if sealer is None:
        return None
    seal: Seal = sealer.checkpoint("report")
    return seal


#: The audit entry left when a report signed its checkpoint and then could not be written:
#: no signed checkpoint is ever left without the report (or the failure) that signed it.
FAILED_ACTION = "report-failed"


def _failed(svc: Services, session: Session, kind: str, seal: Seal | None,
            exc: BaseException) -> None:
    if seal is None or seal.number is None:  # (nothing was signed: nothing to account for)
        return
    why = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    svc.log(session, FAILED_ACTION, f"{kind} not written: {why}" + _anchored(seal))


def _sealed(r: Any, seal: Seal | None, svc: Services | None = None) -> Any:
    """The report with the checkpoint and key fingerprint under its header, on the room's
    paper."""
    if svc is not None:
        from dealer_assist.services.counts import room_clock_of

        r = replace(r, generated=replace(r.generated,
                                         paper=room_clock_of(svc.reads).paper_size))
    if seal is None:
        return r
    if seal.number is None:
        return replace(r, generated=replace(r.generated, unsigned=seal.message))
    return replace(r, generated=replace(r.generated, checkpoint=seal.number,
                                        key=seal.fingerprint))


def _anchored(seal: Seal | None) -> str:
    """For the report's audit entry: the checkpoint, the key and every head it signed."""
    if seal is None:
        return ""
    if seal.number is None:
        return f"; {seal.message}"
    heads = "; ".join(f"{name} #{seq} {head}" for name, seq, head in seal.heads)
    return f"; checkpoint {seal.number}, key {seal.fingerprint}; heads {heads}"


def _serial(report: Report, n: int) -> Report:
    """The report numbered ``n``: the audit log entry that records its generation."""
    return replace(report, generated=replace(report.generated, serial=n))


def _logged(svc: Services, render: Any, report: Report, path: Path,
            log: Callable[[int], AuditEntry]) -> Written:
    """Write the report with its serial number (the next audit entry) on every page, then log
    it; should another station's entry have taken that number meanwhile, write it again with
    the number its own entry got. ``log(pages)`` writes the entry."""
    expected = svc.reads.audit_head().entries + 1
    numbered = _serial(report, expected)
    pages, tables = _write(render, numbered, path)
    entry = log(pages)
    if entry.seq and entry.seq != expected:
        numbered = _serial(report, entry.seq)
        pages, tables = _write(render, numbered, path)
    return Written(numbered, path, pages, tables=tables)


def write_csv(path: Path, tables: Sequence[Any], report: Any) -> list[Path]:
    """Each table of ``report`` (``Written.tables``) as a CSV file beside its PDF, named by its
    section (``day-03-fees-and-rake-by-kind.csv``): the printed rows, amounts as plain numbers,
    each row naming the report (:mod:`dealer_assist.reports.csvout`)."""
    from dealer_assist.reports.csvout import source_of, write_tables

    return write_tables(path, tables, source_of(report))


def _write(render: Any, report: Report, path: Path) -> tuple[int, tuple[Any, ...]]:
    """Render in a report state of its own; the pages and the report's tables."""
    from dealer_assist.reports.render.state import rendered

    tmp = path.with_name(path.name + ".part")
    if tmp.is_symlink() or (tmp.exists() and not tmp.is_file()):
        raise BadInput(f"{tmp} (where the report is written first) is not a regular file: "
                       "remove it or choose another name")
    try:
        pages, state = rendered(render, report, tmp)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from exc
    return int(pages), tuple(state.tables)


def _with_csv(done: Written, csv: bool) -> Written:
    return (replace(done, csv=tuple(write_csv(done.path, done.tables, done.report))) if csv
            else done)


@contextmanager
def _accounted(svc: Services, session: Session, kind: str,
               seal: Seal | None) -> Iterator[None]:
    """A report that fails after its checkpoint was signed leaves a ``report-failed`` entry
    naming that checkpoint, so every signed checkpoint has its report or its failure."""
    try:
        yield
    except Exception as exc:
        _failed(svc, session, kind, seal, exc)
        raise


def shift_report(
    svc: Services, session: Session, out: str | Path, *, shift_id: int | None = None,
    table: str | None = None, cage: str = "", csv: bool = False,
) -> Written:
    """The shift report (default: the latest shift of ``table``, or of the room)."""
    _may(svc, session, "review", "generate reports")
    path = _check_out(out)
    seal = _seal(svc)
    with _accounted(svc, session, "shift report", seal):
        return _with_csv(_shift(svc, session, path, seal, shift_id, table, cage), csv)


def _shift(svc: Services, session: Session, path: Path, seal: Seal | None,
           shift_id: int | None, table: str | None, cage: str) -> Written:
    r = _sealed(build_shift(svc.reads, shift_id=shift_id, table=table, by=signer(session),
                            at=svc.clock(), cage=cage), seal, svc)
    r = replace(r, floor_board=floor_of(svc, r.opened_at, r.closed_at, table=r.table))
    r = replace(r, dealer_box=for_shift(svc.reads, svc.dealer_box, svc.shift(r.shift_id),
                                     svc.clock()))
    tbl = svc.reads.find_table(r.table)
    return _logged(svc, render_shift, r, path, lambda pages: svc.log(
        session, "report", f"shift report: table {r.table}, shift {r.shift_id}, "
        f"{r.hands_dealt} hands, {pages} pages, chain head {r.chain.last_seq}"
        + fund_closings(r.drop_funds) + _anchored(seal), table_id=tbl.id if tbl else None))


def hand_report(
    svc: Services, session: Session, out: str | Path, *, hand_id: int | None = None,
    table: str | None = None, reveal: bool = False, reason: str = "", cage: str = "",
    csv: bool = False, reveal_logged: bool = False,
) -> Written:
    """Hand history, or the dispute report; ``reveal`` (floor only) shows destroyed hands'
    cards, marked as revealed, and is logged as a reveal as well as a report. With
    ``reveal_logged`` (the floor console, after its own reveal of the hand) the reveal this
    person already logged is the one the report shows: one reveal is never counted twice."""
    _may(svc, session, "review", "generate reports")
    path = _check_out(out)
    authorised: RevealLine | None = None
    if reveal:
        from dealer_assist.reports.source import find_hand

        hand = find_hand(svc.reads, hand_id, table)
        earlier = [r for r in svc.reveals(hand.id) if r.actor == session.name] \
            if reveal_logged else []
        if earlier:
            _may(svc, session, "reveal", "reveal destroyed hands")
            at = earlier[-1].at
        else:
            svc.reveal(session, hand.id, reason=reason)  # floor only, with a reason; logged
            at = svc.clock()
        hand_id = hand.id
        authorised = RevealLine(hand.number, at, signer(session), reason.strip())
    seal = _seal(svc)
    with _accounted(svc, session, "hand report", seal):
        return _with_csv(_hand(svc, session, path, seal, hand_id, table, authorised, cage),
                         csv)


def _hand(svc: Services, session: Session, path: Path, seal: Seal | None,
          hand_id: int | None, table: str | None, authorised: RevealLine | None,
          cage: str) -> Written:
    r = _sealed(build_hand(svc.reads, hand_id=hand_id, table=table, by=signer(session),
                           at=svc.clock(), reveal=authorised, cage=cage), seal, svc)
    tbl = svc.reads.find_table(r.table)
    kind = "dispute report" if r.is_dispute_report else "hand history"
    return _logged(svc, render_hand, r, path, lambda pages: svc.log(
        session, "report", f"{kind}: table {r.table}, hand {r.number}"
        + (", hidden cards revealed" if authorised else "") + f", {pages} pages"
        + _anchored(seal), table_id=tbl.id if tbl else None, hand_id=r.hand_id))


def audit_report(
    svc: Services, session: Session, out: str | Path, *, since: datetime, until: datetime,
    csv: bool = False,
) -> Written:
    """The sensitive-actions log for a period (floor, auditor or admin)."""
    _may(svc, session, "audit", "read the audit log")
    path = _check_out(out)
    seal = _seal(svc)
    with _accounted(svc, session, "audit report", seal):
        return _with_csv(_audit(svc, session, path, seal, since, until), csv)


def _audit(svc: Services, session: Session, path: Path, seal: Seal | None,
           since: datetime, until: datetime) -> Written:
    r = _sealed(build_audit(svc.reads, since=since, until=until, by=signer(session),
                            at=svc.clock(), signer=session.user.full_name), seal, svc)
    r = replace(r, floor_board=floor_of(svc, since, until))  # the floor's records by kind
    return _logged(svc, render_audit, r, path, lambda pages: svc.log(
        session, "report", f"audit report: {since:%Y-%m-%d %H:%M} to {until:%Y-%m-%d %H:%M}"
        f" UTC, {len(r.entries)} entries, {pages} pages" + fund_closings(r.drop_funds)
        + _anchored(seal)))


def day_report(
    svc: Services, session: Session, out: str | Path, *, day: date | None = None,
    cage: str = "", csv: bool = False,
) -> Written:
    """The day summary across every table (default: the day of the latest hand)."""
    _may(svc, session, "review", "generate reports")
    path = _check_out(out)
    seal = _seal(svc)
    with _accounted(svc, session, "day summary", seal):
        return _with_csv(_day(svc, session, path, seal, day, cage), csv)


def _day(svc: Services, session: Session, path: Path, seal: Seal | None,
         day: date | None, cage: str) -> Written:
    r = _sealed(build_day(svc.reads, day=day, by=signer(session), at=svc.clock(), cage=cage),
                seal, svc)
    if r.period is not None:  # the floor board's figures for the day
        r = replace(r, floor_board=floor_of(svc, *r.period))
        start, end = r.period  # a day still running: its downs up to now
        r = replace(r, dealer_box=for_day(svc.reads, svc.dealer_box, start,
                                          min(end, max(start, svc.clock()))))
    return _logged(svc, render_day, r, path, lambda pages: svc.log(
        session, "report", f"day summary: {r.day.isoformat()}, {len(r.tables)} tables, "
        f"{r.total('hands')} hands, {pages} pages; " + day_figures(r) + _anchored(seal)))


def day_figures(r: DayReport) -> str:
    """The day summary's signed totals as its audit entry keeps them, so an archive of the day
    can be checked against the report the room signed (``verify --archive``)."""
    from dealer_assist.money import format_cents as c

    return (f"put in {c(r.total('put_in'))}, pushed {c(r.total('pushed'))}, house fees "
            f"{c(r.total('house_fees'))}, jackpot drop {c(r.total('jackpot_drop'))}, time "
            f"{c(r.total('time_fees'))}, house net {c(r.house_net)}")


def game_report(
    svc: Services, session: Session, out: str | Path, *, table: str | None = None,
    csv: bool = False,
) -> Written:
    """The game report of ``table`` (default: the most recent): its latest game of many hands
    (the score sheet the dealer's screen shows between hands) with each hand's money."""
    from dealer_assist.reports.source import find_table

    _may(svc, session, "review", "generate reports")
    path = _check_out(out)
    tbl = find_table(svc.reads, table)
    so_far = svc.game_so_far(tbl.id)
    seal = _seal(svc)
    with _accounted(svc, session, "game report", seal):
        r = _sealed(build_game(svc.reads, so_far.hands, so_far.over, so_far.sheet,
                               table=tbl.name, by=signer(session), at=svc.clock()), seal, svc)
        done = _logged(svc, render_game, r, path, lambda pages: svc.log(
            session, "report", f"game report: table {r.table}, hands {r.first} to {r.last}, "
            f"game {r.status}, {pages} pages" + _anchored(seal), table_id=tbl.id))
        return _with_csv(done, csv)
