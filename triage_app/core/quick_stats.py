"""``stats`` without loading the engine, when the store has not changed since last time.

The dead-letter store keeps its aggregates with a version stamp (``trends/stats_cache.py``):
the newest audit event and dead letter and the batches' totals. A SQLite store can be asked
for that stamp and the cached answer with the standard library alone, in milliseconds,
where importing the engine (SQLAlchemy) costs a third of a second. Anything unexpected (no
cache yet, another version, another database) answers None, and the engine does the work.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from triage_app.core.clock import today
from triage_app.core.places import (
    DEAD_LETTER_URL_ENV,
    STORE_FILE,
    STORE_SCHEMA_REVISION,
    workspace_folder,
)

# Both paths compute the stamp from these statements, so they agree on what "unchanged" is.
# A batch that quarantined nothing moves the batches' totals alone: the engine then
# re-stamps its cached entry instead of counting again (trends/stats_cache.py).
BATCHES_SQL = (
    "SELECT count(*), sum(rows), sum(quarantined), max(started_at), max(finished_at), "
    "sum(held) FROM batches"
)
VERSION_SQL = (
    "SELECT max(id) FROM audit_events",
    "SELECT max(id) FROM dead_letters",
    # A re-drive's resolutions write no event (schema 0007: its run is the set record, one
    # row for many settles); each sets resolved_at, newest last (ix_dl_resolved: one seek).
    "SELECT max(resolved_at) FROM dead_letters",
    BATCHES_SQL,
    # A purge deletes rows and events, and SQLite may then hand out the ids it freed again:
    # the newest ids alone could look unchanged after one. Its own record always moves.
    "SELECT count(*), max(id), sum(rows) FROM purges",
)
CACHE_KEY = "all"


def version_from(rows: Sequence[Sequence[Any]], day: dt.date) -> str:
    # The day too: nothing cached is relative to today, but a day's cache is cheap insurance.
    return "|".join("|".join(map(str, r)) for r in rows) + f"|{day}"


def only_batches_moved(held: str, rows: Sequence[Sequence[Any]], day: dt.date) -> bool:
    """Whether the stamp ``held`` differs from the one of ``rows`` (``VERSION_SQL``'s
    answers) on ``day`` in the batches' totals alone: no event, no dead letter and no purge
    since, and the same day. What a batch that quarantined nothing leaves behind."""
    at = VERSION_SQL.index(BATCHES_SQL)
    start = sum(len(r) for r in rows[:at])
    end = start + len(rows[at])
    old, new = held.split("|"), version_from(rows, day).split("|")
    return (
        len(old) == len(new)
        and old[:start] == new[:start]
        and old[end:] == new[end:]
        and old[start:end] != new[start:end]
    )


def store_path(
    workspace: str | None, dead_letter_url: str | None, env: Mapping[str, str] | None = None
) -> Path | None:
    """The store's SQLite file as the CLI would resolve it; None for any other database."""
    env = os.environ if env is None else env
    url = dead_letter_url or env.get(DEAD_LETTER_URL_ENV)
    if url is not None:
        prefix = "sqlite:///"
        return Path(url[len(prefix) :]) if url.startswith(prefix) and "?" not in url else None
    return workspace_folder(workspace, env) / STORE_FILE


def cached_answer(db: Path) -> bytes | None:
    """The cached ``stats`` JSON if the store is unchanged since it was computed."""
    if not db.is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error:
        return None
    try:
        # A store at another schema revision (older, or made by a newer release) is the
        # engine's to check and refuse: never answered from its cache.
        if conn.execute("PRAGMA user_version").fetchone()[0] != int(STORE_SCHEMA_REVISION):
            return None
        version = version_from([conn.execute(q).fetchone() for q in VERSION_SQL], today())
        hit = conn.execute(
            "SELECT payload FROM stats_cache WHERE key = ? AND version = ?", (CACHE_KEY, version)
        ).fetchone()
        return bytes(hit[0]) if hit else None
    except sqlite3.Error:
        return None
    finally:
        conn.close()
