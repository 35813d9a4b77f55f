"""Every statement the application sends to the dead-letter store, and the plan each one
gets: which index serves it, and whether any reads a whole table (tests/core/db/
test_query_plans.py).

Capture. Statements are caught where the driver runs them, so that nothing the code sends
escapes, however it sends it (SQLAlchemy, the driver's own cursor, a bare ``sqlite3``
connection like ``quick_stats``'s):
- SQLite: ``sqlite3.connect`` is wrapped to give every new connection a trace callback,
  which SQLite calls with each statement as it runs, its values written in.
- PostgreSQL: every pooled psycopg connection gets a cursor class that notes each
  ``execute``/``executemany`` with its parameters (statements outside a pool: none today).
Each statement is tagged with the application frame that sent it (the innermost
``triage_app`` function on the stack), the step of the test that was running, and a short
description of its shape (kind, table, filtered and ordered columns).

Judging. Each statement that reads dead_letters or audit_events (a SELECT, UPDATE, DELETE,
or an INSERT ... SELECT from them) is explained on a connection of its own:
- SQLite: ``EXPLAIN QUERY PLAN``. Per access to a watched table:
  ``SEARCH`` (an index, or the primary key, looked up by key)         -> keyed, fine
  ``SCAN ... USING COVERING INDEX`` (a whole index read, never the table) for a statement
  that asks about every row (no condition on the table: count(*), DISTINCT on an index
  prefix)                                                              -> index-only, fine
  ``SCAN ... USING INDEX`` (an index walked in the order asked for)    -> walk, fine
  bare ``SCAN t`` at the top of a statement with an ORDER BY, a LIMIT and no sort step:
  the rows come in the table's own order, the primary key's B-tree walked up to the
  limit (ORDER BY id, or columns the WHERE pins, then id)              -> walk, fine
  any other bare ``SCAN t``; a covering index read whole to test a condition (no index
  has the condition's key); an ``AUTOMATIC`` index (SQLite reads the whole table to build
  an index no one declared)                                            -> FULL SCAN
- PostgreSQL: ``EXPLAIN (FORMAT JSON)`` after ``SET enable_seqscan = off``, so the plan says
  whether an index *can* serve the statement, not whether a small test table is cheaper to
  read whole. Per scan node on a watched table:
  Index/Index Only/Bitmap scan with an ``Index Cond``                  -> keyed, fine
  Index Only Scan without one or a Filter (a whole index read, for a
  statement about every row)                                           -> index-only, fine
  Index Scan without one that feeds a Limit, through nothing that
  reorders (the index gives the order)                                 -> walk, fine
  ``Seq Scan``; an Index Scan without a condition that does not feed a
  Limit (with seqscans off, the planner reads a whole table through any
  index rather than scan it: the same full read in disguise); an Index
  Only Scan that filters a whole index                                 -> FULL SCAN
A statement may read a whole table only through an entry of ``ALLOWED_FULL_SCANS``, which
says why that is its nature.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote

import pytest
from sqlalchemy import UniqueConstraint, event
from sqlalchemy.pool import Pool

import triage_app

WATCHED = ("dead_letters", "audit_events")
APP_DIR = str(Path(triage_app.__file__).resolve().parent)
# Frames that run statements on the application's behalf but are not the query's author.
_PLUMBING = ("core/db/engines.py",)
_ORIGINAL_CONNECT = sqlite3.connect
# At most this many differently-valued copies of one statement are explained: enough to
# see a plan that depends on the values, without explaining a thousand keyset pages.
_COPIES_PER_SHAPE = 3


@dataclass
class Statement:
    dialect: str
    sql: str  # SQLite: values written in; PostgreSQL: with placeholders
    params: Any  # PostgreSQL's parameters; None on SQLite
    site: str  # the innermost application frame, "core/deadletters/paging.py:fetch_rows"
    chain: tuple[str, ...]  # every application frame, innermost first
    step: str  # what the test was doing
    shape: str  # kind, table, filtered and ordered columns


@dataclass
class Access:
    """One access of a plan to a watched table."""

    table: str
    index: str | None  # None for a full scan; "(primary key)" for the table's own key
    kind: str  # keyed, index-only, walk, full
    detail: str  # the plan's own words


@dataclass
class Verdict:
    statement: Statement
    accesses: list[Access]
    plan: str  # the whole plan, for messages
    error: str | None = None  # the EXPLAIN failed: why
    allowed: str | None = None  # a full scan this statement may make, and why

    @property
    def full_scans(self) -> list[Access]:
        return [a for a in self.accesses if a.kind == "full"]

    @property
    def failed(self) -> bool:
        return self.error is not None or (bool(self.full_scans) and self.allowed is None)


# -- which full scans are a statement's nature ---------------------------------------------
@dataclass(frozen=True)
class AllowedFullScan:
    """A statement that reads a whole table by nature: those of ``site`` whose only
    conditions on the table are on ``columns`` (a literal substring searched for in text or
    bytes, which no B-tree index can find)."""

    site: str
    table: str
    columns: frozenset[str]
    why: str

    def covers(self, s: Statement, table: str) -> bool:
        if table != self.table or not s.site.endswith(self.site):
            return False
        searched = set(where_columns(s.sql, table))
        if not self.columns:  # a statement about every row: no condition at all
            return not searched
        return bool(searched) and searched <= self.columns


# The payloads a search reads: their masked copies first, where a row has personal fields
# (issue 27), the raw bytes only for a personal value's exact match.
_SEARCHED = frozenset(
    {"payload", "original_payload", "masked_payload", "masked_original", "error", "signature_id"}
)
# A page of a search (the table, ``list --search``, export) needs no entry: it walks the
# primary key or an index in the order asked for and stops at its limit. A count does not.
ALLOWED_FULL_SCANS: tuple[AllowedFullScan, ...] = (
    # The row count of the table's search box, with every other picker on "all" (also
    # ``list --search`` when its page is full): the text may be anywhere in any payload or
    # error, so every row is looked at.
    AllowedFullScan(
        "core/deadletters/queries.py:count_dead_letters",
        "dead_letters",
        _SEARCHED,
        "substring search over every row",
    ),
    # ``groups`` alone counts every row by (class, signature, status): ix_dl_cube, which
    # answered it from the index, went in 0007 with Trends' counting, and the groups read
    # dead_letter_counts once its writers keep it (issue 23). Remove this entry then.
    AllowedFullScan(
        "core/deadletters/groups.py:_grouped",
        "dead_letters",
        frozenset(),
        "every row counted, until groups reads dead_letter_counts",
    ),
    # A Trends chart the lead set to follow a search of the table: the rows the text
    # chooses, counted per batch and per group, are every row looked at (as the count).
    AllowedFullScan(
        "core/trends/batches.py:per_batch_of",
        "dead_letters",
        _SEARCHED,
        "substring search over every row, per batch",
    ),
    AllowedFullScan(
        "core/deadletters/groups.py:_grouped",
        "dead_letters",
        _SEARCHED,
        "substring search over every row, per error group",
    ),
    # The same for the audit trail's ``--actor`` (actors containing the text, any case).
    AllowedFullScan(
        "core/deadletters/expanded_events.py:count",
        "audit_events",
        frozenset({"actor"}),
        "substring search of actors over every event",
    ),
)


# -- what a statement looks like -------------------------------------------------------------
_WORD = re.compile(r"\b(dead_letters|audit_events)\b")
_TEMP_TABLE = re.compile(r"^\s*CREATE\s+TEMP(ORARY)?\s+TABLE\b", re.IGNORECASE)
_DELETE = re.compile(r"^\s*DELETE\s+FROM\s+(\S+)", re.IGNORECASE)
_KEYWORDS = re.compile(r"^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b", re.IGNORECASE)


def is_watched(sql: str) -> bool:
    """A statement that reads a watched table: DML naming one (an INSERT only when it
    selects from one), never DDL, PRAGMA or EXPLAIN."""
    m = _KEYWORDS.match(sql)
    if m is None or not _WORD.search(sql):
        return False
    if m.group(1).upper() == "INSERT":
        return re.search(r"\bFROM\s+(dead_letters|audit_events)\b", sql) is not None
    return True


def aliases(sql: str, table: str) -> set[str]:
    """The names a table goes by in a statement: its own and SQLAlchemy's ``AS x``."""
    return {table} | set(re.findall(rf"\b{table}\s+AS\s+(\w+)", sql))


