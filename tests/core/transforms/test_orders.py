"""``orders@1``: the seed's CSV orders (document 001): status lower-cased, total an integer
no lower than 0."""

from __future__ import annotations

import pytest

from triage_app.core.errors import DataError
from triage_app.core.transforms.orders import orders_v1


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
