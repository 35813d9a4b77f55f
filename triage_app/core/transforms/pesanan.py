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


def _reject(d: Any) -> DataError:
    """Why ``d`` is not a valid order, in the seed's words; called only once it failed."""
    if type(d) is not dict:
        return DataError(f"record bukan objek JSON: {type(d).__name__}")
    for name in REQUIRED:
        if name not in d:
            return DataError(f"kolom wajib hilang: {name}")
    qty = d["qty"]
    # type() rather than isinstance: a bool is an int to Python but never a quantity.
    if type(qty) is not int or qty <= 0:
        return DataError(f"qty tidak valid: {qty!r}")
    for name, kind in (
        ("pesanan_id", int),
        ("harga", int),
        ("waktu", str),
        ("pelanggan", str),
        ("produk", str),
    ):
        if type(d[name]) is not kind:
            return DataError(f"{name} tidak valid: {d[name]!r}")
    return DataError("pesanan tidak valid")


def _fields(d: Any) -> tuple[Any, Any, Any, Any, int, int]:
    """The required fields, checked. The common case is one lookup and one type test per
    field; the explanation of a failure is left to ``_reject``."""
    try:
        pid, waktu, pelanggan, produk = d["pesanan_id"], d["waktu"], d["pelanggan"], d["produk"]
        qty, harga = d["qty"], d["harga"]
    except (KeyError, TypeError):
        raise _reject(d) from None
    if (
        type(qty) is not int
        or qty <= 0
        or type(pid) is not int
        or type(harga) is not int
        or type(waktu) is not str
        or type(pelanggan) is not str
        or type(produk) is not str
    ):
        raise _reject(d)
    return pid, waktu, pelanggan, produk, qty, harga


def pesanan_v1(record: Any) -> tuple[Any, ...]:
    pid, waktu, pelanggan, produk, qty, harga = _fields(record)
    total = qty * harga - record["diskon"]  # the seed's bug: a null diskon raises TypeError
    return (pid, waktu, pelanggan, produk, qty, harga, total)


def pesanan_v2(record: Any) -> tuple[Any, ...]:
    pid, waktu, pelanggan, produk, qty, harga = _fields(record)
    diskon = record.get("diskon") or 0
    if type(diskon) is not int:
        raise DataError(f"diskon tidak valid: {diskon!r}")
    return (pid, waktu, pelanggan, produk, qty, harga, qty * harga - diskon)


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
