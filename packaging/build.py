"""``make package``: the one-folder build for this OS, and on Linux a ``.deb`` and a
``.tar.gz`` of it, with the sizes against their budgets and what takes the space.

    .venv/bin/python packaging/build.py [--skip-freeze]

Writes ``build/dist/triage-desk/`` (the folder), ``build/triage-desk_<version>_<arch>.deb``
and ``build/triage-desk-<version>-linux-<arch>.tar.gz``. ``--skip-freeze`` packs the
folder already built.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import shutil
import subprocess
import sys
import tarfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
DIST = BUILD / "dist" / "triage-desk"
VERSION = version("triage-desk")
FOLDER_BUDGET_MB = 200
DEB_BUDGET_MB = 75
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256)
# What Qt's xcb platform and its fonts need on a desktop that lacks them (the README's
# list), and the OpenGL, fontconfig and D-Bus libraries PySide6 links.
DEPENDS = (
    "libc6 (>= 2.36), libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-image0, "
    "libxcb-render-util0, libxcb-shape0, libxcb-xkb1, libxkbcommon-x11-0, libxkbcommon0, "
    "libgl1, libegl1, libfontconfig1, libdbus-1-3, libglib2.0-0, fonts-dejavu-core, "
    # The bundled libmount names sensible-pager; lintian asks for what provides it.
    "sensible-utils"
)
# A self-contained bundle in /opt breaks rules written for packages built from source by
# Debian: each override says why it cannot be otherwise here.
LINTIAN_OVERRIDES = """\
# A vendor bundle: the app, its Python and its Qt live together in /opt/triage-desk.
triage-desk: dir-or-file-in-opt
# PyInstaller's bootloader finds the bundled libraries through an rpath into _internal.
triage-desk: custom-library-search-path
# The bundle carries its own copies (Qt, ICU, libpq, OpenSSL, sqlite) of what it was tested with.
triage-desk: embedded-library
# What auditwheel patched (numpy's libraries, the *.libs folders) is not stripped: strip breaks it.
triage-desk: unstripped-binary-or-object
# Libraries as the wheels built them (cairo-gobject, small extension modules).
triage-desk: library-not-linked-against-libc
triage-desk: shared-library-lacks-prerequisites
# PyInstaller's bootloader is built without PIE.
triage-desk: hardening-no-pie
"""
CHANGELOG = """triage-desk ({version}) unstable; urgency=medium

  * Packaged by make package (packaging/build.py).

 -- Triage Desk maintainers <maintainers@triagedesk.invalid>  Tue, 01 Dec 2026 00:00:00 +0000
"""
DESKTOP = """[Desktop Entry]
Type=Application
Name=Triage Desk
GenericName=Dead-letter triage
Comment=Fix and re-drive the rows a nightly batch could not load
Exec=/opt/triage-desk/triage-desk gui
Icon=triage-desk
Terminal=false
Categories=Development;Database;
Keywords=dead letter;quarantine;batch;re-drive;
StartupWMClass=triage-desk
"""


def freeze() -> None:
    # The translation catalogues compiled from this checkout's sources (issue 28): the
    # frozen app ships the .qm and .mo files, not the sources, and never compiles.
    subprocess.run([sys.executable, "-m", "triage_app.core.catalogues"], check=True, cwd=ROOT)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(BUILD / "dist"),
            "--workpath",
            str(BUILD / "work"),
            str(ROOT / "packaging" / "triage-desk.spec"),
        ],
        check=True,
        cwd=ROOT,
    )


def trim_linux_build() -> None:
    """The libraries nothing loads, symbol tables nothing reads, and ICU's data Qt never
    reads (packaging/trim.py)."""
    sys.path.insert(0, str(ROOT / "packaging"))
    from trim import prune_unneeded_libraries, strip_symbols, trim_icu_data

    removed = prune_unneeded_libraries(DIST)
    if removed:
        names = ", ".join(Path(n).name for n, _ in removed[:6])
        mb = sum(size for _, size in removed) / 1e6
        print(f"removed {len(removed)} libraries nothing loads ({mb:.1f} MB): {names}, ...")
    stripped = strip_symbols(DIST)
    print(f"symbol tables stripped: {stripped / 1e6:.1f} MB")
    icu = trim_icu_data(DIST)
    if icu is not None:
        print(f"ICU data trimmed to what Qt reads: {icu[0] / 1e6:.1f} MB -> {icu[1] / 1e6:.1f} MB")


def size_mb(path: Path) -> float:
    """Megabytes, a symlink counted where it points."""
    if path.is_symlink():
        return 0.0
    if path.is_file():
        return path.stat().st_size / 1e6
    files = [p for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files) / 1e6


def biggest(folder: Path, top: int = 8) -> list[tuple[str, float]]:
    """The largest parts of the build: top-level folders of _internal and files alike."""
    inside = folder / "_internal"
    parts = [(p.name, size_mb(p)) for p in inside.iterdir()] if inside.is_dir() else []
    qt = inside / "PySide6" / "Qt"
    if qt.is_dir():  # PySide6 is most of it: say which of its parts
        parts += [(f"PySide6/Qt/{p.name}", size_mb(p)) for p in qt.iterdir()]
        parts += [
            (f"PySide6/{p.name}", size_mb(p))
            for p in (inside / "PySide6").iterdir()
            if p.is_file() and p.stat().st_size > 2e6
        ]
    return sorted(parts, key=lambda kv: -kv[1])[:top]


def icons(into: Path) -> None:
    """The icon at every size the hicolor theme looks in, drawn from the SVG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    svg = ROOT / "resources" / "icons" / "triage-desk.svg"
    renderer = QSvgRenderer(str(svg))
    for px in ICON_SIZES:
        image = QImage(px, px, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = into / f"{px}x{px}" / "apps"
        out.mkdir(parents=True, exist_ok=True)
        image.save(str(out / "triage-desk.png"))
    scalable = into / "scalable" / "apps"
    scalable.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable / "triage-desk.svg")


