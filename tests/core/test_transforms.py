"""The transform registry, the built-ins, and plugins through entry points."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from triage_app.core import DataError, TriageError, default_registry
from triage_app.core.transforms.orders import orders_v1
from triage_app.core.transforms.pesanan import pesanan_v1, pesanan_v2

GOOD = {
    "pesanan_id": 1,
    "waktu": "w",
    "pelanggan": "p",
    "produk": "x",
    "qty": 2,
    "harga": 100,
    "diskon": 30,
}


def test_builtins_declare_their_tables() -> None:
    reg = default_registry()
    assert [t.ref for t in reg.all()] == ["orders@1", "pesanan@1", "pesanan@2"]
    p2 = reg.get("pesanan@2")
    assert p2.column_names == (
        "pesanan_id",
        "waktu",
        "pelanggan",
        "produk",
        "qty",
        "harga",
        "total",
    )
    assert (p2.table, p2.key, p2.ordering) == ("pesanan", "pesanan_id", None)
    o1 = reg.get("orders")  # a bare name is the newest version
    assert o1.column_names == ("order_id", "pelanggan", "status", "total", "updated_at")
    assert (o1.key, o1.ordering) == ("order_id", "updated_at")
    assert reg.newest("pesanan").version == 2


def test_pesanan_rules() -> None:
    assert pesanan_v2(GOOD)[-1] == 170
    assert pesanan_v2({**GOOD, "diskon": None})[-1] == 200
    assert pesanan_v2({k: v for k, v in GOOD.items() if k != "diskon"})[-1] == 200
    with pytest.raises(TypeError):
        pesanan_v1({**GOOD, "diskon": None})  # the seed's deliberate bug
    for bad, msg in [
        ({**GOOD, "qty": True}, "qty tidak valid: True"),
        ({**GOOD, "qty": 0}, "qty tidak valid: 0"),
        ({**GOOD, "qty": 1.5}, "qty tidak valid: 1.5"),
        ({k: v for k, v in GOOD.items() if k != "harga"}, "kolom wajib hilang"),
        ([1, 2], "bukan objek"),
        ({**GOOD, "pesanan_id": "7"}, "pesanan_id tidak valid"),
    ]:
        with pytest.raises(DataError, match=msg):
            pesanan_v2(bad)


def test_orders_rules() -> None:
    row = orders_v1(
        {
            "order_id": "3001",
            "pelanggan": "Budi",
            "status": " Selesai ",
            "total": "250000",
            "updated_at": "2026-01-09T18:20:00",
        }
    )
    assert row == (3001, "Budi", "selesai", 250000, "2026-01-09T18:20:00")
    with pytest.raises(DataError, match="negatif"):
        orders_v1(
            {"order_id": "1", "pelanggan": "x", "status": "a", "total": "-1", "updated_at": "t"}
        )


def test_unknown_transform_is_a_clear_error() -> None:
    with pytest.raises(TriageError, match="known: orders@1, pesanan@1, pesanan@2"):
        default_registry().get("pesanan@9")


def test_plugin_registers_through_entry_point(tmp_path: Path) -> None:
    """A package that declares ``triage_app.transforms`` adds its transforms."""
    (tmp_path / "acme_transforms.py").write_text(
        textwrap.dedent("""
        from triage_app.core.transforms import Column, Transform

        def _fn(rec):
            return (rec["sku"], rec["name"].title())

        TRANSFORMS = [Transform("produk", 1, "produk", "sku",
                                (Column("sku", "text"), Column("name", "text")), _fn)]

        def transforms():
            return TRANSFORMS
    """)
    )
    dist = tmp_path / "acme_transforms-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-transforms\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[triage_app.transforms]\nacme = acme_transforms:transforms\n"
    )
    code = (
        "from triage_app.core import default_registry as r; "
        "t = r().get('produk@1'); print(t.ref, t.fn({'sku': 'A1', 'name': 'kain batik'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "produk@1 ('A1', 'Kain Batik')"
