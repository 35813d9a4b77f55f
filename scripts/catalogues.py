"""The translation catalogues kept in step with the sources (issue 28).

    python scripts/catalogues.py update           # extract, merge, write resources/locale/
    python scripts/catalogues.py update --check   # exit 1 if a catalogue is stale or lacks
                                                  # a translation (tests/test_catalogues.py)
    python scripts/catalogues.py compile          # the .mo and .qm files (make setup does it)
    python scripts/catalogues.py status           # what each part still lacks
    python scripts/catalogues.py pseudo DIR       # the xx pseudo-locale, compiled in DIR

Each part of the app has its own catalogues per language, so the parts are translated
apart (``PARTS``): Qt ``.ts`` files made by ``pyside6-lupdate`` from the window's
``translate`` calls, gettext ``.po`` files made here from ``_``, ``N_`` and ``ngettext``
calls (the engine's and the command line's, and the window's few before Qt starts).
Texts no longer in the sources are dropped; translations of texts still there are kept.
English is filled from the sources (a counted text's two forms guessed from ``(s)``/``(es)``;
otherwise written by hand), Indonesian by hand.

Qt's own texts the window shows (a dialog's OK and Cancel, a line edit's menu) have no
Indonesian catalogue from Qt: ``qt-standard.ts`` holds them, kept by hand, never updated.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from triage_app.core import catalogues, po_files  # noqa: E402

LOCALE = REPO / "resources" / "locale"
LANGS = ("en", "id")
PKG = REPO / "triage_app"
# part -> the sources it covers. A file belongs to the first part that names it.
PARTS: dict[str, list[str]] = {
    "gui-dialogs": ["gui/dialogs"],
    "gui-trends": ["gui/trends"],
    "gui-window": ["gui"],
    "cli": ["cli"],
    "core-deadletters": ["core/deadletters", "core/connectors"],
    "core-batch": ["core/batch", "core/db", "core/reprocess", "core/verify"],
    "core": ["core"],
}
HAND_KEPT = ("qt-standard.ts",)
QT_CALL = "translate"
GETTEXT_CALLS = {"_": 1, "N_": 1, "ngettext": 2}


def part_files() -> dict[str, list[Path]]:
    claimed: set[Path] = set()
    out: dict[str, list[Path]] = {}
    for part, roots in PARTS.items():
        files = []
        for root in roots:
            base = PKG / root
            for path in sorted(base.rglob("*.py")) if base.is_dir() else []:
                if path not in claimed:
                    claimed.add(path)
                    files.append(path)
        out[part] = files
    return out


# --- gettext ------------------------------------------------------------------------------


class ExtractionError(Exception):
    pass


def gettext_calls(path: Path) -> list[tuple[str, str | None, int]]:
    """(msgid, plural or None, line) of every ``_``/``N_``/``ngettext`` call in ``path``;
    ExtractionError for one whose texts are not plain literals (an f-string, a variable)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        wanted = GETTEXT_CALLS.get(node.func.id)
        if wanted is None:
            continue
        texts = node.args[:wanted]
        where = f"{path.relative_to(REPO)}:{node.lineno}"
        if len(texts) < wanted or any(_built(t) for t in texts):
            raise ExtractionError(f"{where}: {node.func.id}() needs literal texts")
        if not all(isinstance(t, ast.Constant) for t in texts):
            if node.func.id == "_" and wanted == 1:
                continue  # _(label): a text marked with N_ where it was defined
            raise ExtractionError(f"{where}: {node.func.id}() needs literal texts")
        values = [t.value for t in texts]  # type: ignore[attr-defined]
        found.append((values[0], values[1] if wanted == 2 else None, node.lineno))
    return found


def _built(node: ast.expr) -> bool:
    """A text made at run time (an f-string, a sum, a ``.format``): no catalogue has it."""
    return isinstance(node, ast.JoinedStr | ast.BinOp | ast.Call)


def _english_forms(msgid: str, plural: str | None) -> list[str]:
    return [msgid] if plural is None else [msgid, plural]


