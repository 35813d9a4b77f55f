"""The report a lead forwards, as a mail client would show it: ``triage-app report`` over a
morning store (ten nightly batches, the last one spiking: ``core/demo/morning.py``) written
to a temporary folder, its ``summary.html`` rendered by headless Chromium into a PNG. Look
at the PNG (and the ``summary.md`` printed beside it) after running.

    .venv/bin/python scripts/report_screenshot.py [OUT_DIR] [--spike data|release|none]
        [--since YYYY-MM-DDTHH:MM] [--chromium PATH]

Needs Chromium (``/usr/bin/chromium`` by default); draws the charts offscreen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

WINDOW = "1200,2400"  # a mail pane's width; tall enough for the summary and the first charts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=Path(tempfile.gettempdir()) / "report-shots",
        help="where the PNG and the summaries go (default: report-shots in the temp folder)",
    )
    ap.add_argument("--spike", choices=("data", "release", "none"), default="data")
    ap.add_argument("--since", help="the digest's start, as `report --since` takes it")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    chromium = shutil.which(args.chromium)
    if chromium is None:
        print(f"no Chromium at {args.chromium}: name one with --chromium", file=sys.stderr)
        return 2
    from triage_app.core.db import open_workspace
    from triage_app.core.deadletters import parse_since
    from triage_app.core.demo.morning import fill_morning
    from triage_app.gui.trends.report import write_report

    args.out.mkdir(parents=True, exist_ok=True)
    png = args.out / f"report-{args.spike}.png"
    with tempfile.TemporaryDirectory() as tmp:
        with open_workspace(Path(tmp) / "ws") as ws:
            fill_morning(ws, None if args.spike == "none" else args.spike)
            since = parse_since(args.since) if args.since else None
            report = write_report(ws, Path(tmp) / "report", since)
        shutil.copy(report.markdown, args.out / f"summary-{args.spike}.md")
        shutil.copy(report.html, args.out / f"summary-{args.spike}.html")
        done = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={png}",
                f"--window-size={WINDOW}",
                report.html.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    if done.returncode != 0 or not png.exists():
        print(f"Chromium failed ({done.returncode}): {done.stderr.strip()}", file=sys.stderr)
        return 1
    print(f"wrote {png} and {args.out / f'summary-{args.spike}.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
