"""The window's words in the user's language: Qt's translators, and ``translate``.

Every text a widget shows is ``translate("Context", "English text")`` (with ``"", n`` for a
counted one, written ``%n`` in the text), so that ``pyside6-lupdate`` finds it
(``scripts/catalogues.py update``). The context is the class or module the text belongs to,
spelled out: PySide's ``self.tr`` looks plurals up under the subclass's name and misses
them. Placeholders are Qt's ``%1``, ``%2`` (``.arg``-style, filled by ``fill``), never
pieces glued together, so a translator can move them.

The language is chosen once, at start (``core/language.py``; the preference in
``Edit > Preferences`` wins over the locale); the engine's own sentences follow it through
``core/messages.py``.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from triage_app.core import language, messages
from triage_app.core.catalogues import CatalogueMissing, qt_catalogue
from triage_app.core.locale_format import format_int

_PLACEHOLDER = re.compile(r"%(\d+)")
LANGUAGE_SETTING = "language"  # "" (follow the system), "en" or "id"

_translators: list[QTranslator] = []


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the window's language; ``n`` picks a counted text's form and fills %n."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def fill(template: str, *values: object) -> str:
    """``template``'s ``%1``, ``%2``… replaced by ``values`` in one pass (a value that itself
    says ``%1``, a path or a signature, stays as it is); an int is written the language's
    way (``1.234`` in Indonesian)."""

    def value_of(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if not 1 <= number <= len(values):
            return match.group(0)
        value = values[number - 1]
        if isinstance(value, int) and not isinstance(value, bool):
            return format_int(value)
        return str(value)

    return _PLACEHOLDER.sub(value_of, template)


def saved_language() -> str | None:
    """The language the preferences chose, or None to follow the system."""
    from triage_app.gui.settings import settings_store

    value = settings_store().value(LANGUAGE_SETTING, "")
    return str(value) or None


def install_language(app: QCoreApplication, chosen: str | None = None) -> str:
    """The app (and the engine) speaking ``chosen``, or the saved preference, or the
    system's language; the language in use. A catalogue that will not load leaves English,
    with a line on stderr, never a window that fails to open."""
    lang = messages.use_language(chosen if chosen is not None else saved_language())
    for old in _translators:
        app.removeTranslator(old)
    _translators.clear()
    if lang != language.ENGLISH:
        QLocale.setDefault(QLocale(QLocale.Language.Indonesian, QLocale.Country.Indonesia))
    else:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom))
    try:
        path = qt_catalogue(lang)
    except (CatalogueMissing, OSError) as exc:
        import sys

        print(f"triage-app: {exc}; the window speaks English", file=sys.stderr)
        return lang
    translator = QTranslator(app)
    if translator.load(str(path)):
        app.installTranslator(translator)
        _translators.append(translator)
    return lang
