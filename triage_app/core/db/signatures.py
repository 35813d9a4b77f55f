"""Error signatures, each text stored once: a dead letter points at its one
(``signature_id``).

A release with a bug fails every row of a batch with one signature; a copy of its text in
each row and in four indexes made it a third of the store on such a day.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Insert, select

from triage_app.core.db.models import Signature


def keep_signatures(conn: Connection, texts: Iterable[str]) -> dict[str, int]:
    """The id of each text, stored if new, in the caller's transaction. Two or three
    statements per 500 distinct texts: the distinct signatures of a chunk are few."""
    wanted = sorted(set(texts))
    found: dict[str, int] = {}
    for start in range(0, len(wanted), _PER_STATEMENT):
        part = wanted[start : start + _PER_STATEMENT]
        found.update(_ids_of(conn, part))
        missing = [{"text": t} for t in part if t not in found]
        if missing:
            # Another process may add the same text meanwhile: skipped here, then read back.
            conn.execute(_insert_new(conn.dialect.name), missing)
            found.update(_ids_of(conn, [m["text"] for m in missing]))
    return found


_PER_STATEMENT = 500  # well under any driver's limit on bound parameters


def _ids_of(conn: Connection, texts: list[str]) -> dict[str, int]:
    rows = conn.execute(select(Signature.text, Signature.id).where(Signature.text.in_(texts)))
    return {t: i for t, i in rows}


def _insert_new(dialect: str) -> Insert:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(Signature).on_conflict_do_nothing(index_elements=["text"])
    from sqlalchemy.dialects.sqlite import insert as lite_insert

    return lite_insert(Signature).on_conflict_do_nothing(index_elements=["text"])
