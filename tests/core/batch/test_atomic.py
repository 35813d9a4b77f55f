"""All-or-nothing batches (issue 25): a journal posting through ``jurnal@1`` loads nothing
unless every line passes; its healthy lines are held; fixing its dead letters and loading
the batch whole writes every line in one transaction; a kill inside that transaction
leaves nothing loaded; two stewards loading it at once load it once. SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import func, select, text

from tests.support import REPO
from triage_app.core.batch import run_batch
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    HeldRow,
    RedriveRun,
    Resolution,
    Workspace,
    open_workspace,
    shown_error,
)
from triage_app.core.deadletters import (
    DeadLetterFilter,
    discard,
    discard_held_batch,
    edit_payload,
    load_held_batch,
    redrive,
    reopen,
)
from triage_app.core.deadletters.transitions import change_rows, judge_rows
from triage_app.core.demo import journal_lines, write_journals
from triage_app.core.errors import TriageError
from triage_app.core.transforms.jurnal import jurnal_v1
from triage_app.core.verify import reconcile

UNBALANCED = "J-7"


@dataclass
class Place:
    """A workspace on one of the two stores: CLI options, and how the test opens it."""

    args: list[str]
    spec: str

    def open(self) -> Workspace:
        if "," in self.spec:
            wh, dl = self.spec.split(",", 1)
            return open_workspace(warehouse_url=wh, dead_letter_url=dl)
        return open_workspace(self.spec)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    if request.param == "sqlite":
        ws = tmp_path / "ws"
        yield Place(["--workspace", str(ws)], str(ws))
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield Place(["--warehouse", wh, "--dead-letter", dl], f"{wh},{dl}")


def held_journal(tmp_path: Path, rows: int = 60) -> tuple[Path, list[dict[str, Any]]]:
    lines = journal_lines(rows, unbalanced=[UNBALANCED])
    return write_journals(tmp_path / "jurnal.jsonl", lines), lines


def warehouse_rows(ws: Workspace) -> list[tuple[Any, ...]]:
    with ws.warehouse.connect() as conn:
        try:
            return [
                tuple(r)
                for r in conn.execute(
                    text(
                        "SELECT posting_id, jurnal_id, baris, tanggal, akun, debit, kredit, "
                        "_line FROM jurnal ORDER BY _line"
                    )
                )
            ]
        except Exception:
            return []  # no table: nothing was ever loaded


def expected_rows(lines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The warehouse as it must be, computed apart from the app: each line's posting."""
    out = []
    for n, d in enumerate(lines, 1):
        debit, kredit = d.get("debit") or 0, d.get("kredit") or 0
        key = f"{d['jurnal_id']}/{d['baris']}"
        out.append((key, d["jurnal_id"], d["baris"], d["tanggal"], d["akun"], debit, kredit, n))
    return out


def batch_row(ws: Workspace, batch_id: str) -> Any:
    with ws.store.connect() as conn:
        return conn.execute(select(Batch.__table__).where(Batch.batch_id == batch_id)).one()


def dead_letters(ws: Workspace, batch_id: str) -> list[Any]:
    with ws.store.connect() as conn:
        return list(
            conn.execute(
                select(
                    DeadLetter.id, DeadLetter.line, DeadLetter.status, shown_error().label("error")
                )
                .where(DeadLetter.batch_id == batch_id)
                .order_by(DeadLetter.line)
            )
        )


def fix_unbalanced(ws: Workspace, batch_id: str, lines: list[dict[str, Any]]) -> None:
    """Set the short line of J-7 to the amount that balances its journal."""
    journal = [(n, d) for n, d in enumerate(lines, 1) if d["jurnal_id"] == UNBALANCED]
    debit = sum(d.get("debit") or 0 for _, d in journal)
    n, last = journal[-1]
    fixed = {**last, "kredit": debit}
    lines[n - 1] = fixed
    dl = next(d for d in dead_letters(ws, batch_id) if d.line == n)
    edit_payload(ws, dl.id, json.dumps(fixed))


