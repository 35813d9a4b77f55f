"""0003: a lean store, for bad days (issue 11).

A release with a bug quarantines every row of a batch; the store then held each payload
twice, a traceback per row and seventeen indexes, about 1.8 KB a dead letter. Here:

- the working ``payload`` is NULL while it equals the original (it is read as
  ``coalesce(payload, original_payload)``), and the ``error`` while it equals the
  signature (a code bug's message, the same on every row);
- tracebacks move to a table of their own, each text once, and a dead letter points at
  its one (``traceback_id``);
- three of the five indexes that held the status are gone (settling a re-drive moved
  five index entries a row); ``tests/core/db/test_query_plans.py`` runs every query the
  table, the filters, Trends and the CLI make, and holds each to an index.

SQLite cannot make a column nullable or drop one in place: batch mode copies the table
once. The caller made a backup first (``schema.py``).
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# Indexes of 0002 that are gone: only two indexes hold the status, so that settling a
# re-drive moves two index entries a row, not five. A filter on class or transform walks
# that column's own index in id order instead; one on a batch walks ix_dl_batch_id.
DROPPED_INDEXES = {
    "ix_dl_status_class_id": ["status", "error_class", "id"],
    "ix_dl_status_transform_id": ["status", "transform", "id"],
    "ix_dl_status_batch_id": ["status", "batch_id", "id"],
}


def digest(text: str) -> str:
    """The key a traceback is kept under (``tracebacks.digest``)."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def upgrade() -> None:
    bind = op.get_bind()
    op.create_table(
        "tracebacks",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("digest", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )
    tracebacks = sa.table("tracebacks", sa.column("id"), sa.column("digest"), sa.column("text"))
    texts = [
        r[0]
        for r in bind.execute(
            sa.text("SELECT DISTINCT traceback FROM dead_letters WHERE traceback IS NOT NULL")
        )
    ]
    if texts:
        op.bulk_insert(tracebacks, [{"digest": digest(t), "text": t} for t in texts])

    for name in DROPPED_INDEXES:
        op.drop_index(name, table_name="dead_letters")
    op.create_index("ix_dl_batch_id", "dead_letters", ["batch_id", "id"], unique=False)
    # Added in place, then filled by one statement: each text matched to its one copy.
    op.add_column("dead_letters", sa.Column("traceback_id", _ID, nullable=True))
    bind.execute(
        sa.text(
            "UPDATE dead_letters SET traceback_id = "
            "(SELECT t.id FROM tracebacks t WHERE t.text = dead_letters.traceback) "
            "WHERE traceback IS NOT NULL"
        )
    )
    # One copy of the table on SQLite for all the rest.
    with op.batch_alter_table("dead_letters") as batch:
        batch.alter_column("payload", existing_type=sa.LargeBinary(), nullable=True)
        batch.alter_column("error", existing_type=sa.Text(), nullable=True)
        batch.create_foreign_key(
            "fk_dead_letters_traceback_id", "tracebacks", ["traceback_id"], ["id"]
        )
        batch.drop_column("traceback")
    bind.execute(sa.text("UPDATE dead_letters SET payload = NULL WHERE payload = original_payload"))
    bind.execute(sa.text("UPDATE dead_letters SET error = NULL WHERE error = signature"))


def downgrade() -> None:
    """Back to 0002: every row gets its traceback text and payload copy again."""
    bind = op.get_bind()
    with op.batch_alter_table("dead_letters") as batch:
        batch.add_column(sa.Column("traceback", sa.Text(), nullable=True))
    bind.execute(
        sa.text(
            "UPDATE dead_letters SET traceback = "
            "(SELECT t.text FROM tracebacks t WHERE t.id = dead_letters.traceback_id) "
            "WHERE traceback_id IS NOT NULL"
        )
    )
    bind.execute(
        sa.text("UPDATE dead_letters SET payload = original_payload WHERE payload IS NULL")
    )
    bind.execute(sa.text("UPDATE dead_letters SET error = signature WHERE error IS NULL"))
    with op.batch_alter_table("dead_letters") as batch:
        batch.drop_constraint("fk_dead_letters_traceback_id", type_="foreignkey")
        batch.drop_column("traceback_id")
        batch.alter_column("payload", existing_type=sa.LargeBinary(), nullable=False)
        batch.alter_column("error", existing_type=sa.Text(), nullable=False)
    op.drop_table("tracebacks")
    op.drop_index("ix_dl_batch_id", table_name="dead_letters")
    for name, columns in DROPPED_INDEXES.items():
        op.create_index(name, "dead_letters", columns, unique=False)