def where_columns(sql: str, table: str) -> list[str]:
    """Columns of ``table`` (or an alias of it) named after the statement's first WHERE and
    before its ORDER BY, GROUP BY, RETURNING or LIMIT: the columns it is filtered on,
    roughly (subqueries' conditions included)."""
    names = aliases(sql, table)
    cut = re.search(r"\bWHERE\b", sql)
    if cut is None:
        return []
    body = re.split(r"\b(?:ORDER BY|GROUP BY|RETURNING|LIMIT)\b", sql[cut.end() :])[0]
    out: list[str] = []
    for name, col in re.findall(r"\b(\w+)\.(\w+)\b", body):
        if name in names and col not in out:
            out.append(col)
    if not out and table in sql:  # SQL written by hand: columns without their table
        for col in re.findall(r"\b([a-z_]+)\s*(?:=|>|<|\bIN\b|\bIS\b|\bLIKE\b)", body):
            if col not in out and col not in {"and", "or", "not"}:
                out.append(col)
    return out


def shape_of(sql: str) -> str:
    """``SELECT dead_letters WHERE status, error_class ORDER BY attempts, id LIMIT``."""
    kind = sql.split(None, 1)[0].upper()
    tables = [t for t in WATCHED if re.search(rf"\b{t}\b", sql)]
    parts = [kind, "+".join(tables)]
    where = sorted({c for t in tables for c in where_columns(sql, t)})
    if where:
        parts.append("WHERE " + ", ".join(where))
    order = re.findall(r"\bORDER BY\s+(.+?)(?=\bLIMIT\b|\bOFFSET\b|\bFOR\b|\)|$)", sql, re.S)
    if order:
        last = order[-1] if kind != "INSERT" else order[0]
        # Without ASC/DESC: an index serves either direction alike.
        cols = [re.sub(r"^\w+\.|\s+(ASC|DESC)\s*$", "", c.strip()) for c in last.split(",")]
        parts.append("ORDER BY " + ", ".join(" ".join(c.split()) for c in cols))
    flags = [
        f
        for f, pat in (
            ("count", r"\bcount\("),
            ("min/max", r"\b(min|max)\("),
            ("DISTINCT", r"\bDISTINCT\b"),
            ("GROUP BY", r"\bGROUP BY\b"),
            ("LIMIT", r"\bLIMIT\b"),
            ("FOR UPDATE", r"\bFOR UPDATE\b"),
            ("json_each", r"\bjson_each\b"),
            ("= ANY", r"= ANY \("),
            ("search", r"\binstr\(|\bposition\(|\bI?LIKE\b"),
        )
        if re.search(pat, sql, re.IGNORECASE)
    ]
    return " ".join(parts + flags)


