"""0013: a team's desk (issue 27): retries that wait, masked personal data, roles.

- ``dead_letters.retry_step`` and ``next_attempt_at``: where a transient dead letter stands
  on its retry ladder, and when it is due next (NULL: not waiting on the ladder). A
  partial index holds only the waiting rows, so a bad day of data failures costs it
  nothing and a retry pass finds the due rows in one seek.
- ``dead_letters.masked_original`` and ``masked_payload``: the payloads with the fields
  their transform declares personal masked (NULL: nothing to mask). A viewer on a team
  store reads these through the ``triage_masked`` views, never the raw bytes.
- ``change_sets.db_user``: the database user who applied it (PostgreSQL's
  ``session_user``; the roles' trigger sets it, whatever the client sent), so that the
  database itself can tell a steward's own change-set from another's (only a lead reverts
  another's).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from triage_app.core.db.instants import INSTANT

revision = "0013"
down_revision: str | None = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dead_letters") as table:
        table.add_column(sa.Column("retry_step", sa.Integer(), nullable=False, server_default="0"))
        table.add_column(sa.Column("next_attempt_at", INSTANT, nullable=True))
        table.add_column(sa.Column("masked_original", sa.LargeBinary(), nullable=True))
        table.add_column(sa.Column("masked_payload", sa.LargeBinary(), nullable=True))
    op.create_index(
        "ix_dl_next_attempt",
        "dead_letters",
        ["next_attempt_at"],
        sqlite_where=sa.text("next_attempt_at IS NOT NULL"),
        postgresql_where=sa.text("next_attempt_at IS NOT NULL"),
    )
    with op.batch_alter_table("change_sets") as table:
        table.add_column(sa.Column("db_user", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("change_sets") as table:
        table.drop_column("db_user")
    op.drop_index("ix_dl_next_attempt", table_name="dead_letters")
    with op.batch_alter_table("dead_letters") as table:
        table.drop_column("masked_payload")
        table.drop_column("masked_original")
        table.drop_column("next_attempt_at")
        table.drop_column("retry_step")
