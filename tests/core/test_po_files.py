"""gettext's files, read and written by the desk (core/po_files.py), checked against
Python's own gettext reader."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from triage_app.core import catalogues
from triage_app.core.po_files import Catalogue, Entry, read_po, write_mo, write_po


def _catalogue() -> Catalogue:
    return Catalogue(
        {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=1; plural=0;"},
        [
            Entry("Fix the row", None, ["Perbaiki baris"], ["triage_app/cli/x.py"]),
            Entry('A "quoted"\nline\twith\\tabs', None, ['Baris "dikutip"\nbaru\t\\'], []),
            Entry("{n} row", "{n} rows", ["{n} baris"], []),
            Entry("Not yet", None, [""], []),
            Entry("Guessed", None, ["Ditebak"], [], fuzzy=True),
        ],
    )


def test_a_po_file_reads_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "part.po"
    write_po(path, _catalogue())
    again = read_po(path)
    assert again.header["Plural-Forms"] == "nplurals=1; plural=0;"
    assert [(e.msgid, e.plural, e.translations, e.fuzzy) for e in again.entries] == [
        (e.msgid, e.plural, e.translations, e.fuzzy) for e in _catalogue().entries
    ]
    assert again.entries[0].where == ["triage_app/cli/x.py"]
    assert [e.translated for e in again.entries] == [True, True, True, False, False]


def test_the_mo_file_is_what_python_gettext_reads(tmp_path: Path) -> None:
    cat = _catalogue()
    path = tmp_path / "x.mo"
    write_mo(path, cat.header, cat.entries)
    with path.open("rb") as handle:
        t = gettext.GNUTranslations(handle)
    assert t.gettext("Fix the row") == "Perbaiki baris"
    assert t.gettext('A "quoted"\nline\twith\\tabs') == 'Baris "dikutip"\nbaru\t\\'
    assert t.ngettext("{n} row", "{n} rows", 1) == "{n} baris"
    assert t.ngettext("{n} row", "{n} rows", 5) == "{n} baris"
    assert t.gettext("Not yet") == "Not yet"  # untranslated: the English
    assert t.gettext("Guessed") == "Guessed"  # fuzzy: never shipped


def test_a_broken_po_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.po"
    path.write_text('msgid "a"\nmsgstr "b"\nwhat is this\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.po:3"):
        read_po(path)


def test_a_stale_catalogue_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "id").mkdir()
    source = tmp_path / "id" / "part.po"
    write_po(source, _catalogue())
    monkeypatch.setenv(catalogues.LOCALE_DIR_ENV, str(tmp_path))
    first = catalogues.gettext_catalogue("id")
    assert first == tmp_path / "triage_desk_id.mo"
    cat = _catalogue()
    cat.entries[0].translations = ["Perbaiki barisnya"]
    write_po(source, cat)
    import os

    os.utime(source, (first.stat().st_mtime + 5, first.stat().st_mtime + 5))
    with catalogues.gettext_catalogue("id").open("rb") as handle:
        assert gettext.GNUTranslations(handle).gettext("Fix the row") == "Perbaiki barisnya"
    with pytest.raises(catalogues.CatalogueMissing):
        catalogues.gettext_catalogue("fr")
