"""The tables' use cases: a table added with its first settings version, a new version, and the
reads of both. Handlers over only the ports they use: the tables' port
(:class:`~dealer_assist.services.ports.TableRecords`), the audit log's and the authorizer;
:class:`~dealer_assist.services.app.Services` passes its calls on to them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from dealer_assist.bounded import check_value
from dealer_assist.errors import BadInput
from dealer_assist.services.authorizer import Authorizer
from dealer_assist.services.chain import canonical
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import Session, SettingsVersion, Table
from dealer_assist.services.ports import AuditLogRecords, TableRecords
from dealer_assist.settings import TableSettings as ParsedSettings
from dealer_assist.settings import check_table, parse_table_settings


class TableHandlers:
    """Tables and their settings versions (each hand runs under the version current when it
    started)."""

    def __init__(self, tables: TableRecords, audit: AuditLogRecords, authorizer: Authorizer,
                 clock: Callable[[], datetime]) -> None:
        self.tables = tables
        self.audit = audit
        self.authorizer = authorizer
        self.clock = clock

    def _log(self, actor: str, action: str, detail: str, table_id: int) -> None:
        self.audit.add_audit(at=self.clock(), actor=actor, action=action, detail=detail,
                             table_id=table_id)

    def add_table(
        self, session: Session, settings: Mapping[str, Any], *, name: str | None = None
    ) -> Table:
        """A new table with its first settings version. ``settings`` is a table-settings
        document (docs/table-settings.md), checked in full; ``name`` defaults to its name."""
        self.authorizer.require(session, "configure", "add tables")
        doc, parsed = check_settings(settings)
        title = (name or parsed.name).strip()
        if not title:
            raise BadInput("the table needs a name")
        if self.tables.find_table(title) is not None:
            raise BadInput(f'a table named "{title}" already exists')
        table = self.tables.add_table(name=title, at=self.clock(), token=session.token)
        self.tables.add_settings(
            table_id=table.id, game=parsed.game, document=doc, by=session.name, at=self.clock(),
            token=session.token,
        )
        self._log(session.name, "table-added", f"{table.name}: {parsed.game}", table.id)
        return table

    def change_settings(
        self, session: Session, table_id: int, settings: Mapping[str, Any]
    ) -> SettingsVersion:
        """A new settings version; hands started from now on run under it."""
        self.authorizer.require(session, "configure", "change table settings")
        table = self.table(table_id)
        doc, parsed = check_settings(settings)
        row = self.tables.add_settings(
            table_id=table.id, game=parsed.game, document=doc, by=session.name, at=self.clock(),
            token=session.token,
        )
        self._log(session.name, "settings-changed",
                  f"{table.name}: version {row.version}, {parsed.game}", table.id)
        return row

    def table(self, table_id: int) -> Table:
        table = self.tables.get_table(table_id)
        if table is None:
            raise NotFound(f"there is no table {table_id}")
        return table

    def find_table(self, name_or_id: str) -> Table:
        """A table by its name, or by its number when no table has that name."""
        table = self.tables.find_table(name_or_id)
        if table is None and name_or_id.isascii() and name_or_id.isdigit() and len(
                name_or_id) <= 18:  # (a longer number is no table's: 64-bit ids)
            table = self.tables.get_table(int(name_or_id))
        if table is None:
            known = ", ".join(t.name for t in self.tables.list_tables()) or "none yet"
            raise NotFound(f'there is no table "{name_or_id}" (tables: {known})')
        return table

    def list_tables(self) -> list[Table]:
        return self.tables.list_tables()

    def settings(self, table_id: int) -> SettingsVersion:
        """The table's current settings version."""
        row = self.tables.latest_settings(table_id)
        if row is None:
            raise NotFound(f"table {table_id} has no settings yet: the floor must set its game")
        return row

    def settings_version(self, settings_id: int) -> SettingsVersion:
        row = self.tables.get_settings(settings_id)
        if row is None:
            raise NotFound(f"there are no settings {settings_id}")
        return row


def check_settings(settings: Mapping[str, Any]) -> tuple[dict[str, Any], ParsedSettings]:
    """The settings document as plain JSON, checked as ``table check`` checks it."""
    try:
        doc = json.loads(canonical(dict(settings)))
    except (TypeError, ValueError, RecursionError) as exc:
        raise BadInput(f"table settings must be plain JSON values: {exc}") from exc
    check_value(doc, where="the table settings")  # the bounds a settings file has
    parsed = parse_table_settings(doc)
    check_table(parsed)  # the preset's rules and the game's own start
    return doc, parsed
