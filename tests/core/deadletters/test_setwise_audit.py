"""Set-wise audit records (issue 23): a batch is the set record of the rows it quarantines
and a re-drive of the rows it resolves; the trail, a row's history and ``audit --json``
expand them into the per-row events they stood for, as the store had them before. A row
whose class or error is overwritten (a failed re-drive, a reclassify) keeps its original
``quarantined`` event, stored first; a dry run writes no run; a purge takes a row's
resolution with it; the same on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.batch import run_batch
from triage_app.core.clock import iso
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    RedriveRun,
    Resolution,
    StoreSetting,
    Workspace,
    current_actor,
    open_workspace,
)
from triage_app.core.deadletters import AuditFilter, audit_page, audit_trail, count_audit_events
from triage_app.core.deadletters.expanded_events import SET_RECORDS_FROM, row_events
from triage_app.core.deadletters.retention import purge
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import TriageError
from triage_app.core.vocabulary import AuditAction, Status

ANA, BUDI = "ana@laptop", "budi@desk"


def order(i: int, **change: Any) -> str:
    record: dict[str, Any] = {
        "pesanan_id": i,
        "waktu": "w",
        "pelanggan": "p",
        "produk": "x",
        "qty": 2,
        "harga": 10,
        "diskon": 0,
    }
    record.update(change)
    return json.dumps({k: v for k, v in record.items() if v is not ...}) + "\n"


def source(tmp: Path) -> Path:
    """Lines 1-3 fail pesanan@1 (a null diskon: code) and load with pesanan@2; line 4
    fails both (a text diskon: code, then data); line 5 misses its qty (data); line 6
    loads."""
    path = tmp / "orders.jsonl"
    path.write_text(
        order(1, diskon=None)
        + order(2, diskon=None)
        + order(3, diskon=None)
        + order(4, diskon="abc")
        + order(5, qty=...)
        + order(6)
    )
    return path


def ids_by_line(ws: Workspace) -> dict[int, int]:
    with ws.store.connect() as conn:
        return {
            int(r.line): int(r.id) for r in conn.execute(select(DeadLetter.id, DeadLetter.line))
        }


def stored_events(ws: Workspace, action: str | None = None) -> int:
    stmt = select(func.count()).select_from(AuditEvent)
    if action is not None:
        stmt = stmt.where(AuditEvent.action == action)
    with ws.store.connect() as conn:
        return int(conn.execute(stmt).scalar_one())


def check_flow(ws: Workspace, src: Path) -> None:
    """The whole story on one store: shared by SQLite and PostgreSQL."""
    run_batch(ws, src, "pesanan@1", actor=ANA)
    line = ids_by_line(ws)
    assert sorted(line) == [1, 2, 3, 4, 5]
    # The batch names who ran it, and no row has an event of its own.
    with ws.store.connect() as conn:
        assert conn.execute(select(Batch.actor)).scalar_one() == ANA
    assert stored_events(ws) == 0
    quarantined = audit_trail(ws, AuditFilter(action="quarantined"))
    assert [r.dead_letter_id for r in quarantined] == [line[n] for n in (5, 4, 3, 2, 1)]
    first = dls.get_dead_letter(ws, line[1], reveal=True)
    q = quarantined[-1]
    assert (q.actor, q.action, q.version) == (ANA, "quarantined", 1)
    assert q.detail == f"code via pesanan@1: {first.error}"
    assert q.detail.startswith("code via pesanan@1: TypeError: ")
    assert q.at == first.first_failed_at
    assert quarantined[0].detail.startswith(
        "data via pesanan@1: DataError: kolom wajib hilang: qty"
    )
    assert count_audit_events(ws, AuditFilter(action="quarantined")) == 5

    # A dry run writes nothing, not even a run.
    dls.redrive(ws, "pesanan@2", ids=[line[1], line[2]], dry_run=True, actor=BUDI)
    with ws.store.connect() as conn:
        assert conn.execute(select(func.count()).select_from(RedriveRun)).scalar_one() == 0

    original_error = dls.get_dead_letter(ws, line[4], reveal=True).error
    summary = dls.redrive(ws, "pesanan@2", ids=[line[n] for n in (1, 2, 3, 4)], actor=BUDI)
    assert (summary.succeeded, summary.failed) == (3, 1)
    with ws.store.connect() as conn:
        runs = conn.execute(select(RedriveRun.actor, RedriveRun.transform, RedriveRun.given)).all()
        lines = conn.execute(select(Resolution.dead_letter_id, Resolution.version)).all()
    assert [(r.actor, r.transform) for r in runs] == [(BUDI, "pesanan@2")]
    assert json.loads(runs[0].given) == {"ids": [[line[1], line[4]]]}
    assert sorted(lines) == [(line[n], 2) for n in (1, 2, 3)]
    # No resolved event is stored; the failure keeps its own, and the row's quarantined
    # event is stored before its error was overwritten, as it was synthesized.
    assert stored_events(ws, "resolved") == 0
    assert stored_events(ws, "redrive_failed") == 1
    assert stored_events(ws, "quarantined") == 1

    resolved = audit_trail(ws, AuditFilter(dead_letter_id=line[1]))
    assert [(r.action, r.actor, r.detail, r.version) for r in resolved] == [
        ("resolved", BUDI, "re-driven with pesanan@2", 2),
        ("quarantined", ANA, q.detail, 1),
    ]
    with ws.store.connect() as conn:
        at = conn.execute(select(DeadLetter.resolved_at).where(DeadLetter.id == line[1])).scalar()
    assert resolved[0].at == iso(at)

    failed = dls.get_dead_letter(ws, line[4], reveal=True)
    assert failed.error != original_error and "diskon tidak valid" in str(failed.error)
    history = [(e.action, e.actor, e.detail, e.version) for e in failed.events]
    assert history[0] == ("quarantined", ANA, f"code via pesanan@1: {original_error}", 1)
    assert history[1][0] == "redrive_failed" and "diskon tidak valid" in history[1][2]
    # The stored event is the one the trail shows, once: never synthesized beside it.
    of_4 = audit_trail(ws, AuditFilter(dead_letter_id=line[4], action="quarantined"))
    assert [r.detail for r in of_4] == [f"code via pesanan@1: {original_error}"]
    assert of_4[0].id > 0 and of_4[0].at == failed.first_failed_at

    # A reclassify overwrites the class: the quarantined event keeps the one it had.
    dls.apply_change(ws, [line[5]], dls.reclassify_as("code"), actor=ANA)
    of_5 = audit_trail(ws, AuditFilter(dead_letter_id=line[5]))
    assert [r.action for r in of_5] == ["reclassified", "quarantined"]
    assert (
        of_5[1].detail.startswith("data via pesanan@1: DataError: kolom wajib hilang: qty")
        and of_5[1].id > 0
    )

    # The counts of each branch, and of the whole.
    assert count_audit_events(ws, AuditFilter(action="quarantined")) == 5
    assert count_audit_events(ws, AuditFilter(action="resolved")) == 3
    assert count_audit_events(ws, AuditFilter(actor="budi")) == 4  # 3 resolved, 1 failure
    assert count_audit_events(ws) == len(audit_trail(ws)) == 5 + 3 + 1 + 1
    # A refusal names the last change: a resolution, which its run stands for.
    with pytest.raises(TriageError, match=f"resolved by {BUDI} at "):
        dls.apply_change(ws, [line[2]], dls.park(), actor=ANA, expected={line[2]: 1})
    # Paging through the mix gives the whole trail, newest first.
    whole = audit_trail(ws)
    assert [r.at for r in whole] == sorted((r.at for r in whole), reverse=True)
    paged: list[Any] = []
    offset = 0
    while True:
        page = audit_page(ws, limit=3, offset=offset)
        paged += page.records
        assert page.more == len(whole) - len(paged)
        if not page.more:
            break
        offset = page.next_offset
    assert paged == whole
    assert {r.id < 0 for r in whole} == {True, False}  # set and per-row records mixed

    # Since the re-drive: its resolutions and failure, the reclassify.
    since = audit_trail(ws, AuditFilter(since=dt.datetime.fromisoformat(whole[-1].at[:-1])))
    assert len(since) == len(whole)
    newer = audit_trail(ws, AuditFilter(since=at))  # the time the re-drive resolved rows
    assert {r.action for r in newer} >= {"resolved", "redrive_failed", "reclassified"}
    assert "quarantined" not in {r.action for r in newer if r.id < 0}


def test_setwise_records_on_sqlite(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        check_flow(ws, source(tmp_path))


@pytest.mark.postgres
def test_setwise_records_on_postgresql(pg_urls: tuple[str, str], tmp_path: Path) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        check_flow(ws, source(tmp_path))


def test_audit_json_of_a_resolved_row(tmp_path: Path) -> None:
    """``audit --json --id N`` of a row a re-drive resolved: its quarantine (the batch's
    actor, the class and error, version 1) and its resolution (the re-drive's actor and
    version, what it was re-driven with), newest first, as when each was an event."""
    env = {**os.environ, "TRIAGE_WORKSPACE": str(tmp_path / "ws")}
    src = source(tmp_path)
    assert cli("run", str(src), "--transform", "pesanan@1", env=env).returncode == 0
    done = cli("redrive", "--class", "code", "--transform", "pesanan@2", env=env)
    assert done.returncode == 0, done.stderr
    out = cli("audit", "--json", "--id", "1", env=env)
    assert out.returncode == 0, out.stderr
    events = json.loads(out.stdout)
    assert [e["action"] for e in events] == ["resolved", "quarantined"]
    assert events[0]["detail"] == "re-driven with pesanan@2" and events[0]["version"] == 2
    assert events[1]["detail"].startswith("code via pesanan@1: TypeError: ")
    assert events[1]["version"] == 1
    # The CLI's own actor (this process's account; no database user on SQLite).
    assert events[0]["actor"] == events[1]["actor"] == current_actor()
    assert all(
        set(e) == {"at", "actor", "action", "dead_letter_id", "detail", "version"} for e in events
    )
    counts = {
        a: len(json.loads(cli("audit", "--json", "--action", a, env=env).stdout))
        for a in ("quarantined", "resolved", "redrive_failed")
    }
    assert counts == {"quarantined": 5, "resolved": 3, "redrive_failed": 1}
    with open_workspace(tmp_path / "ws") as ws:
        with ws.store.connect() as conn:
            given = conn.execute(select(RedriveRun.given)).scalar_one()
        assert json.loads(given) == {"filter": "status open · class code"}


def test_a_store_from_before_keeps_its_stored_events(tmp_path: Path) -> None:
    """Rows whose quarantine and resolution were stored as events (before 0007) show
    those, each once, beside rows a newer batch stands for."""
    t0 = dt.datetime(2026, 3, 1, 9)
    with open_workspace(tmp_path / "ws") as ws:
        with StoreFiller(ws) as f:
            f.batch("oldbatch00000001")
            old = f.dead_letter("oldbatch00000001", 1, error="DataError: x")
            f.event(old, AuditAction.QUARANTINED, t0, actor="old@host", detail="data via p@1: x")
            f.event(old, AuditAction.RESOLVED, t0 + dt.timedelta(hours=1), actor="old@host")
            f.batch("newbatch00000002")
            new = f.dead_letter("newbatch00000002", 1, error="DataError: y")
        with ws.store.begin() as conn:
            conn.execute(Batch.__table__.update().values(actor="new@host"))
            # As the upgrade to 0007 leaves it: set records begin after the old rows.
            conn.execute(
                StoreSetting.__table__.insert().values(key=SET_RECORDS_FROM, value=str(new))
            )
        trail = audit_trail(ws)
        assert sorted((r.dead_letter_id, r.action, r.actor) for r in trail) == [
            (old, "quarantined", "old@host"),
            (old, "resolved", "old@host"),
            (new, "quarantined", "new@host"),
        ]
        assert count_audit_events(ws) == 3
        assert count_audit_events(ws, AuditFilter(actor="old")) == 2
        assert count_audit_events(ws, AuditFilter(action="quarantined")) == 2
        # The new row's batch quarantined it; below the mark, nothing is synthesized.
        with ws.store.begin() as conn:
            conn.execute(AuditEvent.__table__.delete().where(AuditEvent.dead_letter_id == old))
        assert [(r.dead_letter_id, r.action) for r in audit_trail(ws)] == [(new, "quarantined")]
        assert count_audit_events(ws) == 1


def test_an_upgraded_store_with_no_row_since_has_only_its_stored_events(tmp_path: Path) -> None:
    t0 = dt.datetime(2026, 3, 1, 9)
    with open_workspace(tmp_path / "ws") as ws:
        with StoreFiller(ws) as f:
            f.batch("oldbatch00000001")
            rows = [f.dead_letter("oldbatch00000001", n, error="DataError: x") for n in (1, 2)]
            for dl in rows:
                f.event(dl, AuditAction.QUARANTINED, t0, actor="old@host", detail="stored")
        with ws.store.begin() as conn:
            conn.execute(
                StoreSetting.__table__.insert().values(
                    key=SET_RECORDS_FROM, value=str(rows[-1] + 1)
                )
            )
        trail = audit_trail(ws, AuditFilter(action="quarantined"))
        assert [(r.dead_letter_id, r.detail) for r in trail] == [(d, "stored") for d in rows[::-1]]
        assert count_audit_events(ws) == count_audit_events(ws, AuditFilter(since=t0)) == 2


def test_a_purge_takes_a_rows_resolution_with_it(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        run_batch(ws, source(tmp_path), "pesanan@1", actor=ANA)
        dls.redrive(ws, "pesanan@2", where=dls.DeadLetterFilter(error_class="code"), actor=BUDI)
        before = count_audit_events(ws, AuditFilter(action="resolved"))
        assert before == 3
        later = dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(days=1)
        purge(ws, 0, [Status.RESOLVED], actor=ANA, now=later)
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(Resolution)).scalar_one() == 0
            left = conn.execute(select(func.count()).select_from(DeadLetter)).scalar_one()
        assert left == 2
        assert count_audit_events(ws, AuditFilter(action="resolved")) == 0
        assert count_audit_events(ws, AuditFilter(action="quarantined")) == 2


def check_change_sets(ws: Workspace, src: Path) -> None:
    """A fix on three rows and its revert: one record each, no stored event per row, and
    the trail, a row's history and the counts as when each edit was an event."""
    run_batch(ws, src, "pesanan@1", actor=ANA)
    line = ids_by_line(ws)
    by_hand = order(1, diskon=None, kanal="web").strip()
    dls.edit_payload(ws, line[1], by_hand, actor=ANA)
    originals = {n: dls.get_dead_letter(ws, line[n], reveal=True).original_payload for n in (2, 3)}
    fix = dls.Fix(steps=(dls.Step("default", "diskon", 0),))
    chosen = [line[n] for n in (1, 2, 3)]
    report = dls.apply_fix(ws, fix, dls.preview_fix(ws, fix, chosen).versions, actor=ANA)
    cs = report.change_set_id
    assert sorted(report.changed) == sorted(chosen)
    assert stored_events(ws, "edited") == 1  # the edit by hand; the change-set is the rest
    fixed = {n: dls.get_dead_letter(ws, line[n], reveal=True).payload for n in (1, 2, 3)}

    detail = f"change-set {cs}: {fix.description}"
    with ws.store.connect() as conn:
        of_1 = [e for e in row_events(conn, line[1]) if e.action == "edited"]
        of_2 = [e for e in row_events(conn, line[2]) if e.action == "edited"]
    assert len(of_1) == 2 and of_1[0].id > 0  # the edit by hand, stored; then the fix's
    assert (of_1[-1].detail, of_1[-1].version, bytes(of_1[-1].replaced_payload)) == (
        detail,
        3,
        by_hand.encode(),
    )
    assert [(e.actor, e.detail, e.version) for e in of_2] == [(ANA, detail, 2)]
    assert bytes(of_2[0].replaced_payload) == originals[2].encode()
    assert of_2[0].id < 0
    assert count_audit_events(ws, AuditFilter(action="edited")) == 1 + 3
    # A refusal names the change-set's edit as the row's last change.
    with pytest.raises(TriageError, match=f"edited by {ANA} at "):
        dls.apply_change(ws, [line[2]], dls.park(), actor=BUDI, expected={line[2]: 1})

    undone = dls.revert_change_set(ws, cs, actor=BUDI)
    assert sorted(undone.changed) == sorted(chosen) and undone.reverted_at is not None
    assert stored_events(ws, "edited") == 1
    back = f"revert of change-set {cs}: {fix.description}"
    for n in (1, 2, 3):
        trail = audit_trail(ws, AuditFilter(dead_letter_id=line[n], action="edited"))
        assert (trail[0].actor, trail[0].detail) == (BUDI, back)
        with ws.store.connect() as conn:
            newest = [e for e in row_events(conn, line[n]) if e.action == "edited"][-1]
        assert bytes(newest.replaced_payload) == fixed[n].encode()  # what the fix had made
        assert newest.version == dls.get_dead_letter(ws, line[n], reveal=True).version
    assert dls.get_dead_letter(ws, line[1], reveal=True).payload == by_hand
    assert dls.get_dead_letter(ws, line[2], reveal=True).payload == originals[2]
    assert count_audit_events(ws, AuditFilter(action="edited")) == 1 + 3 + 3
    assert count_audit_events(ws, AuditFilter(actor="budi")) == 3
    assert count_audit_events(ws, AuditFilter(action="edited", dead_letter_id=line[1])) == 3
    with pytest.raises(TriageError, match=f"change-set {cs} was reverted at "):
        dls.revert_change_set(ws, cs, actor=BUDI)
    # Paging through the mix gives the whole trail, newest first, each event once.
    whole = audit_trail(ws)
    assert len(whole) == count_audit_events(ws)
    assert len({(r.id, r.at) for r in whole}) == len(whole)
    paged: list[Any] = []
    offset = 0
    while True:
        page = audit_page(ws, limit=2, offset=offset)
        paged += page.records
        if not page.more:
            break
        offset = page.next_offset
    assert paged == whole