def _generic(sql: str) -> str:
    """The statement with its values taken out: copies that differ only in values match."""
    sql = re.sub(r"x'[0-9a-fA-F]*'", "?", sql)
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"\b\d+(\.\d+)?\b", "?", sql)
    sql = re.sub(r"(\?\s*,\s*)+\?", "?", sql)  # IN lists and VALUES rows of any length
    sql = re.sub(r"(\(\?\)\s*,\s*)+\(\?\)", "(?)", sql)
    return " ".join(sql.split())


# -- capture ---------------------------------------------------------------------------------
class Recorder:
    """Collects the statements run while it is installed (``install_sqlite``,
    ``installed_postgres``) and not ``paused``."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.step = "(between steps)"
        self.paused = False
        self.seen = 0  # watched statements run, copies included
        # Session-private tables the statements use (a COPY's staging table), to make
        # again in the session that explains them: statement -> parameters.
        self.temp_tables: dict[str, Any] = {}
        self.deleted_from: set[str] = set()  # tables rows were deleted from
        self._copies: dict[tuple[str, str, str], int] = {}
        self._lock = threading.Lock()

    @contextmanager
    def doing(self, step: str, *, reads: bool = True) -> Iterator[None]:
        """Tag what runs inside with ``step``; fails unless it ran a watched statement (a
        capture that silently caught nothing would prove nothing). ``reads`` False: a step
        that must read neither (a batch only inserts its dead letters, schema 0007)."""
        before = self.seen
        previous, self.step = self.step, step
        try:
            yield
        finally:
            self.step = previous
        if reads:
            assert self.seen > before, f"{step}: no statement on {WATCHED} was seen"
        else:
            assert self.seen == before, f"{step}: a statement read {WATCHED}"

    def _note(self, dialect: str, sql: str, params: Any) -> None:
        if self.paused:
            return
        if _TEMP_TABLE.match(sql):
            self.temp_tables.setdefault(sql, params)
            return
        deleted = _DELETE.match(sql)
        if deleted:
            self.deleted_from.add(deleted.group(1).strip('"'))
        if not is_watched(sql):
            return
        chain = _app_frames()
        if not chain:  # the test's own statements
            return
        site = chain[0]
        key = (dialect, site, _generic(sql))
        with self._lock:
            self.seen += 1
            n = self._copies.get(key, 0)
            self._copies[key] = n + 1
            if n >= _COPIES_PER_SHAPE:
                return
            self.statements.append(
                Statement(dialect, sql, params, site, chain, self.step, shape_of(sql))
            )

    def install_sqlite(self, monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
        """Trace every connection to the SQLite file ``store`` opened from now on
        (SQLAlchemy's included: its driver module is ``sqlite3.dbapi2``, which has a
        ``connect`` of its own), by path or by URI."""

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn: sqlite3.Connection = _ORIGINAL_CONNECT(*args, **kwargs)
            target = str(args[0] if args else kwargs.get("database", ""))
            if str(store) in target or quote(str(store)) in target:
                conn.set_trace_callback(lambda sql: self._note("sqlite", sql, None))
            return conn

        monkeypatch.setattr(sqlite3, "connect", connect)
        monkeypatch.setattr(sqlite3.dbapi2, "connect", connect)

    @contextmanager
    def installed_postgres(self, schema: str) -> Iterator[None]:
        """Note every statement of every psycopg connection a pool opens meanwhile to the
        store, which is the one whose connection options name ``schema``."""
        import psycopg

        recorder = self
        classes: dict[type, type] = {}

        def traced(base: type) -> type:
            if base not in classes:

                class Traced(base):  # type: ignore[misc]
                    def execute(self, query: Any, params: Any = None, **kw: Any) -> Any:
                        if isinstance(query, str):
                            recorder._note("postgresql", query, params)
                        return super().execute(query, params, **kw)

                    def executemany(self, query: Any, params_seq: Any, **kw: Any) -> Any:
                        params_seq = list(params_seq)
                        if isinstance(query, str):
                            for p in params_seq[:_COPIES_PER_SHAPE]:
                                recorder._note("postgresql", query, p)
                        return super().executemany(query, params_seq, **kw)

                classes[base] = Traced
            return classes[base]

        def on_connect(dbapi_conn: Any, _record: Any) -> None:
            if isinstance(dbapi_conn, psycopg.Connection) and schema in dbapi_conn.info.dsn:
                dbapi_conn.cursor_factory = traced(dbapi_conn.cursor_factory)

        event.listen(Pool, "connect", on_connect)
        try:
            yield
        finally:
            event.remove(Pool, "connect", on_connect)


def _app_frames() -> tuple[str, ...]:
    out = []
    f: FrameType | None = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        if name.startswith(APP_DIR):
            where = name[len(APP_DIR) + 1 :].replace("\\", "/")
            if where not in _PLUMBING:
                out.append(f"{where}:{f.f_code.co_name}")
        f = f.f_back
    return tuple(out)


# -- SQLite plans ----------------------------------------------------------------------------
_SQLITE_ACCESS = re.compile(r"^(SCAN|SEARCH) (\w+)(?: (.*))?$")


def sqlite_accesses(
    sql: str, rows: Sequence[tuple[int, int, int, str]], names: dict[str, str] | None = None
) -> list[Access]:
    """The plan's accesses to watched tables; ``names`` renames indexes (SQLite's own
    names for the indexes of UNIQUE constraints, to the constraints' names)."""
    names = names or {}
    tables = {a: t for t in WATCHED for a in aliases(sql, t)}
    sorts = any("USE TEMP B-TREE FOR" in r[3] and "ORDER BY" in r[3] for r in rows)
    out = []
    for _id, parent, _unused, detail in rows:
        m = _SQLITE_ACCESS.match(detail)
        if m is None or m.group(2) not in tables:
            continue
        op, name, rest = m.group(1), m.group(2), m.group(3) or ""
        table = tables[name]
        found = re.search(r"USING (?:COVERING )?INDEX (\w+)", rest)
        index = None if found is None else names.get(found.group(1), found.group(1))
        if "AUTOMATIC" in rest:
            out.append(Access(table, None, "full", detail))
        elif op == "SEARCH":
            out.append(Access(table, index or "(primary key)", "keyed", detail))
        elif index is not None and "COVERING" not in rest:
            out.append(Access(table, index, "walk", detail))
        elif index is not None and not where_columns(sql, table):
            out.append(Access(table, index, "index-only", detail))
        elif index is not None:  # every entry of an index read to test a condition
            out.append(Access(table, None, "full", f"{detail} (conditions, but no key)"))
        elif parent == 0 and not sorts and _ordered_with_limit(sql):
            # No sort step, so the rows come in the table's own order: the primary key,
            # walked up to the limit (an ORDER BY id, or columns the WHERE pins, then id).
            out.append(Access(table, "(primary key)", "walk", detail))
        else:
            out.append(Access(table, None, "full", detail))
    return out


