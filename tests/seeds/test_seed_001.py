"""The seed's idempotent pipeline (document 001): two runs, identical target hash."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from sqlalchemy import text

from tests.support import SEED_ORDERS
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, open_workspace, table_sha256
from triage_app.core.transforms.orders import TRANSFORMS

ORDERS = TRANSFORMS[0]


def test_two_runs_identical_hash(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / SEED_ORDERS.name
    shutil.copyfile(SEED_ORDERS, src)
    first = run_batch(workspace, src, "orders@1")
    h1 = table_sha256(workspace.warehouse, ORDERS)
    second = run_batch(workspace, src, "orders@1")
    h2 = table_sha256(workspace.warehouse, ORDERS)
    assert h1 == h2
    assert (first.rows, first.loaded, first.superseded, first.quarantined) == (6, 4, 2, 0)
    assert second.already_loaded and second.batch_id == first.batch_id
    with workspace.warehouse.connect() as conn:
        rows = conn.execute(text("SELECT order_id, status FROM orders ORDER BY 1")).all()
    # 3001 arrived three times; its newest version says Selesai, lower-cased.
    assert rows == [(3001, "selesai"), (3002, "dibayar"), (3003, "baru"), (3004, "dibayar")]


def test_newest_wins_in_any_order(tmp_path: Path) -> None:
    """Invariant 3: the same versions split over files run in any order end the same."""
    header, *lines = SEED_ORDERS.read_text().splitlines()
    hashes = set()
    for seed in range(6):
        rnd = random.Random(seed)
        shuffled = lines[:]
        rnd.shuffle(shuffled)
        ws = open_workspace(tmp_path / f"ws{seed}")
        for i in range(0, len(shuffled), 2):  # three files of two rows, one after another
            part = tmp_path / f"orders_{seed}_{i}.csv"
            part.write_text("\n".join([header, *shuffled[i : i + 2]]) + "\n")
            run_batch(ws, part, "orders@1", chunk_size=1)
        hashes.add(table_sha256(ws.warehouse, ORDERS))
        with ws.warehouse.connect() as conn:
            status = conn.execute(text("SELECT status FROM orders WHERE order_id=3001")).scalar()
        assert status == "selesai"
        ws.close()
    assert len(hashes) == 1
