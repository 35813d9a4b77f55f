#!/usr/bin/env python3
"""`triage-app redrive` of a whole quarantined batch against a fresh `triage-app run` of the
same rows, measured in the same run.

The scene (issues 11 and 23): a release with a code bug quarantines every row of a batch (orders
whose ``diskon`` is null, which ``pesanan@1`` mishandles). The fix ships as ``pesanan@2``
and a steward re-drives the whole batch. Target: the re-drive takes at most 2x the time of
a fresh batch of the same rows through ``pesanan@2`` (ratio <= 2.0), peak RSS of the
process tree under 200 MB.

Each round copies a quarantined workspace made once (workspace A: the file through
``pesanan@1``; the copy is not timed), then runs, interleaved, the fresh batch into an
empty workspace B and the re-drive on the copy of A; medians of each. Both leave the same
warehouse: checked after the first round.

    python benchmarks/bench_redrive.py [--rows 200000] [--repeat 3]
    python benchmarks/bench_redrive.py --postgres postgresql://127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import orjson

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

from bench_run import cpu_of_children, measure  # noqa: E402

PRODUCTS = ("Kemeja Batik", "Kain Songket", "Blouse Katun", "Seluar Linen", "Rok Tenun")


def null_discount_order(n: int) -> dict[str, object]:
    """A valid order whose ``diskon`` is null: fails ``pesanan@1``, loads with ``pesanan@2``."""
    return {
        "pesanan_id": n,
        "waktu": f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00",
        "pelanggan": ("Budi", "Siti", "Dewi", "Rina")[n % 4],
        "produk": PRODUCTS[n % 5],
        "qty": 1 + n % 5,
        "harga": 120_000 + 30_000 * (n % 5),
        "diskon": None,
    }


def null_discount_batch(path: Path, rows: int) -> Path:
    """``rows`` such orders: all fail pesanan@1, all load with @2."""
    with path.open("wb") as f:
        for n in range(1, rows + 1):
            f.write(orjson.dumps(null_discount_order(n)) + b"\n")
    return path


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "triage_app", *args]


class Stores:
    """Where workspace A (the quarantined batch) and each fresh workspace B live: SQLite
    folders, or schemas of one PostgreSQL database."""

    def __init__(self, work: Path, pg: str | None) -> None:
        self.work = work
        # libpq's form for psycopg here; SQLAlchemy's (postgresql+psycopg) for the app.
        self.pg = pg.replace("postgresql+psycopg://", "postgresql://", 1) if pg else None
        self.schemas: list[str] = []

    def args(self, name: str) -> list[str]:
        if self.pg is None:
            return ["--workspace", str(self.work / name)]
        # One database, two schemas per workspace (warehouse, store), made fresh.
        wh, dl = f"b{uuid.uuid4().hex[:10]}_wh", f"b{uuid.uuid4().hex[:10]}_dl"
        self._sql(f"CREATE SCHEMA {wh}; CREATE SCHEMA {dl};")
        self.schemas += [wh, dl]
        sep = "&" if "?" in self.pg else "?"
        opt = f"{sep}options=-csearch_path%3D"
        base = self.pg.replace("postgresql://", "postgresql+psycopg://", 1)
        return ["--warehouse", f"{base}{opt}{wh}", "--dead-letter", f"{base}{opt}{dl}"]

    def copy(self, template: list[str], name: str) -> list[str]:
        if self.pg is None:
            src, dst = Path(template[1]), self.work / name
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
            return ["--workspace", str(dst)]
        new = self.args(name)
        for t_url, n_url in zip(template[1::2], new[1::2], strict=True):
            t_schema, n_schema = t_url.rsplit("%3D", 1)[1], n_url.rsplit("%3D", 1)[1]
            self._copy_schema(t_schema, n_schema)
        return new

    def _sql(self, sql: str) -> list[tuple[object, ...]]:
        import psycopg

        assert self.pg is not None
        with psycopg.connect(self.pg, autocommit=True) as conn:
            cur = conn.execute(sql)
            return cur.fetchall() if cur.description else []

    def _copy_schema(self, src: str, dst: str) -> None:
        tables = [
            r[0]
            for r in self._sql(
                f"SELECT tablename FROM pg_tables WHERE schemaname = '{src}' ORDER BY tablename"
            )
        ]
        stmts = [
            f"CREATE TABLE {dst}.{t} (LIKE {src}.{t} INCLUDING ALL); "
            f"INSERT INTO {dst}.{t} SELECT * FROM {src}.{t};"
            for t in tables
        ]
        self._sql(" ".join(stmts))
        # Sequences: LIKE copies the default that names the source's sequence; move it on.
        for table, column in self._sql(
            "SELECT table_name, column_name FROM information_schema.columns "
            f"WHERE table_schema = '{dst}' AND column_default LIKE 'nextval%'"
        ):
            seq = f"{dst}.{table}_{column}_seq"
            self._sql(
                f"CREATE SEQUENCE {seq}; "
                f"ALTER TABLE {dst}.{table} ALTER COLUMN {column} SET DEFAULT nextval('{seq}'); "
                f"SELECT setval('{seq}', coalesce((SELECT max({column}) FROM {dst}.{table}), 0)"
                " + 1, false);"
            )

    def drop(self) -> None:
        if self.pg is not None and self.schemas:
            self._sql(" ".join(f"DROP SCHEMA IF EXISTS {s} CASCADE;" for s in self.schemas))

    def counts(self, ws_args: list[str]) -> tuple[int, int]:
        """Resolved dead letters, warehouse rows."""
        if self.pg is None:
            ws = Path(ws_args[1])
            with sqlite3.connect(ws / "dead_letter.db") as c:
                resolved = c.execute(
                    "SELECT count(*) FROM dead_letters WHERE status = 'resolved'"
                ).fetchone()[0]
            with sqlite3.connect(ws / "warehouse.db") as c:
                loaded = c.execute("SELECT count(*) FROM pesanan").fetchone()[0]
            return resolved, loaded
        wh, dl = (u.rsplit("%3D", 1)[1] for u in ws_args[1::2])
        resolved = self._sql(f"SELECT count(*) FROM {dl}.dead_letters WHERE status = 'resolved'")
        loaded = self._sql(f"SELECT count(*) FROM {wh}.pesanan")
        return int(resolved[0][0]), int(loaded[0][0])  # type: ignore[call-overload]

    def warehouse_sha(self, ws_args: list[str]) -> str:
        from triage_app.core.db import open_workspace, table_sha256
        from triage_app.core.transforms import default_registry

        t = default_registry().get("pesanan@2")
        if self.pg is None:
            with open_workspace(ws_args[1]) as ws:
                return table_sha256(ws.warehouse, t)
        with open_workspace(warehouse_url=ws_args[1], dead_letter_url=ws_args[3]) as ws:
            return table_sha256(ws.warehouse, t)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: temp)")
    ap.add_argument(
        "--postgres", metavar="URL", default=None, help="run both on this PostgreSQL database"
    )
    a = ap.parse_args()

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = a.work or Path(tempfile.mkdtemp(prefix="triage-bench-redrive-"))
    work.mkdir(parents=True, exist_ok=True)
    stores = Stores(work, a.postgres)
    try:
        return _bench(a, work, stores)
    finally:
        stores.drop()
        if a.work is None:
            shutil.rmtree(work, ignore_errors=True)


def _bench(a: argparse.Namespace, work: Path, stores: Stores) -> int:
    src = null_discount_batch(work / f"nulls_{a.rows}.jsonl", a.rows)
    where = "PostgreSQL" if a.postgres else "SQLite"
    print(f"batch: {a.rows:,} orders, all diskon null, {src.stat().st_size / 1e6:.0f} MB; {where}")
    template = stores.args("A")
    wall, peak, out = measure(cli(*template, "run", str(src), "--transform", "pesanan@1", "--json"))
    batch_id = orjson.loads(out)["batch_id"]
    print(f"workspace A: every row quarantined by pesanan@1 in {wall:.2f} s ({peak:.0f} MB)")
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} over the last minute")

    times: dict[str, list[float]] = {"fresh": [], "redrive": []}
    rss: dict[str, list[float]] = {k: [] for k in times}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    summary = ""
    for i in range(a.repeat):
        victim = stores.copy(template, f"A{i}")
        fresh = stores.args(f"B{i}")
        runs = {
            "fresh": cli(*fresh, "run", str(src), "--transform", "pesanan@2"),
            "redrive": cli(*victim, "redrive", "--batch", batch_id, "--transform", "pesanan@2"),
        }
        for name, cmd in runs.items():
            before = cpu_of_children()
            wall, peak, out = measure(cmd)
            times[name].append(wall)
            rss[name].append(peak)
            cpu[name].append(cpu_of_children() - before)
            if name == "redrive":
                summary = out.strip().splitlines()[0]
            print(
                f"  round {i + 1}: {name:7} {wall:6.2f} s  {peak:6.0f} MB  "
                f"cpu {cpu[name][-1]:5.2f} s",
                flush=True,
            )
        resolved, loaded = stores.counts(victim)
        if (resolved, loaded) != (a.rows, a.rows):
            sys.exit(f"the re-drive left {resolved:,} resolved and {loaded:,} loaded")
        if i == 0 and stores.warehouse_sha(victim) != stores.warehouse_sha(fresh):
            sys.exit("the re-drive's warehouse differs from the fresh batch's")
        if a.postgres is None:
            shutil.rmtree(work / f"A{i}", ignore_errors=True)
            shutil.rmtree(work / f"B{i}", ignore_errors=True)

    print(f"\nre-drive said: {summary[:200]}")
    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"\n{'':9}{'median s':>10}{'rows/s':>12}{'peak MB':>10}{'cpu s':>8}")
    for k in ("fresh", "redrive"):
        print(f"{k:9}{med[k]:10.2f}{a.rows / med[k]:12,.0f}{max(rss[k]):10.0f}{med_cpu[k]:8.2f}")
    ratio = med["redrive"] / med["fresh"]
    verdict = "met" if ratio <= 2.0 else "MISSED"
    print(f"\nredrive / fresh = {ratio:.2f}  (target <= 2.0: {verdict})")
    print(f"cpu: redrive / fresh = {med_cpu['redrive'] / med_cpu['fresh']:.2f}")
    peak = max(max(v) for v in rss.values())
    print(f"peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")
    print(f"load average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
