"""The shift report laid out as pages."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.records import table_label
from dealer_assist.reports.data.shift import ShiftReport
from dealer_assist.reports.dealer_story import dealer_story
from dealer_assist.reports.floor_section import floor_story
from dealer_assist.reports.layouts.counts import drop_count_section, variance_text
from dealer_assist.reports.layouts.sections import (
    PORTRAIT_W,
    Out,
    adjustments_section,
    chain_section,
    disputes_section,
    drop_funds_section,
    exceptions_section,
    funds_section,
    kind_text,
    none_note,
    schedules_section,
    time_collections_section,
)
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block, spacer
from dealer_assist.reports.render.charts import fees_chart
from dealer_assist.reports.render.longtable import LongTable
from dealer_assist.reports.render.page import PageInfo, begin, build_pdf
from dealer_assist.reports.render.style import Styles, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import (
    chain_line,
    clock_on,
    dash,
    day_text,
    hash_groups,
    local,
    money,
    when,
    zone_name,
)


def shift_story(r: ShiftReport, st: Styles) -> list[Flowable]:
    w = PORTRAIT_W
    story: list[Flowable] = [
        paragraph("Shift report", st.title),
        paragraph(f"{table_label(r.table)} · {r.game} · shift {r.shift_id} · gaming day "
                  f"{day_text(r.gaming_day or local(r.opened_at).date())}"
                  + (f" · {r.room_shift} shift" if r.room_shift else ""),
                  st.subtitle),
        fields_table([
            ("Cardroom", r.cardroom), ("Table", r.table), ("Game", r.game),
            ("Gaming day", day_text(r.gaming_day or local(r.opened_at).date())
             + (f", {r.room_shift} shift" if r.room_shift else "")),
            ("Time zone", f"{zone_name()} (records kept in UTC)"),
            ("Shift opened", when(r.opened_at)),
            ("Shift closed", when(r.closed_at) if r.closed_at else "still open"),
            ("Dealers", "\n".join(r.dealers) or dash()),
            ("Floor", "\n".join(r.floor) or dash()),
        ], w, st=st),
    ]
    story += heading("Summary", st)
    balance = ("balanced: in = pushed + carried + collected" if r.conserved
               else "DOES NOT BALANCE: in is not pushed + carried + collected")
    summary = [
        ("Hands dealt", str(r.hands_dealt)),
        ("Money put in by players", money(r.put_in)),
        ("Pushed to players", money(r.pushed)),
        ("Carried fund: opened / closed", (f"{money(r.fund.opening)} / "
                                           f"{money(r.fund.closing)}") if r.fund else "none"),
        ("House fees and rake (hands)", money(r.house_fees)),
        ("Time collected from seats", money(r.time_total)),
        *([("of which given back (voided marks)", money(-r.time_given_back))]
          if r.time_given_back else []),
        ("Dispute adjustments (house)", money(r.house_adjustments)),
        ("House net", money(r.house_net)),
        ("Jackpot / promotional drop", money(r.jackpot_drop)),
        ("Balance check", balance),
        ("Voids and corrections", str(len(r.voids))),
        ("Stack and carry changes", str(len(r.stack_changes))),
        ("Disputes", f"{len(r.disputes)} ({sum(d.status == 'open' for d in r.disputes)} open)"),
        ("Reveals of hidden cards", str(len(r.reveals))),
        ("Exceptions", str(len(r.exceptions))),
        ("Drop count", (f"{money(r.count.in_force.counted)} counted, variance "
                        f"{variance_text(r.count)}") if r.count and r.count.in_force
         else "not counted yet"),
    ]
    story.append(fields_table(summary, w, st=st, label_w=54 * mm))
    story += heading("Fees and rake by kind", st)
    fees = r.fees_by_kind
    if fees:
        ledger = {f.kind: f.amount for f in r.ledger_fees}
        rows = [[kind_text(f.kind), "fund" if f.fund else "house", str(f.count),
                 money(f.base) if f.base else dash(), money(f.amount),
                 money(ledger[f.kind]) if f.kind in ledger else dash()] for f in fees]
        mism = [i for i, f in enumerate(fees) if ledger.get(f.kind) != f.amount]
        total_ledger = sum(ledger.values())
        story.append(data_table(
            ["Kind", "Goes to", "Collections", "Taken from pots of", "By replay", "In ledger"],
            rows, [40 * mm, 20 * mm, 24 * mm, 36 * mm, 30 * mm, 30 * mm], right=[2, 3, 4, 5],
            flagged=mism,
            total=["Total", "", str(sum(f.count for f in fees)), "",
                   money(r.fees_total + r.time_total), money(total_ledger)], st=st))
        story.append(paragraph(
            "Taken from pots of: the chips called in the pots each rake or collection was taken "
            "from (chips returned uncalled are never raked); the hands table gives it per hand.",
            st.small))
    else:
        story.append(none_note(st, "No fees collected."))
    story += funds_section((r.fund,) if r.fund else (), st, w, moves=True)
    story += drop_funds_section(r.drop_funds, st, w)
    story += adjustments_section(r.adjustments, st, w, r.house_fees, r.time_total)
    story += drop_count_section(r.count, st, w)
    story += schedules_section(r.schedules, st, w, tables=False)
    story += time_collections_section(r, st, w)
    story.append(KeepTogether([
        *heading("Fees per hour", st)[1:],
        paragraph("House fees and jackpot drops collected in each clock hour of the shift, by "
                  "the time each hand ended, and time collected from seats by the time it was "
                  "collected.", st.small),
        fees_chart(r.fees_per_hour(), w, title="")]))
    story += exceptions_section(r.exceptions, st, w)
    story += heading("Voids and corrections", st)
    if r.voids:
        rows = [[str(v.hand_number) if v.hand_number is not None else dash(), when(v.at),
                 v.actor, v.what or str(v.target), v.reason, v.approved_by or dash()]
                for v in r.voids]
        story.append(data_table(["Hand", "Time", "By", "Event", "Reason", "Approved by"], rows,
                                [12 * mm, 42 * mm, 34 * mm, 12 * mm, 46 * mm, 34 * mm],
                                right=[0, 3], st=st))
    else:
        story.append(none_note(st))
    story += heading("Stack and carry changes", st)
    if r.stack_changes:
        rows = [[str(c.hand_number), when(c.at), c.by, c.changes, c.approved_by or dash()]
                for c in r.stack_changes]
        story.append(data_table(["Hand", "Time", "By", "Changed", "Approved by"], rows,
                                [12 * mm, 42 * mm, 30 * mm, w - 118 * mm, 34 * mm],
                                right=[0], st=st))
        story.append(paragraph(
            "What a hand started with other than what the last hand left it: a rebuy is the "
            "dealer's; chips taken off the table while a pot carries, a carry-in changed and a "
            "new game are approved by a floor person.", st.small))
    else:
        story.append(none_note(st))
    story += disputes_section(r.disputes, st, w, full=False)
    story += heading("Reveals of destroyed or folded hands", st)
    if r.reveals:
        rows = [[str(x.hand_number), str(x.after_event) if x.after_event else dash(),
                 when(x.at), x.by, x.reason or dash()] for x in r.reveals]
        story.append(data_table(["Hand", "After event", "Time", "Authorised by", "Reason"],
                                rows, [14 * mm, 18 * mm, 44 * mm, 40 * mm, w - 116 * mm],
                                right=[0, 1], st=st))
    else:
        story.append(none_note(st))
    story += heading(f"Hands ({r.hands_dealt})", st, need=70)
    story.append(paragraph(
        f"Times are {zone_name()} (+1d: the next day). Pot is what the players put in plus "
        "any carry-in; "
        "it leaves as pushes, carry-out and collections. Raked on is the amount the hand's "
        "rake or collection was taken from: the pot less any chips returned uncalled. "
        "Winners are seat: amount pushed (chips returned uncalled included). "
        "Flags: V void, D dispute, R reveal, M misdeal (refunds, no winner), X exception.",
        st.small))
    story.append(spacer(1))
    exc_hands = {e.hand_number for e in r.exceptions}
    rows = []
    flagged = []
    for i, h in enumerate(r.hands):
        flags = ("V" if h.voids else "") + ("D" if h.disputed else "") + (
            "R" if h.revealed else "") + ("M" if h.misdeal else "") + (
            "X" if h.number in exc_hands else "")
        if "D" in flags or "X" in flags:
            flagged.append(i)
        winners = ("misdeal: all returned" if h.misdeal
                   else ", ".join(f"{s}: {money(a)}" for s, a in h.winners) or dash())
        rows.append([str(h.number), clock_on(h.started_at, local(r.opened_at).date()),
                     str(h.players), money(h.pot),
                     money(h.raked_from) if h.raked_from else dash(), money(h.fee),
                     money(h.pushed), money(h.carry_out), winners, flags])
    late = 7 * mm if any("+" in row[1] for row in rows) else 0.0  # room for "+1d"
    if rows:
        story.append(LongTable(
            ["Hand", "Time", "Players", "Pot", "Raked on", "Fee", "Pushed", "Carry", "Winners",
             "Flags"],
            rows, [12 * mm, 18 * mm + late, 17 * mm, 21 * mm, 19 * mm, 14 * mm, 21 * mm,
                   15 * mm, 31 * mm - late, 12 * mm],
            right=[0, 2, 3, 4, 5, 6, 7], flagged=flagged,
            total=["Total", "", "", money(r.put_in + r.carried_in),
                   money(sum(h.raked_from for h in r.hands)), money(r.fees_total),
                   money(r.pushed), money(r.carried_out), "", ""]))
    else:
        story.append(none_note(st, "No hands were dealt in this shift."))
    story += floor_story(r.floor_board, st, w)
    story += dealer_story(r.dealer_box, st, w)
    story += chain_section((r.chain,), st, w)
    story.append(signature_block(r.signatures, w, st, figures=[
        ("Table and shift", f"{table_label(r.table)}, shift {r.shift_id}"),
        ("Hands dealt", str(r.hands_dealt)),
        ("Put in / pushed", f"{money(r.put_in)} / {money(r.pushed)}"),
        ("House fees and rake", money(r.house_fees)),
        ("Time collected from seats", money(r.time_total)),
        ("House net (fees, rake, time, adjustments)", money(r.house_net)),
        ("Jackpot drop", money(r.jackpot_drop)),
        ("Balance", "balanced" if r.conserved else "DOES NOT BALANCE"),
        ("Exceptions", str(len(r.exceptions))),
        ("Chain head", f"#{r.chain.last_seq} {hash_groups(r.chain.head_hash[:16])}"),
    ]))
    return story


def render_shift(r: ShiftReport, out: Out) -> int:
    begin(r.generated)
    info = PageInfo(r.cardroom, "Shift report", f"{table_label(r.table)}, shift {r.shift_id}",
                    r.generated, chain_line((r.chain,)))
    with paused_gc():
        return build_pdf(out, info, shift_story(r, styles()))

