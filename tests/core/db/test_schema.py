"""The store's schema version (``ensure_schema``): the head revision the code knows is
Alembic's; a new store is made at it and stamped (SQLite ``user_version`` = its number, and
``alembic_version``); a current store is known without importing Alembic; a store made by a
newer version, or one that matches no revision (a missing column), is refused in one line
and left byte for byte as it was; a store from before Alembic is recognised by its tables
and columns, also one that 7e0d82e's code half-upgraded; PostgreSQL refuses an older store
until ``migrate``; and processes that start together on a new store all succeed, on SQLite
and PostgreSQL, over several rounds."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.engine import make_url

from tests.conftest import PG_BASE
from tests.support import REPO, SEED_BATCH, cli
from triage_app.core.db import HEAD_REVISION, make_engine, open_workspace, schema
from triage_app.core.db.migrations import runner
from triage_app.core.db.models import Base
from triage_app.core.db.schema import REVISIONS, ensure_schema, migrate_store
from triage_app.core.errors import TriageError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
STORE_TABLES = {
    "batches",
    "batch_chunks",
    "dead_letters",
    "audit_events",
    "stats_cache",
    "purges",
    "store_settings",
    "tracebacks",
    "change_sets",
    "change_set_rows",
    "change_set_reverts",
    "error_groups",
    "dead_letter_counts",
    "redrive_runs",
    "resolutions",
    "signatures",
    "kept_sources",
    "source_blobs",
    "held_rows",
    "connectors",
    "dead_letter_origins",
}
# What 7e0d82e's ensure_schema wrote into user_version: a CRC of its column names.
CRC_7E0D82E = 558_651_226


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'dead_letter.db'}", "dead-letter store")
    yield engine
    engine.dispose()


def user_version(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def set_user_version(engine: Engine, value: int) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(f"PRAGMA user_version = {value}")


def recorded(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_of(folder: Path) -> dict[str, str]:
    return {p.name: sha(p) for p in sorted(folder.iterdir())}


def fixture_workspace(tmp_path: Path, rev: str) -> Path:
    folder = tmp_path / f"ws-{rev}"
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / f"store-{rev}.db", folder / "dead_letter.db")
    warehouse = sqlite3.connect(folder / "warehouse.db")  # empty, as a workspace has it
    warehouse.execute("PRAGMA journal_mode=WAL")
    warehouse.close()
    return folder


def checkpoint(path: Path) -> None:
    """Fold the write-ahead log into the file, so the file alone shows every change."""
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()


def test_the_head_the_code_knows_is_alembics() -> None:
    assert runner.head() == HEAD_REVISION
    assert tuple(runner.revisions()) == REVISIONS
    assert REVISIONS[-1] == HEAD_REVISION


def test_a_new_store_is_made_at_head_and_stamped(store: Engine) -> None:
    change = ensure_schema(store)
    assert change is not None and (change.before, change.after) == (None, HEAD_REVISION)
    assert set(inspect(store).get_table_names()) == STORE_TABLES | {"alembic_version"}
    assert user_version(store) == int(HEAD_REVISION)
    assert recorded(store) == [HEAD_REVISION]
    assert ensure_schema(store) is None  # current: nothing to do


def test_a_store_in_memory_is_made_on_its_own_connection() -> None:
    with open_workspace(warehouse_url="sqlite://", dead_letter_url="sqlite://") as ws:
        assert ws.schema_change is not None
        assert set(inspect(ws.store).get_table_names()) == STORE_TABLES | {"alembic_version"}


def test_a_current_store_is_not_looked_at_again(store: Engine) -> None:
    ensure_schema(store)
    with store.begin() as conn:
        conn.exec_driver_sql("DROP INDEX ix_dl_resolved")
    assert ensure_schema(store) is None  # user_version says head: one query, no checks
    assert "ix_dl_resolved" not in {i["name"] for i in inspect(store).get_indexes("dead_letters")}


def test_opening_a_current_store_never_imports_alembic(tmp_path: Path) -> None:
    """Startup time: the fast path is one PRAGMA, and Alembic (with Mako) stays unloaded,
    both when the store is made and every time after."""
    code = (
        "import sys\n"
        "from triage_app.core.db import open_workspace\n"
        "for _ in range(2):\n"
        f"    open_workspace({str(tmp_path / 'ws')!r}).close()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "stamp", ["user_version", "alembic_version"], ids=["user-version", "alembic-version"]
)
def test_a_store_made_by_a_newer_version_is_refused_untouched(tmp_path: Path, stamp: str) -> None:
    folder = fixture_workspace(tmp_path, "0002")
    engine = make_engine(f"sqlite:///{folder / 'dead_letter.db'}", "dead-letter store")
    with engine.begin() as conn:
        if stamp == "user_version":
            conn.exec_driver_sql(f"PRAGMA user_version = {int(HEAD_REVISION) + 1}")
        else:
            conn.exec_driver_sql("PRAGMA user_version = 0")
            conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'a1b2c3'")
    engine.dispose()
    checkpoint(folder / "dead_letter.db")
    before = files_of(folder)
    for command in (["list"], ["run", str(SEED_BATCH), "--transform", "pesanan@2"]):
        r = cli("--workspace", str(folder), *command)
        assert r.returncode == 2, r.stderr
        newest = f"{int(HEAD_REVISION) + 1:04d}" if stamp == "user_version" else "a1b2c3"
        assert r.stderr == (
            f"triage-app: the dead-letter store at {folder / 'dead_letter.db'} was made by a "
            f"newer Triage Desk: schema {newest}; this version knows up to {HEAD_REVISION}\n"
        )
        assert files_of(folder) == before


def drop_column(path: Path, table: str, column: str) -> None:
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
    engine.dispose()
    checkpoint(path)


@pytest.mark.parametrize(
    ("rev", "crc", "table", "column"),
    [
        ("0001", None, "dead_letters", "traceback"),  # be00e4a's own CRC stays in place
        ("0002", CRC_7E0D82E, "dead_letters", "claim_until"),
        ("0002", CRC_7E0D82E, "audit_events", "replaced_payload"),
    ],
)
def test_a_store_missing_a_column_is_refused_in_one_line_and_never_restamped(
    tmp_path: Path, rev: str, crc: int | None, table: str, column: str
) -> None:
    """The old stamp took such a store for current and it failed later, in show or
    redrive; now it matches no revision and says which column it lacks."""
    folder = fixture_workspace(tmp_path, rev)
    db = folder / "dead_letter.db"
    if crc is not None:  # as 7e0d82e's code left it: no alembic_version, its CRC
        engine = create_engine(f"sqlite:///{db}")
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE alembic_version")
            conn.exec_driver_sql(f"PRAGMA user_version = {crc}")
        engine.dispose()
    drop_column(db, table, column)
    before = files_of(folder)
    r = cli("--workspace", str(folder), "show", "1")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(
        f"triage-app: the dead-letter store at {db} matches no schema this version knows"
    )
    assert f"column {table}.{column} is missing" in r.stderr
    assert f"closest is {rev}" in r.stderr
    assert files_of(folder) == before  # no backup, no stamp, nothing


def test_a_store_that_7e0d82e_half_upgraded_is_recognised_and_upgraded(tmp_path: Path) -> None:
    """7e0d82e's create_all gave a 0001 store the two new tables and the new index, left
    out the new columns, and stamped it current: it is 0001 plus parts of 0002."""
    folder = fixture_workspace(tmp_path, "0001")
    db = folder / "dead_letter.db"
    engine = create_engine(f"sqlite:///{db}")
    new = [Base.metadata.tables[t] for t in ("purges", "store_settings")]
    Base.metadata.create_all(engine, tables=new)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE INDEX ix_event_at ON audit_events (at)")
        conn.exec_driver_sql(f"PRAGMA user_version = {CRC_7E0D82E}")
        conn.exec_driver_sql("INSERT INTO store_settings VALUES ('retention_days', '30')")
    engine.dispose()
    with open_workspace(folder) as ws:
        assert ws.schema_change is not None
        assert (ws.schema_change.before, ws.schema_change.after) == ("0001", HEAD_REVISION)
        with ws.store.connect() as conn:
            assert conn.exec_driver_sql("SELECT value FROM store_settings").scalar() == "30"
            assert conn.exec_driver_sql("SELECT count(*) FROM dead_letters").scalar() == 4
        assert user_version(ws.store) == int(HEAD_REVISION)


def test_a_recognised_store_gets_a_lost_index_back(tmp_path: Path) -> None:
    folder = fixture_workspace(tmp_path, "0001")
    engine = create_engine(f"sqlite:///{folder / 'dead_letter.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP INDEX ix_dl_class_sig_last")
    engine.dispose()
    with open_workspace(folder) as ws:
        assert "ix_dl_class_sig_last" in {
            i["name"] for i in inspect(ws.store).get_indexes("dead_letters")
        }


def test_a_pre_alembic_store_at_head_is_stamped_without_a_backup(tmp_path: Path) -> None:
    folder = fixture_workspace(tmp_path, HEAD_REVISION)
    engine = create_engine(f"sqlite:///{folder / 'dead_letter.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE alembic_version")
        conn.exec_driver_sql(f"PRAGMA user_version = {CRC_7E0D82E}")
    engine.dispose()
    with open_workspace(folder) as ws:
        assert ws.schema_change is None
        assert recorded(ws.store) == [HEAD_REVISION]
        assert user_version(ws.store) == int(HEAD_REVISION)
    assert sorted(p.name for p in folder.glob("*.schema-*")) == []


def test_an_upgrade_is_said_once_on_stderr(tmp_path: Path) -> None:
    folder = fixture_workspace(tmp_path, "0001")
    first = cli("--workspace", str(folder), "list")
    assert first.returncode == 0, first.stderr
    [backup] = folder.glob("dead_letter.schema-0001.*.db")
    assert first.stderr == (
        f"upgraded the dead-letter store at {folder / 'dead_letter.db'} from schema 0001 to "
        f"{HEAD_REVISION}; the store as it was is kept in {backup}\n"
    )
    again = cli("--workspace", str(folder), "list")
    assert again.returncode == 0 and again.stderr == ""


def test_migrate_says_from_which_to_which_then_that_it_is_current(tmp_path: Path) -> None:
    folder = fixture_workspace(tmp_path, "0001")
    r = cli("--workspace", str(folder), "migrate", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["from"], data["to"], data["current"]) == ("0001", HEAD_REVISION, False)
    assert Path(data["backup"]).is_file() and Path(data["backup"]).parent == folder
    r = cli("--workspace", str(folder), "migrate")
    assert (r.returncode, r.stdout) == (0, f"{folder / 'dead_letter.db'} is current\n")
    missing = cli("--workspace", str(tmp_path / "nowhere"), "migrate")
    assert missing.returncode == 2
    assert missing.stderr == f"triage-app: no workspace at {tmp_path / 'nowhere'}\n"
    assert not (tmp_path / "nowhere").exists()


# --- PostgreSQL ----------------------------------------------------------------------------


def pg_engine(url: str) -> Engine:
    return make_engine(url, "dead-letter store")


def test_postgresql_a_new_store_is_made_at_head(pg_urls: tuple[str, str]) -> None:
    engine = pg_engine(pg_urls[1])
    try:
        change = ensure_schema(engine)
        assert change is not None and change.after == HEAD_REVISION
        assert set(inspect(engine).get_table_names()) == STORE_TABLES | {"alembic_version"}
        assert recorded(engine) == [HEAD_REVISION]
        assert ensure_schema(engine) is None
    finally:
        engine.dispose()


def test_postgresql_an_older_store_is_refused_until_migrate(pg_urls: tuple[str, str]) -> None:
    engine = pg_engine(pg_urls[1])
    try:
        with engine.begin() as conn:
            runner.upgrade(conn, "0001")
            conn.exec_driver_sql(
                "INSERT INTO batches VALUES ('b1', 'f.jsonl', 'ab', 'pesanan@1', 'jsonl', NULL, "
                "'complete', 1, 1, 0, 0, 1, 1, 0, 0, 0.5, now(), now())"
            )
        with pytest.raises(TriageError) as err:
            ensure_schema(engine)
        assert str(err.value) == (
            f"the dead-letter store at {make_url(pg_urls[1]).render_as_string()} is at schema "
            f"0001 and this version needs {HEAD_REVISION}: back it up, then run "
            "`triage-app migrate`"
        )
        assert recorded(engine) == ["0001"]  # untouched
        change = migrate_store(engine)
        assert change is not None and (change.before, change.after) == ("0001", HEAD_REVISION)
        assert change.backup is None
        assert ensure_schema(engine) is None
        assert migrate_store(engine) is None
    finally:
        engine.dispose()


def test_postgresql_the_cli_refuses_an_older_store_then_migrates_it(
    pg_urls: tuple[str, str],
) -> None:
    wh, dl = pg_urls
    engine = pg_engine(dl)
    with engine.begin() as conn:
        runner.upgrade(conn, "0001")
    engine.dispose()
    urls = ["--warehouse", wh, "--dead-letter", dl]
    refused = cli(*urls, "list")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.endswith("back it up, then run `triage-app migrate`\n")
    migrated = cli(*urls, "migrate", "--json")
    assert migrated.returncode == 0, migrated.stderr
    data = json.loads(migrated.stdout)
    assert (data["from"], data["to"], data["backup"]) == ("0001", HEAD_REVISION, None)
    listed = cli(*urls, "list")
    assert (listed.returncode, listed.stdout) == (0, "no dead letters match\n")
    current = cli(*urls, "migrate")
    assert current.returncode == 0 and current.stdout.endswith(" is current\n")


def test_postgresql_a_newer_store_is_refused(pg_urls: tuple[str, str]) -> None:
    engine = pg_engine(pg_urls[1])
    try:
        ensure_schema(engine)
        with engine.begin() as conn:
            conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0099'")
        for attempt in (ensure_schema, migrate_store):
            with pytest.raises(TriageError, match="made by a newer Triage Desk: schema 0099; "):
                attempt(engine)
        assert recorded(engine) == ["0099"]
    finally:
        engine.dispose()


def test_postgresql_a_store_from_before_alembic_is_recognised(pg_urls: tuple[str, str]) -> None:
    engine = pg_engine(pg_urls[1])
    try:
        Base.metadata.create_all(engine)  # what 7e0d82e's code made: no alembic_version
        assert ensure_schema(engine) is None
        assert recorded(engine) == [HEAD_REVISION]
    finally:
        engine.dispose()


# --- two processes starting together on a new store ------------------------------------------

RACER = """
import sys, time
from pathlib import Path
go = Path(sys.argv[1])
print("ready", flush=True)
while not go.exists():
    time.sleep(0.001)
