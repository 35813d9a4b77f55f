"""Regenerate docs/screenshots/: the main window on the demo workspace, the editor with a
diff and with a validation error, the question about an unsaved edit, the re-drive
preview and the audit trail. Rendered offscreen; look at them after running.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings, QTimer
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from triage_app.core import deadletters
from triage_app.core.db import open_workspace
from triage_app.core.demo import make_demo

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1400, 900)


def wait_until(app: QApplication, condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):  # let layouts and paints settle
        app.processEvents()


@contextlib.contextmanager
def throwaway_settings() -> Iterator[Path]:
    """A temporary folder that also holds the window's settings: screenshots must not
    depend on, or change, yours."""
    with tempfile.TemporaryDirectory() as tmp:
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
        QCoreApplication.setOrganizationName("TriageDeskScreenshots")
        yield Path(tmp)


def open_sized_window(folder: Path) -> tuple[QApplication, Any]:
    """The window on ``folder``, at the screenshots' size."""
    from triage_app.gui import open_window

    window = open_window(str(folder))
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window.resize(*SIZE)
    return app, window


def save(widget: QWidget, path: Path) -> None:
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def save_with_dialog(window: QWidget, dialog: QWidget, path: Path) -> None:
    """The window, dimmed, with a modal dialog drawn over it (offscreen, a dialog is a
    window of its own and the window's grab does not include it)."""
    frame = window.grab()
    box = dialog.grab()
    painter = QPainter(frame)
    painter.fillRect(frame.rect(), QColor(0, 0, 0, 60))
    painter.drawPixmap(
        (frame.width() - box.width()) // 2, (frame.height() - box.height()) // 3, box
    )
    painter.end()
    frame.save(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # Settings in a throwaway place: screenshots must not depend on, or change, yours.
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
        QCoreApplication.setOrganizationName("TriageDeskScreenshots")
        folder = Path(tmp) / "TokoKita"
        with open_workspace(folder) as ws:
            make_demo(ws)

        from triage_app.gui import open_window

        window = open_window(str(folder))
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        window.resize(*SIZE)
        wait_until(app, lambda: window.model.total() == 4 and not window.queries.busy())

        # 1. The main window: the code-class row selected, its payload in the editor.
        window.table.selectRow(3)
        wait_until(app, lambda: window.detail.current_id() == 4)
        window.detail.payload.try_combo.setCurrentText("pesanan@2")
        window.detail.payload.try_button.click()
        wait_until(app, lambda: "would load" in window.detail.payload.try_result.toPlainText())
        save(window, out / "main-window.png")

        # 2. The editor with a diff: a fixed quantity, formatted, against the original.
        window.table.selectRow(2)
        wait_until(app, lambda: window.detail.current_id() == 3)
        window.detail.payload.format_button.click()
        editor = window.detail.payload.editor
        editor.replace_all(editor.toPlainText().replace('"qty": -1', '"qty": 1'))
        window.detail.tabs.setCurrentIndex(2)
        wait_until(app, lambda: "qty" in window.detail.diff.toPlainText())
        save(window, out / "editor-diff.png")
        # 2b. Live validation: a missing comma, marked where the parser stopped.
        window.detail.tabs.setCurrentIndex(0)
        editor.replace_all(editor.toPlainText().replace('"qty": 1,', '"qty": 1'))
        wait_until(app, lambda: "✗" in window.detail.payload.validation.text())
        save(window, out / "editor-validation.png")
        editor.undo()

        # 2c. Another row while the edit is unsaved: Save / Discard / Cancel (Cancel here).
        shot = out / "unsaved-edit.png"

        def answer(tries: int = 0) -> None:
            box = QApplication.activeModalWidget()
            if not isinstance(box, QMessageBox):
                if tries < 500:
                    QTimer.singleShot(10, lambda: answer(tries + 1))
                return
            for _ in range(20):
                app.processEvents()
            save_with_dialog(window, box, shot)
            box.button(QMessageBox.StandardButton.Cancel).click()

        QTimer.singleShot(0, answer)
        window.table.selectRow(0)
        wait_until(app, lambda: shot.exists())
        wait_until(app, lambda: window.table.currentIndex().row() == 2)

        # 3. The re-drive preview: every open row through pesanan@2, nothing written yet.
        window.detail.discard_edit()
        window.table.selectAll()
        window.work.redrive()
        dialog = window.dialogs()[-1]
        dialog.resize(1200, 640)
        dialog.preview()
        wait_until(app, lambda: dialog.run_button.isEnabled() and not dialog.is_running())
        save(dialog, out / "redrive-preview.png")
        dialog.close()

        # 3b. One fix for many rows: a null diskon defaulted to 0, tried with pesanan@1,
        # previewed row by row (those it does not apply to say why), nothing written yet.
        window.work.fix_rows()
        fix = window.dialogs()[-1]
        fix.resize(1200, 640)
        fix.step_kind.setCurrentIndex(fix.step_kind.findData("default"))
        fix.step_field.setText("diskon")
        fix.step_value.setText("0")
        fix.add_step()
        fix.transform_combo.setCurrentIndex(fix.transform_combo.findData("pesanan@1"))
        fix.preview()
        wait_until(app, lambda: fix.apply_button.isEnabled() and not fix.is_running())
        save(fix, out / "fix-preview.png")
        fix.close()

        # 4. The audit trail: a steward's fix and re-drive, a lead's note and park on a
        # team store, after the batch's own quarantine events.
        from triage_app.core.deadletters import apply_change, edit_payload, note, park, redrive

        steward, lead = "ani@steward-laptop", "budi@lead-desk (db: lead1)"
        with open_workspace(folder) as ws:
            fixed = (
                '{"pesanan_id": 4, "waktu": "2026-01-11T08:05:00", "pelanggan": "Rina", '
                '"produk": "Seluar Linen", "qty": 2, "harga": 210000, "diskon": 0}'
            )
            edit_payload(ws, 2, fixed, actor=steward)
            redrive(ws, "pesanan@1", ids=[2], actor=steward)
            cut_off = note("line cut off at the source; asked Toko Kita to resend")
            apply_change(ws, [1], cut_off, actor=lead)
            apply_change(ws, [4], park("transform bug: diskon null"), actor=lead)
        window.reload()
        window.tabs.setCurrentWidget(window.audit)
        wait_until(app, lambda: window.audit.model.rowCount() == 8 and not window.audit.busy())
        save(window, out / "audit.png")

        # 5. Another steward saves the row being edited: the banner offers Reload or
        # Compare and the edit stays; Compare shows theirs and mine side by side.
        window.tabs.setCurrentWidget(window.quarantine)
        row = next(r for r in range(window.model.rowCount()) if window.model.row(r).id == 3)
        window.table.selectRow(row)
        wait_until(app, lambda: window.detail.current_id() == 3)
        window.detail.payload.format_button.click()
        editor.replace_all(editor.toPlainText().replace('"qty": -1', '"qty": 1'))
        with open_workspace(folder) as other:
            theirs = deadletters.get_dead_letter(other, 3).payload.replace('"qty": -1', '"qty": 3')
            deadletters.edit_payload(other, 3, theirs, actor="dewi@other-desk")
        wait_until(app, lambda: window.detail.theirs() is not None)
        save(window, out / "changed-banner.png")
        shot = out / "conflict-dialog.png"

        def compare(tries: int = 0) -> None:
            dialog = window.detail.conflicts.dialog
            if dialog is None or not dialog.isVisible():
                if tries < 500:
                    QTimer.singleShot(10, lambda: compare(tries + 1))
                return
            for _ in range(20):
                app.processEvents()
            save_with_dialog(window, dialog, shot)
            dialog.reject()

        QTimer.singleShot(0, compare)
        window.detail.conflicts.compare()
        window.detail.discard_edit()
        window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
