"""The summary Trends reads (``dead_letter_counts``, kept by ``core/db/counts.py``) is the
rows counted by cell, after every kind of change, on SQLite and PostgreSQL: a batch (a
replayed chunk included), a re-drive that resolves, fails and parks, park, discard,
reopen, reclassify, a note, an edit, a fix and its revert, a purge and the demo filler;
and after a process killed inside a summary update (``mid-counts``) and the same command
again. ``reconcile`` names the cells that differ when the summary is broken on purpose.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Connection, DateTime, func, select, update

from tests.support import REPO
from triage_app.core.batch import failure_from_message, run_batch
from triage_app.core.batch.quarantine import quarantine
from triage_app.core.db import DeadLetter, DeadLetterCount, Workspace, counts, open_workspace
from triage_app.core.db.models import Base
from triage_app.core.deadletters import (
    DeadLetterFilter,
    apply_change,
    discard,
    edit_payload,
    note,
    park,
    purge,
    reclassify_as,
    redrive,
    reopen,
)
from triage_app.core.deadletters.change_sets import apply_fix, preview_fix, revert_change_set
from triage_app.core.deadletters.fixes import Fix, step_from_text
from triage_app.core.deadletters.groups import error_groups, set_group
from triage_app.core.demo import StoreFiller
from triage_app.core.trends.stats_cache import stats_json
from triage_app.core.verify import reconcile
from triage_app.core.vocabulary import ErrorClass

ROWS = 300


def _orders(path: Path, rows: int = ROWS) -> Path:
    """Orders whose null diskon fails pesanan@1 (code class) and loads with pesanan@2,
    every 7th missing its qty (data class, whatever the version)."""
    with path.open("wb") as f:
        for i in range(1, rows + 1):
            record: dict[str, object] = {
                "pesanan_id": i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": f"p{i}",
                "produk": "kopi",
                "qty": 1 + i % 3,
                "harga": 1000 + i,
                "diskon": None,
            }
            if i % 7 == 0:
                del record["qty"]
            f.write(orjson.dumps(record) + b"\n")
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_args(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    """The CLI's options for a store: a workspace folder, or PostgreSQL schemas."""
    if request.param == "sqlite":
        return ["--workspace", str(tmp_path / "ws")]
    wh, dl = request.getfixturevalue("pg_urls")
    return ["--warehouse", wh, "--dead-letter", dl]


def _open(args: list[str]) -> Workspace:
    if args[0] == "--workspace":
        return open_workspace(args[1])
    return open_workspace(warehouse_url=args[1], dead_letter_url=args[3])


@pytest.fixture
def ws(store_args: list[str]) -> Iterator[Workspace]:
    with _open(store_args) as w:
        yield w


def assert_summary(ws: Workspace, after: str) -> None:
    """The stored cells are a recount of the rows, and not trivially: some rows exist. And
    on SQLite every instant the change wrote is microseconds, never text (``instants.py``:
    a time written as text sorts after every integer, and a trail ordered by time lies)."""
    with ws.store.connect() as conn:
        assert counts.differences(conn) == [], f"the summary drifted after {after}"
        rows = conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one()
        assert sum(counts.stored(conn).values()) == rows
        if conn.dialect.name == "sqlite":
            assert text_instants(conn) == [], f"instants written as text after {after}"


def text_instants(conn: Connection) -> list[str]:
    """Every instant column of the store holding a value that is not an integer."""
    found = []
    for table in Base.metadata.sorted_tables:
        for c in table.columns:
            if isinstance(c.type, DateTime):
                n = conn.exec_driver_sql(
                    f"SELECT count(*) FROM {table.name} "
                    f"WHERE {c.name} IS NOT NULL AND typeof({c.name}) != 'integer'"
                ).scalar_one()
                found += [f"{table.name}.{c.name}: {n}"] if n else []
    return found


def _ids(ws: Workspace, f: DeadLetterFilter) -> list[int]:
    from triage_app.core.deadletters.queries import matching_ids

    return matching_ids(ws, f)


