"""The next file to load from a folder: the newest whose name no batch has, of a format
the transform reads when asked; nothing from a folder that is not there."""

from __future__ import annotations

import os
from pathlib import Path

from triage_app.core.batch import batch_files, next_batch_file


def touch(path: Path, mtime: int) -> Path:
    path.write_text("x\n")
    os.utime(path, (mtime, mtime))
    return path


def test_the_newest_file_not_loaded_yet(tmp_path: Path) -> None:
    old = touch(tmp_path / "pesanan_2026-01-11.jsonl", 1_000)
    new = touch(tmp_path / "pesanan_2026-01-12.jsonl", 2_000)
    csv = touch(tmp_path / "orders_2026-01-13.csv", 3_000)
    touch(tmp_path / "notes.txt", 4_000)  # not a batch: its name says no format
    (tmp_path / "archive.jsonl").mkdir()  # nor is a folder
    assert batch_files(tmp_path) == [csv, new, old]
    assert next_batch_file(tmp_path, loaded=set()) == csv
    assert next_batch_file(tmp_path, loaded={csv.name}) == new
    assert next_batch_file(tmp_path, loaded={csv.name, new.name}) == old
    assert next_batch_file(tmp_path, loaded=set(), formats={"jsonl"}) == new
    assert next_batch_file(tmp_path, loaded={csv.name, new.name, old.name}) is None


def test_a_folder_that_is_not_there_offers_nothing(tmp_path: Path) -> None:
    assert batch_files(tmp_path / "gone") == []
    assert next_batch_file(tmp_path / "gone", loaded=set()) is None
