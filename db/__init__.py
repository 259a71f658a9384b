"""Persistence: SQLAlchemy models, the append-only event store, users and migrations."""
