"""0007: set-wise records and a summary of the dead letters (issue 23).

- ``batches.actor``: who ran a batch. The batch is the set record of its quarantine, so a
  row it quarantines gets no event of its own; batches from before take the actor of their
  rows' ``quarantined`` events, which stay as they were. The store setting
  ``set_records_from`` names the first id a batch may stand for: rows below it have theirs.
- ``redrive_runs`` and ``resolutions``: a re-drive is one record, and each row it resolved
  one narrow line (run, row, version) instead of an event.
- ``dead_letter_counts``: the dead letters counted by cell, filled here from the rows.
- Three indexes of ``dead_letters`` that no query needs any more, each a write per row (a
  bad day of 200,000 rows: some 10 MB each): ``ix_dl_cube`` and
  ``ix_dl_class_first_failed`` counted for Trends, which reads ``dead_letter_counts`` now;
  ``ix_dl_class_signature_id`` served nothing ``ix_dl_class`` (a class in id order) and
  ``ix_dl_signature`` (a group's rows, in id order) do not serve better.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# Name -> columns, for the downgrade. Every store of 0006 has them (0004 made them last).
_DROPPED_INDEXES = {
    "ix_dl_class_signature_id": ["error_class", "signature_id", "id"],
    "ix_dl_cube": ["error_class", "signature_id", "status", "attempts", "first_failed_at"],
    "ix_dl_class_first_failed": ["error_class", "first_failed_at"],
}


def upgrade() -> None:
    op.add_column("batches", sa.Column("actor", sa.String(200), nullable=True))
    # The actor of each batch's first quarantined event: who ran it.
    op.execute(
        "UPDATE batches SET actor = (SELECT e.actor FROM audit_events e "
        "JOIN dead_letters d ON d.id = e.dead_letter_id "
        "WHERE d.batch_id = batches.batch_id AND e.action = 'quarantined' "
        "ORDER BY e.id LIMIT 1)"
    )
    # Every row so far has its quarantined event stored: the trail synthesizes events only
    # from this id on (deadletters/expanded_events.py), so that it never probes old rows.
    op.execute(
        "INSERT INTO store_settings (key, value) "
        "SELECT 'set_records_from', CAST(coalesce(max(id), 0) + 1 AS TEXT) FROM dead_letters"
    )
    op.create_table(
        "redrive_runs",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("transform", sa.String(100), nullable=False),
        sa.Column("given", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "resolutions",
        sa.Column("dead_letter_id", _ID, nullable=False),
        sa.Column("run_id", _ID, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["dead_letter_id"], ["dead_letters.id"]),
        sa.ForeignKeyConstraint(["run_id"], ["redrive_runs.id"]),
        sa.PrimaryKeyConstraint("dead_letter_id"),
    )
    op.create_table(
        "dead_letter_counts",
        sa.Column("error_class", sa.String(10), nullable=False),
        sa.Column("signature_id", _ID, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("batch_id", sa.String(32), nullable=False),
        sa.Column("transform", sa.String(100), nullable=False),
        sa.Column("n", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "error_class", "signature_id", "status", "attempts", "day", "batch_id", "transform"
        ),
    )
    from triage_app.core.db import counts

    counts.rebuild(op.get_bind())
    for name in _DROPPED_INDEXES:
        op.drop_index(name, table_name="dead_letters")


def downgrade() -> None:
    op.execute("DELETE FROM store_settings WHERE key = 'set_records_from'")
    op.drop_table("dead_letter_counts")
    op.drop_table("resolutions")
    op.drop_table("redrive_runs")
    with op.batch_alter_table("batches") as batch:
        batch.drop_column("actor")
    for name, columns in _DROPPED_INDEXES.items():
        op.create_index(name, "dead_letters", columns, unique=False)
