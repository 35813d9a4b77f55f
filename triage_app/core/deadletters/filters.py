"""Which dead letters: the filter every view shares (the table, Trends, export, re-drive, the
CLI's ``list``), turned into SQL on indexed columns, and the orders a view may sort by."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import orjson
from sqlalchemy import Column, Select, and_, bindparam, or_, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import ColumnElement, FunctionElement
from sqlalchemy.sql.visitors import replacement_traverse
from sqlalchemy.types import Boolean

from triage_app.core.db import (
    Batch,
    Connector,
    DeadLetter,
    DeadLetterCount,
    ErrorGroupNotes,
    shown_error,
    shown_payload,
    signature_id_of,
    working_payload,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_date, format_int
from triage_app.core.messages import _
from triage_app.core.vocabulary import ALL, CLASSES, NOBODY, STATUS_FILTERS, Status

FILES = "files"  # the source filter's word for the desk's own batches (no connector)

SORTABLE = (
    "id",
    "batch_id",
    "line",
    "error_class",
    "signature",
    "attempts",
    "status",
    "last_failed_at",
    "first_failed_at",
    "transform",
)

# A view's column -> the table's column its order runs on. Rows of one signature sort
# together, in the order their signatures were first seen: the index holds the id.
SORTED_BY = {"signature": "signature_id"}


@dataclass(frozen=True)
class DeadLetterFilter:
    """Which dead letters: every field narrows; None means any."""

    error_class: str | None = None
    status: str = Status.OPEN  # or ALL
    batch_id: str | None = None
    transform: str | None = None
    min_attempts: int | None = None
    search: str | None = None  # literal text in the payload or the error
    signature: str | None = None
    ids: tuple[int, ...] | None = None
    attempts: int | None = None  # exactly this many (a bar of the attempts histogram)
    # First failed on these UTC days, both included (a day or a span of a Trends chart).
    failed_from: dt.date | None = None
    failed_to: dt.date | None = None
    owner: str | None = None  # the rows of the error groups this steward owns (NOBODY: none)
    tag: str | None = None  # the rows of the error groups tagged so
    # Where the rows came from: a connector's name (a dead-letter queue or table imported
    # from), or FILES: the desk's own batches.
    source: str | None = None

    def with_(self, **changes: Any) -> DeadLetterFilter:
        return replace(self, **changes)

    def describe(self) -> str:
        """The filter in words, as a steward set it: ``status open · class data · search
        "qty"`` (what a dialog names as its scope). Values are quoted as typed. A ``Said``:
        a re-drive's record keeps it, in English."""
        # Here, not at the top: a batch's stats-cache warming loads the filters alone.
        from triage_app.core.deadletters.said import said

        return said(self._words)

    def _words(self, _: Any, ngettext: Any, lang: str | None) -> str:
        from triage_app.core.deadletters.said import class_word, status_word

        if self.status == ALL:
            parts = [_("any status")]
        else:
            parts = [_("status {status}").format(status=status_word(self.status, lang))]
        if self.error_class:
            parts.append(
                _("class {error_class}").format(error_class=class_word(self.error_class, lang))
            )
        if self.batch_id:
            parts.append(_("batch {batch}").format(batch=self.batch_id[:12]))
        if self.transform:
            parts.append(_("transform {transform}").format(transform=self.transform))
        if self.min_attempts:
            parts.append(_("attempts ≥ {n}").format(n=format_int(self.min_attempts, lang)))
        if self.attempts is not None:
            parts.append(_("attempts = {n}").format(n=format_int(self.attempts, lang)))
        if self.signature:
            sig = self.signature if len(self.signature) <= 60 else self.signature[:59] + "…"
            parts.append(_("error group “{signature}”").format(signature=sig))
        if self.failed_from or self.failed_to:
            span = sorted({d for d in (self.failed_from, self.failed_to) if d is not None})
            if len(span) == 1:
                parts.append(_("first failed {day}").format(day=format_date(span[0], lang)))
            else:
                parts.append(
                    _("first failed {first} to {last}").format(
                        first=format_date(span[0], lang), last=format_date(span[1], lang)
                    )
                )
        if self.owner:
            if self.owner == NOBODY:
                parts.append(_("owned by nobody"))
            else:
                parts.append(_("owner {owner}").format(owner=self.owner))
        if self.tag:
            parts.append(_("tag {tag}").format(tag=self.tag))
        if self.source:
            if self.source == FILES:
                parts.append(_("source: files"))
            else:
                parts.append(_("source {source}").format(source=self.source))
        if self.ids:
            shown = ", ".join(f"#{i}" for i in self.ids[:5])
            more = len(self.ids) - 5
            if more > 0:
                parts.append(
                    ngettext("ids {ids} and {n} more", "ids {ids} and {n} more", more).format(
                        ids=shown, n=format_int(more, lang)
                    )
                )
            else:
                parts.append(_("ids {ids}").format(ids=shown))
        if self.search:
            text = self.search if len(self.search) <= 40 else self.search[:39] + "…"
            parts.append(_("search “{text}”").format(text=text))
        return " · ".join(parts)


