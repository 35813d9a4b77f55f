"""0011: a batch's input is kept, a reprocess run is a batch, an atomic batch holds (issue 25).

- ``kept_sources``: one row per source kept, by the SHA-256 of its bytes (the batch's
  ``source_sha256``), compressed. A SQLite workspace keeps the bytes as a file in its
  folder; a team store keeps them in ``source_blobs``, in parts, so every steward's desk
  reads the same input.
- ``batches.kind``: ``file`` (a source file through a transform, as every batch before) or
  ``reprocess`` (the rows a suspect version wrote, run again through another); a reprocess
  run names the version it suspects (``produced_by``) and the one batch it was limited to
  (``scope``), if any.
- ``batches.held`` and ``held_rows``: a batch through an atomic transform loads nothing
  until every row passes; its healthy rows wait here, transformed, until the whole batch
  goes in one transaction.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from triage_app.core.db.instants import INSTANT

revision = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("batches") as table:
        table.add_column(sa.Column("kind", sa.String(12), nullable=False, server_default="file"))
        table.add_column(sa.Column("held", sa.BigInteger(), nullable=False, server_default="0"))
        table.add_column(sa.Column("produced_by", sa.String(100), nullable=True))
        table.add_column(sa.Column("scope", sa.String(32), nullable=True))
    op.create_table(
        "kept_sources",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("format", sa.String(10), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("stored_size", sa.BigInteger(), nullable=False),
        sa.Column("codec", sa.String(10), nullable=False),
        sa.Column("place", sa.String(10), nullable=False),
        sa.Column("kept_at", INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )
    op.create_index("ix_kept_sources_kept_at", "kept_sources", ["kept_at"])
    op.create_table(
        "source_blobs",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("part", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["sha256"], ["kept_sources.sha256"]),
        sa.PrimaryKeyConstraint("sha256", "part"),
    )
    op.create_table(
        "held_rows",
        sa.Column("batch_id", sa.String(32), nullable=False),
        sa.Column("line", sa.BigInteger(), nullable=False),
        sa.Column("row", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["batch_id"], ["batches.batch_id"]),
        sa.PrimaryKeyConstraint("batch_id", "line"),
    )


def downgrade() -> None:
    op.drop_table("held_rows")
    op.drop_table("source_blobs")
    op.drop_index("ix_kept_sources_kept_at", table_name="kept_sources")
    op.drop_table("kept_sources")
    with op.batch_alter_table("batches") as table:
        for name in ("scope", "produced_by", "held", "kind"):
            table.drop_column(name)
