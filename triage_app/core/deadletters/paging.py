"""Pages of the quarantine table: light rows (no payload) fetched by keyset or from the end.

OFFSET paging walks every skipped row, so page N of a million costs what N pages cost.
A window over the store instead remembers the last row of each page it has seen and
asks for the rows *after* it (keyset), and fetches pages past the middle in reverse
order, so that neither the next page nor the last one depends on how deep it is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.expression import FunctionElement
from sqlalchemy.types import String

from triage_app.core.db import (
    DeadLetter,
    Workspace,
    shown_error,
    signature_id_of,
    signature_text,
)
from triage_app.core.deadletters.filters import (
    SORTED_BY,
    DeadLetterFilter,
    filter_clauses,
    filtered,
    order_clause,
    sort_column,
)
from triage_app.core.vocabulary import ALL


@dataclass(frozen=True)
class DeadLetterRow:
    """One line of the quarantine table: everything but the payload, which may be large."""

    id: int
    batch_id: str
    line: int
    error_class: str
    signature: str
    error: str
    attempts: int
    status: str
    last_failed_at: dt.datetime
    transform: str
    first_failed_at: dt.datetime
    version: int = 1  # what the table showed: a change by hand names it (expected=)
    signature_id: int = 0  # what a sort by signature runs on


_ROW_COLUMNS = (
    DeadLetter.id,
    DeadLetter.batch_id,
    DeadLetter.line,
    DeadLetter.error_class,
    signature_text().label("signature"),
    shown_error().label("error"),
    DeadLetter.attempts,
    DeadLetter.status,
    DeadLetter.last_failed_at,
    DeadLetter.transform,
    DeadLetter.first_failed_at,
    DeadLetter.version,
    DeadLetter.signature_id,
)


# A line number means something only within its batch, so both the batch and the line
# column sort by (batch, line): the order of the store's unique index, no sort step needed.
_BY_POSITION = ("batch_id", "line")


def _key_columns(sort: str) -> tuple[str, str]:
    """The two columns the order runs on: the chosen one, then a unique tie-breaker."""
    sort_column(sort)  # refuses what no view may sort by
    return _BY_POSITION if sort in _BY_POSITION else (SORTED_BY.get(sort, sort), "id")


def _order(sort: str, descending: bool) -> list[Any]:
    if sort == "id":
        return order_clause("id", descending)
    return [
        getattr(DeadLetter, c).desc() if descending else getattr(DeadLetter, c).asc()
        for c in _key_columns(sort)
    ]


def _after(sort: str, descending: bool, row: DeadLetterRow) -> Any:
    """Rows strictly after ``row`` in the page order."""
    if sort == "id":
        return DeadLetter.id < row.id if descending else DeadLetter.id > row.id
    first, tie = _key_columns(sort)
    col, tie_col = getattr(DeadLetter, first), getattr(DeadLetter, tie)
    value, tie_value = getattr(row, first), getattr(row, tie)
    if descending:
        return or_(col < value, and_(col == value, tie_col < tie_value))
    return or_(col > value, and_(col == value, tie_col > tie_value))


class _StatusUnindexed(FunctionElement[str]):
    """The status column, which SQLite's planner may not look up by ``ix_dl_status_id``."""

    type = String()
    inherit_cache = True


@compiles(_StatusUnindexed, "sqlite")
def _status_unindexed_sqlite(element: _StatusUnindexed, compiler: Any, **kw: Any) -> str:
    # SQLite never uses an index for a term on +column.
    return f"+{compiler.process(DeadLetter.status, **kw)}"


@compiles(_StatusUnindexed)
def _status_unindexed(element: _StatusUnindexed, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(DeadLetter.status, **kw))


def _page_filter(stmt: Any, f: DeadLetterFilter, sort: str) -> Any:
    """``stmt`` narrowed by ``f``. Sorted by another column than id or status, a page walks
    that column's index and checks the status row by row: without planner statistics (a
    user's store never runs ANALYZE) SQLite would rather look the status up and sort every
    row that has it (all open rows of a bad day) to return the first 200."""
    if sort in ("id", "status") or f.status == ALL:
        return filtered(stmt, f)
    filter_clauses(f)  # refuses an unknown status or class as every filter does
    return filtered(stmt, f.with_(status=ALL)).where(_StatusUnindexed() == f.status)