class _ContainsBytes(FunctionElement[bool]):
    """Literal byte-substring test on a BLOB/bytea column, the same on each dialect."""

    type = Boolean()
    inherit_cache = True


@compiles(_ContainsBytes, "sqlite")
def _contains_sqlite(element: _ContainsBytes, compiler: Any, **kw: Any) -> str:
    hay, needle = list(element.clauses)
    return f"instr({compiler.process(hay, **kw)}, {compiler.process(needle, **kw)}) > 0"


@compiles(_ContainsBytes, "postgresql")
def _contains_pg(element: _ContainsBytes, compiler: Any, **kw: Any) -> str:
    hay, needle = list(element.clauses)
    return f"position({compiler.process(needle, **kw)} in {compiler.process(hay, **kw)}) > 0"


class _BytesAt(FunctionElement[bool]):
    """The payload starts (True) or ends (False) with the given bytes."""

    type = Boolean()
    inherit_cache = True

    def __init__(self, hay: Any, needle: bytes, start: bool) -> None:
        self.start = start
        super().__init__(hay, bindparam("edge", needle, unique=True))

    def _gen_cache_key(self, anon_map: Any, bindparams: Any) -> Any:  # the side is part of it
        key = super()._gen_cache_key(anon_map, bindparams)
        return None if key is None else (*key, self.start)


@compiles(_BytesAt, "sqlite")
def _at_sqlite(element: _BytesAt, compiler: Any, **kw: Any) -> str:
    hay, needle = (compiler.process(c, **kw) for c in element.clauses)
    if element.start:
        return f"(substr({hay}, 1, length({needle})) = {needle})"
    return f"(substr({hay}, -length({needle})) = {needle})"


@compiles(_BytesAt, "postgresql")
def _at_pg(element: _BytesAt, compiler: Any, **kw: Any) -> str:
    hay, needle = (compiler.process(c, **kw) for c in element.clauses)
    if element.start:
        return f"(substring({hay} from 1 for length({needle})) = {needle})"
    return f"(substring({hay} from greatest(length({hay}) - length({needle}) + 1, 1)) = {needle})"