def _ordered_with_limit(sql: str) -> bool:
    return re.search(r"\bORDER BY\b.*\bLIMIT\b", sql, re.S) is not None


def explain_sqlite(
    db: sqlite3.Connection, s: Statement, names: dict[str, str] | None = None
) -> Verdict:
    """``names``: ``constraint_indexes(db)``, to name indexes as PostgreSQL does."""
    try:
        rows = db.execute("EXPLAIN QUERY PLAN " + s.sql).fetchall()
    except sqlite3.Error as exc:
        return Verdict(s, [], "", error=f"EXPLAIN failed: {exc}")
    plan = "\n".join(f"{'  ' * _depth(rows, r[0])}{r[3]}" for r in rows)
    return _judged(Verdict(s, sqlite_accesses(s.sql, rows, names), plan))


def constraint_indexes(db: sqlite3.Connection) -> dict[str, str]:
    """SQLite's ``sqlite_autoindex_<table>_<n>`` -> the name of the UNIQUE constraint it
    backs (the name PostgreSQL gives that index), matched by columns with the models."""
    from triage_app.core.db.models import Base

    out = {}
    for table in WATCHED:
        uniques = {
            tuple(c.name for c in con.columns): str(con.name)
            for con in Base.metadata.tables[table].constraints
            if isinstance(con, UniqueConstraint)
        }
        for _seq, name, _unique, origin, _partial in db.execute(f"PRAGMA index_list({table})"):
            if origin == "u":
                cols = tuple(r[2] for r in db.execute(f"PRAGMA index_info({name})"))
                out[name] = uniques.get(cols, name)
    return out


