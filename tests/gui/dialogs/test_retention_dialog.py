"""Store > Retention…: the store's policy, how many rows it would purge now (a dry run on a
worker), Save for the whole team, and Purge now as a job; then Trends name the purge and
still count its rows."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.support import REPO
from tests.support.purge_store import counts, fill_purge_store
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import RetentionPolicy, retention_policy, set_retention_policy
from triage_app.core.locale_format import format_date
from triage_app.gui.dialogs.retention_dialog import RetentionDialog

SCREENSHOTS = REPO / "docs" / "screenshots"


def _store(folder: Path, **kw: int) -> None:
    with open_workspace(folder) as ws:
        fill_purge_store(ws, **kw)


def _open_dialog(qtbot, window) -> RetentionDialog:  # type: ignore[no-untyped-def]
    assert window.menu.retention_action.isEnabled()
    window.menu.retention_action.trigger()
    dialog = window.dialogs()[-1]
    assert isinstance(dialog, RetentionDialog) and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.preview is not None, timeout=20_000)
    return dialog


def test_the_dialog_counts_saves_and_purges(qtbot, open_main_window, tmp_path, dialogs):
    folder = tmp_path / "ws"
    _store(folder, resolved=6, discarded=4, open_=3, parked=2)
    window = open_main_window(folder)
    assert window.model.total() == 3  # the table's default filter: open
    dialog = _open_dialog(qtbot, window)
    assert dialog.stored_label.text() == (
        "No retention policy is set for this store; kept sources stay 90 days (the default)."
    )
    # The default policy, 90 days, both statuses: the rows were closed on 2026-02-01.
    assert dialog.statuses() == ("resolved", "discarded")
    assert dialog.preview is not None and dialog.preview.dry_run and dialog.preview.rows == 10
    assert dialog.count_label.text().startswith(
        "Would purge 10 dead letters now (6 resolved, 4 discarded)"
    )
    assert dialog.purge_button.isEnabled() and dialog.purge_button.text() == "Purge 10 now…"

    # Only discarded: counted again on the worker.
    qtbot.mouseClick(dialog.resolved, Qt.MouseButton.LeftButton)
    assert not dialog.purge_button.isEnabled()  # until the new count is in
    qtbot.waitUntil(lambda: dialog.preview is not None, timeout=20_000)
    assert dialog.preview.rows == 4 and dialog.preview.statuses == ("discarded",)
    assert dialog.count_label.text().startswith("Would purge 4 dead letters now (4 discarded)")

    # Neither status: nothing to count or save.
    qtbot.mouseClick(dialog.discarded, Qt.MouseButton.LeftButton)
    assert not dialog.save_button.isEnabled() and not dialog.purge_button.isEnabled()
    qtbot.waitUntil(lambda: "Tick resolved" in dialog.count_label.text())
    qtbot.mouseClick(dialog.discarded, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.preview is not None, timeout=20_000)

    # Save: kept in the store, where every other window reads it.
    dialog.days.setValue(45)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.stored is not None)
    with open_workspace(folder) as ws:
        assert retention_policy(ws) == RetentionPolicy(45, ("discarded",))
    assert "discarded dead letters closed more than 45 days ago" in dialog.stored_label.text()

    # Purge now: asks first (No: nothing happens), then runs as a job.
    qtbot.waitUntil(lambda: dialog.purge_button.isEnabled(), timeout=20_000)
    dialogs.answer(QMessageBox.StandardButton.No)
    qtbot.mouseClick(dialog.purge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialogs.pending == 0)
    assert "cannot be undone" in str(dialogs.seen[-1]["text"])
    with open_workspace(folder) as ws:
        assert counts(ws)["discarded"] == 4
    purged = []
    dialog.jobFinished.connect(purged.append)
    dialogs.answer(QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.purge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(purged) and not dialog.is_busy(), timeout=30_000)
    (s,) = purged
    assert (s.rows, s.dry_run) == (4, False)
    assert dialog.summary.text().startswith("Purged 4 dead letters (4 discarded)")
    qtbot.waitUntil(lambda: dialog.preview is not None, timeout=20_000)
    assert dialog.preview.rows == 0 and not dialog.purge_button.isEnabled()
    assert "Nothing to purge now" in dialog.count_label.text()
    with open_workspace(folder) as ws:
        c = counts(ws)
    assert "discarded" not in c and c["resolved"] == 6 and c["open"] == 3
    dialog.close()


def test_the_dialog_shows_the_stores_policy(qtbot, open_main_window, tmp_path):
    folder = tmp_path / "ws"
    _store(folder)
    with open_workspace(folder) as ws:
        set_retention_policy(ws, RetentionPolicy(7, ("resolved",)))
    window = open_main_window(folder)
    dialog = _open_dialog(qtbot, window)
    assert dialog.days.value() == 7
    assert dialog.resolved.isChecked() and not dialog.discarded.isChecked()
    assert dialog.preview is not None and dialog.preview.statuses == ("resolved",)
    assert dialog.preview.rows == 6
    dialog.close()


def test_trends_name_the_purge_and_keep_counting_its_rows(
    qtbot, open_main_window, tmp_path, dialogs
):
    folder = tmp_path / "ws"
    _store(folder, resolved=6, discarded=4, open_=3, parked=2, days=3)
    window = open_main_window(folder)
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None, timeout=20_000)
    chart = window.trends.failures
    before = [(d.day, d.total) for d in window.trends.trends.per_day]
    assert not chart.purge_note.isVisible()

    dialog = _open_dialog(qtbot, window)
    dialogs.answer(QMessageBox.StandardButton.Yes)
    done = []
    dialog.jobFinished.connect(done.append)
    qtbot.mouseClick(dialog.purge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done) and not dialog.is_busy(), timeout=30_000)
    dialog.close()
    qtbot.waitUntil(
        lambda: window.trends.trends is not None and bool(window.trends.trends.purges),
        timeout=20_000,
    )
    t = window.trends.trends
    assert [(d.day, d.total) for d in t.per_day] == before  # no false drop
    assert sum(d.purged for d in t.per_day) == 10
    assert chart.purge_note.isVisible()
    text = chart.purge_note.textItem.toPlainText()
    assert f"10 rows purged on {format_date(t.purges[0].at.date())}" in text
    assert "still counted" in text
    # The tooltip of a day says how many of its rows are gone from the table.
    day = t.per_day[0]
    from triage_app.gui.trends.base import day_x

    tip = chart.describe(day_x(day.day), 0.5)
    assert tip is not None and f"{day.purged:,} of them purged since" in tip
    window.grab().save(str(tmp_path / "trends-after-purge.png"))


def test_the_dialog_keeps_batch_sources_as_long_as_it_says(
    qtbot, open_main_window, tmp_path, dialogs
):  # type: ignore[no-untyped-def]
    """The kept sources' retention beside the dead letters': shown, counted in the preview,
    saved for the team, forever as a choice, and forgotten by Purge now."""
    import datetime as dt

    from sqlalchemy import update

    from tests.core.reprocess.crafted import write_night
    from triage_app.core.batch import is_kept, run_batch, sources_retention
    from triage_app.core.db import KeptSource

    folder = tmp_path / "ws"
    write_night(tmp_path / "night.jsonl", 20)
    with open_workspace(folder) as ws:
        batch = run_batch(ws, tmp_path / "night.jsonl", "pesanan@2")
        with ws.store.begin() as conn:  # kept sixty days ago
            conn.execute(update(KeptSource).values(kept_at=dt.datetime.now() - dt.timedelta(60)))
    window = open_main_window(folder)
    dialog = _open_dialog(qtbot, window)
    assert dialog.sources_days() == 90 and dialog.keep_days.isEnabled()
    assert "Kept sources: none kept more than 90 days ago" in dialog.count_label.text()
    assert not dialog.purge_button.isEnabled()  # nothing to purge, nothing to forget

    dialog.keep_days.setValue(30)
    qtbot.waitUntil(
        lambda: dialog.preview is not None and "would forget 1 source" in dialog.count_label.text(),
        timeout=20_000,
    )
    assert dialog.purge_button.isEnabled()
    if os.environ.get("TRIAGE_SCREENSHOTS"):  # scripts and people look at it
        dialog.grab().save(str(SCREENSHOTS / "retention-dialog.png"))

    dialog.keep_forever.setChecked(True)
    assert not dialog.keep_days.isEnabled() and dialog.sources_days() is None
    qtbot.waitUntil(lambda: "kept forever" in dialog.count_label.text(), timeout=20_000)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "kept sources stay forever" in dialog.stored_label.text())
    with open_workspace(folder) as ws:
        assert sources_retention(ws) is None

    dialog.keep_forever.setChecked(False)
    qtbot.waitUntil(lambda: "would forget 1 source" in dialog.count_label.text(), timeout=20_000)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "kept sources stay 30 days" in dialog.stored_label.text())
    with open_workspace(folder) as ws:
        assert sources_retention(ws) == 30
    dialogs.answer(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: dialog.purge_button.isEnabled(), timeout=20_000)
    qtbot.mouseClick(dialog.purge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "forgot 1 source" in dialog.summary.text(), timeout=20_000)
    with open_workspace(folder) as ws:
        from sqlalchemy import select

        from triage_app.core.db import Batch

        with ws.store.connect() as conn:
            sha = conn.execute(
                select(Batch.source_sha256).where(Batch.batch_id == batch.batch_id)
            ).scalar_one()
        assert not is_kept(ws, sha)
