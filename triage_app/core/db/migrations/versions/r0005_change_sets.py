"""0005: change-sets and error groups' owners (issue 13).

A change-set keeps the fix (a JSON Patch), who applied it and when, and for each row it
changed the payload it replaced and the version it left, so that it can be reverted as a
whole. ``error_groups`` keeps who owns the dead letters of a signature, their tags and a
note. New tables only: nothing of an older store changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "change_sets",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("patch", sa.Text(), nullable=False),
        sa.Column("rows", sa.BigInteger(), nullable=False),
        sa.Column("reverted_at", sa.DateTime(), nullable=True),
        sa.Column("reverted_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "change_set_rows",
        sa.Column("change_set_id", _ID, nullable=False),
        sa.Column("dead_letter_id", _ID, nullable=False),
        sa.Column("payload_before", sa.LargeBinary(), nullable=True),
        sa.Column("kind_before", sa.String(10), nullable=False),
        sa.Column("version_after", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["change_set_id"], ["change_sets.id"]),
        sa.ForeignKeyConstraint(["dead_letter_id"], ["dead_letters.id"]),
        sa.PrimaryKeyConstraint("change_set_id", "dead_letter_id"),
    )
    # A purge deletes dead letters: finding the lines that name them must not read all.
    op.create_index("ix_change_set_rows_dead_letter", "change_set_rows", ["dead_letter_id"])

    op.create_table(
        "error_groups",
        sa.Column("signature_id", _ID, nullable=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("tags", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.Column("changed_by", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(["signature_id"], ["signatures.id"]),
        sa.PrimaryKeyConstraint("signature_id"),
    )
    op.create_index("ix_error_groups_owner", "error_groups", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_error_groups_owner", table_name="error_groups")
    op.drop_table("error_groups")
    op.drop_index("ix_change_set_rows_dead_letter", table_name="change_set_rows")
    op.drop_table("change_set_rows")
    op.drop_table("change_sets")
