"""Tables and their settings versions: the services' calls, passed on to the tables' handlers
(:mod:`dealer_assist.services.table_handlers`, over the tables' port, the audit log's and the
authorizer only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.services.model import Session, SettingsVersion, Table
from dealer_assist.services.users import UserServices


class TableServices(UserServices):
    """Tables (each with versions of its settings)."""

    def add_table(
        self, session: Session, settings: Mapping[str, Any], *, name: str | None = None
    ) -> Table:
        """A new table with its first settings version (:meth:`TableHandlers.add_table`)."""
        return self.table_handlers.add_table(session, settings, name=name)

    def change_settings(
        self, session: Session, table_id: int, settings: Mapping[str, Any]
    ) -> SettingsVersion:
        """A new settings version; hands started from now on run under it."""
        return self.table_handlers.change_settings(session, table_id, settings)

    def table(self, table_id: int) -> Table:
        return self.table_handlers.table(table_id)

    def find_table(self, name_or_id: str) -> Table:
        """A table by its name, or by its number when no table has that name."""
        return self.table_handlers.find_table(name_or_id)

    def list_tables(self) -> list[Table]:
        return self.table_handlers.list_tables()

    def settings(self, table_id: int) -> SettingsVersion:
        """The table's current settings version."""
        return self.table_handlers.settings(table_id)

    def settings_version(self, settings_id: int) -> SettingsVersion:
        return self.table_handlers.settings_version(settings_id)