def _depth(rows: Sequence[tuple[int, int, int, str]], node: int) -> int:
    parents = {r[0]: r[1] for r in rows}
    d = 0
    while parents.get(node, 0):
        node = parents[node]
        d += 1
    return d


def sqlite_snapshot(src: Path, dst: Path, *, statistics: bool) -> sqlite3.Connection:
    """A copy of the store to explain on, with the planner's statistics (``ANALYZE``, as the
    demo and benchmark stores have them) or without (a store that never ran it: every
    user's, since the application never runs ANALYZE)."""
    with _ORIGINAL_CONNECT(src) as live, _ORIGINAL_CONNECT(dst) as copy:
        live.backup(copy)
    live.close()
    db = _ORIGINAL_CONNECT(dst, isolation_level=None)
    if not statistics:
        has = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()
        if has:
            db.execute("DROP TABLE sqlite_stat1")
        db.close()
        db = _ORIGINAL_CONNECT(dst, isolation_level=None)  # the planner forgets them
    return db


def sqlite_indexes(db: sqlite3.Connection) -> dict[str, tuple[str, bool]]:
    """Index -> (table, droppable); an index that backs a constraint cannot be dropped.
    The primary key is the table itself (rowid): no index."""
    names = constraint_indexes(db)
    out = {}
    for name, table, sql in db.execute(
        "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN "
        "('dead_letters', 'audit_events') ORDER BY tbl_name, name"
    ):
        out[names.get(name, name)] = (table, sql is not None)
    return out


