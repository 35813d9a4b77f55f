"""Long work on a QThread: progress signals, Cancel at a chunk boundary, resume; the
window's batch dialog; closing the window while a batch runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

from triage_app.core.batch import list_batches
from triage_app.core.db import open_workspace, resolve_config
from triage_app.core.jobs import BatchJob
from triage_app.gui.workers import JobRunner, ProgressReport


def write_batch(path: Path, rows: int, bad_every: int = 97) -> Path:
    with path.open("w") as f:
        for i in range(1, rows + 1):
            rec = {
                "pesanan_id": i,
                "waktu": "2026-01-10T09:15:00",
                "pelanggan": "Budi",
                "produk": "Kemeja Batik",
                "qty": -1 if i % bad_every == 0 else 1,
                "harga": 250000,
                "diskon": 0,
            }
            f.write(json.dumps(rec) + "\n")
    return path


@pytest.mark.parametrize("lanes", ["1", "2"])
def test_batch_worker_reports_progress_cancels_and_resumes(qtbot, tmp_path, monkeypatch, lanes):
    # Two lanes: from a worker thread, core starts the second lane as a new interpreter.
    monkeypatch.setenv("TRIAGE_LANES", lanes)
    started = _record_lane_starts(monkeypatch)
    folder = tmp_path / "ws"
    # Enough chunks that the cancel, queued to the GUI thread by the first report, lands
    # before the batch ends: at 5,000 rows a fast engine sometimes finished first.
    rows = 50_000
    source = write_batch(tmp_path / "orders.jsonl", rows)
    config = resolve_config(folder, env={})
    job = BatchJob(source, "pesanan@2", chunk_size=500)

    # First run: cancel as soon as the first chunk reports.
    runner = JobRunner(config, job)
    reports: list[ProgressReport] = []
    runner.progress.connect(reports.append)
    runner.progress.connect(runner.cancel)
    with qtbot.waitSignal(runner.finished, timeout=20_000) as finished:
        runner.start()
    qtbot.waitUntil(lambda: not runner.is_running())
    first = finished.args[0]
    assert first.cancelled
    assert reports and 0 < reports[0].done < reports[0].total
    assert reports[0].rows == 500
    assert 0 < first.rows < rows
    with open_workspace(folder) as ws:
        (info,) = list_batches(ws)
        assert info.state == "running"  # consistent and resumable

    # The same job again resumes where the cancelled one stopped, and finishes.
    runner = JobRunner(config, job)
    reports.clear()
    runner.progress.connect(reports.append)
    with qtbot.waitSignal(runner.finished, timeout=30_000) as finished:
        runner.start()
    qtbot.waitUntil(lambda: not runner.is_running())
    second = finished.args[0]
    assert second.resumed and not second.cancelled
    assert second.rows == rows
    assert second.rows == second.loaded + second.superseded + second.quarantined
    assert second.quarantined == rows // 97
    assert [r.done for r in reports] == sorted(r.done for r in reports)
    assert reports[-1].done == reports[-1].total
    assert len(started) == (2 if lanes == "2" else 0)  # a second lane for each run


def test_the_second_lane_of_a_gui_batch_is_a_fresh_interpreter(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_LANES", "2")
    started = _record_lane_starts(monkeypatch)
    source = write_batch(tmp_path / "orders.jsonl", 2_000)
    runner = JobRunner(resolve_config(tmp_path / "ws", env={}), BatchJob(source, "pesanan@2"))
    with qtbot.waitSignal(runner.finished, timeout=20_000):
        runner.start()
    qtbot.waitUntil(lambda: not runner.is_running())
    assert started == ["process"]


def _record_lane_starts(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    """Records how core starts each second lane, "fork" or "process" (a new interpreter);
    the real fork or process still happens."""
    import os
    import subprocess

    from triage_app.core.batch import lanes as lane

    started: list[str] = []
    real_popen, real_fork = subprocess.Popen, os.fork

    def popen(args, *a, **k):  # type: ignore[no-untyped-def]
        if any(str(a).startswith("triage_app.core.batch.lane") for a in args):
            started.append("process")
        return real_popen(args, *a, **k)

    def fork() -> int:
        pid = real_fork()
        if pid:
            started.append("fork")
        return pid

    monkeypatch.setattr(lane.subprocess, "Popen", popen)
    monkeypatch.setattr(lane.os, "fork", fork)
    return started


def test_batch_worker_failure_is_one_line(qtbot, tmp_path):
    config = resolve_config(tmp_path / "ws", env={})
    runner = JobRunner(config, BatchJob(tmp_path / "missing.jsonl", "pesanan@2"))
    with qtbot.waitSignal(runner.failed, timeout=10_000) as failed:
        runner.start()
    qtbot.waitUntil(lambda: not runner.is_running())
    assert "no such file" in failed.args[0]
    assert "\n" not in failed.args[0]


def test_batch_dialog_runs_csv_and_shows_its_dead_letters(qtbot, window, tmp_path):
    source = tmp_path / "orders.csv"
    source.write_text(
        "order_id,pelanggan,status,total,updated_at\n"
        "3001,Budi,Baru,250000,2026-01-09T08:00:00\n"
        "3002,Siti,Dibayar,-5,2026-01-09T08:30:00\n"
        "3003,Dewi,Baru,120000\n"
    )
    qtbot.mouseClick(window.findChild(QPushButton, "runBatchButton"), Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    dialog.set_path(source)
    assert dialog.transform_combo.currentData() == "orders@1"  # suggested for CSV
    assert "read as csv" in dialog.detected.text()
    with qtbot.waitSignal(dialog.jobFinished, timeout=20_000):
        qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running())
    assert "quarantined" in dialog.summary.text()
    assert dialog.show_button.isVisible()
    qtbot.mouseClick(dialog.show_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model.filter.batch_id is not None)
    qtbot.waitUntil(lambda: window.model.total() == 2)
    assert window.model.filter.status == "all"
    # A CSV dead letter is edited as a JSON object of header -> value.
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id() is not None)
    assert json.loads(window.detail.payload.editor.toPlainText()) == {
        "order_id": "3002",
        "pelanggan": "S•••",  # personal: masked until revealed
        "status": "Dibayar",
        "total": "-5",
        "updated_at": "2026-01-09T08:30:00",
    }
    assert window.detail.original.toPlainText().startswith("# CSV header: order_id,")
    # A row that does not split into the header's columns: best effort, and a note.
    window.table.selectRow(1)
    qtbot.waitUntil(lambda: window.detail.payload.note.isVisibleTo(window.detail))
    assert json.loads(window.detail.payload.editor.toPlainText())["updated_at"] is None
    # Fix the total, save: the row is stored as a JSON object and re-drives cleanly.
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: '"total": "-5"' in window.detail.payload.editor.toPlainText())
    window.detail.payload.editor.setPlainText(
        window.detail.payload.editor.toPlainText().replace('"total": "-5"', '"total": "5"')
    )
    assert window.detail.payload.save_button.isEnabled()
    window.detail.save()
    qtbot.waitUntil(lambda: window.detail._detail.payload_kind == "json-csv")
    qtbot.mouseClick(window.detail.payload.try_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "would load" in window.detail.payload.try_result.toPlainText())


@pytest.mark.parametrize("lanes", ["1", "2"])
@pytest.mark.parametrize("answer", [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes])
def test_closing_while_a_batch_runs_asks_then_stops_it_cleanly(
    qtbot, open_main_window, tmp_path, monkeypatch, answer, lanes
):
    monkeypatch.setenv("TRIAGE_LANES", lanes)
    folder = tmp_path / "ws"
    folder.mkdir()
    source = write_batch(tmp_path / "big.jsonl", 60_000)
    window = open_main_window(folder)
    runner = window.start_job(BatchJob(source, "pesanan@2", chunk_size=2_000))
    qtbot.waitSignal(runner.progress, timeout=20_000).wait()
    asked = []

    def question(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(args[2])
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    closed = window.close()
    assert asked and "batch big.jsonl" in asked[0]
    if answer == QMessageBox.StandardButton.No:
        assert not closed and window.isVisible() and runner.is_running()
        runner.stop()
        qtbot.waitUntil(lambda: not runner.is_running())
        return
    assert closed and not runner.is_running()
    with open_workspace(folder) as ws:
        (info,) = list_batches(ws)
    assert info.state == "running" and 0 < info.rows < 60_000  # stopped at a chunk


def test_batch_dialog_verifies_idempotence_without_touching_the_workspace(
    qtbot, window, demo_workspace, tmp_path
):
    from triage_app.core.batch import list_batches
    from triage_app.core.db import open_workspace

    source = tmp_path / "orders.csv"
    source.write_text(
        "order_id,pelanggan,status,total,updated_at\n"
        "3001,Budi,Baru,250000,2026-01-09T08:00:00\n"
        "3001,Budi,Selesai,250000,2026-01-09T18:00:00\n"
        "3002,Siti,Dibayar,-5,2026-01-09T08:30:00\n"
    )
    with open_workspace(demo_workspace) as ws:
        before = len(list_batches(ws))
    qtbot.mouseClick(window.findChild(QPushButton, "runBatchButton"), Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    dialog.set_path(source)
    verify = dialog.findChild(QPushButton, "verifyIdempotentButton")
    assert verify.isEnabled()
    qtbot.mouseClick(verify, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Idempotent." in dialog.summary.text(), timeout=20_000)
    qtbot.waitUntil(lambda: not dialog.is_running())
    assert "3 rows through orders@1" in dialog.summary.text()
    assert "the same dead letters (1)" in dialog.summary.text()
    with open_workspace(demo_workspace) as ws:
        assert len(list_batches(ws)) == before  # scratch databases only
