"""A revert that finishes (issue 21), with real processes on SQLite and PostgreSQL.

A change-set of 23 rows, one edited after the fix: the revert restores 22 and names the
edited row (moved on, still open), and the change-set stays open. The row is re-driven
(resolved: moved on for good) and the revert runs again: the 22 rows are counted as
already restored, not blamed for the revert's own edit, and the change-set is reverted.
Killed mid revert (a crash point, 9,004 rows), the rerun restores the rest, counts the
rows the dead run restored as already restored, and marks the change-set reverted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from sqlalchemy import func, select

from tests.support import REPO
from tests.support.events import whole_trail
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, Workspace, open_workspace


@dataclass
class Store:
    args: list[str]  # the CLI's options for this store
    folder: Path | None = None
    urls: tuple[str, str] | None = None

    def open(self) -> Workspace:
        if self.urls is not None:
            return open_workspace(warehouse_url=self.urls[0], dead_letter_url=self.urls[1])
        assert self.folder is not None
        return open_workspace(self.folder)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        ws = tmp_path / "ws"
        yield Store(["--workspace", str(ws)], folder=ws)
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield Store(["--warehouse", wh, "--dead-letter", dl], urls=(wh, dl))


def order(i: int, diskon: int | None = None) -> dict[str, object]:
    return {
        "pesanan_id": i,
        "waktu": "2026-01-12T08:00:00",
        "pelanggan": f"p{i}",
        "produk": "kopi",
        "qty": 1 + i % 3,
        "harga": 1000 + i,
        "diskon": diskon,
    }


def fill(store: Store, folder: Path, rows: int) -> list[int]:
    """``rows`` orders that fail pesanan@1 (a null diskon) and load once it has a value;
    the dead letters' ids, in the order of the lines."""
    src = folder / f"orders_{rows}.jsonl"
    with src.open("wb") as f:
        for i in range(rows):
            f.write(orjson.dumps(order(i)) + b"\n")
    with store.open() as ws:
        assert run_batch(ws, src, "pesanan@1").quarantined == rows
        with ws.store.connect() as conn:
            return list(conn.execute(select(DeadLetter.id).order_by(DeadLetter.id)).scalars())


def run(
    store: Store, *args: str, crash: str | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_CRASH_AT"}
    if crash:
        env["TRIAGE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *store.args, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=timeout,
    )


def payloads(store: Store) -> dict[int, bytes | None]:
    with store.open() as ws, ws.store.connect() as conn:
        rows = conn.execute(select(DeadLetter.id, DeadLetter.payload))
        return {r.id: r.payload for r in rows}


def revert_events(store: Store) -> int:
    """The ``edited`` events of change-set 1's revert, as the trail tells them."""
    trail = whole_trail()
    with store.open() as ws, ws.store.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(trail)
                .where(trail.c.detail.like("revert of change-set 1:%"))
            ).scalar_one()
        )


def reverted_at(store: Store) -> object:
    with store.open() as ws:
        return dls.change_set(ws, 1).reverted_at


def test_a_revert_after_a_row_moved_on_finishes_once_that_row_is_dealt_with(
    store: Store, tmp_path: Path
) -> None:
    ids = fill(store, tmp_path, 23)
    before = payloads(store)
    fixed = run(store, "fix", "--status", "open", "--default", "diskon=0")
    assert fixed.returncode == 0, fixed.stderr
    assert "Change-set 1: 23 dead letters changed." in fixed.stdout
    edited = ids[7]  # line 8: pesanan 7
    payload = orjson.dumps(order(7, diskon=5)).decode()
    assert run(store, "edit", str(edited), "--payload", payload).returncode == 0

    first = run(store, "--json", "revert", "1")
    assert first.returncode == 1, first.stderr  # open: one row waits for a person
    got = json.loads(first.stdout)
    assert len(got["changed"]) == 22 and got["already"] == []
    assert [m["id"] for m in got["moved_on"]] == [edited]
    assert got["moved_on"][0]["still_open"] is True
    assert "edited by" in got["moved_on"][0]["reason"]
    assert got["reverted_at"] is None and reverted_at(store) is None
    text = run(store, "revert", "1")  # the same judgement, in words, changes nothing
    assert text.returncode == 1
    said = "partly reverted: 0 dead letters restored. 22 already restored. 1 moved on since"
    assert said in text.stdout, text.stdout
    assert "It stays open" in text.stdout

    redriven = run(store, "redrive", str(edited), "--transform", "pesanan@1")
    assert redriven.returncode == 0, redriven.stderr
    second = run(store, "--json", "revert", "1")
    assert second.returncode == 0, second.stdout + second.stderr
    got = json.loads(second.stdout)
    assert got["changed"] == [] and sorted(got["already"]) == sorted(set(ids) - {edited})
    assert [m["id"] for m in got["moved_on"]] == [edited]
    assert got["moved_on"][0]["still_open"] is False
    assert "resolved by" in got["moved_on"][0]["reason"]
    assert got["reverted_at"] is not None and reverted_at(store) is not None

    after = payloads(store)
    assert {i: after[i] for i in ids if i != edited} == {i: before[i] for i in ids if i != edited}
    assert revert_events(store) == 22  # each row restored once, however many reverts ran
    again = run(store, "revert", "1")
    assert again.returncode == 2 and "change-set 1 was reverted" in again.stderr


@pytest.mark.slow
def test_a_revert_killed_mid_way_finishes_when_run_again(store: Store, tmp_path: Path) -> None:
    """kill -9 while the revert's second chunk (of 2,000) is written: the first chunk's
    2,000 rows are restored, the rest untouched; the rerun restores the 7,004 others,
    says 2,000 were already restored, 0 moved on, and marks the change-set reverted."""
    from triage_app.core.deadletters.change_sets import CHUNK

    rows = 9_004
    fill(store, tmp_path, rows)
    before = payloads(store)
    fixed = run(store, "fix", "--status", "open", "--set", "kanal=toko")
    assert fixed.returncode == 0, fixed.stderr

    killed = run(store, "revert", "1", crash="mid-revert:2")
    assert killed.returncode == -9, killed.stderr
    mid = payloads(store)
    assert sum(mid[i] == before[i] for i in mid) == CHUNK
    assert revert_events(store) == CHUNK and reverted_at(store) is None

    again = run(store, "--json", "revert", "1")
    assert again.returncode == 0, again.stdout + again.stderr
    got = json.loads(again.stdout)
    assert (len(got["changed"]), len(got["already"]), got["moved_on"]) == (rows - CHUNK, CHUNK, [])
    assert got["reverted_at"] is not None and reverted_at(store) is not None
    assert payloads(store) == before  # byte for byte
    assert revert_events(store) == rows
