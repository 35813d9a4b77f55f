"""Trends over 1,000,000 dead letters spread over 90 days and 200 batches: the Trends tab's
render and ``stats --json`` as a subprocess.

Not a timed test: run it by hand and read the figures.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_trends.py [--store DIR]

``--store DIR`` keeps (or reuses) the filled store, so a second run skips the fill.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from triage_app.core.db import open_workspace

REPO = Path(__file__).resolve().parent.parent

DAYS = 90
# (class, signature, one stored message); a spike batch draws mostly from the code rows.
SIGNATURES = [
    ("data", "DataError: qty tidak valid: <n>", "DataError: qty tidak valid: -1"),
    ("data", "DataError: kolom wajib hilang: qty", "DataError: kolom wajib hilang: qty"),
    ("data", "DataError: harga tidak valid: <s>", "DataError: harga tidak valid: 'abc'"),
    (
        "data",
        "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)",
        "JSONDecodeError: unexpected end of data: line 1 column 72 (char 71)",
    ),
    ("data", "DataError: tanggal tidak valid: <s>", "DataError: tanggal tidak valid: '2026-13'"),
    (
        "code",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
    ),
    ("code", "KeyError: <s>", "KeyError: 'diskon'"),
    ("transient", "TimeoutError: warehouse busy", "TimeoutError: warehouse busy"),
]
DATA_SIGS = [s for s in SIGNATURES if s[0] == "data"]
CODE_SIGS = [s for s in SIGNATURES if s[0] == "code"]
TRANSIENT_SIGS = [s for s in SIGNATURES if s[0] == "transient"]


def _plan_batches(total: int, batches: int, t0: dt.datetime, rnd: random.Random) -> list[dict]:
    """200 batches over 90 days. pesanan@2 is released twice: the first time it breaks the
    transform (a spike of code failures) and is rolled back; the last batch is the second
    release, and breaks it again (the banner's case)."""
    plan = []
    spikes = {int(batches * 0.55), batches - 1}
    for b in range(batches):
        rows = rnd.randrange(80_000, 120_000)
        rate = rnd.uniform(0.03, 0.06) * (4.5 if b in spikes else 1.0)
        start = t0 + dt.timedelta(days=DAYS * b / batches, minutes=rnd.randrange(0, 300))
        plan.append(
            {
                "b": b,
                "rows": rows,
                "rate": rate,
                "start": start,
                "spike": b in spikes,
                "transform": "pesanan@2" if b in spikes else "pesanan@1",
            }
        )
    weights = [p["rows"] * p["rate"] for p in plan]
    scale = total / sum(weights)
    counts = [int(w * scale) for w in weights]
    counts[-1] += total - sum(counts)
    for p, n in zip(plan, counts, strict=True):
        p["quarantined"] = n
    return plan


def fill_store(folder: Path, total: int = 1_000_000, batches: int = 200) -> None:
    """Bulk-insert the dead letters, their batches and audit events with executemany."""
    rnd = random.Random(5)
    t0 = dt.datetime(2026, 1, 1)
    now = t0 + dt.timedelta(days=DAYS)
    plan = _plan_batches(total, batches, t0, rnd)
    with open_workspace(folder) as ws:
        raw = ws.store.raw_connection()
        try:
            cur = raw.cursor()
            dl_id = 0
            ev_id = 0
            for p in plan:
                bid = f"{p['b']:04d}{rnd.getrandbits(48):012x}"
                n = p["quarantined"]
                by_class = {"data": 0, "code": 0, "transient": 0}
                dls = []
                events = []
                for i in range(n):
                    r = rnd.random()
                    if p["spike"]:
                        pool = CODE_SIGS if r < 0.75 else DATA_SIGS
                    else:
                        pool = DATA_SIGS if r < 0.72 else CODE_SIGS if r < 0.9 else TRANSIENT_SIGS
                    cls, sig, err = rnd.choice(pool)
                    by_class[cls] += 1
                    line = 1 + (i * p["rows"]) // n
                    at = p["start"] + dt.timedelta(seconds=line // 200)
                    age = (now - at).days
                    u = rnd.random()
                    resolve_share = min(0.92, age / 40)
                    resolved_at = None
                    if u < resolve_share:
                        status = "resolved"
                        resolved_at = min(now, at + dt.timedelta(hours=rnd.randrange(2, 24 * 12)))
                        attempts = 1 + (rnd.random() < 0.25)
                    elif u < resolve_share + 0.03:
                        status, attempts = "discarded", 1
                    elif u < resolve_share + 0.07:
                        status, attempts = "parked", 3
                    else:
                        status, attempts = "open", 1 + (rnd.random() < 0.3)
                    payload = (
                        b'{"pesanan_id": %d, "waktu": "2026-01-10T09:15:00", "pelanggan": '
                        b'"Budi", "produk": "Kemeja Batik", "qty": -1, "harga": 250000}' % line
                    )
                    dl_id += 1
                    last = at + dt.timedelta(hours=6 * (attempts - 1))
                    dls.append(
                        (
                            dl_id,
                            bid,
                            line,
                            payload,
                            payload,
                            "jsonl",
                            err,
                            cls,
                            sig,
                            None,
                            attempts,
                            status,
                            p["transform"],
                            at,
                            last,
                            resolved_at,
                        )
                    )
                    ev_id += 1
                    events.append((ev_id, dl_id, at, "bench", "quarantined", err))
                    if status in ("resolved", "discarded"):
                        ev_id += 1
                        when = resolved_at or min(now, at + dt.timedelta(days=3))
                        events.append((ev_id, dl_id, when, "bench", status, ""))
                cur.execute(
                    "INSERT INTO batches (batch_id, source_name, source_sha256, transform, "
                    "format, state, lines_done, rows, loaded, superseded, quarantined, q_data, "
                    "q_code, q_transient, seconds, started_at, finished_at) VALUES "
                    "(?, ?, ?, ?, 'jsonl', 'complete', ?, ?, ?, 0, ?, ?, ?, ?, 9.5, ?, ?)",
                    (
                        bid,
                        f"pesanan_{p['start']:%Y-%m-%d}_{p['b']}.jsonl",
                        f"{p['b']:064x}",
                        p["transform"],
                        p["rows"],
                        p["rows"],
                        p["rows"] - n,
                        n,
                        by_class["data"],
                        by_class["code"],
                        by_class["transient"],
                        p["start"],
                        p["start"] + dt.timedelta(minutes=3),
                    ),
                )
                cur.executemany(
                    "INSERT INTO dead_letters (id, batch_id, line, original_payload, payload, "
                    "payload_kind, error, error_class, signature, traceback, attempts, status, "
                    "transform, first_failed_at, last_failed_at, resolved_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    dls,
                )
                cur.executemany(
                    "INSERT INTO audit_events (id, dead_letter_id, at, actor, action, detail) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    events,
                )
                raw.commit()
            cur.execute("ANALYZE")
            raw.commit()
        finally:
            raw.close()


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _best(fn: Callable[[], object], runs: int = 3) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="dead letters in the store")
    ap.add_argument("--batches", type=int, default=200)
    ap.add_argument("--store", type=Path, help="reuse (or create) the store in this folder")
    ap.add_argument("--fill-only", action="store_true")
    args = ap.parse_args()
    # Byte-compile first, as an install does: where PYTHONDONTWRITEBYTECODE is set, every
    # `stats` start would otherwise compile the package again (about 0.3 s) and time that.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "triage_app")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        folder = args.store or tmp / "ws"
        if not (folder / "dead_letter.db").exists():
            t = time.perf_counter()
            fill_store(folder, args.rows, args.batches)
            print(f"generated {args.rows:,} dead letters in {time.perf_counter() - t:.1f} s")
        if args.fill_only:
            return
        measure(folder, tmp)


def _stats_subprocess(folder: Path) -> float:
    """``stats --json`` as a lead runs it: a new process, both databases by URL."""
    cmd = [
        sys.executable,
        "-m",
        "triage_app",
        "--dead-letter",
        f"sqlite:///{folder / 'dead_letter.db'}",
        "--warehouse",
        f"sqlite:///{folder / 'warehouse.db'}",
        "stats",
        "--json",
    ]
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, check=True)
    took = time.perf_counter() - t
    assert done.stdout.startswith(b"{"), done.stderr[:300]
    return took


