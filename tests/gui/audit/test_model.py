"""The audit table's model: Qt's model contract (qtmodeltester) on a first page, after a
next page is appended, and empty; cells as a reader sees them; a next page is asked for
once, and only while more events match."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from triage_app.core.deadletters import AuditPage, AuditRecord
from triage_app.gui.audit.model import (
    COL_ACTION,
    COL_AT,
    COL_DEAD_LETTER,
    COL_DETAIL,
    COL_VERSION,
    HEADERS,
    AuditTableModel,
)


def records(first: int, n: int) -> tuple[AuditRecord, ...]:
    return tuple(
        AuditRecord(
            id=i,
            at=f"2026-03-01T10:{i % 60:02d}:00Z",
            actor=f"user{i % 3}@host",
            action=("edited", "note", "resolved", "purged")[i % 4],
            dead_letter_id=None if i % 4 == 3 else i,
            detail="line one\nline two" if i % 2 else "",
            version=i if i % 4 == 0 else None,
        )
        for i in range(first, first + n)
    )


def test_the_model_passes_qt_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = AuditTableModel()
    qtmodeltester.check(model)  # empty
    model.show_page(AuditPage(records(0, 50), 0, 30))
    qtmodeltester.check(model)
    model.append_page(AuditPage(records(50, 30), 50, 0))
    assert model.rowCount() == 80
    qtmodeltester.check(model)


def test_cells_as_a_reader_sees_them() -> None:
    model = AuditTableModel()
    model.show_page(AuditPage(records(0, 8), 0, 0))
    cell = lambda r, c, role=Qt.ItemDataRole.DisplayRole: model.data(model.index(r, c), role)  # noqa: E731
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)] == list(HEADERS)
    assert cell(0, COL_AT) == "1 Mar 2026 10:00:00"  # the language's date (issue 28), UTC
    assert cell(0, COL_DEAD_LETTER) == "#0" and cell(0, COL_VERSION) == "0"
    assert cell(1, COL_VERSION) == "" and cell(1, COL_DETAIL) == "line one line two"
    assert cell(1, COL_DETAIL, Qt.ItemDataRole.ToolTipRole) == "line one\nline two"
    assert cell(3, COL_DEAD_LETTER) == ""  # a purge: about the store, no dead letter
    assert cell(3, COL_DEAD_LETTER, Qt.ItemDataRole.UserRole) is None
    assert cell(2, COL_DEAD_LETTER, Qt.ItemDataRole.UserRole) == 2
    assert cell(2, COL_ACTION, Qt.ItemDataRole.ForegroundRole) is not None  # resolved: green
    assert cell(1, COL_ACTION, Qt.ItemDataRole.ForegroundRole) is None  # a note: plain


def test_a_next_page_is_asked_for_once_while_more_match(qtbot) -> None:  # type: ignore[no-untyped-def]
    model = AuditTableModel()
    asked: list[int] = []
    model.moreWanted.connect(asked.append)
    model.show_page(AuditPage(records(0, 10), 0, 5))
    assert model.matching() == 15 and model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    model.fetchMore(QModelIndex())  # still waiting for the first: not asked again
    assert asked == [10]
    model.append_page(AuditPage(records(10, 5), 10, 0))
    assert model.rowCount() == 15 and not model.canFetchMore(QModelIndex())
    # A page that does not start where the table ends (asked under an older filter).
    model.show_page(AuditPage(records(0, 3), 0, 2))
    model.append_page(AuditPage(records(10, 2), 10, 0))
    assert model.rowCount() == 3 and model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    model.page_failed()  # a failure frees the next scroll to ask again
    model.fetchMore(QModelIndex())
    assert asked == [10, 3, 3]
