"""On SQLite the warehouse writes a hundred rows per statement. Blocks must change nothing
but speed: the same table, the same counts, one refused row failing alone."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from triage_app.core.db import WarehouseWriter, open_workspace
from triage_app.core.transforms import default_registry

PESANAN = default_registry().get("pesanan@2")
BATCH = "0123456789abcdef"


def row(key: int, line: int, qty: Any = 1) -> tuple[Any, ...]:
    return (key, "2026-01-12", "Budi", "Kain", qty, 10, 10 * qty if type(qty) is int else 0, line)


def table(ws_dir: Path) -> list[tuple[Any, ...]]:
    with open_workspace(ws_dir) as ws, ws.warehouse.connect() as conn:
        return [tuple(r) for r in conn.execute(text("SELECT * FROM pesanan ORDER BY 1"))]


@pytest.fixture
def writer(tmp_path: Path):  # type: ignore[no-untyped-def]
    ws = open_workspace(tmp_path / "ws")
    w = WarehouseWriter(ws.warehouse, PESANAN, BATCH)
    assert w.blocks is not None and w.blocks.rows == 100
    yield w
    ws.close()


def test_blocks_and_the_remainder_all_land(writer: WarehouseWriter, tmp_path: Path) -> None:
    rows = [row(k, k) for k in range(1, 251)]  # two blocks and 50 rows one by one
    result = writer.upsert(rows)
    assert (result.changed, result.failed) == (250, [])
    assert table(tmp_path / "ws") == [(*r[:7], BATCH, r[7], PESANAN.ref) for r in rows]


def test_one_refused_row_fails_alone(writer: WarehouseWriter, tmp_path: Path) -> None:
    rows = [row(k, k) for k in range(1, 251)]
    rows[150] = row(151, 151, qty=2**70)  # too large for SQLite's INTEGER
    result = writer.upsert(rows)
    assert result.changed == 249
    assert [i for i, _ in result.failed] == [150]
    assert "too large" in result.failed[0][1]
    assert [r[0] for r in table(tmp_path / "ws")] == [k for k in range(1, 251) if k != 151]


def test_rows_of_the_wrong_width_never_shift_values(
    writer: WarehouseWriter, tmp_path: Path
) -> None:
    """One short row and one long row in the same block: flattened, each later value would
    land in the wrong column. They fail alone instead, and the rest land intact."""
    rows: list[tuple[Any, ...]] = [row(k, k) for k in range(1, 201)]
    rows[10] = (*rows[10][:-2], 11)  # a value short
    rows[20] = (*rows[20][:-1], "extra", 21)  # a value long
    result = writer.upsert(rows)
    assert sorted(i for i, _ in result.failed) == [10, 20]
    want = [(*r[:7], BATCH, r[7], PESANAN.ref) for i, r in enumerate(rows) if i not in (10, 20)]
    assert table(tmp_path / "ws") == want


def test_a_key_twice_in_one_block_keeps_the_later_row(
    writer: WarehouseWriter, tmp_path: Path
) -> None:
    rows = [row(k, k) for k in range(1, 201)]
    rows[50] = row(7, 51, qty=3)  # key 7 again, later in the same block
    result = writer.upsert(rows)
    assert result.changed == 200  # an insert and an update both change a row
    got = {r[0]: r for r in table(tmp_path / "ws")}
    assert got[7][4] == 3 and got[7][8] == 51


@pytest.mark.parametrize("apart", [False, True])
def test_checkpoints_kept_apart_leave_the_commit_and_run_from_a_thread(
    tmp_path: Path, apart: bool
) -> None:
    """With two lanes the writer's commits never checkpoint; a lane's thread does. The
    database file grows only when a checkpoint copies pages from the WAL into it."""
    ws = open_workspace(tmp_path / "ws")
    w = WarehouseWriter(ws.warehouse, PESANAN, BATCH, checkpoints_apart=apart)
    db = tmp_path / "ws" / "warehouse.db"
    w.upsert([row(k, k) for k in range(1, 80_001)])  # about 2,000 pages of WAL
    if not apart:
        assert db.stat().st_size > 2_000_000  # SQLite checkpointed at 1,000 pages
    else:
        assert db.stat().st_size < 100_000  # everything is still in the WAL
        worker = threading.Thread(target=w.checkpoint)
        worker.start()
        worker.join()
        assert db.stat().st_size > 4_000_000
    assert len(table(tmp_path / "ws")) == 80_000
    ws.close()