def measure(folder: Path, tmp: Path) -> None:
    from triage_app.core.trends import compute_stats, compute_trends

    with open_workspace(folder) as ws, ws.store.connect() as conn:
        total = conn.exec_driver_sql("SELECT count(*) FROM dead_letters").scalar_one()
        batches = conn.exec_driver_sql("SELECT count(*) FROM batches").scalar_one()
        days = conn.exec_driver_sql(
            "SELECT julianday(max(first_failed_at)) - julianday(min(first_failed_at)) "
            "FROM dead_letters"
        ).scalar_one()
    print(f"store: {total:,} dead letters, {batches} batches over {days:.0f} days")

    empty = tmp / "empty"
    with open_workspace(empty):
        pass
    base_best, base_median = _best(lambda: _stats_subprocess(empty), 3)
    best, median = _best(lambda: _stats_subprocess(folder), 5)
    print(
        f"stats --json, subprocess               {_ms(best)} best, {_ms(median)} median"
        "   (target < 500 ms)"
    )
    print(
        f"  the same on an empty store           {_ms(base_best)} best, {_ms(base_median)} "
        "median (process start and imports)"
    )
    with open_workspace(folder) as ws:
        best, median = _best(lambda: compute_stats(ws), 5)
        print(f"  compute_stats in process             {_ms(best)} best, {_ms(median)} median")
        best, median = _best(lambda: compute_trends(ws), 5)
        print(f"  compute_trends in process            {_ms(best)} best, {_ms(median)} median")
    measure_tab(folder, tmp)


