"""SQLAlchemy 2 typed models: the schema the migrations create (db/migrations).

Events, ledger lines, disputes and the audit log are append-only (database triggers refuse
UPDATE and DELETE). Times are stored as naive UTC and read back as aware UTC. Money is BIGINT
cents. A table row holds its chain head (last sequence number and hash), updated with every
append in the same transaction, so deleting events at the end of a chain shows too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

GENESIS = "0" * 64


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC in Python, naive UTC in the database (the same on SQLite and PostgreSQL)."""

    impl = DateTime(timezone=False)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value

    def process_result_value(
        self, value: datetime | str | None, dialect: Dialect
    ) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    # every model maps one Table (SQLAlchemy types it as any FromClause): insert/update take it
    __table__: ClassVar[Table]
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class Setting(Base):
    """Key/value facts about the database itself (the cardroom's name)."""

    __tablename__ = "settings_kv"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class UserRow(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    full_name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))
    pin_hash: Mapped[str] = mapped_column(String(200))
    failed: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PinTryRow(Base):
    """Wrong PINs in a row on a name nobody has (or a disabled one), by name (schema 0009):
    such a name is locked like a real one, at every station."""

    __tablename__ = "pin_tries"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    failed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TableRow(Base):
    __tablename__ = "card_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    head_seq: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    head_hash: Mapped[str] = mapped_column(String(64), default=GENESIS, server_default=GENESIS)


class TableSettingsRow(Base):
    __tablename__ = "table_settings"
    __table_args__ = (UniqueConstraint("table_id", "version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"))
    version: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(40))
    document: Mapped[str] = mapped_column(Text)  # canonical JSON of the settings document
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by: Mapped[str] = mapped_column(String(40))


class ShiftRow(Base):
    __tablename__ = "shifts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"), index=True)
    dealer: Mapped[str] = mapped_column(String(40))
    floor: Mapped[str] = mapped_column(String(40))
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_by: Mapped[str | None] = mapped_column(String(40), nullable=True)
    closed_floor: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: The ``approval`` audit entry of the floor person who approved the close (schema 0016).
    close_approval_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class HandRow(Base):
    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "number"),
        Index("ix_hands_started_at", "started_at"),
        Index("ix_hands_shift_id", "shift_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"))
    shift_id: Mapped[int] = mapped_column(ForeignKey("shifts.id"))
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(40))
    seats: Mapped[str] = mapped_column(String(200))  # JSON list
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_by: Mapped[str] = mapped_column(String(40))
    settings_id: Mapped[int | None] = mapped_column(
        ForeignKey("table_settings.id"), nullable=True
    )
    status: Mapped[str] = mapped_column(String(16), default="open")
    events: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class EventRow(Base):
    """Append-only. ``seq`` per table from 1; ``number`` per hand from 1; ``hash`` chains.

    A table-level event (seat in, seat out, period mark) has no hand: ``hand_id`` is NULL and
    ``number`` counts the table's table-level events from 1 (schema 0003)."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        UniqueConstraint("hand_id", "number"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("card_tables.id"))
    seq: Mapped[int] = mapped_column(BigInteger)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    number: Mapped[int] = mapped_column(Integer)
    time: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(40))
    type: Mapped[str] = mapped_column(String(32))
    body: Mapped[str] = mapped_column(Text)  # canonical JSON of the event
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    #: The ``approval`` audit entry of an event that needs one (schema 0016): a void in a
    #: finished hand, a misdeal, a floor decision, a start that changes the last hand's carry.
    approval_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Written with the event that ends its hand (schema 0018): what the next hand at the same
    #: seats takes of what the game carries, as JSON (:mod:`dealer_assist.services.overmark`).
    over_mark: Mapped[str | None] = mapped_column(Text, nullable=True)


class LedgerRow(Base):
    """Append-only; a re-settlement (after a floor-approved void) adds a new ``settlement``.

    A time collection belongs to a table, not a hand: ``hand_id`` is NULL, ``table_id`` and
    ``period`` are set, and ``seq`` is the table-level event that collected it (schema 0003)."""

    __tablename__ = "ledger_lines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), index=True, nullable=True)
    settlement: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(String(40), default="")
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    period: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class DisputeRow(Base):
    __tablename__ = "disputes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    notes: Mapped[str] = mapped_column(Text)
    ruling: Mapped[str] = mapped_column(Text)
    floor: Mapped[str] = mapped_column(String(40))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: The second floor person's ``approval`` audit entry of its adjustments (schema 0016).
    approval_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class AdjustmentRow(Base):
    __tablename__ = "dispute_adjustments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dispute_id: Mapped[int] = mapped_column(ForeignKey("disputes.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    note: Mapped[str] = mapped_column(Text, default="")


class AuditRow(Base):
    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_at", "at"), Index("ix_audit_log_seq", "seq"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str | None] = mapped_column(String(40), nullable=True)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[str] = mapped_column(Text, default="")
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hand_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: The entry's place in the audit chain, and the chain's links (schema 0004).
    seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    prev_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class AuditHeadRow(Base):
    """The audit chain's head: one row (id 1), written in the same transaction as each entry."""

    __tablename__ = "audit_head"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entries: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    head_hash: Mapped[str] = mapped_column(String(64), default=GENESIS, server_default=GENESIS)


class CheckpointRow(Base):
    """A signed checkpoint (schema 0007): the room's key signs ``body``, the canonical JSON of
    every table's chain head (seq, hash, hand and ledger totals) and the audit chain's head.
    Append-only; ``number`` counts the checkpoints from 1, so one deleted in between shows."""

    __tablename__ = "checkpoints"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, unique=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(40))
    key_id: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    signature: Mapped[str] = mapped_column(String(128))


class RecordHeadRow(Base):
    """Each sealed table's head: how many records, the last one's hash (schema 0017)."""

    __tablename__ = "record_heads"
    kind: Mapped[str] = mapped_column(String(64), primary_key=True)
    entries: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    head_hash: Mapped[str] = mapped_column(String(64), default=GENESIS, server_default=GENESIS)


#: Tables the database keeps append-only (UPDATE and DELETE refused by triggers).
APPEND_ONLY = ("events", "ledger_lines", "disputes", "dispute_adjustments", "audit_log")
#: Every sealed table (schema 0007): append-only, and on SQLite a row whose key exists is
#: refused before it goes in, so ``INSERT OR REPLACE`` cannot rewrite one.
SEALED = (*APPEND_ONLY, "checkpoints")
#: The unique keys of the sealed tables besides ``id`` (what ``REPLACE`` would collide on).
SEALED_KEYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "events": (("table_id", "seq"), ("hand_id", "number")),
    "checkpoints": (("number",),),
}
