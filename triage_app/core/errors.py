"""Failures: which class an error falls in, how it is stored, how it is grouped.

The stored message is always one line, ``Type: message``; the signature masks the values
in it so that many dead letters with one cause fall into one group.
"""

from __future__ import annotations

import functools
import json
import re
import traceback
from types import TracebackType

from triage_app.core.vocabulary import ErrorClass


class TriageError(Exception):
    """A failure the user can act on: bad usage, unreadable input, unreachable database.

    The CLI prints its message as one line and exits 2; the GUI shows it in a dialog.
    """


class DataError(ValueError):
    """Raised by a transform to reject a record whose data is wrong."""


class TransientError(Exception):
    """Raised when infrastructure failed in a way that retrying may fix."""


# Exception types that say "the payload is wrong". ValueError and KeyError follow the
# seed's heuristic: parse, validation and missing-column errors are the data's fault.
_DATA_TYPES: tuple[type[BaseException], ...] = (
    DataError,
    json.JSONDecodeError,
    UnicodeError,
    ValueError,
    KeyError,
)
_TRANSIENT_TYPES: tuple[type[BaseException], ...] = (
    TransientError,
    TimeoutError,
    ConnectionError,
)


# The class of each exception type met so far: it depends on the type alone, and a bad
# day asks it once per record.
_CLASS_OF_TYPE: dict[type[BaseException], ErrorClass] = {}


def classify(exc: BaseException) -> ErrorClass:
    """Decide who must act on ``exc``: a heuristic that users can override by reclassifying."""
    kind = type(exc)
    found = _CLASS_OF_TYPE.get(kind)
    if found is None:
        if issubclass(kind, _TRANSIENT_TYPES):
            found = ErrorClass.TRANSIENT
        elif issubclass(kind, _DATA_TYPES):
            found = ErrorClass.DATA
        else:
            found = ErrorClass.CODE
        if len(_CLASS_OF_TYPE) < 1024:  # a plugin making types on the fly stays bounded
            _CLASS_OF_TYPE[kind] = found
    return found