@pytest.mark.slow
def test_the_summary_is_the_rows_counted_after_every_kind_of_change(
    ws: Workspace, tmp_path: Path
) -> None:
    s = run_batch(ws, _orders(tmp_path / "orders.jsonl"), "pesanan@1", chunk_size=40)
    assert s.quarantined == ROWS
    assert_summary(ws, "a batch")
    with ws.store.connect() as conn:
        assert len(counts.stored(conn)) == 2  # code and data, a signature each; one day

    # A replayed chunk: lines already stored are skipped by the insert, and not counted
    # again; the new lines of the same chunk are.
    failures = [
        failure_from_message(line, b"{}", "DataError: kolom wajib hilang: qty", ErrorClass.DATA)
        for line in range(ROWS - 20, ROWS + 31)
    ]
    with ws.store.begin() as conn:
        added = quarantine(
            conn,
            batch_id=s.batch_id,
            transform_ref="pesanan@1",
            payload_kind="jsonl",
            failures=failures,
            actor="test",
            now=dt.datetime(2026, 2, 1, 12),
        )
    assert added == 30
    assert_summary(ws, "a replayed chunk")

    code = DeadLetterFilter(error_class="code")
    code_ids = _ids(ws, code)
    # A re-drive that resolves some, one that fails others (attempts move), one that parks
    # them at the limit.
    done = redrive(ws, "pesanan@2", ids=code_ids[:60])
    assert done.succeeded == 60
    assert_summary(ws, "a re-drive that resolved")
    failed = redrive(ws, "pesanan@1", ids=code_ids[60:120], max_attempts=5)
    assert failed.succeeded == 0 and failed.failed == 60
    assert_summary(ws, "a re-drive that failed")
    parked = redrive(ws, "pesanan@1", ids=code_ids[60:90], max_attempts=3)
    assert parked.parked == 30
    assert_summary(ws, "a re-drive that parked")

    rest = code_ids[120:]
    for change, ids in (
        (park("aside"), rest[:20]),
        (discard("no good"), rest[20:50]),
        (reopen("again"), rest[20:35]),
        (reclassify_as(ErrorClass.DATA), rest[50:80]),
        (note("look"), rest[80:90]),
    ):
        report = apply_change(ws, ids, change)
        assert len(report.changed) == len(ids), report
        assert_summary(ws, change.verb)

    # A group's owner and note, and the stats cache: instants of their own tables.
    group = error_groups(ws)[0]
    assert set_group(ws, group.signature, owner="ani", note="mine").owner == "ani"
    assert stats_json(ws)["total"] > 0
    assert_summary(ws, "an owner and the stats cache")

    edit_id = rest[100]
    edit_payload(ws, edit_id, '{"pesanan_id": 1, "qty": 1, "harga": 1, "diskon": 0}')
    assert_summary(ws, "an edit")

    fix = Fix(steps=(step_from_text("set", "kanal", "toko"),))
    chosen = rest[110:150]
    preview = preview_fix(ws, fix, chosen)
    fixed = apply_fix(ws, fix, preview.versions)
    assert fixed.change_set_id is not None and len(fixed.changed) == len(chosen)
    assert_summary(ws, "a fix")
    revert_change_set(ws, fixed.change_set_id)
    assert_summary(ws, "a revert")

    later = dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(days=30)
    gone = purge(ws, 7, ["resolved", "discarded"], now=later)
    assert gone.rows == 60 + 15
    assert_summary(ws, "a purge")

    with StoreFiller(ws) as fill:
        fill.batch("f" * 32, rows=3, quarantined=3)
        for line in (1, 2, 3):
            fill.dead_letter(
                "f" * 32,
                line,
                error=f"DataError: {line}",
                attempts=line,
                failed_at=dt.datetime(2026, 1, line, 5),
            )
    assert_summary(ws, "the demo filler")


