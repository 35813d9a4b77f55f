"""Regenerate the personal-data screenshots in docs/screenshots/ (issue 27): the main window
with the customers' names masked (``S•••``) and the Reveal button, and the same row after
Reveal (recorded in the audit). Rendered offscreen; look at them after running.

    .venv/bin/python scripts/masking_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from scripts.screenshots import ROOT, open_sized_window, save, throwaway_settings, wait_until
from triage_app.core.db import open_workspace
from triage_app.core.demo import make_demo


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with throwaway_settings() as tmp:
        folder = tmp / "TokoKita"
        with open_workspace(folder) as ws:
            make_demo(ws)
        app, window = open_sized_window(folder)
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
