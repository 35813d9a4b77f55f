"""Database passwords in the system keyring, never in settings, logs or messages.

A URL that carries a password is split in two: the URL with its password hidden (what
settings remember and people read: ``redact_url``) and the password, kept in the system
keyring under the service ``triage-desk`` with that hidden URL as the user name. Joining
them again gives the URL to connect with.

Where no keyring backend exists (a server, a bare container: keyring's ``fail`` backend),
nothing is remembered and the caller asks for the password each time;
``keyring_unavailable()`` says why in one line. ``keyring`` is imported on first use: the
command line never pays for it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from triage_app.core.db.messages import redact_url

SERVICE = "triage-desk"
HIDDEN = "***"  # what redact_url puts where a password was
NO_KEYRING = "no system keyring: the password is not remembered"


def _parse(url: str) -> URL | None:
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        return None


def _without_password(u: URL) -> URL:
    return u._replace(password=None)


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL with its password hidden, the password), or (the URL, None) without one.
    The hidden form keeps ``user:***@`` so that a person sees a password belongs there."""
    u = _parse(url)
    if u is None or not u.password or u.password == HIDDEN:
        return redact_url(url), None
    return redact_url(url), str(u.password)


def join_password(url: str, password: str | None) -> str:
    """``url`` with ``password`` in place of a hidden one (or of none). A password typed
    into the URL itself wins; with no password at all, the URL carries none (not ***)."""
    u = _parse(url)
    if u is None:
        return url
    if (u.password and u.password != HIDDEN) or (not u.password and not password):
        return url  # nothing to put in or take out: the text as typed
    if password:
        return u.set(password=password).render_as_string(hide_password=False)
    return _without_password(u).render_as_string(hide_password=False)


def has_hidden_password(url: str) -> bool:
    """A remembered URL whose password was taken out: ``user:***@``."""
    u = _parse(url)
    return u is not None and u.password == HIDDEN


def _keyring() -> Any:
    import keyring

    return keyring


def keyring_unavailable() -> str | None:
    """None when a system keyring can keep passwords; else the one line that says so."""
    try:
        backend = _keyring().get_keyring()
    except Exception:  # a broken keyring configuration is the same as none
        return NO_KEYRING
    # keyring's own judgement: the fail and null backends have no priority.
    return None if getattr(backend, "priority", 0) > 0 else NO_KEYRING


def remember_password(url: str) -> bool:
    """Keep the password of ``url`` (if it has one) in the keyring, under its hidden URL.
    True if it is kept now; False without a password or without a keyring."""
    hidden, password = split_password(url)
    if password is None or keyring_unavailable():
        return False
    try:
        _keyring().set_password(SERVICE, hidden, password)
    except Exception:  # a locked or refusing keyring: not remembered, as with none
        return False
    return True


def recall_password(url: str) -> str | None:
    """The password kept for ``url`` (hidden or not), or None."""
    hidden, _ = split_password(url)
    if keyring_unavailable():
        return None
    try:
        password = _keyring().get_password(SERVICE, hidden)
    except Exception:
        return None
    return None if password is None else str(password)


def forget_password(url: str) -> None:
    """Remove the password kept for ``url``, if any."""
    hidden, _ = split_password(url)
    if keyring_unavailable():
        return
    try:
        _keyring().delete_password(SERVICE, hidden)
    except Exception:  # none was kept: nothing to forget
        return
