"""Draw the application icon: resources/icons/triage-desk.svg and PNGs at 256 and 64 px.

A tray of rows on a teal tile: the healthy rows white, the quarantined one amber, with a
re-drive arrow sending it on. Run: .venv/bin/python scripts/make_icon.py
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

OUT = Path(__file__).resolve().parent.parent / "resources" / "icons"

SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">
  <rect x="8" y="8" width="240" height="240" rx="48" fill="#0f766e"/>
  <rect x="44" y="52" width="168" height="28" rx="8" fill="#ffffff"/>
  <rect x="44" y="96" width="120" height="28" rx="8" fill="#f59e0b"/>
  <rect x="44" y="140" width="168" height="28" rx="8" fill="#ffffff"/>
  <rect x="44" y="184" width="168" height="28" rx="8" fill="#ffffff" fill-opacity="0.6"/>
  <path d="M 174 110 L 196 110" stroke="#ffffff" stroke-width="10" stroke-linecap="round"/>
  <path d="M 192 96 L 214 110 L 192 124 Z" fill="#ffffff"/>
</svg>
"""


def main() -> None:
    app = QGuiApplication.instance() or QGuiApplication([])
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "triage-desk.svg").write_text(SVG)
    renderer = QSvgRenderer(QByteArray(SVG.encode()))
    for size in (256, 64):
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        image.save(str(OUT / f"triage-desk-{size}.png"))
    del app


if __name__ == "__main__":
    main()
