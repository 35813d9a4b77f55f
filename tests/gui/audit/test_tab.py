"""The Audit tab in the real window, offscreen: beside Quarantine and Trends; read off the
GUI thread, a page at a time; filtered as ``triage-app audit`` filters; refreshed after a
change; a double-click shows the event's dead letter in the Quarantine tab when the store
still has it, and says so when it does not."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import delete, insert

from triage_app.core.clock import iso, utcnow
from triage_app.core.db import AuditEvent, DeadLetter, open_workspace
from triage_app.core.deadletters import AuditFilter, apply_change, note
from triage_app.core.demo import StoreFiller, make_demo
from triage_app.core.vocabulary import AuditAction
from triage_app.gui.audit import tab as audit_tab
from triage_app.gui.audit.tab import PAGE

# After the demo's own events (stamped now), so that the stewards' come first.
T0 = (utcnow() + dt.timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)


def shown(w) -> None:  # type: ignore[no-untyped-def]
    w.tabs.setCurrentWidget(w.audit)


def wait_read(qtbot, w) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not w.audit.busy() and not w.audit._debounce.isActive())
    qtbot.waitUntil(lambda: w.audit.count_label.text() not in ("", "reading…"))


@pytest.fixture
def audited(tmp_path: Path) -> Path:
    """The demo's four dead letters (quarantined by the demo), then events by two
    stewards over three days."""
    folder = tmp_path / "ws"
    with open_workspace(folder) as ws:
        make_demo(ws)
        with StoreFiller(ws) as f:
            for day in range(3):
                at = T0 + dt.timedelta(days=day)
                f.event(1, AuditAction.NOTE, at, actor="ani@laptop", detail=f"day {day}")
                f.event(2, AuditAction.EDITED, at, actor="budi@desk (db: lead1)")
    return folder


@pytest.fixture
def w(open_main_window, audited, qtbot):  # type: ignore[no-untyped-def]
    window = open_main_window(audited)
    shown(window)
    wait_read(qtbot, window)
    return window


def test_the_tab_sits_beside_quarantine_and_trends(w) -> None:  # type: ignore[no-untyped-def]
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == ["Quarantine", "Trends", "Audit"]
    assert w.audit.model.rowCount() == 10  # four quarantined, six by hand
    assert w.audit.count_label.text() == "10 events"
    # Newest first; of two in one second, the one written last.
    first, second = w.audit.model.records[:2]
    assert (first.action, first.actor, second.action) == ("edited", "budi@desk (db: lead1)", "note")
    assert first.at == second.at == iso(T0 + dt.timedelta(days=2))
    # The dead-letter filters do not apply here: hidden while the tab is shown.
    assert w.filter_bar.isHidden()
    w.tabs.setCurrentWidget(w.quarantine)
    assert not w.filter_bar.isHidden()


def test_the_trail_is_read_off_the_gui_thread(  # type: ignore[no-untyped-def]
    open_main_window, audited, qtbot, monkeypatch
) -> None:
    threads: list[str] = []
    real = audit_tab.audit_page

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(audit_tab, "audit_page", watched)
    window = open_main_window(audited)
    assert threads == []  # off screen: nothing read yet
    shown(window)
    wait_read(qtbot, window)
    assert threads and threading.main_thread().name not in threads


def test_filters(w, qtbot) -> None:  # type: ignore[no-untyped-def]
    tab = w.audit
    tab.actor_edit.setText("ANI")  # typed: read once typing pauses
    wait_read(qtbot, w)
    assert {r.actor for r in tab.model.records} == {"ani@laptop"}
    assert tab.model.rowCount() == 3

    tab.actor_edit.clear()
    tab.action_combo.setCurrentIndex(tab.action_combo.findData("edited"))
    wait_read(qtbot, w)
    assert [r.dead_letter_id for r in tab.model.records] == [2, 2, 2]

    tab.id_edit.setText("#1")
    wait_read(qtbot, w)
    assert tab.model.rowCount() == 0 and tab.count_label.text() == "no events match"

    day_two = (T0 + dt.timedelta(days=1)).replace(hour=0)
    tab.set_filter(AuditFilter(since=day_two, actor="budi"))
    wait_read(qtbot, w)
    assert tab.since_check.isChecked() and tab.action_combo.currentData() is None
    expected = [iso(T0 + dt.timedelta(days=d)) for d in (2, 1)]
    assert [r.at for r in tab.model.records] == expected
    assert tab.current_filter() == AuditFilter(since=day_two, actor="budi")


def test_pages_load_as_the_view_scrolls(open_main_window, tmp_path, qtbot) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "many"
    n = 2 * PAGE + 37
    with open_workspace(folder) as ws:
        make_demo(ws)
        with StoreFiller(ws) as f:
            for i in range(n):
                f.event(1 + i % 4, AuditAction.NOTE, T0 + dt.timedelta(minutes=i), actor="bot")
    window = open_main_window(folder)
    shown(window)
    wait_read(qtbot, window)
    tab = window.audit
    total = n + 4
    assert tab.model.rowCount() == PAGE
    assert tab.count_label.text() == f"{total} events · {PAGE} shown, scroll for more"
    for _ in range(5):
        tab.table.scrollToBottom()
        qtbot.waitUntil(lambda: not tab.busy())
    assert tab.model.rowCount() == total and tab.count_label.text() == f"{total} events"
    ats = [r.at for r in tab.model.records]
    assert ats == sorted(ats, reverse=True) and len({r.id for r in tab.model.records}) == total


def test_a_change_elsewhere_shows_after_a_refresh(w, audited, qtbot) -> None:  # type: ignore[no-untyped-def]
    with open_workspace(audited) as ws:
        apply_change(ws, [3], note("called the shop"), actor="cici@tablet")
    w.reload()  # what the window does after every change it makes
    qtbot.waitUntil(lambda: w.audit.model.rowCount() == 11)
    [noted] = [r for r in w.audit.model.records if r.actor == "cici@tablet"]
    assert (noted.action, noted.dead_letter_id, noted.detail) == ("note", 3, "called the shop")


def test_a_double_click_shows_the_dead_letter(w, qtbot) -> None:  # type: ignore[no-untyped-def]
    tab = w.audit
    row = next(i for i, r in enumerate(tab.model.records) if r.dead_letter_id == 2)
    index = tab.model.index(row, 0)
    rect = tab.table.visualRect(index)
    # A press first: a view takes a double-click only on the row the press chose.
    qtbot.mouseClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: w.tabs.currentWidget() is w.quarantine)
    qtbot.waitUntil(lambda: w.selected_ids() == [2] and w.detail.current_id() == 2)
    f = w.model.filter
    assert (f.ids, f.status, f.error_class) == ((2,), "all", None)
    assert w.filter_bar.link_chip.text() == "Audit: dead letter #2"
    w.filter_bar.link_clear.click()  # ✕: back to the steward's view
    qtbot.waitUntil(lambda: w.model.filter.ids is None)


def test_a_dead_letter_no_longer_stored_is_named(w, audited, qtbot) -> None:  # type: ignore[no-untyped-def]
    tab = w.audit
    with open_workspace(audited) as ws, ws.store.begin() as conn:
        # Gone since the tab was read (a purge on another desk), and a store event.
        conn.execute(delete(AuditEvent).where(AuditEvent.dead_letter_id == 3))
        conn.execute(delete(DeadLetter).where(DeadLetter.id == 3))
        conn.execute(
            insert(AuditEvent).values(
                dead_letter_id=None, at=T0, actor="lead", action="purged", detail="1 row"
            )
        )
    row = next(i for i, r in enumerate(tab.model.records) if r.dead_letter_id == 3)
    tab.choose(row)
    qtbot.waitUntil(lambda: "no longer in the store" in w.statusBar().currentMessage())
    assert "#3" in w.statusBar().currentMessage()
    assert w.tabs.currentWidget() is tab
    tab.refresh()
    wait_read(qtbot, w)
    purge = next(i for i, r in enumerate(tab.model.records) if r.action == "purged")
    tab.choose(purge)
    qtbot.waitUntil(lambda: "about the store" in w.statusBar().currentMessage())
    assert w.tabs.currentWidget() is tab
