"""Every query the application runs on the dead-letter store is served by an index: none
reads all of dead_letters or audit_events, except where reading everything is its nature.

The test does not list queries by hand (a list goes stale the day someone adds one). It
builds a store the way the application does (a Trends history through the demo filler,
real batches, edits, re-drives, a purge) and then does what the window, Trends and the CLI
do: every table filter and sort, paging forward, by offset and from the end, the detail
pane, the audit trail with each filter, export, Trends with and without a filter, stats,
report, reconcile, purge. Each statement that reaches the driver is caught and explained
(``tests/support/query_plans.py`` says how, and what counts as a full scan). A new query
is checked the day it is written, as long as a step below runs it.

With ``TRIAGE_PLAN_REPORT=FILE`` the test also writes a Markdown report: each query and
the index its plan uses on SQLite and PostgreSQL, what each index serves, which indexes no
query used, and what dropping each one would change.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.query_plans import (
    DropEffects,
    Recorder,
    Statement,
    Verdict,
    constraint_indexes,
    drop_effects,
    explain_pg,
    explain_sqlite,
    failure_message,
    pg_foreign_keys,
    pg_indexes,
    sorts,
    sqlite_foreign_keys,
    sqlite_indexes,
    sqlite_snapshot,
    unindexed_foreign_keys,
)
from tests.support.query_plans_report import BackendResult, write_report
from triage_app.cli import main
from triage_app.core.batch import list_batches, run_batch
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import (
    AuditFilter,
    DeadLetterFilter,
    apply_change,
    audit_page,
    count_dead_letters,
    export_dead_letters,
    fetch_rows,
    get_dead_letter,
    list_dead_letters,
    preview_change,
    redrive,
    retry_due,
)
from triage_app.core.deadletters.filters import SORTABLE
from triage_app.core.deadletters.transitions import discard, park
from triage_app.core.demo import fill_history, write_orders
from triage_app.core.demo.orders import write_orders_csv
from triage_app.core.places import STORE_FILE
from triage_app.core.trends import (
    banner_spike,
    compute_filtered_trends,
    compute_stats,
    compute_trends,
    stats_json,
)
from triage_app.core.vocabulary import ALL, CLASSES, STATUS_FILTERS
from triage_app.gui.quarantine.model import SORT_KEYS

PAGE = 200  # the quarantine table's page (gui/quarantine/model.py)
REPORT_ENV = "TRIAGE_PLAN_REPORT"


# -- what each index is kept for ---------------------------------------------------------------
# Every secondary index of dead_letters and audit_events, with the steps below whose queries
# it is kept for (a step's label, or its start). Each index must be listed, and each step
# listed must have a statement whose SQLite plan (with or without statistics) uses that
# index. An index no step needs is a write per row for nothing: drop it in a revision. When
# a query moves to another index (or another table), move its step here.
INDEX_SERVES: dict[str, tuple[str, ...]] = {
    # Also the quarantine's ON CONFLICT (batch_id, line) DO NOTHING (a replayed chunk),
    # which SQLite's plans do not show.
    "uq_dead_letter_batch_line": (
        "window: first page sorted by batch_id",
        "window: first page sorted by line",
    ),
    "ix_dl_status_id": (
        "window: first page sorted by status",
        "window: first page of status=parked",
        "cli: purge",
    ),
    "ix_dl_batch_id": ("window: first page of batch", "cli: redrive --batch"),
    "ix_dl_class": ("window: first page sorted by error_class", "window: first page of class"),
    "ix_dl_signature": (
        "window: first page sorted by signature",
        "window: first page of an error group",
    ),
    "ix_dl_attempts": (
        "window: first page sorted by attempts",
        "window: first page of attempts",
    ),
    "ix_dl_last_failed": ("window: first page sorted by last_failed_at",),
    "ix_dl_first_failed": ("window: first page of a day",),
    "ix_dl_transform": (
        "window: first page sorted by transform",
        "window: first page of a transform",
    ),
    # Each error group's last failure, one seek per group.
    "ix_dl_class_sig_last": ("cli: report --since",),
    "ix_dl_resolved": ("trends: the tab",),
    "ix_event_dl": ("window: detail pane", "cli: purge (real)"),
    "ix_event_action_at": ("cli: audit --action",),
    "ix_event_at": ("cli: audit --since",),
    # The rows waiting on the retry ladder (a partial index: only they are in it): the rows
    # a pass finds due, the backlog per step, the soonest due.
    "ix_dl_next_attempt": ("cli: ladder", "cli: retry-due", "retry pass"),
}


# -- the store -------------------------------------------------------------------------------
def build_store(rec: Recorder, ws: Workspace, cli: list[str], tmp: Path) -> dict[str, Any]:
    """A Trends history and real batches (JSONL, CSV, through the API and the CLI); the
    batches, some of their rows' ids and a signature, for the steps that follow."""
    with rec.doing("store: Trends history (demo filler)"):
        # Months of nightly batches: resolved, discarded, parked and open dead letters.
        fill_history(ws, dead_letters=3000, batches=12)
    batches = {}
    # A batch reads only which of a chunk's lines it stored already (a replay), along
    # uq_dead_letter_batch_line, to count its new rows in the summary.
    with rec.doing("store: run_batch JSONL pesanan@1"):
        path = write_orders(tmp / "pesanan_a.jsonl", 2500, bad=0.12, seed=3)
        batches["jsonl"] = run_batch(ws, path, "pesanan@1", chunk_size=700).batch_id
    with rec.doing("cli: run JSONL pesanan@2"):
        path = write_orders(tmp / "pesanan_b.jsonl", 1500, bad=0.12, seed=4)
        cli_ok(cli, "run", str(path), "--transform", "pesanan@2", "--chunk-size", "500")
    with rec.doing("store: run_batch CSV orders@1"):
        path = write_orders_csv(tmp / "orders.csv", 2000, bad=0.1, seed=5)
        batches["csv"] = run_batch(ws, path, "orders@1").batch_id
    with rec.doing("list_dead_letters: the rows the steps below act on"):
        ids = [v.id for v in list_dead_letters(ws, DeadLetterFilter(batch_id=batches["jsonl"]))]
        first = list_dead_letters(ws, DeadLetterFilter(error_class="data"), limit=1)[0]
    return {"batches": batches, "ids": ids, "signature": first.signature}


