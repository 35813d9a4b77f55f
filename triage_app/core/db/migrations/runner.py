"""Alembic, driven from code: the revisions, upgrading a store on a connection its caller has
locked, and recognising a store from before Alembic by its tables and columns.

Loaded only when a store is not current (``schema.py``): importing Alembic costs more than
a command on a current store may spend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from triage_app.core.db.migrations import MIGRATIONS_DIR
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    return config


def revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def head() -> str:
    heads = ScriptDirectory.from_config(_config()).get_heads()
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads: {heads}")  # a bug
    return heads[0]


def upgrade(
    connection: Connection, target: str, *, after_each: Callable[[], None] | None = None
) -> None:
    """Run the revisions after the one ``alembic_version`` names, up to ``target``, inside
    the caller's transaction (Alembic sees it open and neither begins nor commits).
    ``after_each`` is called after each revision is applied (a crash point for tests)."""
    config = _config(connection)
    if after_each is not None:
        config.attributes["after_each"] = lambda **_: after_each()
    command.upgrade(config, target)


def downgrade(connection: Connection, target: str) -> None:
    """Back to ``target``, the same way; for developers and tests, never run by the app."""
    command.downgrade(_config(connection), target)


@dataclass(frozen=True)
class Shape:
    """What a revision's store holds: each table's columns, and the indexes by name."""

    tables: dict[str, frozenset[str]]
    indexes: dict[str, tuple[str, tuple[str, ...]]]


@cache
def shapes() -> dict[str, Shape]:
    """Each revision's shape, read back from an in-memory SQLite store migrated to it."""
    out: dict[str, Shape] = {}
    engine = sa.create_engine("sqlite://")
    try:
        with engine.begin() as conn:
            for rev in revisions():
                upgrade(conn, rev)
                out[rev] = _shape_of(conn)
    finally:
        engine.dispose()
    return out


def _shape_of(conn: Connection) -> Shape:
    insp = sa.inspect(conn)
    tables = {
        t: frozenset(str(c["name"]) for c in insp.get_columns(t))
        for t in insp.get_table_names()
        if t != "alembic_version"
    }
    indexes = {
        str(i["name"]): (t, tuple(str(c) for c in i["column_names"]))
        for t in tables
        for i in insp.get_indexes(t)
        if str(i["name"]).startswith("ix_")
    }
    return Shape(tables, indexes)


def _differences(store: Shape, rev: str, known: dict[str, Shape], last: str) -> list[str]:
    """What keeps ``store`` from being revision ``rev``: missing tables and columns, and
    columns no revision has. Tables of a later revision may be there already (7e0d82e's
    code created them in older stores) if they are whole."""
    want = known[rev]
    out = []
    for table, columns in want.tables.items():
        have = store.tables.get(table)
        if have is None:
            out.append(_("table {table} is missing").format(table=table))
            continue
        out += [
            _("column {column} is missing").format(column=f"{table}.{c}")
            for c in sorted(columns - have)
        ]
        out += [
            _("column {column} is unknown").format(column=f"{table}.{c}")
            for c in sorted(have - columns)
        ]
    for table, have in store.tables.items():
        later = known[last].tables.get(table)
        if table not in want.tables and later is not None and have != later:
            said = _("table {table} is not as schema {revision} has it")
            out.append(said.format(table=table, revision=last))
    return out


def recognise(conn: Connection, where: str) -> str:
    """The revision a store from before Alembic is, by its tables and columns; a store that
    matches none is refused in one line naming what is missing."""
    known = shapes()
    ours = set().union(*(s.tables for s in known.values()))
    store = _shape_of(conn)
    store = Shape({t: c for t, c in store.tables.items() if t in ours}, store.indexes)
    revs = list(known)
    found = {rev: _differences(store, rev, known, revs[-1]) for rev in revs}
    for rev in reversed(revs):
        if not found[rev]:
            return rev
    closest = min(reversed(revs), key=lambda r: len(found[r]))
    problems = found[closest]
    more = len(problems) - 3
    if more > 0:
        said = ngettext(
            "the dead-letter store at {where} matches no schema this version knows (closest "
            "is {closest}, but {problems} and {n} more problem); it was left as it is",
            "the dead-letter store at {where} matches no schema this version knows (closest "
            "is {closest}, but {problems} and {n} more problems); it was left as it is",
            more,
        )
    else:
        said = _(
            "the dead-letter store at {where} matches no schema this version knows (closest "
            "is {closest}, but {problems}); it was left as it is"
        )
    raise TriageError(
        said.format(
            where=where, closest=closest, problems="; ".join(problems[:3]), n=format_int(more)
        )
    )


def add_missing_indexes(conn: Connection, rev: str) -> None:
    """A recognised store gets back any index its revision has and it lost: indexes hold no
    data, and the releases before Alembic re-created them at every start."""
    have = set(_shape_of(conn).indexes)
    for name, (table, columns) in shapes()[rev].indexes.items():
        if name not in have:
            conn.exec_driver_sql(f"CREATE INDEX {name} ON {table} ({', '.join(columns)})")
