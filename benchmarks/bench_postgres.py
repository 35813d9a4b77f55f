#!/usr/bin/env python3
"""`triage-app run` with both stores on PostgreSQL, against the COPY floor, in the same run.

Target (issues 11 and 23): at most 1.0x the floor in benchmarks/references/pg_copy_floor.py
(orjson, COPY into a staging table, one INSERT ... ON CONFLICT), peak RSS of the process
tree under 200 MB. The server's own processes are not in the tree and not counted.

Each side gets fresh schemas every round (warehouse and dead-letter store apart for ours,
as ``tests/conftest.py`` ``pg_urls`` does), dropped afterwards. Runs are interleaved
(floor, ours, floor, ours, ...); medians are reported.

    python benchmarks/bench_postgres.py [--rows 300000] [--repeat 3] [--pg URL]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench_run import cpu_of_children, measure  # noqa: E402

PG_BASE = os.environ.get("TRIAGE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def generated(work: Path, rows: int, bad: float) -> Path:
    """A batch from the project's generator, made once per scratch folder and bad share."""
    from triage_app.core.demo import write_orders

    path = work / f"batch_{rows}_{bad}.jsonl"
    if not path.exists():
        write_orders(path, rows, bad)
    return path


class Schemas:
    """Fresh schemas on the server, each dropped at the end whatever happened."""

    def __init__(self, base: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        self.url = make_url(base)
        self.conn = psycopg.connect(
            host=self.url.host,
            port=self.url.port or 5432,
            user=self.url.username,
            dbname=self.url.database,
            autocommit=True,
        )
        self.made: list[str] = []

    def new(self, kind: str) -> str:
        name = f"bench_{kind}_{uuid.uuid4().hex[:10]}"
        self.conn.execute(f"CREATE SCHEMA {name}")
        self.made.append(name)
        return name

    def sqlalchemy_url(self, schema: str) -> str:
        return self.url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False
        )

    def libpq(self) -> str:
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def drop_all(self) -> None:
        for s in self.made:
            self.conn.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        self.made.clear()

    def close(self) -> None:
        self.drop_all()
        self.conn.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--bad", type=float, default=0.001)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pg", default=PG_BASE, help="server (SQLAlchemy URL, no search_path)")
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: temp)")
    a = ap.parse_args()

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    work = a.work or Path(tempfile.mkdtemp(prefix="triage-bench-pg-"))
    work.mkdir(parents=True, exist_ok=True)
    src = generated(work, a.rows, a.bad)
    print(f"batch: {a.rows:,} rows, {src.stat().st_size / 1e6:.0f} MB, bad share {a.bad}")
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} over the last minute")

    schemas = Schemas(a.pg)
    times: dict[str, list[float]] = {"floor": [], "ours": []}
    rss: dict[str, list[float]] = {k: [] for k in times}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    env = {**os.environ, "TRIAGE_WORKSPACE": str(work / "ws")}
    try:
        for i in range(a.repeat):
            fl = schemas.new("floor")
            wh, dl = schemas.new("wh"), schemas.new("dl")
            runs = {
                "floor": [
                    sys.executable,
                    str(HERE / "references" / "pg_copy_floor.py"),
                    str(src),
                    schemas.libpq(),
                    fl,
                ],
                "ours": [
                    sys.executable,
                    "-m",
                    "triage_app",
                    "--warehouse",
                    schemas.sqlalchemy_url(wh),
                    "--dead-letter",
                    schemas.sqlalchemy_url(dl),
                    "run",
                    str(src),
                    "--transform",
                    "pesanan@2",
                    "--json",
                ],
            }
            for name, cmd in runs.items():
                before = cpu_of_children()
                wall, peak, _out = measure(cmd, env)
                times[name].append(wall)
                rss[name].append(peak)
                cpu[name].append(cpu_of_children() - before)
                print(
                    f"  round {i + 1}: {name:5} {wall:6.2f} s  {peak:6.0f} MB  "
                    f"cpu {cpu[name][-1]:5.2f} s",
                    flush=True,
                )
            schemas.drop_all()
    finally:
        schemas.close()

    med = {k: statistics.median(v) for k, v in times.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"\n{'':8}{'median s':>10}{'rows/s':>12}{'peak MB':>10}{'cpu s':>8}")
    for k in times:
        print(f"{k:8}{med[k]:10.2f}{a.rows / med[k]:12,.0f}{max(rss[k]):10.0f}{med_cpu[k]:8.2f}")
    ratio = med["ours"] / med["floor"]
    print(f"\nours / floor = {ratio:.2f}  (target <= 1.00: {'met' if ratio <= 1.0 else 'MISSED'})")
    peak = max(rss["ours"])
    print(f"ours peak RSS = {peak:.0f} MB (target < 200: {'met' if peak < 200 else 'MISSED'})")
    print(f"load average now {os.getloadavg()[0]:.2f}")
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
