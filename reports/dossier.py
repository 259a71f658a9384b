"""The game-approval dossier as a PDF report (``dealer-assist dossier``).

The figures come from :mod:`dealer_assist.dossier` (pure computation); this lays them out with
the page furniture every report has (Page N of M, the serial number that is its audit log entry,
the version and commit, who generated it and when) and logs its generation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

from dealer_assist.dossier.build import CategoryTable, Dossier, Figure
from dealer_assist.errors import BadInput
from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data import Generated
from dealer_assist.reports.render import (
    PageInfo,
    Styles,
    build_pdf,
    dash,
    data_table,
    fields_table,
    hash_groups,
    heading,
    money,
    own_report,
    paragraph,
    spacer,
    start_report,
    styles,
    use_zone,
)
from dealer_assist.services import Services, Session
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.model import PERMISSIONS, ROLES

W = 180 * mm
Out = str | Path | Any


@dataclass(frozen=True, slots=True)
class DossierReport:
    """The dossier with what every report says of itself: the cardroom, who generated it,
    when, and its serial number."""

    cardroom: str
    dossier: Dossier
    generated: Generated


@dataclass(frozen=True, slots=True)
class WrittenDossier:
    report: DossierReport
    path: Path
    pages: int


# --- text ----------------------------------------------------------------------------------------


def _value(kind: str, v: float) -> str:
    if kind == "money":
        return money(round(v))
    if kind == "share":
        return f"{100 * v:.1f}%" if v >= 0.001 or v == 0 else f"{100 * v:.2f}%"
    if kind == "minutes":
        return f"{v:.2f} min"
    if kind == "rate":
        return f"{v:.1f}"
    return f"{v:.2f}"


def _interval(f: Figure) -> str:
    if f.low == f.high == f.mean:
        return "exact" if f.n > 1 else dash()
    return f"{_value(f.kind, f.low)} to {_value(f.kind, f.high)}"


def _cents(v: int | None) -> str:
    return dash() if v is None else money(v)


def _figure_rows(figures: tuple[Figure, ...]) -> list[list[object]]:
    rows: list[list[object]] = []
    for f in figures:
        label = f.label + (f"\n{f.note}" if f.note else "")
        extra = ""
        if f.kind == "money" and f.median is not None:
            extra = f"{_cents(f.median)} / {_cents(f.p95)} / {_cents(f.largest)}"
        elif f.largest is not None:
            extra = f"largest {f.largest}"
        rows.append([label, _value(f.kind, f.mean), _interval(f), extra, f"{f.n:,}"])
    return rows


def _figures(title: str, figures: tuple[Figure, ...], st: Styles) -> list[Flowable]:
    if not figures:
        return []
    table = data_table(
        ["Figure", "Estimate", "95% interval", "Median / 95th pct. / largest", "Hands"],
        _figure_rows(figures), [70 * mm, 24 * mm, 40 * mm, 32 * mm, 14 * mm],
        right=[1, 4], st=st)
    return [KeepTogether([*heading(title, st), table])]  # (a heading never ends a page)


def _category(c: CategoryTable, st: Styles) -> list[Flowable]:
    rows = [[r.name, f"{r.count:,}", _value("share", r.share),
             f"{_value('share', r.low)} to {_value('share', r.high)}"] for r in c.rows]
    head = paragraph(f"{c.label} ({c.n:,} hands" + (f"; {c.note}" if c.note else "") + ")",
                     st.cell_bold)
    return [spacer(2), KeepTogether([head, spacer(1), data_table(
        ["Category", "Hands", "Share", "95% interval"], rows,
        [90 * mm, 24 * mm, 24 * mm, 42 * mm], right=[1, 2], st=st)])]


# --- the story -----------------------------------------------------------------------------------


def dossier_story(r: DossierReport, st: Styles) -> list[Flowable]:
    d = r.dossier
    pace = d.pace
    story: list[Flowable] = [
        paragraph(f"Game-approval dossier: {d.title}", st.title),
        paragraph(f"{r.cardroom} · the rules, the dealer's procedure and the game's numbers, "
                  "for the gaming board", st.subtitle),
        fields_table([
            ("Game", f"{d.title} ({d.game})"),
            ("Settings file", d.settings_file),
            ("Settings sha256", hash_groups(d.settings_sha256)),
            ("Seed", str(d.seed)),
            ("Hands simulated", _sessions(d)),
            ("Players per hand", str(d.players)),
            ("Pace", f"{pace.per_input} s per input, {pace.between} s between hands"),
            ("Worker processes", str(d.workers)),
        ], W, st=st),
        spacer(2),
        paragraph(_checked_line(d), st.body),
    ]
    story += heading("1. The game in our words", st)
    story += [x for p in d.rules for x in (paragraph(p, st.body), spacer(1))] or [paragraph(
        "The game declares no description of its own.", st.note)]
    story += heading("2. The rulings it applies", st)
    if d.rulings:
        story.append(paragraph("Each ruling is cited as the app cites it when it refuses an "
                               "input; the last column counts the kinds of refusal met in the "
                               "sample hands (section 6) that cite it.", st.small))
        story.append(data_table(["Ruling", "In our words", "Cited"],
                                [[x.citation, x.text, str(x.refusals)] for x in d.rulings],
                                [38 * mm, 124 * mm, 18 * mm], right=[2], st=st))
    else:
        story.append(paragraph("The game declares no rulings.", st.note))
    story += heading("3. Table settings and the fee policy", st)
    story.append(fields_table(list(d.settings), W, columns=1, st=st, label_w=40 * mm))
    story.append(spacer(2))
    story.append(fields_table([("House fee", d.fee), ("Jurisdiction preset", d.preset)], W,
                              columns=1, st=st, label_w=40 * mm))
    if d.preset_rules:
        story.append(spacer(1))
        story += [paragraph(x, st.small) for x in d.preset_rules]
    if d.preset_findings:
        story += [paragraph("The fee breaks the preset: " + x, st.body)
                  for x in d.preset_findings]
    elif d.preset_rules:
        story.append(paragraph("The table's fee meets every rule of the preset.", st.body))
    story += heading("4. The dealer's procedure", st)
    story.append(paragraph(
        f"One sample hand of {d.players} players at these settings, step by step: what the "
        "dealer's screen says before each input, and what the dealer does (the input as the "
        "replay narrates it). Players follow the baseline strategy: " + d.strategy, st.body))
    story.append(spacer(1))
    story.append(data_table(
        ["#", "Phase", "The screen says", "The dealer does"],
        [[str(s.n), s.phase, s.screen, s.dealer] for s in d.procedure],
        [8 * mm, 20 * mm, 72 * mm, 80 * mm], right=[0], st=st))
    if d.push_steps:
        story.append(spacer(2))
        story.append(paragraph("Then the push, in the order the screen lists it:", st.body))
        story.append(data_table(["Step", "Push"],
                                [[str(i), text] for i, text in enumerate(d.push_steps, 1)],
                                [12 * mm, 168 * mm], right=[0], st=st))
    story += heading("5. The game's numbers", st)
    story.append(paragraph(
        f"By simulation of {d.hands:,} hands of {d.players} players at these settings, the "
        "players following the baseline strategy of section 4. Intervals are 95%: Wilson score "
        "intervals for how often, normal intervals for means (the ratio of means for the fee "
        "per hour). Money carried from hand to hand runs through each session.", st.small))
    story += _figures("Pace and fees", d.pace_figures, st)
    story += _figures("Pots, fees and carry-overs", d.figures, st)
    story += _figures(f"What a board asks of {d.title}", d.game_figures, st)
    if d.categories:
        story += heading("Showdowns and categories", st)
        for c in d.categories:
            story += _category(c, st)
    story += heading("6. What the game refuses", st)
    story.append(paragraph(
        f"Gathered by the program from {d.refusal_hands} sample hands: every disabled button's "
        "reason, and every refusal met when each input of those hands is tried at other moments "
        "of them (out of turn, at the wrong phase, a card already out, after the end). Refusals "
        "are grouped by the ruling they cite and their wording with seats, cards and amounts "
        "made general (N, <card>, $N); each is shown as it was met.", st.small))
    if d.refusals:
        story.append(data_table(
            ["Ruling", "The refusal, as met", "Times met", "On a button"],
            [[x.citation or dash(), x.example, f"{x.times:,}", "yes" if x.on_screen else ""]
             for x in d.refusals],
            [38 * mm, 110 * mm, 16 * mm, 16 * mm], right=[2], st=st))
    else:
        story.append(paragraph("No refusal was met.", st.note))
    story += heading("7. Every simulated hand checked", st)
    story.append(paragraph(_checked_line(d), st.body))
    if d.failures:
        story.append(data_table(["Failed hand"], [[x] for x in d.failures], [180 * mm], st=st,
                                flagged=list(range(len(d.failures)))))
        if d.failed > len(d.failures):
            story.append(paragraph(f"… and {d.failed - len(d.failures):,} more.", st.small))
    story.append(paragraph(
        "Each hand's start was compared with the table's settings, its settlement checked to "
        "conserve chips (everything put in is pushed, carried or collected as a fee), and its "
        "log written as JSON Lines, read back and replayed to the same settlement. The same "
        "seed gives the same figures on any number of processors.", st.small))
    return story


def _sessions(d: Dossier) -> str:
    n = -(-d.hands // d.chunk)
    if n == 1:
        return f"{d.hands:,} in one session"
    return f"{d.hands:,} in {n:,} sessions of up to {d.chunk:,}"


def _checked_line(d: Dossier) -> str:
    if d.failed == 0:
        return (f"{d.checked:,} of {d.hands:,} simulated hands checked: chips conserved and the "
                "replay of each hand's log gives the same settlement; none failed.")
    return (f"{d.checked:,} of {d.hands:,} simulated hands checked; {d.failed:,} FAILED "
            "(named in section 7).")


def render_dossier(r: DossierReport, out: Out) -> int:
    start_report()
    use_zone(r.generated.zone)
    d = r.dossier
    info = PageInfo(r.cardroom, "Game-approval dossier", d.title, r.generated,
                    f"Settings {d.settings_sha256[:12]} · seed {d.seed} · "
                    f"{d.checked:,} checked, {d.failed:,} failed")
    with paused_gc():
        return build_pdf(out, info, dossier_story(r, styles()))


# --- produce it ----------------------------------------------------------------------------------


def write_dossier(svc: Services, session: Session, out: str | Path,
                  dossier: Dossier) -> WrittenDossier:
    """Write the dossier with its serial (the audit entry that records it) and log it."""
    allowed = [x for x in ROLES if x in PERMISSIONS["review"]]
    if session.role not in allowed:
        svc.log(session, "refused", f"{session.role} tried to generate a dossier")
        who = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
        a = "an" if session.role[0] in "aeiou" else "a"
        raise NotAllowed(f"{session.name} is {a} {session.role}: only a {who} user can "
                         "generate a dossier")
    path = Path(out)
    if path.suffix.lower() != ".pdf":
        raise BadInput(f"{path} does not end in .pdf: name the dossier file like dossier.pdf")
    if not path.parent.exists():
        raise BadInput(f"the folder {path.parent} does not exist: create it or choose another")
    from dealer_assist.services.counts import room_clock_of

    u = session.user
    at = svc.clock()
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    report = DossierReport(svc.store.cardroom_name(), dossier, Generated(
        at.astimezone(UTC), f"{u.full_name} ({u.name}, {u.role})",
        zone=room_clock_of(svc.store).zone))
    expected = svc.store.audit_head().entries + 1
    numbered = _serial(report, expected)
    pages = _write(numbered, path)
    d = dossier
    entry = svc.log(session, "report", (
        f"game-approval dossier: {d.game}, settings {d.settings_file} sha256 "
        f"{d.settings_sha256}, seed {d.seed}, {d.hands} hands, {d.checked} checked, "
        f"{d.failed} failed, {pages} pages"))
    if entry.seq and entry.seq != expected:  # another station's entry took the number
        numbered = _serial(report, entry.seq)
        pages = _write(numbered, path)
    return WrittenDossier(numbered, path, pages)


def _serial(r: DossierReport, n: int) -> DossierReport:
    return replace(r, generated=replace(r.generated, serial=n))


def _write(r: DossierReport, path: Path) -> int:
    tmp = path.with_name(path.name + ".part")
    try:
        pages = own_report(render_dossier)(r, tmp)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from exc
    return pages