def update_po(part: str, files: list[Path], out_dir: Path) -> None:
    keys: dict[tuple[str, str | None], list[str]] = {}
    for path in files:
        rel = str(path.relative_to(REPO))
        for msgid, plural, _line in gettext_calls(path):
            where = keys.setdefault((msgid, plural), [])
            if rel not in where:
                where.append(rel)
    for lang in LANGS:
        target = out_dir / lang / f"{part}.po"
        old = po_files.read_po(target).by_key() if target.is_file() else {}
        entries = []
        for key, where in keys.items():
            kept = old.get(key)
            translations = kept.translations if kept else []
            fuzzy = kept.fuzzy if kept else False
            if lang == "en":
                translations, fuzzy = _english_forms(*key), False
            elif lang == "id" and key[1] is not None and len(translations) != 1:
                translations = translations[:1] or [""]
            entries.append(po_files.Entry(key[0], key[1], translations, where, fuzzy))
        header = {
            "Content-Type": "text/plain; charset=UTF-8",
            "Language": lang,
            "Plural-Forms": catalogues.PLURAL_FORMS[lang],
        }
        target.parent.mkdir(parents=True, exist_ok=True)
        if entries:
            po_files.write_po(target, po_files.Catalogue(header, entries))
        else:
            target.unlink(missing_ok=True)


# --- Qt -----------------------------------------------------------------------------------

_PLURAL_GUESS = (("(s)", "", "s"), ("(es)", "", "es"), ("(ies)", "y", "ies"))


def qt_calls(path: Path) -> list[tuple[str, str, bool, int]]:
    """(context, text, counted, line) of every ``translate(...)`` call in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id != QT_CALL:
            continue
        where = f"{path.relative_to(REPO)}:{node.lineno}"
        args = node.args
        if len(args) < 2 or not isinstance(args[0], ast.Constant) or _built(args[1]):
            raise ExtractionError(f"{where}: translate() needs a literal context and text")
        if not isinstance(args[1], ast.Constant):
            continue  # translate(ctx, label): marked with QT_TRANSLATE_NOOP where defined
        if node.keywords:
            raise ExtractionError(f"{where}: translate() takes its arguments by position")
        if len(args) == 4 and not isinstance(args[3], ast.Name | ast.Constant):
            raise ExtractionError(f"{where}: translate()'s count must be a plain name")
        counted = len(args) == 4
        found.append((args[0].value, args[1].value, counted, node.lineno))  # type: ignore[attr-defined]
    return found


def _lupdate() -> str:
    folder = Path(catalogues.lrelease()).parent
    for name in ("lupdate", "lupdate.exe"):
        if (folder / name).is_file():
            return str(folder / name)
    found = shutil.which("pyside6-lupdate")
    if not found:
        raise SystemExit("pyside6-lupdate is not installed")
    return found


def update_ts(part: str, files: list[Path], out_dir: Path) -> None:
    calls = [c for path in files for c in qt_calls(path)]
    for lang in LANGS:
        target = out_dir / lang / f"{part}.ts"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not calls:
            target.unlink(missing_ok=True)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            listing = Path(tmp) / "files.lst"
            listing.write_text("\n".join(str(f) for f in files) + "\n")
            done = subprocess.run(
                [
                    _lupdate(),
                    f"@{listing}",
                    "-no-obsolete",
                    "-locations",
                    "none",
                    "-source-language",
                    "en",
                    "-target-language",
                    lang,
                    "-ts",
                    str(target),
                ],
                capture_output=True,
                text=True,
                check=False,
            )
        if done.returncode != 0:
            raise SystemExit(f"lupdate failed on {part}: {done.stderr.strip()}")
        _settle_ts(target, lang, calls)


def _numerus_count(lang: str) -> int:
    return 1 if lang == "id" else 2


def _settle_ts(target: Path, lang: str, calls: list[tuple[str, str, bool, int]]) -> None:
    """lupdate's file, made what the desk needs: a counted text (``translate`` given a
    count) is numerus even where lupdate's Python parser missed it; English is filled in."""
    counted = {(c, t) for c, t, is_counted, _ in calls if is_counted}
    tree = ET.parse(target)
    root = tree.getroot()
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            translation = message.find("translation")
            assert translation is not None
            if (name, source) in counted:
                message.set("numerus", "yes")
                forms = [f.text or "" for f in translation.findall("numerusform")]
                if not forms and translation.text and translation.text.strip():
                    forms = [translation.text]
                want = _numerus_count(lang)
                if (lang == "en" and not all(forms[:2])) or len(forms) < want:
                    forms = (forms + [""] * want)[:want]
                    if lang == "en":
                        forms = _guess_english(source, forms)
                forms = forms[:want]
                translation.text = None
                for child in list(translation):
                    translation.remove(child)
                for form in forms:
                    ET.SubElement(translation, "numerusform").text = form
                _finish(translation, all(forms))
            else:
                message.attrib.pop("numerus", None)
                for child in list(translation):
                    translation.remove(child)
                if lang == "en":
                    translation.text = source
                _finish(translation, bool(translation.text))
    _write_ts(tree, target)