# -- PostgreSQL plans ------------------------------------------------------------------------
# Nodes a row passes through in the order it came in.
# An Incremental Sort orders rows within each run of equal leading keys that the index
# gives it, and stops with the limit: the index still decides how much is read.
# A Nested Loop gives its rows in the order of its outer (first) input: the walk of an index
# there feeds the limit through it (an inner input is looked up per row; it has its key).
_KEEPS_ORDER = {
    "LockRows",
    "Result",
    "Subquery Scan",
    "Unique",
    "Limit",
    "Incremental Sort",
    "Nested Loop",
}


def pg_accesses(plan: dict[str, Any]) -> list[Access]:
    out: list[Access] = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        kind = node["Node Type"]
        rel = node.get("Relation Name")
        if rel in WATCHED:
            cond = "Index Cond" in node
            detail = _pg_detail(node)
            if node.get("Index Name") == f"{rel}_pkey":  # named as on SQLite
                node = {**node, "Index Name": "(primary key)"}
            if kind == "Seq Scan":
                out.append(Access(rel, None, "full", detail))
            elif kind in ("Index Scan", "Index Only Scan"):
                if cond:
                    out.append(Access(rel, node["Index Name"], "keyed", detail))
                elif kind == "Index Only Scan" and "Filter" not in node:
                    out.append(Access(rel, node["Index Name"], "index-only", detail))
                elif _feeds_limit(path):
                    out.append(Access(rel, node["Index Name"], "walk", detail))
                else:
                    out.append(Access(rel, None, "full", detail + " (a whole index, no cond)"))
            elif kind == "Bitmap Heap Scan":
                for ix in _bitmap_indexes(node):
                    ix = "(primary key)" if ix == f"{rel}_pkey" else ix
                    out.append(Access(rel, ix, "keyed", detail))
            elif kind == "ModifyTable":
                for ix in node.get("Conflict Arbiter Indexes", []):
                    out.append(Access(rel, ix, "keyed", f"{detail} ON CONFLICT"))
        for i, child in enumerate(node.get("Plans", [])):
            walk(child, [*path, f"{kind} (inner)" if kind == "Nested Loop" and i else kind])

    walk(plan, [])
    return out


def _feeds_limit(path: list[str]) -> bool:
    for kind in reversed(path):
        if kind == "Limit":
            return True
        if kind not in _KEEPS_ORDER:
            return False
    return False


