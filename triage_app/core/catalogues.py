"""The translation catalogues: where they are, and compiling them when they are not yet.

Sources, one pair per part of the app so that the parts can be translated apart:
``resources/locale/<lang>/<part>.po`` (gettext: the engine, the command line) and
``resources/locale/<lang>/<part>.ts`` (Qt: the window, Trends, the report). Each language
compiles to one ``triage_desk_<lang>.mo`` and one ``triage_desk_<lang>.qm`` beside them:
``make setup`` and the installer's build do it; a checkout whose sources changed since (a
``git pull``), or a plain ``pip install``, gets them compiled on first use, into the user's
cache when the install is read-only. ``pyside6-lrelease`` compiles Qt's, ``po_files`` gettext's.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from triage_app.core.places import resources_dir

DOMAIN = "triage_desk"
# gettext's plural rule for each language, in the .mo header (Indonesian nouns do not
# change with the count: "1 baris", "3 baris").
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "id": "nplurals=1; plural=0;",
    "xx": "nplurals=2; plural=(n != 1);",
}


class CatalogueMissing(LookupError):
    """No catalogue for a language, and none could be compiled here."""


# A folder of catalogues to use instead of the shipped ones: a translator trying a
# catalogue, and the tests' pseudo-locale.
LOCALE_DIR_ENV = "TRIAGE_LOCALE_DIR"


def locale_dir() -> Path:
    override = os.environ.get(LOCALE_DIR_ENV)
    return Path(override) if override else resources_dir() / "locale"


def sources(lang: str, suffix: str, where: Path | None = None) -> list[Path]:
    """The language's ``.po`` or ``.ts`` sources, in a stable order."""
    return sorted(((where or locale_dir()) / lang).glob(f"*{suffix}"))


def compiled_name(lang: str, suffix: str) -> str:
    return f"{DOMAIN}_{lang}{suffix}"


def gettext_catalogue(lang: str) -> Path:
    """The language's compiled ``.mo``, compiled first when missing or stale."""
    return _fresh(lang, ".po", ".mo", compile_po)


def qt_catalogue(lang: str) -> Path:
    """The language's compiled ``.qm``, compiled first when missing or stale."""
    return _fresh(lang, ".ts", ".qm", compile_ts)


def _fresh(lang: str, source_suffix: str, suffix: str, compiler) -> Path:  # type: ignore[no-untyped-def]
    name = compiled_name(lang, suffix)
    shipped = locale_dir() / name
    found = sources(lang, source_suffix)
    if getattr(sys, "frozen", False) or not found:
        if shipped.is_file():
            return shipped
        raise CatalogueMissing(f"no {lang} catalogue in this installation ({name})")
    newest = max(p.stat().st_mtime for p in found)
    for candidate in (shipped, _cache_dir() / name):
        if candidate.is_file() and candidate.stat().st_mtime >= newest:
            return candidate
    for target in (shipped, _cache_dir() / name):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            compiler(found, target, lang)
            return target
        except OSError:
            continue  # a read-only install: the cache next
    raise CatalogueMissing(f"the {lang} catalogue could not be compiled ({name})")


def _cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("triage-desk", appauthor=False)) / "locale"


def compile_po(found: list[Path], target: Path, lang: str) -> None:
    """The ``.po`` files in ``found``, one ``.mo`` at ``target``."""
    from triage_app.core.po_files import read_po, write_mo

    entries = []
    for path in found:
        entries.extend(read_po(path).entries)
    header = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": lang,
        "Plural-Forms": PLURAL_FORMS.get(lang, PLURAL_FORMS["en"]),
    }
    partial = target.with_name(target.name + ".part")
    write_mo(partial, header, entries)
    os.replace(partial, target)


def lrelease() -> str:
    """Qt's catalogue compiler, shipped with PySide6."""
    import shutil

    spec = importlib.util.find_spec("PySide6")  # located, not imported: core stays Qt-free
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for name in ("lrelease", "lrelease.exe"):
            if (Path(folder) / name).is_file():
                return str(Path(folder) / name)
    found = shutil.which("pyside6-lrelease")
    if found:
        return found
    raise OSError("pyside6-lrelease is not installed")


def compile_ts(found: list[Path], target: Path, lang: str) -> None:
    """The ``.ts`` files in ``found``, one ``.qm`` at ``target`` (``pyside6-lrelease``)."""
    import subprocess

    partial = target.with_name(target.name + ".part.qm")
    done = subprocess.run(
        [lrelease(), "-silent", *map(str, found), "-qm", str(partial)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not partial.is_file():
        raise OSError(f"lrelease failed: {(done.stderr or done.stdout).strip()[:200]}")
    os.replace(partial, target)


def compile_all(where: Path | None = None) -> list[Path]:
    """Every language's catalogues compiled in ``where`` (the shipped folder by default);
    the files written. ``make setup`` and the installer's build call this."""
    folder = where or locale_dir()
    written = []
    for lang_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        lang = lang_dir.name
        po = sources(lang, ".po", folder)
        if po:
            compile_po(po, folder / compiled_name(lang, ".mo"), lang)
            written.append(folder / compiled_name(lang, ".mo"))
        ts = sources(lang, ".ts", folder)
        if ts:
            compile_ts(ts, folder / compiled_name(lang, ".qm"), lang)
            written.append(folder / compiled_name(lang, ".qm"))
    return written


if __name__ == "__main__":  # python -m triage_app.core.catalogues
    for path in compile_all():
        print(f"compiled {path.name}")
