"""0008: instants as integers on SQLite (issue 23).

SQLite has no time type, and SQLAlchemy's default kept each instant as 26 characters of ISO
text. Every instant of the store is now the microseconds since 1970 as an integer
(``db/instants.py``): on a bad day of 200,000 dead letters, two instants a row and three
indexes on them, that is 19 MB of a 107 MB store. The columns keep their declared type
(``DATETIME``), so only values change; PostgreSQL keeps ``timestamp`` and has nothing to do.

The text SQLAlchemy wrote is ``YYYY-MM-DD HH:MM:SS.ffffff`` (a hand-written one may lack the
fraction); each is rewritten in place, in one statement per column.
"""

from __future__ import annotations

from collections.abc import Callable

from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None

# Every instant column of schema 0007, by table.
INSTANTS = {
    "batches": ("started_at", "finished_at"),
    "batch_chunks": ("committed_at",),
    "dead_letters": ("first_failed_at", "last_failed_at", "resolved_at", "claim_until"),
    "audit_events": ("at",),
    "stats_cache": ("computed_at",),
    "redrive_runs": ("at",),
    "purges": ("at", "cutoff"),
    "change_sets": ("at", "reverted_at"),
    "error_groups": ("changed_at",),
}


def _micros(column: str) -> str:
    # strftime('%s') is the whole seconds; the digits after the point, padded on the right
    # to six, are the microseconds.
    return (
        f"CAST(strftime('%s', {column}) AS INTEGER) * 1000000 "
        f"+ CAST(substr(substr({column}, 21) || '000000', 1, 6) AS INTEGER)"
    )


def _text(column: str) -> str:
    return (
        f"strftime('%Y-%m-%d %H:%M:%S', {column} / 1000000, 'unixepoch') "
        f"|| '.' || substr('000000' || ({column} % 1000000), -6)"
    )


def _rewrite(value: Callable[[str], str], stored_as: str) -> None:
    """Every instant stored as ``stored_as`` rewritten as ``value`` says (SQLite only)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    for table, columns in INSTANTS.items():
        for c in columns:
            op.execute(f"UPDATE {table} SET {c} = {value(c)} WHERE typeof({c}) = '{stored_as}'")


def upgrade() -> None:
    _rewrite(_micros, "text")


def downgrade() -> None:
    _rewrite(_text, "integer")
