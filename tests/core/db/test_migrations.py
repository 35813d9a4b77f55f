"""The migrations: every committed fixture store (one per schema version, each written by the
code of its time, tests/fixtures/stores/make_store.py) upgrades to the head revision with
its data whole (row counts, every value, payloads byte-exact), keeps a copy of itself from
before, and then lists, shows, edits and re-drives; the migrated schema is the models'
(Alembic finds no difference) on SQLite and on PostgreSQL; and 0002 goes back down."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, inspect

from tests.support import cli
from triage_app.core.db import HEAD_REVISION, counts, make_engine, open_workspace
from triage_app.core.db.index_shapes import same_shape
from triage_app.core.db.instants import from_stored
from triage_app.core.db.migrations import runner
from triage_app.core.db.migrations.versions.r0008_instants import INSTANTS
from triage_app.core.db.models import Base
from triage_app.core.db.schema import REVISIONS, ensure_schema, migrate_store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
FIXED_PAYLOAD = (
    '{"pesanan_id": 3, "waktu": "2026-01-11T09:00:00", "pelanggan": "Dewi", '
    '"produk": "Tas Rotan", "qty": 1, "harga": 99000, "diskon": 0}'
)


BEGINNINGS = ("set_records_from", "change_set_records_from")


def rows_of(db: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table but the version table, by primary key order. Read as an
    immutable file: a reader of a WAL store would leave -shm and -wal files beside it."""
    conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
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


