"""Regenerate docs/screenshots/trends*.png: the Trends tab and the spike banner over a
store of 90 days and 200 batches (60,000 dead letters by default), rendered offscreen.
Look at the images after running.

    .venv/bin/python scripts/trend_screenshots.py [OUT_DIR] [--rows N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtWidgets import QApplication, QWidget

# The same window size and helpers as the other screenshots (this script's folder is on
# sys.path when it runs).
from screenshots import ROOT, SIZE, save, wait_until


def _bench() -> object:
    """The benchmark's store generator, so screenshots and figures show the same shape."""
    spec = importlib.util.spec_from_file_location(
        "bench_trends", ROOT / "benchmarks/bench_trends.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
        _bench().fill_store(folder, args.rows, 200)  # type: ignore[attr-defined]
        app = QApplication.instance() or QApplication([])
        assert isinstance(app, QApplication)
        shoot(app, folder, args.out)


def shoot(app: QApplication, folder: Path, out: Path) -> None:
    from triage_app.gui import open_window

    window = open_window(str(folder))
    window.resize(*SIZE)
    window.show()
    tabs = getattr(window, "tabs", None)
    if tabs is None:  # the window without the Trends tab yet: show the tab on its own
        from triage_app.core.db import resolve_config
        from triage_app.gui.trends import SpikeBanner, TrendsTab

        window.close()
        host = QWidget()
        from PySide6.QtWidgets import QVBoxLayout

        v = QVBoxLayout(host)
        banner = SpikeBanner()
        tab = TrendsTab()
        v.addWidget(banner)
        v.addWidget(tab, 1)
        tab.spikeChanged.connect(banner.show_spike)
        host.resize(*SIZE)
        host.show()
        done: list[bool] = []
        tab.updated.connect(lambda: done.append(True))
        tab.open_workspace(resolve_config(folder, env={}))
        wait_until(app, lambda: bool(done), timeout=60.0)
        save(host, out / "trends.png")
        save(banner, out / "trends-banner.png")
        tab.close_workspace()
        return
    tabs.setCurrentWidget(window.trends)
    wait_until(
        app, lambda: window.trends.trends is not None and not window.trends.busy(), timeout=60.0
    )
    save(window, out / "trends.png")
    save(window.spike_banner, out / "trends-banner.png")
    window.close()


if __name__ == "__main__":
    main()
