"""A reprocess speaks the user's language (issue 28): its summary in Bahasa Indonesia with
Indonesian numbers, and why a row has no input in Indonesian where shown but in English in
``--json`` (the same JSON whatever the language)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.reprocess.crafted import registry, write_night
from triage_app.core import messages
from triage_app.core.batch import forget_sources, run_batch
from triage_app.core.db import open_workspace
from triage_app.core.reprocess import ReprocessSummary, reprocess

N = 40


def test_a_summary_in_indonesian_counts_for_one_and_many() -> None:
    one = ReprocessSummary("pesanan@1", "pesanan@2", None, True, checked=1, changed=1)
    many = ReprocessSummary(
        "pesanan@1",
        "pesanan@2",
        "1a2b3c4d5e6f7a8b",
        False,
        checked=12_345,
        unchanged=12_000,
        changed=300,
        failing=45,
        run_id="9f8e7d6c5b4a3210",
        applied=300,
        quarantined=45,
        by_class={"data": 45},
        seconds=3.25,
    )
    assert one.describe() == (
        "1 row last written by pesanan@1, run through pesanan@2: 0 unchanged, 1 changed, "
        "0 now failing. Nothing was written."
    )
    assert many.describe() == (
        "12,345 rows last written by pesanan@1 in batch 1a2b3c4d5e6f7a8b, run through "
        "pesanan@2: 12,000 unchanged, 300 changed, 45 now failing. Run 9f8e7d6c5b4a3210: 300 "
        "updated, 0 left alone (written since by a later batch or re-drive), 45 quarantined "
        "(45 data) in 3.25 s."
    )
    messages.use_language("id")
    try:
        assert one.describe() == (
            "1 baris yang terakhir ditulis oleh pesanan@1, dijalankan melalui pesanan@2: "
            "0 tidak berubah, 1 berubah, 0 kini gagal. Tidak ada yang ditulis."
        )
        assert many.describe() == (
            "12.345 baris yang terakhir ditulis oleh pesanan@1 di batch 1a2b3c4d5e6f7a8b, "
            "dijalankan melalui pesanan@2: 12.000 tidak berubah, 300 berubah, 45 kini gagal. "
            "Proses 9f8e7d6c5b4a3210: 300 diperbarui, 0 dibiarkan (sudah ditulis ulang oleh "
            "batch atau pengiriman ulang yang lebih baru), 45 dikarantina (45 cacat data) "
            "dalam 3,25 dtk."
        )
    finally:
        messages.use_language("en")


def test_a_row_without_input_is_said_in_indonesian_and_written_in_english(
    tmp_path: Path,
) -> None:
    with open_workspace(tmp_path / "ws") as ws:
        write_night(tmp_path / "night.jsonl", N)
        batch = run_batch(ws, tmp_path / "night.jsonl", "pesanan@1", registry=registry())
        assert forget_sources(ws, older_than=0).sources  # its source gone: no input
        english = reprocess(ws, "pesanan@1", "pesanan@2", dry_run=True, registry=registry())
        messages.use_language("id")
        try:
            s = reprocess(ws, "pesanan@1", "pesanan@2", dry_run=True, registry=registry())
        finally:
            messages.use_language("en")
    assert s.no_input == N
    assert f"Batch {batch.batch_id}: sumber batch {batch.batch_id} tidak disimpan" in s.describe()
    assert s.verdicts[0].suspect.missing is not None
    assert s.verdicts[0].suspect.missing.startswith("sumber batch")
    data, data_en = s.to_json(), english.to_json()
    for d in (data, data_en):
        d.pop("seconds")
    assert json.dumps(data) == json.dumps(data_en)
    assert data["missing"][batch.batch_id].startswith(
        f"the source of batch {batch.batch_id} is not kept"
    )
    assert data["rows"][0]["error"] == data["missing"][batch.batch_id]
