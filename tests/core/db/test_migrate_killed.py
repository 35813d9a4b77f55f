"""kill -9 during ``triage-app migrate`` (issue 21), on an SQLite workspace and a PostgreSQL
store: the upgrade runs in one transaction, so after the kill the store is at its old
revision, every row as it was; no file beside it looks like a copy of the store that is
only half of one; and the same command again finishes the upgrade with the data whole.

The store is the 0001 fixture (tests/fixtures/stores) grown to some 14,000 dead letters, so
that the copy an SQLite upgrade keeps takes several steps and the upgrade has rows to move.
The kills are at named points (``core/crashpoints.py``): mid copy, and after the first and
after the last revision applied (everything written, nothing committed).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, create_engine, insert, select, text

from tests.core.db.test_migrations import FIXTURES, meaning
from triage_app.core.db import HEAD_REVISION, make_engine
from triage_app.core.db.migrations import runner

OLD = "0001"
COPIES = 3_500  # the fixture's four dead letters, this many times over
LAST_STEP = len(runner.revisions()) - 1  # revisions applied from 0001 up to the head


def grow(store: Path) -> None:
    """The fixture store with its dead letters (and their events) copied ``COPIES`` times,
    each copy on new lines, through plain SQL on the old schema."""
    with sqlite3.connect(store) as c:
        cols = [r[1] for r in c.execute("PRAGMA table_info(dead_letters)") if r[1] != "id"]
        picked = ", ".join("line + ?" if col == "line" else col for col in cols)
        ev = [r[1] for r in c.execute("PRAGMA table_info(audit_events)") if r[1] != "id"]
        ev_picked = ", ".join("d.id" if col == "dead_letter_id" else f"e.{col}" for col in ev)
        (top,) = c.execute("SELECT max(line) FROM dead_letters").fetchone()
        originals = [r[0] for r in c.execute("SELECT id FROM dead_letters ORDER BY id")]
        for k in range(1, COPIES + 1):
            c.execute(
                f"INSERT INTO dead_letters ({', '.join(cols)}) SELECT {picked} FROM dead_letters"
                f" WHERE id IN ({', '.join(map(str, originals))})",
                (k * (top + 1),),
            )
        c.execute(
            f"INSERT INTO audit_events ({', '.join(ev)}) SELECT {ev_picked} FROM audit_events e"
            " JOIN dead_letters o ON o.id = e.dead_letter_id"
            " JOIN dead_letters d ON d.batch_id = o.batch_id AND d.line % ? = o.line"
            " AND d.id <> o.id",
            (top + 1,),
        )


def rows(store: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table but the version table, through a connection that reads
    the WAL a killed process left (and recovers from it) as any later opening would."""
    conn = sqlite3.connect(store)
    conn.row_factory = sqlite3.Row
    try:
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if r[0] != "alembic_version"
        ]
        return {
            t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in tables
        }
    finally:
        conn.close()


