"""What a user reads about a database: URLs with their password hidden, and the one line
for a failure they can act on."""

from __future__ import annotations

import re

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from triage_app.core.db.lock_waits import is_lock_wait
from triage_app.core.errors import TriageError

# user:password@ after a scheme, however many slashes the scheme was typed with.
_CREDENTIALS = re.compile(r"(\w[\w+.-]*:/*)([^:/@\s]+):([^@\s]*)@")


def redact_url(url: str) -> str:
    """A URL fit for logs and settings: the password replaced by ***."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return redact_text(url)


def redact_text(text: str) -> str:
    """Hide ``user:password@`` in any text (error messages quote URLs)."""
    return _CREDENTIALS.sub(r"\1\2:***@", text)


def refusal_message(exc: BaseException) -> str | None:
    """The one line a user sees for a failure they can act on (bad input, a database that
    is unreachable or refuses), with any password hidden; None for anything else, a bug."""
    if isinstance(exc, TriageError):
        return redact_text(str(exc))
    if isinstance(exc, SQLAlchemyError) and is_lock_wait(exc):
        return (
            "another transaction holds a lock this needs, and the wait for it ran out: "
            "try again when it ends"
        )
    if isinstance(exc, SQLAlchemyError):
        reason = getattr(exc, "orig", None) or exc
        return "database error: " + redact_text(" ".join(str(reason).split())[:300])
    if isinstance(exc, OSError):
        return redact_text(str(exc.strerror or exc))
    return None


def user_message(exc: BaseException) -> str:
    """One line for a dialog or the status bar, whatever ``exc`` is: never a traceback,
    never a password."""
    return refusal_message(exc) or (
        f"unexpected error ({type(exc).__name__}): {redact_text(str(exc))[:300]}"
    )
