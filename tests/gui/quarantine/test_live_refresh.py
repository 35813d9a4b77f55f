"""The team sees the same thing: another steward's change (the CLI, in another process)
shows in the open window within 2 s, on SQLite and on PostgreSQL, without losing the
selection, the scroll position or an unsaved edit; the window's own changes do not make a
second refresh."""

from __future__ import annotations

import time

import pytest

from tests.support.live import Store, other_steward, shown_within
from triage_app.core.db import open_workspace


def test_another_stewards_park_shows_within_two_seconds(qtbot, live_window, store):
    w = live_window
    w.table.selectRow(2)
    qtbot.waitUntil(lambda: w.detail.current_id() == w.model.row(2).id)
    selected = w.detail.current_id()
    gone = w.model.row(0).id
    done = other_steward(qtbot, store, "park", str(gone), "--reason", "from the CLI")
    took = shown_within(qtbot, done, lambda: w.model.total() == 3)
    assert gone not in [w.model.row(r).id for r in range(3)]
    # The selection followed its dead letter up one row; the pane still shows it.
    assert w.selected_ids() == [selected]
    assert w.table.currentIndex().row() == 1
    assert w.detail.current_id() == selected
    print(f"[{w.ws.store.dialect.name}] park seen in the window after {took:.2f}s")


def test_an_edit_elsewhere_reloads_a_clean_editor_quietly(qtbot, live_window, store):
    w = live_window
    w.table.selectRow(0)
    dl_id = w.model.row(0).id
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id)
    theirs = '{"pesanan_id": 1, "from": "the other steward"}'
    done = other_steward(qtbot, store, "edit", str(dl_id), "--payload", theirs)
    shown_within(qtbot, done, lambda: w.detail.payload.editor.toPlainText() == theirs)
    assert not w.detail.is_dirty()
    assert not w.detail.payload.banner.isVisibleTo(w.detail)
    assert w.detail.history.topLevelItem(w.detail.history.topLevelItemCount() - 1).text(2) == (
        "edited"
    )


def test_an_unsaved_edit_stays_and_the_banner_says_who(qtbot, live_window, store):
    w = live_window
    w.table.selectRow(1)
    dl_id = w.model.row(1).id
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id)
    mine = '{"pesanan_id": 2, "from": "me"}'
    w.detail.payload.editor.setPlainText(mine)
    assert w.detail.is_dirty()
    theirs = '{"pesanan_id": 2, "from": "them"}'
    done = other_steward(qtbot, store, "edit", str(dl_id), "--payload", theirs)
    shown_within(qtbot, done, lambda: w.detail.payload.banner.isVisibleTo(w.detail))
    text = w.detail.payload.banner.text()
    assert "Changed by" in text and "edited" in text
    assert w.detail.payload.banner.reload_button.isVisibleTo(w.detail)
    assert w.detail.payload.banner.compare_button.isVisibleTo(w.detail)
    # The edit is untouched, and still based on the version it was loaded from.
    assert w.detail.payload.editor.toPlainText() == mine
    assert w.detail.is_dirty()
    assert w.detail.version() == 1 and w.detail.theirs().version == 2
    assert w.selected_ids() == [dl_id]


def test_selection_and_scroll_survive_a_change_above(qtbot, tmp_path, bulk_store):
    from triage_app.gui import open_window

    folder = tmp_path / "bulk"
    bulk_store(folder, 1_500)
    w = open_window(str(folder))
    qtbot.addWidget(w)
    try:
        qtbot.waitUntil(lambda: w.model.total() == 1_500 and not w.queries.busy())
        w.table.scrollTo(w.model.index(900, 0))
        w.table.selectRow(900)
        selected = w.model.row(900).id
        qtbot.waitUntil(lambda: w.detail.current_id() == selected)
        scroll = w.table.verticalScrollBar().value()
        assert scroll > 0
        resets: list[int] = []
        w.model.modelReset.connect(lambda: resets.append(1))
        store = Store(["--workspace", str(folder)], folder, None)
        done = other_steward(qtbot, store, "discard", "3", "10", "--reason", "junk")
        shown_within(qtbot, done, lambda: w.model.total() == 1_498)
        assert not resets  # read again in place, not reset
        assert w.selected_ids() == [selected]
        assert w.table.currentIndex().row() == 898  # two rows above it went
        assert w.table.verticalScrollBar().value() == scroll
        assert w.detail.current_id() == selected
    finally:
        w.close()


def test_own_changes_refresh_once(qtbot, live_window, store, monkeypatch):
    """A row action reads the store itself, once: the watch makes no second refresh. A
    save refreshes the table in place once (for the new version), and no more."""
    w = live_window
    layouts: list[int] = []
    resets: list[int] = []
    w.model.layoutChanged.connect(lambda: layouts.append(1))
    w.model.modelReset.connect(lambda: resets.append(1))
    w.table.selectRow(0)
    qtbot.waitUntil(lambda: w.detail.current_id() == w.model.row(0).id)
    w.row_actions.park()
    qtbot.waitUntil(lambda: w.model.total() == 3)
    qtbot.wait(1_000)  # several looks of the watch
    assert (len(resets), len(layouts), w.live.refreshes) == (1, 0, 0)

    w.table.selectRow(0)
    dl_id = w.model.row(0).id
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id)
    w.detail.payload.editor.setPlainText('{"pesanan_id": 5, "saved": "here"}')
    w.detail.save()
    qtbot.waitUntil(lambda: not w.detail.is_dirty() and w.detail.version() == 2)
    qtbot.wait(1_000)
    assert w.live.refreshes == 1 and len(layouts) == 1
    assert w.model.row(0).version == 2  # the table knows the new version at once


@pytest.mark.slow
def test_changes_that_keep_coming_refresh_at_most_once_a_gap(qtbot, tmp_path, bulk_store):
    """Another steward's long re-drive commits every few hundred ms: the window refreshes
    at most once a second, and every three seconds while a job of its own runs."""
    from PySide6.QtCore import QTimer

    from triage_app.core.deadletters import apply_change, note
    from triage_app.gui import open_window
    from triage_app.gui.quarantine.live_refresh import BUSY_GAP_MS, QUIET_GAP_MS

    folder = tmp_path / "bulk"
    bulk_store(folder, 50)
    w = open_window(str(folder))
    qtbot.addWidget(w)
    try:
        qtbot.waitUntil(lambda: w.model.total() == 50 and not w.queries.busy())
        with open_workspace(folder) as other:
            made = [0]

            def commit() -> None:  # one more change, as another process's chunk would be
                made[0] += 1
                apply_change(other, [1 + made[0] % 50], note(f"chunk {made[0]}"))

            timer = QTimer(interval=100)
            timer.timeout.connect(commit)
            for busy, gap_ms in ((False, QUIET_GAP_MS), (True, BUSY_GAP_MS)):
                w.live.busy = lambda busy=busy: busy
                before, commits = w.live.refreshes, made[0]
                timer.start()
                started = time.monotonic()
                qtbot.wait(2 * gap_ms + 500)
                timer.stop()
                seconds = time.monotonic() - started
                refreshes = w.live.refreshes - before
                assert made[0] - commits >= 10  # changes kept coming
                assert 1 <= refreshes <= 1 + seconds * 1000 / gap_ms, (busy, refreshes)
    finally:
        w.close()
