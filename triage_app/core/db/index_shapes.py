"""Indexes that end in the id, written for each database (schema 0009).

A page of the quarantine table is sorted by a column and then the id, or pinned to one
value of a column and sorted by the id. An index on ``(column, id)`` gives both without a
sort. In SQLite every index entry ends in the rowid, which is the id: an index on the
column alone already is ``(column, id)``, and naming the id again would store it twice (30%
more index, 2.06x the seed's database instead of 1.94x on a bad day). PostgreSQL's entries
end in a heap position instead, so there the id must be a key column.

An index declared with ``info=ENDS_IN_ROWID`` names the id last; on SQLite its DDL leaves
it out. The store then reads back one column where the model names two, which is the same
index: ``same_shape`` says so for the schema comparison.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateIndex, Index

ENDS_IN_ROWID = {"ends_in_rowid": True}
_ROWID = "id"


def ends_in_rowid(index: Index) -> bool:
    return bool(index.info.get("ends_in_rowid"))


@compiles(CreateIndex, "sqlite")
def _create_index_sqlite(create: CreateIndex, compiler: Any, **kw: Any) -> str:
    sql: str = compiler.visit_create_index(create, **kw)
    if not ends_in_rowid(create.element):
        return sql
    tail = f", {_ROWID})"
    if not sql.endswith(tail):
        raise ValueError(f"index {create.element.name} does not end in the id: {sql}")
    return sql[: -len(tail)] + ")"


@compiles(CreateIndex, "postgresql")
def _create_index_postgresql(create: CreateIndex, compiler: Any, **kw: Any) -> str:
    """A partial index on PostgreSQL: its WHERE kept in ``info`` (``postgresql_where``, a
    condition as SQL text), since the dialect's own keyword would import the dialect when the
    models load."""
    sql: str = compiler.visit_create_index(create, **kw)
    where = create.element.info.get("postgresql_where")
    return f"{sql} WHERE {where}" if where else sql


def same_shape(model: Index, stored_columns: list[str], dialect: str) -> bool:
    """Whether a stored index with ``stored_columns`` is ``model`` as ``dialect`` writes it."""
    names = [c.name for c in model.columns]
    if dialect == "sqlite" and ends_in_rowid(model):
        names = names[:-1]
    return names == stored_columns
