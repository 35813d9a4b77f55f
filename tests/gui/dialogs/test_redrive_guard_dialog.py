"""The re-drive dialog's guard (issue 13): a canary that fails stops the re-drive, and the
summary says why and how far it got; a pace and a stop rate are what the job gets."""

from __future__ import annotations

import orjson
from PySide6.QtCore import Qt

from triage_app.core.batch import run_batch
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import RedriveGuard


def test_a_failing_canary_stops_the_redrive_from_the_window(qtbot, open_main_window, tmp_path):
    folder = tmp_path / "ws"
    src = tmp_path / "orders.jsonl"
    with src.open("wb") as f:
        for i in range(1, 101):  # all fail pesanan@1; the even ones fail @2 too
            record = {
                "pesanan_id": i,
                "waktu": "2026-01-12T08:00:00",
                "pelanggan": "p",
                "produk": "kopi",
                "qty": -1 if i % 2 == 0 else 1,
                "harga": 1000,
                "diskon": None,
            }
            f.write(orjson.dumps(record) + b"\n")
    with open_workspace(folder) as ws:
        run_batch(ws, src, "pesanan@1")
    window = open_main_window(folder)
    qtbot.mouseClick(window.redrive_button, Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    assert dialog.guard() is None  # unless asked, full speed and unwatched

    dialog.canary_check.setChecked(True)
    dialog.canary_rows.setValue(10)
    dialog.pace.setValue(5_000)
    assert dialog.guard() == RedriveGuard(canary=10, max_failure_rate=0.2, pace=5_000.0)

    dialog.preview()
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=30_000)
    done = []
    dialog.jobFinished.connect(done.append)
    dialog.run()
    qtbot.waitUntil(lambda: bool(done) and not dialog.is_running(), timeout=30_000)
    (s,) = done
    assert s.attempted == 10 and s.stopped.startswith("the canary failed: 5 of its 10")
    assert "Stopped by itself: the canary failed" in dialog.summary.text()
    dialog.close()
