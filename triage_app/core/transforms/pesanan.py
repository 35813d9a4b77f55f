"""``pesanan@1`` and ``pesanan@2``: the seed's order transform (document 000).

v1 reads ``diskon`` as given, so a ``null`` discount fails with a TypeError: valid data
the code mishandles, a ``code``-class failure kept on purpose. v2 treats a missing or
null discount as 0.
"""

from __future__ import annotations

from typing import Any

from triage_app.core.errors import DataError
from triage_app.core.transforms.registry import Column, Transform

REQUIRED = ("pesanan_id", "waktu", "pelanggan", "produk", "qty", "harga")
COLUMNS = (
    Column("pesanan_id", "int"),
    Column("waktu", "text"),
    Column("pelanggan", "text"),
    Column("produk", "text"),
    Column("qty", "int"),
    Column("harga", "int"),
    Column("total", "int"),
)


def _checked(d: Any) -> Any:
    if type(d) is not dict:
        raise DataError(f"record bukan objek JSON: {type(d).__name__}")
    for name in REQUIRED:
        if name not in d:
            raise DataError(f"kolom wajib hilang: {name}")
    qty = d["qty"]
    # type() rather than isinstance: a bool is an int to Python but never a quantity.
    if type(qty) is not int or qty <= 0:
        raise DataError(f"qty tidak valid: {qty!r}")
    if type(d["pesanan_id"]) is not int:
        raise DataError(f"pesanan_id tidak valid: {d['pesanan_id']!r}")
    if type(d["harga"]) is not int:
        raise DataError(f"harga tidak valid: {d['harga']!r}")
    for name in ("waktu", "pelanggan", "produk"):
        if type(d[name]) is not str:
            raise DataError(f"{name} tidak valid: {d[name]!r}")
    return d


def pesanan_v1(record: Any) -> tuple[Any, ...]:
    d = _checked(record)
    qty, harga = d["qty"], d["harga"]
    total = qty * harga - d["diskon"]  # the seed's bug: a null diskon raises TypeError
    return (d["pesanan_id"], d["waktu"], d["pelanggan"], d["produk"], qty, harga, total)


def pesanan_v2(record: Any) -> tuple[Any, ...]:
    d = _checked(record)
    qty, harga = d["qty"], d["harga"]
    diskon = d.get("diskon") or 0
    if type(diskon) is not int:
        raise DataError(f"diskon tidak valid: {diskon!r}")
    return (
        d["pesanan_id"],
        d["waktu"],
        d["pelanggan"],
        d["produk"],
        qty,
        harga,
        qty * harga - diskon,
    )


TRANSFORMS = (
    Transform(
        "pesanan",
        1,
        "pesanan",
        "pesanan_id",
        COLUMNS,
        pesanan_v1,
        description="seed 000 orders; a null diskon fails (code class)",
    ),
    Transform(
        "pesanan",
        2,
        "pesanan",
        "pesanan_id",
        COLUMNS,
        pesanan_v2,
        description="seed 000 orders; a missing or null diskon counts as 0",
    ),
)
