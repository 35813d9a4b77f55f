"""What ``make package`` takes out of the Linux one-folder build after PyInstaller made it,
so that it fits its 200 MB budget without losing anything the app does.

- **Libraries nothing loads.** PyInstaller copies each collected library's dependencies,
  including those of Qt plugins the spec then leaves out (the GTK theme's cairo, pango and
  gio; Kerberos from the host's libpq). A library that no program, Python extension or
  kept Qt plugin of the bundle needs, directly or through another, is removed.
- **Symbol tables.** Extension modules and libraries built without stripping carry
  their symbol tables (SQLAlchemy's compiled parts alone, 8 MB); only the dynamic
  symbols are used (``strip_symbols`` says which are left alone, and why).
- **ICU's data, cut to what Qt uses.** Qt links ICU for collation (``QCollator``, which the
  file dialogs use to sort names) and locale-aware case mapping; its own CLDR tables do the
  rest (number and date formats, time zones, line breaking, IDNA, normalisation). The
  31 MB ``libicudata`` carries every locale's display names, currencies, units, time-zone
  names, transliterators, dictionaries for Thai and CJK line breaking and 5 MB of legacy
  converters. The data is unpacked from the library, those items are dropped with ICU's
  ``icupkg``, and it is linked back into a ``libicudata`` of the same name and symbol.

These need tools a build machine has (``readelf``, ``icupkg`` from icu-devtools, ``gcc``);
without one, that step is skipped with a warning and the build is only bigger.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# ICU data items Qt never reads (see the module's docstring), by the tree they live in;
# plus the converters (``*.cnv``: ICU converts UTF-8, UTF-16, UTF-32, ASCII and Latin-1
# in code, and the app reads and writes only those) and the character names.
ICU_DROPPED_TREES = ("brkitr", "curr", "lang", "rbnf", "region", "translit", "unit", "zone")
ICU_DROPPED_SUFFIXES = (".cnv",)
ICU_DROPPED_FILES = ("unames.icu",)


def _is_elf(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(4) == b"\x7fELF"


def _needed(path: Path) -> list[str]:
    out = subprocess.run(
        ["readelf", "-d", "-W", str(path)], capture_output=True, text=True, check=True
    ).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def _library_folders(internal: Path) -> list[Path]:
    """Where the bundle keeps shared libraries (as opposed to Python extensions and Qt
    plugins, which are what loads them)."""
    return [internal, internal / "PySide6" / "Qt" / "lib", *internal.glob("*.libs")]


def prune_unneeded_libraries(dist: Path) -> list[tuple[str, int]]:
    """Remove the libraries nothing in ``dist`` needs; what was removed, with sizes."""
    if shutil.which("readelf") is None:
        print("warning: readelf not found (binutils): unneeded libraries kept")
        return []
    internal = dist / "_internal"
    folders = set(_library_folders(internal))
    libraries = {
        p.name: p
        for folder in folders
        if folder.is_dir()
        for p in folder.iterdir()
        if ".so" in p.name and p.is_file() and not _python_extension(p)
    }
    files = (p for p in dist.rglob("*") if p.is_file() and not p.is_symlink())
    # The bootloader opens libpython itself; everything else is reached through NEEDED.
    roots = [p for p in files if p.name not in libraries and _is_elf(p)]
    roots += [p for n, p in libraries.items() if n.startswith("libpython")]
    kept: set[str] = set()
    todo = list(roots)
    while todo:
        for name in _needed(todo.pop().resolve()):
            if name in libraries and name not in kept:
                kept.add(name)
                todo.append(libraries[name])
    removed = []
    for name, path in sorted(libraries.items()):
        if name in kept or name.startswith("libpython"):
            continue
        removed.append((str(path.relative_to(dist)), path.stat().st_size))
        path.unlink()
    return removed


def strip_symbols(dist: Path) -> int:
    """Strip the symbol tables and debug information the bundle's libraries and extension
    modules carry (SQLAlchemy's compiled parts, cryptography's, Python's own): only their
    dynamic symbols are ever looked up. Left alone: what auditwheel patched (a library in a
    ``*.libs`` folder, or one whose run path starts at ``$ORIGIN``), since ``strip`` breaks
    a library patchelf rewrote (numpy's, for one). Bytes saved."""
    if shutil.which("strip") is None or shutil.which("readelf") is None:
        print("warning: strip or readelf not found (binutils): symbols kept")
        return 0
    saved = 0
    for path in sorted(dist.rglob("*")):
        if not path.is_file() or path.is_symlink() or not _is_elf(path):
            continue
        if path.name == dist.name:  # the bootloader: PyInstaller appends its archive to it
            continue
        if any(part.endswith(".libs") or part == "numpy" for part in path.parts):
            continue
        dynamic = subprocess.run(
            ["readelf", "-d", "-W", str(path)], capture_output=True, text=True, check=True
        ).stdout
        if "$ORIGIN" in dynamic:
            continue
        before = path.stat().st_size
        subprocess.run(["strip", "--strip-unneeded", str(path)], check=True)
        saved += before - path.stat().st_size
    return saved


def _python_extension(path: Path) -> bool:
    return ".cpython-" in path.name or ".abi3." in path.name


def trim_icu_data(dist: Path) -> tuple[int, int] | None:
    """Rebuild the bundle's libicudata with only what Qt reads; its size before and
    after, or None when there is none or a tool is missing."""
    found = sorted((dist / "_internal").rglob("libicudata.so.*"))
    found = [p for p in found if p.is_file() and not p.is_symlink()]
    if not found:
        return None
    missing = [t for t in ("icupkg", "gcc", "readelf") if shutil.which(t) is None]
    if missing:
        print(f"warning: {', '.join(missing)} not found (icu-devtools, gcc): ICU data kept")
        return None
    lib = found[0]
    symbol, offset, size = _data_symbol(lib)
    with tempfile.TemporaryDirectory(prefix="triage-icu-") as tmp:
        work = Path(tmp)
        # icupkg takes the package's name from the file's: icudt73 + l (little-endian).
        data = work / f"{symbol.removesuffix('_dat')}l.dat"
        with lib.open("rb") as f:
            f.seek(offset)
            data.write_bytes(f.read(size))
        items = subprocess.run(
            ["icupkg", "-l", str(data)], capture_output=True, text=True, check=True
        ).stdout.split()
        dropped = [i for i in items if _icu_item_dropped(i)]
        (work / "dropped.txt").write_text("\n".join(dropped) + "\n")
        trimmed = work / "trimmed" / data.name
        trimmed.parent.mkdir()
        subprocess.run(
            ["icupkg", "-r", str(work / "dropped.txt"), str(data), str(trimmed)],
            check=True,
            capture_output=True,
        )
        (work / "data.S").write_text(
            f".section .rodata\n.balign 16\n.globl {symbol}\n.type {symbol}, @object\n"
            f'{symbol}:\n.incbin "{trimmed}"\n.size {symbol}, .-{symbol}\n'
            '.section .note.GNU-stack,"",@progbits\n'
        )
        rebuilt = work / lib.name
        subprocess.run(
            [
                "gcc",
                "-shared",
                "-nostdlib",
                f"-Wl,-soname,{_soname(lib)}",
                "-o",
                str(rebuilt),
                str(work / "data.S"),
            ],
            check=True,
        )
        before = lib.stat().st_size
        shutil.copyfile(rebuilt, lib)
        lib.chmod(0o755)
    return before, lib.stat().st_size


def _icu_item_dropped(item: str) -> bool:
    tree = item.split("/", 1)[0] if "/" in item else ""
    return (
        tree in ICU_DROPPED_TREES
        or item.endswith(ICU_DROPPED_SUFFIXES)
        or item in ICU_DROPPED_FILES
    )


def _data_symbol(lib: Path) -> tuple[str, int, int]:
    """The ICU data's symbol (``icudt73_dat``), its offset in the file and its size."""
    syms = subprocess.run(
        ["readelf", "--dyn-syms", "-W", str(lib)], capture_output=True, text=True, check=True
    ).stdout
    m = re.search(
        r":\s+([0-9a-f]+)\s+(0x[0-9a-f]+|\d+)\s+OBJECT\s+GLOBAL\s+\S+\s+\d+\s+(icudt\d+_dat)", syms
    )
    if m is None:
        raise RuntimeError(f"{lib.name}: no icudtNN_dat symbol")
    address, size, symbol = int(m.group(1), 16), int(m.group(2), 0), m.group(3)
    sections = subprocess.run(
        ["readelf", "-S", "-W", str(lib)], capture_output=True, text=True, check=True
    ).stdout
    for line in sections.splitlines():
        parts = line.split("]", 1)[-1].split()
        if len(parts) >= 5 and parts[1] == "PROGBITS":
            start, off, length = int(parts[2], 16), int(parts[3], 16), int(parts[4], 16)
            if start <= address < start + length:
                return symbol, off + (address - start), size
    raise RuntimeError(f"{lib.name}: {symbol} is in no section")


def _soname(lib: Path) -> str:
    out = subprocess.run(
        ["readelf", "-d", "-W", str(lib)], capture_output=True, text=True, check=True
    ).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return m.group(1) if m else lib.name
