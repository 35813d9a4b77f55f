"""The window in both languages (issue 28), as a laptop shows it: Qt's real X platform
(xcb) under Xvfb at 1280x720, on the demo workspace, the first dead letter selected, each
tab, and the Preferences dialog. Look at them after running: a text cut off, or an English
one left in the Indonesian screens, is a bug.

    .venv/bin/python scripts/language_screenshots.py [OUT_DIR]

Needs ``xvfb-run`` and the xcb libraries the README names.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from xvfb_screens import main, settle

# (language, X screen, Qt's scale factor)
SCREENS = (("en", "1280x720", "1"), ("id", "1280x720", "1"))


def shoot(workspace: Path, out: Path, lang: str) -> None:
    """In the Xvfb child: the window speaking ``lang``, each tab and Preferences saved."""
    os.environ["TRIAGE_LANG"] = lang
    from PySide6.QtWidgets import QApplication, QTabWidget

    from triage_app.gui import open_window
    from triage_app.gui.preferences_dialog import PreferencesDialog

    w = open_window(str(workspace))
    app = QApplication.instance()
    settle(1.5)
    w.table.selectRow(0)
    settle(1.0)
    tabs = w.findChild(QTabWidget)
    for i, tab in enumerate(("quarantine", "trends", "audit")):
        tabs.setCurrentIndex(i)
        settle(1.5)
        path = out / f"language-{lang}-{tab}.png"
        app.primaryScreen().grabWindow(0).save(str(path))
        print(f"wrote {path}")
    tabs.setCurrentIndex(0)
    dialog = PreferencesDialog(w)
    dialog.show()
    settle(0.8)
    path = out / f"language-{lang}-preferences.png"
    app.primaryScreen().grabWindow(0).save(str(path))
    print(f"wrote {path}")
    dialog.reject()
    w.close()


if __name__ == "__main__":
    sys.exit(main(__file__, shoot, SCREENS))
