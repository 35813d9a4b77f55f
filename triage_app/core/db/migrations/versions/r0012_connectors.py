"""0012: dead letters the desk did not make (issue 26).

- ``connectors``: a dead-letter queue (RabbitMQ) or a pipeline's own dead-letter table
  that the desk imports from and re-drives to. Its address holds no password.
- ``dead_letter_origins``: an imported dead letter's connector, its identity there (unique
  per connector: a replayed import never doubles a row), where it was going and the
  evidence its source kept beside it. A retention purge empties ``dead_letter_id`` and
  keeps the identity, so an import never brings back a purged row.
- ``batches.connector_id``: an import run is a batch of kind ``import``, of one connector.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from triage_app.core.db.instants import INSTANT

revision = "0012"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "connectors",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("address", sa.Text(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("created_at", INSTANT, nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "dead_letter_origins",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("dead_letter_id", _ID, nullable=True),
        sa.Column("connector_id", _ID, nullable=False),
        sa.Column("identity", sa.String(200), nullable=False),
        sa.Column("destination", sa.Text(), nullable=True),
        sa.Column("evidence", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["dead_letter_id"], ["dead_letters.id"]),
        sa.ForeignKeyConstraint(["connector_id"], ["connectors.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("dead_letter_id"),
        sa.UniqueConstraint("connector_id", "identity", name="uq_origin_identity"),
    )
    with op.batch_alter_table("batches") as table:
        table.add_column(sa.Column("connector_id", _ID, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("batches") as table:
        table.drop_column("connector_id")
    op.drop_table("dead_letter_origins")
    op.drop_table("connectors")
