"""0006: a purge keeps its books per batch (issue 21).

``purges.by_batch`` counts the dead letters a purge deleted per batch, per chunk of its
ledger and per status (resolved, discarded), so that ``reconcile`` still accounts for every
line of a batch whose closed rows were purged. A column with a constant default: added in
place on both stores, no copy of the table. Purges from before have ``{}``: what they took
was not recorded per batch, and ``reconcile`` says so when it misses rows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A store that 7e0d82e half-upgraded may have had ``purges`` made from newer models
    # (tests/core/db/test_schema.py builds one so): what exists already is kept.
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("purges")}
    if "by_batch" not in columns:
        op.add_column(
            "purges", sa.Column("by_batch", sa.Text(), server_default="{}", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("purges") as batch:
        batch.drop_column("by_batch")
