"""The chunk commit: the warehouse half, then the store half (dead letters, ledger row and
checkpoint in one transaction); a replayed warehouse half changes nothing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from tests.support import SEED_ORDERS
from triage_app.core.batch.chunks import Chunk, ChunkParser, ChunkSource
from triage_app.core.batch.commit import ChunkCommitter
from triage_app.core.batch.readers import Format
from triage_app.core.batch.source import Source
from triage_app.core.db import (
    Batch,
    BatchChunk,
    DeadLetter,
    Workspace,
    open_workspace,
    signature_text,
)
from triage_app.core.db import table_sha256 as wh_sha256
from triage_app.core.demo import StoreFiller
from triage_app.core.retry import RetryPolicy
from triage_app.core.transforms import Transform, default_registry
from triage_app.core.vocabulary import BatchState, ErrorClass

BATCH = "00000000000000c1"
PESANAN_2 = default_registry().get("pesanan@2")
ORDERS_1 = default_registry().get("orders@1")
ORDER = (
    '{"pesanan_id": %d, "waktu": "2026-01-10T09:15:00", "pelanggan": "Budi", '
    '"produk": "Rok", "qty": %d, "harga": %d, "diskon": 0}'
)
TOO_BIG = 2**63 - 1  # a valid price; twice it is a total no BIGINT holds


def order(pid: int, qty: int = 1, harga: int = 100) -> bytes:
    return (ORDER % (pid, qty, harga)).encode()


def chunks_of(path: Path, transform: Transform, fmt: Format, size: int) -> list[Chunk]:
    src = ChunkSource(Source.open(path, fmt), 0, size)
    try:
        parser = ChunkParser(transform, src.decode, RetryPolicy(), lambda _s: None, fmt)
        out = []
        while (chunk := parser.parse(src)).lines:
            out.append(chunk)
        return out
    finally:
        src.close()
        src.source.close()


def committer(ws: Workspace, transform: Transform, path: Path, fmt: Format) -> ChunkCommitter:
    with StoreFiller(ws) as filler:
        filler.batch(
            BATCH, source_name=path.name, transform=transform.ref, state=BatchState.RUNNING
        )
    return ChunkCommitter(
        ws,
        transform,
        batch_id=BATCH,
        source=Source.open(path, fmt),
        fmt=fmt,
        actor="tester",
        retry=RetryPolicy(),
        sleep=lambda _s: None,
    )


def counters(ws: Workspace) -> tuple[int, ...]:
    with ws.store.connect() as conn:
        b = conn.execute(select(Batch.__table__).where(Batch.batch_id == BATCH)).one_or_none()
        assert b is not None
        return (
            b.lines_done,
            b.rows,
            b.loaded,
            b.superseded,
            b.quarantined,
            b.q_data,
            b.q_code,
            b.q_transient,
        )


def ledger(ws: Workspace) -> list[tuple[int, ...]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(BatchChunk.__table__)
            .where(BatchChunk.batch_id == BATCH)
            .order_by(BatchChunk.first_line)
        )
        return [
            (c.first_line, c.last_line, c.records, c.loaded, c.superseded, c.quarantined)
            for c in rows
        ]


def dead_letters(ws: Workspace) -> list[tuple[Any, ...]]:
    with ws.store.connect() as conn:
        rows = conn.execute(
            select(DeadLetter.__table__, signature_text().label("signature")).order_by(
                DeadLetter.line
            )
        )
        # The error as shown: the store keeps none when the signature says it all.
        return [
            (d.line, d.original_payload, d.error or d.signature, d.error_class, d.payload_kind)
            for d in rows
        ]


def warehouse(ws: Workspace, table: str) -> list[tuple[Any, ...]]:
    with ws.warehouse.connect() as conn:
        return [tuple(r) for r in conn.execute(text(f"SELECT * FROM {table} ORDER BY 1"))]


@pytest.fixture
def seed_orders(tmp_path: Path) -> Path:
    dst = tmp_path / SEED_ORDERS.name
    shutil.copyfile(SEED_ORDERS, dst)
    return dst


@pytest.fixture
def two_workspaces(tmp_path: Path) -> Iterator[tuple[Workspace, Workspace]]:
    a, b = open_workspace(tmp_path / "a"), open_workspace(tmp_path / "b")
    yield a, b
    a.close()
    b.close()


def test_write_fills_the_warehouse_and_store_records_the_chunk(
    workspace: Workspace, seed_batch: Path
) -> None:
    c = committer(workspace, PESANAN_2, seed_batch, "jsonl")
    first, second, third = chunks_of(seed_batch, PESANAN_2, "jsonl", 4)
    try:
        written = c.write(first)
        # The warehouse half alone: rows in, nothing in the store yet.
        assert [(r[0], r[-3], r[-2]) for r in warehouse(workspace, "pesanan")] == [
            (1, BATCH, 1),
            (2, BATCH, 2),
        ]
        assert (written.loaded, written.superseded) == (2, 0)
        assert [f.line for f in written.failures] == [3, 4]
        assert dead_letters(workspace) == [] and ledger(workspace) == []
        assert counters(workspace) == (0, 0, 0, 0, 0, 0, 0, 0)

        c.store(first, written)
        assert [d[0] for d in dead_letters(workspace)] == [3, 4]
        assert all(d[3] == "data" and d[4] == "jsonl" for d in dead_letters(workspace))
        assert ledger(workspace) == [(1, 4, 4, 2, 0, 2)]
        assert counters(workspace) == (4, 4, 2, 0, 2, 2, 0, 0)

        c.commit(second)
        c.commit(third)
    finally:
        c.close()
    assert ledger(workspace) == [(1, 4, 4, 2, 0, 2), (5, 8, 4, 3, 0, 1), (9, 10, 2, 2, 0, 0)]
    assert counters(workspace) == (10, 10, 7, 0, 3, 3, 0, 0)
    assert sorted(r[-2] for r in warehouse(workspace, "pesanan")) == [1, 2, 5, 7, 8, 9, 10]
    assert [d[0] for d in dead_letters(workspace)] == [3, 4, 6]


def test_the_store_half_keeps_the_original_bytes(workspace: Workspace, seed_batch: Path) -> None:
    c = committer(workspace, PESANAN_2, seed_batch, "jsonl")
    (chunk,) = chunks_of(seed_batch, PESANAN_2, "jsonl", 100)
    c.commit(chunk)
    c.close()
    lines = seed_batch.read_bytes().split(b"\n")
    assert [(d[0], d[1]) for d in dead_letters(workspace)] == [
        (3, lines[2]),
        (4, lines[3]),
        (6, lines[5]),
    ]


@pytest.mark.parametrize(
    ("source", "transform", "fmt"),
    [("seed_batch", PESANAN_2, "jsonl"), ("seed_orders", ORDERS_1, "csv")],
)
def test_a_replayed_warehouse_half_changes_nothing(
    request: pytest.FixtureRequest,
    two_workspaces: tuple[Workspace, Workspace],
    source: str,
    transform: Transform,
    fmt: Format,
) -> None:
    """A crash between the two halves: the rerun writes the chunk to the warehouse again,
    then stores it once. The end is the same as a clean run's."""
    path: Path = request.getfixturevalue(source)
    chunks = chunks_of(path, transform, fmt, 2)
    assert len(chunks) >= 3
    clean, replayed = two_workspaces
    c = committer(clean, transform, path, fmt)
    for chunk in chunks:
        c.commit(chunk)
    c.close()

    r = committer(replayed, transform, path, fmt)
    for i, chunk in enumerate(chunks):
        if i != 1:
            r.commit(chunk)
            continue
        first = r.write(chunk)  # ... and the process died here
        before = wh_sha256(replayed.warehouse, transform)
        again = r.write(chunk)  # the resumed run
        assert wh_sha256(replayed.warehouse, transform) == before
        assert (again.loaded, again.superseded) == (first.loaded, first.superseded)
        assert [f.line for f in again.failures] == [f.line for f in first.failures]
        r.store(chunk, again)
    r.close()

    assert wh_sha256(replayed.warehouse, transform) == wh_sha256(clean.warehouse, transform)
    assert warehouse(replayed, transform.table) == warehouse(clean, transform.table)
    assert counters(replayed) == counters(clean)
    assert ledger(replayed) == ledger(clean)
    assert dead_letters(replayed) == dead_letters(clean)
    _lines_done, rows, loaded, superseded, quarantined, *_ = counters(replayed)
    assert rows == loaded + superseded + quarantined


