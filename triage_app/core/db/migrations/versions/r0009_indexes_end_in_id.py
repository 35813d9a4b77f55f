"""0009: on PostgreSQL, four indexes of ``dead_letters`` end in the id (issue 23).

A page sorted by class, attempts or transform is sorted by that column and then the id, and
a page pinned to one signature (or class, attempts, transform) is sorted by the id. SQLite's
indexes end in the rowid, which is the id, and gave those pages without a sort; PostgreSQL's
end in a heap position, so at ten million rows the same pages took 1.3-3.2 s (a sort of
millions, or the primary key walked until 200 rows matched). Each index is made again as
``(column, id)`` there. SQLite keeps its indexes as they are (``db/index_shapes.py``).
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None

_INDEXES = {
    "ix_dl_class": "error_class",
    "ix_dl_signature": "signature_id",
    "ix_dl_attempts": "attempts",
    "ix_dl_transform": "transform",
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for name, column in _INDEXES.items():
        op.drop_index(name, table_name="dead_letters")
        op.create_index(name, "dead_letters", [column, "id"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for name, column in _INDEXES.items():
        op.drop_index(name, table_name="dead_letters")
        op.create_index(name, "dead_letters", [column])
