"""What a fixed version makes of a row a suspect version wrote: the same row, another row
(and which columns differ), or a failure."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from triage_app.core.batch import Failure, decode_payload, failure_from, failure_from_message
from triage_app.core.errors import TriageError
from triage_app.core.reprocess.suspects import Suspect
from triage_app.core.transforms import Transform
from triage_app.core.vocabulary import ErrorClass, PayloadKind


class VerdictKind(enum.StrEnum):
    UNCHANGED = "unchanged"
    CHANGED = "changed"
    FAILING = "failing"  # the fixed version refuses the record: a would-be dead letter
    NO_INPUT = "no input"  # the record cannot be read (its batch's source is gone)


@dataclass(frozen=True)
class Verdict:
    kind: VerdictKind
    suspect: Suspect
    row: tuple[Any, ...] | None = None  # what the fixed version writes (changed)
    diff: tuple[tuple[str, Any, Any], ...] = ()  # (column, was, becomes)
    failure: Failure | None = None

    @property
    def error(self) -> str | None:
        if self.failure is not None:
            return self.failure.error
        return self.suspect.missing

    def diff_said(self) -> str:
        """``total: 255000 -> 245000; harga: 1 -> 2``"""
        return "; ".join(f"{c}: {_said(a)} -> {_said(b)}" for c, a, b in self.diff)

    def to_json(self) -> dict[str, Any]:
        s = self.suspect
        out: dict[str, Any] = {
            "key": s.key,
            "batch_id": s.batch_id,
            "line": s.line,
            "verdict": self.kind.value,
        }
        if self.kind is VerdictKind.CHANGED:
            out["diff"] = [{"column": c, "was": a, "becomes": b} for c, a, b in self.diff]
        if self.failure is not None:
            out["error"] = self.failure.error
            out["error_class"] = self.failure.error_class.value
        if self.kind is VerdictKind.NO_INPUT:  # why, in English: --json is locale-free
            out["error"] = None if s.why_missing is None else s.why_missing.english
        return out


def _said(v: Any) -> str:
    return "null" if v is None else repr(v) if isinstance(v, str) else str(v)


def transformed(fixer: Transform, raw: bytes, kind: str) -> tuple[Any, ...]:
    """The row ``fixer`` makes of a record: a JSONL record as read goes its fast way first,
    as in a batch; whatever that declines goes through ``fn``, which decides failures."""
    if fixer.fast is not None and kind == PayloadKind.JSONL:
        try:
            return fixer.fast(raw)
        except Exception:  # declined: the reference path decides
            pass
    return fixer.fn(decode_payload(raw, kind, None))


class Judge:
    """``fixer``'s verdicts, its columns and key looked up once for every row."""

    def __init__(self, fixer: Transform) -> None:
        self.fixer = fixer
        self.names = fixer.column_names
        self.key_at = self.names.index(fixer.key)

    def outcome(self, s: Suspect) -> tuple[tuple[Any, ...] | None, Failure | None]:
        """The row ``fixer`` makes of the suspect's record, or why it fails. A row under
        another key fails: moving a row between keys would leave or replace a row no batch
        named."""
        fixer, raw = self.fixer, s.raw
        assert raw is not None
        try:
            row = transformed(fixer, raw, s.kind)
        except TriageError as exc:
            return None, failure_from(s.line, raw, exc, ErrorClass.DATA)
        except Exception as exc:
            return None, failure_from(s.line, raw, exc)
        if len(row) != len(self.names):
            message = f"{fixer.ref} returned {len(row)} values for {len(self.names)} columns"
            return None, failure_from_message(s.line, raw, message, ErrorClass.CODE)
        key = row[self.key_at]
        if key != s.key:
            message = (
                f"{fixer.ref} gives {fixer.key} {key!r} for the row written as {s.key!r}; "
                "a reprocess does not move rows between keys"
            )
            return None, failure_from_message(s.line, raw, message, ErrorClass.CODE)
        return tuple(row), None

    def verdict(self, s: Suspect) -> Verdict:
        """Compared column by column with what is stored."""
        if s.raw is None:
            return Verdict(VerdictKind.NO_INPUT, s)
        row, failure = self.outcome(s)
        if row is None:
            return Verdict(VerdictKind.FAILING, s, failure=failure)
        if row == s.values:  # the common case, at the cost of one comparison
            return Verdict(VerdictKind.UNCHANGED, s)
        diff = tuple(
            (n, was, new)
            for n, was, new in zip(self.names, s.values, row, strict=True)
            if not _same(was, new)
        )
        if not diff:
            return Verdict(VerdictKind.UNCHANGED, s)
        return Verdict(VerdictKind.CHANGED, s, row=row, diff=diff)


def _same(stored: Any, new: Any) -> bool:
    """Whether the warehouse holds ``new`` already: a bool is stored as an integer, an
    integer in a real column comes back a float, a number in a text column comes back
    its text (SQLite's affinity)."""
    if stored is None or new is None:
        return stored is new
    if isinstance(stored, str) != isinstance(new, str):
        return str(stored) == str(new)
    return bool(stored == new)
