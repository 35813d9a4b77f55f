"""Re-drive: a dry run writes nothing, failures count attempts until the row is parked, and
ids in any number."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from sqlalchemy import select, text

from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, Workspace, table_sha256
from triage_app.core.deadletters import (
    DeadLetterFilter,
    get_dead_letter,
    list_dead_letters,
    redrive,
)
from triage_app.core.transforms.pesanan import TRANSFORMS

PESANAN = TRANSFORMS[1]


def test_redrive_dry_run_writes_nothing(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    h = table_sha256(workspace.warehouse, PESANAN)
    before = [(d.id, d.attempts, d.status) for d in list_dead_letters(workspace)]
    r = redrive(workspace, "pesanan@2", where=DeadLetterFilter(), dry_run=True)
    assert r.dry_run and r.attempted == 4 and r.succeeded == 1 and r.failed == 3
    assert {x.outcome for x in r.results} == {"would_succeed", "would_fail"}
    ok = next(x for x in r.results if x.outcome == "would_succeed")
    assert ok.row is not None and ok.row["total"] == 120000
    assert table_sha256(workspace.warehouse, PESANAN) == h
    assert [(d.id, d.attempts, d.status) for d in list_dead_letters(workspace)] == before


def test_parked_at_max_attempts(workspace: Workspace, seed_batch: Path) -> None:
    run_batch(workspace, seed_batch, "pesanan@1")
    line4 = next(d for d in list_dead_letters(workspace) if d.line == 4)
    outcomes = [
        redrive(workspace, "pesanan@2", ids=[line4.id]).results[0].outcome for _ in range(2)
    ]
    assert outcomes == ["failed", "parked"]
    d = get_dead_letter(workspace, line4.id, reveal=True)
    assert (d.attempts, d.status) == (3, "parked")
    assert [e.action for e in d.events][-2:] == ["redrive_failed", "parked"]
    assert not any(x.line == 4 for x in list_dead_letters(workspace))
    # --all-open leaves parked rows alone; a person re-drives them by id.
    assert redrive(workspace, "pesanan@2", where=DeadLetterFilter(status="open")).attempted == 3
    assert redrive(workspace, "pesanan@2", ids=[line4.id], max_attempts=5).attempted == 1


def test_a_higher_limit_holds_for_a_row_a_lower_one_parked(
    workspace: Workspace, seed_batch: Path
) -> None:
    """Issue 20: ``--max-attempts 5`` on a row the default limit parked at 3 kept it parked
    at 4, silently. The limit of the re-drive holds: below it the row waits as open again
    (audited), at it the row is parked; a row a person parked stays parked."""
    from triage_app.core.deadletters import apply_change, park

    run_batch(workspace, seed_batch, "pesanan@1")
    by_line = {d.line: d.id for d in list_dead_letters(workspace)}
    no_qty, negative = by_line[4], by_line[6]  # both fail pesanan@2 however often
    for _ in range(2):
        redrive(workspace, "pesanan@2", ids=[no_qty])
    assert get_dead_letter(workspace, no_qty, reveal=True).status == "parked"  # 3 attempts, limit 3
    assert len(apply_change(workspace, [negative], park("ask the shop")).changed) == 1

    def outcomes() -> list[str]:
        s = redrive(workspace, "pesanan@2", ids=[no_qty, negative], max_attempts=5)
        return [r.outcome for r in s.results]

    assert outcomes() == ["failed", "failed"]
    d = get_dead_letter(workspace, no_qty, reveal=True)
    assert (d.attempts, d.status) == (4, "open")
    assert [(e.action, e.detail) for e in d.events][-2:] == [
        ("redrive_failed", "attempt 4 with pesanan@2: DataError: kolom wajib hilang: qty"),
        ("reopened", "4 attempts are below the limit of 5"),
    ]
    assert (
        get_dead_letter(workspace, negative, reveal=True).status == "parked"
    )  # a person's park stays
    assert outcomes() == ["parked", "failed"]
    d = get_dead_letter(workspace, no_qty, reveal=True)
    assert (d.attempts, d.status) == (5, "parked")
    assert [e.action for e in d.events][-2:] == ["redrive_failed", "parked"]
    assert get_dead_letter(workspace, negative, reveal=True).attempts == 3


def test_redrive_by_many_ids(workspace: Workspace, seed_batch: Path) -> None:
    """More ids than SQLite takes parameters in one statement."""
    from triage_app.core.errors import TriageError

    run_batch(workspace, seed_batch, "pesanan@1")
    with pytest.raises(TriageError, match="no dead letter with id 5, 6, 7"):
        redrive(workspace, "pesanan@2", ids=list(range(1, 40_001)))


class _CancelAfter:
    """Progress that records each update and asks to stop after ``n`` of them."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.updates: list[tuple[int, int, int]] = []

    def update(self, done: int, total: int, rows: int = 0) -> None:
        self.updates.append((done, total, rows))

    def cancelled(self) -> bool:
        return len(self.updates) >= self.n