def cli_ok(cli: list[str], *args: str) -> None:
    code = main([*cli, *args, "--json"])
    assert code == 0, f"triage-app {' '.join(args)} exited {code}"


# -- what the application does -----------------------------------------------------------------
def steward_changes(rec: Recorder, ws: Workspace, cli: list[str], s: dict[str, Any]) -> None:
    """Changes by hand (CLI and the window's row actions) and re-drives."""
    ids, batch = s["ids"], s["batches"]["jsonl"]
    one = str(ids[0])
    with rec.doing("cli: edit --if-version"):
        cli_ok(cli, "edit", one, "--payload", '{"pesanan_id": 1, "qty": 2}', "--if-version", "1")
    with rec.doing("cli: park ids"):
        cli_ok(cli, "park", *map(str, ids[1:4]), "--reason", "check with the shop")
    with rec.doing("cli: reopen ids"):
        cli_ok(cli, "reopen", str(ids[1]))
    with rec.doing("cli: note ids"):
        cli_ok(cli, "note", *map(str, ids[4:6]), "--text", "seen")
    with rec.doing("cli: reclassify ids"):
        cli_ok(cli, "reclassify", *map(str, ids[9:12]), "--class", "transient")
    # Those rows now wait on the retry ladder: the backlog and a pass read the partial index
    # of the waiting rows; a pass an hour on re-drives them.
    with rec.doing("cli: ladder"):
        cli_ok(cli, "ladder")
    with rec.doing("cli: retry-due"):
        cli_ok(cli, "retry-due")
    with rec.doing("retry pass: the due rows re-driven"):
        retry_due(ws, now=dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(hours=1))
    with rec.doing("cli: reclassify --where-class --batch"):
        cli_ok(cli, "reclassify", "--where-class", "transient", "--batch", batch, "--class", "data")
    with rec.doing("window: preview a discard of a filter (the dialog's count and sample)"):
        where = DeadLetterFilter(error_class="data", batch_id=batch[:8], search="qty")
        preview_change(ws, discard("junk"), where=where)
    with rec.doing("cli: discard --class --batch prefix --search"):
        cli_ok(
            cli,
            "discard",
            "--class",
            "data",
            "--batch",
            batch[:8],
            "--search",
            "qty",
            "--reason",
            "junk",
        )
    with rec.doing("cli: fix --batch --try, fix --signature --dry-run, changesets"):
        cli_ok(cli, "fix", "--batch", batch, "--set", "kanal=toko", "--try", "pesanan@1")
        cli_ok(cli, "fix", "--signature", s["signature"], "--default", "diskon=0", "--dry-run")
        cli_ok(cli, "changesets")
    with rec.doing("cli: revert a change-set"):
        cli_ok(cli, "revert", "1")
    with rec.doing("cli: group --owner --tag (the team backlog)"):
        cli_ok(cli, "group", s["signature"], "--owner", "ani", "--tag", "needs source fix")
    with rec.doing("window: park selected rows (expected versions)"):
        rows = fetch_rows(ws, DeadLetterFilter(batch_id=batch), limit=5)
        apply_change(
            ws, [r.id for r in rows], park("later"), expected={r.id: r.version for r in rows}
        )
    with rec.doing("cli: redrive --id"):
        cli_ok(cli, "redrive", "--id", *map(str, ids[6:9]), "--transform", "pesanan@2")
    with rec.doing("cli: redrive --class"):
        cli_ok(cli, "redrive", "--class", "code", "--transform", "pesanan@2")
    with rec.doing("cli: redrive --batch --status parked"):
        cli_ok(cli, "redrive", "--batch", batch, "--status", "parked", "--transform", "pesanan@1")
    with rec.doing("cli: redrive --all-open --dry-run"):
        cli_ok(cli, "redrive", "--all-open", "--dry-run", "--transform", "pesanan@2")
    with rec.doing("window: redrive a filter (signature)"):
        redrive(ws, "pesanan@1", where=DeadLetterFilter(signature=s["signature"]), max_attempts=2)


