"""The game-approval dossier as a PDF report (``dealer-assist dossier``).

The figures come from :mod:`dealer_assist.dossier` (pure computation); this lays them out with
the page furniture every report has (Page N of M, the serial number that is its audit log entry,
the version and commit, who generated it and when) and logs its generation.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from datetime import UTC
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Preformatted

from dealer_assist.dossier.build import CategoryTable, Dossier, Figure
from dealer_assist.errors import BadInput
from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.records import Generated, Signature
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block, spacer
from dealer_assist.reports.render.page import PageInfo, build_pdf
from dealer_assist.reports.render.state import own_report, start_report, use_zone
from dealer_assist.reports.render.style import Styles, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import dash, hash_groups, money
from dealer_assist.services import Services, Session

W = 180 * mm
Out = str | Path | Any


@dataclass(frozen=True, slots=True)
class DossierReport:
    """The dossier with what every report says of itself: the cardroom, who generated it,
    when, and its serial number; as a filing, who prepared it and who approves it for filing
    (their full names under the signature lines; "" leaves the name to be printed by hand),
    and the head of the room's audit chain it was made at (entries and hash)."""

    cardroom: str
    dossier: Dossier
    generated: Generated
    prepared_by: str = ""
    approved_by: str = ""
    chain_entries: int = 0
    chain_hash: str = ""


@dataclass(frozen=True, slots=True)
class WrittenDossier:
    report: DossierReport
    path: Path
    pages: int


# --- text ----------------------------------------------------------------------------------------


#: The most decimals a share is printed with (a percentage).
MOST_DECIMALS = 4


def share_decimals(*values: float) -> int:
    """The decimals a share and its interval are all printed with: one, or as many more as it
    takes for values that differ to print differently (an interval of 99.98% to 100% is not
    "100.0% to 100.0%"; 0% to 0.02% is "0.00% to 0.02%")."""
    distinct = sorted(set(values))
    for d in range(1, MOST_DECIMALS + 1):
        if len({f"{100 * v:.{d}f}" for v in distinct}) == len(distinct):
            return d
    return MOST_DECIMALS


def _value(kind: str, v: float, decimals: int = 1) -> str:
    if kind == "money":
        return money(round(v))
    if kind == "share":
        return f"{100 * v:.{decimals}f}%"
    if kind == "minutes":
        return f"{v:.2f} min"
    if kind == "rate":
        return f"{v:.1f}"
    return f"{v:.2f}"


def _shown(f: Figure) -> tuple[str, str]:
    """The estimate and its interval, in the same decimals."""
    d = share_decimals(f.mean, f.low, f.high) if f.kind == "share" else 1
    if f.low == f.high == f.mean:
        return _value(f.kind, f.mean, d), "exact" if f.n > 1 else dash()
    return (_value(f.kind, f.mean, d),
            f"{_value(f.kind, f.low, d)} to {_value(f.kind, f.high, d)}")


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
        estimate, interval = _shown(f)
        rows.append([label, estimate, interval, extra, f"{f.n:,}"])
    return rows


def _figures(title: str, figures: tuple[Figure, ...], st: Styles,
             counted: str = "Hands") -> list[Flowable]:
    if not figures:
        return []
    table = data_table(
        ["Figure", "Estimate", "95% interval", "Median / 95th pct. / largest", counted],
        _figure_rows(figures), [70 * mm, 24 * mm, 40 * mm, 32 * mm, 14 * mm],
        right=[1, 4], st=st)
    return [KeepTogether([*heading(title, st), table])]  # (a heading never ends a page)


