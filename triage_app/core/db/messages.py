"""What a user reads about a database: URLs with their passwords hidden, and the one line
for a failure they can act on.

A password reaches a connection in three spellings, and each is hidden: in the URL's
userinfo (``user:secret@host``), in its query (``?password=secret``, also libpq's
``sslpassword``, the key's passphrase), and in a libpq keyword string
(``host=db password=secret``), which ``as_url`` turns into a URL so that everything after
it deals with one form."""

from __future__ import annotations

import re

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError, SQLAlchemyError

from triage_app.core.db.lock_waits import is_lock_wait
from triage_app.core.errors import TriageError
from triage_app.core.messages import N_, _

HIDDEN = "***"  # what stands where a password was
# libpq's secrets in a connection string or a URL's query (the key names are lower case
# there; any case is hidden, since a typo's value is still someone's password).
SECRET_KEYS = ("password", "sslpassword")

# user:password@ after a scheme, however many slashes the scheme was typed with.
_CREDENTIALS = re.compile(r"(\w[\w+.-]*:/*)([^:/@\s]+):([^@\s]*)@")
# ?password=... or &sslpassword=... in a URL: the value runs to the next & (or # or space).
_QUERY_SECRET = re.compile(r"([?&](?:ssl)?password=)[^&#\s]*", re.IGNORECASE)
# password=... in a libpq keyword string: a quoted value ('it''s', with \' escapes) or a
# run of non-blanks; "password authentication failed" has no = and is left alone.
_KEYWORD_SECRET = re.compile(
    r"((?:^|(?<=[\s,;(\"]))(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'?|\S+)", re.IGNORECASE
)
# A libpq keyword string: key=value pairs, no scheme.
_KEYWORD_PAIR = re.compile(r"\s*(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|(?:[^\s'\\]|\\.)*)")


def keyword_pairs(text: str) -> dict[str, str] | None:
    """The pairs of a libpq keyword string (``host=db port=5432 password='a b'``), or None
    when ``text`` is not one (a URL, or anything else)."""
    if "://" in text or "=" not in text:
        return None
    pairs: dict[str, str] = {}
    pos = 0
    while pos < len(text.rstrip()):
        m = _KEYWORD_PAIR.match(text, pos)
        if m is None or m.end() == pos:
            return None
        value = m.group(2)
        if value.startswith("'"):
            value = value[1:-1]
        pairs[m.group(1).lower()] = re.sub(r"\\(.)", r"\1", value)
        pos = m.end()
    return pairs or None


def as_url(text: str) -> str:
    """``text`` as a URL: a libpq keyword string becomes the PostgreSQL URL that connects
    the same way (its host, port, user, password and dbname in their places, every other
    key in the query); anything else is returned as it is."""
    pairs = keyword_pairs(text)
    if pairs is None:
        return text
    port = pairs.pop("port", None)
    user = pairs.pop("user", None)
    password = pairs.pop("password", None)
    if port is not None and not re.fullmatch(r"\d+(,\d+)*", port):
        return text  # not a port: refused as a bad URL, its password hidden (redact_text)
    if port is not None and not port.isdigit():  # several hosts' ports: libpq reads them
        pairs["port"] = port
        port = None
    if password is not None and not user:  # no user to carry it: it stays in the query
        pairs["password"] = password
        password = None
    url = URL.create(
        "postgresql+psycopg",
        username=user or None,
        password=password,
        host=pairs.pop("host", None),
        port=int(port) if port else None,
        database=pairs.pop("dbname", None),
        query=pairs,
    )
    return render(url)


def render(url: URL) -> str:
    """The URL as text, everything in it shown (``***`` stays readable in the query)."""
    text = url.render_as_string(hide_password=False)
    return text.replace(":%2A%2A%2A@", f":{HIDDEN}@").replace("=%2A%2A%2A", "=" + HIDDEN)


def query_secrets(url: URL) -> dict[str, str]:
    """The secrets in ``url``'s query, by their key as typed."""
    return {
        k: v if isinstance(v, str) else ",".join(v)
        for k, v in url.query.items()
        if k.lower() in SECRET_KEYS
    }


def hide_secrets(url: URL) -> URL:
    """``url`` with ``***`` where each password was (userinfo and query)."""
    if url.password:
        url = url.set(password=HIDDEN)
    hidden = dict.fromkeys(query_secrets(url), HIDDEN)
    return url.update_query_dict(hidden) if hidden else url


def redact_url(url: str) -> str:
    """A URL fit for logs and settings: every password replaced by ***."""
    try:
        return render(hide_secrets(make_url(as_url(url))))
    except (ArgumentError, ValueError):
        return redact_text(url)