def test_a_journal_with_one_unbalanced_line_loads_nothing(place: Place, tmp_path: Path) -> None:
    src, lines = held_journal(tmp_path)
    ws = place.open()
    try:
        s = run_batch(ws, src, "jurnal@1")
        journal = [n for n, d in enumerate(lines, 1) if d["jurnal_id"] == UNBALANCED]
        assert (s.state, s.loaded, s.quarantined) == ("held", 0, len(journal))
        assert s.held == len(lines) - len(journal)
        assert "held: " in s.describe() and "wait until every dead letter" in s.describe()
        assert warehouse_rows(ws) == []
        dls = dead_letters(ws, s.batch_id)
        assert [d.line for d in dls] == journal
        debit = sum(lines[n - 1].get("debit") or 0 for n in journal)
        kredit = sum(lines[n - 1].get("kredit") or 0 for n in journal)
        assert {d.error for d in dls} == {
            f"DataError: jurnal {UNBALANCED} tidak seimbang: debit {debit}, kredit {kredit}"
        }
        with ws.store.connect() as conn:
            held = conn.execute(
                select(func.count()).select_from(HeldRow).where(HeldRow.batch_id == s.batch_id)
            ).scalar_one()
        assert held == s.held
        r = reconcile(ws, s.batch_id)
        assert r.ok, r.problems
        assert r.rows == r.loaded + r.superseded + r.quarantined + r.held
        # The same file again: nothing to do, still held.
        again = run_batch(ws, src, "jurnal@1")
        assert again.already_loaded and again.state == "held"
        assert warehouse_rows(ws) == []
    finally:
        ws.close()


def test_fixing_the_line_loads_the_whole_batch_in_one_transaction(
    place: Place, tmp_path: Path
) -> None:
    src, lines = held_journal(tmp_path)
    ws = place.open()
    try:
        s = run_batch(ws, src, "jurnal@1")
        # Not fixed yet: nothing loads, every reason said.
        refused = load_held_batch(ws, s.batch_id)
        assert not refused.loaded and len(refused.failing) == s.quarantined
        assert warehouse_rows(ws) == []
        fix_unbalanced(ws, s.batch_id, lines)
        done = load_held_batch(ws, s.batch_id)
        assert done.loaded and done.rows == len(lines), done.describe()
        assert (done.held, done.resolved) == (s.held, s.quarantined)
        assert warehouse_rows(ws) == expected_rows(lines)
        b = batch_row(ws, s.batch_id)
        assert (b.state, b.held, b.loaded) == ("complete", 0, s.held)
        assert {d.status for d in dead_letters(ws, s.batch_id)} == {"resolved"}
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(HeldRow)).scalar_one() == 0
            runs = conn.execute(select(RedriveRun.given, RedriveRun.transform)).all()
            assert runs == [
                (orjson.dumps({"batch": s.batch_id, "whole": True}).decode(), "jurnal@1")
            ]
            assert conn.execute(select(func.count()).select_from(Resolution)).scalar_one() == (
                s.quarantined
            )
        r = reconcile(ws, s.batch_id)
        assert r.ok and r.complete, r.problems
        again = load_held_batch(ws, s.batch_id)
        assert again.already and not again.loaded and "already loaded whole" in again.describe()
    finally:
        ws.close()


def test_a_clean_journal_loads_at_the_end_of_its_run(workspace: Workspace, tmp_path: Path) -> None:
    lines = journal_lines(45)
    src = write_journals(tmp_path / "clean.jsonl", lines)
    s = run_batch(workspace, src, "jurnal@1", chunk_size=10)  # five chunks, held until the end
    assert (s.state, s.loaded, s.held, s.quarantined) == ("complete", len(lines), 0, 0)
    assert warehouse_rows(workspace) == expected_rows(lines)
    assert reconcile(workspace, s.batch_id).ok


def test_a_line_that_fails_on_its_own_and_a_retry_of_the_load(
    workspace: Workspace, tmp_path: Path
) -> None:
    lines = journal_lines(30, missing_akun=["J-3"])
    src = write_journals(tmp_path / "akun.jsonl", lines)
    s = run_batch(workspace, src, "jurnal@1")
    assert s.state == "held"
    dls = dead_letters(workspace, s.batch_id)
    first = next(n for n, d in enumerate(lines, 1) if d["jurnal_id"] == "J-3")
    assert dls[0].line == first and dls[0].error == "DataError: kolom wajib hilang: akun"
    # Its siblings do not balance without it: named too, and fixed by fixing it.
    assert all("jurnal J-3 tidak seimbang" in d.error for d in dls[1:])
    still = load_held_batch(workspace, s.batch_id)
    assert not still.loaded and "kolom wajib hilang: akun" in still.describe()
    lines[first - 1] = {**lines[first - 1], "akun": "1100"}
    edit_payload(workspace, dls[0].id, json.dumps(lines[first - 1]))
    assert load_held_batch(workspace, s.batch_id).loaded
    assert warehouse_rows(workspace) == expected_rows(lines)


