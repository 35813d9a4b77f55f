"""Where a test of the engine runs: a SQLite workspace folder, or a team store on PostgreSQL
(``place``, a fixture a conftest takes in by importing it), and the workspace it opens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from triage_app.core.db import Workspace, open_workspace


@pytest.fixture(params=["sqlite", "postgresql"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    if request.param == "sqlite":
        yield {"folder": tmp_path / "ws"}
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        yield {"folder": None, "warehouse_url": wh, "dead_letter_url": dl}


def open_place(place: dict[str, Any]) -> Workspace:
    return open_workspace(place["folder"], **{k: v for k, v in place.items() if k != "folder"})
