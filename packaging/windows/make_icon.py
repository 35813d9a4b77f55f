"""Writes ``packaging/windows/triage-desk.ico`` from ``resources/icons/triage-desk.svg``.

    .venv/bin/python packaging/windows/make_icon.py

The installer (NSIS) and the Windows exe (PyInstaller) want an ``.ico``; the file is
committed, so run this only when the SVG changes. No Pillow: Qt draws the SVG at each size
(as ``build.py`` does for the Linux icon theme) and the ICO container is written here. The
small sizes are 32-bit bitmaps, which every Windows shell and NSIS read; 256 px is a PNG, as
Windows itself stores it (a 256 px bitmap would be 256 KB).
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SVG = ROOT / "resources" / "icons" / "triage-desk.svg"
ICO = Path(__file__).resolve().parent / "triage-desk.ico"
BITMAP_SIZES = (16, 20, 24, 32, 40, 48, 64)
PNG_SIZES = (256,)


def render(px: int):  # type: ignore[no-untyped-def]
    """The SVG drawn at px x px, in ARGB32: alpha not premultiplied, as ICO bitmaps want."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(px, px, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    return image


def bitmap_entry(image) -> bytes:  # type: ignore[no-untyped-def]
    """An ICO bitmap: BITMAPINFOHEADER (height doubled: colour + mask), BGRA rows bottom-up,
    then the 1-bit AND mask (all zero: the alpha channel says what is transparent)."""
    px = image.width()
    # Format_ARGB32 is 0xAARRGGBB per pixel in native order: B, G, R, A on little-endian.
    rows = [bytes(image.constScanLine(y))[: px * 4] for y in range(px)]
    pixels = b"".join(reversed(rows))
    mask_row = ((px + 31) // 32) * 4
    header = struct.pack("<IiiHHIIiiII", 40, px, px * 2, 1, 32, 0, len(pixels), 0, 0, 0, 0)
    return header + pixels + bytes(mask_row * px)


def png_entry(image) -> bytes:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes() -> bytes:
    entries = [(px, bitmap_entry(render(px))) for px in BITMAP_SIZES]
    entries += [(px, png_entry(render(px))) for px in PNG_SIZES]
    offset = 6 + 16 * len(entries)
    directory = struct.pack("<HHH", 0, 1, len(entries))
    for px, data in entries:
        side = 0 if px >= 256 else px  # 0 means 256 in an ICONDIRENTRY
        directory += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return directory + b"".join(data for _, data in entries)


def main() -> int:
    ICO.write_bytes(ico_bytes())
    print(f"{ICO.relative_to(ROOT)}: {ICO.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
