"""0004: each error signature stored once (issue 11).

On a bad day every dead letter of a batch carries the same signature; its text in every
row and in the four indexes that group and filter by it was a third of the store. The
texts move to a ``signatures`` table and a dead letter points at its one
(``signature_id``); the four indexes hold that id instead.

SQLite cannot drop a column in place: batch mode copies the table once. The caller made
a backup first (``schema.py``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# The indexes that held the text, and what each holds from 0004 on.
REINDEXED = {
    "ix_dl_class_signature_id": ["error_class", "{sig}", "id"],
    "ix_dl_signature": ["{sig}"],
    "ix_dl_cube": ["error_class", "{sig}", "status", "attempts", "first_failed_at"],
    "ix_dl_class_sig_last": ["error_class", "{sig}", "last_failed_at"],
}


def _columns(name: str, sig: str) -> list[str]:
    return [c.format(sig=sig) for c in REINDEXED[name]]


def upgrade() -> None:
    bind = op.get_bind()
    op.create_table(
        "signatures",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("text"),
    )
    bind.execute(
        sa.text(
            "INSERT INTO signatures (text) "
            "SELECT DISTINCT signature FROM dead_letters ORDER BY signature"
        )
    )
    for name in REINDEXED:
        op.drop_index(name, table_name="dead_letters")
    op.add_column("dead_letters", sa.Column("signature_id", _ID, nullable=True))
    bind.execute(
        sa.text(
            "UPDATE dead_letters SET signature_id = "
            "(SELECT s.id FROM signatures s WHERE s.text = dead_letters.signature)"
        )
    )
    with op.batch_alter_table("dead_letters") as batch:
        batch.alter_column("signature_id", existing_type=_ID, nullable=False)
        batch.create_foreign_key(
            "fk_dead_letters_signature_id", "signatures", ["signature_id"], ["id"]
        )
        batch.drop_column("signature")
    for name in REINDEXED:
        op.create_index(name, "dead_letters", _columns(name, "signature_id"), unique=False)


def downgrade() -> None:
    """Back to 0003: every row gets its signature's text again."""
    bind = op.get_bind()
    for name in REINDEXED:
        op.drop_index(name, table_name="dead_letters")
    op.add_column("dead_letters", sa.Column("signature", sa.Text(), nullable=True))
    bind.execute(
        sa.text(
            "UPDATE dead_letters SET signature = "
            "(SELECT s.text FROM signatures s WHERE s.id = dead_letters.signature_id)"
        )
    )
    with op.batch_alter_table("dead_letters") as batch:
        batch.alter_column("signature", existing_type=sa.Text(), nullable=False)
        batch.drop_constraint("fk_dead_letters_signature_id", type_="foreignkey")
        batch.drop_column("signature_id")
    op.drop_table("signatures")
    for name in REINDEXED:
        op.create_index(name, "dead_letters", _columns(name, "signature"), unique=False)
