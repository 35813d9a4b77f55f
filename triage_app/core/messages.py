"""The words the engine and the command line say, in the user's language (gettext).

Every sentence a person reads goes through ``_`` (or ``ngettext`` when it counts something),
with named ``{placeholders}`` filled by ``.format`` after translation: a translator moves
them, never a sentence glued from pieces. ``N_`` marks a text for the catalogue where it is
defined (a table of labels) and translated where it is shown.

The catalogues are ``resources/locale/<lang>/*.po``, compiled to one
``triage_desk_<lang>.mo`` (``core/catalogues.py``). The window's own texts are Qt's
(``gui/i18n.py``); both follow the same language (``core/language.py``).
"""

from __future__ import annotations

import gettext
import sys

from triage_app.core import language

_translation: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted sentence for ``n`` (Indonesian has one form, English two)."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """``message`` unchanged: marks it for the catalogue; ``_`` translates it where shown."""
    return message


def use_language(chosen: str | None = None) -> str:
    """Speak ``chosen`` (a code or a locale name; None: the environment's) from now on; the
    language actually used. A missing catalogue means English, said once on stderr."""
    lang = language.choose(chosen)
    global _translation
    _translation = gettext.NullTranslations()
    if lang != language.ENGLISH:
        # Only here: English, the sources' own, needs no catalogue (nor its finder's imports,
        # which every command's start would pay).
        from triage_app.core.catalogues import CatalogueMissing, gettext_catalogue

        try:
            with gettext_catalogue(lang).open("rb") as handle:
                _translation = gettext.GNUTranslations(handle)
        except (CatalogueMissing, OSError) as exc:
            print(f"triage-app: {exc}; speaking English", file=sys.stderr)
            lang = language.ENGLISH
    language._set_current(lang)
    _route_argparse()
    return lang


def _route_argparse() -> None:
    """argparse's own words ("usage:", "options", its errors) through our catalogue: it
    looks them up with the names it imported from gettext when it was loaded."""
    import argparse

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
