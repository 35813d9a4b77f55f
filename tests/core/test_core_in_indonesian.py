"""The engine's own words in Bahasa Indonesia (issue 28): the jobs' titles, the progress
line, the retry ladder, the refusals of what a steward types or a file that changed, and
the registry's. Counted texts in the singular and the plural in both languages; numbers the
Indonesian way (1.234.567)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from triage_app.core import messages, text_input
from triage_app.core.errors import TriageError
from triage_app.core.fingerprint import Stamp, open_file
from triage_app.core.jobs import ConnectionTest, PurgeJob, RedriveJob, RetryJob
from triage_app.core.progress import Pace, describe_left, describe_pace
from triage_app.core.retry import DEFAULT_LADDER, Ladder, said_wait
from triage_app.core.transforms import Registry, default_registry


def test_job_titles_in_indonesian(indonesian: None) -> None:
    assert RetryJob().title == "putaran coba lagi"
    assert RedriveJob("pesanan@2").title == "kirim ulang dengan pesanan@2"
    assert RedriveJob(None, dry_run=True, to="original").title == (
        "pratinjau pengiriman ulang ke asal masing-masing apa adanya"
    )
    assert PurgeJob(1, ("resolved", "discarded")).title == (
        "hapus permanen dead letter selesai dan dibuang yang ditutup lebih dari 1 hari lalu"
    )
    assert PurgeJob(1_000, ("discarded",), batch="ab12").title == (
        "hapus permanen dead letter dibuang dari batch ab12 yang ditutup lebih dari 1.000 hari lalu"
    )


def test_a_purge_title_counts_its_days_in_english() -> None:
    assert (
        PurgeJob(1, ("resolved",)).title == "purge of resolved dead letters closed over 1 day ago"
    )
    assert PurgeJob(1_000, ("resolved", "discarded"), dry_run=True).title == (
        "preview of a purge of resolved and discarded dead letters closed over 1,000 days ago"
    )


def test_connection_test_in_indonesian(indonesian: None, tmp_path: Path) -> None:
    test = ConnectionTest(f"sqlite:///{tmp_path / 'wh.db'}", f"sqlite:///{tmp_path / 'dl.db'}")
    assert test.title == "uji koneksi"
    assert test.run() == (
        "✓ warehouse: dapat dijangkau\n✓ penyimpanan dead letter: dapat dijangkau"
    )


def test_the_progress_line_in_indonesian(indonesian: None) -> None:
    pace = Pace(84_000, 200_000, 84_000, 7.0, 12_300.0, 9.4)
    assert describe_pace(pace, "Mengirim ulang", done_counts_rows=True) == (
        "Mengirim ulang 84.000 dari 200.000 baris · 12.300 baris/dtk · sekitar 9 dtk lagi"
    )
    one = Pace(0, 1, 1, 0.0, None, None)
    assert describe_pace(one, "Memuat", done_counts_rows=False) == "Memuat: 1 baris, 0%"
    assert describe_left(3_900) == "sekitar 1 jam 05 mnt lagi"
    assert describe_left(0.5) == "kurang dari sedetik lagi"


def test_the_retry_ladder_in_indonesian(indonesian: None) -> None:
    assert DEFAULT_LADDER.words() == "5 mnt, 30 mnt, 2 jam, lalu diparkir"
    # A --json key stays English whatever the language.
    assert said_wait(dt.timedelta(minutes=30), english=True) == "30 min"
    with pytest.raises(TriageError, match=r"^bukan tangga coba ulang: '5x'; tulis jedanya"):
        Ladder.parse("5x")
    with pytest.raises(TriageError, match=r"^tangga coba ulang berisi 1 sampai 20 jeda"):
        Ladder(())


def test_what_a_steward_types_is_refused_in_indonesian(indonesian: None) -> None:
    with pytest.raises(TriageError) as bad:
        text_input.owner("ani\x1b]0;x")
    assert str(bad.value) == (
        "pemilik berisi \\x1b (ESC) pada karakter ke-4: karakter kendali tidak disimpan "
        "(isinya hanya satu baris)"
    )
    with pytest.raises(TriageError) as long:
        text_input.note("x" * 2_001)
    assert str(long.value) == "catatan panjangnya 2.001 karakter: paling banyak 2.000"


def test_a_file_refused_or_changed_is_said_in_indonesian(indonesian: None, tmp_path: Path) -> None:
    with pytest.raises(TriageError, match=r"^berkas tidak ditemukan: "):
        open_file(tmp_path / "missing.jsonl")
    with pytest.raises(TriageError, match=r"^berupa direktori, bukan berkas: "):
        open_file(tmp_path)
    assert Stamp(1_000, 1).change(Stamp(2_500_000, 1)) == (
        "ukurannya berubah dari 1.000 menjadi 2.500.000 byte"
    )


def test_the_registry_refuses_in_indonesian(indonesian: None) -> None:
    with pytest.raises(TriageError, match=r"^transformasi 'nope' tidak dikenal; yang dikenal: "):
        default_registry().get("nope")
    with pytest.raises(TriageError, match=r"seharusnya NAMA@VERSI$"):
        default_registry().get("pesanan@x")
    empty = Registry()
    empty.problems = ["plugin a.py: ImportError: x"]
    with pytest.raises(TriageError) as none:
        empty.get("a@1")
    assert str(none.value) == (
        "transformasi a@1 tidak dikenal; yang dikenal: tidak ada "
        "(1 plugin gagal dimuat: plugin a.py: ImportError: x)"
    )
    described = {t.ref: messages._(t.description) for t in default_registry().all()}
    assert described["jurnal@1"].startswith("posting jurnal seed 000")


def test_failed_plugins_are_counted_in_english() -> None:
    reg = Registry()
    reg.problems = ["plugin a.py: ImportError: x"]
    with pytest.raises(TriageError, match=r"none \(1 plugin failed to load: plugin a\.py"):
        reg.get("a@1")
    reg.problems = ["plugin a.py: ImportError: x", "plugin b.py: ImportError: y"]
    with pytest.raises(TriageError, match=r"none \(2 plugins failed to load: plugin a\.py"):
        reg.get("a@1")
