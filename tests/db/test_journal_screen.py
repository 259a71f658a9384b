"""The dealer's screen through a network cut (PostgreSQL behind a proxy on 127.0.0.1): the
dealer keeps dealing from the keyboard, no banner stops them, one line says the server does not
answer and how many inputs are kept; once the network is back the line goes and the server has
every input, once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.db.bootstrap import open_services
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Argon2PinHasher
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import furnish
from tests.ui.test_dealer_champs import open_screen, type_card

from .proxy import Proxy

pytestmark = pytest.mark.postgres
#: Bounded waits (they cap a hang; nothing asserts how long anything took).
BOUND_MS = 20_000


def test_the_dealer_deals_on_through_a_cut_and_the_line_says_so(
    qtbot: Any, pg_cluster: Any, pg_url: str, tmp_path: Path
) -> None:
    with Proxy(pg_cluster.port) as proxy:
        svc = open_services(proxy.url(pg_url.rsplit("/", 1)[1]),
                            hasher=Argon2PinHasher(fast=True), journal=tmp_path / "j.sqlite3")
        furnish(svc)
        store: Any = svc.store
        screen = open_screen(qtbot, svc)
        qtbot.keyClick(screen, Qt.Key.Key_N)
        assert screen.c.now is not None
        hand_id = screen.c.now.hand.id
        for code in ("7h", "kc", "2s"):
            type_card(qtbot, screen, code)
        assert screen.journal_line.isHidden()

        proxy.cut()
        for code in ("9d", "3s", "jc"):
            type_card(qtbot, screen, code)
        # dealt on: the screen shows the inputs, no banner, one line
        assert not screen.banner.isVisible() and screen.cards.input.text() == ""
        assert len(screen.history.texts()) == 7
        qtbot.waitUntil(lambda: screen.journal_line.isVisible(), timeout=BOUND_MS)
        assert screen.journal_line.text().startswith(
            "Offline: the server does not answer. Dealing goes on; 3 inputs kept on this station")

        proxy.restore()
        qtbot.waitUntil(lambda: store.journal.count() == 0 and screen.journal_line.isHidden(),
                        timeout=BOUND_MS)
        rows = store.server.hand_events(hand_id)
        assert [r.body.get("card") for r in rows[1:]] == ["7h", "Kc", "2s", "9d", "3s", "Jc"]
        assert verify_database(store.db).ok
        screen.close()
        store.close()