def test_rows_of_an_atomic_batch_are_never_redriven_or_discarded_alone(
    place: Place, tmp_path: Path
) -> None:
    src, _lines = held_journal(tmp_path)
    ws = place.open()
    try:
        s = run_batch(ws, src, "jurnal@1")
        dls = dead_letters(ws, s.batch_id)
        with pytest.raises(TriageError, match="loads all or nothing") as by_id:
            redrive(ws, "jurnal@1", ids=[dls[0].id])
        assert f"redrive --batch {s.batch_id}" in str(by_id.value)
        with pytest.raises(TriageError, match="loads all or nothing"):
            redrive(ws, "jurnal@1", where=DeadLetterFilter(batch_id=s.batch_id[:8]))
        every = redrive(ws, "jurnal@1", where=DeadLetterFilter(status="open"))
        assert (every.attempted, every.skipped) == (0, len(dls))
        assert warehouse_rows(ws) == []
        one = change_rows(ws.store, [dls[0].id], discard("junk"))
        assert one.changed == () and "discard --whole-batch" in one.refused[0][1]
        assert judge_rows(ws.store, [dls[0].id], discard("junk")).refused
        assert {d.status for d in dead_letters(ws, s.batch_id)} == {"open"}
        # Whole: every dead letter discarded and the held rows dropped, audited once.
        gone = discard_held_batch(ws, s.batch_id, "sumber mengirim ulang")
        assert (gone.discarded, gone.dropped) == (len(dls), s.held)
        assert {d.status for d in dead_letters(ws, s.batch_id)} == {"discarded"}
        b = batch_row(ws, s.batch_id)
        assert (b.state, b.held) == ("discarded", s.held)
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(HeldRow)).scalar_one() == 0
            about = conn.execute(
                select(AuditEvent.action, AuditEvent.detail).where(
                    AuditEvent.dead_letter_id.is_(None)
                )
            ).all()
        assert len(about) == 1 and about[0].action == "discarded"
        assert "sumber mengirim ulang" in about[0].detail and s.batch_id in about[0].detail
        assert reconcile(ws, s.batch_id).ok
        assert warehouse_rows(ws) == []
        back = change_rows(ws.store, [dls[0].id], reopen())
        assert back.changed == () and "discarded whole" in back.refused[0][1]
        with pytest.raises(TriageError, match="discarded whole"):
            load_held_batch(ws, s.batch_id)
    finally:
        ws.close()