def _bitmap_indexes(node: dict[str, Any]) -> list[str]:
    """The indexes a Bitmap Heap Scan's bitmap comes from (not those of its sub-plans)."""
    out = []
    for child in node.get("Plans", []):
        if child["Node Type"] == "Bitmap Index Scan":
            out.append(child["Index Name"])
        elif child["Node Type"] in ("BitmapAnd", "BitmapOr"):
            out += _bitmap_indexes(child)
    return out


def _pg_detail(node: dict[str, Any]) -> str:
    text = str(node["Node Type"])
    if "Relation Name" in node:
        text += f" on {node['Relation Name']}"
    if "Index Name" in node:
        text += f" using {node['Index Name']}"
    if "Index Cond" in node:
        text += f" ({node['Index Cond']})"
    return text


def _pg_text(node: dict[str, Any], depth: int = 0) -> str:
    lines = ["  " * depth + _pg_detail(node) + _pg_extra(node)]
    for child in node.get("Plans", []):
        lines.append(_pg_text(child, depth + 1))
    return "\n".join(lines)


def _pg_extra(node: dict[str, Any]) -> str:
    bits = [f"{k}: {node[k]}" for k in ("Filter", "Sort Key") if k in node]
    return f" [{'; '.join(map(str, bits))}]" if bits else ""


def explain_pg(cur: Any, s: Statement) -> Verdict:
    import psycopg

    try:
        cur.execute("SAVEPOINT explain")
        cur.execute("EXPLAIN (FORMAT JSON) " + s.sql, s.params)
        (doc,) = cur.fetchone()
        cur.execute("RELEASE SAVEPOINT explain")
    except psycopg.Error as exc:
        cur.execute("ROLLBACK TO SAVEPOINT explain")
        return Verdict(s, [], "", error=f"EXPLAIN failed: {str(exc).splitlines()[0]}")
    plan = (json.loads(doc) if isinstance(doc, str) else doc)[0]["Plan"]
    return _judged(Verdict(s, pg_accesses(plan), _pg_text(plan)))


def pg_indexes(cur: Any) -> dict[str, tuple[str, bool]]:
    """Index -> (table, droppable) in the current schema; the primary keys left out, as
    on SQLite, where they are the tables themselves."""
    cur.execute(
        "SELECT i.relname, t.relname, NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid) "
        "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
        "JOIN pg_class t ON t.oid = x.indrelid "
        "WHERE t.relname IN ('dead_letters', 'audit_events') AND NOT x.indisprimary "
        "AND t.relnamespace = current_schema()::regnamespace ORDER BY 2, 1"
    )
    return {name: (table, droppable) for name, table, droppable in cur.fetchall()}


# -- verdicts --------------------------------------------------------------------------------
def _judged(v: Verdict) -> Verdict:
    for a in v.full_scans:
        rule = next((r for r in ALLOWED_FULL_SCANS if r.covers(v.statement, a.table)), None)
        if rule is None:
            v.allowed = None
            return v
        v.allowed = rule.why
    return v


def sorts(v: Verdict) -> bool:
    """The plan sorts rows (a step an index could have spared)."""
    if v.statement.dialect == "sqlite":
        return "USE TEMP B-TREE" in v.plan
    return any(line.strip().startswith("Sort") for line in v.plan.splitlines())


def failure_message(bad: Sequence[Verdict]) -> str:
    out = [f"{len(bad)} statement(s) read a whole watched table (or could not be explained):"]
    for v in bad:
        s = v.statement
        out.append(
            f"\n* {' <- '.join(s.chain[:4])}  [{s.step}]\n  {s.shape}\n  SQL: {_short(s.sql, 600)}"
            + (f"\n  params: {_short(repr(s.params), 300)}" if s.params is not None else "")
            + (f"\n  {v.error}" if v.error else "")
            + "\n  plan:\n    "
            + v.plan.replace("\n", "\n    ")
        )
    return "\n".join(out)


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


