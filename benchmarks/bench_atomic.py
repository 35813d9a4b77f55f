#!/usr/bin/env python3
"""All-or-nothing batches (issue 25): a held batch of 100,000 journal lines (``jurnal@1``,
one journal unbalanced) loaded whole in one transaction once its dead letters are fixed,
against a fresh batch of the same rows with everything passing, measured in the same run
on the same store kind.

- **held run**: the file with one unbalanced journal through ``jurnal@1``: every healthy
  line held in the store, nothing in the warehouse;
- **load whole**: the unbalanced journal's line fixed (an edit), then ``load_held_batch``:
  the held rows read and decoded, the fixed dead letters transformed, the whole-batch
  check, one warehouse transaction, one store transaction (resolutions, held rows deleted,
  counters);
- **fresh batch** (the reference): the fixed file, everything passing, through ``jurnal@1``
  into fresh databases: parsed, held chunk by chunk, then loaded in one transaction.

Medians of ``--repeat`` rounds, each in fresh databases. PostgreSQL too when
``TRIAGE_TEST_PG`` (or the default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
answers, each round in schemas of its own.

    python benchmarks/bench_atomic.py [--rows 100000] [--repeat 3] [--no-postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sqlalchemy import select  # noqa: E402

from triage_app.core.batch import run_batch  # noqa: E402
from triage_app.core.db import DeadLetter, Workspace, open_workspace  # noqa: E402
from triage_app.core.deadletters import edit_payload, load_held_batch  # noqa: E402
from triage_app.core.demo import journal_lines, write_journals  # noqa: E402

PG = os.environ.get("TRIAGE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
UNBALANCED = "J-7"


def fixed_lines(lines: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The lines with the unbalanced journal's last line set to balance it; its line number."""
    journal = [(n, d) for n, d in enumerate(lines, 1) if d["jurnal_id"] == UNBALANCED]
    n, last = journal[-1]
    out = list(lines)
    out[n - 1] = {**last, "kredit": sum(d.get("debit") or 0 for _, d in journal)}
    return out, n


@contextmanager
def sqlite_place(tmp: Path) -> Iterator[Callable[[], Workspace]]:
    folder = tmp / f"ws-{uuid.uuid4().hex[:8]}"
    yield lambda: open_workspace(folder)


@contextmanager
def pg_place(tmp: Path) -> Iterator[Callable[[], Workspace]]:
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(PG)
    schemas = [f"bench_{k}_{uuid.uuid4().hex[:8]}" for k in ("wh", "dl")]
    info = dict(host=url.host, port=url.port or 5432, user=url.username, dbname=url.database)
    with psycopg.connect(**info, autocommit=True) as conn:
        for s in schemas:
            conn.execute(f"CREATE SCHEMA {s}")
    urls = [
        url.update_query_dict({"options": f"-csearch_path={s}"}).render_as_string(
            hide_password=False
        )
        for s in schemas
    ]
    try:
        yield lambda: open_workspace(warehouse_url=urls[0], dead_letter_url=urls[1])
    finally:
        with psycopg.connect(**info, autocommit=True) as conn:
            for s in schemas:
                conn.execute(f"DROP SCHEMA {s} CASCADE")


def pg_reachable() -> bool:
    try:
        import psycopg
        from sqlalchemy.engine import make_url

        url = make_url(PG)
        with psycopg.connect(
            host=url.host,
            port=url.port or 5432,
            user=url.username,
            dbname=url.database,
            connect_timeout=3,
        ):
            return True
    except Exception:
        return False


def one_round(
    place: Callable[[Path], Any], tmp: Path, held_src: Path, fresh_src: Path, fixed: dict
) -> dict[str, float]:
    out: dict[str, float] = {}
    with place(tmp) as opener:
        ws = opener()
        try:
            started = time.perf_counter()
            s = run_batch(ws, held_src, "jurnal@1")
            out["held run"] = time.perf_counter() - started
            assert s.state == "held" and s.loaded == 0, s.describe()
            with ws.store.connect() as conn:
                dl = conn.execute(
                    select(DeadLetter.id).where(
                        DeadLetter.batch_id == s.batch_id, DeadLetter.line == fixed["line"]
                    )
                ).scalar_one()
            edit_payload(ws, dl, json.dumps(fixed["record"]))
            started = time.perf_counter()
            done = load_held_batch(ws, s.batch_id)
            out["load whole"] = time.perf_counter() - started
            assert done.loaded and done.rows == s.rows, done.describe()
        finally:
            ws.close()
    with place(tmp) as opener:
        ws = opener()
        try:
            started = time.perf_counter()
            f = run_batch(ws, fresh_src, "jurnal@1")
            out["fresh batch"] = time.perf_counter() - started
            assert f.state == "complete" and f.loaded == f.rows, f.describe()
        finally:
            ws.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-atomic-") as d:
        tmp = Path(d)
        lines = journal_lines(args.rows, unbalanced=[UNBALANCED])
        good, line = fixed_lines(lines)
        held_src = write_journals(tmp / "jurnal_held.jsonl", lines)
        fresh_src = write_journals(tmp / "jurnal_fresh.jsonl", good)
        fixed = {"line": line, "record": good[line - 1]}
        places: list[tuple[str, Callable[[Path], Any]]] = [("sqlite", sqlite_place)]
        if not args.no_postgres and pg_reachable():
            places.append(("postgresql", pg_place))
        print(f"{len(lines):,} journal lines, one journal unbalanced; medians of {args.repeat}")
        for name, place in places:
            rounds = [one_round(place, tmp, held_src, fresh_src, fixed) for _ in range(args.repeat)]
            med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
            ratio = med["load whole"] / med["fresh batch"]
            print(
                f"{name:10}  held run {med['held run']:.2f} s   load whole "
                f"{med['load whole']:.2f} s   fresh batch {med['fresh batch']:.2f} s   "
                f"load whole / fresh batch {ratio:.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
