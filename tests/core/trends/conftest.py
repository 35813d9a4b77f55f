"""The crafted workspace whose trends were counted by hand (tests/support/crafted_trends.py),
built once for the trends tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.crafted_trends import Crafted, build_crafted
from triage_app.core.db import Workspace, open_workspace


@pytest.fixture(scope="package")
def crafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Crafted]:
    folder = tmp_path_factory.mktemp("crafted") / "ws"
    return folder, build_crafted(folder)


@pytest.fixture
def ws(crafted: tuple[Path, Crafted]) -> Iterator[Workspace]:
    with open_workspace(crafted[0]) as w:
        yield w
