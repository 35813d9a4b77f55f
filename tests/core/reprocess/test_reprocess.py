"""Reprocess (issue 25): a crafted ``pesanan@1`` loaded wrong totals for rows with a
discount; reprocessing with ``pesanan@2`` finds every one, changes exactly those, quarantines
what the fixed version refuses, leaves a row a later batch wrote alone, and survives kill -9;
on SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text

from tests.core.reprocess.conftest import open_place as _open
from tests.core.reprocess.crafted import registry, right_total, write_night
from triage_app.core import crashpoints
from triage_app.core.batch import run_batch
from triage_app.core.db import AuditEvent, Batch, DeadLetter, Workspace, open_workspace
from triage_app.core.errors import TriageError
from triage_app.core.reprocess import VerdictKind, applying, reprocess
from triage_app.core.verify import reconcile
from triage_app.core.vocabulary import BatchKind, BatchState

N = 140


def _warehouse(ws: Workspace) -> dict[int, tuple[int, str, int, str]]:
    with ws.warehouse.connect() as conn:
        rows = conn.execute(
            text("SELECT pesanan_id, total, _batch_id, _line, _transform FROM pesanan")
        )
        return {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}


def _night(ws: Workspace, tmp_path: Path) -> tuple[str, list[dict[str, Any]]]:
    records = write_night(tmp_path / "night.jsonl", N)
    s = run_batch(ws, tmp_path / "night.jsonl", "pesanan@1", registry=registry())
    assert s.quarantined == 0 and s.loaded == N  # the bug fails nothing: it is silent
    return s.batch_id, records


def _kinds(records: list[dict[str, Any]]) -> tuple[set[int], set[int], set[int]]:
    changed = {r["pesanan_id"] for r in records if isinstance(r["diskon"], int) and r["diskon"]}
    failing = {r["pesanan_id"] for r in records if isinstance(r["diskon"], str)}
    unchanged = {r["pesanan_id"] for r in records} - changed - failing
    return changed, failing, unchanged


def test_a_dry_run_says_per_row_and_writes_nothing(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        batch, records = _night(ws, tmp_path)
        before = _warehouse(ws)
        s = reprocess(ws, "pesanan@1", "pesanan@2", dry_run=True, registry=registry())
        changed, failing, unchanged = _kinds(records)
        assert (s.checked, s.changed, s.failing, s.unchanged) == (
            N,
            len(changed),
            len(failing),
            len(unchanged),
        )
        assert changed and failing and unchanged
        by_key = {r["pesanan_id"]: r for r in records}
        for v in s.verdicts:
            r = by_key[v.suspect.key]
            assert (v.suspect.batch_id, v.suspect.line) == (batch, r["pesanan_id"])
            if v.kind is VerdictKind.CHANGED:
                assert v.diff == (("total", r["qty"] * r["harga"], right_total(r)),)
                assert v.diff_said() == f"total: {r['qty'] * r['harga']} -> {right_total(r)}"
            else:
                assert v.kind is VerdictKind.FAILING and v.failure is not None
                assert v.failure.error == "DataError: diskon tidak valid: '10%'"
        assert {v.suspect.key for v in s.verdicts} == changed | failing
        assert _warehouse(ws) == before
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(Batch)).scalar_one() == 1
        assert "Nothing was written" in s.describe()


def test_applying_fixes_every_total_and_is_recorded_like_a_batch(
    place: dict[str, Any], tmp_path: Path
) -> None:
    with _open(place) as ws:
        batch, records = _night(ws, tmp_path)
        s = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry(), chunk_size=17)
        changed, failing, _unchanged = _kinds(records)
        assert (s.applied, s.left, s.quarantined) == (len(changed), 0, len(failing))
        assert s.run_id is not None
        after = _warehouse(ws)
        for r in records:
            total, b, line, version = after[r["pesanan_id"]]
            if r["pesanan_id"] in changed:
                assert (total, b, version) == (right_total(r), s.run_id, "pesanan@2")
            else:  # unchanged, or refused and quarantined: as the suspect version wrote it
                assert (total, b, line, version) == (
                    r["qty"] * r["harga"],
                    batch,
                    r["pesanan_id"],
                    "pesanan@1",
                )
        with ws.store.connect() as conn:
            run = conn.execute(select(Batch.__table__).where(Batch.batch_id == s.run_id)).one()
            dead = conn.execute(
                select(DeadLetter.error).where(DeadLetter.batch_id == s.run_id)
            ).all()
        assert (run.kind, run.produced_by, run.transform, run.state) == (
            BatchKind.REPROCESS,
            "pesanan@1",
            "pesanan@2",
            BatchState.COMPLETE,
        )
        assert run.rows == len(changed) + len(failing) and run.actor
        assert [m for (m,) in dead] == ["DataError: diskon tidak valid: '10%'"] * len(failing)
        r = reconcile(ws, s.run_id)
        assert r.ok and r.complete, r.problems
        with ws.store.connect() as conn:
            [(actor, detail)] = conn.execute(
                select(AuditEvent.actor, AuditEvent.detail).where(
                    AuditEvent.action == "reprocessed", AuditEvent.dead_letter_id.is_(None)
                )
            ).all()
        assert actor == run.actor and detail == (
            f"run {s.run_id}: pesanan@1 -> pesanan@2: {len(changed)} updated, 0 left alone, "
            f"{len(failing)} quarantined"
        )

        # Again: the changed rows are the fixed version's now, the refused ones wait as dead
        # letters; nothing is applied or quarantined twice.
        again = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry())
        assert (again.changed, again.failing, again.quarantined_before) == (0, 0, len(failing))
        assert again.run_id is None and "Nothing to apply" in again.describe()
        with ws.store.connect() as conn:
            n_dead = conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one()
        assert n_dead == len(failing)


def test_a_row_a_later_batch_wrote_meanwhile_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        _batch, records = _night(ws, tmp_path)
        changed, _failing, _ = _kinds(records)
        later_keys = sorted(changed)[:5]
        later = [dict(r, qty=9, diskon=0) for r in records if r["pesanan_id"] in later_keys]
        (tmp_path / "later.jsonl").write_bytes(
            b"".join(__import__("orjson").dumps(r) + b"\n" for r in later)
        )
        real = applying.crash_point

        def after_plan(name: str) -> None:
            if name == "reprocess-after-plan":  # planned, nothing applied: a batch comes in
                run_batch(ws, tmp_path / "later.jsonl", "pesanan@2", registry=registry())
            real(name)

        monkeypatch.setattr(applying, "crash_point", after_plan)
        s = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry())
        assert (s.applied, s.left) == (len(changed) - 5, 5)
        after = _warehouse(ws)
        for r in later:
            total, _b, _line, version = after[r["pesanan_id"]]
            assert (total, version) == (9 * r["harga"], "pesanan@2")
        assert reconcile(ws, s.run_id or "").ok


def _apply_and_die(place: dict[str, Any], crash: str) -> None:
    os.environ[crashpoints.ENV] = crash
    crashpoints._armed = None  # armed afresh in this process
    with _open(place) as ws:
        reprocess(ws, "pesanan@1", "pesanan@2", registry=registry(), chunk_size=10)


@pytest.mark.slow
@pytest.mark.parametrize("crash", ["reprocess-after-warehouse:2", "reprocess-after-chunk:3"])
def test_killed_mid_apply_a_rerun_resumes_and_nothing_is_doubled(
    place: dict[str, Any], tmp_path: Path, crash: str
) -> None:
    with _open(place) as ws:
        batch, records = _night(ws, tmp_path)
    child = multiprocessing.get_context("fork").Process(target=_apply_and_die, args=(place, crash))
    child.start()
    child.join(60)
    assert child.exitcode == -9
    with _open(place) as ws:
        with ws.store.connect() as conn:
            run = conn.execute(
                select(Batch.__table__).where(Batch.kind == BatchKind.REPROCESS.value)
            ).one()
        assert run.state == BatchState.RUNNING and run.lines_done in (10, 30)
        s = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry(), chunk_size=10)
        assert s.resumed and s.run_id == run.batch_id
        changed, failing, _ = _kinds(records)
        assert (s.applied, s.left, s.quarantined) == (len(changed), 0, len(failing))
        after = _warehouse(ws)
        for r in records:
            if r["pesanan_id"] in changed:
                assert after[r["pesanan_id"]][0] == right_total(r)
        with ws.store.connect() as conn:
            n_dead = conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one()
        assert n_dead == len(failing)
        assert reconcile(ws, run.batch_id).ok
        assert batch != run.batch_id


def test_refusals_are_one_line(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        with pytest.raises(TriageError, match="with another version, not itself"):
            reprocess(ws, "pesanan@2", "pesanan@2", registry=registry())
        with pytest.raises(TriageError, match="no batch nope"):
            reprocess(ws, "pesanan@1", "pesanan@2", scope="nope", registry=registry())
        with pytest.raises(TriageError, match="compares rows of one table"):
            reprocess(ws, "pesanan@1", "orders@1")


CSV = (
    "\ufefforder_id,pelanggan,status,total,updated_at\r\n"
    "1,Budi,Shipped,1000,2026-11-01\r\n"
    '2,"Siti, ""Toko""\r\nBaru",shipped,2000,2026-11-01\r\n'
    "3,Dewi,PAID,abc,2026-11-01\r\n"
    "4,Rina,paid,4000,2026-11-01\r\n"
    '5,"Ani\nAyu",New,5000,2026-11-01\r\n'
)


def test_a_csv_batch_and_a_row_a_re_drive_loaded(tmp_path: Path) -> None:
    """CSV with a byte-order mark, CRLF and quoted line breaks: each record is found by the
    line its batch numbered it with; a row a re-drive loaded is judged on the fixed payload
    its dead letter holds, not the source's line."""
    from tests.core.reprocess.crafted import csv_registry
    from triage_app.core.deadletters import edit_payload, redrive

    (tmp_path / "orders.csv").write_bytes(CSV.encode())
    with open_workspace(tmp_path / "ws") as ws:
        b = run_batch(ws, tmp_path / "orders.csv", "orders@1", registry=csv_registry())
        assert (b.loaded, b.quarantined) == (4, 1)
        with ws.store.connect() as conn:
            dl = conn.execute(select(DeadLetter.id)).scalar_one()
        fixed = (
            '{"order_id": "3", "pelanggan": "Dewi", "status": "PAID", "total": "3000", '
            '"updated_at": "2026-11-01"}'
        )
        edit_payload(ws, dl, fixed)
        assert redrive(ws, "orders@1", ids=[dl], registry=csv_registry()).succeeded == 1

        s = reprocess(ws, "orders@1", "orders@2", dry_run=True, registry=csv_registry())
        said = {v.suspect.key: v.diff_said() for v in s.verdicts}
        assert said == {
            1: "status: 'Shipped' -> 'shipped'",
            3: "status: 'PAID' -> 'paid'",
            5: "status: 'New' -> 'new'",
        }
        assert (s.checked, s.unchanged) == (5, 2)
        applied = reprocess(ws, "orders@1", "orders@2", registry=csv_registry())
        assert applied.applied == 3
        with ws.warehouse.connect() as conn:
            rows = dict(conn.execute(text("SELECT order_id, status FROM orders")).all())
        assert rows == {1: "shipped", 2: "shipped", 3: "paid", 4: "paid", 5: "new"}


