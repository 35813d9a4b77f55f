"""verify-idempotent: a file run twice into scratch databases leaves the same warehouse
(SHA-256) and the same dead letters, and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import SEED_ORDERS, gen_batch
from triage_app.cli import main
from triage_app.core.verify import verify_idempotent


def test_verify_idempotent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = gen_batch(tmp_path / "d.jsonl", 2_000, bad=0.05)
    proof = verify_idempotent(src, "pesanan@2")
    assert proof.identical and proof.same_dead_letters
    assert proof.first_sha256 == proof.second_sha256 and proof.quarantined > 0
    assert main(["verify-idempotent", str(SEED_ORDERS), "--transform", "orders@1"]) == 0
    assert capsys.readouterr().out.startswith("idempotent: two runs of 6 rows")
