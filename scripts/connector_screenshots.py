"""Regenerate the screenshots of issue 26: File > Connect a queue… after an import, its
Dead-letter table tab, the main window with imported rows and their Source, and Re-drive
to the source after a run a broker half refused. Qt's offscreen platform on one 1280x720
screen; a demo workspace in a temporary folder, letters from a queue held in memory (no
broker), a keyring in memory (yours is never touched). Look at them after running.

    .venv/bin/python scripts/connector_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN = (1280, 720)


def settle(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.02)


def _screen_file(folder: Path) -> Path:
    path = folder / "screen.json"
    width, height = SCREEN
    screen = {"name": "laptop", "x": 0, "y": 0, "width": width, "height": height}
    screen |= {"logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
    path.write_text(json.dumps({"synchronousWindowSystemEvents": True, "screens": [screen]}))
    return path


class _Queue:
    """A dead-letter queue in memory: what a broker would give, acknowledged as stored."""

    name = "memory"

    def __init__(self, letters: list) -> None:  # type: ignore[type-arg]
        self.waiting = letters

    def take(self, most: int) -> Sequence:  # type: ignore[type-arg]
        got, self.waiting = self.waiting[:most], self.waiting[most:]
        return got

    def acknowledge(self, letters: Sequence) -> None:  # type: ignore[type-arg]
        pass

    def close(self) -> None:
        pass


def _letters(n: int) -> list:  # type: ignore[type-arg]
    from triage_app.core.connectors import OutsideLetter
    from triage_app.core.vocabulary import ErrorClass

    errors = (
        ('NumberFormatException: For input string: "dua"', ErrorClass.DATA),
        ("ValidationError: kode_pos must be 5 digits, got 1234", ErrorClass.DATA),
        ("TimeoutException: inventory-service did not answer in 3000 ms", ErrorClass.TRANSIENT),
    )
    out = []
    for i in range(n):
        error, cls = errors[i % len(errors)]
        payload = b'{"pesanan_id": %d, "pelanggan": "C-%03d", "qty": "dua"}' % (9100 + i, i)
        out.append(
            OutsideLetter(
                identity=f"msg-{9100 + i}",
                payload=payload,
                error=error,
                error_class=cls,
                destination="orders/new",
                evidence={"x-death": [{"queue": "orders", "count": 1 + i % 2}]},
            )
        )
    return out


class _Sink:
    """A broker that nacks one letter: what the summary's undelivered row shows."""

    name = "where each came from"

    def deliver(self, parcels: Sequence) -> dict[int, str]:  # type: ignore[type-arg]
        return {
            p.id: "nack from the broker (queue orders at its length limit)" for p in parcels[1:2]
        }

    def close(self) -> None:
        pass


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="shots-connectors-"))
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screen_file(tmp)}"
    os.environ["TRIAGE_SETTINGS_DIR"] = str(tmp / "settings")
    import keyring
    from keyring.backend import KeyringBackend
    from PySide6.QtWidgets import QApplication

    class _MemoryKeyring(KeyringBackend):
        priority = 1  # type: ignore[assignment]

        def __init__(self) -> None:
            super().__init__()
            self.items: dict[tuple[str, str], str] = {}

        def get_password(self, service: str, username: str) -> str | None:
            return self.items.get((service, username))

        def set_password(self, service: str, username: str, password: str) -> None:
            self.items[(service, username)] = password

        def delete_password(self, service: str, username: str) -> None:
            self.items.pop((service, username), None)

    keyring.set_keyring(_MemoryKeyring())

    from triage_app.core.db import open_workspace, resolve_config
    from triage_app.core.demo import make_demo
    from triage_app.gui.dialogs import connector_dialog, redrive_dialog
    from triage_app.gui.window.main_window import MainWindow

    _app = QApplication.instance() or QApplication(sys.argv)  # kept alive to the end
    folder = tmp / "TokoKita"
    with open_workspace(folder) as ws:
        make_demo(ws, None)
    connector_dialog.open_source = lambda connector, url: _Queue(_letters(12))  # type: ignore[assignment]
    redrive_dialog.RoutedSink = lambda ws, to, transform: _Sink()  # type: ignore[assignment,misc]

    w = MainWindow(resolve_config(folder, env={}))
    w.resize(*SCREEN)
    w.show()
    settle(1.5)

    # 1. Connect a queue…: the form filled, imported, the summary and the kept connector.
    w.menu.connect_queue_action.trigger()
    settle(0.3)
    d = w.dialogs()[-1]
    d.amqp_url.setText("amqp://steward@rabbit.tokokita.internal:5672/orders")
    d.amqp_password.setText("not-a-real-password")
    d.queue.setText("orders.dlq")
    d.run_import()
    settle(2.5)
    d.grab().save(str(out / "connect-queue-dialog.png"))
    d.tabs.setCurrentIndex(1)
    d.kept.clearSelection()
    settle(0.3)
    d.grab().save(str(out / "attach-table-dialog.png"))
    d.close()

    # 2. The window: the demo's file rows and the imported ones, each with its Source.
    settle(1.0)
    w.table.selectRow(5)
    settle(1.0)
    w.grab().save(str(out / "main-window-sources.png"))

    # 3. Re-drive to the source, as they are, after a run one letter of which was nacked.
    bar = w.filter_bar
    bar.source_combo.setCurrentIndex(bar.source_combo.findData("orders.dlq"))
    settle(1.0)
    w.table.clearSelection()
    w.menu.redrive_source_action.trigger()
    settle(0.5)
    d = w.dialogs()[-1]
    d.transform_combo.setCurrentIndex(d.transform_combo.findData(None))
    d.preview()
    settle(2.0)
    d.run()
    settle(2.5)
    d.grab().save(str(out / "redrive-to-source.png"))
    d.close()
    w.close()
    print(f"wrote the screenshots of issue 26 into {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
