"""Personal data masked (issue 27, UU PDP): pure functions, no database.

A transform names its personal fields (``Transform.personal_fields``; ``pesanan`` and
``orders``: ``pelanggan``). Wherever a payload or an error leaves the store for a person,
the value of such a field is shown as its first character and three bullets (``S•••``);
a value that is not a string as ``•••``; an empty string stays empty, and null stays null.

- ``mask_payload``: a payload's bytes with those fields masked. Valid JSON is parsed and
  the fields are masked at any depth; broken JSON (dead letters often are) is masked by a
  pattern on ``"field": value`` (a string cut off at the end of the line too), so a broken
  row never shows the name either; a raw CSV row by its header's column. Where it can, the
  masked text keeps the payload's own layout (only the values change), so what a steward
  reads is the row as it came. None when nothing was masked.
- ``personal_values`` and ``mask_text``: the personal values a payload holds, masked
  wherever they appear inside a text (an error message that quotes the name).
- ``restore_masked``: the inverse for saving an edit. A personal field that still holds
  its mask gets the working payload's real value back, so an edit never saves the mask as
  data; a value typed with ``•••`` in it is refused in one line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import orjson

from triage_app.core.errors import TriageError
from triage_app.core.messages import _

BULLETS = "•••"
_MISSING = object()
_CSV = "csv"

# A JSON value as a pattern finds it in text that may be broken: a string (also one cut
# off before its closing quote), a number, true or false. null is not personal.
_JSON_VALUE = r'"(?:[^"\\\n]|\\.)*(?:"|$)|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false'


def mask_value(value: Any) -> Any:
    """``Siti Aminah`` -> ``S•••``; a value that is not a string -> ``•••``; ``""`` and
    None stay as they are (there is nothing in them to hide)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value[:1] + BULLETS if value else value
    return BULLETS


def is_masked(value: Any) -> bool:
    return isinstance(value, str) and value.endswith(BULLETS) and len(value) <= 1 + len(BULLETS)


def _field_pattern(fields: Sequence[str]) -> re.Pattern[str]:
    names = "|".join(re.escape(f) for f in sorted(set(fields), key=len, reverse=True))
    return re.compile(r'("(?:' + names + r')"\s*:\s*)(' + _JSON_VALUE + ")", re.MULTILINE)


_patterns: dict[tuple[str, ...], re.Pattern[str]] = {}
_QUOTED: dict[tuple[str, ...], tuple[bytes, ...]] = {}
_BULLETS_UTF8 = BULLETS.encode()
_BLANK = (b" ", b"\t", b"\r")


def _mask_simple(data: bytes, fields: Sequence[str]) -> tuple[bytes, list[str]] | None:
    """The common case, found with ``bytes.find`` rather than a pattern (a batch where
    every row fails calls this per row): every occurrence of a field is ``"field": "text"``,
    the text plain and not empty. The masked bytes and the values, else None, and the
    general way decides (escapes, numbers, lists, empty strings, a field's name elsewhere,
    a key spelt with ``\\u``)."""
    if b"\\" in data:
        return None
    quoted = _QUOTED.get(tuple(fields))
    if quoted is None:
        quoted = _QUOTED[tuple(fields)] = tuple(f'"{f}"'.encode() for f in dict.fromkeys(fields))
    spans: list[tuple[int, int]] = []
    for q in quoted:
        at = data.find(q)
        while at >= 0:
            k = at + len(q)
            while data[k : k + 1] in _BLANK:
                k += 1
            if data[k : k + 1] != b":":
                return None
            k += 1
            while data[k : k + 1] in _BLANK:
                k += 1
            if data[k : k + 1] != b'"':
                return None
            end = data.find(b'"', k + 1)
            if end <= k + 1 or b"\n" in data[k + 1 : end]:
                return None
            spans.append((k + 1, end))
            at = data.find(q, end)
    if not spans:
        return None
    spans.sort()
    parts: list[bytes] = []
    values: list[str] = []
    last = 0
    for start, end in spans:
        lead = data[start]
        # The first character whole: one to four bytes of UTF-8 (a stray byte alone).
        first = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        first = min(first, end - start)
        values.append(data[start:end].decode("utf-8", "surrogateescape"))
        parts.append(data[last : start + first])
        parts.append(_BULLETS_UTF8)
        last = end
    parts.append(data[last:])
    return b"".join(parts), values


def _pattern(fields: Sequence[str]) -> re.Pattern[str]:
    key = tuple(fields)
    p = _patterns.get(key)
    if p is None:
        p = _patterns[key] = _field_pattern(fields)
    return p


def _token_value(token: str) -> Any:
    """The value a JSON token found by the pattern stands for (a cut-off string too)."""
    if token.startswith('"') and (len(token) == 1 or not token.endswith('"')):
        token += '"'
    try:
        return orjson.loads(token)
    except orjson.JSONDecodeError:
        return token.strip('"')