def deb_arch() -> str:
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def build_deb() -> Path:
    arch = deb_arch()
    root = BUILD / "deb-root"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(DIST, root / "opt" / "triage-desk", symlinks=True)
    for cache in list((root / "opt").rglob("__pycache__")):  # Python writes its own
        shutil.rmtree(cache)
    bin_dir = root / "usr" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("triage-desk", "triage-app"):
        (bin_dir / name).symlink_to("/opt/triage-desk/triage-desk")
    apps = root / "usr" / "share" / "applications"
    apps.mkdir(parents=True)
    (apps / "triage-desk.desktop").write_text(DESKTOP)
    icons(root / "usr" / "share" / "icons" / "hicolor")
    doc = root / "usr" / "share" / "doc" / "triage-desk"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: triage-desk\n\n"
        "Files: *\nCopyright: 2026 Triage Desk maintainers\nLicense: proprietary\n"
        " The bundled libraries keep their own licences: see\n"
        " /opt/triage-desk/_internal/*.dist-info/.\n"
    )
    man = root / "usr" / "share" / "man" / "man1"
    man.mkdir(parents=True)
    sys.path.insert(0, str(ROOT / "packaging"))
    from manpage import manual

    (man / "triage-desk.1.gz").write_bytes(
        gzip.compress(manual().encode(), compresslevel=9, mtime=0)
    )
    (man / "triage-app.1.gz").symlink_to("triage-desk.1.gz")
    changelog = CHANGELOG.format(version=VERSION).encode()
    (doc / "changelog.gz").write_bytes(gzip.compress(changelog, compresslevel=9, mtime=0))
    overrides = root / "usr" / "share" / "lintian" / "overrides"
    overrides.mkdir(parents=True)
    (overrides / "triage-desk").write_text(LINTIAN_OVERRIDES)
    installed_kb = int(size_mb(root) * 1000)
    control = root / "DEBIAN"
    control.mkdir()
    (control / "control").write_text(
        f"Package: triage-desk\nVersion: {VERSION}\nSection: utils\nPriority: optional\n"
        f"Architecture: {arch}\nInstalled-Size: {installed_kb}\nDepends: {DEPENDS}\n"
        "Maintainer: Triage Desk maintainers <maintainers@triagedesk.invalid>\n"
        "Description: quarantine, fix and re-drive the rows a nightly batch could not load\n"
        " A desktop tool for data stewards: rows that fail their transform wait in a\n"
        " dead-letter store with the evidence of why; fix them in a JSON editor and\n"
        " re-drive them through a chosen transform version; watch failure trends.\n"
    )
    for p in root.rglob("*"):  # dpkg wants 0755 folders and no group-writable files
        if p.is_symlink():
            continue
        # A shared library is not a program: 0644, as lintian expects.
        program = os.access(p, os.X_OK) and ".so" not in p.name
        p.chmod(0o755 if p.is_dir() or program else 0o644)
    out = BUILD / f"triage-desk_{VERSION}_{arch}.deb"
    subprocess.run(
        ["fakeroot", "dpkg-deb", "--build", "-Zxz", "--root-owner-group", str(root), str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


def build_tar() -> Path:
    out = BUILD / f"triage-desk-{VERSION}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        tar.add(DIST, arcname=f"triage-desk-{VERSION}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skip-freeze", action="store_true", help="pack the folder already built")
    a = ap.parse_args()
    if not a.skip_freeze:
        freeze()
        if sys.platform.startswith("linux"):
            trim_linux_build()
    if not (DIST / ("triage-desk.exe" if os.name == "nt" else "triage-desk")).exists():
        sys.exit(f"no build in {DIST}")
    folder = size_mb(DIST)
    print(
        f"one-folder build: {DIST.relative_to(ROOT)}, {folder:.0f} MB (budget {FOLDER_BUDGET_MB})"
    )
    for name, mb in biggest(DIST):
        print(f"  {mb:6.1f} MB  {name}")
    ok = folder < FOLDER_BUDGET_MB
    if sys.platform.startswith("linux"):
        deb, tar = build_deb(), build_tar()
        deb_mb = size_mb(deb)
        print(f"{deb.relative_to(ROOT)}: {deb_mb:.1f} MB (budget {DEB_BUDGET_MB})")
        print(f"{tar.relative_to(ROOT)}: {size_mb(tar):.1f} MB")
        ok = ok and deb_mb < DEB_BUDGET_MB
    print("within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