def _nulls(workspace: Workspace, tmp_path: Path, rows: int) -> str:
    """A batch of ``rows`` orders whose null diskon fails pesanan@1 and loads with @2."""
    src = tmp_path / "nulls.jsonl"
    src.write_bytes(
        b"".join(
            orjson.dumps(
                {
                    "pesanan_id": i,
                    "waktu": "w",
                    "pelanggan": "p",
                    "produk": "x",
                    "qty": 2,
                    "harga": 5,
                    "diskon": None,
                }
            )
            + b"\n"
            for i in range(1, rows + 1)
        )
    )
    return run_batch(workspace, src, "pesanan@1").batch_id


def test_a_batch_redrive_pages_in_growing_chunks_and_stops_between_them(
    workspace: Workspace, tmp_path: Path
) -> None:
    """Chunks of 500, then 1,000, ...: progress after each; a cancel leaves the rest open
    and free (no lease), and the next re-drive picks up exactly the rest."""
    batch_id = _nulls(workspace, tmp_path, 1_700)
    where = DeadLetterFilter(status="open", batch_id=batch_id)
    progress = _CancelAfter(2)
    s = redrive(workspace, "pesanan@2", where=where, progress=progress)
    assert progress.updates == [(500, 1_700, 500), (1_500, 1_700, 1_500)]
    assert s.cancelled and s.succeeded == 1_500 and len(s.results) == 1_500
    assert {r.outcome for r in s.results} == {"resolved"}
    with workspace.store.connect() as conn:
        left = conn.execute(
            select(DeadLetter.status, DeadLetter.claimed_by).where(
                DeadLetter.batch_id == batch_id, DeadLetter.status == "open"
            )
        ).all()
    assert len(left) == 200 and {c for _, c in left} == {None}
    rest = redrive(workspace, "pesanan@2", where=where)
    assert (rest.succeeded, rest.failed, rest.cancelled) == (200, 0, False)
    assert [r.line for r in rest.results] == list(range(1_501, 1_701))
    with workspace.warehouse.connect() as conn:
        assert conn.execute(text("SELECT count(*), sum(total) FROM pesanan")).one() == (
            1_700,
            17_000,
        )


def test_the_fast_path_and_fn_agree_in_a_redrive(workspace: Workspace, tmp_path: Path) -> None:
    """A raw JSONL payload the fast path declines (qty 0, an integer beyond 64 bits) fails
    with fn's own words, as in a batch; the others load through it."""
    src = tmp_path / "mixed.jsonl"
    src.write_text(
        '{"pesanan_id": 1, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 0,'
        ' "harga": 5, "diskon": null}\n'
        '{"pesanan_id": 2, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1,'
        ' "harga": 99999999999999999999, "diskon": null}\n'
        '{"pesanan_id": 3, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1,'
        ' "harga": 5, "diskon": null}\n'
    )
    run_batch(workspace, src, "pesanan@1")
    s = redrive(workspace, "pesanan@2", where=DeadLetterFilter(status="open"))
    by_line = {r.line: r for r in s.results}
    assert by_line[1].outcome == "failed" and by_line[1].error == "DataError: qty tidak valid: 0"
    assert by_line[2].outcome == "failed" and "harga tidak valid" in (by_line[2].error or "")
    assert by_line[3].outcome == "resolved"


def test_a_summary_counts_every_row_but_keeps_a_bounded_few_failures_first(
    workspace: Workspace, tmp_path: Path
) -> None:
    """A re-drive of a million rows must not hold a million outcomes: the summary keeps
    ``keep`` of them, those that did not succeed first, and counts all; ``on_results``
    sees every row's, chunk by chunk."""
    batch_id = _nulls(workspace, tmp_path, 1_200)
    # Rows 1-3 are taken out first: the re-drive below finds them resolved (skipped).
    redrive(workspace, "pesanan@2", ids=[1, 2, 3])
    seen: list[int] = []
    where = DeadLetterFilter(status="all", batch_id=batch_id)
    s = redrive(
        workspace,
        "pesanan@2",
        where=where,
        keep=10,
        on_results=lambda chunk: seen.extend(r.id for r in chunk),
    )
    assert (s.attempted, s.succeeded, s.failed, s.skipped) == (1_197, 1_197, 0, 3)
    assert len(s.results) == 10 and s.more_results == 1_190
    assert [r.outcome for r in s.results[:3]] == ["skipped"] * 3  # the problems come first
    assert [r.id for r in s.results] == sorted(r.id for r in s.results)
    assert sorted(seen) == list(range(1, 1_201))
    everything = redrive(workspace, "pesanan@2", where=where, keep=None)
    assert len(everything.results) == 1_200 and everything.more_results == 0
