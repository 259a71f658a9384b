"""Alembic migrations; run by :func:`dealer_assist.db.bootstrap.upgrade` (no alembic.ini)."""
