"""The game report: a game played over many hands at one table (a score sheet to a target,
standings until someone is short, a pot that runs until it is won), printed for the players,
the floor and the cage.

"The game" is what the dealer's screen shows between hands (``Services.game_so_far``): the
table's settled hands back to the one that began it. The report prints the game's own score
sheet, then every hand of it with its money re-derived from the stored events (put in, carried
in and out, pushed, fees, whether the chips were conserved) and the table's chain checked, so
the sheet can be signed beside the figures it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from dealer_assist.engine.base import ScoreSheet
from dealer_assist.errors import BadInput
from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.build.common import clock_at, game_title, named_in_full, void_approvals
from dealer_assist.reports.build.figures import hand_figures
from dealer_assist.reports.data.lines import HandLine
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    Generated,
    Record,
    Signature,
    table_label,
)
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block
from dealer_assist.reports.render.longtable import LongTable
from dealer_assist.reports.render.page import PageInfo, begin, build_pdf
from dealer_assist.reports.render.style import Styles, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import chain_line, hash_groups, money, when
from dealer_assist.reports.source import find_table, full_names, person, scan_table
from dealer_assist.services.chain import utc
from dealer_assist.services.model import Hand
from dealer_assist.services.reads import Reads

PORTRAIT_W = 180 * mm


@dataclass(frozen=True, slots=True)
class GameReport(Record):
    """One table's latest game: its hands, its score sheet, and whether it is over."""

    cardroom: str
    table: str
    game: str
    over: bool
    hands: tuple[HandLine, ...]
    dealers: tuple[str, ...]
    sheet: ScoreSheet | None
    chain: ChainCheck
    generated: Generated
    signatures: tuple[Signature, ...]
    exceptions: tuple[ExceptionLine, ...] = ()

    @property
    def status(self) -> str:
        return "over" if self.over else "in progress"

    @property
    def first(self) -> int:
        return self.hands[0].number if self.hands else 0

    @property
    def last(self) -> int:
        return self.hands[-1].number if self.hands else 0


def build_game(
    store: Reads, hands: tuple[Hand, ...], over: bool, sheet: ScoreSheet | None, *,
    table: str | None, by: str, at: datetime,
) -> GameReport:
    """The report of the game made of ``hands`` (``Services.game_so_far`` of the table), each
    hand's money re-derived from its stored events and the table's chain re-checked."""
    tbl = find_table(store, table)
    if not hands:
        raise BadInput(f"table {tbl.name} has no settled hand yet: there is no game to report")
    names = full_names(store)
    ids = [h.id for h in hands]
    scan = scan_table(store, tbl, ids)
    approvals = void_approvals(store, set(ids))
    lines: list[HandLine] = []
    exceptions: list[ExceptionLine] = []
    if not scan.head.verified:
        exceptions.append(ExceptionLine(None, "the event chain failed verification: "
                                        f"{scan.head.message}", "integrity"))
    for hand in hands:
        fig = hand_figures(hand, scan.rows.get(hand.id, []), store.ledger(hand.id), names,
                           approvals=approvals)
        lines.append(fig.line)
        exceptions.extend(fig.exceptions)
    dealers = tuple(dict.fromkeys(person(names, h.started_by) for h in hands))
    shift = store.get_shift(hands[-1].shift_id)
    floor = named_in_full(names, shift.floor) if shift is not None else ""
    sigs = (Signature("Dealer", named_in_full(names, hands[-1].started_by)),
            Signature("Floor", floor))
    return GameReport(
        cardroom=store.cardroom_name(), table=tbl.name, game=game_title([hands[0].game]),
        over=over, hands=tuple(lines), dealers=dealers, sheet=sheet, chain=scan.head,
        generated=Generated(utc(at), by, zone=clock_at(store, utc(hands[0].started_at)).zone),
        signatures=sigs, exceptions=tuple(exceptions),
    )