def table_filters(ws: Workspace, s: dict[str, Any]) -> list[tuple[str, DeadLetterFilter]]:
    """Every filter the window's pickers, its search box and Trends' links make."""
    F = DeadLetterFilter
    batch = s["batches"]["jsonl"]
    newest = list_batches(ws, limit=1)[0]
    day = dt.date.fromisoformat(newest.started_at[:10])
    out = [(f"status={st}", F(status=st)) for st in STATUS_FILTERS]
    out += [(f"class={c}", F(error_class=c)) for c in CLASSES]
    out += [
        ("class=code, all statuses", F(error_class="code", status=ALL)),
        ("class=data, parked", F(error_class="data", status="parked")),
        ("transform", F(transform="pesanan@2")),
        ("transform, all statuses", F(transform="pesanan@1", status=ALL)),
        ("batch", F(batch_id=batch)),
        ("batch prefix", F(batch_id=batch[:6])),
        ("batch, all statuses", F(batch_id=batch, status=ALL)),
        ("batch + class + transform", F(batch_id=batch, error_class="data", transform="pesanan@1")),
        ("attempts >= 2", F(min_attempts=2)),
        ("attempts >= 3, all statuses", F(min_attempts=3, status=ALL)),
        ("class + attempts >= 2", F(error_class="data", min_attempts=2)),
        ("search", F(search="qty")),
        ("search, all statuses", F(search="Budi", status=ALL)),
        ("search + class", F(search="kolom", error_class="data")),
        # Trends' links: an error group, an attempts bar, a day or span of a chart.
        ("signature", F(signature=s["signature"])),
        (
            "group: signature + class, all",
            F(signature=s["signature"], error_class="data", status=ALL),
        ),
        ("attempts bar: exactly 2", F(attempts=2)),
        ("attempts bar: exactly 3, all", F(attempts=3, status=ALL)),
        ("a day, all statuses", F(failed_from=day, failed_to=day, status=ALL)),
        ("a span, open", F(failed_from=dt.date(2026, 1, 10), failed_to=dt.date(2026, 2, 10))),
        ("a day + class", F(failed_from=day, failed_to=day, error_class="data", status=ALL)),
        ("failure day's batch link", F(batch_id=newest.batch_id, status=ALL)),
        ("selected ids", F(ids=tuple(s["ids"][:40]), status=ALL)),
        # The Source picker (issue 26): a connector's rows, through its batches' index.
        # ("files", nearly every row, pages by walking the batch index until the page is
        # full: a LIMIT the plan reads as a whole index scan, so it is not listed here.)
        ("source: a connector, all statuses", F(source="orders.dlq", status=ALL)),
    ]
    return out


