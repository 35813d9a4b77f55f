"""What the steward sees is what happens, with the table changing under an open dialog.

Each dialog that acts on many rows (re-drive, fix, discard) follows the table's filter and
selection while it is open and names the rows; a preview freezes the rows it covered, and
the action acts on exactly those. These tests change the search, the selection and the
store (another steward, a real second connection) under the open dialog and check, in the
store, which rows were acted on."""

from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import Qt
from sqlalchemy import select

from tests.support import SEED_BATCH
from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, open_workspace
from triage_app.core.deadletters import apply_change, discard, edit_payload
from triage_app.core.vocabulary import ALL

DATA_ROWS = (1, 2, 3)  # the demo's data-class dead letters; 4 is code
QTY_ROWS = (2, 3)  # those whose error says "qty"


def _versions(folder: Any) -> dict[int, int]:
    """Each dead letter's version: every change to a row (a re-drive's outcome too) bumps it."""
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        return dict(conn.execute(select(DeadLetter.id, DeadLetter.version)).all())


def _set_class(window: Any, qtbot: Any, name: str, rows: int) -> None:
    combo = window.filter_bar.class_combo
    combo.setCurrentIndex(combo.findData(name))
    qtbot.waitUntil(lambda: window.model.total() == rows)


def _search(window: Any, qtbot: Any, text: str, rows: int) -> None:
    window.filter_bar.search.setText(text)
    qtbot.waitUntil(lambda: window.model.total() == rows, timeout=5_000)


def _select(window: Any, qtbot: Any, *ids: int) -> None:
    table = window.table
    table.clearSelection()
    for r in range(window.model.rowCount()):
        row = window.model.row(r)
        if row is not None and row.id in ids:
            table.selectionModel().select(
                window.model.index(r, 0),
                table.selectionModel().SelectionFlag.Select
                | table.selectionModel().SelectionFlag.Rows,
            )
    qtbot.waitUntil(lambda: sorted(window.selected_ids() or []) == sorted(ids))


def _open_redrive(window: Any, qtbot: Any) -> Any:
    window.menu.redrive_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "redriveDialog"
    return dialog


def _preview(dialog: Any, qtbot: Any) -> None:
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running() and dialog.run_button.isEnabled())


def _run(dialog: Any, qtbot: Any) -> Any:
    done: list[Any] = []
    dialog.jobFinished.connect(done.append)
    assert dialog.run_button.isEnabled()
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done) and not dialog.is_running(), timeout=10_000)
    return done[0]


def test_redrive_follows_the_search_and_redrives_only_what_it_names(window, qtbot, demo_workspace):
    _set_class(window, qtbot, "data", 3)
    dialog = _open_redrive(window, qtbot)
    assert dialog.scope_filter.isChecked()
    assert dialog.scope_filter.text() == "all 3 dead letters matching status open · class data"

    # The case: the search narrows the table while the dialog is open.
    _search(window, qtbot, "qty", 2)
    qtbot.waitUntil(lambda: dialog.scope_filter.text().startswith("all 2 dead letters"))
    assert "search “qty”" in dialog.scope_filter.text()

    _preview(dialog, qtbot)
    assert dialog.run_button.text() == "Re-drive 2"
    assert dialog.acts_on() == list(QTY_ROWS)
    shown = [dialog.results.model().index(r, 0).data() for r in range(2)]
    assert shown == ["2", "3"]  # the hidden row is not in the preview

    before = _versions(demo_workspace)
    s = _run(dialog, qtbot)
    after = _versions(demo_workspace)
    assert s.attempted == 2
    assert after[1] == before[1]  # the row the table no longer showed was not re-driven
    assert all(after[i] > before[i] for i in QTY_ROWS)
    dialog.close()


def test_a_changed_search_drops_the_preview_and_says_so(window, qtbot, demo_workspace):
    _set_class(window, qtbot, "data", 3)
    _search(window, qtbot, "qty", 2)
    dialog = _open_redrive(window, qtbot)
    _preview(dialog, qtbot)
    assert dialog.run_button.text() == "Re-drive 2"

    # The search cleared: the preview was of 2 rows, the table now names 3.
    _search(window, qtbot, "", 3)
    qtbot.waitUntil(lambda: not dialog.run_button.isEnabled())
    assert dialog.scope.note.isVisible()
    # The words: the table now shows 3, the preview was of 2.
    assert dialog.scope.note.text().startswith(
        "The rows changed since the preview (the preview was of 2 rows): this now names "
        "all 3 dead letters matching status open · class data."
    )
    assert dialog.acts_on() == []
    assert dialog.results.model().rowCount() == 0

    # A new preview covers the three.
    before = _versions(demo_workspace)
    _preview(dialog, qtbot)
    assert dialog.acts_on() == list(DATA_ROWS)
    _run(dialog, qtbot)
    after = _versions(demo_workspace)
    assert all(after[i] > before[i] for i in DATA_ROWS)
    assert after[4] == before[4]
    dialog.close()