def _sheet(sheet: ScoreSheet | None, st: Styles, width: float) -> list[Flowable]:
    story: list[Flowable] = heading(sheet.title if sheet is not None else "Score sheet", st)
    if sheet is None:
        story.append(paragraph("This game is settled hand by hand: it keeps no score sheet. "
                               "Its hands are below.", st.body))
        return story
    columns = max(len(sheet.columns), 1)
    widths = [width / columns] * columns
    story.append(data_table(list(sheet.columns), [list(r) for r in sheet.rows], widths, st=st))
    story.extend(paragraph(line, st.body) for line in sheet.lines)
    return story


def _winners(line: HandLine) -> str:
    if line.misdeal:
        return "misdeal: each chip back"
    return ", ".join(f"seat {s} {money(a)}" for s, a in line.winners) or "none"


def game_story(r: GameReport, st: Styles) -> list[Flowable]:
    w = PORTRAIT_W
    story: list[Flowable] = [
        paragraph(f"Game report: {r.game}", st.title),
        paragraph(f"{table_label(r.table)}, hands {r.first} to {r.last}, game {r.status}",
                  st.subtitle),
        fields_table([
            ("Cardroom", r.cardroom), ("Table", r.table), ("Game", r.game),
            ("Status", r.status), ("Hands", str(len(r.hands))),
            ("From", when(r.hands[0].started_at) if r.hands else ""),
            ("To", when(r.hands[-1].ended_at) if r.hands else ""),
            ("Dealers", "; ".join(r.dealers)),
        ], w, st=st),
    ]
    story += _sheet(r.sheet, st, w)
    story += heading("Hands of the game", st)
    rows = [[str(h.number), when(h.started_at, seconds=False), money(h.put_in),
             money(h.carry_in), money(h.pushed), money(h.carry_out), money(h.fee),
             _winners(h), "yes" if h.conserved else "NO"] for h in r.hands]
    flagged = [i for i, h in enumerate(r.hands) if not h.conserved or h.disputed]
    story.append(paragraph(
        "Each hand's money is worked out again from its stored events: put in plus carried "
        "in equals pushed plus carried out plus fees when the chips are conserved.", st.small))
    story.append(LongTable(
        ["Hand", "Started", "Put in", "Carried in", "Pushed", "Carried out", "Fees",
         "Pushed to", "Conserved"], rows,
        [12 * mm, 34 * mm, 16 * mm, 18 * mm, 16 * mm, 18 * mm, 14 * mm, w - 150 * mm,
         22 * mm], right=[0, 2, 3, 4, 5, 6], flagged=flagged))
    story += heading("Exceptions", st)
    if r.exceptions:
        story.append(data_table(["Hand", "What", "Severity"],
                                [[str(e.hand_number or ""), e.text, e.severity]
                                 for e in r.exceptions],
                                [14 * mm, w - 44 * mm, 30 * mm], st=st))
    else:
        story.append(paragraph("None: every hand replays to its recorded settlement.", st.body))
    story += heading("Integrity", st)
    story.append(paragraph(chain_line((r.chain,)), st.body))
    total_in = sum(h.put_in for h in r.hands)
    figures = [
        ("Hands", f"{r.first} to {r.last} ({len(r.hands)}), game {r.status}"),
        ("Put in / pushed", f"{money(total_in)} / {money(sum(h.pushed for h in r.hands))}"),
        ("Fees", money(sum(h.fee for h in r.hands))),
        ("Carried out", money(r.hands[-1].carry_out) if r.hands else money(0)),
        ("Chain head", f"#{r.chain.last_seq} {hash_groups(r.chain.head_hash[:16])}"),
    ]
    story.append(signature_block(r.signatures, w, st, figures=figures))
    return story


def render_game(r: GameReport, out: str | Path | Any) -> int:
    """Lay the game report out as pages; the page count."""
    begin(r.generated)
    info = PageInfo(r.cardroom, "Game report",
                    f"{table_label(r.table)}, hands {r.first} to {r.last}", r.generated,
                    chain_line((r.chain,)))
    with paused_gc():
        return int(build_pdf(out, info, game_story(r, styles())))