def _category(c: CategoryTable, st: Styles) -> list[Flowable]:
    rows = []
    for r in c.rows:
        d = share_decimals(r.share, r.low, r.high)
        rows.append([r.name, f"{r.count:,}", _value("share", r.share, d),
                     f"{_value('share', r.low, d)} to {_value('share', r.high, d)}"])
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
            ("Settings file", d.settings_file + " (its text: appendix A)"),
            ("Settings sha256", hash_groups(d.settings_sha256)),
            ("Seed", str(d.seed)),
            ("Hands simulated", _sessions(d)),
            ("Players per hand", str(d.players)),
            ("Pace", f"{pace.per_input} s per input, {pace.between} s between hands"),
            ("Worker processes", str(d.workers)),
            ("Serial no.", str(r.generated.serial) if r.generated.serial else dash()),
            ("Made at audit chain head", _head(r)),
            ("Prepared by", r.prepared_by or r.generated.by),
            ("Approved for filing by", r.approved_by or "(to be signed: section 8)"),
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
    if d.defaults:
        story.append(spacer(1))
        story.append(paragraph(
            "Left out of the file, so played as the game plays them, and so dealt in every "
            "simulated hand: " + "; ".join(text for _, text in d.defaults) + ".", st.body))
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
        "players following the baseline strategy of section 4. " + _played(d) + " Each figure "
        "says what it is per: per hand, per game or per hour. Intervals are 95%: Wilson score "
        "intervals for how often, normal intervals for means (the ratio of means for the fee "
        "per hour). A share and its interval are printed with the same decimals.", st.small))
    story += _figures("Per hour, at the stated pace", d.pace_figures, st)
    story += _figures("Per hand: pots, fees and carry-overs", d.figures, st)
    story += _figures(f"Per hand: what a board asks of {d.title}", d.game_figures, st)
    if d.played == "game":
        story += _figures("Per game: each game from its first hand to the end its rule sets",
                          d.per_game_figures, st, counted="Games")
        if not d.per_game_figures:
            story.append(paragraph(
                f"No game ended by its rule within {d.most_hands:,} hands: "
                f"{d.stopped:,} games were stopped there (the end of a sitting).", st.body))
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
    story.append(signature_block(
        [Signature("Prepared by", r.prepared_by or r.generated.by.split(" (")[0]),
         Signature("Approved for filing by", r.approved_by)], W, st, title="8. Signatures",
        figures=[("Game", f"{d.title} ({d.game})"), ("Settings file", d.settings_file),
                 ("Settings sha256", hash_groups(d.settings_sha256)), ("Seed", str(d.seed)),
                 ("Hands checked", f"{d.checked:,} of {d.hands:,}, {d.failed:,} failed"),
                 ("Serial no.", str(r.generated.serial) if r.generated.serial else dash()),
                 ("Made at audit chain head", _head(r))]))
    story += heading("Appendix A: the settings file", st)
    story.append(paragraph(
        f"{d.settings_file}, sha256 {d.settings_sha256}, as read (long lines are wrapped "
        "and marked with ↪ where they continue):" if _symbols() else
        f"{d.settings_file}, sha256 {d.settings_sha256}, as read (long lines are wrapped "
        "and marked with > where they continue):", st.body))
    story.append(spacer(1))
    story.append(Preformatted(_wrapped(d.settings_text) or "(the file's text was not given)",
                              st.mono))
    return story


#: Characters of the settings file's text a line of appendix A holds (monospaced, 9 pt).
APPENDIX_COLUMNS = 90


def _symbols() -> bool:
    from dealer_assist.reports.render.style import fonts

    return fonts().symbols


def _wrapped(text: str) -> str:
    """The settings file's text with lines longer than the page wrapped, each continuation
    marked, so nothing of it runs off the page."""
    mark = "↪ " if _symbols() else "> "
    out = []
    for line in text.expandtabs(4).splitlines():
        if len(line) <= APPENDIX_COLUMNS:
            out.append(line)
            continue
        parts = textwrap.wrap(line, APPENDIX_COLUMNS - 2, drop_whitespace=False,
                              break_on_hyphens=False) or [line]
        out.append(parts[0])
        out.extend(mark + x for x in parts[1:])
    return "\n".join(out)


def _head(r: DossierReport) -> str:
    """The room's audit chain head the dossier was made at."""
    if not r.chain_hash:
        return dash()
    return f"#{r.chain_entries:,} {hash_groups(r.chain_hash[:16])}"