def _pinned(f: DeadLetterFilter) -> tuple[DeadLetterFilter, Any, Any] | None:
    """A page in id order pinned to one value of an indexed column (a batch, a group, a
    transform, an attempt count, a class): the filter without it, the column, the value.

    The page is then asked for as that column's range of one value, ordered by (column,
    id): the order of the column's index (``(column, id)``, or the column and the rowid on
    SQLite), read without a sort. As an equality, PostgreSQL drops the constant column
    from the order and walks the primary key instead, expecting matches spread evenly: at
    ten million rows, 2.1 s to reach the newest batch's rows, 1.4 ms by its index. (On
    PostgreSQL only: SQLite answers the equality from the index already.)"""
    filter_clauses(f)  # refuses an unknown status or class, as every filter does
    dl = DeadLetter
    if f.batch_id and len(f.batch_id) >= 16:  # a whole id (a prefix is a range already)
        return f.with_(batch_id=None), dl.batch_id, f.batch_id
    if f.signature is not None:
        return f.with_(signature=None), dl.signature_id, signature_id_of(f.signature)
    if f.transform:
        return f.with_(transform=None), dl.transform, f.transform
    if f.attempts is not None:
        return f.with_(attempts=None), dl.attempts, f.attempts
    if f.error_class:
        return f.with_(error_class=None), dl.error_class, f.error_class
    return None


def _span_bounds(f: DeadLetterFilter) -> list[Any]:
    """For a page in id order of a span of first failures: the span's lowest and highest
    id, as bounds on the id. Exact whatever the rows (index-only reads of the span in
    ``ix_dl_first_failed``, ``(first_failed_at, id)`` on PostgreSQL). Without them
    PostgreSQL walks the primary key from the first id, expecting the span's rows spread
    evenly; they sit together (a day's batches), so at ten million rows it read millions
    before the first match (1.1-1.3 s). With them the walk starts at the span's first row."""
    if f.failed_from is None and f.failed_to is None:
        return []
    span = filter_clauses(
        DeadLetterFilter(status=ALL, failed_from=f.failed_from, failed_to=f.failed_to)
    )
    # ``+ 0``: as min(id) and max(id), PostgreSQL would walk the primary key from an end
    # until a row of the span came (the same walk, 3.5 s); as an expression, it aggregates
    # the span's entries of ix_dl_first_failed (an index-only scan, 46 ms for a day's
    # 230,000 at ten million rows).
    bounds = [
        select(g(DeadLetter.id + 0)).where(*span).scalar_subquery() for g in (func.min, func.max)
    ]
    return [DeadLetter.id >= bounds[0], DeadLetter.id <= bounds[1]]


def fetch_rows(
    ws: Workspace,
    f: DeadLetterFilter,
    *,
    sort: str = "id",
    descending: bool = False,
    limit: int = 200,
    offset: int = 0,
    after: DeadLetterRow | None = None,
    from_end: bool = False,
) -> list[DeadLetterRow]:
    """A page of rows in display order.

    ``after``: start right after this row (keyset), then skip ``offset`` more.
    ``from_end``: ``offset`` counts from the last row; the rows come back in display order.
    """
    if after is not None and from_end:
        raise ValueError("after and from_end exclude each other")
    if limit <= 0:
        return []
    dialect = ws.store.dialect.name
    stmt = page_statement(dialect, f, sort, descending, limit, offset, after, from_end)
    with ws.store.connect() as conn:
        rows = [DeadLetterRow(*r) for r in conn.execute(stmt)]
    if from_end:
        rows.reverse()
    return rows


def page_statement(
    dialect: str,
    f: DeadLetterFilter,
    sort: str,
    descending: bool,
    limit: int,
    offset: int,
    after: DeadLetterRow | None,
    from_end: bool,
) -> Any:
    """The statement ``fetch_rows`` runs on a store of ``dialect``, with its arguments (the
    bench explains it): from the end, its rows come in reverse display order."""
    reverse = descending != from_end
    # PostgreSQL only: SQLite plans the equality well (its indexes end in the rowid), and
    # without statistics it would take the range for a status lookup and a sort.
    pinning = sort == "id" and dialect == "postgresql"
    pin = _pinned(f) if pinning else None
    if pin is None:
        stmt = _page_filter(select(*_ROW_COLUMNS), f, sort)
        if pinning:
            stmt = stmt.where(*_span_bounds(f))
        order = _order(sort, reverse)
    else:
        rest, column, value = pin
        stmt = _page_filter(select(*_ROW_COLUMNS), rest, sort).where(
            column >= value, column <= value
        )
        order = [c.desc() if reverse else c.asc() for c in (column, DeadLetter.id)]
    if after is not None:
        stmt = stmt.where(_after(sort, descending, after))
    return stmt.order_by(*order).limit(limit).offset(max(offset, 0))


def rows_by_id(ws: Workspace, ids: list[int]) -> list[DeadLetterRow]:
    """The table's rows of ``ids`` (a handful: a preview's sample), by id."""
    if not ids:
        return []
    stmt = select(*_ROW_COLUMNS).where(DeadLetter.id.in_(ids)).order_by(DeadLetter.id)
    with ws.store.connect() as conn:
        return [DeadLetterRow(*r) for r in conn.execute(stmt)]