def _like_literal(text: str) -> str:
    """A LIKE pattern matching ``text`` literally: %, _ and the escape are plain characters."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class _ContainsText(FunctionElement[bool]):
    """Text found in a column whatever its case, as the database folds case: PostgreSQL
    folds every letter (ILIKE), SQLite ASCII letters only (its lower() and LIKE). The
    pattern is folded in Python the same way, so text copied from an error always finds
    it; on SQLite the pattern is then a constant, not a lower() evaluated on every row."""

    type = Boolean()
    inherit_cache = True


def contains_text(column: Any, text: str) -> _ContainsText:
    ascii_folded = "".join(c.lower() if c.isascii() else c for c in text)
    return _ContainsText(
        column,
        bindparam("text_any_case", _like_literal(text), unique=True),
        bindparam("text_ascii_lower", _like_literal(ascii_folded), unique=True),
    )


@compiles(_ContainsText, "sqlite")
def _contains_text_sqlite(element: _ContainsText, compiler: Any, **kw: Any) -> str:
    column, _pattern, ascii_lowered = list(element.clauses)
    # In parentheses: SQLite may compare the result with 1, and would otherwise take
    # "'\\' = 1" for the escape character.
    return (
        f"(lower({compiler.process(column, **kw)}) LIKE "
        f"{compiler.process(ascii_lowered, **kw)} ESCAPE '\\')"
    )


@compiles(_ContainsText, "postgresql")
def _contains_text_pg(element: _ContainsText, compiler: Any, **kw: Any) -> str:
    column, pattern, _ascii_lowered = list(element.clauses)
    return f"({compiler.process(column, **kw)} ILIKE {compiler.process(pattern, **kw)} ESCAPE '\\')"


def filter_clauses(f: DeadLetterFilter) -> list[ColumnElement[bool]]:
    dl = DeadLetter
    out: list[ColumnElement[bool]] = []
    if f.status and f.status != ALL:
        if f.status not in STATUS_FILTERS:
            raise TriageError(
                _("unknown status {status}: use {statuses}").format(
                    status=repr(f.status), statuses=", ".join(STATUS_FILTERS)
                )
            )
        out.append(dl.status == f.status)
    if f.error_class:
        if f.error_class not in CLASSES:
            raise TriageError(
                _("unknown class {error_class}: use data, code or transient").format(
                    error_class=repr(f.error_class)
                )
            )
        out.append(dl.error_class == f.error_class)
    if f.batch_id:
        if len(f.batch_id) >= 16:
            out.append(dl.batch_id == f.batch_id)
        else:  # a prefix, as a range the index can use (batch ids are lower-case hex)
            out.append(and_(dl.batch_id >= f.batch_id, dl.batch_id < f.batch_id + "\x7f"))
    if f.transform:
        out.append(dl.transform == f.transform)
    if f.min_attempts is not None and f.min_attempts > 1:
        out.append(dl.attempts >= f.min_attempts)
    if f.signature is not None:
        out.append(dl.signature_id == signature_id_of(f.signature))
    if f.attempts is not None:
        out.append(dl.attempts == f.attempts)
    if f.failed_from is not None:
        out.append(dl.first_failed_at >= dt.datetime.combine(f.failed_from, dt.time()))
    if f.failed_to is not None:
        end = f.failed_to + dt.timedelta(days=1)
        out.append(dl.first_failed_at < dt.datetime.combine(end, dt.time()))
    if f.ids is not None:
        out.append(dl.id.in_(f.ids))
    if f.owner == NOBODY:  # the rows of the groups nobody has taken on
        owned = select(ErrorGroupNotes.signature_id).where(ErrorGroupNotes.owner.is_not(None))
        out.append(dl.signature_id.not_in(owned))
    elif f.owner is not None:
        owned = select(ErrorGroupNotes.signature_id).where(ErrorGroupNotes.owner == f.owner)
        out.append(dl.signature_id.in_(owned))
    if f.tag is not None:
        # Tags are kept as a JSON array of strings: the tag, quoted as JSON writes it.
        pattern = _like_literal(orjson.dumps(f.tag).decode())
        tagged = select(ErrorGroupNotes.signature_id).where(
            ErrorGroupNotes.tags.like(pattern, escape="\\")
        )
        out.append(dl.signature_id.in_(tagged))
    if f.source is not None:
        if f.source == FILES:
            of_source = select(Batch.batch_id).where(Batch.connector_id.is_(None))
        else:
            named = select(Connector.id).where(Connector.name == f.source).scalar_subquery()
            of_source = select(Batch.batch_id).where(Batch.connector_id == named)
        out.append(dl.batch_id.in_(of_source))
    if f.search:
        out.append(search_clause(f.search))
    return out


def search_clause(text: str) -> ColumnElement[bool]:
    """Rows whose payload or error holds ``text``. Personal fields are searchable only by
    exact value (issue 27): the substring is looked for in the masked payload (the payload
    itself where nothing is masked), and the raw payload is matched only where ``text`` is
    a whole value there: a JSON string token (``"Siti Aminah"``) or a whole CSV field."""
    needle = text.encode("utf-8")
    raw = working_payload()
    token = orjson.dumps(text)
    whole = [
        _ContainsBytes(raw, token),
        _ContainsBytes(raw, b"," + needle + b","),
        _BytesAt(raw, needle + b",", True),
        _BytesAt(raw, b"," + needle, False),
    ]
    # Only a row with a masked copy can hide the value: the others' payloads are shown
    # whole, and the substring test above finds them (SQLite stops at the first term).
    masked = or_(DeadLetter.masked_original.is_not(None), DeadLetter.masked_payload.is_not(None))
    return or_(
        _ContainsBytes(shown_payload(), needle),
        contains_text(shown_error(), text),
        and_(masked, or_(*whole)),
    )


def cell_clauses(f: DeadLetterFilter | None) -> list[ColumnElement[bool]] | None:
    """``f`` over the summary's cells (``dead_letter_counts``: class, signature, status,
    attempts, first-failure day, batch, transform), or None when the cells cannot answer
    it: ``search`` (the payload's text) and ``ids`` need the rows. Owner and tag are sets
    of signatures, which the cells hold."""
    if f is None:
        return []
    if f.search or f.ids is not None:
        return None
    t = DeadLetterCount.__table__
    dl = DeadLetter.__table__
    # The same clauses as the rows', on the cells' columns of the same names.
    on_rows = filter_clauses(replace(f, failed_from=None, failed_to=None))

    def to_cells(element: Any, **_kw: Any) -> Any:
        if isinstance(element, Column) and element.table is dl:
            return t.c[element.name]
        return None

    out: list[ColumnElement[bool]] = [replacement_traverse(c, {}, to_cells) for c in on_rows]
    if f.failed_from is not None:
        out.append(t.c.day >= f.failed_from)
    if f.failed_to is not None:
        out.append(t.c.day <= f.failed_to)
    return out


SelectT = TypeVar("SelectT", bound=Select[*tuple[Any, ...]])


def filtered(stmt: SelectT, f: DeadLetterFilter) -> SelectT:
    clauses = filter_clauses(f)
    return stmt.where(and_(*clauses)) if clauses else stmt


def sort_column(sort: str) -> Any:
    """The column a view may sort by, or a one-line refusal."""
    if sort not in SORTABLE:
        raise TriageError(_("cannot sort by {sort}").format(sort=repr(sort)))
    return getattr(DeadLetter, SORTED_BY.get(sort, sort))


def order_clause(sort: str = "id", descending: bool = False) -> list[Any]:
    col = sort_column(sort)
    primary = col.desc() if descending else col.asc()
    # id breaks ties, so that paging through equal values is stable.
    tie = DeadLetter.id.desc() if descending else DeadLetter.id.asc()
    return [primary] if sort == "id" else [primary, tie]
