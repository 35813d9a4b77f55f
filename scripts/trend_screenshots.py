"""Regenerate docs/screenshots/trends*.png: the Trends tab and the spike banner over a
store of 90 days and 200 batches (60,000 dead letters by default), rendered offscreen.
Look at the images after running.

    .venv/bin/python scripts/trend_screenshots.py [OUT_DIR] [--rows N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QApplication

# The same window size and helpers as the other screenshots (this script's folder is on
# sys.path when it runs).
from screenshots import ROOT, SIZE, save, wait_until

from triage_app.core.db import open_workspace
from triage_app.core.demo import fill_history
from triage_app.core.demo.history import DAYS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--rows", type=int, default=60_000)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tmp)
        QCoreApplication.setOrganizationName("TriageDeskScreenshots")
        folder = Path(tmp) / "TokoKita"
        with open_workspace(folder) as ws:
            # Ending this morning, as a lead sees it: waits in days, growth in the last 24 h.
            now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
            fill_history(ws, args.rows, 200, first=now - dt.timedelta(days=DAYS, hours=6))
        app = QApplication.instance() or QApplication([])
        assert isinstance(app, QApplication)
        shoot(app, folder, args.out)


def shoot(app: QApplication, folder: Path, out: Path) -> None:
    from triage_app.gui import open_window

    window = open_window(str(folder))
    window.resize(*SIZE)
    window.show()
    window.tabs.setCurrentWidget(window.trends)
    wait_until(
        app, lambda: window.trends.trends is not None and not window.trends.busy(), timeout=60.0
    )
    save(window, out / "trends.png")
    save(window.spike_banner, out / "trends-banner.png")

    # The team backlog: groups owned, tagged and noted by two stewards; the groups panel
    # filtered to ani's, and the dialog a group's menu opens.
    from triage_app.core.deadletters import set_group

    groups = window.trends.trends.groups
    with open_workspace(folder) as ws:
        set_group(
            ws,
            groups[0].signature,
            owner="ani",
            add_tags=["needs source fix"],
            note="asked the shop to resend with qty filled in",
            actor="budi",
        )
        set_group(ws, groups[1].signature, owner="ani", add_tags=["waiting on vendor"])
        set_group(ws, groups[3].signature, owner="dewi", note="transform bug, fix in pesanan@3")
    window.reload()
    wait_until(app, lambda: window.trends.groups.owner_combo.findData("dewi") > 0, timeout=60.0)
    view = window.trends.groups
    save(view, out / "trends-groups.png")
    view.owner_combo.setCurrentIndex(view.owner_combo.findData("ani"))
    wait_until(app, lambda: view.model.rowCount() == 2)
    from triage_app.gui.dialogs.group_dialog import GroupDialog

    owners, tags = window.team
    dialog = GroupDialog(view.model.groups[0], owners, tags, focus="tags", parent=window)
    dialog.show()
    wait_until(app, lambda: dialog.isVisible())
    save(dialog, out / "group-dialog.png")
    dialog.close()
    window.close()


if __name__ == "__main__":
    main()