from triage_app.core.db import open_workspace
try:
    if sys.argv[2] == "sqlite":
        open_workspace(sys.argv[3]).close()
    else:
        open_workspace(warehouse_url=sys.argv[3], dead_letter_url=sys.argv[3]).close()
except Exception as exc:
    print(type(exc).__name__, str(exc).splitlines()[0], flush=True)
    sys.exit(1)
print("ok", flush=True)
"""


def race(tmp_path: Path, kind: str, target: str, processes: int = 4) -> list[str]:
    """Start ``processes`` children, let them import everything, then open the same new
    store all at once; what each one said."""
    go = tmp_path / f"go-{uuid.uuid4().hex}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(go), kind, target],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        for _ in range(processes)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    # The import of the engine happens after the go: give every child time to reach it.
    time.sleep(0.05)
    go.touch()
    said = []
    for child in children:
        out, _ = child.communicate(timeout=120)
        said.append(out.strip() + f" (exit {child.returncode})")
    return said


@pytest.mark.slow
def test_processes_starting_together_on_a_new_sqlite_store_all_succeed(tmp_path: Path) -> None:
    for round_ in range(6):
        folder = tmp_path / f"ws{round_}"
        assert race(tmp_path, "sqlite", str(folder)) == ["ok (exit 0)"] * 4, f"round {round_}"
        engine = make_engine(f"sqlite:///{folder / 'dead_letter.db'}", "store")
        assert user_version(engine) == int(HEAD_REVISION)
        assert recorded(engine) == [HEAD_REVISION]
        engine.dispose()


@pytest.mark.slow
def test_processes_starting_together_on_an_older_sqlite_store_upgrade_it_once(
    tmp_path: Path,
) -> None:
    # Five rounds: a reader that saw half of another process's upgrade (the version before
    # it, the tables after) refused the store in about one round in six.
    for round_ in range(5):
        folder = fixture_workspace(tmp_path / f"r{round_}", "0001")
        said = race(tmp_path, "sqlite", str(folder))
        assert all(s.endswith("ok (exit 0)") for s in said), said
        assert sum(s.startswith("upgraded the dead-letter store") for s in said) == 1, said
        assert len(list(folder.glob("dead_letter.schema-0001.*.db"))) == 1


def test_the_look_before_the_lock_sees_one_state_while_another_process_upgrades(
    tmp_path: Path,
) -> None:
    """ensure_schema first reads the store without the lock. Statement by statement, a
    read that straddled another process's commit saw the version from before and the
    tables from after: a store that matched no schema, refused. The read is one snapshot."""
    folder = fixture_workspace(tmp_path, "0001")
    engine = make_engine(f"sqlite:///{folder / 'dead_letter.db'}", "store")
    try:
        with schema._snapshot(engine) as conn:
            assert conn.exec_driver_sql("PRAGMA user_version").scalar_one() > 100_000  # a CRC
            upgrade = cli("--workspace", str(folder), "list")  # another process upgrades
            assert upgrade.returncode == 0 and f"to {HEAD_REVISION}" in upgrade.stderr, (
                upgrade.stderr
            )
            state = schema._state(conn, "the store")  # still the store as it was
        assert state.revision == "0001" and state.recognised
        assert user_version(engine) == int(HEAD_REVISION)  # and now the upgrade shows
    finally:
        engine.dispose()


@pytest.fixture
def fresh_pg_schemas(pg_available: None) -> Iterator[list[str]]:
    """Six new, empty schemas on the test server, as URLs; dropped afterwards."""
    import psycopg

    url = make_url(PG_BASE)
    names = [f"triage_race_{uuid.uuid4().hex[:10]}" for _ in range(6)]
    conninfo = dict(host=url.host, port=url.port or 5432, user=url.username, dbname=url.database)
    with psycopg.connect(**conninfo, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE SCHEMA {name}")
    yield [
        url.update_query_dict({"options": f"-csearch_path={n}"}).render_as_string(
            hide_password=False
        )
        for n in names
    ]
    with psycopg.connect(**conninfo, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.mark.slow
@pytest.mark.postgres
def test_processes_starting_together_on_a_new_postgresql_store_all_succeed(
    tmp_path: Path, fresh_pg_schemas: list[str]
) -> None:
    for round_, url in enumerate(fresh_pg_schemas):
        assert race(tmp_path, "postgresql", url) == ["ok (exit 0)"] * 4, f"round {round_}"
        engine = pg_engine(url)
        assert recorded(engine) == [HEAD_REVISION]
        engine.dispose()


def _unmasked_names(folder: Path) -> list[int]:
    """Rows of a pesanan transform whose masked copy is missing."""
    conn = sqlite3.connect(folder / "dead_letter.db")
    try:
        return [
            r[0]
            for r in conn.execute(
                "SELECT id FROM dead_letters WHERE transform LIKE 'pesanan@%'"
                ' AND CAST(original_payload AS TEXT) LIKE \'%"pelanggan": "%\''
                " AND masked_original IS NULL"
            )
        ]
    finally:
        conn.close()


def test_an_upgrade_past_0013_masks_the_rows_stored_before(tmp_path: Path) -> None:
    """A store from before masked copies were kept: whatever upgrades it (``migrate``, or a
    SQLite store upgrading as a command opens it) fills them, so that no list, export or
    search of it shows a customer's name."""
    migrated = fixture_workspace(tmp_path / "a", "0012")
    r = cli("--workspace", str(migrated), "migrate", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["masks_refreshed"] >= 4
    assert _unmasked_names(migrated) == []
    opened = fixture_workspace(tmp_path / "b", "0012")
    r = cli("--workspace", str(opened), "list", "--status", "all", "--search", "Rin")
    assert r.returncode == 0, r.stderr
    assert "Rina" not in r.stdout and _unmasked_names(opened) == []
    r = cli("--workspace", str(opened), "list", "--status", "all", "--search", "Rina", "--json")
    assert [row["id"] for row in json.loads(r.stdout)] == [2]
