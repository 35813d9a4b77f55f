"""The window in Bahasa Indonesia (issue 28): its menus, table, status bar, audit trail and
job lines in the glossary's words, numbers and dates the Indonesian way, counted texts right
for one and for many in both languages, and the stored values (sort keys, ids, the audit's
action) untouched. The suite speaks English; each test here switches and switches back."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStatusBar

from triage_app.core import language
from triage_app.core.deadletters import AuditPage, AuditRecord
from triage_app.core.jobs import RedriveJob
from triage_app.core.progress import Pace
from triage_app.gui.app import display_problem
from triage_app.gui.audit.model import COL_ACTION, COL_AT, AuditTableModel
from triage_app.gui.i18n import install_language
from triage_app.gui.lifetime import dispose
from triage_app.gui.quarantine.model import (
    COL_ATTEMPTS,
    COL_CLASS,
    COL_ID,
    COL_LAST_FAILED,
    COL_STATUS,
)
from triage_app.gui.window.status_bar import RowCounts
from triage_app.gui.workers import describe_progress


@pytest.fixture
def speak(qapp: QApplication) -> Iterator[object]:
    """``speak("id")``: the window (and the engine) in that language from now on; English
    again after the test, whatever it chose."""

    def choose(lang: str) -> None:
        assert install_language(qapp, lang) == lang

    yield choose
    install_language(qapp, language.ENGLISH)


def _counts(qapp: QApplication) -> tuple[RowCounts, QStatusBar]:
    bar = QStatusBar()
    return RowCounts(bar), bar


def test_the_count_of_matching_rows_for_one_and_for_many_in_both_languages(qapp, speak) -> None:  # type: ignore[no-untyped-def]
    said = {}
    for lang in ("en", "id"):
        speak(lang)
        counts, bar = _counts(qapp)
        try:
            for n, status in ((1, "open"), (1_234_567, "open"), (1, "all"), (2, "parked")):
                counts.show_count(n, status, 1_000, has_workspace=True)
                said[(lang, n, status)] = counts.count_label.text()
        finally:
            dispose(bar)
    assert said[("en", 1, "open")] == "1 open dead letter matches · 1,000 selected"
    assert said[("en", 1_234_567, "open")] == "1,234,567 open dead letters match · 1,000 selected"
    assert said[("en", 1, "all")] == "1 dead letter matches · 1,000 selected"
    assert said[("en", 2, "parked")] == "2 parked dead letters match · 1,000 selected"
    # Indonesian nouns do not change with the count; its numbers group with dots.
    assert said[("id", 1, "open")] == "1 dead letter terbuka cocok · 1.000 dipilih"
    assert said[("id", 1_234_567, "open")] == "1.234.567 dead letter terbuka cocok · 1.000 dipilih"
    assert said[("id", 1, "all")] == "1 dead letter cocok · 1.000 dipilih"
    assert said[("id", 2, "parked")] == "2 dead letter diparkir cocok · 1.000 dipilih"


def test_the_role_badge_and_its_why_not(qapp, speak) -> None:  # type: ignore[no-untyped-def]
    speak("id")
    counts, bar = _counts(qapp)
    try:
        counts.show_role("viewer", ["core's own sentence"])
        assert counts.role_label.text().strip() == "peran: viewer"  # the glossary keeps it
        assert counts.role_label.toolTip() == "Di penyimpanan ini:\ncore's own sentence"
        counts.show_role("lead", [])
        assert counts.role_label.toolTip() == "Anda boleh melakukan semuanya di penyimpanan ini."
    finally:
        dispose(bar)


def test_a_running_jobs_line(speak) -> None:  # type: ignore[no-untyped-def]
    job = RedriveJob(ids=(1,), transform="pesanan@2")
    pace = Pace(84_000, 200_000, 84_000, 7.0, 12_300.4, None)
    speak("en")
    assert describe_progress(job, pace) == "Re-driving 84,000 of 200,000 rows · 12,300 rows/s"
    one = Pace(0, 1, 0, 0.1, None, None)
    assert describe_progress(job, one) == "Re-driving 0 of 1 row"
    speak("id")
    assert (
        describe_progress(job, pace)
        == "Mengirim ulang 84.000 dari 200.000 baris · 12.300 baris/dtk"
    )
    assert describe_progress(job, one) == "Mengirim ulang 0 dari 1 baris"


def test_the_audit_trail_in_indonesian_keeps_the_stored_action(speak) -> None:  # type: ignore[no-untyped-def]
    speak("id")
    model = AuditTableModel()
    record = AuditRecord(
        id=1,
        at="2026-12-01T14:05:09Z",
        actor="sari@toko",
        action="edited",
        dead_letter_id=1234,
        detail="",
        version=2,
    )
    model.show_page(AuditPage((record,), 0, 0))
    cell = lambda c, role=Qt.ItemDataRole.DisplayRole: model.data(model.index(0, c), role)  # noqa: E731
    assert model.headerData(COL_AT, Qt.Orientation.Horizontal) == "kapan (UTC)"
    assert cell(COL_AT) == "1 Des 2026 14.05.09"
    assert cell(COL_ACTION) == "disunting"
    assert model.record(0).action == "edited"  # the store's word, as --json prints it


def test_the_display_problem_before_qt_is_said_in_the_language(speak) -> None:  # type: ignore[no-untyped-def]
    speak("id")
    problem = display_problem({}, "linux", lambda name: "lib.so")
    assert problem is not None and problem.startswith("tidak ada tampilan (DISPLAY tidak disetel)")
    assert "xvfb-run triage-app" in problem  # commands stay as they are typed


def test_the_window_in_indonesian(
    speak, open_main_window, bulk_store, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    speak("id")
    folder = tmp_path / "ws"
    bulk_store(folder, 1_234)
    w = open_main_window(folder)
    menus = [a.text() for a in w.menu.actions()]
    assert menus == ["&Berkas", "B&atch", "&Kirim ulang", "&Tampilan", "&Penyimpanan", "Ba&ntuan"]
    assert w.menu.open_action.text() == "&Buka ruang kerja…"
    assert w.menu.redrive_action.toolTip() == "Kirim ulang dead letter (Ctrl+R)"
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == ["Karantina", "Tren", "Audit"]
    m = w.model
    header = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    assert header[:7] == ["id", "batch", "baris", "kelas", "galat", "percobaan", "status"]
    # Sorted by id, descending: the last row first, its id grouped the Indonesian way.
    w.table.sortByColumn(COL_ID, Qt.SortOrder.DescendingOrder)
    assert m.data(m.index(0, COL_ID)) == "1.234"
    assert m.data(m.index(0, COL_ID), Qt.ItemDataRole.UserRole) == 1234  # the raw id
    assert m.row(0).error_class in ("data", "code", "transient")  # the stored value
    shown_class = {"data": "cacat data", "code": "bug kode", "transient": "sementara"}
    assert m.data(m.index(0, COL_CLASS)) == shown_class[m.row(0).error_class]
    assert m.data(m.index(0, COL_STATUS)) == "terbuka"
    assert m.data(m.index(0, COL_ATTEMPTS)) == str(m.row(0).attempts)
    last = m.row(0).last_failed_at
    months = ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agu", "Sep", "Okt", "Nov", "Des"]
    assert m.data(m.index(0, COL_LAST_FAILED)) == (
        f"{last.day} {months[last.month - 1]} {last.year} {last.hour:02d}.{last.minute:02d}"
    )
    assert isinstance(last, dt.datetime)
    qtbot.waitUntil(lambda: m.total() is not None)
    count = w.counts.count_label.text()
    assert re.fullmatch(r"1\.234 dead letter terbuka cocok · 0 dipilih", count), count
    w.table.selectRow(0)
    qtbot.waitUntil(lambda: w.detail.current_id() == 1234)
    assert "percobaan" in w.detail.title.text() and "baris" in w.detail.title.text()
    assert w.detail.tabs.tabText(0) == "Payload" and w.detail.tabs.tabText(3) == "Galat"
