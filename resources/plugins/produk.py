"""A sample transform plugin: ``produk@1``, a product catalogue in JSON Lines.

To use it, copy this file into the ``plugins`` folder of Triage Desk's data folder
(``triage-app transforms`` prints where that is) and run, for example:

    triage-app run katalog.jsonl --transform produk@1

Each line is one product: ``{"sku": "BTK-01", "nama": "kain batik", "harga": 125000}``.
A row without a SKU, or with a price that is not a whole number of 0 or more, fails with a
``DataError`` and goes to the dead letters like any other bad row; the newest ``diubah``
(changed at) wins when the same SKU comes twice.

A plugin may import the standard library and ``triage_app``; the packaged app carries no
other packages for it, so anything else must live in the plugin's own folder.
"""

from __future__ import annotations

from typing import Any

from triage_app.core.errors import DataError
from triage_app.core.transforms import Column, Transform


def _produk(record: Any) -> tuple[str, str, int, str]:
    if type(record) is not dict:
        raise DataError(f"record bukan objek JSON: {type(record).__name__}")
    sku = record.get("sku")
    if type(sku) is not str or not sku.strip():
        raise DataError("kolom wajib hilang: sku")
    harga = record.get("harga")
    if type(harga) is not int or harga < 0:
        raise DataError(f"harga tidak valid: {harga!r}")
    nama = record.get("nama")
    if type(nama) is not str:
        raise DataError(f"nama tidak valid: {nama!r}")
    return sku.strip().upper(), " ".join(nama.split()).title(), harga, str(record.get("diubah", ""))


TRANSFORMS = [
    Transform(
        name="produk",
        version=1,
        table="produk",
        key="sku",
        columns=(
            Column("sku", "text"),
            Column("nama", "text"),
            Column("harga", "int"),
            Column("diubah", "text"),
        ),
        fn=_produk,
        ordering="diubah",
        description="sample plugin: a product catalogue (sku, nama, harga)",
    )
]
