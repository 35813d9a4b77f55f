"""Which language the desk speaks: English or Bahasa Indonesia.

The stewards, their shops and the seed documents are Indonesian; the desk follows the
operating system's locale unless told otherwise. The order, first one set wins:

1. ``--lang`` on the command line, or the window's preferences (``Edit > Preferences``);
2. ``TRIAGE_LANG``;
3. the locale variables in gettext's order: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

Anything that is not Indonesian (``id``, ``id_ID.UTF-8``, the old code ``in``) is English.
``xx`` is the pseudo-locale the tests use (accented, 40% longer): it is never offered to a
user, but ``TRIAGE_LANG=xx`` works wherever its catalogue was built.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

ENGLISH = "en"
INDONESIAN = "id"
PSEUDO = "xx"
# The languages offered, in the order a picker lists them, each by its own name.
LANGUAGES: dict[str, str] = {ENGLISH: "English", INDONESIAN: "Bahasa Indonesia"}
LANG_ENV = "TRIAGE_LANG"
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current = ENGLISH
_explicit: str | None = None


def normalise(value: str | None) -> str | None:
    """``id_ID.UTF-8``, ``id``, ``in`` -> ``id``; ``en_GB`` -> ``en``; ``C``, empty or None ->
    None (no opinion). LANGUAGE may list several (``id:en``): the first one decides."""
    if not value:
        return None
    first = value.split(":")[0].strip()
    code = first.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    if code in ("", "c", "posix"):
        return None
    if code in (INDONESIAN, "in"):
        return INDONESIAN
    if code == PSEUDO:
        return PSEUDO
    return ENGLISH


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: TRIAGE_LANG, then the locale variables."""
    env = os.environ if environ is None else environ
    for name in (LANG_ENV, *_LOCALE_VARIABLES):
        chosen = normalise(env.get(name))
        if chosen is not None:
            return chosen
    return ENGLISH


def choose(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``explicit`` (a ``--lang`` or the saved preference) when it names a language, else
    the environment's."""
    return normalise(explicit) or from_environment(environ)


def current() -> str:
    """The language this process speaks (set once at start by ``messages.use_language``)."""
    return _current


def _set_current(language: str) -> None:
    global _current
    _current = language


def explicit() -> str | None:
    """The language ``--lang`` named for this process, if any: it wins over the window's
    saved preference."""
    return _explicit


def set_explicit(value: str | None) -> None:
    global _explicit
    _explicit = normalise(value)
