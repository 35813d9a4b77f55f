"""0002: a store for many hands (commit 7e0d82e).

Each dead letter gets a ``version`` and a re-drive lease (``claimed_by``, ``claim_until``);
an audit event may be about the store rather than one row (``dead_letter_id`` nullable), has
room for a longer actor, the row's version after the change and the payload an edit
replaced; events are indexed by time; purges and the team's shared settings get tables.

The code of 7e0d82e itself added the two tables and the index to an older store, stamped it
as current and left the columns out; such a store is recognised as 0001 (``runner``), so
what exists already is kept here and only what is missing is made.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def upgrade() -> None:
    # Added in place, never a copy of the table: dead_letters can hold a million rows, and
    # SQLite and PostgreSQL (11+) both add a column with a constant default without a rewrite.
    op.add_column(
        "dead_letters",
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
    )
    op.add_column("dead_letters", sa.Column("claimed_by", sa.String(length=100), nullable=True))
    op.add_column("dead_letters", sa.Column("claim_until", sa.DateTime(), nullable=True))

    # SQLite cannot alter a column: batch mode copies audit_events into a new table there.
    with op.batch_alter_table("audit_events") as batch:
        batch.alter_column("dead_letter_id", existing_type=_ID, nullable=True)
        batch.alter_column(
            "actor",
            existing_type=sa.String(length=100),
            type_=sa.String(length=200),
            existing_nullable=False,
        )
        batch.add_column(sa.Column("version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("replaced_payload", sa.LargeBinary(), nullable=True))
    indexes = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("audit_events")}
    if "ix_event_at" not in indexes:
        op.create_index("ix_event_at", "audit_events", ["at"], unique=False)

    tables = _tables()
    if "purges" not in tables:
        op.create_table(
            "purges",
            sa.Column("id", _ID, autoincrement=True, nullable=False),
            sa.Column("at", sa.DateTime(), nullable=False),
            sa.Column("actor", sa.String(length=200), nullable=False),
            sa.Column("statuses", sa.String(length=40), nullable=False),
            sa.Column("cutoff", sa.DateTime(), nullable=False),
            sa.Column("rows", sa.BigInteger(), nullable=False),
            sa.Column("by_day", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
    if "store_settings" not in tables:
        op.create_table(
            "store_settings",
            sa.Column("key", sa.String(length=60), nullable=False),
            sa.Column("value", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("key"),
        )


def downgrade() -> None:
    """Back to 0001; refused by the database while events about no row (purges) exist."""
    op.drop_table("store_settings")
    op.drop_table("purges")
    op.drop_index("ix_event_at", table_name="audit_events")
    with op.batch_alter_table("audit_events") as batch:
        batch.drop_column("replaced_payload")
        batch.drop_column("version")
        batch.alter_column(
            "actor",
            existing_type=sa.String(length=200),
            type_=sa.String(length=100),
            existing_nullable=False,
        )
        batch.alter_column("dead_letter_id", existing_type=_ID, nullable=False)
    with op.batch_alter_table("dead_letters") as batch:
        batch.drop_column("claim_until")
        batch.drop_column("claimed_by")
        batch.drop_column("version")
