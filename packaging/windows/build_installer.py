"""The Windows installer: ``triage-desk.nsi`` compiled by NSIS around the one-folder build.

    .venv\\Scripts\\python packaging\\windows\\build_installer.py

Run after PyInstaller has written ``build/dist/triage-desk/`` (on Windows: the spec's
Windows branch gives the exe its icon and version resource); writes
``build/TriageDesk-<version>-setup.exe``. makensis is looked for on PATH, then where the NSIS
installer puts it. Anywhere with makensis works (Debian: ``apt-get install nsis``); the
bundle must have been frozen on Windows, which is checked.

``--target amd64-unicode`` makes a 64-bit installer, for NSIS builds that have its stubs
(Debian's does, the official Windows one does not); the default, ``x86-unicode``, is a
32-bit installer that installs the 64-bit app where 64-bit programs go.
``tests/packaging/test_windows_installer.py`` runs this script and the installer it makes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCRIPT = HERE / "triage-desk.nsi"
DIST = ROOT / "build" / "dist" / "triage-desk"
OUT = ROOT / "build"
EXE = "triage-desk.exe"
# What the one-folder build may hold at its top: the uninstaller (triage-desk.nsi) removes
# these by name, never the folder recursively, so anything new must be taught to it first.
TOP_LEVEL = {EXE, "triage-app.exe", "_internal"}
TARGETS = ("x86-unicode", "amd64-unicode")
# Where the NSIS installer puts makensis (32-bit NSIS on 64-bit Windows, then elsewhere).
WINDOWS_PLACES = (
    Path(os.environ.get("PROGRAMFILES(X86)", r"C:\Program Files (x86)")) / "NSIS" / "makensis.exe",
    Path(os.environ.get("PROGRAMFILES", r"C:\Program Files")) / "NSIS" / "makensis.exe",
)


def find_makensis() -> str | None:
    on_path = shutil.which("makensis")
    if on_path:
        return on_path
    if sys.platform == "win32":
        return next((str(p) for p in WINDOWS_PLACES if p.is_file()), None)
    return None


def default_version() -> str:
    """The app's version, as the installed package (the build's venv) or the checkout says."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("triage-desk")
    except PackageNotFoundError:
        text = (ROOT / "triage_app" / "__init__.py").read_text(encoding="utf-8")
        found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
        if not found:
            raise SystemExit("no version: pass --version") from None
        return found[1]


def numeric_version(version: str) -> str:
    """Four numbers for the Windows version resource: 0.2.0.dev3 gives 0.2.0.0."""
    found = re.match(r"\d+(?:\.\d+)*", version)
    if not found:
        raise SystemExit(f"a version must start with a number: {version!r}")
    parts = [int(n) for n in found[0].split(".")]
    return ".".join(str(n) for n in [*parts, 0, 0, 0][:4])


def is_windows_program(path: Path) -> bool:
    """A PE file ("MZ", then "PE" where the header says), not a Linux bundle's binary."""
    with path.open("rb") as f:
        head = f.read(0x40)
        if len(head) < 0x40 or head[:2] != b"MZ":
            return False
        f.seek(int.from_bytes(head[0x3C:0x40], "little"))
        return f.read(4) == b"PE\0\0"


def build(
    dist: Path,
    out_dir: Path,
    version: str,
    target: str = "x86-unicode",
    makensis: str | None = None,
    strict: bool = False,
) -> Path:
    """Compile the installer; its path. ``strict``: an NSIS warning fails the build."""
    makensis = makensis or find_makensis()
    if makensis is None:
        raise SystemExit(
            "makensis not found: install NSIS (Windows: https://nsis.sourceforge.io, or "
            "choco install nsis; Debian: apt-get install nsis)"
        )
    exe = dist / EXE
    if not exe.is_file() or not (dist / "_internal").is_dir():
        raise SystemExit(f"{dist} is not a one-folder build: run PyInstaller on Windows first")
    unknown = sorted(p.name for p in dist.iterdir() if p.name not in TOP_LEVEL)
    if unknown:
        raise SystemExit(
            f"{dist} holds {', '.join(unknown)}, which the uninstaller would leave behind: "
            "add them to its Uninstall section (triage-desk.nsi) and to TOP_LEVEL here"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"TriageDesk-{version}-setup.exe"
    command = [
        makensis,
        "-V2",  # warnings and errors only
        *(["-WX"] if strict else []),
        f"-DPAYLOAD={dist.resolve()}",
        f"-DVERSION={version}",
        f"-DVERSION_NUMERIC={numeric_version(version)}",
        f"-DTARGET={target}",
        f"-DOUTFILE={out.resolve()}",
        str(SCRIPT),
    ]
    done = subprocess.run(command, check=False)
    if done.returncode != 0:
        raise SystemExit(f"makensis failed ({done.returncode}): {' '.join(command)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="the one-folder build")
    parser.add_argument("--out", type=Path, default=OUT, help="where the installer goes")
    parser.add_argument("--version", default=None, help="default: the app's own")
    parser.add_argument("--target", choices=TARGETS, default="x86-unicode")
    parser.add_argument("--makensis", default=None, help="default: on PATH, then NSIS's own")
    parser.add_argument("--strict", action="store_true", help="an NSIS warning fails")
    parser.add_argument(
        "--any-payload",
        action="store_true",
        help="do not check that the exe is a Windows program (placeholder payloads, tests)",
    )
    args = parser.parse_args(argv)
    exe = args.dist / EXE
    if not args.any_payload and exe.is_file() and not is_windows_program(exe):
        raise SystemExit(f"{args.dist / EXE} is not a Windows program: freeze on Windows")
    out = build(
        args.dist,
        args.out,
        args.version or default_version(),
        args.target,
        args.makensis,
        args.strict,
    )
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
