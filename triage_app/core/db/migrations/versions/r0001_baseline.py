"""0001: the baseline, the store as commit be00e4a made it.

Batches and their ledger, dead letters with their indexes, audit events and the stats cache.
Written out here rather than taken from ``models.py``, which moves on with each revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

# SQLite only makes INTEGER PRIMARY KEY a rowid alias (fast, auto-increment); BIGINT elsewhere.
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

_DEAD_LETTER_INDEXES = {
    "ix_dl_status_id": ["status", "id"],
    "ix_dl_status_class_id": ["status", "error_class", "id"],
    "ix_dl_status_transform_id": ["status", "transform", "id"],
    "ix_dl_status_batch_id": ["status", "batch_id", "id"],
    "ix_dl_class_signature_id": ["error_class", "signature", "id"],
    "ix_dl_class": ["error_class"],
    "ix_dl_signature": ["signature"],
    "ix_dl_attempts": ["attempts"],
    "ix_dl_last_failed": ["last_failed_at"],
    "ix_dl_first_failed": ["first_failed_at"],
    "ix_dl_transform": ["transform"],
    "ix_dl_cube": ["error_class", "signature", "status", "attempts", "first_failed_at"],
    "ix_dl_class_sig_last": ["error_class", "signature", "last_failed_at"],
    "ix_dl_class_first_failed": ["error_class", "first_failed_at"],
    "ix_dl_resolved": ["resolved_at"],
}


def upgrade() -> None:
    op.create_table(
        "batches",
        sa.Column("batch_id", sa.String(length=32), nullable=False),
        sa.Column("source_name", sa.Text(), nullable=False),
        sa.Column("source_sha256", sa.String(length=64), nullable=False),
        sa.Column("transform", sa.String(length=100), nullable=False),
        sa.Column("format", sa.String(length=10), nullable=False),
        sa.Column("csv_header", sa.LargeBinary(), nullable=True),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("lines_done", sa.BigInteger(), nullable=False),
        sa.Column("rows", sa.BigInteger(), nullable=False),
        sa.Column("loaded", sa.BigInteger(), nullable=False),
        sa.Column("superseded", sa.BigInteger(), nullable=False),
        sa.Column("quarantined", sa.BigInteger(), nullable=False),
        sa.Column("q_data", sa.BigInteger(), nullable=False),
        sa.Column("q_code", sa.BigInteger(), nullable=False),
        sa.Column("q_transient", sa.BigInteger(), nullable=False),
        sa.Column("seconds", sa.Double(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("batch_id"),
    )
    op.create_table(
        "stats_cache",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("version", sa.String(length=200), nullable=False),
        sa.Column("payload", sa.LargeBinary(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "batch_chunks",
        sa.Column("batch_id", sa.String(length=32), nullable=False),
        sa.Column("first_line", sa.BigInteger(), nullable=False),
        sa.Column("last_line", sa.BigInteger(), nullable=False),
        sa.Column("records", sa.BigInteger(), nullable=False),
        sa.Column("loaded", sa.BigInteger(), nullable=False),
        sa.Column("superseded", sa.BigInteger(), nullable=False),
        sa.Column("quarantined", sa.BigInteger(), nullable=False),
        sa.Column("committed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["batch_id"], ["batches.batch_id"]),
        sa.PrimaryKeyConstraint("batch_id", "first_line"),
    )
    op.create_table(
        "dead_letters",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("batch_id", sa.String(length=32), nullable=False),
        sa.Column("line", sa.BigInteger(), nullable=False),
        sa.Column("original_payload", sa.LargeBinary(), nullable=False),
        sa.Column("payload", sa.LargeBinary(), nullable=False),
        sa.Column("payload_kind", sa.String(length=10), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("error_class", sa.String(length=10), nullable=False),
        sa.Column("signature", sa.Text(), nullable=False),
        sa.Column("traceback", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("transform", sa.String(length=100), nullable=False),
        sa.Column("first_failed_at", sa.DateTime(), nullable=False),
        sa.Column("last_failed_at", sa.DateTime(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["batch_id"], ["batches.batch_id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("batch_id", "line", name="uq_dead_letter_batch_line"),
    )
    for name, columns in _DEAD_LETTER_INDEXES.items():
        op.create_index(name, "dead_letters", columns, unique=False)
    op.create_table(
        "audit_events",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("dead_letter_id", _ID, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["dead_letter_id"], ["dead_letters.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_action_at", "audit_events", ["action", "at"], unique=False)
    op.create_index("ix_event_dl", "audit_events", ["dead_letter_id", "id"], unique=False)


def downgrade() -> None:
    for table in ("audit_events", "dead_letters", "batch_chunks", "stats_cache", "batches"):
        op.drop_table(table)
