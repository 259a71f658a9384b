"""What a migration calls to make a sealed table (schema 0017 on;
:mod:`dealer_assist.db.sealed` says what one is).

Kept stable: a migration that used it must make the same table years later.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from alembic import op

from dealer_assist.db.models import GENESIS

_NAME = re.compile(r"[a-z][a-z0-9_]{0,62}")
ROLES = ("dealer", "floor", "auditor", "admin")


def create_sealed_table(name: str, *columns: sa.Column[Any], roles: tuple[str, ...]) -> None:
    """Create sealed table ``name`` with ``columns`` beside the sealed ones, its head row, the
    triggers that keep it append-only, and on PostgreSQL the trigger that takes a row only from
    a live sign-in of one of ``roles`` writing in its own name (or from the owner)."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a table name")
    if not roles or set(roles) - set(ROLES):
        raise ValueError(f"roles {roles!r}: some of {ROLES}")
    op.create_table(
        name,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("at", sa.DateTime(timezone=False), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        *columns,
        sa.UniqueConstraint("seq", name=f"uq_{name}_seq"),
    )
    op.execute(sa.text("INSERT INTO record_heads (kind, entries, head_hash) "
                       "VALUES (:k, 0, :g)").bindparams(k=name, g=GENESIS))
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {name}_no_{verb.lower()} BEFORE {verb} ON {name} "
                f"BEGIN SELECT RAISE(ABORT, '{name} is append-only: {verb} refused; "
                "record a correction instead'); END"
            )
        op.execute(
            f"CREATE TRIGGER {name}_no_replace BEFORE INSERT ON {name} "
            f"WHEN EXISTS (SELECT 1 FROM {name} WHERE id = NEW.id) "
            f"OR EXISTS (SELECT 1 FROM {name} WHERE seq = NEW.seq) "
            f"BEGIN SELECT RAISE(ABORT, '{name} is append-only: a row with this key is stored; "
            "REPLACE refused'); END"
        )
    elif bind.dialect.name == "postgresql":
        op.execute(f"CREATE TRIGGER {name}_append_only BEFORE UPDATE OR DELETE ON {name} "
                   "FOR EACH ROW EXECUTE FUNCTION dealer_assist_append_only()")
        op.execute(f"CREATE TRIGGER {name}_no_truncate BEFORE TRUNCATE ON {name} "
                   "FOR EACH STATEMENT EXECUTE FUNCTION dealer_assist_append_only()")
        args = ", ".join(f"'{r}'" for r in roles)
        op.execute(f"CREATE TRIGGER {name}_signed BEFORE INSERT ON {name} "
                   f"FOR EACH ROW EXECUTE FUNCTION da_sealed_signed({args})")


def drop_sealed_table(name: str) -> None:
    """Undo :func:`create_sealed_table` (a downgrade)."""
    op.drop_table(name)
    op.execute(sa.text("DELETE FROM record_heads WHERE kind = :k").bindparams(k=name))