def error_message(exc: BaseException, limit: int = 500) -> str:
    """``Type: message`` on one line, bounded in length (a 20 MB line must not echo back)."""
    text = str(exc)
    if isinstance(exc, KeyError) and exc.args:
        text = repr(exc.args[0])
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[:limit] + "…"
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
# Long hex ids (with a letter in them: a run of digits alone is a number, masked as <n>).
_HEX = re.compile(r"\b(?=[0-9]*[a-fA-F])[0-9a-fA-F]{8,}\b")
_NUMBER = re.compile(r"(?<![\w<])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
# Quoted names that say what went wrong rather than which value: Python's type names.
_TYPE_NAMES = frozenset(
    {
        "int",
        "str",
        "float",
        "bool",
        "bytes",
        "dict",
        "list",
        "tuple",
        "set",
        "NoneType",
        "object",
        "Decimal",
        "datetime",
        "date",
    }
)


@functools.lru_cache(maxsize=4096)
def signature(message: str) -> str:
    """The message with its values masked: ``qty tidak valid: -1`` -> ``qty tidak valid: <n>``.

    Type names (``'int' and 'NoneType'``) and a KeyError's key name the cause and are kept;
    other quoted text, long hex ids and numbers are values and are masked.
    """
    if message.startswith("KeyError: "):
        return message[:300]

    def _mask_quoted(m: re.Match[str]) -> str:
        return m.group(0) if m.group(0)[1:-1] in _TYPE_NAMES else "<s>"

    masked = _QUOTED.sub(_mask_quoted, message)
    masked = _HEX.sub("<hex>", masked)
    masked = _NUMBER.sub("<n>", masked)
    return masked[:300]


# Redacted tracebacks by the frames they name: a release with a bug fails every row at the
# same lines, and formatting one (reading source lines, stat-ing files) cost 35 us a row.
_TRACEBACKS: dict[tuple[tuple[object, int], ...], str] = {}
_TRACEBACKS_KEPT = 1024


def redacted_traceback(tb: TracebackType | None, limit: int = 20) -> str:
    """A traceback of file names, line numbers and code only: no absolute paths, no locals."""
    frames: list[tuple[object, int]] = []
    walk = tb
    while walk is not None and len(frames) < limit:
        frames.append((walk.tb_frame.f_code, walk.tb_lineno))
        walk = walk.tb_next
    key = tuple(frames)
    text = _TRACEBACKS.get(key)
    if text is None:
        text = _format_traceback(tb, limit)
        if len(_TRACEBACKS) >= _TRACEBACKS_KEPT:
            _TRACEBACKS.clear()
        _TRACEBACKS[key] = text
    return text


def _format_traceback(tb: TracebackType | None, limit: int) -> str:
    frames = traceback.extract_tb(tb, limit=limit)
    out = []
    for frame in frames:
        name = frame.filename.replace("\\", "/").rsplit("/", 1)[-1]
        out.append(f"{name}:{frame.lineno} in {frame.name}: {(frame.line or '').strip()}")
    return "\n".join(out)


# Another pipeline's exception, known by its type's name only (a broker's
# x-exception-message or x-exception-fqcn header, a dead-letter table's error column): the
# same three classes by the words such types are named with, in Python and the JVM alike.
_TRANSIENT_NAME = re.compile(
    r"timeout|timedout|connect|unavailable|transient|throttl|toomanyrequests|retryable|"
    r"deadlock|lockwait|brokenpipe|socket|interrupted|temporar|overload",
    re.IGNORECASE,
)
_DATA_NAME = re.compile(
    r"decode|pars|valid|invalid|illegalargument|numberformat|format|schema|mismatch|"
    r"unicode|valueerror|keyerror|dataerror|serializ|conversion|constraint|missing",
    re.IGNORECASE,
)
# A class a source states outright (the seed's kelas column, an x-error-class header).
_STATED_CLASS = {
    "data": ErrorClass.DATA,
    "code": ErrorClass.CODE,
    "kode": ErrorClass.CODE,
    "transient": ErrorClass.TRANSIENT,
    "transien": ErrorClass.TRANSIENT,
    "sementara": ErrorClass.TRANSIENT,
}


def classify_named(type_name: str, stated: str | None = None) -> ErrorClass:
    """The class of an exception known only by its type's name (``NumberFormatException``,
    ``java.net.SocketTimeoutException``, ``JSONDecodeError``); ``stated``, a class the
    source wrote beside it (``data``, ``kode``), wins when it is one."""
    if stated is not None:
        found = _STATED_CLASS.get(stated.strip().lower())
        if found is not None:
            return found
    name = type_name.rsplit(".", 1)[-1].rsplit("$", 1)[-1]
    if _TRANSIENT_NAME.search(name):
        return ErrorClass.TRANSIENT
    if _DATA_NAME.search(name):
        return ErrorClass.DATA
    return ErrorClass.CODE


_TYPE_FIRST = re.compile(
    r"^\s*([A-Za-z_$][\w.$]*(?:Error|Exception|Fault|Timeout|Failure))\b[:\s]*"
)


def outside_error(message: str | None, type_name: str | None = None) -> tuple[str, str]:
    """(the stored one-line ``Type: message``, the type's name) of an error another
    pipeline reported as text: the type is ``type_name`` when given (a Java FQCN keeps its
    simple name), else the one the message starts with (``ValueError: qty ...``,
    ``java.lang.NullPointerException``), else none. Bounded like ``error_message``."""
    text = " ".join((message or "").split())
    name = (type_name or "").strip()
    if not name:
        m = _TYPE_FIRST.match(text)
        if m:
            name, text = m.group(1), text[m.end() :]
    elif text.startswith(name):
        text = text[len(name) :].lstrip(": ")
    short = name.rsplit(".", 1)[-1].rsplit("$", 1)[-1] if name else ""
    if len(text) > 500:
        text = text[:500] + "…"
    if short and text:
        return f"{short}: {text}", name
    return (short or text or "no error given"), name