def redact_text(text: str) -> str:
    """Hide every password in any text (error messages quote URLs and connection
    strings): ``user:password@``, ``?password=``, ``password=`` in a keyword string."""
    text = _CREDENTIALS.sub(r"\1\2:***@", text)
    text = _QUERY_SECRET.sub(r"\1***", text)
    return _KEYWORD_SECRET.sub(r"\1***", text)


def refusal_message(exc: BaseException) -> str | None:
    """The one line a user sees for a failure they can act on (bad input, a database that
    is unreachable or refuses), with any password hidden; None for anything else, a bug."""
    if isinstance(exc, TriageError | ReadOnlyWorkspace):
        return redact_text(str(exc))
    if isinstance(exc, SQLAlchemyError) and is_lock_wait(exc):
        return _(
            "another transaction holds a lock this needs, and the wait for it ran out: "
            "try again when it ends"
        )
    if isinstance(exc, SQLAlchemyError) and _sqlstate(exc) == ROLES_SAID:
        # The roles' functions saying what is wrong with what was asked (no such login):
        # their sentence, as they wrote it.
        reason = getattr(exc, "orig", None) or exc
        return redact_text(str(reason).strip().split("\n")[0][:300])
    if isinstance(exc, SQLAlchemyError) and is_refused(exc):
        # Refused by the grants, or by a role's trigger (core/db/role_setup.py): what the
        # server said, its first line (a trigger's sentence, or "permission denied for
        # table dead_letters").
        reason = getattr(exc, "orig", None) or exc
        first = str(reason).strip().split("\n")[0]
        said = redact_text(" ".join(first.split())[:300])
        return _("the database refused: {reason}").format(reason=said)
    if isinstance(exc, SQLAlchemyError):
        reason = getattr(exc, "orig", None) or exc
        said = redact_text(" ".join(str(reason).split())[:300])
        return _("database error: {reason}").format(reason=said)
    if isinstance(exc, OSError):
        return redact_text(str(exc.strerror or exc))
    return None


# SQLSTATE 42501: a privilege the login lacks, or a role's trigger refusing (they raise it).
INSUFFICIENT_PRIVILEGE = "42501"


# SQLSTATE of the roles' functions' own refusals of what was asked (core/db/role_setup.py).
ROLES_SAID = "TDR01"


def _sqlstate(exc: BaseException) -> str | None:
    orig = getattr(exc, "orig", None)
    state = getattr(orig if orig is not None else exc, "sqlstate", None)
    return None if state is None else str(state)


def is_refused(exc: BaseException) -> bool:
    """The database refused this login what it tried (no grant, or a role's check)."""
    return _sqlstate(exc) == INSUFFICIENT_PRIVILEGE


def user_message(exc: BaseException) -> str:
    """One line for a dialog or the status bar, whatever ``exc`` is: never a traceback,
    never a password."""
    return refusal_message(exc) or _("unexpected error ({kind}): {message}").format(
        kind=type(exc).__name__, message=redact_text(str(exc))[:300]
    )


# What SQLite says when a write meets a file, or a folder, this user may only read.
READ_ONLY_ERROR = "readonly database"


# The places a write may be refused in, for ``read_only_message``: the workspace's folder,
# or one of its two databases (``make_engine``'s roles).
FOLDER = "folder"
WAREHOUSE = "warehouse"
STORE = "dead-letter store"

# A database's name in a sentence, by its role: the warehouse, the dead-letter store.
_DATABASES = {WAREHOUSE: N_("warehouse"), STORE: N_("dead-letter store")}


def database_name(role: str) -> str:
    """The database ``role`` names (``warehouse``, ``dead-letter store``), as the user's
    language calls it; any other role as it is (it names itself)."""
    label = _DATABASES.get(role)
    return _(label) if label is not None else role


def read_only_message(place: str, where: str) -> str:
    """The one line for a command that would write where this user may only read (issue
    21: it said "cannot reach the warehouse"). ``place``: ``FOLDER`` (the workspace's
    folder), or the role of a database (``WAREHOUSE``, ``STORE``); ``where`` the place
    itself."""
    if place == FOLDER:
        text = _(
            "the workspace folder {where} is read-only for this user, and this command writes "
            "there: ask for write access, or use a command that only reads (list, show, stats, "
            "report, audit)"
        )
        return text.format(where=where)
    text = _(
        "the {database} {where} is read-only for this user, and this command writes there: "
        "ask for write access, or use a command that only reads (list, show, stats, report, "
        "audit)"
    )
    return text.format(database=database_name(place), where=where)


class ReadOnlyWorkspace(OperationalError):
    """A write refused because this user may only read the file or its folder. Still a
    database error, so that code which carries on without a write (the stats cache) still
    catches it; its text is the one line for the user (``read_only_message``)."""

    def __init__(self, message: str, failed: DBAPIError) -> None:
        super().__init__(failed.statement, failed.params, failed.orig or failed)
        self.message = message

    def __str__(self) -> str:
        return self.message
