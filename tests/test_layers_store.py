"""The screens, the commands and the reports never reach the store (docs/architecture.md,
"Ports, handlers and the authorizer"): they read through the services' read-side port
(``Services.reads``, typed :class:`~dealer_assist.services.reads.Reads`, which has no write) and
change records only through the use cases. These tests hold it two ways: no ``.store``
attribute is touched in ui/, dealer_assist/cli/ or reports/, and none of them imports a store
module (the import contract of the same name in pyproject.toml, checked here on a module that
breaks it, so it cannot pass by checking nothing)."""

from __future__ import annotations

import ast
import os
import subprocess
import typing
from pathlib import Path

from dealer_assist.services import InMemoryStore, Services
from dealer_assist.services.ports import Store
from dealer_assist.services.reads import Reads
from tests.test_quality import BIN, ROOT, _installed_layout

#: The outer layers that read through the port (where they are in the repository).
READERS = (ROOT / "ui", ROOT / "dealer_assist" / "cli", ROOT / "reports")
#: The store's modules: only the bootstrap (dealer_assist.db.bootstrap) builds one.
STORE_MODULES = ("dealer_assist.db.store", "dealer_assist.db.journal",
                 "dealer_assist.db.bulk_reads", "dealer_assist.services.fake")
#: How the store's writes are named: none of them may be on the read-side port.
WRITE_PREFIXES = ("add_", "set_", "append_", "start_", "open_", "close_", "settle_", "reopen_",
                  "import_", "try_", "claim_", "end_", "pin_try")


def reaches_past(source: str) -> list[tuple[int, str]]:
    """Each line of ``source`` that touches a ``.store`` attribute or imports a store module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "store":
            found.append((node.lineno, f"{ast.unparse(node)}"))
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if any(node.module == m or node.module.startswith(m + ".") for m in STORE_MODULES):
                found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, f"import {a.name}") for a in node.names
                         if any(a.name == m or a.name.startswith(m + ".") for m in STORE_MODULES))
    return found


def test_no_screen_command_or_report_reaches_the_store() -> None:
    """Not one ``services.store`` (or any ``.store``) left in ui/, dealer_assist/cli/ or
    reports/, and no store module imported there: a new one is named with its file and line."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for top in READERS
        for path in sorted(top.rglob("*.py"))
        for line, what in reaches_past(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_scan_names_a_reach_past_the_port() -> None:
    """The guard above finds what it is for (so it cannot pass by finding nothing)."""
    source = (
        "from dealer_assist.db.store import SqlStore\n"
        "import dealer_assist.db.journal\n"
        "def f(svc):\n"
        "    t = svc.store.get_table(1)\n"
        "    r = svc.reads.get_table(1)\n"
        "    return getattr(svc, 'store_name', t), r\n"
    )
    assert reaches_past(source) == [
        (1, "from dealer_assist.db.store import ..."),
        (2, "import dealer_assist.db.journal"),
        (4, "svc.store"),
    ]


def test_import_contract_refuses_a_screen_or_report_importing_the_store(tmp_path: Path) -> None:
    """The import contract "The screens, the commands and the reports import no store" names a
    screen importing the database store and a report importing the bulk reader."""
    pkg = _installed_layout(tmp_path)
    (pkg / "ui" / "wrong_way.py").write_text(
        "from dealer_assist.db.store import SqlStore  # noqa: F401\n")
    (pkg / "reports" / "wrong_way.py").write_text(
        "from dealer_assist.db.bulk_reads import SqlBulkReads  # noqa: F401\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env,
    )
    out = " ".join((r.stdout + r.stderr).split())
    assert r.returncode != 0
    assert "dealer_assist.ui.wrong_way -> dealer_assist.db.store" in out
    assert "dealer_assist.reports.wrong_way -> dealer_assist.db.bulk_reads" in out


def _members(proto: type) -> set[str]:
    """The methods a protocol declares, its bases' included."""
    return {n for base in proto.__mro__ if base.__module__.startswith("dealer_assist.")
            for n in vars(base) if not n.startswith("_")}


def test_the_read_side_port_has_no_write_and_the_store_is_one() -> None:
    """``Reads`` holds reads only, and the services' ``Store`` port is it with the writes added
    (so every store is a read-side port, and ``Services.reads`` is its store seen so)."""
    reads = _members(Reads)
    assert "list_hands" in reads and "audit_log" in reads and "bulk_reads" in reads
    assert [n for n in sorted(reads) if n.startswith(WRITE_PREFIXES)] == []
    assert Reads in Store.__mro__
    writes = _members(Store) - reads
    assert "add_audit" in writes and "append_event" in writes
    assert "user_secret" in writes  # the PIN hash is never on the read-side port
    reads_of = typing.cast(property, Services.reads).fget
    assert typing.get_type_hints(reads_of)["return"] is Reads
    svc = Services(InMemoryStore())
    assert svc.reads is svc.store
    assert svc.reads.bulk_reads() is None  # the in-memory store is read through the port
    assert svc.journal is None and svc.database is None


def test_the_store_port_is_the_aggregates_ports_and_every_store_keeps_each_whole() -> None:
    """One port per aggregate (users, tables, shifts, the hand log, the ledger, the audit
    log), none sharing a method; the wide ``Store`` is exactly their union with the read-side
    port's own two (the bulk reader, reads on one connection); the database store and the
    in-memory store each have every method of every port (a station's journal passes what
    it does not keep itself on to its database store)."""
    from dealer_assist.db.store import SqlStore
    from dealer_assist.services import ports

    aggregates = [ports.UserRecords, ports.TableRecords, ports.ShiftRecords,
                  ports.HandLogRecords, ports.LedgerRecords, ports.AuditLogRecords]
    seen: set[str] = set()
    for port in aggregates:
        mine = _members(port)
        assert mine and not mine & seen, port.__name__
        seen |= mine
    assert _members(Store) == seen | {"bulk_reads", "reading"}
    for store in (SqlStore, InMemoryStore):
        assert [m for m in sorted(seen | {"bulk_reads", "reading"})
                if not callable(getattr(store, m, None))] == [], store.__name__
