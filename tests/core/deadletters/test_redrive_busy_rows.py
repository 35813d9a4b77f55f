"""A row another transaction holds locked for an instant (an edit being written) when a
re-drive claims it, on PostgreSQL: the claim passes it by (SKIP LOCKED), and the re-drive
asks for it again after the others instead of reporting it taken by a re-drive that does
not exist. Held for longer than the re-drive waits, it is left, and named as locked."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from tests.support import SEED_BATCH
from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import redrive
from triage_app.core.vocabulary import RedriveOutcome

NULL_DISKON = 4  # the seed's row pesanan@2 loads


def _lock_row(dl_url: str, dl_id: int, hold: float, locked: threading.Event) -> None:
    """Another steward's transaction: the row locked for ``hold`` seconds."""
    url = make_url(dl_url)
    schema = url.query["options"].split("=", 1)[1]
    with psycopg.connect(
        host=url.host, port=url.port or 5432, user=url.username, dbname=url.database
    ) as conn:
        conn.execute(f"SET search_path TO {schema}")
        conn.execute("SELECT id FROM dead_letters WHERE id = %s FOR UPDATE", (dl_id,))
        locked.set()
        threading.Event().wait(hold)
        conn.rollback()


def _redrive_while_locked(pg_urls: tuple[str, str], hold: float):  # type: ignore[no-untyped-def]
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        run_batch(ws, SEED_BATCH, "pesanan@1")
        locked = threading.Event()
        other = threading.Thread(target=_lock_row, args=(dl, NULL_DISKON, hold, locked))
        other.start()
        assert locked.wait(10)
        try:
            s = redrive(ws, "pesanan@2", ids=[NULL_DISKON], keep=None)
        finally:
            other.join()
        with ws.store.connect() as conn:
            status = conn.execute(
                text("SELECT status FROM dead_letters WHERE id = :i"), {"i": NULL_DISKON}
            ).scalar_one()
    return s, status


def test_a_row_locked_for_an_instant_is_redriven_not_reported_taken(pg_urls, tmp_path: Path):
    s, status = _redrive_while_locked(pg_urls, hold=0.2)
    assert status == "resolved"
    assert s.succeeded == 1 and s.taken == 0


def test_a_row_locked_longer_than_the_redrive_waits_is_named_as_locked(pg_urls, tmp_path: Path):
    s, status = _redrive_while_locked(pg_urls, hold=2.5)
    assert status == "open"
    (r,) = s.results
    assert r.outcome == RedriveOutcome.TAKEN and r.error == "locked by another change"
    assert s.not_attempted == {"locked by another change": (1, (NULL_DISKON,))}
