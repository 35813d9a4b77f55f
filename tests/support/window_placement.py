"""Opens the real main window on the screens an offscreen config file describes, in a
process of its own (Qt reads its screens once per process), and prints where the window
and its edges ended up, as JSON.

    python tests/support/window_placement.py WORKSPACE [--move X Y W H | --trends]

With ``--move`` the window is put there and its state saved, as on closing it. With
``--trends`` the Trends tab is shown, and where its headline and error groups ended up is
printed too.
"""

from __future__ import annotations

import json
import sys
import time


def main(argv: list[str]) -> int:
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QApplication

    from triage_app.gui import open_window

    w = open_window(argv[0])
    app = QApplication.instance()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (w.queries is None or w.queries.busy()):
        app.processEvents()
        time.sleep(0.01)
    if len(argv) > 1 and argv[1] == "--move":
        x, y, width, height = (int(v) for v in argv[2:6])
        w.setGeometry(QRect(x, y, width, height))
        app.processEvents()
    w.remembered.save()

    def on_screen(widget) -> list[int]:  # type: ignore[no-untyped-def]
        top_left = widget.mapToGlobal(QPoint(0, 0))
        return [top_left.x(), top_left.y(), widget.width(), widget.height()]

    for _ in range(5):  # the first place is taken again once the frame is known
        app.processEvents()
    trends = _trends(w, app, on_screen) if argv[1:2] == ["--trends"] else {}
    geometry, frame = w.geometry(), w.frameGeometry()
    print(
        json.dumps(
            {
                **trends,
                "window": [geometry.x(), geometry.y(), geometry.width(), geometry.height()],
                "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
                "screens": [
                    [g.x(), g.y(), g.width(), g.height()]
                    for g in (s.availableGeometry() for s in app.screens())
                ],
                "workspace_label": on_screen(w.workspace_label),
                "status_bar": on_screen(w.statusBar()),
                "minimum": [w.minimumSizeHint().width(), w.minimumSizeHint().height()],
            }
        )
    )
    w.close()
    return 0


def _trends(w, app, on_screen) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Trends shown: its headline's tiles, the groups table's viewport, where each of the
    lead's columns lies in it, how many rows fit, and the rows of owned groups."""
    from triage_app.gui.trends.groups_view import COL_NOTE, COL_OWNER, COL_TAGS, COL_WAITED

    w.tabs.setCurrentWidget(w.trends)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (w.trends.trends is None or w.trends.busy()):
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    h, table = w.trends.headline, w.trends.groups.table
    header = table.horizontalHeader()
    return {
        "tiles": [on_screen(t) for t in (h.open_tile, h.wait_tile, h.spike_tile, h.unowned_tile)],
        "groups_viewport": on_screen(table.viewport()),
        "columns": [
            [header.sectionViewportPosition(c), header.sectionSize(c)]
            for c in (COL_WAITED, COL_OWNER, COL_TAGS, COL_NOTE)
        ],
        "rows_seen": table.viewport().height() // table.verticalHeader().defaultSectionSize(),
        "owned_rows": [i for i, g in enumerate(w.trends.groups.model.groups) if g.owner],
        "banner": on_screen(w.spike_banner) if w.spike_banner.isVisible() else None,
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
