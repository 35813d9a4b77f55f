"""The translation catalogues match the sources (issue 28): every text a user reads has its
English and Indonesian translation, no catalogue keeps a text the sources no longer say,
and no translation loses a placeholder. ``scripts/catalogues.py update`` fixes the first
two; a translator fixes the rest."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.catalogues import catalogue_tool
from triage_app.core.po_files import read_po

REPO = Path(__file__).resolve().parent.parent
LOCALE = REPO / "resources" / "locale"


tool = catalogue_tool()


def test_every_text_is_translated_in_both_languages_and_none_is_unused() -> None:
    problems = tool.check()
    assert not problems, f"{len(problems)} catalogue problems, e.g.:\n" + "\n".join(problems[:40])


def test_lupdate_found_every_translate_call() -> None:
    """pyside6-lupdate's Python parser skips some calls silently (a count that is not a plain
    name): each call the sources make is in its part's catalogue, counted where it counts."""
    missing = []
    for part, files in tool.part_files().items():
        ts = LOCALE / "en" / f"{part}.ts"
        shipped: dict[tuple[str, str], bool] = {}
        if ts.is_file():
            for context in ET.parse(ts).getroot().iter("context"):
                for message in context.iter("message"):
                    key = (context.findtext("name") or "", message.findtext("source") or "")
                    shipped[key] = message.get("numerus") == "yes"
        for path in files:
            for ctx, text, counted, line in tool.qt_calls(path):
                if shipped.get((ctx, text)) is None:
                    missing.append(f"{path.relative_to(REPO)}:{line}: {ctx}: {text!r}")
                elif shipped[(ctx, text)] != counted:
                    missing.append(f"{path.relative_to(REPO)}:{line}: counted? {text!r}")
    assert not missing, "\n".join(missing[:40])


_PLACEHOLDER = re.compile(
    r"%L?\d|%L?n|\{[a-z_][a-z_0-9]*(?:![rs])?(?::[^{}]*)?\}|%\(\w+\)[sdr]|%[sdr]"
)


def _placeholders(text: str) -> list[str]:
    return sorted(set(_PLACEHOLDER.findall(text)))


def _pairs():
    """(where, English, translation) of every translated text in the Indonesian catalogues."""
    for path in sorted((LOCALE / "id").glob("*.po")):
        for entry in read_po(path).entries:
            for form in entry.translations:
                if form:
                    english = entry.plural if entry.plural is not None else entry.msgid
                    yield f"{path.name}: {entry.msgid!r}", english, form
    for path in sorted((LOCALE / "id").glob("*.ts")):
        for message in ET.parse(path).getroot().iter("message"):
            source = message.findtext("source") or ""
            t = message.find("translation")
            forms = [f.text or "" for f in t.findall("numerusform")] if t is not None else []
            if t is not None and not forms:
                forms = [t.text or ""]
            for form in forms:
                if form:
                    yield f"{path.name}: {source!r}", source, form


def test_no_translation_loses_or_invents_a_placeholder() -> None:
    wrong = [
        f"{where}: {_placeholders(english)} != {_placeholders(form)}"
        for where, english, form in _pairs()
        if _placeholders(english) != _placeholders(form)
    ]
    assert not wrong, "\n".join(wrong[:40])


def test_html_tags_survive_translation() -> None:
    tag = re.compile(r"</?[a-zA-Z][^<>]*>")
    wrong = [
        where
        for where, english, form in _pairs()
        if sorted(t.split()[0].rstrip(">") for t in tag.findall(english))
        != sorted(t.split()[0].rstrip(">") for t in tag.findall(form))
    ]
    assert not wrong, "\n".join(wrong[:40])


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Save %1 of %2", ["%1", "%2"]),
        ("%Ln dead letter(s)", ["%Ln"]),
        ("Row {row} of {batch}", ["{row}", "{batch}"]),
        ("<b>Fix</b> &amp; save", ["<b>", "</b>", "&amp;"]),
    ],
)
def test_the_pseudo_locale_keeps_what_code_fills_in(text: str, kept: list[str]) -> None:
    out = tool.pseudo(text)
    assert out.startswith(tool.OPEN) and out.endswith(tool.CLOSE)
    for piece in kept:
        assert piece in out
    assert len(out) >= len(text) * 1.4
    assert "Save" not in out and "Fix" not in out


def test_the_pseudo_catalogues_compile(tmp_path: Path) -> None:
    tool.write_pseudo(tmp_path)
    assert (tmp_path / "triage_desk_xx.mo").stat().st_size > 0
    assert (tmp_path / "triage_desk_xx.qm").stat().st_size > 0


def test_no_translation_adds_or_drops_a_percent_sign() -> None:
    """argparse %-formats its help texts (and Qt reads %1, %n): a translation with one more
    or one fewer ``%`` than its English crashes ``--help`` or shows a raw placeholder."""
    wrong = [
        f"{where}: {form!r}"
        for where, english, form in _pairs()
        if english.count("%") != form.count("%")
    ]
    assert not wrong, "\n".join(wrong[:40])
