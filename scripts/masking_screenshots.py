"""Regenerate the personal-data screenshots in docs/screenshots/ (issue 27): the main window
with the customers' names masked (``S•••``) and the Reveal button, and the same row after
Reveal (recorded in the audit). Rendered offscreen; look at them after running.

    .venv/bin/python scripts/masking_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QApplication

from scripts.screenshots import ROOT, SIZE, save, wait_until
from triage_app.core.db import open_workspace
from triage_app.core.demo import make_demo


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
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

        # The row with a negative quantity: its customer's name masked, Reveal offered.
        window.table.selectRow(2)
        wait_until(app, lambda: window.detail.current_id() == 3)
        wait_until(app, lambda: window.detail.privacy.isVisible())
        save(window, out / "personal-data-masked.png")

        window.detail.reveal_button.click()
        wait_until(app, lambda: window.detail.is_revealed())
        save(window, out / "personal-data-revealed.png")
        window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