def cli(
    place: Place, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "triage_app", *place.args, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.slow
def test_kill_9_inside_the_load_leaves_nothing_loaded(place: Place, tmp_path: Path) -> None:
    src, lines = held_journal(tmp_path, rows=3_000)
    ws = place.open()
    try:
        s = run_batch(ws, src, "jurnal@1")
        fix_unbalanced(ws, s.batch_id, lines)
    finally:
        ws.close()
    killed = cli(
        place, "redrive", "--batch", s.batch_id, env={"TRIAGE_CRASH_AT": "atomic-mid-load"}
    )
    assert killed.returncode == -9, killed.stderr
    ws = place.open()
    try:
        assert warehouse_rows(ws) == []
        b = batch_row(ws, s.batch_id)
        assert (b.state, b.held) == ("held", s.held)
        assert {d.status for d in dead_letters(ws, s.batch_id)} == {"open"}
        assert reconcile(ws, s.batch_id).ok
    finally:
        ws.close()
    # Killed after the warehouse committed, before the store knew: the next load finishes.
    late = cli(
        place, "redrive", "--batch", s.batch_id, env={"TRIAGE_CRASH_AT": "atomic-after-load"}
    )
    assert late.returncode == -9, late.stderr
    ws = place.open()
    try:
        assert len(warehouse_rows(ws)) == len(lines)
        assert batch_row(ws, s.batch_id).state == "held"
    finally:
        ws.close()
    again = cli(place, "--json", "redrive", "--batch", s.batch_id)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["loaded"] is True
    ws = place.open()
    try:
        assert warehouse_rows(ws) == expected_rows(lines)
        assert batch_row(ws, s.batch_id).state == "complete"
        r = reconcile(ws, s.batch_id)
        assert r.ok and r.complete, r.problems
    finally:
        ws.close()


@pytest.mark.slow
def test_a_run_killed_between_chunks_resumes_without_doubling_held_rows(
    place: Place, tmp_path: Path
) -> None:
    src, lines = held_journal(tmp_path, rows=500)
    killed = cli(
        place,
        "run",
        str(src),
        "--transform",
        "jurnal@1",
        "--chunk-size",
        "100",
        env={"TRIAGE_CRASH_AT": "after-chunk-commit:2"},
    )
    assert killed.returncode == -9, killed.stderr
    done = cli(place, "--json", "run", str(src), "--transform", "jurnal@1", "--chunk-size", "100")
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    journal = [n for n, d in enumerate(lines, 1) if d["jurnal_id"] == UNBALANCED]
    assert (s["state"], s["held"], s["quarantined"]) == (
        "held",
        len(lines) - len(journal),
        len(journal),
    )
    ws = place.open()
    try:
        assert reconcile(ws, s["batch_id"]).ok
        assert warehouse_rows(ws) == []
    finally:
        ws.close()


@pytest.mark.slow
def test_two_stewards_loading_one_held_batch_load_it_once(place: Place, tmp_path: Path) -> None:
    src, lines = held_journal(tmp_path, rows=2_000)
    ws = place.open()
    try:
        s = run_batch(ws, src, "jurnal@1")
        fix_unbalanced(ws, s.batch_id, lines)
    finally:
        ws.close()
    go = tmp_path / f"go-{uuid.uuid4().hex}"
    argv = [*place.args, "--json", "redrive", "--batch", s.batch_id]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.racers", str(go), *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob(go.name + ".ready.*"))) < len(procs):
            assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
            time.sleep(0.01)
        go.touch()
        ended = [(p.communicate(timeout=300), p.returncode) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert [code for _, code in ended] == [0, 0], [err for (_, err), _ in ended]
    said = [json.loads(out) for (out, _), _ in ended]
    assert sorted((d["loaded"], d["already"]) for d in said) == [(False, True), (True, False)]
    second = next(d for d in said if d["already"])
    assert second["loaded_by"]  # who loaded it
    ws = place.open()
    try:
        assert warehouse_rows(ws) == expected_rows(lines)
        with ws.store.connect() as conn:
            assert conn.execute(select(func.count()).select_from(RedriveRun)).scalar_one() == 1
            assert conn.execute(select(func.count()).select_from(Resolution)).scalar_one() == (
                s.quarantined
            )
        b = batch_row(ws, s.batch_id)
        assert (b.state, b.loaded, b.held) == ("complete", s.held, 0)
        assert reconcile(ws, s.batch_id).ok
    finally:
        ws.close()


def test_jurnal_checks_each_line_in_the_seeds_words() -> None:
    ok = {"jurnal_id": "J-1", "baris": 1, "tanggal": "2026-01-31", "akun": "1100", "debit": 5}
    assert jurnal_v1(ok) == ("J-1/1", "J-1", 1, "2026-01-31", "1100", 5, 0)
    cases = [
        ({k: v for k, v in ok.items() if k != "akun"}, "kolom wajib hilang: akun"),
        ({**ok, "debit": -5}, "debit tidak valid: -5"),
        ({**ok, "debit": 1.5}, "debit tidak valid: 1.5"),
        ({**ok, "kredit": 5}, "tepat satu dari debit atau kredit"),
        ({**ok, "debit": 0}, "tepat satu dari debit atau kredit"),
        ({**ok, "baris": True}, "baris tidak valid: True"),
    ]
    for record, said in cases:
        with pytest.raises(Exception, match=said):
            jurnal_v1(record)