def _write_ts(tree: ET.ElementTree, target: Path) -> None:
    """``tree`` as lupdate writes a .ts file: its declaration, doctype and 4-space indents
    (so that an update changes only the lines whose texts changed)."""
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    target.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8"
    )


def _guess_english(source: str, forms: list[str]) -> list[str]:
    for marker, one, many in _PLURAL_GUESS:
        if marker in source:
            stem = source.replace(marker, "\0")
            return [forms[0] or stem.replace("\0", one), forms[1] or stem.replace("\0", many)]
    return forms


def _finish(translation: ET.Element, done: bool) -> None:
    if done:
        translation.attrib.pop("type", None)
    else:
        translation.set("type", "unfinished")


def put_translations(target: Path, table: dict[tuple[str, str], str | list[str]]) -> int:
    """Write ``table``'s translations ((context, source) -> text, or forms for a counted
    one) into the .ts file ``target``; how many it wrote. For a translator's script."""
    tree = ET.parse(target)
    written = 0
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            value = table.get((name, message.findtext("source") or ""))
            translation = message.find("translation")
            if value is None or translation is None:
                continue
            for child in list(translation):
                translation.remove(child)
            if message.get("numerus") == "yes":
                translation.text = None
                for form in [value] if isinstance(value, str) else value:
                    ET.SubElement(translation, "numerusform").text = form
            else:
                translation.text = value if isinstance(value, str) else value[0]
            translation.attrib.pop("type", None)
            written += 1
    _write_ts(tree, target)
    return written


# --- checks -------------------------------------------------------------------------------


def untranslated(out_dir: Path) -> list[str]:
    """One line per message lacking a translation, in any catalogue."""
    lacking = []
    for lang in LANGS:
        for path in sorted((out_dir / lang).glob("*.po")):
            for entry in po_files.read_po(path).entries:
                if not entry.translated:
                    lacking.append(f"{lang}/{path.name}: {entry.msgid!r}")
        for path in sorted((out_dir / lang).glob("*.ts")):
            for context in ET.parse(path).getroot().iter("context"):
                for message in context.iter("message"):
                    t = message.find("translation")
                    if t is not None and t.get("type") in ("unfinished", "vanished", "obsolete"):
                        lacking.append(
                            f"{lang}/{path.name}: {context.findtext('name')}: "
                            f"{message.findtext('source')!r}"
                        )
    return lacking


def known_translations(out_dir: Path, lang: str) -> dict[tuple[str, str], list[str]]:
    """Every finished .ts translation of ``lang``, by (context, source), whichever part
    holds it: code moved from one part to another keeps its translations."""
    known: dict[tuple[str, str], list[str]] = {}
    for path in sorted((out_dir / lang).glob("*.ts")):
        for context in ET.parse(path).getroot().iter("context"):
            for message in context.iter("message"):
                t = message.find("translation")
                if t is None or t.get("type") == "unfinished":
                    continue
                forms = [f.text or "" for f in t.findall("numerusform")] or [t.text or ""]
                known[(context.findtext("name") or "", message.findtext("source") or "")] = forms
    return known


def _carry(target: Path, known: dict[tuple[str, str], list[str]]) -> None:
    if not target.is_file():
        return
    wanted = {}
    for context in ET.parse(target).getroot().iter("context"):
        for message in context.iter("message"):
            t = message.find("translation")
            key = (context.findtext("name") or "", message.findtext("source") or "")
            if t is not None and t.get("type") == "unfinished" and key in known:
                wanted[key] = known[key]
    if wanted:
        put_translations(target, wanted)  # type: ignore[arg-type]


def update(out_dir: Path) -> None:
    # A part may have both kinds: the window's parts say a few things before Qt exists
    # (through gettext), the engine's never use Qt.
    known = {lang: known_translations(out_dir, lang) for lang in LANGS}
    for part, files in part_files().items():
        update_ts(part, files, out_dir)
        update_po(part, files, out_dir)
        for lang in LANGS:
            _carry(out_dir / lang / f"{part}.ts", known[lang])


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.suffix in (".po", ".ts")
    }


