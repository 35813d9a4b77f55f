"""The transform registry, the built-ins, and plugins through entry points."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry


def test_builtins_declare_their_tables() -> None:
    reg = default_registry()
    assert [t.ref for t in reg.all()] == ["jurnal@1", "orders@1", "pesanan@1", "pesanan@2"]
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


def test_unknown_transform_is_a_clear_error() -> None:
    with pytest.raises(TriageError, match="known: jurnal@1, orders@1, pesanan@1, pesanan@2"):
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
        "from triage_app.core.transforms import default_registry as r; "
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
