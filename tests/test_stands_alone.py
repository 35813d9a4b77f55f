"""The repository stands alone: no file names a path outside it, so a clone anywhere, with
nothing beside it, installs, runs and passes its tests (CI runs the suite in such a clone:
.ci/run)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.support import REPO

# A sibling folder of the checkout, or an absolute path on one machine.
OUTSIDE = re.compile(r"\.\./shared|/work/\w|[\"']/(?:home|root|tmp)/\w|parents\[[3-9]\]")
TEXT = {".py", ".md", ".toml", ".cfg", ".ini", ".txt", ".sh", ".yml", ".yaml", ".json", ""}
# Test inputs are bytes, not paths; this file spells out what it looks for.
NOT_CHECKED = ("tests/conformance/", "tests/hostile/", "tests/test_stands_alone.py")


def repository_files() -> list[Path]:
    """The files a clone gets: what git tracks, text only."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return [
        REPO / name
        for name in listed.split("\0")
        if name
        and not name.startswith(NOT_CHECKED)
        and Path(name).suffix in TEXT
        and (REPO / name).is_file()
    ]


def test_no_file_names_a_path_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in repository_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_the_check_would_catch_one() -> None:
    # Spelled in pieces, so that this file does not itself name such a path.
    for line in (
        "BENCH = " + '".' + './shared/bench"',
        "GEN = Path(" + '"/wo' + 'rk/shared/bench/gen_batch.py")',
        "SUITE = Path(__file__).resolve().parents[" + "3] / 'elsewhere'",
    ):
        assert OUTSIDE.search(line), line
