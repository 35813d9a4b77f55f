"""0010: a change-set and its revert are set records (issue 23).

A fix applied to many rows wrote an ``edited`` event per row, and its revert another, each
keeping the payload it replaced; ``change_set_rows`` already kept the one from before. Now
the change-set is the record of its fix (who, when, what) and each of its lines a row's
edit; a revert run is one ``change_set_reverts`` row, and the lines it restored name it
(``reverted_in``) and keep the payload it replaced (``payload_reverted``). The trail
expands them (deadletters/expanded_events.py).

Change-sets from before keep their stored events: the store setting
``change_set_records_from`` names the first change-set whose lines stand for events, so
none is told twice. ``change_sets.at`` and the revert runs' ``at`` are indexed for the
trail's walk, newest first.

On PostgreSQL ``ix_dl_first_failed`` ends in the id too, as 0009 made four others (SQLite's
ends in the rowid already): a page of one day's first failures bounds its walk of the
primary key by the day's first and last id, read from that index alone
(``deadletters/paging.py``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.execute(
        "INSERT INTO store_settings (key, value) SELECT 'change_set_records_from', "
        "CAST(coalesce(max(id), 0) + 1 AS TEXT) FROM change_sets"
    )
    op.create_index("ix_change_sets_at", "change_sets", ["at"])
    op.create_table(
        "change_set_reverts",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("change_set_id", _ID, nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(["change_set_id"], ["change_sets.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_change_set_reverts_at", "change_set_reverts", ["at"])
    with op.batch_alter_table("change_set_rows") as table:
        table.add_column(sa.Column("reverted_in", _ID, nullable=True))
        table.add_column(sa.Column("payload_reverted", sa.LargeBinary(), nullable=True))
        table.create_foreign_key(
            "fk_change_set_rows_reverted_in", "change_set_reverts", ["reverted_in"], ["id"]
        )
    op.create_index(
        "ix_change_set_rows_reverted", "change_set_rows", ["reverted_in", "dead_letter_id"]
    )
    if op.get_bind().dialect.name != "sqlite":
        op.drop_index("ix_dl_first_failed", table_name="dead_letters")
        op.create_index("ix_dl_first_failed", "dead_letters", ["first_failed_at", "id"])


# The events the lines stand for, stored again before the columns that make them go.
_STORED_AGAIN = """
INSERT INTO audit_events (dead_letter_id, at, actor, action, detail, version, replaced_payload)
SELECT r.dead_letter_id, {at}, {actor}, 'edited', {detail} || c.description, {version}, {payload}
FROM change_set_rows r
JOIN change_sets c ON c.id = r.change_set_id
JOIN dead_letters d ON d.id = r.dead_letter_id
{join}
WHERE {where}
"""
_FIX = {
    "at": "c.at",
    "actor": "c.actor",
    "detail": "'change-set ' || c.id || ': '",
    "version": "r.version_after",
    "payload": "coalesce(r.payload_before, d.original_payload)",
    "join": "",
    "where": "c.id >= (SELECT CAST(value AS INTEGER) FROM store_settings "
    "WHERE key = 'change_set_records_from')",
}
_REVERT = {
    "at": "v.at",
    "actor": "v.actor",
    "detail": "'revert of change-set ' || c.id || ': '",
    "version": "r.version_after + 1",
    "payload": "r.payload_reverted",
    "join": "JOIN change_set_reverts v ON v.id = r.reverted_in",
    "where": "r.reverted_in IS NOT NULL",
}


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_index("ix_dl_first_failed", table_name="dead_letters")
        op.create_index("ix_dl_first_failed", "dead_letters", ["first_failed_at"])
    op.execute(_STORED_AGAIN.format(**_FIX))
    op.execute(_STORED_AGAIN.format(**_REVERT))
    op.drop_index("ix_change_set_rows_reverted", table_name="change_set_rows")
    with op.batch_alter_table("change_set_rows") as table:
        table.drop_constraint("fk_change_set_rows_reverted_in", type_="foreignkey")
        table.drop_column("payload_reverted")
        table.drop_column("reverted_in")
    op.drop_index("ix_change_set_reverts_at", table_name="change_set_reverts")
    op.drop_table("change_set_reverts")
    op.drop_index("ix_change_sets_at", table_name="change_sets")
    op.execute("DELETE FROM store_settings WHERE key = 'change_set_records_from'")