def test_reconcile_names_the_cells_a_broken_summary_gets_wrong(
    ws: Workspace, tmp_path: Path
) -> None:
    s = run_batch(ws, _orders(tmp_path / "orders.jsonl", 50), "pesanan@1")
    assert reconcile(ws, s.batch_id).ok
    with ws.store.begin() as conn:  # one cell wrong by one
        conn.execute(
            update(DeadLetterCount)
            .where(DeadLetterCount.error_class == "data")
            .values(n=DeadLetterCount.n + 1)
        )
    r = reconcile(ws, s.batch_id)
    assert not r.ok
    (problem,) = [p for p in r.problems if "summary" in p]
    assert "holds 8 dead letters where the rows make 7" in problem and "data" in problem
    with ws.store.connect() as conn:
        ((cell, kept, counted),) = counts.differences(conn)
    assert (cell[0], kept, counted) == ("data", 8, 7)
    with ws.store.begin() as conn:  # a repair: the summary counted afresh
        counts.rebuild(conn)
    assert reconcile(ws, s.batch_id).ok


# -- killed inside a summary update ---------------------------------------------------------
def _cli(args: list[str], *more: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_CRASH_AT"}
    env["TRIAGE_LANES"] = "1"
    if crash:
        env["TRIAGE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *args, *more],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_a_process_killed_inside_a_summary_update_leaves_it_true(
    store_args: list[str], tmp_path: Path
) -> None:
    """kill -9 at the k-th summary write (k drawn at random, seed printed) of a batch, a
    re-drive, a discard and a purge: what committed is counted, what did not is not, and
    the same command again ends with the summary equal to a recount."""
    seed = random.randrange(1_000_000)
    print(f"seed {seed}")
    rng = random.Random(seed)
    src = _orders(tmp_path / "orders.jsonl", 1_200)
    steps = [
        ("run", str(src), "--transform", "pesanan@1", "--chunk-size", "100"),
        ("redrive", "--class", "code", "--transform", "pesanan@2"),
        ("discard", "--class", "data", "--reason", "test"),
        ("purge", "--older-than", "0", "--status", "resolved", "--status", "discarded"),
    ]
    for step in steps:
        k = {"run": rng.randint(1, 6), "redrive": rng.randint(1, 2)}.get(step[0], 1)
        killed = _cli(store_args, *step, crash=f"mid-counts:{k}")
        assert killed.returncode == -signal.SIGKILL, (step, killed.stdout, killed.stderr)
        with _open(store_args) as w:
            assert_summary(w, f"{step[0]} killed at summary write {k}")
        again = _cli(store_args, *step)
        assert again.returncode == 0, (step, again.stdout, again.stderr)
        with _open(store_args) as w:
            assert_summary(w, f"{step[0]} again")
    with _open(store_args) as w, w.store.connect() as conn:
        # Every row was closed and purged: the cells went with them.
        assert conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one() == 0
        assert counts.stored(conn) == {}


def test_a_filters_count_is_summed_from_the_cells_and_equals_the_rows(
    ws: Workspace, tmp_path: Path
) -> None:
    from triage_app.core.deadletters import count_dead_letters
    from triage_app.core.deadletters.filters import cell_clauses

    s = run_batch(ws, _orders(tmp_path / "orders.jsonl", 120), "pesanan@1", chunk_size=50)
    code = _ids(ws, DeadLetterFilter(error_class="code"))
    redrive(ws, "pesanan@2", ids=code[:30])
    apply_change(ws, code[30:40], park("aside"))
    filters = [
        DeadLetterFilter(),
        DeadLetterFilter(status="all"),
        DeadLetterFilter(status="resolved"),
        DeadLetterFilter(status="parked", error_class="code"),
        DeadLetterFilter(status="all", batch_id=s.batch_id, error_class="data"),
        DeadLetterFilter(status="all", transform="pesanan@2"),
        DeadLetterFilter(status="all", failed_from=dt.date(2000, 1, 1)),
        DeadLetterFilter(status="all", failed_to=dt.date(2000, 1, 1)),
    ]
    for f in filters:
        assert cell_clauses(f) is not None, f
        assert count_dead_letters(ws, f) == len(_ids(ws, f)), f
    # The counts above are the cells': break one and the count follows it, not the rows.
    with ws.store.begin() as conn:
        conn.execute(update(DeadLetterCount).values(n=DeadLetterCount.n + 1000))
    assert count_dead_letters(ws, DeadLetterFilter(status="all")) > 120
    # A search needs the rows, and still counts them.
    needle = DeadLetterFilter(status="all", search="kopi")
    assert cell_clauses(needle) is None
    assert count_dead_letters(ws, needle) == len(_ids(ws, needle)) == 120