def _played(d: Dossier) -> str:
    """How the simulation dealt the hands, in a sentence or two."""
    if d.played != "game":
        return ("Each hand stands alone; money carried from hand to hand runs through each "
                "session.")
    out = ("Hands follow on as whole games: the deal moves round, what the game carries goes "
           "into the next hand, and a game ends when its rule says so")
    if d.stacks and d.buy_in is not None and d.restack:
        out += (f"; each game starts every stack from the buy-in of {money(d.buy_in)}, and "
                "the stacks run down from hand to hand within it")
    elif d.stacks and d.buy_in is not None:
        out += (f"; each stack starts from the buy-in of {money(d.buy_in)} and runs down "
                "from hand to hand (a seat left with nothing buys in again)")
    elif d.stacks:
        out += ("; the table names no buy-in, so each hand's stacks are the sample hands' own "
                "(they do not run down from hand to hand: give buy_in in the settings file)")
    out += (f". {d.games:,} games ended by their rule")
    if d.stopped:
        out += f"; {d.stopped:,} reached {d.most_hands:,} hands and were stopped there"
    return out + "."


def _sessions(d: Dossier) -> str:
    n = -(-d.hands_asked // d.chunk)
    out = (f"{d.hands:,} in one session" if n == 1
           else f"{d.hands:,} in {n:,} sessions of {d.chunk:,}")
    if d.hands != d.hands_asked:
        out += f" ({d.hands_asked:,} asked; each session's last game played to its end)"
    return out


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
                    f"Audit chain {_head(r)} · settings {d.settings_sha256[:8]} · "
                    f"seed {d.seed} · {d.failed:,} failed")
    with paused_gc():
        return build_pdf(out, info, dossier_story(r, styles()))


# --- produce it ----------------------------------------------------------------------------------


def write_dossier(svc: Services, session: Session, out: str | Path,
                  dossier: Dossier, *, approver: str | None = None) -> WrittenDossier:
    """Write the dossier with its serial (the audit entry that records it) and log it.
    ``approver``: the user name of whoever approves it for filing (a floor or admin user
    other than the one preparing it), whose full name goes under that signature line; None
    leaves the line for a name printed by hand."""
    svc.authorizer.require(session, "review", "generate a dossier", users=True)  # refusals logged
    path = Path(out)
    if path.suffix.lower() != ".pdf":
        raise BadInput(f"{path} does not end in .pdf: name the dossier file like dossier.pdf")
    if not path.parent.exists():
        raise BadInput(f"the folder {path.parent} does not exist: create it or choose another")
    from dealer_assist.services.counts import room_clock_of

    u = session.user
    approved = approver_name(svc, session, approver)
    at = svc.clock()
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    head = svc.reads.audit_head()
    report = DossierReport(svc.reads.cardroom_name(), dossier, Generated(
        at.astimezone(UTC), f"{u.full_name} ({u.name}, {u.role})",
        zone=room_clock_of(svc.reads).zone), prepared_by=u.full_name, approved_by=approved,
        chain_entries=head.entries, chain_hash=head.hash)
    expected = head.entries + 1
    numbered = _serial(report, expected)
    pages = _write(numbered, path)
    d = dossier
    entry = svc.log(session, "report", (
        f"game-approval dossier: {d.game}, settings {d.settings_file} sha256 "
        f"{d.settings_sha256}, seed {d.seed}, {d.hands} hands, {d.checked} checked, "
        f"{d.failed} failed, {pages} pages, made at audit chain head #{head.entries} "
        f"{head.hash}" + (f", approved for filing by {approver}" if approver else "")))
    if entry.seq and entry.seq != expected:  # another station's entry took the number
        numbered = _serial(report, entry.seq)
        pages = _write(numbered, path)
    return WrittenDossier(numbered, path, pages)


#: The roles that may approve a dossier for filing.
APPROVERS = ("floor", "admin")


def approver_name(svc: Services, session: Session, name: str | None) -> str:
    """The full name of the user approving the dossier for filing: a floor or admin user, not
    the one preparing it."""
    if name is None:
        return ""
    if name == session.name:
        raise BadInput(f"{name} prepares this dossier and cannot also approve it for filing: "
                       "name another floor or admin user with --approver")
    user = next((x for x in svc.reads.list_users() if x.name == name), None)
    if user is None:
        raise BadInput(f"there is no user {name!r} to approve the dossier: give the user name "
                       "of a floor or admin user")
    if user.role not in APPROVERS or not user.active:
        raise BadInput(f"{name} is {'an inactive ' if not user.active else 'a '}"
                       f"{user.role}: only an active floor or admin user approves a dossier "
                       "for filing")
    return user.full_name


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
