"""The hand history and dispute report laid out as pages: events, the table after key steps,
the settlement and the ledger.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.hand import HandReport, Snapshot
from dealer_assist.reports.data.records import table_label
from dealer_assist.reports.layouts.sections import (
    PORTRAIT_W,
    Out,
    chain_section,
    disputes_section,
    exceptions_section,
    kind_text,
    none_note,
)
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block, spacer
from dealer_assist.reports.render.page import PageInfo, begin, build_pdf
from dealer_assist.reports.render.style import Styles, fonts, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import (
    cards,
    chain_line,
    clock,
    dash,
    day_text,
    esc,
    hash_groups,
    local,
    money,
    when,
    zone_name,
)


def _snapshot(s: Snapshot, st: Styles, width: float, revealed: bool) -> list[Flowable]:
    out: list[Flowable] = [Paragraph(f"<b>After event {s.after_event}:</b> {esc(s.label)}",
                                     st.body)]
    if s.board:
        out.append(paragraph(f"Board: {cards(s.board)}", st.body))
    rows = []
    flagged = []
    for i, seat in enumerate(s.seats):
        shown = cards(seat.cards)
        if seat.withheld:
            shown = f"{seat.withheld} card{'s' if seat.withheld > 1 else ''} withheld"
        elif seat.face_down:
            shown = (shown + " + " if shown else "") + f"{seat.face_down} face down"
        if seat.revealed:
            shown += "  [REVEALED]"
            flagged.append(i)
        rows.append([str(seat.seat), shown or dash(), seat.status or dash(),
                     money(seat.put_in), seat.detail or ""])
    out.append(data_table(["Seat", "Cards", "Status", "Put in", "Detail"], rows,
                          [12 * mm, 52 * mm, 34 * mm, 20 * mm, width - 118 * mm], right=[3],
                          flagged=flagged, st=st))
    if s.pots or s.info:
        extra = [f"{name}: {money(a)}" for name, a in s.pots] + list(s.info)
        out.append(paragraph("; ".join(extra), st.small))
    out.append(spacer(2))
    return [KeepTogether(out)] if len(s.seats) < 14 else out


def hand_story(r: HandReport, st: Styles) -> list[Flowable]:
    w = PORTRAIT_W
    sep = " · " if fonts().symbols else " - "
    story: list[Flowable] = [
        paragraph(r.title, st.title),
        paragraph(sep.join([table_label(r.table), r.game, f"hand {r.number}",
                            day_text(local(r.started_at).date())]), st.subtitle),
        fields_table([
            ("Cardroom", r.cardroom), ("Table", r.table), ("Game", r.game),
            ("Hand", f"{r.number} (record {r.hand_id})"),
            ("Shift", str(r.shift_id) if r.shift_id is not None else dash()),
            ("Dealer", r.dealer or dash()),
            ("Started", when(r.started_at)), ("Ended", when(r.ended_at) if r.ended_at
                                                 else "not finished"),
        ], w, st=st),
    ]
    if r.revealed is not None:
        story.append(spacer(2))
        story.append(Paragraph(
            f"<b>Hidden cards revealed.</b> Destroyed and folded hands are shown below, marked "
            f"REVEALED, as authorised by {esc(r.revealed.by)} at {esc(when(r.revealed.at))}"
            + (f" ({esc(r.revealed.reason)})" if r.revealed.reason else "") + ".", st.body))
    else:
        story.append(spacer(2))
        story.append(paragraph(
            "Cards of destroyed and folded hands are withheld. A floor person can reveal them, "
            "giving a reason that is logged: in the floor console (a reason, Reveal, then Hand "
            "PDF) or with dealer-assist report hand --reveal --reason; that is the dispute "
            "report.", st.note))
    story += heading("Events", st)
    rows = []
    flagged = []
    for i, e in enumerate(r.events):
        text = e.text if "(voided" in e.text or not e.voided else e.text + "  (voided)"
        if e.voided or e.kind == "void":
            flagged.append(i)
        rows.append([str(e.n), str(e.seq), clock(e.at), e.actor, e.kind, text])
    tz = local(r.started_at).tzname() or zone_name()
    story.append(data_table(["No.", "Seq.", f"Time ({tz})", "By", "Input", "What happened"], rows,
                            [10 * mm, 14 * mm, 18 * mm, 30 * mm, 18 * mm, w - 90 * mm],
                            right=[0, 1], flagged=flagged, st=st))
    story += heading("The table after key steps", st)
    if r.snapshots:
        for snap in r.snapshots:
            story += _snapshot(snap, st, w, r.revealed is not None)
    else:
        story.append(none_note(st))
    story += heading("Settlement (re-derived by replaying the events)", st)
    s = r.settlement
    if s is None:
        story.append(none_note(st, "The hand is not finished: nothing settled."))
    else:
        seats = sorted(set(s.put_in) | set(s.payouts))
        rows = [[str(seat), money(s.put_in.get(seat, 0)), money(s.payouts.get(seat, 0)),
                 money(s.payouts.get(seat, 0) - s.put_in.get(seat, 0))] for seat in seats]
        story.append(data_table(
            ["Seat", "Put in", "Pushed", "Net"], rows, [20 * mm, 30 * mm, 30 * mm, 30 * mm],
            right=[1, 2, 3], total=["Total", money(sum(s.put_in.values())),
                                    money(sum(s.payouts.values())),
                                    money(sum(s.payouts.values()) - sum(s.put_in.values()))],
            st=st))
        story.append(spacer(1.5))
        lines = [f"Carried in {money(s.carry_in)}", f"carried out {money(s.carry_out)}"]
        by_kind: dict[str, list[tuple[int, int | None, str]]] = {}
        for k, a, seat, note in s.fees:
            by_kind.setdefault(k, []).append((a, seat, note))
        for k, items in by_kind.items():
            payers = [str(seat) for _, seat, _ in items if seat is not None]
            notes = [n for _, seat, n in items if seat is None and n]
            lines.append(f"{kind_text(k)} {money(sum(a for a, _, _ in items))}"
                         + (f" (seat{'s' if len(payers) > 1 else ''} {', '.join(payers)})"
                            if payers else "")
                         + (f" ({'; '.join(notes)})" if notes else ""))
        state = "chips conserved" if s.conserved else "CHIPS NOT CONSERVED"
        story.append(paragraph("; ".join(lines) + f". In {money(s.total_in)} = out "
                               f"{money(s.total_out)}: {state}.", st.body))
        if s.steps:
            story.append(spacer(1.5))
            story.append(data_table(["Step", "Push", "Amount"],
                                    [[str(n), t, money(a) if a else dash()] for n, t, a in s.steps],
                                    [12 * mm, w - 40 * mm, 28 * mm], right=[0, 2], st=st))
    story += heading("Ledger lines", st)
    if r.ledger:
        rows = [[kind_text(x.kind), str(x.seat) if x.seat is not None else dash(), money(x.amount),
                 x.note] for x in r.ledger]
        story.append(data_table(["Kind", "Seat", "Amount", "Note"], rows,
                                [40 * mm, 14 * mm, 26 * mm, w - 80 * mm], right=[1, 2], st=st))
    else:
        story.append(none_note(st))
    story += disputes_section(r.disputes, st, w, full=True)
    story += exceptions_section(r.exceptions, st, w)
    story += chain_section((r.chain,), st, w)
    figures = [("Hand", f"{table_label(r.table)}, hand {r.number}"),
               ("Exceptions", str(len(r.exceptions)))]
    if r.settlement is not None:
        s = r.settlement
        figures[1:1] = [
            ("Put in / pushed", f"{money(sum(s.put_in.values()))} / "
                                f"{money(sum(s.payouts.values()))}"),
            ("Fees", money(sum(f[1] for f in s.fees))),
            ("Chips", "conserved" if s.conserved else "NOT CONSERVED"),
        ]
    figures.append(("Chain head", f"#{r.chain.last_seq} {hash_groups(r.chain.head_hash[:16])}"))
    story.append(signature_block(r.signatures, w, st, figures=figures))
    return story


def render_hand(r: HandReport, out: Out) -> int:
    begin(r.generated)
    info = PageInfo(r.cardroom, r.title, f"{table_label(r.table)}, hand {r.number}", r.generated,
                    chain_line((r.chain,)))
    with paused_gc():
        return build_pdf(out, info, hand_story(r, styles()))

