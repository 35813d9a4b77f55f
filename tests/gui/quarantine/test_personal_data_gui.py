"""The window shows personal fields masked (issue 27): the table's cells and tooltips, the
editor, the Original and Error tabs, Trends' and the Audit tab's texts. Reveal (audited)
shows the real values in the editor for the chosen row only, until another row is chosen;
a save of the masked text keeps the real values, and after Reveal the steward edits them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QTextBrowser, QWidget
from sqlalchemy import select

from triage_app.core.batch import run_batch
from triage_app.core.db import DeadLetter, open_workspace
from triage_app.core.deadletters import AuditFilter, audit_trail

LEAKS = ("Siti", "Aminah", "Budi", "Santoso")
JSONL = (
    b'{"pesanan_id": 1, "waktu": "2026-01-10T09:15:00", "pelanggan": "Siti Aminah", '
    b'"produk": "Kemeja", "qty": -1, "harga": 1000}\n'
    b'{"pesanan_id": 2, "waktu": "2026-01-10T09:15:00", "pelanggan": "Budi Sant\n'
    b'{"pesanan_id": 3, "waktu": "2026-01-10T09:15:00", "pelanggan": ["Siti Aminah"], '
    b'"produk": "Kemeja", "qty": 1, "harga": 1000}\n'
)
CSV = b"order_id,pelanggan,status,total,updated_at\n7,Budi Santoso,paid,-5,2026-01-01T00:00:00\n"
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.EditRole)


@pytest.fixture
def names_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    (tmp_path / "p.jsonl").write_bytes(JSONL)
    (tmp_path / "o.csv").write_bytes(CSV)
    with open_workspace(folder) as ws:
        run_batch(ws, tmp_path / "p.jsonl", "pesanan@1")
        run_batch(ws, tmp_path / "o.csv", "orders@1")
    return folder


def model_texts(model: QAbstractItemModel) -> str:
    out = []
    for r in range(model.rowCount()):
        for c in range(model.columnCount()):
            for role in ROLES:
                v = model.data(model.index(r, c), role)
                if v is not None:
                    out.append(str(v))
    return "\n".join(out)


def widget_texts(root: QWidget) -> str:
    out = [root.toolTip()]
    for w in root.findChildren(QWidget):
        out.append(w.toolTip())
        if isinstance(w, QLabel | QAbstractButton):
            out.append(w.text())
        elif isinstance(w, QTextBrowser) or hasattr(w, "toPlainText"):
            out.append(w.toPlainText())
    return "\n".join(out)


def no_names(text: str, where: str) -> None:
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} in {where}"


def _row_of(w: Any, dl_id: int) -> int:
    return next(r for r in range(w.model.rowCount()) if w.model.row(r).id == dl_id)


def _choose(w: Any, qtbot: Any, dl_id: int) -> None:
    w.table.selectRow(_row_of(w, dl_id))
    qtbot.waitUntil(lambda: w.detail.current_id() == dl_id and w.detail._detail is not None)
    qtbot.waitUntil(lambda: w.detail._detail.id == dl_id)


def test_the_window_shows_names_masked_and_reveal_is_audited(
    qtbot: Any, open_main_window: Any, names_workspace: Path
) -> None:
    w = open_main_window(names_workspace)
    qtbot.waitUntil(lambda: w.model.total() == 4)
    no_names(model_texts(w.model), "the table")
    for dl_id in (1, 2, 3, 4):
        _choose(w, qtbot, dl_id)
        no_names(widget_texts(w.detail), f"the detail pane of #{dl_id}")
        assert w.detail.privacy.isVisible() or not w.isVisible()
        assert w.detail.reveal_button.isEnabled()
    assert "B•••" in w.detail.payload.editor.toPlainText()  # the CSV row, edited as JSON

    # Reveal: the real values, for this row only; the audit says who and what.
    _choose(w, qtbot, 1)
    assert "S•••" in w.detail.payload.editor.toPlainText()
    w.detail.reveal_button.click()
    qtbot.waitUntil(lambda: w.detail.is_revealed())
    assert "Siti Aminah" in w.detail.payload.editor.toPlainText()
    assert "Revealed" in w.detail.privacy_label.text()
    assert not w.detail.reveal_button.isEnabled() and w.detail.reveal_button.text() == "Revealed"
    with open_workspace(names_workspace) as ws:
        events = audit_trail(ws, AuditFilter(action="revealed"))
    assert [(e.dead_letter_id, e.detail) for e in events] == [(1, "shown unmasked: pelanggan")]

    # After Reveal the steward edits the real value; it is saved as typed.
    text = w.detail.payload.editor.toPlainText().replace("Siti Aminah", "Siti Rahma")
    w.detail.payload.editor.setPlainText(text.replace('"qty": -1', '"qty": 1'))
    qtbot.waitUntil(lambda: w.detail.can_save())
    w.detail.save()
    qtbot.waitUntil(lambda: w.detail._detail.version == 2)
    assert "Siti Rahma" in w.detail.payload.editor.toPlainText()  # still revealed

    # Another row: masked again; back to the first: masked too (a new reveal is needed).
    _choose(w, qtbot, 4)
    no_names(widget_texts(w.detail), "the next row")
    _choose(w, qtbot, 1)
    assert "S•••" in w.detail.payload.editor.toPlainText()
    assert not w.detail.is_revealed()

    # A save of the masked text keeps the real value (the mask is never stored).
    masked = w.detail.payload.editor.toPlainText()
    w.detail.payload.editor.setPlainText(masked.replace('"qty": 1', '"qty": 2'))
    qtbot.waitUntil(lambda: w.detail.can_save())
    w.detail.save()
    qtbot.waitUntil(lambda: w.detail._detail.version == 3)
    with open_workspace(names_workspace) as ws, ws.store.connect() as conn:
        payload = conn.execute(select(DeadLetter.payload).where(DeadLetter.id == 1)).scalar_one()
    assert orjson.loads(payload) == {
        "pesanan_id": 1,
        "waktu": "2026-01-10T09:15:00",
        "pelanggan": "Siti Rahma",
        "produk": "Kemeja",
        "qty": 2,
        "harga": 1000,
    }
    no_names(widget_texts(w.detail), "the saved row")

    # Trends and the Audit tab.
    w.tabs.setCurrentWidget(w.trends)
    qtbot.waitUntil(lambda: w.trends.trends is not None and not w.trends.busy())
    no_names(widget_texts(w.trends) + model_texts(w.trends.groups.model), "Trends")
    w.tabs.setCurrentWidget(w.audit)
    qtbot.waitUntil(lambda: w.audit.model.rowCount() > 0)
    no_names(model_texts(w.audit.model), "the Audit tab")