# -- what each index serves, and what dropping it would change -------------------------------
@dataclass
class Usage:
    """Per index: the statements whose plan uses it, by kind of use."""

    indexes: dict[str, tuple[str, bool]]
    uses: dict[str, list[tuple[str, Verdict]]] = field(default_factory=dict)

    @classmethod
    def of(cls, indexes: dict[str, tuple[str, bool]], verdicts: Sequence[Verdict]) -> Usage:
        u = cls(indexes, {name: [] for name in indexes})
        for v in verdicts:
            for a in v.accesses:
                if a.index is not None:
                    u.uses.setdefault(a.index, []).append((a.kind, v))
        return u


Without = Callable[[Sequence[str], Sequence[Statement]], list[Verdict]]


@dataclass
class DropEffects:
    """What dropping indexes would change, by the same rules as the test."""

    # index -> (statements that would read a whole table, (before, after) of those that
    # would be served by another index), for each index dropped alone
    alone: dict[str, tuple[list[Verdict], list[tuple[Verdict, Verdict]]]]
    # Indexes that can all be dropped together (tried one by one, by name, each kept
    # dropped when no statement then reads a whole table)
    together: list[str]


def drop_effects(
    indexes: dict[str, tuple[str, bool]], verdicts: Sequence[Verdict], without: Without
) -> DropEffects:
    """``without(names, statements)`` explains ``statements`` as if ``names`` were
    dropped."""
    alone = {}
    for name, (_table, droppable) in indexes.items():
        if not droppable:
            continue
        users = [v for v in verdicts if any(a.index == name for a in v.accesses)]
        after = without([name], [v.statement for v in users]) if users else []
        broken = [w for w in after if w.failed]
        moved = [(v, w) for v, w in zip(users, after, strict=True) if not w.failed]
        alone[name] = (broken, moved)
    statements = [v.statement for v in verdicts]
    together: list[str] = []
    for name in sorted(n for n, (broken, _moved) in alone.items() if not broken):
        if not any(w.failed for w in without([*together, name], statements)):
            together.append(name)
    return DropEffects(alone, together)


def unindexed_foreign_keys(
    fks: Sequence[tuple[str, str, str]], leading: set[tuple[str, str]], deleted_from: set[str]
) -> list[str]:
    """Foreign keys ``(table, column, parent)`` whose parent rows are deleted while no
    index of ``table`` starts with ``column``: each deleted parent row then makes the
    database read the whole child table to check it (a lookup no query plan shows)."""
    return [
        f"{table}.{column} -> {parent}"
        for table, column, parent in fks
        if parent in deleted_from and (table, column) not in leading
    ]


def sqlite_foreign_keys(
    db: sqlite3.Connection,
) -> tuple[list[tuple[str, str, str]], set[tuple[str, str]]]:
    """The store's foreign keys (table, column, parent) and the (table, column) pairs that
    lead an index (or are the rowid)."""
    fks, leading = [], set()
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        for row in db.execute(f"PRAGMA foreign_key_list({table})"):
            fks.append((table, row[3], row[2]))
        for _seq, index, *_ in db.execute(f"PRAGMA index_list({table})"):
            first = db.execute(f"PRAGMA index_info({index})").fetchone()
            if first is not None:
                leading.add((table, first[2]))
        for _cid, column, ctype, _nn, _default, pk in db.execute(f"PRAGMA table_info({table})"):
            if pk == 1 and ctype.upper() == "INTEGER":
                leading.add((table, column))
    return fks, leading


def pg_foreign_keys(cur: Any) -> tuple[list[tuple[str, str, str]], set[tuple[str, str]]]:
    schema = "t.relnamespace = current_schema()::regnamespace"
    cur.execute(
        "SELECT t.relname, a.attname, p.relname FROM pg_constraint c "
        "JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
        f"WHERE c.contype = 'f' AND {schema}"
    )
    fks = [(str(t), str(c), str(p)) for t, c, p in cur.fetchall()]
    cur.execute(
        "SELECT t.relname, a.attname FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid "
        "JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0] "
        f"WHERE {schema}"
    )
    return fks, {(str(t), str(c)) for t, c in cur.fetchall()}
