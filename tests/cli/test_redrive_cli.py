"""What ``redrive`` says (issue 20): skipped rows are counted and named, a dry run says
"would" for every row it did not write, and --max-attempts is the limit it says."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.support import cli


@pytest.fixture
def ws(tmp_path: Path) -> list[str]:
    args = ["--workspace", str(tmp_path / "ws")]
    assert cli(*args, "demo").returncode == 0  # the seed's 10 rows: ids 1-4 quarantined
    return args


def test_a_redrive_of_a_resolved_row_says_it_skipped_it(ws: list[str]) -> None:
    first = cli(*ws, "redrive", "4", "--transform", "pesanan@2")
    assert first.stdout == (
        "Re-drove 1 dead letter with pesanan@2: 1 resolved, 0 failed (0 parked).\n"
    )
    again = cli(*ws, "redrive", "4", "--transform", "pesanan@2")
    assert again.returncode == 0
    assert again.stdout.splitlines() == [
        "Re-drove 0 dead letters with pesanan@2: 0 resolved, 0 failed (0 parked). "
        "Skipped 1 (already resolved): #4.",
    ]
    assert cli(*ws, "discard", "1", "--reason", "junk").returncode == 0
    mixed = cli(*ws, "redrive", "1", "2", "4", "--transform", "pesanan@1")
    assert mixed.stdout.splitlines() == [
        "Re-drove 1 dead letter with pesanan@1: 0 resolved, 1 failed (0 parked). "
        "Skipped 1 (already discarded): #1. Skipped 1 (already resolved): #4.",
    ]


def test_a_dry_run_says_would_for_every_row(ws: list[str]) -> None:
    assert cli(*ws, "redrive", "4", "--transform", "pesanan@2").returncode == 0
    dry = cli(*ws, "redrive", "1", "2", "3", "4", "--transform", "pesanan@2", "--dry-run")
    assert dry.returncode == 0
    assert dry.stdout.splitlines() == [
        "Preview of 3 dead letters with pesanan@2: 0 would succeed, 3 would still fail. "
        "Would skip 1 (already resolved): #4. Nothing was written.",
    ]
    assert "resolved," not in dry.stdout and "Skipped" not in dry.stdout


def test_skipped_rows_are_named_up_to_ten(tmp_path: Path) -> None:
    from tests.support import gen_batch

    ws = ["--workspace", str(tmp_path / "ws")]
    src = gen_batch(tmp_path / "orders.jsonl", 400, bad=0.2, seed=7)
    assert cli(*ws, "run", str(src), "--transform", "pesanan@1").returncode == 0
    listed = orjson.loads(cli(*ws, "list", "--json", "--limit", "1000").stdout)
    ids = [d["id"] for d in listed][:12]
    assert cli(*ws, "discard", *map(str, ids), "--reason", "junk").returncode == 0
    done = cli(*ws, "redrive", *map(str, ids), "--transform", "pesanan@2")
    assert done.stdout.splitlines()[0].endswith(
        " Skipped 12 (already discarded): " + ", ".join(f"#{i}" for i in ids[:10]) + " and 2 more."
    )


@pytest.mark.slow
def test_max_attempts_is_the_limit_that_holds(ws: list[str]) -> None:
    """Issue 20: ``--max-attempts 5`` silently parked at 3 (a row the default limit had
    parked stayed parked). Re-driven five times from the start, or after the default limit
    parked it, a row is parked when it has failed five times, and not before."""
    for attempt in (2, 3, 4, 5):
        done = cli(*ws, "redrive", "2", "--transform", "pesanan@2", "--max-attempts", "5")
        assert done.returncode == 0
        shown = orjson.loads(cli(*ws, "show", "2", "--json").stdout)
        assert (shown["attempts"], shown["status"]) == (
            attempt,
            "parked" if attempt == 5 else "open",
        )
    for _ in range(2):  # the default limit: parked at 3
        assert cli(*ws, "redrive", "3", "--transform", "pesanan@2").returncode == 0
    assert orjson.loads(cli(*ws, "show", "3", "--json").stdout)["status"] == "parked"
    done = cli(*ws, "redrive", "3", "--transform", "pesanan@2", "--max-attempts", "5")
    assert done.stdout == (
        "Re-drove 1 dead letter with pesanan@2: 0 resolved, 1 failed (0 parked).\n"
    )
    shown = orjson.loads(cli(*ws, "show", "3", "--json").stdout)
    assert (shown["attempts"], shown["status"]) == (4, "open")
    assert shown["events"][-1]["action"] == "reopened"
    done = cli(*ws, "redrive", "3", "--transform", "pesanan@2", "--max-attempts", "0")
    assert done.returncode == 2 and "must be at least 1, not 0" in done.stderr
