"""A set of dead-letter ids as one bound value, however many: the way every statement that
acts on chosen rows names them (claims, settles, changes by hand, the trail)."""

from __future__ import annotations

from collections.abc import Sequence

import orjson
from sqlalchemy import ARRAY, BigInteger, Connection, String, any_, bindparam, func, select
from sqlalchemy.sql.elements import ColumnElement

from triage_app.core.db import DeadLetter as DL


def id_in(conn: Connection, ids: Sequence[int]) -> ColumnElement[bool]:
    """``id IN ids`` as one bound value, however many ids: a JSON array that SQLite reads
    with ``json_each``, an array on PostgreSQL. Thousands of ids as separate parameters
    cost more to render and bind than the statement costs to run."""
    values = [int(i) for i in ids]
    if conn.dialect.name == "postgresql":
        return DL.id == any_(bindparam(None, values, type_=ARRAY(BigInteger())))
    each = func.json_each(bindparam(None, orjson.dumps(values).decode(), type_=String()))
    return DL.id.in_(select(each.table_valued("value").c.value))