def meaning(tables: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The rows as they read, whatever the revision stores: since 0003 a dead letter's
    payload and error may be NULL (the original, the signature) and its traceback is kept
    once in ``tracebacks``; since 0004 its signature once in ``signatures``; since 0007 the
    store settings hold where set records begin (and since 0010 the change-sets'); since
    0008 an instant is an integer."""
    tables = {
        t: [
            {k: from_stored(v) if k in INSTANTS.get(t, ()) else v for k, v in row.items()}
            for row in rows
        ]
        for t, rows in tables.items()
    }
    texts = {t["id"]: t["text"] for t in tables.get("tracebacks", [])}
    signatures = {s["id"]: s["text"] for s in tables.get("signatures", [])}
    out = {t: rows for t, rows in tables.items() if t not in ("tracebacks", "signatures")}
    if "store_settings" in out:  # where set records begin: since 0007 and 0010
        out["store_settings"] = [r for r in out["store_settings"] if r["key"] not in BEGINNINGS]
    read = []
    for row in tables["dead_letters"]:
        row = dict(row)
        if "traceback_id" in row:
            row["traceback"] = texts.get(row.pop("traceback_id"))
        if "signature_id" in row:
            row["signature"] = signatures[row.pop("signature_id")]
        row["payload"] = row["payload"] if row["payload"] is not None else row["original_payload"]
        row["error"] = row["error"] if row["error"] is not None else row["signature"]
        read.append(row)
    out["dead_letters"] = read
    return out


def workspace_from(tmp_path: Path, rev: str) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    shutil.copyfile(FIXTURES / f"store-{rev}.db", folder / "dead_letter.db")
    warehouse = sqlite3.connect(folder / "warehouse.db")  # empty, as the store's was
    warehouse.execute("PRAGMA journal_mode=WAL")
    warehouse.close()
    return folder


def differences(conn: Connection) -> list[Any]:
    """What Alembic finds between the store and the models, but an index that ends in the
    id, which SQLite stores without naming the id (``db/index_shapes.py``): the same index
    there, read back with one column fewer."""
    found = list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    stored = {d[1].name: [c.name for c in d[1].columns] for d in found if d[0] == "remove_index"}
    # The models' own indexes: Alembic's copies in ``found`` do not keep their ``info``.
    models = {i.name: i for t in Base.metadata.tables.values() for i in t.indexes}
    same = {
        name
        for name, columns in stored.items()
        if name in models and same_shape(models[name], columns, conn.dialect.name)
    }
    return [d for d in found if not (d[0] in ("add_index", "remove_index") and d[1].name in same)]


def test_there_is_a_small_fixture_store_for_every_revision() -> None:
    for rev in REVISIONS:
        store = FIXTURES / f"store-{rev}.db"
        assert store.is_file(), f"no fixture for schema {rev}: see make_store.py"
        # A few 4 KiB pages per table and index: 64 pages at schema 0012 (its two tables).
        assert store.stat().st_size < 320_000
        assert all(rows for rows in rows_of(store).values()), f"a table of {rev} has no rows"


@pytest.mark.parametrize("rev", REVISIONS)
def test_each_fixture_store_upgrades_to_head_with_its_data_whole(tmp_path: Path, rev: str) -> None:
    folder = workspace_from(tmp_path, rev)
    before = rows_of(folder / "dead_letter.db")
    with open_workspace(folder) as ws:
        change = ws.schema_change
        with ws.store.connect() as conn:
            assert differences(conn) == []
    if rev == HEAD_REVISION:
        assert change is None
    else:
        assert change is not None and (change.before, change.after) == (rev, HEAD_REVISION)
        # The copy from before is the fixture, value for value.
        assert change.backup is not None and change.backup.parent == folder
        assert change.backup.name.startswith(f"dead_letter.schema-{rev}.")
        assert rows_of(change.backup) == before
    after = meaning(rows_of(folder / "dead_letter.db"))
    before = meaning(before)
    assert {t: len(r) for t, r in after.items()} == {
        **{t: len(r) for t, r in before.items()},
        **{t: len(after[t]) for t in after.keys() - before.keys()},
    }
    for table, rows in before.items():
        for old, new in zip(rows, after[table], strict=True):
            assert {k: new[k] for k in old} == old  # every value, payload bytes included
    if "version" not in before["dead_letters"][0]:  # added by the upgrade: 1 for every row
        assert {r["version"] for r in after["dead_letters"]} == {1}
    payloads = {r["id"]: bytes(r["original_payload"]) for r in after["dead_letters"]}
    assert payloads == {r["id"]: bytes(r["original_payload"]) for r in before["dead_letters"]}


@pytest.mark.parametrize("rev", REVISIONS[:-1])
def test_an_upgraded_store_counts_its_rows_by_cell_and_names_who_ran_each_batch(
    tmp_path: Path, rev: str
) -> None:
    folder = workspace_from(tmp_path, rev)
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        cells = counts.stored(conn)
        assert cells == counts.recount(conn)
        assert (
            sum(cells.values())
            == conn.exec_driver_sql("SELECT count(*) FROM dead_letters").scalar()
        )
        # The fixtures' events name "fixture" (0001, 0002) or "fixture@vm" (the host added).
        actors = {r[0] for r in conn.exec_driver_sql("SELECT actor FROM batches")}
        # (0011's journal batch was run with the bare name.)
        assert actors and all(str(a).startswith("fixture") for a in actors)


@pytest.mark.slow
@pytest.mark.parametrize("rev", REVISIONS)
def test_an_upgraded_fixture_store_lists_shows_edits_and_redrives(tmp_path: Path, rev: str) -> None:
    folder = workspace_from(tmp_path, rev)
    ws = ["--workspace", str(folder)]
    listed = cli(*ws, "list", "--status", "all")
    assert listed.returncode == 0, listed.stderr
    # The demo batch's four dead letters (from 0011 a held journal batch's too).
    assert sum("bd137b916430b766" in line for line in listed.stdout.splitlines()) == 4
    shown = cli(*ws, "show", "2")
    assert shown.returncode == 0, shown.stderr
    assert "edited" in shown.stdout and "resolved" in shown.stdout
    edited = cli(*ws, "edit", "1", "--payload", FIXED_PAYLOAD)
    assert edited.returncode == 0, edited.stderr
    redriven = cli(*ws, "redrive", "--id", "1", "--transform", "pesanan@1", "--json")
    assert redriven.returncode == 0, redriven.stderr
    assert '"succeeded": 1' in redriven.stdout
    again = cli(*ws, "show", "1")
    assert again.returncode == 0 and "resolved" in again.stdout.splitlines()[0]


def test_the_comparison_sees_an_old_schema(tmp_path: Path) -> None:
    """The check above can fail: the 0001 fixture, not upgraded, differs from the models."""
    shutil.copyfile(FIXTURES / "store-0001.db", tmp_path / "store.db")
    engine = create_engine(f"sqlite:///{tmp_path / 'store.db'}")
    with engine.connect() as conn:
        found = {str(d[0]) for d in differences(conn) if isinstance(d, tuple)}
    engine.dispose()
    assert {"add_table", "add_column", "add_index"} <= found


def test_postgresql_migrated_from_0001_is_the_models(pg_urls: tuple[str, str]) -> None:
    engine: Engine = make_engine(pg_urls[1], "dead-letter store")
    try:
        with engine.begin() as conn:
            runner.upgrade(conn, "0001")
            conn.exec_driver_sql(
                "INSERT INTO batches VALUES ('b1', 'f.jsonl', 'ab', 'pesanan@1', 'jsonl', NULL, "
                "'complete', 1, 1, 0, 0, 1, 1, 0, 0, 0.5, now(), now())"
            )
            conn.exec_driver_sql(
                "INSERT INTO dead_letters (batch_id, line, original_payload, payload, "
                "payload_kind, error, error_class, signature, attempts, status, transform, "
                "first_failed_at, last_failed_at) VALUES ('b1', 1, '\\x00ff'::bytea, "
                "'\\x00ff'::bytea, 'jsonl', 'e', 'data', 's', 1, 'open', 'pesanan@1', now(), "
                "now())"
            )
            conn.exec_driver_sql(
                "INSERT INTO audit_events (dead_letter_id, at, actor, action, detail) "
                "SELECT id, now(), 'fixture', 'quarantined', '' FROM dead_letters"
            )
            assert differences(conn) != []
        change = migrate_store(engine)
        assert change is not None and (change.before, change.after) == ("0001", HEAD_REVISION)
        with engine.connect() as conn:
            assert differences(conn) == []
            row = conn.exec_driver_sql("SELECT original_payload, version FROM dead_letters").one()
            assert (bytes(row[0]), row[1]) == (b"\x00\xff", 1)
            assert conn.exec_driver_sql("SELECT count(*) FROM audit_events").scalar() == 1
    finally:
        engine.dispose()


def test_postgresql_a_new_store_is_the_models(pg_urls: tuple[str, str]) -> None:
    engine = make_engine(pg_urls[1], "dead-letter store")
    try:
        ensure_schema(engine)
        with engine.connect() as conn:
            assert differences(conn) == []
    finally:
        engine.dispose()


def test_0002_goes_back_down_to_0001(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        with engine.begin() as conn:
            runner.upgrade(conn, HEAD_REVISION)
            runner.downgrade(conn, "0001")
        tables = {
            t: {c["name"] for c in inspect(engine).get_columns(t)}
            for t in inspect(engine).get_table_names()
            if t != "alembic_version"
        }
        assert tables == {t: set(c) for t, c in runner.shapes()["0001"].tables.items()}
    finally:
        engine.dispose()
