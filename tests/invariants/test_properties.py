"""Property-based: random batches with random defects, re-sent versions and orderings end
in the same warehouse whatever the chunk size, the order of the files, the number of
lanes, and where the run was interrupted. The oracle is the newest valid version per key.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.progress import NoProgress

HEADER = "order_id,pelanggan,status,total,updated_at"
EXAMPLES = 40
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[str], dict[int, tuple[Any, ...]]]:
    """CSV lines (no header) and the oracle: the warehouse they must produce."""
    n = draw(st.integers(min_value=0, max_value=60))
    keys = draw(st.lists(st.integers(1, 12), min_size=n, max_size=n))
    # Distinct timestamps: with ties, "newest" would depend on arrival order by definition.
    stamps = draw(st.permutations(range(n)))
    lines: list[str] = []
    best: dict[int, tuple[int, tuple[Any, ...]]] = {}
    for key, stamp in zip(keys, stamps, strict=True):
        defect = draw(st.sampled_from(["ok"] * 6 + ["negative", "missing", "garbage", "ragged"]))
        status = draw(st.sampled_from(["Baru", "Dibayar", "Selesai", "BATAL"]))
        total = draw(st.integers(0, 10**6))
        at = f"2026-01-09T{stamp // 60:02d}:{stamp % 60:02d}:00"
        if defect == "negative":
            lines.append(f"{key},Budi,{status},-{total + 1},{at}")
        elif defect == "missing":
            lines.append(f"{key},Budi,,{total},{at}")
        elif defect == "garbage":
            lines.append('"\x01,,"oops')
        elif defect == "ragged":
            lines.append(f"{key},Budi,{status}")
        else:
            lines.append(f"{key},Budi,{status},{total},{at}")
            row = (key, "Budi", status.lower(), total, at)
            if key not in best or best[key][0] < stamp:
                best[key] = (stamp, row)
    return lines, {k: v[1] for k, v in best.items()}


def warehouse(ws_dir: Path) -> dict[int, tuple[Any, ...]]:
    with open_workspace(ws_dir) as ws:
        if not inspect(ws.warehouse).get_table_names():
            return {}
        with ws.warehouse.connect() as conn:
            rows = conn.execute(
                text("SELECT order_id, pelanggan, status, total, updated_at FROM orders")
            ).all()
    return {r[0]: tuple(r) for r in rows}


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join([HEADER, *lines]) + "\n")
    return path


@pytest.mark.slow
@SETTINGS
@given(batch=batches(), chunk=st.integers(1, 70), lanes=st.sampled_from([1, 2]))
def test_any_chunk_size_and_lanes(
    batch: tuple[list[str], dict[int, Any]], chunk: int, lanes: int
) -> None:
    lines, want = batch
    with tempfile.TemporaryDirectory() as tmp:
        src = write(Path(tmp) / "b.csv", lines)
        with open_workspace(Path(tmp) / "ws") as ws:
            s = run_batch(ws, src, "orders@1", chunk_size=chunk, lanes=lanes)
        assert s.rows == len(lines) == s.loaded + s.superseded + s.quarantined
        assert warehouse(Path(tmp) / "ws") == want


@SETTINGS
@given(batch=batches(), parts=st.integers(1, 4), data=st.data())
def test_any_order_of_files(
    batch: tuple[list[str], dict[int, Any]], parts: int, data: st.DataObject
) -> None:
    lines, want = batch
    cuts = sorted(
        data.draw(st.lists(st.integers(0, len(lines)), min_size=parts - 1, max_size=parts - 1))
    )
    pieces = [lines[a:b] for a, b in zip([0, *cuts], [*cuts, len(lines)], strict=True)]
    order = data.draw(st.permutations(range(len(pieces))))
    with tempfile.TemporaryDirectory() as tmp:
        with open_workspace(Path(tmp) / "ws") as ws:
            for i in order:
                run_batch(
                    ws, write(Path(tmp) / f"part{i}.csv", pieces[i]), "orders@1", chunk_size=7
                )
        assert warehouse(Path(tmp) / "ws") == want


class _StopAfter(NoProgress):
    """Cancels the run after ``n`` progress reports (one per committed chunk)."""

    def __init__(self, n: int) -> None:
        self.left = n

    def update(self, done: int, total: int, rows: int = 0) -> None:
        self.left -= 1

    def cancelled(self) -> bool:
        return self.left <= 0


@SETTINGS
@given(batch=batches(), chunk=st.integers(1, 20), stops=st.lists(st.integers(1, 4), max_size=3))
def test_any_interruption_point(
    batch: tuple[list[str], dict[int, Any]], chunk: int, stops: list[int]
) -> None:
    lines, want = batch
    with tempfile.TemporaryDirectory() as tmp:
        src = write(Path(tmp) / "b.csv", lines)
        with open_workspace(Path(tmp) / "ws") as ws:
            for n in stops:  # interrupted, then resumed, as often as drawn
                s = run_batch(ws, src, "orders@1", chunk_size=chunk, progress=_StopAfter(n))
                if not s.cancelled:
                    break
            final = run_batch(ws, src, "orders@1", chunk_size=chunk)
        assert final.rows == len(lines) == final.loaded + final.superseded + final.quarantined
        assert warehouse(Path(tmp) / "ws") == want