def quarantine_table(rec: Recorder, ws: Workspace, s: dict[str, Any]) -> None:
    """What the table asks (gui/quarantine/model.py): the count, and pages by its three
    routes, for every filter and every sortable column both ways. A page from the end in
    one order is the first page in the other, so per column: the first page and the next
    (keyset) ascending, and the last page and the one before it (keyset, descending)."""
    for label, f in table_filters(ws, s):
        with rec.doing(f"window: table {label}"):
            count_dead_letters(ws, f)
            fetch_rows(ws, f, limit=PAGE, offset=3 * PAGE)  # a jump ahead, by offset
            for sort in SORTABLE:
                first = fetch_rows(ws, f, limit=PAGE, sort=sort)
                last = fetch_rows(ws, f, limit=PAGE, sort=sort, from_end=True)
                if first:
                    fetch_rows(ws, f, limit=PAGE, sort=sort, after=first[-1])
                if last:  # scrolling up from the end: the rows after its first, descending
                    fetch_rows(ws, f, limit=PAGE, sort=sort, descending=True, after=last[0])


def window_first_pages(ws: Workspace, s: dict[str, Any]) -> dict[str, DeadLetterFilter | str]:
    """The first page of each sort the window's table offers (``SORT_KEYS``), open rows and
    all, and of each picker's filter in the table's default order (id): step label -> its
    sort (a str) or filter. These must come without a sort step (test_window_pages_...)."""
    F = DeadLetterFilter
    out: dict[str, DeadLetterFilter | str] = {}
    for sort in SORT_KEYS:
        if sort is not None:  # the Source column does not sort (model.SORT_KEYS)
            out[f"window: first page sorted by {sort}"] = sort
    batch = s["batches"]["jsonl"]
    filters = {
        "status=parked": F(status="parked"),
        "batch": F(batch_id=batch),
        "batch, all statuses": F(batch_id=batch, status=ALL),
        "class": F(error_class="data", status=ALL),
        "an error group": F(signature=s["signature"], error_class="data", status=ALL),
        "a transform": F(transform="pesanan@1", status=ALL),
        "attempts = 2": F(attempts=2, status=ALL),
        "attempts >= 2": F(min_attempts=2, status=ALL),
        "a day": F(failed_from=dt.date(2026, 2, 1), failed_to=dt.date(2026, 2, 1), status=ALL),
    }
    for label, f in filters.items():
        out[f"window: first page of {label}"] = f
    return out


# First pages that may sort, and why that is bounded.
SORTED_BY_NATURE = {
    # A span of first failures in id order: the span's range of ix_dl_first_failed, sorted;
    # the rows of a day or two, not of the store.
    "window: first page of a day": "a range of first failures, in id order",
}


def window_pages(rec: Recorder, ws: Workspace, s: dict[str, Any]) -> None:
    for step, what in window_first_pages(ws, s).items():
        with rec.doing(step):
            if isinstance(what, str):  # a sort: open rows (the default) and every row
                for f in (DeadLetterFilter(), DeadLetterFilter(status=ALL)):
                    fetch_rows(ws, f, limit=PAGE, sort=what)
                    fetch_rows(ws, f, limit=PAGE, sort=what, descending=True)
            else:
                fetch_rows(ws, what, limit=PAGE)


def window_reads(rec: Recorder, ws: Workspace, s: dict[str, Any], tmp: Path) -> None:
    ids = s["ids"]
    with rec.doing("window: detail pane"):
        for i in ids[:3]:
            get_dead_letter(ws, i, reveal=True)
    with rec.doing("window: batch picker", reads=False):
        list_batches(ws, limit=200)
        # The status bar: summed from the summary's cells, no dead letter read.
        count_dead_letters(ws, DeadLetterFilter())
    with rec.doing("window: audit tab"):
        for f in audit_filters(ids[0]):
            page = audit_page(ws, f, limit=100)
            audit_page(ws, f, limit=100, offset=page.next_offset)
        count_dead_letters(ws, DeadLetterFilter(status=ALL, ids=(ids[0],)))
    with rec.doing("window: export filter and selection"):
        export_dead_letters(ws, DeadLetterFilter(error_class="data"), tmp / "a.csv", "csv")
        export_dead_letters(ws, DeadLetterFilter(status=ALL), tmp / "b.jsonl", "jsonl")
        picked = DeadLetterFilter(status=ALL, ids=tuple(ids[:20]))
        export_dead_letters(ws, picked, tmp / "c.csv", "csv")


