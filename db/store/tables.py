"""Tables and their settings versions: each new one recorded on the audit chain."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from dealer_assist.db.store.audit import append_audit
from dealer_assist.db.store.base import StoreBase
from dealer_assist.db.store.rows import TS, T, to_settings, to_table
from dealer_assist.db.store.users import _definer
from dealer_assist.errors import BadInput
from dealer_assist.services.chain import canonical, utc
from dealer_assist.services.model import SettingsVersion, Table
from dealer_assist.services.records import record_entry, settings_state, table_state


class TableStore(StoreBase):
    """The tables part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def add_table(self, *, name: str, at: datetime, token: str = "") -> Table:
        """A new table. On PostgreSQL only the owner's ``da_table_add`` adds one (schema
        0016): ``token`` must be a signed-in floor person's or admin's session."""
        try:
            with self._write() as conn:
                if self._pg:
                    new_id = _definer(conn, "SELECT da_table_add(%s, %s, %s)",
                                      (token, name, utc(at).replace(tzinfo=None)))
                else:
                    new_id = conn.execute(
                        insert(T).values(name=name, created_at=at).returning(T.c.id)
                    ).scalar_one()
                append_audit(conn, [record_entry("table", table_state(id=new_id, name=name), at)])
        except IntegrityError as exc:
            raise BadInput(f'a table named "{name}" already exists') from exc
        return Table(id=int(new_id), name=name, created_at=utc(at))

    def get_table(self, table_id: int) -> Table | None:
        with self._read() as conn:
            r = conn.execute(select(T).where(T.c.id == table_id)).first()
        return to_table(r) if r else None

    def find_table(self, name: str) -> Table | None:
        with self._read() as conn:
            r = conn.execute(select(T).where(T.c.name == name)).first()
        return to_table(r) if r else None

    def list_tables(self) -> list[Table]:
        with self._read() as conn:
            return [to_table(r) for r in conn.execute(select(T).order_by(T.c.id))]

    def add_settings(
        self, *, table_id: int, game: str, document: Mapping[str, Any], by: str, at: datetime,
        token: str = "",
    ) -> SettingsVersion:
        """A new settings version. On PostgreSQL only the owner's ``da_settings_add`` writes
        one (schema 0016): ``token`` must be the session of ``by``, a floor person or admin."""
        with self._write() as conn:
            self._lock_table(conn, table_id)
            version = 1 + int(conn.execute(
                select(func.coalesce(func.max(TS.c.version), 0)).where(TS.c.table_id == table_id)
            ).scalar_one())
            if self._pg:
                new_id = _definer(conn, "SELECT da_settings_add(%s, %s, %s, %s, %s, %s, %s)", (
                    token, table_id, version, game, canonical(dict(document)),
                    utc(at).replace(tzinfo=None), by))
            else:
                new_id = conn.execute(
                    insert(TS).values(
                        table_id=table_id, version=version, game=game,
                        document=canonical(dict(document)),
                        created_at=at, created_by=by,
                    ).returning(TS.c.id)
                ).scalar_one()
            append_audit(conn, [record_entry("settings", settings_state(
                id=new_id, table_id=table_id, version=version, game=game,
                document=canonical(dict(document)), created_at=at, created_by=by,
            ), at)])
        return SettingsVersion(
            id=int(new_id), table_id=table_id, version=version, game=game, document=dict(document),
            created_at=utc(at), created_by=by,
        )

    def latest_settings(self, table_id: int) -> SettingsVersion | None:
        with self._read() as conn:
            r = conn.execute(
                select(TS).where(TS.c.table_id == table_id).order_by(TS.c.version.desc()).limit(1)
            ).first()
        return to_settings(r) if r else None

    def settings_versions(self, table_id: int) -> list[SettingsVersion]:
        with self._read() as conn:
            rows = conn.execute(
                select(TS).where(TS.c.table_id == table_id).order_by(TS.c.version)
            )
            return [to_settings(r) for r in rows]

    def get_settings(self, settings_id: int) -> SettingsVersion | None:
        with self._read() as conn:
            r = conn.execute(select(TS).where(TS.c.id == settings_id)).first()
        return to_settings(r) if r else None
