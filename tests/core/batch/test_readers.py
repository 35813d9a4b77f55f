"""Readers keep raw bytes and line numbers; CSV records may span lines."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sqlalchemy import text

from triage_app.core.batch import run_batch
from triage_app.core.batch.readers import csv_header_names, detect_format, read_csv
from triage_app.core.db import Workspace
from triage_app.core.deadletters import get_dead_letter, list_dead_letters
from triage_app.core.errors import TriageError


def records(data: bytes) -> list[tuple[int, bytes]]:
    _header, recs = read_csv(io.BufferedReader(io.BytesIO(data)))  # type: ignore[arg-type]
    return list(recs.after(0))


def test_csv_records_span_lines_and_keep_start_line() -> None:
    data = b'a,b\n1,"x\ny"\n\n2,"say ""hi"""\r\n3,z'
    assert records(data) == [(2, b'1,"x\ny"'), (5, b'2,"say ""hi"""'), (6, b"3,z")]


def test_csv_resume_skips_committed_records() -> None:
    data = b"a\n1\n2\n3\n"
    _h, recs = read_csv(io.BufferedReader(io.BytesIO(data)))  # type: ignore[arg-type]
    assert list(recs.after(3)) == [(4, b"3")]


def test_csv_header_problems_are_one_line_refusals() -> None:
    with pytest.raises(TriageError, match="repeats column"):
        csv_header_names(b"a,b,a")
    with pytest.raises(TriageError, match="no header"):
        csv_header_names(b"")


def test_detect_format() -> None:
    assert detect_format(Path("x.JSONL")) == "jsonl"
    assert detect_format(Path("x.csv")) == "csv"
    assert detect_format(Path("x.txt"), "csv") == "csv"
    with pytest.raises(TriageError, match="--format"):
        detect_format(Path("x.txt"))


def test_csv_batch_with_ragged_rows_and_embedded_newline(
    workspace: Workspace, tmp_path: Path
) -> None:
    src = tmp_path / "orders.csv"
    src.write_bytes(
        b"\xef\xbb\xbforder_id,pelanggan,status,total,updated_at\r\n"
        b'1,"Budi\nSantoso",Baru,100,2026-01-01\r\n'
        b"2,Siti,Baru,100\r\n"  # ragged: a column short
        b"3,Dewi,Baru,-5,2026-01-01\r\n"  # negative total
        b"4,Rina,Baru,7,2026-01-01"  # no final newline
    )
    s = run_batch(workspace, src, "orders@1")
    assert (s.rows, s.loaded, s.quarantined) == (4, 2, 2)
    by_line = {d.line: d for d in list_dead_letters(workspace)}
    assert sorted(by_line) == [4, 5]  # the quoted newline makes record 1 two lines long
    assert "jumlah kolom" in by_line[4].error
    d = get_dead_letter(workspace, by_line[4].id, reveal=True)
    assert d.original_bytes == b"2,Siti,Baru,100" and d.csv_header is not None
    with workspace.warehouse.connect() as conn:
        names = dict(conn.execute(text("SELECT order_id, pelanggan FROM orders")).all())
    assert names == {1: "Budi\nSantoso", 4: "Rina"}


def test_bom_and_no_final_newline_jsonl(workspace: Workspace, tmp_path: Path) -> None:
    src = tmp_path / "b.jsonl"
    row = (
        '{"pesanan_id": %d, "waktu": "w", "pelanggan": "p", "produk": "x", "qty": 1, '
        '"harga": 5, "diskon": 0}'
    )
    src.write_bytes(b"\xef\xbb\xbf" + (row % 1).encode() + b"\r\n" + (row % 2).encode())
    s = run_batch(workspace, src, "pesanan@2")
    assert (s.rows, s.loaded, s.quarantined) == (2, 2, 0)


def test_unreadable_input_is_a_one_line_refusal(workspace: Workspace, tmp_path: Path) -> None:
    with pytest.raises(TriageError, match="no such file"):
        run_batch(workspace, tmp_path / "missing.jsonl", "pesanan@1")
    with pytest.raises(TriageError, match="unknown transform"):
        run_batch(workspace, tmp_path / "missing.jsonl", "nope@1")
    with pytest.raises(TriageError, match="NAME@VERSION"):
        run_batch(workspace, tmp_path / "missing.jsonl", "pesanan@x")
