"""The files waiting in a folder to be run: what the batch dialog offers first, so that it
opens on the next file to load rather than on an empty field."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from triage_app.core.batch.readers import detect_format
from triage_app.core.errors import TriageError
from triage_app.core.places import printable


def batch_files(folder: Path) -> list[Path]:
    """The files in ``folder`` whose name says a format (JSONL or CSV), newest first (by
    modification time, then name); none when the folder is not there."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found: list[tuple[float, str, Path]] = []
    for path in entries:
        try:
            detect_format(path)
            if path.is_file():
                found.append((-path.stat().st_mtime, path.name, path))
        except (TriageError, OSError):
            continue
    return [path for *_, path in sorted(found)]


def next_batch_file(
    folder: Path, loaded: Collection[str], formats: Collection[str] | None = None
) -> Path | None:
    """The newest file in ``folder`` that no loaded batch came from (by name), of one of
    ``formats`` when given; None when every one is loaded."""
    for path in batch_files(folder):
        if printable(path.name) in loaded:
            continue
        if formats is None or detect_format(path) in formats:
            return path
    return None
