"""Issue 45 item 11 and issue 40 item 3 on the shift report: every stack change a hand started
with is listed with who approved it, and a change the floor approved (chips taken off while
a pot carries, a carry-in changed) is also an exception; the PDF prints them."""

from __future__ import annotations

from pathlib import Path

from services.support import make_room

from dealer_assist.cards import parse_cards
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.services.app import Approval
from tests.db.test_guts_verify import SETTINGS, act

from .pdftext import pages


def test_regression_the_shift_report_lists_every_stack_change_with_its_approver(
    tmp_path: Path,
) -> None:
    room = make_room()
    svc = room.svc
    table = svc.add_table(room.admin, dict(SETTINGS), name="Guts")
    svc.add_user(room.admin, name="gus", full_name="Gus Guts", role="dealer", pin="4444")
    gus = svc.sign_in("gus", "4444")
    shift = svc.open_shift(gus, table.id, floor="fran")
    now = svc.start_hand(gus, table.id)
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, gus, now, kind, seat)
    now = act(svc, gus, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, gus, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(gus, now.hand.id)  # seat 1 left with $102, seat 3 with $99; $3 carries
    svc.start_hand(gus, table.id, stacks={1: 1000, 3: 20000}, carry_in=3700,
                   approval=Approval("fran", "2222"))
    r = build_shift(svc.store, shift_id=shift.id, by="t", at=room.clock.now)
    ((change),) = r.stack_changes
    assert change.hand_number == 2 and change.by == "Gus Guts (gus)"
    assert change.approved_by == "Fran Floor (fran)"
    assert change.changes == ("seat 3 $200 ($99 kept from the last hand); seat 1 $10 ($102 "
                              "kept from the last hand); carry-in $37 ($3 carried from the "
                              "last hand)")
    (exc,) = [e for e in r.exceptions if e.severity == "carry"]
    assert exc.hand_number == 2 and exc.text.endswith("approved by Fran Floor (fran)")
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "Stack and carry changes" in text and "carry-in $37" in text