def test_redrive_follows_the_selection_and_names_the_rows(window, qtbot, demo_workspace):
    _select(window, qtbot, 1)
    dialog = _open_redrive(window, qtbot)
    assert dialog.scope_selected.isChecked()
    assert dialog.scope_selected.text() == "the 1 selected dead letter: #1"

    _preview(dialog, qtbot)
    assert dialog.acts_on() == [1]

    # Another row selected after the preview: the preview is dropped, the label follows.
    _select(window, qtbot, 3, 4)
    qtbot.waitUntil(
        lambda: dialog.scope_selected.text() == "the 2 selected dead letters: #3 and #4"
    )
    assert not dialog.run_button.isEnabled()
    assert "this now names the 2 selected dead letters: #3 and #4" in dialog.scope.note.text()

    before = _versions(demo_workspace)
    _preview(dialog, qtbot)
    assert dialog.run_button.text() == "Re-drive 2"
    _run(dialog, qtbot)
    after = _versions(demo_workspace)
    assert after[1] == before[1]  # the row selected first was left alone
    assert after[3] > before[3] and after[4] > before[4]
    dialog.close()


def test_rows_another_batch_adds_after_the_preview_are_not_redriven(
    window, qtbot, demo_workspace, tmp_path
):
    _set_class(window, qtbot, "data", 3)
    dialog = _open_redrive(window, qtbot)
    _preview(dialog, qtbot)
    assert dialog.acts_on() == list(DATA_ROWS)

    # Another steward runs a batch into the same store: 3 more data rows match the filter.
    other = tmp_path / "again.jsonl"
    other.write_bytes(SEED_BATCH.read_bytes() + b"\n")  # another file: another batch
    with open_workspace(demo_workspace) as ws:
        run_batch(ws, other, "pesanan@1")
    qtbot.waitUntil(lambda: window.model.total() == 6, timeout=5_000)
    qtbot.waitUntil(
        lambda: "The filter now matches 6; the preview covered 3" in dialog.scope.note.text()
    )
    assert dialog.scope_filter.text().startswith("all 6 dead letters")
    assert dialog.run_button.text() == "Re-drive 3"

    before = _versions(demo_workspace)
    s = _run(dialog, qtbot)
    after = _versions(demo_workspace)
    assert s.attempted == 3
    new_rows = sorted(set(after) - {1, 2, 3, 4})
    assert len(new_rows) == 4
    assert all(after[i] == before[i] for i in new_rows)  # the new rows were not touched
    assert all(after[i] > before[i] for i in DATA_ROWS)
    dialog.close()


def test_a_row_edited_after_the_preview_is_left_out_and_named(window, qtbot, demo_workspace):
    _set_class(window, qtbot, "data", 3)
    dialog = _open_redrive(window, qtbot)
    _preview(dialog, qtbot)

    # Another steward edits row 2 (a payload that would now load) after the preview.
    with open_workspace(demo_workspace) as ws:
        edit_payload(ws, 2, '{"pesanan_id": 2, "qty": 1, "harga": 5}', actor="bob@other")
    qtbot.waitUntil(lambda: "The store changed since the preview" in dialog.scope.note.text())

    before = _versions(demo_workspace)
    s = _run(dialog, qtbot)
    after = _versions(demo_workspace)
    assert s.attempted == 2 and s.skipped == 1
    assert after[2] == before[2]  # not re-driven: it is not the row the preview showed
    assert "Skipped 1 (changed since version 1): #2." in dialog.summary.text()
    (left_out,) = [r for r in s.results if r.id == 2]
    assert "edited by bob@other" in (left_out.error or "")
    dialog.close()


# -- Fix rows… ------------------------------------------------------------------------------
def _open_fix(window: Any, step: tuple[str, str, str]) -> Any:
    window.menu.fix_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "fixDialog"
    kind, field, value = step
    dialog.step_kind.setCurrentIndex(dialog.step_kind.findData(kind))
    dialog.step_field.setText(field)
    dialog.step_value.setText(value)
    dialog.add_step()
    return dialog


