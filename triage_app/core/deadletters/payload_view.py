"""How a dead letter's payload is shown and edited by a person.

A JSONL record is edited as its own text. A CSV row is edited as a JSON object of
header -> value (the form ``edit_payload`` stores for CSV rows). The diff compares the
original with the current text in the same form, pretty-printed when both are JSON, so
that a change inside a one-line record shows as the one key it touched.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from dataclasses import dataclass
from typing import Any

import orjson

from triage_app.core.batch import csv_header_names, decode_csv
from triage_app.core.deadletters.queries import payload_text
from triage_app.core.deadletters.transitions import validate_payload
from triage_app.core.errors import TriageError
from triage_app.core.messages import _
from triage_app.core.vocabulary import PayloadKind, edited_kind

_POSITION = re.compile(r"line (\d+) column (\d+)")
# The position as the JSON parser words it, with what leads to it: ": line 2 column 11 (char 20)".
_POSITION_TEXT = re.compile(r":?\s*\(?line \d+ column \d+(?: \(char \d+\))?\)?")
# Diff every line when the texts are this short; otherwise three lines of context.
FULL_DIFF_LINES = 400


@dataclass(frozen=True)
class EditablePayload:
    text: str
    edit_kind: str  # the kind the edited text is tried as: "json", or "json-csv" for CSV rows
    note: str | None = None  # why the text is not exactly the stored row, if it is not


@dataclass(frozen=True)
class DiffLine:
    op: str  # " " same, "-" only in the original, "+" only in the current, "@" a gap
    text: str


def editable_payload(raw: bytes, kind: str, csv_header: str | None) -> EditablePayload:
    """The text a person edits for a stored payload of ``kind``."""
    if kind != PayloadKind.CSV:
        edit_kind = edited_kind(kind)
        try:
            return EditablePayload(raw.decode("utf-8"), edit_kind)
        except UnicodeDecodeError:
            # U+FFFD, not \xNN: an escape typed into JSON text could pass as valid JSON
            # (a backslash before a bad byte would become "\\xNN"). Original shows the bytes.
            text = raw.decode("utf-8", errors="replace")
            note = _(
                "bytes that are not UTF-8 are shown as {replacement} (Original shows them as \\xNN)"
            ).format(replacement="\ufffd")
            return EditablePayload(text, edit_kind, note)
    try:
        names = csv_header_names((csv_header or "").encode("utf-8"))
    except TriageError as exc:
        note = _("cannot use the header: {error}").format(error=exc)
        return EditablePayload(payload_text(raw), PayloadKind.JSON_CSV, note)
    try:
        obj: dict[str, Any] = decode_csv(raw, names)
        split_note: str | None = None
    except (ValueError, UnicodeDecodeError) as exc:
        # Best effort: the fields that are there, by position; the person completes it.
        fields = next(csv.reader(io.StringIO(payload_text(raw), newline="")), [])
        obj = {name: (fields[i] if i < len(fields) else None) for i, name in enumerate(names)}
        for i, extra in enumerate(fields[len(names) :], 1):
            obj[f"_extra_{i}"] = extra
        split_note = _(
            "the row does not split into the header's columns ({error}); check every value"
        ).format(error=exc)
    text = orjson.dumps(obj, option=orjson.OPT_INDENT_2).decode()
    return EditablePayload(text, PayloadKind.JSON_CSV, split_note)


def error_position(message: str) -> tuple[int, int] | None:
    """(line, column), both 1-based, named in a JSON error message, if any."""
    m = _POSITION.search(message)
    return (int(m.group(1)), int(m.group(2))) if m else None


def without_position(message: str) -> str:
    """``message`` without the position the parser wrote into it, for a line that names the
    position once, its own way ("line 2 col 11: not valid JSON: unexpected character")."""
    return _POSITION_TEXT.sub("", message).strip()


def check_edit(text: str, kind: str) -> str | None:
    """None when ``text`` is a valid edit for a payload of ``kind``, else the reason."""
    try:
        validate_payload(text, kind)
    except TriageError as exc:
        return str(exc)
    return None


def reformat(text: str, *, compact: bool = False) -> str:
    """The same JSON indented by two spaces, or on one line; TriageError when invalid."""
    value = validate_payload(text, PayloadKind.JSON)
    if compact:
        return orjson.dumps(value).decode()
    return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()


def payload_diff(original: str, current: str) -> list[DiffLine]:
    """Line diff of two payload texts; empty when they hold the same JSON. When both are
    valid JSON they are compared pretty-printed, otherwise line by line as typed."""
    try:
        a, b = reformat(original).splitlines(), reformat(current).splitlines()
    except TriageError:
        a, b = original.splitlines(), current.splitlines()
    if a == b:
        return []
    context = max(len(a), len(b)) if max(len(a), len(b)) <= FULL_DIFF_LINES else 3
    out: list[DiffLine] = []
    for line in difflib.unified_diff(a, b, n=context, lineterm=""):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            out.append(DiffLine("@", line))
        else:
            out.append(DiffLine(line[:1] or " ", line[1:]))
    return out
