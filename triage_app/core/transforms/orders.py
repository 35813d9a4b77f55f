"""``orders@1``: the seed's idempotent CSV pipeline (document 001).

Status is lower-cased, total is an integer >= 0, and where the same order arrives more
than once the newest ``updated_at`` wins.
"""

from __future__ import annotations

from typing import Any

from triage_app.core.errors import DataError
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
        description="seed 001 orders CSV; newest updated_at wins",
    ),
)