def test_a_change_set_and_its_revert_are_records_on_sqlite(tmp_path: Path) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        check_change_sets(ws, source(tmp_path))


@pytest.mark.postgres
def test_a_change_set_and_its_revert_are_records_on_postgresql(
    pg_urls: tuple[str, str], tmp_path: Path
) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        check_change_sets(ws, source(tmp_path))


def test_change_sets_from_before_keep_their_stored_events(tmp_path: Path) -> None:
    """The 0009 fixture: a change-set kept and one reverted on row 4, each edit a stored
    event. Upgraded, the row's history shows each once; a revert of the kept one (row 4
    moved on since) names the revert that came after it."""
    import shutil

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "stores" / "store-0009.db"
    (tmp_path / "ws").mkdir()
    shutil.copyfile(fixture, tmp_path / "ws" / "dead_letter.db")
    with open_workspace(tmp_path / "ws") as ws:
        with ws.store.connect() as conn:
            edits = [e for e in row_events(conn, 4) if e.action == "edited"]
        assert [e.detail.split(":")[0] for e in edits] == [
            "change-set 1",
            "change-set 2",
            "revert of change-set 2",
        ]
        assert all(e.id > 0 for e in edits)  # stored, none expanded beside them
        assert count_audit_events(ws, AuditFilter(action="edited", dead_letter_id=4)) == 3
        report = dls.revert_change_set(ws, 1, actor=BUDI)
        assert report.changed == () and [m.id for m in report.moved_on] == [4]
        assert "edited by fixture" in report.moved_on[0].why
        assert count_audit_events(ws, AuditFilter(action="edited", dead_letter_id=4)) == 3
