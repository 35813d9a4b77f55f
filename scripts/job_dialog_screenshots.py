"""Each job dialog rendered offscreen, once opened and once after its job ran, and the
window with a row in its detail pane (issue 22: the one ``JobDialog`` base and the pane's
split must not change how any of them looks). A demo workspace in a temporary folder; each
saved with ``QWidget.grab()``. Compare the folder of a run before a change with one after
(the temporary folder's name and the times differ by run).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/job_dialog_screenshots.py OUT_DIR

Before a change: ``git archive main triage_app resources | tar -x -C /tmp/before`` and run
it with ``PYTHONPATH=/tmp/before``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def settle(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.02)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    os.environ["TRIAGE_SETTINGS_DIR"] = tempfile.mkdtemp(prefix="shots-settings-")
    from PySide6.QtWidgets import QApplication

    from triage_app.core.db import open_workspace
    from triage_app.core.demo import make_demo
    from triage_app.gui.window.main_window import MainWindow

    _app = QApplication.instance() or QApplication(sys.argv)  # kept alive to the end
    folder = Path(tempfile.mkdtemp(prefix="shots-ws-"))
    with open_workspace(folder) as ws:
        incoming, _ = make_demo(ws, None)
    # A file not loaded yet, for Run batch to offer and run: the seed's rows and one more.
    seed = sorted(incoming.glob("*.jsonl"))[0]
    extra = b'{"id_pesanan": "X-1", "qty": "many"}\n'
    (incoming / f"{seed.stem}-next.jsonl").write_bytes(seed.read_bytes() + extra)
    from triage_app.core.db import resolve_config

    w = MainWindow(resolve_config(folder, env={}))
    w.resize(1200, 800)
    w.show()
    settle(1.5)

    def shoot(name: str) -> None:
        dialog = w.dialogs()[-1]
        dialog.resize(900, 560)
        settle(0.3)
        dialog.grab().save(str(out / f"{name}.png"))

    # The window with a row's payload in the detail pane (its editor and conflict banner are
    # their own modules since issue 22).
    w.table.selectRow(1)
    settle(1.0)
    w.grab().save(str(out / "window-detail.png"))
    w.table.selectAll()
    settle(0.5)
    w.work.run_batch()
    shoot("batch-open")
    d = w.dialogs()[-1]
    d.run()
    settle(3.0)
    shoot("batch-done")
    d.close()

    w.work.redrive()
    shoot("redrive-open")
    d = w.dialogs()[-1]
    d.preview()
    settle(2.0)
    shoot("redrive-previewed")
    d.run()
    settle(2.0)
    shoot("redrive-done")
    d.close()

    w.work.fix_rows()
    settle(0.3)
    d = w.dialogs()[-1]
    d.step_kind.setCurrentIndex(d.step_kind.findData("set"))
    d.step_field.setText("catatan")
    d.step_value.setText("checked")
    d.add_step()
    shoot("fix-open")
    d.preview()
    settle(2.0)
    shoot("fix-previewed")
    d.apply()
    settle(2.0)
    shoot("fix-done")
    d.close()

    w.work.show_change_sets()
    settle(0.5)
    shoot("change-sets-open")
    d = w.dialogs()[-1]
    d.table.selectRow(0)
    if d.selected() is not None:
        d.revert(d.selected().id)
    settle(2.0)
    shoot("change-sets-done")
    d.close()

    w.work.discard_rows()
    settle(2.0)
    shoot("discard-open")
    w.dialogs()[-1].close()

    w.work.retention()
    settle(2.0)
    shoot("retention-open")
    d = w.dialogs()[-1]
    d.days.setValue(0)
    settle(1.5)
    d.purge_now()
    settle(2.0)
    shoot("retention-done")
    d.close()

    w.shut_down()
    w.close()
    print(f"saved to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "job-dialog-shots"))
