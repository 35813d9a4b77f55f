"""The team's store for the live-view tests: a workspace or two PostgreSQL schemas with the
seed's batch in it (ids 1-4, open), and a window on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import SEED_BATCH
from tests.support.live import Store, forget_edit
from triage_app.core.batch import run_batch


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        s = Store(["--workspace", str(tmp_path / "ws")], tmp_path / "ws", None)
    else:
        wh, dl = request.getfixturevalue("pg_urls")
        s = Store(["--warehouse", wh, "--dead-letter", dl], None, (wh, dl))
    with s.open() as ws:
        run_batch(ws, SEED_BATCH, "pesanan@1")  # ids 1-4, open
    return s


@pytest.fixture
def live_window(qtbot, store: Store) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    from triage_app.gui import open_window

    if store.urls is not None:
        w = open_window(warehouse_url=store.urls[0], dead_letter_url=store.urls[1])
    else:
        w = open_window(str(store.folder))
    qtbot.addWidget(w, before_close_func=forget_edit)
    qtbot.waitUntil(lambda: w.model.total() == 4 and w.queries is not None)
    qtbot.waitUntil(lambda: not w.queries.busy())
    assert w.live.is_watching()
    yield w
    forget_edit(w)
    w.close()