def _fix_preview(dialog: Any, qtbot: Any) -> None:
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running() and dialog.apply_button.isEnabled())


def _fix_apply(dialog: Any, qtbot: Any) -> Any:
    done: list[Any] = []
    dialog.jobFinished.connect(done.append)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done) and not dialog.is_running(), timeout=10_000)
    return done[0]


def test_fix_follows_the_search_and_changes_only_what_it_previewed(window, qtbot, demo_workspace):
    _set_class(window, qtbot, "data", 3)
    dialog = _open_fix(window, ("set", "catatan", '"dicek"'))
    assert dialog.scope_filter.text() == "all 3 dead letters matching status open · class data"

    # The case: the search narrows the table to fewer rows; the dialog follows.
    _search(window, qtbot, "qty", 2)
    qtbot.waitUntil(lambda: dialog.scope_filter.text().startswith("all 2 dead letters"))
    _fix_preview(dialog, qtbot)
    assert dialog.acts_on() == list(QTY_ROWS)
    assert dialog.apply_button.text() == "Apply to 2 as a change-set"

    # Cleared after the preview: dropped, said, nothing applies until a new preview.
    _search(window, qtbot, "", 3)
    qtbot.waitUntil(lambda: not dialog.apply_button.isEnabled())
    assert "this now names all 3 dead letters" in dialog.scope.note.text()
    _search(window, qtbot, "qty", 2)
    _fix_preview(dialog, qtbot)

    before = _versions(demo_workspace)
    report = _fix_apply(dialog, qtbot)
    after = _versions(demo_workspace)
    assert sorted(report.changed) == list(QTY_ROWS)
    assert after[1] == before[1] and after[4] == before[4]
    dialog.close()


def test_fix_on_the_selection_follows_it_and_leaves_out_a_row_changed_meanwhile(
    window, qtbot, demo_workspace
):
    _select(window, qtbot, 1)
    dialog = _open_fix(window, ("set", "catatan", '"dicek"'))
    assert dialog.scope_selected.text() == "the 1 selected dead letter: #1"
    _select(window, qtbot, 2, 3)
    qtbot.waitUntil(lambda: dialog.scope_selected.text().startswith("the 2 selected"))
    _fix_preview(dialog, qtbot)
    assert dialog.acts_on() == [2, 3]

    # Another steward edits #3 after the preview: Apply leaves it out and names it.
    with open_workspace(demo_workspace) as ws:
        edit_payload(ws, 3, '{"pesanan_id": 3, "qty": 2}', actor="bob@other")
    qtbot.waitUntil(lambda: "The store changed since the preview" in dialog.scope.note.text())
    report = _fix_apply(dialog, qtbot)
    assert report.changed == (2,)
    assert [i for i, _ in report.refused] == [3]
    assert "left out" in dialog.summary.text() and "#3" in dialog.summary.text()
    dialog.close()


# -- Discard… ------------------------------------------------------------------------------
def _statuses(folder: Any) -> dict[int, str]:
    with open_workspace(folder) as ws, ws.store.connect() as conn:
        return dict(conn.execute(select(DeadLetter.id, DeadLetter.status)).all())


def _open_discard(window: Any, qtbot: Any) -> Any:
    window.row_actions.discard_action.trigger()
    dialog = window.dialogs()[-1]
    assert dialog.objectName() == "discardDialog"
    qtbot.waitUntil(lambda: not dialog.is_running() and bool(dialog.acts_on()))
    return dialog


def test_discard_previews_follows_the_search_and_discards_what_it_names(
    window, qtbot, demo_workspace
):
    _set_class(window, qtbot, "data", 3)
    dialog = _open_discard(window, qtbot)
    assert dialog.scope_filter.isChecked()
    assert dialog.acts_on() == list(DATA_ROWS)
    assert dialog.discard_button.text() == "Discard 3"
    assert not dialog.discard_button.isEnabled()  # a reason first
    assert dialog.summary.text().startswith("Discard 3 dead letters: #1, #2 and #3.")
    assert "Reopen brings them back" in dialog.summary.text()

    # The search narrows the table under the open dialog: it names the two, and says so.
    _search(window, qtbot, "qty", 2)
    qtbot.waitUntil(lambda: dialog.acts_on() == list(QTY_ROWS) and not dialog.is_running())
    assert dialog.discard_button.text() == "Discard 2"
    assert "it now names 2 dead letters, not the 3 named before" in dialog.scope.note.text()

    dialog.reason.setText("test feed")
    assert dialog.discard_button.isEnabled()
    reports: list[Any] = []
    dialog.jobFinished.connect(reports.append)
    qtbot.mouseClick(dialog.discard_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(reports) and not dialog.isVisible())
    assert sorted(reports[0].changed) == list(QTY_ROWS)
    statuses = _statuses(demo_workspace)
    assert [statuses[i] for i in (1, 2, 3, 4)] == ["open", "discarded", "discarded", "open"]
    assert "Discarded 2 dead letters: #2 and #3" in window.statusBar().currentMessage()


