"""``pesanan@1`` and ``pesanan@2``: the seed's order transform (document 000).

v1 reads ``diskon`` as given, so a ``null`` discount fails with a TypeError: valid data
the code mishandles, a ``code``-class failure kept on purpose. v2 treats a missing or
null discount as 0.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from triage_app.core.errors import DataError
from triage_app.core.messages import N_
from triage_app.core.transforms.transform import Column, Transform

REQUIRED = ("pesanan_id", "waktu", "pelanggan", "produk", "qty", "harga")
# The customer's name: personal data, shown masked (core/masking.py).
PERSONAL = ("pelanggan",)
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


# The fast path: msgspec decodes and type-checks a record in C, about twice as fast as
# orjson.loads and the checks above in Python. It only ever says yes; for anything it
# refuses, the functions above decide, so every failure keeps the seed's words.
#
# It must accept nothing the reference path refuses and build the same row:
# - only 64-bit signed integers: orjson reads larger ones as floats, which the reference
#   refuses (and its unsigned range, which it reads as ints, the fast path declines);
# - no fields but these: an unknown field could hold a number orjson cannot read
#   (1e400), which fails the whole record there.
# tests/core/test_fast_path.py checks the agreement on hostile, conformance and random
# records.
_Int = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]


class _Order(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    pesanan_id: _Int
    waktu: str
    pelanggan: str
    produk: str
    qty: _Int
    harga: _Int


class _OrderV1(_Order):  # the base's settings carry over
    diskon: _Int  # v1 needs it, as an integer: anything else goes the reference way


class _OrderV2(_Order):
    diskon: _Int | None = None


_decode_v1 = msgspec.json.Decoder(_OrderV1).decode
_decode_v2 = msgspec.json.Decoder(_OrderV2).decode


class _AskReference(Exception):
    """The fast path declines a record; the reference path will say why."""


def pesanan_v1_fast(raw: bytes) -> tuple[Any, ...]:
    o = _decode_v1(raw)
    qty, harga = o.qty, o.harga
    if qty <= 0:
        raise _AskReference
    return (o.pesanan_id, o.waktu, o.pelanggan, o.produk, qty, harga, qty * harga - o.diskon)


def pesanan_v2_fast(raw: bytes) -> tuple[Any, ...]:
    o = _decode_v2(raw)
    qty, harga = o.qty, o.harga
    if qty <= 0:
        raise _AskReference
    diskon = o.diskon or 0
    return (o.pesanan_id, o.waktu, o.pelanggan, o.produk, qty, harga, qty * harga - diskon)


TRANSFORMS = (
    Transform(
        "pesanan",
        1,
        "pesanan",
        "pesanan_id",
        COLUMNS,
        pesanan_v1,
        description=N_("seed 000 orders; a null diskon fails (code class)"),
        fast=pesanan_v1_fast,
        personal_fields=PERSONAL,
    ),
    Transform(
        "pesanan",
        2,
        "pesanan",
        "pesanan_id",
        COLUMNS,
        pesanan_v2,
        description=N_("seed 000 orders; a missing or null diskon counts as 0"),
        fast=pesanan_v2_fast,
        personal_fields=PERSONAL,
    ),
)
