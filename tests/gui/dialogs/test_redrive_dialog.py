"""Re-drive from the window, cancelled part way: it stops at a chunk boundary, says so,
leaves every dead letter either re-driven (one more attempt, audited) or untouched, and
the table shows the new state."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from sqlalchemy import func, select

from triage_app.core.db import DeadLetter, open_workspace
from triage_app.core.deadletters import RedriveResult, RedriveSummary
from triage_app.core.vocabulary import RedriveOutcome

ROWS = 6_000  # twelve of core's 500-row re-drive chunks


def _attempts(folder) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        total = conn.execute(select(func.sum(DeadLetter.attempts))).scalar_one()
        touched = conn.execute(
            # bulk_store dates its failures in January 2026; a re-drive dates them now.
            select(func.count()).where(DeadLetter.last_failed_at > dt.datetime(2026, 2, 1))
        ).scalar_one()
    return int(total), int(touched)


def test_redrive_cancel_stops_at_a_chunk_and_the_table_follows(
    qtbot, open_main_window, tmp_path, bulk_store
):
    folder = tmp_path / "ws"
    bulk_store(folder, ROWS)
    window = open_main_window(folder)
    assert window.model.total() == ROWS
    attempts_before, _ = _attempts(folder)

    qtbot.mouseClick(window.redrive_button, Qt.MouseButton.LeftButton)
    dialog = window.dialogs()[-1]
    assert dialog.scope_filter.isChecked()  # nothing selected: all matching rows
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=60_000)
    assert f"0 would succeed, {ROWS:,} would still fail" in dialog.summary.text()

    # Run, and press Cancel as soon as the first chunk reports.
    summaries = []
    dialog.jobFinished.connect(summaries.append)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.cancel_button.isVisible() and dialog.cancel_button.isEnabled()
    dialog._runner.progress.connect(
        lambda _r: dialog.cancel_button.isEnabled() and dialog.cancel_button.click()
    )
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=60_000)
    (s,) = summaries
    assert s.cancelled and not s.dry_run
    assert 0 < s.attempted < ROWS and s.attempted % 500 == 0  # a chunk boundary
    assert "Cancelled: the rest were not touched." in dialog.summary.text()
    assert not dialog.cancel_button.isVisible()
    assert dialog.run_button.isEnabled() is False  # a new preview first

    # Consistent: each attempted row failed once more, the others are untouched.
    attempts_after, touched = _attempts(folder)
    assert attempts_after - attempts_before == s.failed == s.attempted
    assert touched == s.attempted
    # The table refreshed: rows that reached the attempt limit were parked, left Open.
    qtbot.waitUntil(lambda: window.model.total() == ROWS - s.parked, timeout=10_000)
    assert "Cancelled" in window.statusBar().currentMessage()
    dialog.close()


def test_the_summary_names_rows_another_redrive_holds_are_named() -> None:
    results = (
        RedriveResult(1, 3, RedriveOutcome.RESOLVED),
        RedriveResult(2, 4, RedriveOutcome.TAKEN, "held by bob@laptop"),
        RedriveResult(3, 6, RedriveOutcome.SKIPPED, "already resolved"),
    )
    s = RedriveSummary(
        "pesanan@2",
        False,
        1,
        1,
        0,
        0,
        results,
        taken=1,
        skipped=1,
        not_attempted={"already resolved": (1, (3,)), "taken by another re-drive": (1, (2,))},
    )
    # Each is named, with why: which rows the steward's confirmed set did not reach.
    assert s.describe() == (
        "Re-drove 1 dead letter with pesanan@2: 1 resolved, 0 failed (0 parked). "
        "Skipped 1 (already resolved): #3. "
        "Skipped 1 (taken by another re-drive): #2."
    )
