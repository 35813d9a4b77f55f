"""A batch speaks the user's language (issue 28): its summary, with Indonesian numbers and
counted words, and its refusals of bad input; a second lane started as a fresh interpreter
speaks the parent's; ``--json`` is the same bytes in both languages."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from tests.support import cli
from triage_app.core import messages
from triage_app.core.batch import (
    BatchSummary,
    SourceGone,
    SourcesForgotten,
    csv_header_names,
    describe_retention,
    human_size,
    run_batch,
)
from triage_app.core.batch.lanes import LaneTask, _read_frame, _write_frame, serve
from triage_app.core.batch.source import check_input_format
from triage_app.core.db import Workspace
from triage_app.core.errors import TriageError
from triage_app.core.transforms import default_registry


def _summary(**changes: object) -> BatchSummary:
    fields: dict[str, object] = {
        "batch_id": "1a2b3c4d5e6f7a8b",
        "source_name": "orders.jsonl",
        "transform": "pesanan@2",
        "format": "jsonl",
        "rows": 1_234_567,
        "loaded": 1_200_000,
        "superseded": 30_000,
        "quarantined": 4_567,
        "by_class": {"data": 4_000, "code": 560, "transient": 7},
        "seconds": 12.345,
        "already_loaded": False,
    }
    fields.update(changes)
    return BatchSummary(**fields)  # type: ignore[arg-type]


def test_a_summary_in_english_groups_its_thousands() -> None:
    assert _summary().describe() == (
        "Batch 1a2b3c4d5e6f7a8b: 1,234,567 rows, 1,200,000 loaded, 30,000 superseded, "
        "4,567 quarantined (4,000 data, 560 code, 7 transient) in 12.35 s."
    )


def test_a_summary_in_indonesian(indonesian: None) -> None:
    assert _summary().describe() == (
        "Batch 1a2b3c4d5e6f7a8b: 1.234.567 baris, 1.200.000 dimuat, 30.000 tergantikan, "
        "4.567 dikarantina (4.000 cacat data, 560 bug kode, 7 sementara) dalam 12,35 dtk."
    )
    resumed = _summary(resumed=True).describe()
    assert resumed.startswith("Batch 1a2b3c4d5e6f7a8b dilanjutkan: 1.234.567 baris")
    cancelled = _summary(cancelled=True).describe()
    assert cancelled.startswith("Dibatalkan 1a2b3c4d5e6f7a8b: ")
    assert cancelled.endswith(
        "Jalankan lagi berkas yang sama untuk melanjutkan dari titik berhentinya."
    )
    again = _summary(already_loaded=True).describe()
    assert again.startswith("Batch 1a2b3c4d5e6f7a8b sudah dimuat: tidak ada yang perlu dilakukan")


@pytest.mark.parametrize(
    ("lang", "n", "rows", "held"),
    [
        ("en", 1, "(1 row: 1 quarantined)", "held: 1 row waits until"),
        ("en", 3, "(3 rows: 1 quarantined)", "held: 3 rows wait until"),
        ("id", 1, "(1 baris: 1 dikarantina)", "ditahan: 1 baris menunggu sampai"),
        ("id", 3, "(3 baris: 1 dikarantina)", "ditahan: 3 baris menunggu sampai"),
    ],
)
def test_a_counted_text_is_right_for_one_and_for_many(
    lang: str, n: int, rows: str, held: str
) -> None:
    messages.use_language(lang)
    try:
        s = _summary(rows=n, quarantined=1, already_loaded=True, state="held", held=n)
        text = s.describe()
    finally:
        messages.use_language("en")
    assert rows in text and held in text, text


def test_a_discarded_batch_counts_each_of_its_parts(indonesian: None) -> None:
    s = _summary(rows=4, quarantined=1, held=3, state="discarded")
    assert s.describe() == (
        "Batch 1a2b3c4d5e6f7a8b dibuang seluruhnya: tidak ada bagiannya yang dimuat "
        "(4 baris: 1 dead letter dibuang, 3 baris tertahan dilepas)."
    )
    messages.use_language("en")
    assert s.describe() == (
        "Batch 1a2b3c4d5e6f7a8b was discarded whole: nothing of it loaded "
        "(4 rows: 1 dead letter discarded, 3 held rows dropped)."
    )


def test_bad_input_is_refused_in_indonesian(indonesian: None) -> None:
    with pytest.raises(TriageError) as one:
        csv_header_names(b"id,nama,id")
    assert str(one.value) == "header CSV mengulang kolom: id"
    with pytest.raises(TriageError) as two:
        csv_header_names(b"a,b,a,b")
    assert str(two.value) == "header CSV mengulang kolom: a, b"
    with pytest.raises(TriageError) as empty:
        csv_header_names(b"")
    assert str(empty.value) == "berkas CSV tidak memiliki baris header"
    reg = default_registry()
    with pytest.raises(TriageError) as fmt:
        check_input_format(reg.get("orders@1"), "jsonl", reg)
    assert str(fmt.value).startswith(
        "orders@1 membaca csv, sedangkan berkasnya jsonl: gunakan jurnal@1 atau pesanan@1 "
        "atau pesanan@2"
    )


def test_the_plural_of_a_repeated_column_in_english() -> None:
    with pytest.raises(TriageError, match=r"^the CSV header repeats column: id$"):
        csv_header_names(b"id,id")
    with pytest.raises(TriageError, match=r"^the CSV header repeats columns: a, b$"):
        csv_header_names(b"a,a,b,b")


def test_kept_sources_in_indonesian(indonesian: None) -> None:
    assert human_size(1) == "1 byte"
    assert human_size(999) == "999 byte"
    assert human_size(1_500_000) == "1,5 MB"
    assert describe_retention(None) == "sumber disimpan selamanya"
    assert describe_retention(90) == "sumber disimpan selama 90 hari"
    import datetime as dt

    cutoff = dt.datetime(2026, 9, 1)
    went = SourcesForgotten(90, cutoff, False, ["ab" * 32], 2_000_000, 1_500_000, 1)
    assert went.describe() == (
        "Sumber tersimpan: 1 sumber yang disimpan lebih dari 90 hari lalu telah dilupakan "
        "(1,5 MB tersimpan); 1 sumber dari batch yang sedang berjalan atau ditahan tetap "
        "disimpan."
    )
    gone = SourceGone("1a2b3c4d5e6f7a8b", "ab" * 32)
    assert str(gone).startswith("sumber batch 1a2b3c4d5e6f7a8b tidak disimpan")
    assert gone.said.english.startswith("the source of batch 1a2b3c4d5e6f7a8b is not kept")


def test_sizes_and_days_in_english() -> None:
    assert (human_size(1), human_size(2), human_size(1_500_000)) == ("1 byte", "2 bytes", "1.5 MB")
    assert describe_retention(1) == "kept sources stay 1 day"
    assert describe_retention(90) == "kept sources stay 90 days"


def test_a_run_in_indonesian_says_its_counts(
    workspace: Workspace, seed_batch: Path, indonesian: None
) -> None:
    s = run_batch(workspace, seed_batch, "pesanan@2")
    text = s.describe()
    assert text.startswith(f"Batch {s.batch_id}: 10 baris, 7 dimuat, 0 tergantikan, 3 dikarantina")
    assert "(3 cacat data)" in text and " dtk." in text


def test_a_second_lane_speaks_the_language_it_is_given(tmp_path: Path) -> None:
    """A lane started as a fresh interpreter (the window's) learns the parent's language from
    its first frame: a refusal it reports is the line the parent raises."""
    task = LaneTask(
        path=str(tmp_path / "b.jsonl"),
        fd=None,
        size=0,
        mtime_ns=0,
        sha256="ab" * 32,
        steps=[],
        fmt="jsonl",
        transform="pesanan@2",
        batch_id="1a2b3c4d5e6f7a8b",
        resume_after=0,
        chunk_size=10,
        actor="ani@laptop",
        retry_attempts=1,
        retry_base=0.0,
        retry_max=0.0,
    )
    inbox, outbox = io.BytesIO(), io.BytesIO()
    header = {
        "warehouse": "mysql://nowhere/wh",
        "store": "sqlite://",
        "task": task.__dict__,
        "language": "id",
    }
    _write_frame(inbox, header)
    inbox.seek(0)
    try:
        assert serve(inbox, outbox) == 1
    finally:
        messages.use_language("en")
    outbox.seek(0)
    said = _read_frame(outbox)
    assert said is not None
    assert said["error"] == "warehouse: mysql tidak didukung; gunakan sqlite atau postgresql"


def _env(lang: str) -> dict[str, str]:
    return {**os.environ, "TRIAGE_LANG": lang}


def test_the_command_line_in_indonesian_and_its_json_in_both(
    tmp_path: Path, seed_batch: Path
) -> None:
    ws = str(tmp_path / "ws")
    run = cli("--workspace", ws, "run", str(seed_batch), "--transform", "pesanan@2", env=_env("id"))
    assert run.returncode == 0, run.stderr
    assert "10 baris, 7 dimuat, 0 tergantikan, 3 dikarantina (3 cacat data)" in run.stdout
    bad = cli(
        "--workspace",
        ws,
        "run",
        str(tmp_path / "x.txt"),
        "--transform",
        "pesanan@2",
        env=_env("id"),
    )
    assert bad.returncode != 0
    assert "format x.txt tidak dapat dikenali: berikan --format jsonl atau csv" in bad.stderr
    batch_id = run.stdout.split(":")[0].removeprefix("Batch ")
    said = {
        lang: cli("--workspace", ws, "--json", "sources", env=_env(lang)) for lang in ("en", "id")
    }
    assert said["en"].returncode == 0, said["en"].stderr
    assert said["en"].stdout == said["id"].stdout
    assert batch_id in said["id"].stdout  # reconcile --json: tests/core/verify
