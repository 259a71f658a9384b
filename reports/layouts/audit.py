"""The audit report laid out as pages."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.audit import AuditReport
from dealer_assist.reports.floor_section import floor_kinds_story
from dealer_assist.reports.layouts.sections import (
    LANDSCAPE_W,
    Out,
    chain_section,
    drop_funds_section,
    exceptions_section,
    kind_text,
    none_note,
)
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block
from dealer_assist.reports.render.longtable import LongTable
from dealer_assist.reports.render.page import PageInfo, begin, build_pdf
from dealer_assist.reports.render.style import Styles, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import chain_line, hash_groups, when


def audit_story(r: AuditReport, st: Styles) -> list[Flowable]:
    w = LANDSCAPE_W
    story: list[Flowable] = [
        paragraph("Audit report: sensitive actions", st.title),
        paragraph(f"{when(r.period_from)} to {when(r.period_to)}", st.subtitle),
        fields_table([("Cardroom", r.cardroom), ("From", when(r.period_from)),
                      ("To", when(r.period_to)), ("Entries", str(len(r.entries)))], w, st=st),
    ]
    story += floor_kinds_story(r.floor_board, st, w)
    story += heading("Actions by kind", st)
    counts = r.counts()
    if counts:
        story.append(data_table(["Action", "Count"], [[kind_text(a), str(n)] for a, n in counts],
                                [70 * mm, 24 * mm], right=[1],
                                total=["Total", str(len(r.entries))], st=st))
    else:
        story.append(none_note(st, "No sensitive actions were logged in this period."))
    story += drop_funds_section(r.drop_funds, st, 180 * mm)
    if r.drop_funds or r.exceptions:
        story += exceptions_section(r.exceptions, st, 180 * mm)
    story += heading("Log", st)
    if r.entries:
        rows = [[str(e.number), when(e.at), e.user, e.role, kind_text(e.action), e.target,
                 e.detail] for e in r.entries]
        flagged = [i for i, e in enumerate(r.entries)
                   if e.action.lower() in {"lockout", "login_failed", "reveal"}]
        story.append(paragraph(
            "No. is the entry's number in the audit log's chain, and a report's serial number "
            "is the entry that records it. The entries that record rows (record-*) are counted "
            "by kind with their numbers in the next section; "
            + ("with them, the numbers of the period run without a gap."
               if not r.gaps else f"numbers MISSING from the period: {r.gaps}."), st.small))
        story.append(LongTable(["No.", "Time", "User", "Role", "Action", "Subject", "Detail"],
                               rows, [14 * mm, 48 * mm, 40 * mm, 17 * mm, 26 * mm, 48 * mm,
                                      w - 193 * mm], right=[0], flagged=flagged))
    else:
        story.append(none_note(st))
    story += heading("Record entries, counted by kind", st)
    if r.records:
        story.append(data_table(["Kind", "Entries", "Entry numbers"],
                                [[k, str(n), nums] for k, n, nums in r.records],
                                [50 * mm, 20 * mm, w - 70 * mm], right=[1],
                                total=["Total", str(sum(n for _, n, _ in r.records)), ""],
                                st=st))
        story.append(paragraph("Each records a row of the database (a user, table, settings "
                               "version, shift, dispute...) on the chain; verify compares them "
                               "with the rows.", st.small))
    else:
        story.append(none_note(st))
    audit = (r.audit_chain,) if r.audit_chain is not None else ()
    story += chain_section((*r.chains, *audit), st, w)
    figures = [("Period", f"{when(r.period_from)} to {when(r.period_to)}"),
               ("Entries", str(len(r.entries)))]
    if r.entries:
        figures.append(("Entry numbers", f"{r.entries[0].number} to {r.entries[-1].number}"))
    if r.audit_chain is not None:
        figures.append(("Audit log head", f"#{r.audit_chain.last_seq} "
                        f"{hash_groups(r.audit_chain.head_hash[:16])}"))
    story.append(signature_block(r.signatures, w, st, figures=figures))
    return story


def render_audit(r: AuditReport, out: Out) -> int:
    begin(r.generated, wide=True)
    info = PageInfo(r.cardroom, "Audit report",
                    f"{when(r.period_from, seconds=False)} to {when(r.period_to, seconds=False)}",
                    r.generated, chain_line(r.chains))
    with paused_gc():
        return build_pdf(out, info, audit_story(r, styles()), wide=True)

