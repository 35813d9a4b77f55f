"""Which language the desk speaks (core/language.py, core/messages.py)."""

from __future__ import annotations

import gettext

import pytest

from triage_app.core import language, messages


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("id_ID.UTF-8", "id"),
        ("id", "id"),
        ("in_ID", "id"),  # the old code for Indonesian
        ("id:en", "id"),
        ("en_GB.UTF-8", "en"),
        ("de_DE", "en"),  # a language the desk does not speak: English
        ("C", None),
        ("POSIX", None),
        ("", None),
        (None, None),
    ],
)
def test_a_locale_name_says_which_language(value: str | None, expected: str | None) -> None:
    assert language.normalise(value) == expected


def test_triage_lang_wins_then_the_locale_in_gettext_order() -> None:
    env = {"LANG": "en_US.UTF-8", "LC_ALL": "id_ID.UTF-8"}
    assert language.from_environment(env) == "id"
    assert language.from_environment({**env, "TRIAGE_LANG": "en"}) == "en"
    assert language.from_environment({"LANGUAGE": "id", "LANG": "en_US"}) == "id"
    assert language.from_environment({"LANG": "C"}) == "en"
    assert language.from_environment({}) == "en"
    assert language.choose("id", {"TRIAGE_LANG": "en"}) == "id"
    assert language.choose(None, {"TRIAGE_LANG": "id"}) == "id"


def test_indonesian_catalogue_loads_and_english_is_the_source(indonesian: str) -> None:
    assert indonesian == "id" and language.current() == "id"
    english = "the language to speak: en or id (env TRIAGE_LANG; default: the system's locale)"
    assert messages._(english).startswith("bahasa yang dipakai")
    messages.use_language("en")
    assert messages._(english) == english
    assert messages.ngettext("{n} row", "{n} rows", 1) == "{n} row"
    assert messages.ngettext("{n} row", "{n} rows", 2) == "{n} rows"


def test_argparse_speaks_through_the_same_catalogue(indonesian: str) -> None:
    import argparse

    assert argparse._ is messages._  # type: ignore[attr-defined]


def test_a_missing_catalogue_means_english_said_once(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRIAGE_LOCALE_DIR", str(tmp_path))  # an empty folder: no catalogues
    assert messages.use_language("id") == "en"
    assert "speaking English" in capsys.readouterr().err
    assert isinstance(messages._translation, gettext.NullTranslations)
    monkeypatch.delenv("TRIAGE_LOCALE_DIR")
    messages.use_language("en")