def audit_filters(dl_id: int) -> list[AuditFilter]:
    since = dt.datetime(2026, 2, 1)
    return [
        AuditFilter(),
        AuditFilter(since=since),
        AuditFilter(actor="demo"),
        AuditFilter(action="discarded"),
        AuditFilter(action="parked", since=since),
        AuditFilter(dead_letter_id=dl_id),
        AuditFilter(dead_letter_id=dl_id, action="edited"),
        AuditFilter(actor="DEMO", since=since),
    ]


def trends(rec: Recorder, ws: Workspace, s: dict[str, Any]) -> None:
    F = DeadLetterFilter
    with rec.doing("trends: the tab, without and with the table's filter"):
        compute_trends(ws)  # report's
        compute_trends(ws, F())  # the tab's, with the table's default filter
        compute_trends(ws, F(signature=s["signature"], status="parked"))
        compute_trends(ws, F(search="qty", status=ALL))
        compute_trends(ws, since=dt.date(2026, 2, 15))
    with rec.doing("trends: charts that follow the table's filter"):
        compute_filtered_trends(ws, F())
        compute_filtered_trends(ws, F(signature=s["signature"], status=ALL))
        compute_filtered_trends(ws, F(search="qty", status=ALL))
        banner_spike(ws)
    with rec.doing("trends: stats"):
        compute_stats(ws, F(error_class="data", status=ALL), since=dt.date(2026, 2, 1))
        stats_json(ws)


def cli_reads(rec: Recorder, cli: list[str], s: dict[str, Any], tmp: Path) -> None:
    batch = s["batches"]["jsonl"]
    for args in (
        ["list"],
        ["list", "--status", "all", "--limit", "50", "--offset", "100"],
        ["list", "--class", "code", "--status", "resolved"],
        ["list", "--batch", batch[:8]],
        ["list", "--status", "parked", "--class", "data", "--batch", batch],
        ["list", "--search", "qty", "--status", "all"],
        ["show", str(s["ids"][0])],
        ["reconcile", batch],
        ["reconcile", s["batches"]["csv"][:10]],
        ["audit"],
        ["audit", "--since", "2026-02-01", "--limit", "20", "--offset", "20"],
        ["audit", "--actor", "demo"],
        ["audit", "--action", "resolved"],
        ["audit", "--id", str(s["ids"][0])],
        ["audit", "--action", "quarantined", "--since", "2026-03-01T12:00"],
        ["groups"],
        ["groups", "--owner", "ani", "--sort", "oldest"],
        ["groups", "--tag", "needs source fix"],
        ["list", "--owner", "ani"],
        ["list", "--tag", "needs source fix", "--status", "all"],
        ["purge", "--older-than", "30", "--dry-run"],
        ["purge", "--older-than", "10", "--status", "discarded", "--dry-run"],
    ):
        with rec.doing(f"cli: {' '.join(args)}"):
            cli_ok(cli, *args)
    with rec.doing("cli: stats (computed, then from the cache)"):
        cli_ok(cli, "stats")
        cli_ok(cli, "stats")
    with rec.doing("cli: report --since"):
        cli_ok(cli, "report", "--out", str(tmp / "report"), "--since", "2026-02-01")


def exercise(rec: Recorder, ws: Workspace, cli: list[str], tmp: Path) -> None:
    s = build_store(rec, ws, cli, tmp)
    steward_changes(rec, ws, cli, s)
    # Before the table's every filter and sort: the recorder keeps the first few copies of
    # a statement, and INDEX_SERVES names these steps.
    window_pages(rec, ws, s)
    quarantine_table(rec, ws, s)
    window_reads(rec, ws, s, tmp)
    trends(rec, ws, s)
    cli_reads(rec, cli, s, tmp)
    with rec.doing("cli: purge (real)"):
        cli_ok(cli, "purge", "--older-than", "45")
    # What reads the purges' records: Trends adds the purged rows back.
    with rec.doing("after purge: trends, cli stats"):
        compute_trends(ws)
        cli_ok(cli, "stats")