def test_discard_of_the_selection_leaves_out_a_row_changed_meanwhile_and_reopens(
    window, qtbot, demo_workspace
):
    _select(window, qtbot, 1)
    dialog = _open_discard(window, qtbot)
    assert dialog.scope_selected.text() == "the 1 selected dead letter: #1"
    _select(window, qtbot, 3, 4)
    qtbot.waitUntil(lambda: dialog.acts_on() == [3, 4] and not dialog.is_running())
    assert dialog.discard_button.text() == "Discard 2"

    # Another steward edits #4 before the window has looked: Discard leaves it out.
    with open_workspace(demo_workspace) as ws:
        edit_payload(ws, 4, '{"pesanan_id": 8}', actor="bob@other")
    dialog.reason.setText("junk")
    reports: list[Any] = []
    dialog.jobFinished.connect(reports.append)
    dialog.apply()
    qtbot.waitUntil(lambda: bool(reports) and not dialog.is_running())
    assert reports[0].changed == (3,)
    assert "Left out 1: #4 (first: dead letter 4 changed since version" in dialog.summary.text()
    assert dialog.isVisible()  # the steward reads what was left out
    dialog.close()
    assert _statuses(demo_workspace)[3] == "discarded"

    # The way back: a discarded row reopens (audited), until retention purges it.
    combo = window.filter_bar.status_combo
    combo.setCurrentIndex(combo.findData("discarded"))
    qtbot.waitUntil(lambda: window.model.total() == 1)
    _select(window, qtbot, 3)
    window.row_actions.reopen_action.trigger()
    qtbot.waitUntil(lambda: _statuses(demo_workspace)[3] == "open")


def test_discard_names_a_row_already_discarded_and_discards_the_others(
    open_main_window, qtbot, demo_workspace
):
    """Issue 20: a discarded row in the scope is "already discarded", not refused; Discard
    names and discards the others."""
    with open_workspace(demo_workspace) as ws:
        assert len(apply_change(ws, [3], discard("junk")).changed) == 1
    window = open_main_window(demo_workspace)
    combo = window.filter_bar.status_combo
    combo.setCurrentIndex(combo.findData(ALL))
    qtbot.waitUntil(lambda: window.model.total() == 4)
    _select(window, qtbot, 1, 3)
    dialog = _open_discard(window, qtbot)
    assert dialog.acts_on() == [1]
    assert dialog.discard_button.text() == "Discard 1"
    said = dialog.summary.text()
    assert said.startswith("Discard 1 dead letter: #1. Already discarded: #3.")
    assert "Not discarded" not in said
    dialog.reason.setText("junk too")
    reports: list[Any] = []
    dialog.jobFinished.connect(reports.append)
    qtbot.mouseClick(dialog.discard_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(reports) and not dialog.isVisible())
    assert (reports[0].changed, reports[0].refused) == ((1,), ())
    assert [_statuses(demo_workspace)[i] for i in (1, 3)] == ["discarded", "discarded"]


def test_opening_another_workspace_closes_the_dialogs_of_this_one(
    window, qtbot, demo_workspace, tmp_path
):
    """A preview names one store's rows: the same ids are other rows in another store, so
    the dialogs close with their workspace instead of acting on the next one."""
    from triage_app.core.db import resolve_config
    from triage_app.core.demo import make_demo

    _set_class(window, qtbot, "data", 3)
    redrive_dialog = _open_redrive(window, qtbot)
    _preview(redrive_dialog, qtbot)
    discard_dialog = _open_discard(window, qtbot)
    other = tmp_path / "other"
    with open_workspace(other) as ws:
        make_demo(ws)
    window.open_config(resolve_config(str(other), env={}))
    qtbot.waitUntil(lambda: window.model.total() == 3)
    # Closed and deleted with their workspace (nothing left for a later event loop).
    assert not shiboken6.isValid(redrive_dialog) and not shiboken6.isValid(discard_dialog)
    assert window.dialogs() == []
    assert all(v == 1 for v in _versions(other).values())  # nothing acted on there