def measure_tab(folder: Path, tmp: Path) -> None:
    """The Trends tab of the real window: from asking to the charts painted."""
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp))
    QCoreApplication.setOrganizationName("TriageDeskBench")
    from triage_app.gui import open_window

    app = QApplication.instance() or QApplication([])
    done: list[float] = []

    def settle() -> None:
        while not done:
            app.processEvents()
            time.sleep(0.001)
        app.processEvents()  # the paint

    t = time.perf_counter()
    window = open_window(str(folder))
    tab = window.trends
    tab.updated.connect(lambda: done.append(time.perf_counter()))
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    opened = time.perf_counter() - t
    while window.model.total() is None or tab.busy():
        app.processEvents()
        time.sleep(0.001)
    counted = time.perf_counter() - t
    t = time.perf_counter()
    window.tabs.setCurrentWidget(tab)  # the first time: the charts are read now
    settle()
    print(f"window open (table shown)              {_ms(opened)}")
    print(f"  table count and banner in            {_ms(counted)}")
    print(f"Trends tab first shown, painted        {_ms(time.perf_counter() - t)}   (target < 1 s)")

    def render(action: Callable[[], None]) -> float:
        done.clear()
        t = time.perf_counter()
        action()
        settle()
        return time.perf_counter() - t

    times = [render(tab.refresh) for _ in range(3)]
    print(
        f"Trends tab refresh (after a batch)     {_ms(min(times))} best, "
        f"{_ms(statistics.median(times))} median   (target < 1000 ms)"
    )
    print(f"  of which drawing the charts          {tab.last_render_ms:7.1f} ms (GUI thread)")
    t = time.perf_counter()
    tab.per_batch.setChecked(True)
    app.processEvents()
    print(f"  switch to per batch                  {_ms(time.perf_counter() - t)}")
    window.close()


if __name__ == "__main__":
    main()