def test_a_reprocess_limited_to_one_batch_touches_only_its_rows(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        first, records = _night(ws, tmp_path)
        more = write_night(tmp_path / "more.jsonl", 60, seed=9, first=N + 1)
        second = run_batch(ws, tmp_path / "more.jsonl", "pesanan@1", registry=registry()).batch_id
        s = reprocess(ws, "pesanan@1", "pesanan@2", scope=second[:6], registry=registry())
        assert s.scope == second and s.checked == 60
        changed, _, _ = _kinds(more)
        assert s.applied == len(changed)
        after = _warehouse(ws)
        for r in records:  # the first night's rows: as the suspect version wrote them
            assert after[r["pesanan_id"]][1:] == (first, r["pesanan_id"], "pesanan@1")
        with ws.store.connect() as conn:
            run = conn.execute(select(Batch.__table__).where(Batch.batch_id == s.run_id)).one()
        assert run.scope == second and run.source_name.endswith(f"(batch {second})")


def test_a_run_shows_in_trends_timeline_and_is_never_judged_a_spike(tmp_path: Path) -> None:
    from triage_app.core.trends import compute_trends

    with open_workspace(tmp_path / "ws") as ws:
        # Eight quiet nights, then the reprocess: its rows are the changed and failing
        # ones only, a rate no night had; the spike rule would flag it if it judged it.
        for night in range(8):
            path = tmp_path / f"night{night}.jsonl"
            write_night(path, 30, seed=night, first=1 + 30 * night)
            assert run_batch(ws, path, "pesanan@1", registry=registry()).quarantined == 0
        s = reprocess(ws, "pesanan@1", "pesanan@2", registry=registry())
        assert s.applied > 0 and s.quarantined > 0  # a rate far above the nights' 0
        bad = write_night(tmp_path / "bad.jsonl", 20, seed=99, first=10_001)
        for r in bad:
            r["qty"] = -1
        (tmp_path / "bad.jsonl").write_bytes(
            b"".join(__import__("orjson").dumps(r) + b"\n" for r in bad)
        )
        run_batch(ws, tmp_path / "bad.jsonl", "pesanan@1", registry=registry())
        t = compute_trends(ws)
        kinds = [(b.batch_id == s.run_id, b.kind) for b in t.per_batch]
        assert (True, "reprocess") in kinds and len(t.per_batch) == 10
        at = [b.batch_id for b in t.per_batch].index(s.run_id or "")
        assert t.checks[at].baseline is None and not t.checks[at].is_spike
        assert t.checks[-1].is_spike  # the bad night is still judged against the quiet ones