def _dumps(value: Any) -> str:
    """``value`` as JSON text; a lone surrogate (a byte that was not UTF-8, decoded with
    surrogateescape) kept as it is, so that it encodes back to its byte."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False)


def _masked_token(token: str) -> str:
    value = mask_value(_token_value(token))
    text = _dumps(value)
    if token.startswith('"') and not (len(token) > 1 and token.endswith('"')):
        text = text[:-1]  # cut off as the original was: the row stays as broken as it came
    return text


def _csv_names(csv_header: bytes | str | None) -> list[str]:
    if not csv_header:
        return []
    text = csv_header.decode("utf-8", "replace") if isinstance(csv_header, bytes) else csv_header
    return next(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")), [])


def _csv_fields(data: bytes) -> list[str]:
    text = data.decode("utf-8", "surrogateescape")
    return next(csv.reader(io.StringIO(text, newline="")), [])


def _csv_line(fields: Sequence[str]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(fields)
    return out.getvalue().encode("utf-8", "surrogateescape")


def _walk(value: Any, fields: frozenset[str], found: list[tuple[str, Any]]) -> Any:
    """``value`` with ``fields`` masked at any depth; each real value found appended, in
    the document's order. A loop, not a recursion: a payload may nest arrays a thousand
    deep (JSONTestSuite's), past Python's recursion limit."""
    if not isinstance(value, dict | list):
        return value
    root: Any = {} if isinstance(value, dict) else []
    # Each open container: what is left of its items, and its masked copy being filled.
    stack: list[tuple[Iterator[Any], Any]] = [(_items(value), root)]
    while stack:
        items, out = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            continue
        key, v = item
        if key is not None and key in fields and v is not None and v != "":
            found.append((key, v))
            v = mask_value(v)
        elif isinstance(v, dict | list):
            child: Any = {} if isinstance(v, dict) else []
            stack.append((_items(v), child))
            v = child
        if isinstance(out, dict):
            out[key] = v
        else:
            out.append(v)
    return root


def _items(value: dict[str, Any] | list[Any]) -> Iterator[tuple[str | None, Any]]:
    """An object's (key, value) pairs, or a list's values each with no key."""
    if isinstance(value, dict):
        return iter(value.items())
    return ((None, v) for v in value)


def _mask_json_text(text: str, fields: Sequence[str]) -> tuple[str, int]:
    def sub(m: re.Match[str]) -> str:
        token = m.group(2)
        value = _token_value(token)
        if value is None or value == "":
            return m.group(0)
        return m.group(1) + _masked_token(token)

    return _pattern(fields).subn(sub, text)


def mask_payload(
    data: bytes | None,
    kind: str,
    fields: Sequence[str],
    csv_header: bytes | str | None = None,
) -> bytes | None:
    """``data`` (a payload of ``kind``: jsonl, json, json-csv or a raw csv row) with
    ``fields`` masked; None when there was nothing to mask."""
    if not fields or not data:
        return None
    if kind == _CSV:
        names = _csv_names(csv_header)
        cols = [i for i, n in enumerate(names) if n in fields]
        if not cols:
            return None
        values = _csv_fields(data)
        changed = False
        for i in cols:
            if i < len(values) and values[i] != "":
                values[i] = mask_value(values[i])
                changed = True
        return _csv_line(values) if changed else None
    return _mask_json(data, fields)[0]


def mask_with_values(
    data: bytes | None, kind: str, fields: Sequence[str], csv_header: bytes | str | None = None
) -> tuple[bytes | None, Sequence[Any]]:
    """``mask_payload`` and ``personal_values`` in one pass: what a batch's quarantine
    calls for every failing row of a transform with personal fields."""
    if not fields or not data:
        return None, []
    if kind == _CSV:
        return (
            mask_payload(data, kind, fields, csv_header),
            personal_values(data, kind, fields, csv_header),
        )
    simple = _mask_simple(data, fields)
    if simple is not None:
        return simple
    return _mask_json(data, fields)


def _absent(data: bytes, fields: Sequence[str]) -> bool:
    """No field can be in ``data``: none appears quoted, and no escape could spell one."""
    if b"\\u" in data:
        return False
    quoted = _QUOTED.get(tuple(fields))
    if quoted is None:
        quoted = _QUOTED[tuple(fields)] = tuple(f'"{f}"'.encode() for f in dict.fromkeys(fields))
    return not any(q in data for q in quoted)


def _mask_json(data: bytes, fields: Sequence[str]) -> tuple[bytes | None, Sequence[Any]]:
    simple = _mask_simple(data, fields)
    if simple is not None:
        return simple
    if _absent(data, fields):  # a payload without the field: no pattern, no parse
        return None, ()
    text = data.decode("utf-8", "surrogateescape")
    values = [v for _f, v in _occurrences(data, "jsonl", fields, None)]
    return _mask_json_general(data, text, fields), values


def _mask_json_general(data: bytes, text: str, fields: Sequence[str]) -> bytes | None:
    masked, n = _mask_json_text(text, fields)
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError:
        return masked.encode("utf-8", "surrogateescape") if n else None
    found: list[tuple[str, Any]] = []
    walked = _walk(parsed, frozenset(fields), found)
    if not found:
        return None
    # The text keeps the payload's layout when the pattern masked every value the parse
    # found (a key written with escapes, say, it would miss): otherwise the parsed value.
    try:
        again = orjson.loads(masked.encode("utf-8", "surrogateescape"))
    except orjson.JSONDecodeError:
        again = None
    if n and again == walked:
        return masked.encode("utf-8", "surrogateescape")
    return orjson.dumps(walked)


def personal_values(
    data: bytes | None, kind: str, fields: Sequence[str], csv_header: bytes | str | None = None
) -> list[Any]:
    """The values of ``fields`` in ``data`` (each occurrence, in order; broken JSON by the
    pattern, a raw CSV row by its header)."""
    return [v for _f, v in _occurrences(data, kind, fields, csv_header)]


def _occurrences(
    data: bytes | None, kind: str, fields: Sequence[str], csv_header: bytes | str | None
) -> Iterator[tuple[str, Any]]:
    if not fields or not data:
        return
    if kind == _CSV:
        names = _csv_names(csv_header)
        values = _csv_fields(data)
        for i, name in enumerate(names):
            if name in fields and i < len(values) and values[i] != "":
                yield name, values[i]
        return
    text = data.decode("utf-8", "surrogateescape")
    found = [(m.group(1), m.group(2)) for m in _pattern(fields).finditer(text)]
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError:
        for prefix, token in found:
            value = _token_value(token)
            if value is not None and value != "":
                yield prefix.split('"')[1], value
        return
    walked: list[tuple[str, Any]] = []
    _walk(parsed, frozenset(fields), walked)
    yield from walked


def mask_text(text: str, values: Iterable[Any]) -> str:
    """``text`` with every personal value in it masked (an error message that quotes a
    name). Values of one character are left alone: masking them would mask half the text."""
    words: set[str] = set()
    for v in values:
        words.update(_leaves(v))
    out = text
    for w in sorted(words, key=len, reverse=True):
        if len(w) >= 2 and w in out:
            out = out.replace(w, mask_value(w) if not w.lstrip("-").isdigit() else BULLETS)
    return out


def _leaves(value: Any) -> Iterator[str]:
    """A value's text as a message may quote it: the value itself, and inside a list or an
    object each string and number in it. A loop, not a recursion (a value may nest deep);
    a container too deep for ``str`` is not quoted whole by any message either."""
    stack = [value]
    while stack:
        v = stack.pop()
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, dict | list):
            try:
                whole: str | None = str(v)
            except RecursionError:
                whole = None
            if whole is not None:
                yield whole
            stack.extend(v.values() if isinstance(v, dict) else v)
            continue
        yield str(v)


def restore_masked(
    edited: str,
    working: bytes,
    fields: Sequence[str],
    kind: str,
    csv_header: bytes | str | None = None,
    original: tuple[bytes, str] | None = None,
) -> str:
    """The edited text with each personal field that still holds its mask given back the
    working payload's real value (the n-th occurrence of a field from the n-th), so that an
    edit never stores ``S•••`` as data. ``original`` (its bytes and kind): where a value is
    looked for next, for a steward who copied the Original tab (shown masked) back. A
    personal value that still holds ``•••`` otherwise (typed, or its real value gone, or two
    real values with that mask) is refused in one line."""
    if not fields or BULLETS not in edited:
        return edited
    real: dict[str, list[Any]] = {}
    for name, value in _occurrences(working, kind, fields, csv_header):
        real.setdefault(name, []).append(value)
    before: dict[str, list[Any]] = {}
    if original is not None:
        for name, value in _occurrences(original[0], original[1], fields, csv_header):
            before.setdefault(name, []).append(value)
    seen: dict[str, int] = {}

    def found(name: str, n: int, mask: str) -> Any:
        for values in (real.get(name, []), before.get(name, [])):
            if n < len(values) and mask_value(values[n]) == mask:
                return values[n]
        fits = {
            _dumps(v): v
            for v in (*real.get(name, []), *before.get(name, []))
            if mask_value(v) == mask
        }
        if len(fits) == 1:
            return next(iter(fits.values()))
        return _MISSING

    def sub(m: re.Match[str]) -> str:
        name = m.group(1).split('"')[1]
        n = seen.get(name, 0)
        seen[name] = n + 1
        value = _token_value(m.group(2))
        if not (isinstance(value, str) and BULLETS in value):
            return m.group(0)
        old = found(name, n, value)
        if old is not _MISSING:
            return m.group(1) + _dumps(old)
        raise TriageError(
            _(
                "the personal field {field} holds the mask {mask}, not a value: type the "
                "real value (Reveal shows it) or leave the mask as it was shown"
            ).format(field=repr(name), mask=repr(value))
        )

    return _pattern(fields).sub(sub, edited)
