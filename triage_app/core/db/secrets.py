"""Database passwords in the system keyring, never in settings, logs or messages.

A URL that carries a password is split in two: the URL with its passwords hidden (what
settings remember and people read: ``redact_url``) and the passwords, kept in the system
keyring under the service ``triage-desk`` with that hidden URL as the user name. Joining
them again gives the URL to connect with. Every spelling of a password counts: the
userinfo's (``user:***@``), the query's (``?password=***``, libpq's ``sslpassword``), and
a libpq keyword string's, which is read as its URL first (``messages.as_url``). A second
secret of one URL (``sslpassword``) is kept under ``<hidden URL>#sslpassword``.

Where no keyring backend exists (a server, a bare container: keyring's ``fail`` backend),
nothing is remembered and the caller asks for the password each time;
``keyring_unavailable()`` says why in one line. ``keyring`` is imported on first use: the
command line never pays for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from triage_app.core.db.messages import (
    HIDDEN,
    SECRET_KEYS,
    as_url,
    query_secrets,
    redact_url,
    render,
)
from triage_app.core.messages import N_, _

SERVICE = "triage-desk"
NO_KEYRING = N_("no system keyring: the password is not remembered")  # shown as _(NO_KEYRING)


def _parse(url: str) -> URL | None:
    try:
        return make_url(as_url(url))
    except (ArgumentError, ValueError):
        return None


def _query_key(u: URL, name: str) -> str | None:
    """The key of the query as typed (any case) that means ``name``, if any."""
    return next((k for k in u.query if k.lower() == name), None)


def split_secrets(url: str) -> tuple[str, dict[str, str]]:
    """(the URL with its passwords hidden, its secrets by name: ``password``, and
    ``sslpassword``); a secret already hidden (``***``) is not one. The hidden form keeps
    ``user:***@`` or ``password=***`` so that a person sees a password belongs there."""
    u = _parse(url)
    if u is None:
        return redact_url(url), {}
    found = {k.lower(): v for k, v in query_secrets(u).items() if v and v != HIDDEN}
    if u.password and u.password != HIDDEN:
        found["password"] = str(u.password)  # the userinfo's wins, as typed first
    return redact_url(url), found


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL with its passwords hidden, the password), or (the URL, None) without one."""
    hidden, found = split_secrets(url)
    return hidden, found.get("password")


def join_password(url: str, password: str | None, others: Mapping[str, str] | None = None) -> str:
    """``url`` with ``password`` in place of a hidden one (or of none), and each other
    hidden secret (``sslpassword=***``) from ``others`` or, not there, taken out. A password
    typed into the URL itself wins; with no password at all, the URL carries none (not
    ***)."""
    u = _parse(url)
    if u is None:
        return url
    in_query = query_secrets(u)
    for key, value in in_query.items():
        if value != HIDDEN:
            continue
        secret = password if key.lower() == "password" else (others or {}).get(key.lower())
        u = u.update_query_dict({key: secret}) if secret else u.difference_update_query([key])
    if u.password == HIDDEN:
        # set() takes None as "unchanged": _replace is how a password is taken out
        u = u.set(password=password) if password else u._replace(password=None)
    elif password and not u.password and _query_key(u, "password") is None:
        # None anywhere: where libpq reads one for this URL (no user, no userinfo).
        u = u.set(password=password) if u.username else u.update_query_dict({"password": password})
    return render(u)


def has_hidden_password(url: str) -> bool:
    """A remembered URL whose password was taken out: ``user:***@`` or ``password=***``."""
    u = _parse(url)
    return u is not None and (
        u.password == HIDDEN or any(v == HIDDEN for v in query_secrets(u).values())
    )


def _entry(hidden: str, name: str) -> str:
    """The keyring's user name for one secret of a hidden URL."""
    return hidden if name == "password" else f"{hidden}#{name}"


def _keyring() -> Any:
    import keyring

    return keyring


def keyring_unavailable() -> str | None:
    """None when a system keyring can keep passwords; else the one line that says so."""
    try:
        backend = _keyring().get_keyring()
    except Exception:  # a broken keyring configuration is the same as none
        return _(NO_KEYRING)
    # keyring's own judgement: the fail and null backends have no priority.
    return None if getattr(backend, "priority", 0) > 0 else _(NO_KEYRING)


def remember_password(url: str) -> bool:
    """Keep the passwords of ``url`` (if it has any) in the keyring, under its hidden URL.
    True if one is kept now; False without a password or without a keyring."""
    hidden, found = split_secrets(url)
    if not found or keyring_unavailable():
        return False
    try:
        for name, secret in found.items():
            _keyring().set_password(SERVICE, _entry(hidden, name), secret)
    except Exception:  # a locked or refusing keyring: not remembered, as with none
        return False
    return True


def recall_secrets(url: str) -> dict[str, str]:
    """The secrets kept for ``url`` (hidden or not), by name."""
    hidden, _found = split_secrets(url)
    if keyring_unavailable():
        return {}
    found = {}
    for name in SECRET_KEYS:
        try:
            secret = _keyring().get_password(SERVICE, _entry(hidden, name))
        except Exception:
            secret = None
        if secret is not None:
            found[name] = str(secret)
    return found


def recall_password(url: str) -> str | None:
    """The password kept for ``url`` (hidden or not), or None."""
    return recall_secrets(url).get("password")


def complete_url(url: str, password: str | None) -> str:
    """The URL to connect with: ``password`` (the field a person sees) in place of the
    hidden one, and the other hidden secrets (``sslpassword``) from the keyring."""
    others = recall_secrets(url) if has_hidden_password(url) else {}
    others.pop("password", None)
    return join_password(url, password, others)


def forget_password(url: str) -> None:
    """Remove the passwords kept for ``url``, if any."""
    hidden, _found = split_secrets(url)
    if keyring_unavailable():
        return
    for name in SECRET_KEYS:
        try:
            _keyring().delete_password(SERVICE, _entry(hidden, name))
        except Exception:  # none was kept: nothing to forget
            continue
