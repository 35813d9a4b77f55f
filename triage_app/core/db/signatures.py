"""Error signatures, each text stored once: a dead letter points at its one
(``signature_id``).

A release with a bug fails every row of a batch with one signature; a copy of its text in
each row and in four indexes made it a third of the store on such a day.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Insert, select

from triage_app.core.db.models import Signature


def keep_signatures(conn: Connection, texts: Iterable[str]) -> dict[str, int]:
    """The id of each text, stored if new, in the caller's transaction. Two or three
    statements per 500 distinct texts: the distinct signatures of a chunk are few."""
    wanted = sorted(set(texts))
    found = signature_ids(conn, wanted)
    missing = [{"text": t} for t in wanted if t not in found]
    if missing:
        # Another process may add the same text meanwhile: skipped here, then read back.
        conn.execute(_insert_new(conn.dialect.name), missing)
        found.update(signature_ids(conn, [m["text"] for m in missing]))
    return found


def signature_ids(conn: Connection, texts: Iterable[str]) -> dict[str, int]:
    """The id of each text already stored (one statement per 500)."""
    return dict(_lookup(conn, Signature.text, Signature.id, sorted(set(texts))))


def signature_texts(conn: Connection, ids: Iterable[int]) -> dict[int, str]:
    """The text of each signature id (one statement per 500)."""
    return dict(_lookup(conn, Signature.id, Signature.text, sorted(set(ids))))


_PER_STATEMENT = 500  # well under any driver's limit on bound parameters


def _lookup(conn: Connection, key: Any, value: Any, keys: list[Any]) -> list[tuple[Any, Any]]:
    out: list[tuple[Any, Any]] = []
    for start in range(0, len(keys), _PER_STATEMENT):
        part = keys[start : start + _PER_STATEMENT]
        out.extend((k, v) for k, v in conn.execute(select(key, value).where(key.in_(part))))
    return out


def _insert_new(dialect: str) -> Insert:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(Signature).on_conflict_do_nothing(index_elements=["text"])
    from sqlalchemy.dialects.sqlite import insert as lite_insert

    return lite_insert(Signature).on_conflict_do_nothing(index_elements=["text"])