def check() -> list[str]:
    """What is wrong with the shipped catalogues: stale parts, then missing translations."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "locale"
        shutil.copytree(LOCALE, copy, ignore=shutil.ignore_patterns("*.mo", "*.qm"))
        update(copy)
        before, after = _snapshot(LOCALE), _snapshot(copy)
        problems = [
            f"{name} is stale: run python scripts/catalogues.py update"
            for name in sorted(set(before) | set(after))
            if before.get(name) != after.get(name)
        ]
        return problems + untranslated(copy) + disagreeing(copy)


def disagreeing(out_dir: Path) -> list[str]:
    """Texts two parts translate differently: the parts compile into one .mo, where one of
    the two would silently win."""
    found = []
    for lang in LANGS:
        seen: dict[tuple[str, str | None], tuple[str, list[str]]] = {}
        for path in sorted((out_dir / lang).glob("*.po")):
            for entry in po_files.read_po(path).entries:
                if entry.key in seen and seen[entry.key][1] != entry.translations:
                    found.append(
                        f"{lang}: {entry.msgid!r} is {seen[entry.key][1]} in "
                        f"{seen[entry.key][0]} but {entry.translations} in {path.name}"
                    )
                seen.setdefault(entry.key, (path.name, entry.translations))
    return found


# --- the pseudo-locale --------------------------------------------------------------------

_ACCENTS = str.maketrans("AaCcEeIiNnOoSsUuYyZz", "ÅåÇçÉéÎîÑñÖöŠšÛûÝýŽž")
# What must survive untouched: Qt's %1 and %n, Python's {name} and %(name)s (argparse's),
# HTML tags and entities.
_KEEP = re.compile(r"(%L?\d+|%L?n|%\(\w+\)[a-z]|%[a-z%]|\{[^{}]*\}|<[^<>]*>|&[a-z]+;|&&)")
OPEN, CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``Save`` -> ``⟦Šåvé~~⟧``: accented, 40% longer, bracketed, so that a screen shows
    which texts were not translated, which were glued from pieces and which were cut."""
    if not text.strip():
        return text
    parts = _KEEP.split(text)
    body = "".join(p if _KEEP.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
    padding = "~" * max(1, round(len(text) * 0.4))
    return f"{OPEN}{body}{padding}{CLOSE}"


def write_pseudo(out_dir: Path) -> None:
    """The xx catalogues (every text pseudo-translated), compiled into ``out_dir``."""
    source = out_dir / "xx"
    source.mkdir(parents=True, exist_ok=True)
    for path in sorted((LOCALE / "en").glob("*.po")):
        cat = po_files.read_po(path)
        for entry in cat.entries:
            entry.translations = [pseudo(t) for t in _english_forms(entry.msgid, entry.plural)]
        po_files.write_po(source / path.name, cat)
    qt_own = [LOCALE / "id" / name for name in HAND_KEPT]
    for path in sorted((LOCALE / "en").glob("*.ts")) + [p for p in qt_own if p.is_file()]:
        tree = ET.parse(path)
        for message in tree.getroot().iter("message"):
            t = message.find("translation")
            assert t is not None
            for form in t.findall("numerusform"):
                form.text = pseudo(form.text or message.findtext("source") or "")
            if not t.findall("numerusform"):
                t.text = pseudo(message.findtext("source") or "")
            t.attrib.pop("type", None)
        tree.write(source / path.name, encoding="utf-8", xml_declaration=True)
    catalogues.compile_po(
        catalogues.sources("xx", ".po", out_dir), out_dir / "triage_desk_xx.mo", "xx"
    )
    catalogues.compile_ts(
        catalogues.sources("xx", ".ts", out_dir), out_dir / "triage_desk_xx.qm", "xx"
    )


def main(argv: Iterable[str]) -> int:
    args = list(argv)
    what = args[0] if args else "update"
    try:
        if what == "update" and "--check" in args:
            problems = check()
            for line in problems:
                print(line)
            return 1 if problems else 0
        if what == "update":
            update(LOCALE)
            return 0
        if what == "status":
            for line in untranslated(LOCALE):
                print(line)
            return 0
        if what == "compile":
            for path in catalogues.compile_all(LOCALE):
                print(f"compiled {path.relative_to(REPO)}")
            return 0
        if what == "pseudo" and len(args) == 2:
            write_pseudo(Path(args[1]))
            return 0
    except ExtractionError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
