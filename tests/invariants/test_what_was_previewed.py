"""What the steward sees is what happens (docs/design.md, invariant 9): a re-drive confirmed
after a preview acts on exactly the rows the preview showed, each only while it is still at
the version previewed, on SQLite and PostgreSQL, with another steward editing the same rows
in a process of its own at the same moment.

Afterwards every row is one of two things, never both and never neither:
- re-driven as previewed: resolved, with no edit before its resolution, and the warehouse
  holds what the previewed payload transforms to;
- edited by the other steward before the re-drive reached it: left open, named by the
  re-drive as changed since the preview, its attempts untouched.
Rows another batch adds after the preview are not touched at all.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import select, text

from tests.support import REPO
from tests.support.events import events_by_row
from tests.support.stewards import open_store
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, DeadLetter
from triage_app.core.deadletters import DeadLetterFilter, redrive
from triage_app.core.vocabulary import RedriveOutcome

ROWS = 1500  # three claim chunks (500, then 1,000)


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "ws")
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield f"{wh},{dl}"


def _batch(spec: str, path: Path, first_id: int, rows: int) -> str:
    """Rows that fail pesanan@1 (a null diskon) and load with pesanan@2."""
    with path.open("wb") as f:
        for i in range(rows):
            record = {
                "pesanan_id": first_id + i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": f"p{i}",
                "produk": "kopi",
                "qty": 1,
                "harga": 1000 + i,
                "diskon": None,
            }
            f.write(orjson.dumps(record) + b"\n")
    with open_store(spec) as ws:
        s = run_batch(ws, path, "pesanan@1")
    assert s.quarantined == rows
    return s.batch_id


def test_a_confirmed_redrive_acts_only_on_the_rows_and_versions_previewed(
    spec: str, tmp_path: Path
) -> None:
    batch = _batch(spec, tmp_path / "first.jsonl", 0, ROWS)
    where = DeadLetterFilter(batch_id=batch)
    with open_store(spec) as ws:
        preview = redrive(ws, "pesanan@2", where=where, dry_run=True)
    assert preview.succeeded == ROWS and len(preview.seen) == ROWS
    seen = preview.seen

    # After the preview, another batch adds rows the same filter would not name, and rows
    # the preview did not see (ids above it).
    later = _batch(spec, tmp_path / "later.jsonl", 50_000, 50)

    # Another steward edits every third row, from the end, as fast as it can, while the
    # confirmed re-drive runs from the start.
    edited_ids = [i for i in reversed(list(seen)) if i % 3 == 0]
    steward = subprocess.Popen(
        [sys.executable, "-m", "tests.support.stewards", "edit", spec, "7"]
        + [str(i) for i in edited_ids],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    with open_store(spec) as ws:
        # The race starts once the steward's first edit has landed (its process takes a
        # moment to start); it then edits on while the re-drive runs.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with ws.store.connect() as conn:
                if conn.execute(
                    select(AuditEvent.id).where(AuditEvent.action == "edited").limit(1)
                ).first():
                    break
            time.sleep(0.01)
        s = redrive(ws, "pesanan@2", seen=seen, keep=None)
    out, err = steward.communicate(timeout=300)
    assert steward.returncode == 0, err.decode()
    steward_did = orjson.loads(out)
    assert steward_did["done"], "the race never happened: the steward edited nothing"

    changed = {r.id for r in s.results if r.outcome == RedriveOutcome.SKIPPED}
    resolved = {r.id for r in s.results if r.outcome == RedriveOutcome.RESOLVED}
    assert all(
        r.error and r.error.startswith("changed since version 1")
        for r in s.results
        if r.id in changed
    )
    assert changed | resolved == set(seen) and not changed & resolved

    with open_store(spec) as ws, ws.store.connect() as conn:
        rows = {
            r.id: r
            for r in conn.execute(
                select(DeadLetter.id, DeadLetter.status, DeadLetter.attempts, DeadLetter.batch_id)
            )
        }
        # Each row's history as every reader sees it: stored events and those expanded
        # from the set records (its batch, the re-drive that resolved it), oldest first.
        events = {i: [e.action for e in evs] for i, evs in events_by_row(conn, list(rows)).items()}
        with ws.warehouse.connect() as wconn:
            harga = dict(wconn.execute(text("SELECT pesanan_id, harga FROM pesanan")).all())

    for dl_id in seen:
        history = events[dl_id]
        if dl_id in resolved:
            # Resolved at the version previewed: no edit came before the resolution, and
            # the warehouse holds the previewed payload (the steward's edit adds 7).
            assert rows[dl_id].status == "resolved"
            before = history[: history.index("resolved")]
            assert "edited" not in before, (dl_id, history)
        else:
            assert rows[dl_id].status == "open" and rows[dl_id].attempts == 1
            assert "edited" in history and "resolved" not in history
    # The edits that landed are exactly the rows left out, plus edits refused (resolved).
    assert set(steward_did["done"]) == changed
    pesanan_id = {dl_id: None for dl_id in seen}
    with open_store(spec) as ws, ws.store.connect() as conn:
        for dl_id, payload in conn.execute(
            select(DeadLetter.id, DeadLetter.original_payload).where(DeadLetter.batch_id == batch)
        ):
            pesanan_id[dl_id] = orjson.loads(payload)["pesanan_id"]
    for dl_id in resolved:
        pid = pesanan_id[dl_id]
        assert harga[pid] == 1000 + pid  # the original price: the payload previewed

    # The rows the later batch added were never touched.
    later_rows = [r for r in rows.values() if r.batch_id == later]
    assert len(later_rows) == 50
    assert all(r.status == "open" and r.attempts == 1 for r in later_rows)


def test_a_row_purged_after_the_preview_is_named_not_an_error(tmp_path: Path) -> None:
    spec = str(tmp_path / "ws")
    batch = _batch(spec, tmp_path / "b.jsonl", 0, 5)
    with open_store(spec) as ws:
        preview = redrive(ws, "pesanan@2", where=DeadLetterFilter(batch_id=batch), dry_run=True)
        gone = preview.seen.first(1)[0]
        with ws.store.begin() as conn:
            conn.execute(text("DELETE FROM audit_events WHERE dead_letter_id = :i"), {"i": gone})
            conn.execute(text("DELETE FROM dead_letters WHERE id = :i"), {"i": gone})
        s = redrive(ws, "pesanan@2", seen=preview.seen)
    assert s.attempted == 4 and s.succeeded == 4 and s.skipped == 1
    (skipped,) = [r for r in s.results if r.outcome == RedriveOutcome.SKIPPED]
    assert skipped.id == gone and "no longer in the store" in (skipped.error or "")