def no_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``report`` without its PNGs: they are drawn from the Trends it computed (no query),
    and drawing needs a QApplication, which would outlive this test in the process."""
    from triage_app.gui.trends import report

    monkeypatch.setattr(report, "render_charts", lambda _trends, _out: [])


# -- the test --------------------------------------------------------------------------------
_RESULTS: dict[str, BackendResult] = {}


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    """Write the report once both databases were checked (only when asked for)."""
    yield
    target = os.environ.get(REPORT_ENV)
    if target and _RESULTS:
        write_report(Path(target), _RESULTS)


@pytest.fixture
def report_wanted() -> bool:
    return bool(os.environ.get(REPORT_ENV))


@dataclass
class SqlitePlans:
    """Every statement of ``exercise`` on SQLite, explained with and without statistics."""

    result: BackendResult
    statements: int
    fks: list[str]


@pytest.fixture(scope="module")
def sqlite_plans(tmp_path_factory: pytest.TempPathFactory) -> SqlitePlans:
    """One store built and exercised for the SQLite tests below (it takes minutes)."""
    tmp_path = tmp_path_factory.mktemp("plans")
    rec = Recorder()
    folder = tmp_path / "ws"
    store = folder / STORE_FILE
    with pytest.MonkeyPatch.context() as monkeypatch:
        no_charts(monkeypatch)
        rec.install_sqlite(monkeypatch, store)
        with open_workspace(folder) as ws:
            exercise(rec, ws, ["--workspace", str(folder)], tmp_path)
        rec.paused = True

    result = BackendResult("sqlite")
    fks: list[str] = []
    # Plans with the planner's statistics (demo and benchmark stores run ANALYZE) and
    # without (a user's store: the application never runs it). Both must use indexes.
    for variant, statistics in (("stats", True), ("no stats", False)):
        db = sqlite_snapshot(store, tmp_path / f"plans_{variant}.db", statistics=statistics)
        try:
            names = constraint_indexes(db)
            verdicts = [explain_sqlite(db, s, names) for s in rec.statements]
            result.add(variant, sqlite_indexes(db), verdicts)
            if os.environ.get(REPORT_ENV):
                result.effects[variant] = sqlite_drop_effects(db, verdicts)
            fks += unindexed_foreign_keys(*sqlite_foreign_keys(db), rec.deleted_from)
        finally:
            db.close()
    _RESULTS["sqlite"] = result
    return SqlitePlans(result, len(rec.statements), fks)


@pytest.mark.slow
def test_sqlite_queries_use_indexes(sqlite_plans: SqlitePlans) -> None:
    bad = [v for _ix, verdicts in sqlite_plans.result.variants.values() for v in verdicts]
    bad = [v for v in bad if v.failed]
    assert sqlite_plans.statements, "no statement was captured"
    assert not bad, failure_message(bad)
    assert not sqlite_plans.fks, (
        f"deleting parent rows reads the whole child table: {sqlite_plans.fks}"
    )


@pytest.mark.slow
def test_every_index_earns_its_place(sqlite_plans: SqlitePlans) -> None:
    """Each secondary index is in INDEX_SERVES and used by a query of each step listed
    there (on SQLite, with or without statistics); none is kept for nothing."""
    indexes: dict[str, tuple[str, bool]] = {}
    used: dict[str, set[str]] = {}
    for found, verdicts in sqlite_plans.result.variants.values():
        indexes.update(found)
        for name, steps in steps_using(verdicts).items():
            used.setdefault(name, set()).update(steps)
    assert not unearned(indexes, used), "\n".join(unearned(indexes, used))


@pytest.mark.slow
def test_the_window_pages_without_a_sort_step(sqlite_plans: SqlitePlans) -> None:
    """The first page of every sort the table offers, and of each picker in the default
    order, walks an index in that order and stops at the page: no temp B-tree, which would
    read and sort every matching row first (a million rows on a bad day)."""
    sorted_pages = [
        f"[{variant}] {v.statement.step}: {v.statement.shape}\n    {v.plan}"
        for variant, (_ix, verdicts) in sqlite_plans.result.variants.items()
        for v in verdicts
        if v.statement.step.startswith("window: first page")
        and v.statement.site.endswith("paging.py:fetch_rows")
        and v.statement.step not in SORTED_BY_NATURE
        and sorts(v)
    ]
    assert not sorted_pages, "pages that sort their rows:\n" + "\n".join(sorted_pages)


def steps_using(verdicts: Sequence[Verdict]) -> dict[str, set[str]]:
    """Index -> the steps whose statements' plans use it."""
    out: dict[str, set[str]] = {}
    for v in verdicts:
        for a in v.accesses:
            if a.index is not None:
                out.setdefault(a.index, set()).add(v.statement.step)
    return out


