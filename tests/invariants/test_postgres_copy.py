"""On PostgreSQL a chunk reaches the warehouse through COPY into a staging table and one
set-wise upsert. It must change nothing but speed: the same table as the SQLite path (and
as executemany), the same dead letters and ledger, newest wins inside a chunk and across
chunks, and a row the sink refuses fails alone."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text

from tests.invariants.test_crash_points import (
    BATCH_POINTS,
    check_workspace_against_oracle,
)
from tests.support import gen_batch
from triage_app.core.batch import run_batch
from triage_app.core.db import BatchChunk, WarehouseWriter, open_workspace, table_sha256
from triage_app.core.db.warehouse import upsert_rows
from triage_app.core.deadletters import audit_trail, list_dead_letters
from triage_app.core.transforms import default_registry

pytestmark = pytest.mark.postgres

PESANAN = default_registry().get("pesanan@2")
ORDERS = default_registry().get("orders@1")  # ordering: updated_at, newest wins
BATCH = "0123456789abcdef"
TOO_BIG = 9223372036854775808  # one beyond BIGINT


def pesanan(key: int, line: int, qty: Any = 1) -> tuple[Any, ...]:
    return (key, "2026-01-12", "Budi", "Kain", qty, 10, 10, line)


def order(key: int, updated_at: str, line: int, status: str = "paid") -> tuple[Any, ...]:
    return (key, "Budi", status, 100, updated_at, line)


def content(engine: Any, table: str) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(f"SELECT * FROM {table} ORDER BY 1"))]


def ledger(ws: Any) -> list[tuple[Any, ...]]:
    c = BatchChunk
    with ws.store.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                select(
                    c.first_line, c.last_line, c.records, c.loaded, c.superseded, c.quarantined
                ).order_by(c.first_line)
            )
        ]


def dead(ws: Any) -> list[tuple[Any, ...]]:
    return sorted(
        (d.line, d.error_class, d.status, d.payload) for d in list_dead_letters(ws, limit=None)
    )


def evidence(ws: Any) -> list[tuple[Any, ...]]:
    """Every dead letter with its events as every reader sees them (stored, or the set
    record's: ``expanded_events``), in id order: ids ascend with the line. Not the actor:
    PostgreSQL's names the database user too."""
    sql = text(
        "SELECT d.id, d.line, d.original_payload, d.payload, d.payload_kind, d.error, s.text,"
        " t.text, d.attempts, d.transform, d.version"
        " FROM dead_letters d"
        " JOIN signatures s ON s.id = d.signature_id"
        " LEFT JOIN tracebacks t ON t.id = d.traceback_id"
        " ORDER BY d.id"
    )
    events: dict[int, list[tuple[Any, ...]]] = {}
    for e in reversed(audit_trail(ws, limit=1_000_000)):  # oldest first
        events.setdefault(e.dead_letter_id, []).append((e.action, e.detail, e.version))
    with ws.store.connect() as conn:
        return [
            (*(bytes(v) if isinstance(v, memoryview) else v for v in r[1:]), *e)
            for r in conn.execute(sql)
            for e in events.get(r[0], [])
        ]


@pytest.mark.parametrize("lanes", ["1", "2"])
def test_a_batch_equals_the_sqlite_path(
    pg_urls: tuple[str, str], tmp_path: Path, lanes: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRIAGE_LANES", lanes)
    src = gen_batch(tmp_path / "orders.jsonl", 6_000, bad=0.02)
    with src.open("a") as f:  # PostgreSQL refuses this one, alone, in the last chunk
        f.write(
            f'{{"pesanan_id": {TOO_BIG}, "waktu": "w", "pelanggan": "p", '
            '"produk": "x", "qty": 1, "harga": 1, "diskon": 0}\n'
        )
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        writer = WarehouseWriter(ws.warehouse, PESANAN, BATCH)
        assert writer.staged is not None  # the COPY path is the one under test
        pg = run_batch(ws, src, "pesanan@2", chunk_size=700)
        pg_hash = table_sha256(ws.warehouse, PESANAN)
        pg_dead = dead(ws)
        pg_ledger = ledger(ws)
        pg_evidence = evidence(ws)
    with open_workspace(tmp_path / "ws") as local:
        lite = run_batch(local, src, "pesanan@2", chunk_size=700)
        assert table_sha256(local.warehouse, PESANAN) == pg_hash
        # The same lines fail, with the same evidence; only the driver's wording of the
        # refusal differs, and the error is not compared.
        assert dead(local) == pg_dead
        assert ledger(local) == pg_ledger
        # One ``quarantined`` event each, the same words but for the refusal's own.
        lite_evidence = evidence(local)
        assert len(lite_evidence) == len(pg_evidence) == len(pg_dead)
        assert (
            [r[0] for r in lite_evidence]
            == [r[0] for r in pg_evidence]
            == sorted(d[0] for d in pg_dead)
        )
        assert lite_evidence[:-1] == pg_evidence[:-1]
    assert (pg.rows, pg.loaded, pg.superseded, pg.quarantined) == (
        lite.rows,
        lite.loaded,
        lite.superseded,
        lite.quarantined,
    )
    assert pg.rows == pg.loaded + pg.superseded + pg.quarantined
    assert pg_dead[-1][:2] == (len(src.read_bytes().splitlines()), "data")  # the refused row


def test_copy_equals_executemany_newest_wins_within_and_across_chunks(
    pg_urls: tuple[str, str],
) -> None:
    """Random chunks of orders, keys repeated within and across chunks with older and newer
    ``updated_at`` in any order: COPY and executemany leave the same table and count the same
    rows as changed, chunk by chunk."""
    wh, dl = pg_urls
    rnd = random.Random(7)
    chunks = []
    line = 0
    for _ in range(12):
        newest: dict[int, tuple[Any, ...]] = {}
        for _ in range(rnd.randint(1, 300)):
            line += 1
            key = rnd.randint(1, 200)
            stamp = f"2026-01-{rnd.randint(1, 28):02d}"
            row = order(key, stamp, line, rnd.choice(["paid", "new"]))
            # As a chunk does: one row per key, the newest (ties to the later line).
            if key not in newest or stamp >= newest[key][4]:
                newest[key] = row
        chunks.append(list(newest.values()))
    copy_engine = create_engine(wh)
    many_engine = create_engine(dl)  # the other schema, as a second warehouse
    try:
        by_copy = WarehouseWriter(copy_engine, ORDERS, BATCH)
        by_many = WarehouseWriter(many_engine, ORDERS, BATCH)
        by_many.staged = None  # the executemany path, as before COPY
        assert by_copy.staged is not None
        for i, rows in enumerate(chunks):
            a, b = by_copy.upsert(rows), by_many.upsert(rows)
            assert (a.changed, a.failed) == (b.changed, b.failed)
            # The first chunk's keys are all new: a plain INSERT. Later ones meet keys
            # already there and take the ON CONFLICT upsert from then on.
            assert by_copy.staged.keys_met is (i > 0)
        assert content(copy_engine, "orders") == content(many_engine, "orders")
        # Across chunks: an older version arriving late changes nothing, a tie replaces.
        key, stamp = content(copy_engine, "orders")[0][0], content(copy_engine, "orders")[0][4]
        older = order(key, "2025-12-31", line + 1, "stale")
        assert by_copy.upsert([older]).changed == 0
        assert by_copy.upsert([order(key, stamp, line + 2, "tie")]).changed == 1
        assert next(r for r in content(copy_engine, "orders") if r[0] == key)[2] == "tie"
    finally:
        copy_engine.dispose()
        many_engine.dispose()


def test_a_refused_row_fails_alone(pg_urls: tuple[str, str]) -> None:
    wh, _ = pg_urls
    engine = create_engine(wh)
    try:
        writer = WarehouseWriter(engine, PESANAN, BATCH)
        rows = [pesanan(k, k) for k in range(1, 101)]
        rows[41] = pesanan(TOO_BIG, 42)
        rows[70] = pesanan(71, 71, qty=TOO_BIG)
        result = writer.upsert(rows)
        assert [i for i, _ in result.failed] == [41, 70]
        assert result.changed == 98
        keys = [r[0] for r in content(engine, "pesanan")]
        assert keys == [k for k in range(1, 101) if k not in (42, 71)]
        # Lineage: the batch id from the statement, the line from the row.
        with engine.connect() as conn:
            got = conn.execute(text("SELECT _batch_id, _line FROM pesanan WHERE pesanan_id = 7"))
            assert got.one() == (BATCH, 7)
        # Again: every row already there counts as changed (ties go to the later write).
        assert writer.upsert([pesanan(k, k) for k in range(1, 11)]).changed == 10
    finally:
        engine.dispose()


def test_a_refused_chunk_goes_row_by_row_in_a_fresh_transaction(
    pg_urls: tuple[str, str],
) -> None:
    """After the COPY fails, nothing of it is left half-done: the staging table is empty and
    the connection usable, so the next chunk goes through COPY again."""
    wh, _ = pg_urls
    engine = create_engine(wh)
    try:
        writer = WarehouseWriter(engine, PESANAN, BATCH)
        assert writer.staged is not None
        conn = engine.raw_connection()
        try:
            bad = upsert_rows(
                conn, writer.sql, [pesanan(TOO_BIG, 1), pesanan(2, 2)], False, None, writer.staged
            )
            assert [i for i, _ in bad.failed] == [0] and bad.changed == 1
            good = upsert_rows(conn, writer.sql, [pesanan(3, 3)], False, None, writer.staged)
            assert (good.changed, good.failed) == (1, [])
            cur = conn.cursor()
            cur.execute("SELECT count(*) FROM _stage_pesanan")
            assert cur.fetchone()[0] == 0  # emptied at every commit
        finally:
            conn.close()
        assert [r[0] for r in content(engine, "pesanan")] == [2, 3]
    finally:
        engine.dispose()


def test_a_replayed_chunk_adds_no_dead_letter_and_no_event(pg_urls: tuple[str, str]) -> None:
    """A chunk stored twice (a crash between its warehouse and store commits, then resume):
    the dead letters are unique per (batch, line), the second COPY adds none and no events."""
    from triage_app.core.batch.quarantine import failure_from_message, quarantine
    from triage_app.core.clock import utcnow
    from triage_app.core.db import Batch
    from triage_app.core.vocabulary import ErrorClass

    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        now = utcnow()
        with ws.store.begin() as conn:
            conn.execute(
                Batch.__table__.insert().values(
                    batch_id=BATCH,
                    source_name="x.jsonl",
                    source_sha256="0" * 64,
                    transform="pesanan@2",
                    format="jsonl",
                    started_at=now,
                )
            )
        fails = [
            failure_from_message(n, f"raw {n}\t\\ \n".encode(), f"bad {n}", ErrorClass.DATA)
            for n in (5, 3, 9)
        ]

        def store(failures: list[Any]) -> int:
            with ws.store.begin() as conn:
                return quarantine(
                    conn,
                    batch_id=BATCH,
                    transform_ref="pesanan@2",
                    payload_kind="jsonl",
                    failures=failures,
                    actor="tester",
                    now=now,
                )

        assert store(fails) == 3
        assert store(fails) == 0
        assert store([*fails, failure_from_message(11, b"x", "bad 11", ErrorClass.DATA)]) == 1
        got = evidence(ws)
        assert [(r[0], r[1], r[11]) for r in got] == [
            (3, b"raw 3\t\\ \n", "data via pesanan@2: bad 3"),
            (5, b"raw 5\t\\ \n", "data via pesanan@2: bad 5"),
            (9, b"raw 9\t\\ \n", "data via pesanan@2: bad 9"),
            (11, b"x", "data via pesanan@2: bad 11"),
        ]


@pytest.mark.parametrize("lanes", ["1", "2"])
@pytest.mark.parametrize("point", BATCH_POINTS)
def test_killed_at_point_then_rerun_on_postgres(
    pg_urls: tuple[str, str], tmp_path: Path, point: str, lanes: str
) -> None:
    """SIGKILL at each point of a chunk's commit, COPY path and staged chunks included,
    then the same command: the oracle's table and dead letters, and a clean reconcile."""
    src = gen_batch(tmp_path / "orders.jsonl", 6_000, bad=0.03)
    wh, dl = pg_urls
    base = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws"), "TRIAGE_LANES": lanes}
    cmd = [
        sys.executable, "-m", "triage_app", "--warehouse", wh, "--dead-letter", dl,
        "run", str(src), "--transform", "pesanan@2", "--chunk-size", "500",
    ]  # fmt: skip
    killed = subprocess.run(
        cmd, env={**base, "TRIAGE_CRASH_AT": f"{point}:3"}, capture_output=True, text=True
    )
    assert killed.returncode == -signal.SIGKILL or (
        lanes == "2" and killed.returncode == 2 and "second lane" in killed.stderr
    ), killed.stderr
    again = subprocess.run(cmd, env=base, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resumed batch")
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        lines = check_workspace_against_oracle(ws, src)
        # One event per dead letter, none doubled: its batch's, none stored.
        events = audit_trail(ws, limit=1_000_000)
        assert len(events) == len({e.dead_letter_id for e in events}) == len(lines)
        assert {e.action for e in events} == {"quarantined"} and all(e.id < 0 for e in events)


def test_rows_with_their_own_batch_and_a_key_twice_as_a_redrive_writes_them(
    pg_urls: tuple[str, str],
) -> None:
    """A re-drive's writer serves many batches (each row carries its batch id) and may hold
    one key twice; one set-wise upsert cannot touch a row twice, so such a chunk goes row by
    row: the same table and counts as executemany."""
    wh, dl = pg_urls
    rows = [
        ("aaaaaaaaaaaaaaaa", 1),
        ("bbbbbbbbbbbbbbbb", 2),
        ("aaaaaaaaaaaaaaaa", 3),
    ]
    chunk = [
        (*pesanan(k, 0, qty)[:-1], b, line)
        for (b, line), k, qty in zip(rows, (1, 2, 1), (1, 2, 3), strict=True)
    ]
    engines = create_engine(wh), create_engine(dl)
    try:
        by_copy = WarehouseWriter(engines[0], PESANAN)
        by_many = WarehouseWriter(engines[1], PESANAN)
        by_many.staged = None
        assert by_copy.staged is not None
        for part in (chunk[:2], chunk):
            a, b = by_copy.upsert(part), by_many.upsert(part)
            assert (a.changed, a.failed) == (b.changed, b.failed)
        got = content(engines[0], "pesanan")
        assert got == content(engines[1], "pesanan")
        assert [(r[0], r[4], r[7], r[8]) for r in got] == [
            (1, 3, "aaaaaaaaaaaaaaaa", 3),  # the later row of key 1 won
            (2, 2, "bbbbbbbbbbbbbbbb", 2),
        ]
    finally:
        for e in engines:
            e.dispose()


REFUSED = "DO $$ BEGIN RAISE insufficient_privilege; END $$"  # as with no TEMPORARY


def test_without_temporary_tables_the_statements_of_before(
    pg_urls: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A role may lack TEMPORARY on the database: then the staging tables are refused, and
    the warehouse and the store go by the statements of before, with the same results."""
    from triage_app.core.batch import quarantine as q

    monkeypatch.setattr(q, "_no_staging", [])
    statements = q._copy_statements()
    monkeypatch.setattr(q, "_copy_statements", lambda: (REFUSED, *statements[1:]))
    real_init = WarehouseWriter.__init__

    def refusing_init(self: WarehouseWriter, *a: Any, **k: Any) -> None:
        real_init(self, *a, **k)
        if self.staged is not None:
            self.staged.create = REFUSED

    monkeypatch.setattr(WarehouseWriter, "__init__", refusing_init)
    monkeypatch.setenv("TRIAGE_LANES", "1")
    src = gen_batch(tmp_path / "orders.jsonl", 3_000, bad=0.02)
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        writer = WarehouseWriter(ws.warehouse, PESANAN, BATCH)
        assert writer.upsert([pesanan(1, 1)]).changed == 1
        assert writer.staged is not None and writer.staged.unavailable  # not asked again
        with ws.warehouse.begin() as conn:
            conn.execute(text("DELETE FROM pesanan"))
        pg = run_batch(ws, src, "pesanan@2", chunk_size=700)
        assert q._no_staging  # the store was refused its staging table too
        pg_hash, pg_dead, pg_evidence = table_sha256(ws.warehouse, PESANAN), dead(ws), evidence(ws)
    with open_workspace(tmp_path / "ws") as local:
        lite = run_batch(local, src, "pesanan@2", chunk_size=700)
        assert table_sha256(local.warehouse, PESANAN) == pg_hash
        assert dead(local) == pg_dead and evidence(local) == pg_evidence
    assert (pg.loaded, pg.superseded, pg.quarantined) == (
        lite.loaded,
        lite.superseded,
        lite.quarantined,
    )


def test_a_value_the_binary_copy_does_not_take_goes_by_executemany(
    pg_urls: tuple[str, str],
) -> None:
    """A str for an int column fails the binary COPY but not executemany, which lets the
    server read it: the chunk loads whole, as before COPY."""
    wh, dl = pg_urls
    engines = create_engine(wh), create_engine(dl)
    try:
        by_copy = WarehouseWriter(engines[0], PESANAN, BATCH)
        by_many = WarehouseWriter(engines[1], PESANAN, BATCH)
        by_many.staged = None
        rows = [pesanan(k, k) for k in range(1, 6)]
        rows[2] = pesanan(3, 3, qty="3")
        a, b = by_copy.upsert(rows), by_many.upsert(rows)
        assert (a.changed, a.failed) == (b.changed, b.failed) == (5, [])
        assert content(engines[0], "pesanan") == content(engines[1], "pesanan")
        assert by_copy.staged is not None and not by_copy.staged.unavailable  # COPY next time
    finally:
        for e in engines:
            e.dispose()
