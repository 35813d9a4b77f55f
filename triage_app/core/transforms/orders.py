"""``orders@1``: the seed's idempotent CSV pipeline (document 001).

Status is lower-cased, total is an integer >= 0, and where the same order arrives more
than once the newest ``updated_at`` wins.
"""

from __future__ import annotations

from typing import Any

from triage_app.core.errors import DataError
from triage_app.core.messages import N_
from triage_app.core.transforms.transform import Column, Transform

COLUMNS = (
    Column("order_id", "int"),
    Column("pelanggan", "text"),
    Column("status", "text"),
    Column("total", "int"),
    Column("updated_at", "text"),
)


def _int(value: Any, name: str) -> int:
    if type(value) is int:
        return value
    if type(value) is str and value.strip().lstrip("-").isdigit():
        return int(value)
    raise DataError(f"{name} bukan bilangan bulat: {value!r}")


def orders_v1(record: Any) -> tuple[Any, ...]:
    if type(record) is not dict:
        raise DataError(f"record bukan objek: {type(record).__name__}")
    for name in ("order_id", "pelanggan", "status", "total", "updated_at"):
        if name not in record or record[name] in (None, ""):
            raise DataError(f"kolom wajib hilang: {name}")
    total = _int(record["total"], "total")
    if total < 0:
        raise DataError(f"total negatif: {total}")
    status = record["status"]
    if type(status) is not str:
        raise DataError(f"status tidak valid: {status!r}")
    return (
        _int(record["order_id"], "order_id"),
        str(record["pelanggan"]),
        status.strip().lower(),
        total,
        str(record["updated_at"]),
    )


# The fast path: one record's raw bytes straight to its row, for a file whose header is the
# columns above in order (the chunk parser checks that). It takes only the plain case and
# declines the rest, so every failure keeps the reference path's words:
# - no quote, CR or LF: then the csv module splits the record on commas and nothing else;
# - exactly five fields, none empty (a missing or extra field, an empty one: declined);
# - order_id and total as ASCII digits only: the reference also takes a sign, spaces or
#   other scripts' digits, and refuses some of those in its own words;
# - the bytes as strict UTF-8, as the reference decodes them (else it raises; so does this).
# tests/core/transforms/test_orders_fast.py checks the agreement on hostile, seed and
# random records.
class _AskReference(Exception):
    """The fast path declines a record; the reference path will say why."""


def orders_v1_fast(raw: bytes) -> tuple[Any, ...]:
    if b'"' in raw or b"\n" in raw or b"\r" in raw:
        raise _AskReference
    oid, pelanggan, status, total, updated_at = raw.decode().split(",")
    if not (
        oid.isdigit()
        and oid.isascii()
        and total.isdigit()
        and total.isascii()
        and pelanggan
        and status
        and updated_at
    ):
        raise _AskReference
    return (int(oid), pelanggan, status.strip().lower(), int(total), updated_at)


TRANSFORMS = (
    Transform(
        "orders",
        1,
        "orders",
        "order_id",
        COLUMNS,
        orders_v1,
        ordering="updated_at",
        input_format="csv",
        description=N_("seed 001 orders CSV; newest updated_at wins"),
        fast=orders_v1_fast,
        personal_fields=("pelanggan",),  # the customer's name: shown masked
    ),
)
