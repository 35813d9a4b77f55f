"""The store watch: another process's commit is noticed (SQLite's data_version, PostgreSQL's
LISTEN/NOTIFY), quietly when nothing changed, once per burst, never for a rolled-back
transaction nor for another store in the same PostgreSQL database; a lost connection is a
one-line TriageError, not a hang."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.support import SEED_BATCH, cli
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, notify_change, open_workspace, watch_store
from triage_app.core.deadletters import edit_payload, list_dead_letters
from triage_app.core.errors import TriageError


@dataclass
class Store:
    ws: Workspace
    args: list[str]  # how the CLI names it


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        ws = open_workspace(tmp_path / "ws")
        args = ["--workspace", str(tmp_path / "ws")]
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        ws = open_workspace(warehouse_url=wh, dead_letter_url=dl)
        args = ["--warehouse", wh, "--dead-letter", dl]
    run_batch(ws, SEED_BATCH, "pesanan@1")  # four dead letters
    yield Store(ws, args)
    ws.close()


def test_another_process_commit_is_noticed_within_a_second(store: Store) -> None:
    watch = watch_store(store.ws.store)
    try:
        assert not watch.changed()  # nothing yet, and the look does not wait
        dl_id = list_dead_letters(store.ws)[0].id
        done = cli(*store.args, "park", str(dl_id), "--reason", "from another process")
        assert done.returncode == 0, done.stderr
        started = time.monotonic()
        assert watch.changed(timeout=2.0)
        assert time.monotonic() - started < 1.0  # committed before: seen at once
        assert not watch.changed()  # once per change, not forever
    finally:
        watch.close()


def test_a_burst_is_one_change_and_seen_forgets_it(store: Store) -> None:
    watch = watch_store(store.ws.store)
    try:
        ids = [v.id for v in list_dead_letters(store.ws)]
        for i, dl_id in enumerate(ids[:3]):  # three commits on this process's own engine
            edit_payload(store.ws, dl_id, f'{{"pesanan_id": {i}}}')
        assert watch.changed(timeout=2.0)
        assert not watch.changed(timeout=0.3)  # the burst was one piece of news
        edit_payload(store.ws, ids[3], '{"pesanan_id": 99}')
        time.sleep(0.2)  # PostgreSQL: the notification is on its way
        watch.seen()  # the caller read the store after this change
        assert not watch.changed(timeout=0.3)
    finally:
        watch.close()


def test_a_look_costs_microseconds(store: Store) -> None:
    watch = watch_store(store.ws.store)
    try:
        started = time.perf_counter()
        for _ in range(200):
            watch.changed()
        per_look = (time.perf_counter() - started) / 200
        assert per_look < 0.002, f"{per_look * 1e6:.0f} µs a look"  # SQLite ~3 µs, PG ~40 µs
    finally:
        watch.close()


def test_postgres_rollback_and_other_schemas_say_nothing(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        watch = watch_store(ws.store)
        try:
            # A transaction that notifies and then rolls back: nothing is delivered.
            with ws.store.connect() as conn:
                notify_change(conn)
                conn.rollback()
            # The warehouse is another schema in the same database: its notices are not
            # about this store.
            with ws.warehouse.begin() as conn:
                notify_change(conn)
            assert not watch.changed(timeout=0.5)
            with ws.store.begin() as conn:
                notify_change(conn)
            assert watch.changed(timeout=2.0)
        finally:
            watch.close()


def test_postgres_lost_connection_is_one_line(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        watch = watch_store(ws.store)
        pid = watch._conn.info.backend_pid  # type: ignore[attr-defined]
        with ws.store.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        with pytest.raises(TriageError, match="lost the connection that watches the store"):
            for _ in range(50):  # the loss shows at the next look that reads the socket
                watch.changed(timeout=0.1)
        watch.close()


def test_sqlite_notify_is_nothing_and_memory_store_never_changes(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws, ws.store.begin() as conn:
        notify_change(conn)  # no such thing on SQLite: a no-op, not an error
    with open_workspace(
        warehouse_url="sqlite://", dead_letter_url="sqlite://"
    ) as ws:  # nobody else can see an in-memory store
        watch = watch_store(ws.store)
        assert not watch.changed(timeout=0.05)
        watch.seen()
        watch.close()


def test_postgres_watch_can_ignore_its_own_process(pg_urls: tuple[str, str]) -> None:
    """A window reads its own changes itself: with own_changes=False their notices, which
    may arrive late, do not count; another process's still do."""
    wh, dl = pg_urls
    with open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws:
        run_batch(ws, SEED_BATCH, "pesanan@1")
        watch = watch_store(ws.store, own_changes=False)
        try:
            dl_id = list_dead_letters(ws)[0].id
            edit_payload(ws, dl_id, '{"pesanan_id": 1}')
            assert not watch.changed(timeout=0.5)
            done = cli("--warehouse", wh, "--dead-letter", dl, "park", str(dl_id))
            assert done.returncode == 0, done.stderr
            assert watch.changed(timeout=2.0)
        finally:
            watch.close()
