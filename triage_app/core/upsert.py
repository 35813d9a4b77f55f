"""One chunk of rows into a warehouse table through the driver's own executemany.

Kept free of SQLAlchemy so that the writer process starts in milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from triage_app.core.crashpoints import crash_point
from triage_app.core.errors import error_message
from triage_app.core.retry import is_transient


@dataclass
class UpsertResult:
    changed: int  # rows inserted or replaced
    failed: list[tuple[int, str]]  # (index into the rows, "Type: message") the sink refused


def upsert_rows(
    conn: Any, sql: str, rows: Sequence[Sequence[Any]], is_sqlite: bool
) -> UpsertResult:
    """The driver's executemany in one transaction; if the sink refuses the chunk, each row
    again in a savepoint, so that one bad row (an integer too large for its column) fails
    alone and the rest of its chunk still loads."""
    cur = conn.cursor()
    try:
        cur.executemany(sql, rows)
        changed = cur.rowcount
        crash_point("mid-upsert")
        conn.commit()
        return UpsertResult(max(changed, 0), [])
    except Exception as exc:
        conn.rollback()
        if is_transient(exc):
            raise
    if is_sqlite:
        cur.execute("BEGIN")
    changed = 0
    failed: list[tuple[int, str]] = []
    for i, row in enumerate(rows):
        cur.execute("SAVEPOINT one_row")
        try:
            cur.execute(sql, row)
            changed += max(cur.rowcount, 0)
            cur.execute("RELEASE SAVEPOINT one_row")
        except Exception as exc:
            if is_transient(exc):
                conn.rollback()
                raise
            cur.execute("ROLLBACK TO SAVEPOINT one_row")
            cur.execute("RELEASE SAVEPOINT one_row")
            failed.append((i, error_message(exc)))
    conn.commit()
    return UpsertResult(changed, failed)