def revision(store: Path) -> tuple[int, list[str]]:
    with sqlite3.connect(store) as c:
        (number,) = c.execute("PRAGMA user_version").fetchone()
        names = {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
        found = (
            [r[0] for r in c.execute("SELECT version_num FROM alembic_version")]
            if "alembic_version" in names
            else []
        )
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return number, found


def migrate(
    *args: str, crash: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_CRASH_AT"}
    if crash:
        env["TRIAGE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *args, "--json", "migrate"],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def assert_whole(before: dict[str, list[dict[str, Any]]], after: dict[str, Any]) -> None:
    """Every row from before reads the same at the head (new columns and tables aside)."""
    old, new = meaning(before), meaning(after)
    for table, kept in old.items():
        assert len(new[table]) == len(kept), table
        for was, now in zip(kept, new[table], strict=True):
            assert {k: now[k] for k in was} == was


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("grown") / "dead_letter.db"
    shutil.copyfile(FIXTURES / f"store-{OLD}.db", store)
    grow(store)
    assert store.stat().st_size > 3 * 1024 * 1024  # more than three steps of the copy
    return store


@pytest.mark.parametrize(
    "point", ["migrate-mid-backup:2", "migrate-mid-upgrade:1", f"migrate-mid-upgrade:{LAST_STEP}"]
)
@pytest.mark.slow
def test_sqlite_migrate_killed_leaves_the_old_store_and_finishes_when_run_again(
    point: str, grown: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    store = folder / "dead_letter.db"
    shutil.copyfile(grown, store)
    sqlite3.connect(folder / "warehouse.db").close()
    stamp = revision(store)
    before = rows(store)

    killed = migrate("--workspace", str(folder), crash=point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert revision(store) == stamp, "the store is not at its old revision"
    assert rows(store) == before, "the store changed"
    copies = sorted(p.name for p in folder.glob("dead_letter.schema-*"))
    if point.startswith("migrate-mid-backup"):
        # The copy was cut off: it is there only as a partial file, never as a backup.
        assert copies and all(".partial" in name for name in copies), copies
    else:
        (copy,) = copies  # whole before the upgrade began
        assert rows(folder / copy) == before

    again = migrate("--workspace", str(folder))
    assert again.returncode == 0, again.stderr
    done = json.loads(again.stdout)
    assert (done["from"], done["to"]) == (OLD, HEAD_REVISION)
    assert revision(store) == (int(HEAD_REVISION), [HEAD_REVISION])
    assert_whole(before, rows(store))
    assert rows(Path(done["backup"])) == before
    assert not list(folder.glob("*.partial*")), "a partial copy was left"
    current = migrate("--workspace", str(folder))
    assert current.returncode == 0 and json.loads(current.stdout)["current"] is True


# -- PostgreSQL --------------------------------------------------------------------------------
def fill_postgresql(url: str, source: Path) -> None:
    """A PostgreSQL store at 0001 holding what the SQLite fixture holds, row for row."""
    engine = make_engine(url, "dead-letter store")
    lite = create_engine(f"sqlite:///{source}")
    try:
        with engine.begin() as conn:
            runner.upgrade(conn, OLD)
        theirs, ours = MetaData(), MetaData()
        theirs.reflect(lite)
        ours.reflect(engine)
        with lite.connect() as src, engine.begin() as dst:
            for table in ours.sorted_tables:
                if table.name == "alembic_version":
                    continue
                got = [dict(r._mapping) for r in src.execute(select(theirs.tables[table.name]))]
                if got:
                    dst.execute(insert(table), got)
    finally:
        engine.dispose()
        lite.dispose()


def pg_state(url: str) -> tuple[list[str], dict[str, Any]]:
    engine = make_engine(url, "dead-letter store")
    try:
        with engine.connect() as conn:
            version = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
            tables = sorted(
                conn.execute(
                    text(
                        "SELECT table_name FROM information_schema.tables"
                        " WHERE table_schema = current_schema()"
                    )
                ).scalars()
            )
            counts = {
                t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables
            }
            payloads = conn.execute(
                text(
                    "SELECT md5(string_agg(encode(original_payload, 'hex'), ',' ORDER BY id))"
                    " FROM dead_letters"
                )
            ).scalar_one()
        return version, {"counts": counts, "payloads": payloads}
    finally:
        engine.dispose()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("point", ["migrate-mid-upgrade:1", f"migrate-mid-upgrade:{LAST_STEP}"])
def test_postgresql_migrate_killed_leaves_the_old_store_and_finishes_when_run_again(
    point: str, pg_urls: tuple[str, str], grown: Path
) -> None:
    wh, dl = pg_urls
    fill_postgresql(dl, grown)
    version, before = pg_state(dl)
    assert version == [OLD]
    args = ("--warehouse", wh, "--dead-letter", dl)

    killed = migrate(*args, crash=point)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert pg_state(dl) == ([OLD], before), "the store is not as it was"

    # The dead process's transaction and its lock are gone: the same command finishes.
    again = migrate(*args, timeout=120)
    assert again.returncode == 0, again.stderr
    done = json.loads(again.stdout)
    assert (done["from"], done["to"], done["backup"]) == (OLD, HEAD_REVISION, None)
    version, after = pg_state(dl)
    assert version == [HEAD_REVISION]
    assert after["payloads"] == before["payloads"]
    for table, n in before["counts"].items():
        if table != "alembic_version":
            assert after["counts"][table] == n, table
    listed = subprocess.run(
        [sys.executable, "-m", "triage_app", *args, "list", "--status", "all", "--limit", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
