"""One run of the real app, as a steward has it: ``triage-app --workspace FIRST gui``, then
File > Open on each further workspace in turn (the folder dialog answered with it), each one
read, a row chosen and Trends shown, then the app quits. Prints what the window showed, as
JSON; the exit code is the app's.

    python tests/support/app_session.py --quit {menu,app} FIRST [MORE ...]

``--quit menu`` is File > Quit (the window closes); ``--quit app`` is QApplication.quit(), as
when the session ends, without closing the window. After the app returns, the collector runs
over everything, as the interpreter's exit may: a thread still running then would abort.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from typing import Any

DEADLINE_S = 120


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quit", choices=("menu", "app"), required=True)
    p.add_argument("folders", nargs="+")
    args = p.parse_args(argv)

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QFileDialog

    from triage_app.cli import main as triage_app
    from triage_app.gui.app import application
    from triage_app.gui.window.main_window import MainWindow

    app = application()
    to_open = list(args.folders[1:])
    # The platform's folder dialog, answered with the next workspace.
    QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: to_open.pop(0))  # type: ignore[method-assign]
    seen: list[dict[str, Any]] = []
    state: dict[str, Any] = {"expect": args.folders[0], "step": "load", "error": None}
    started = time.monotonic()

    def fail(message: str) -> None:
        state["error"] = message
        app.exit(3)

    def drive() -> None:
        if time.monotonic() - started > DEADLINE_S:
            return fail(f"stuck at {state['step']} of {state['expect']}")
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        w = windows[0] if windows else None
        if w is None or w.config is None or w.queries is None:
            QTimer.singleShot(20, drive)
            return
        if state["step"] == "load":
            loaded = (
                str(w.config.folder) == state["expect"]
                and w.model.total() is not None
                and not w.queries.busy()
            )
            if loaded:
                seen.append({"folder": str(w.config.folder), "total": w.model.total()})
                w.table.selectRow(0)
                w.tabs.setCurrentWidget(w.trends)  # its own query thread reads the charts
                w.trends.refresh()
                state["step"] = "read"
        elif (
            state["step"] == "read"
            and w.detail.current_id() is not None
            and not w.trends.queries.busy()
        ):
            w.tabs.setCurrentWidget(w.quarantine)
            if to_open:
                state["expect"], state["step"] = to_open[0], "load"
                w.menu.open_action.trigger()  # File > Open
            else:
                state["step"] = "quit"
                if args.quit == "menu":
                    w.menu.quit_action.trigger()
                else:
                    QApplication.quit()
                return
        QTimer.singleShot(20, drive)

    QTimer.singleShot(0, drive)
    code = triage_app(["--workspace", args.folders[0], "gui"])
    gc.collect()  # the window and all it made, deleted here if nothing holds them
    print(json.dumps({"seen": seen, "error": state["error"], "code": code}), flush=True)
    return code if state["error"] is None else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
