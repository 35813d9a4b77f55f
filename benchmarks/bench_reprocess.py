#!/usr/bin/env python3
"""`reprocess` of every row a wrong version loaded, against a fresh batch of the same rows,
measured in the same run.

The scene (issue 25): a ``pesanan@1`` that forgot the discount loaded a night's orders with
wrong totals for those that had one. The fix is ``pesanan@2``; a steward reprocesses every
row ``pesanan@1`` wrote: a dry run first (it reads every row and its kept source), then the
apply (the changed rows updated, guarded by their lineage). Each round copies a workspace made
once (the copy is not timed) and times, interleaved, the dry run and the apply on the copy
and a fresh batch of the same file through ``pesanan@2`` into an empty workspace; medians.

    python benchmarks/bench_reprocess.py [--rows 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from triage_app.core.batch import run_batch  # noqa: E402
from triage_app.core.db import open_workspace  # noqa: E402
from triage_app.core.reprocess import reprocess  # noqa: E402
from triage_app.core.transforms import Registry, Transform  # noqa: E402
from triage_app.core.transforms.pesanan import COLUMNS, TRANSFORMS, _fields  # noqa: E402


def forgetful_v1(record: Any) -> tuple[Any, ...]:
    pid, waktu, pelanggan, produk, qty, harga = _fields(record)
    return (pid, waktu, pelanggan, produk, qty, harga, qty * harga)  # the discount forgotten


def registry() -> Registry:
    reg = Registry()
    reg.register(Transform("pesanan", 1, "pesanan", "pesanan_id", COLUMNS, forgetful_v1))
    reg.register(TRANSFORMS[1])
    return reg


def night(path: Path, rows: int) -> Path:
    rnd = random.Random(25)
    with path.open("wb") as f:
        for n in range(1, rows + 1):
            order = {
                "pesanan_id": n,
                "waktu": f"2026-11-{1 + n % 28:02d}T{n % 24:02d}:00:00",
                "pelanggan": ("Budi", "Siti", "Dewi", "Rina")[n % 4],
                "produk": ("Kemeja Batik", "Kain Songket", "Tas Rotan")[n % 3],
                "qty": 1 + n % 5,
                "harga": 120_000 + 30_000 * (n % 5),
                "diskon": rnd.choice([0, 0, 5_000, 10_000]),  # half of them discounted
            }
            f.write(orjson.dumps(order) + b"\n")
    return path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        source = night(root / "night.jsonl", args.rows)
        with open_workspace(root / "made") as ws:
            run_batch(ws, source, "pesanan@1", registry=registry())
        dry, apply, fresh = [], [], []
        for i in range(args.repeat):
            copy = root / f"copy{i}"
            shutil.copytree(root / "made", copy)
            with open_workspace(copy) as ws:
                t = time.perf_counter()
                d = reprocess(ws, "pesanan@1", "pesanan@2", dry_run=True, registry=registry())
                dry.append(time.perf_counter() - t)
                t = time.perf_counter()
                a = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry(), keep_verdicts=0)
                apply.append(time.perf_counter() - t)
            assert a.applied == d.changed > 0, (a.applied, d.changed)
            with open_workspace(root / f"fresh{i}") as ws:
                t = time.perf_counter()
                run_batch(ws, source, "pesanan@2", registry=registry())
                fresh.append(time.perf_counter() - t)
            shutil.rmtree(copy)
            shutil.rmtree(root / f"fresh{i}")
        f = statistics.median(fresh)
        print(f"rows {args.rows:,}, changed {d.changed:,} (median of {args.repeat})")
        print(f"fresh batch through pesanan@2: {f:.2f} s")
        print(
            f"reprocess dry run:             {statistics.median(dry):.2f} s  "
            f"ratio {statistics.median(dry) / f:.2f}"
        )
        print(
            f"reprocess apply:               {statistics.median(apply):.2f} s  "
            f"ratio {statistics.median(apply) / f:.2f}"
        )


if __name__ == "__main__":
    main()
