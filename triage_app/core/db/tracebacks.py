"""Tracebacks, each text stored once: a dead letter points at its one (``traceback_id``).

A release with a bug fails every row of a batch at the same lines; a copy per row made the
traceback most of the store's size on such a day.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from sqlalchemy import Connection, select

from triage_app.core.db.models import Traceback


def traceback_digest(text: str) -> str:
    """The key a traceback is kept under; the migration to 0003 uses the same."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def keep_tracebacks(conn: Connection, texts: Iterable[str | None]) -> dict[str, int]:
    """The id of each text, stored if new, in the caller's transaction. Two statements
    for any number of rows: the distinct texts are few."""
    by_digest = {traceback_digest(t): t for t in set(texts) if t}
    if not by_digest:
        return {}
    rows = [{"digest": d, "text": t} for d, t in by_digest.items()]
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        conn.execute(pg_insert(Traceback).on_conflict_do_nothing(index_elements=["digest"]), rows)
    else:
        from sqlalchemy.dialects.sqlite import insert as lite_insert

        conn.execute(lite_insert(Traceback).on_conflict_do_nothing(index_elements=["digest"]), rows)
    found = conn.execute(
        select(Traceback.digest, Traceback.id).where(Traceback.digest.in_(list(by_digest)))
    )
    return {by_digest[d]: i for d, i in found}
