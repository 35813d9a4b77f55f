"""Screenshots of each dialog that acts on many rows, after the table changed under it (issue
20): Re-drive and Fix rows previewed on the Data class, then a search narrows the table;
Discard open on the same rows, then the same search. Qt's real X platform (xcb) under Xvfb,
on 1280x720 and 1366x768 screens; each picture is the whole screen. Look at them after
running.

    .venv/bin/python scripts/scope_screenshots.py [OUT_DIR]

Needs ``xvfb-run`` and the xcb libraries the README names.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xvfb_screens import main, settle

SCREENS = (("1280x720", "1280x720", "1"), ("1366x768", "1366x768", "1"))
DIALOGS = ("redrive", "fix", "discard")


def shoot(workspace: Path, out: Path, name: str) -> None:
    """In the Xvfb child: each dialog opened on the Data class, previewed, then the search
    typed under it; the whole screen saved."""
    from PySide6.QtWidgets import QApplication

    from triage_app.gui import open_window

    w = open_window(str(workspace))
    app = QApplication.instance()

    settle(1.5)
    for which in DIALOGS:
        bar = w.filter_bar
        bar.search.setText("")
        bar.class_combo.setCurrentIndex(bar.class_combo.findData("data"))
        settle(1.0)
        if which == "redrive":
            w.menu.redrive_action.trigger()
        elif which == "fix":
            w.menu.fix_action.trigger()
        else:
            w.row_actions.discard_action.trigger()
        settle(0.5)
        dialog = w.dialogs()[-1]
        if which == "fix":
            dialog.step_kind.setCurrentIndex(dialog.step_kind.findData("default"))
            dialog.step_field.setText("diskon")
            dialog.step_value.setText("0")
            dialog.add_step()
        if which != "discard":
            dialog.preview()
        else:
            dialog.reason.setText("test feed from the shop's staging system")
        settle(1.5)
        bar.search.setText("qty")  # the table narrows under the open dialog
        settle(2.0)
        path = out / f"scope-{which}-{name}.png"
        app.primaryScreen().grabWindow(0).save(str(path))
        print(f"wrote {path}")
        dialog.close()
        settle(0.3)
    w.close()


if __name__ == "__main__":
    sys.exit(main(__file__, shoot, SCREENS))