def test_an_older_version_in_a_later_chunk_is_superseded_by_the_warehouse(
    workspace: Workspace, tmp_path: Path
) -> None:
    path = tmp_path / "o.csv"
    path.write_bytes(
        b"order_id,pelanggan,status,total,updated_at\n"
        b"7,Budi,Selesai,10,2026-01-03\n"
        b"7,Budi,Baru,10,2026-01-01\n"  # older, and later in the file
        b"8,Siti,Baru,5,2026-01-01\n"
    )
    first, second = chunks_of(path, ORDERS_1, "csv", 1)[:2]
    c = committer(workspace, ORDERS_1, path, "csv")
    c.commit(first)
    written = c.write(second)
    assert (written.loaded, written.superseded, written.failures) == (0, 1, [])
    again = c.write(second)  # replayed: still superseded, never loaded
    assert (again.loaded, again.superseded) == (0, 1)
    c.store(second, again)
    c.close()
    assert warehouse(workspace, "orders") == [
        (7, "Budi", "selesai", 10, "2026-01-03", BATCH, 2, "orders@1")
    ]
    assert ledger(workspace) == [(2, 2, 1, 1, 0, 0), (3, 3, 1, 0, 1, 0)]
    assert counters(workspace)[:4] == (3, 2, 1, 1)