def unearned(indexes: dict[str, tuple[str, bool]], used: dict[str, set[str]]) -> list[str]:
    """What is wrong with INDEX_SERVES against the schema's ``indexes`` and what used them."""
    out = [
        f"{n}: not in INDEX_SERVES (which query is it for?)"
        for n in indexes
        if n not in INDEX_SERVES
    ]
    for name, steps in INDEX_SERVES.items():
        if name not in indexes:
            out.append(f"{name}: in INDEX_SERVES, not in the schema")
            continue
        for step in steps:
            if not any(u.startswith(step) for u in used.get(name, ())):
                some = sorted(used.get(name, ()))[:5]
                out.append(f"{name}: no query of step {step!r} uses it (used by {some})")
    return out


def sqlite_drop_effects(db: sqlite3.Connection, verdicts: list[Verdict]) -> DropEffects:
    names = constraint_indexes(db)

    def without(indexes: Sequence[str], statements: Sequence[Statement]) -> list[Verdict]:
        db.execute("BEGIN")  # DDL is transactional in SQLite: the drop is rolled back
        try:
            for index in indexes:
                db.execute(f'DROP INDEX "{index}"')
            return [explain_sqlite(db, s, names) for s in statements]
        finally:
            db.execute("ROLLBACK")

    return drop_effects(sqlite_indexes(db), verdicts, without)


@pytest.mark.slow
def test_postgres_queries_use_indexes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pg_urls: tuple[str, str],
    report_wanted: bool,
) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    no_charts(monkeypatch)
    wh, dl = pg_urls
    url = make_url(dl)
    options = str(url.query["options"])  # -csearch_path=<the store's own schema>
    rec = Recorder()
    cli = ["--warehouse", wh, "--dead-letter", dl]
    with (
        rec.installed_postgres(options.split("=", 1)[1]),
        open_workspace(warehouse_url=wh, dead_letter_url=dl) as ws,
    ):
        exercise(rec, ws, cli, tmp_path)
    rec.paused = True
    capsys.readouterr()

    with psycopg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        dbname=url.database,
        options=options,
        autocommit=True,
    ) as conn:
        cur = conn.cursor()
        # The tables as autovacuum leaves them (statistics, and the visibility map that lets
        # an index be read without the table), so that plans do not depend on when it ran.
        cur.execute("VACUUM ANALYZE dead_letters")
        cur.execute("VACUUM ANALYZE audit_events")
        cur.execute("BEGIN")
        for sql, params in rec.temp_tables.items():  # a COPY's staging table
            cur.execute(sql, params)
        # Whether an index CAN serve each statement, not whether reading a small table
        # whole would be cheaper.
        cur.execute("SET enable_seqscan = off")
        verdicts = [explain_pg(cur, s) for s in rec.statements]
        result = BackendResult("postgresql")
        result.add("", pg_indexes(cur), verdicts)
        if report_wanted:
            result.effects[""] = pg_drop_effects(cur, verdicts)
        fks = unindexed_foreign_keys(*pg_foreign_keys(cur), rec.deleted_from)
        cur.execute("ROLLBACK")
    _RESULTS["postgresql"] = result
    bad = [v for v in verdicts if v.failed]
    assert rec.statements, "no statement was captured"
    assert not bad, failure_message(bad)
    assert not fks, f"deleting parent rows reads the whole child table: {fks}"
    used = steps_using(verdicts)
    idle = [
        n for n, (_t, droppable) in result.variants[""][0].items() if droppable and n not in used
    ]
    assert not idle, f"indexes no query used on PostgreSQL: {idle}"


def pg_drop_effects(cur: Any, verdicts: list[Verdict]) -> DropEffects:
    def without(indexes: Sequence[str], statements: Sequence[Statement]) -> list[Verdict]:
        cur.execute("SAVEPOINT dropped")  # DDL is transactional: the drop is rolled back
        try:
            for index in indexes:
                cur.execute(f'DROP INDEX "{index}"')
            return [explain_pg(cur, s) for s in statements]
        finally:
            cur.execute("ROLLBACK TO SAVEPOINT dropped")

    return drop_effects(pg_indexes(cur), verdicts, without)
