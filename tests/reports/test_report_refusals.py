"""Who may produce a report is the authorizer's question (services/authorizer.py), as for every
use case: a role without the right is refused, a name disabled since it signed in is refused,
and every refusal is on the audit log before the file would be written."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dealer_assist.reports import generate
from dealer_assist.services import NotAllowed

from .room import make_room


def test_a_dealer_is_refused_a_report_in_the_authorizer_s_words_and_it_is_logged(
        tmp_path: Path) -> None:
    room = make_room(hands=2)
    with pytest.raises(NotAllowed, match="dee is a dealer: only a floor, auditor or admin user can "
                                         "read the audit log"):
        generate.audit_report(room.svc, room.dealer, tmp_path / "a.pdf",
                              since=datetime(2026, 1, 1, tzinfo=UTC),
                              until=datetime(2026, 1, 2, tzinfo=UTC))
    assert not (tmp_path / "a.pdf").exists()
    last = room.store.audit[-1]
    assert (last.actor, last.action, last.detail) == ("dee", "refused",
                                                      "dealer tried to read the audit log")


def test_a_name_disabled_since_it_signed_in_produces_no_report(tmp_path: Path) -> None:
    """The floor person's window is still signed in after an admin disabled the name: the
    report is refused (the authorizer's active check), logged, and no file is written."""
    room = make_room(hands=2)
    room.svc.set_user_active(room.admin, "fran", False)
    room.svc.authorizer.seen_active.clear()  # the recheck time has passed
    with pytest.raises(NotAllowed, match="fran is disabled: sign out"):
        generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf")
    assert not (tmp_path / "s.pdf").exists()
    last = room.store.audit[-1]
    assert (last.actor, last.action, last.detail) == ("fran", "refused",
                                                      "floor tried to generate reports")