def test_a_row_the_warehouse_refuses_becomes_a_data_dead_letter(
    workspace: Workspace, tmp_path: Path
) -> None:
    refused = order(2, qty=2, harga=TOO_BIG)
    negative = order(4, qty=-1)
    path = tmp_path / "big.jsonl"
    path.write_bytes(order(1) + b"\r\n" + refused + b"\r\n" + order(3) + b"\n" + negative + b"\n")
    (chunk,) = chunks_of(path, PESANAN_2, "jsonl", 100)
    assert len(chunk.rows) == 3  # the transform had nothing against it: 2 * TOO_BIG is an int
    c = committer(workspace, PESANAN_2, path, "jsonl")
    written = c.write(chunk)
    assert written.loaded == 2 and written.superseded == 0
    by_line = {f.line: f for f in written.failures}
    assert sorted(by_line) == [2, 4]
    sunk = by_line[2]
    assert sunk.raw == refused  # read back from the source, without its CRLF
    assert sunk.error_class is ErrorClass.DATA and sunk.traceback is None
    assert sunk.error.startswith("OverflowError: ")
    c.store(chunk, written)
    c.close()
    # The rest of the chunk loaded; the refused row is only in the store.
    assert sorted(r[0] for r in warehouse(workspace, "pesanan")) == [1, 3]
    assert [(d[0], d[1], d[3]) for d in dead_letters(workspace)] == [
        (2, refused, "data"),
        (4, negative, "data"),
    ]
    assert ledger(workspace) == [(1, 4, 4, 2, 0, 2)]
    assert counters(workspace) == (4, 4, 2, 0, 2, 2, 0, 0)


def test_a_refused_csv_row_is_read_back_by_its_record_line(
    workspace: Workspace, tmp_path: Path
) -> None:
    big = b"2,Siti,Baru,%d,2026-01-02" % 10**30
    path = tmp_path / "o.csv"
    path.write_bytes(
        b"order_id,pelanggan,status,total,updated_at\n"
        b'1,"Budi\nSantoso",Baru,10,2026-01-01\n' + big + b"\n"  # lines 2-3  # line 4
        b"3,Dewi,Baru,5,2026-01-03\n"
    )
    (chunk,) = chunks_of(path, ORDERS_1, "csv", 100)
    c = committer(workspace, ORDERS_1, path, "csv")
    c.commit(chunk)
    c.close()
    assert [(d[0], d[1], d[3], d[4]) for d in dead_letters(workspace)] == [(4, big, "data", "csv")]
    assert dead_letters(workspace)[0][2].startswith("OverflowError: ")
    assert sorted(r[0] for r in warehouse(workspace, "orders")) == [1, 3]
    assert ledger(workspace) == [(2, 5, 3, 2, 0, 1)]


def test_a_refused_first_line_after_a_bom_is_stored_without_it(
    workspace: Workspace, tmp_path: Path
) -> None:
    refused = order(1, qty=2, harga=TOO_BIG)
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + refused + b"\n" + order(2) + b"\n")
    (chunk,) = chunks_of(path, PESANAN_2, "jsonl", 100)
    c = committer(workspace, PESANAN_2, path, "jsonl")
    c.commit(chunk)
    c.close()
    assert [(d[0], d[1]) for d in dead_letters(workspace)] == [(1, refused)]
