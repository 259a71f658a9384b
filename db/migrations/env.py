"""Alembic environment: always given a live connection by dealer_assist.db.bootstrap."""

from __future__ import annotations

from alembic import context

from dealer_assist.db.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `dealer-assist db upgrade`, not the alembic command")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    transaction_per_migration=True,
)
with context.begin_transaction():
    context.run_migrations()
