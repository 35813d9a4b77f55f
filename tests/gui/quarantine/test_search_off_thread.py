"""A search reads payloads until it has a page (over ten million rows, seconds when little
matches): the table reads a search's first page on the query thread, says it is
searching meanwhile, and shows the page and the count when they come; a search typed over
before its page came shows only the newest one's rows."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from triage_app.core.deadletters import DeadLetterFilter, fetch_rows
from triage_app.gui.quarantine import model as table_model


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    """Each page the table reads: the thread it was read on, and the filter's search."""
    seen: list[tuple[str, str | None]] = []
    real = table_model._fetch_page

    def spy(ws: Any, f: DeadLetterFilter, *args: Any) -> Any:
        seen.append((threading.current_thread().name, f.search))
        return real(ws, f, *args)

    monkeypatch.setattr(table_model, "_fetch_page", spy)
    return seen


def test_a_search_is_read_off_the_gui_thread_and_says_so(window, qtbot, reads) -> None:  # type: ignore[no-untyped-def]
    model = window.model
    qtbot.waitUntil(lambda: model.total() is not None and not window.queries.busy())
    reads.clear()
    model.set_filter(model.filter.with_(search="qty"))
    # Returned at once: nothing read yet on this thread, the table empty and searching.
    assert model.searching() and model.rowCount() == 0 and model.total() is None
    assert "searching" in window.counts.count_label.text()
    qtbot.waitUntil(lambda: not model.searching() and model.total() is not None, timeout=10_000)
    want = fetch_rows(window.ws, model.filter, limit=1000)  # the same search, read here
    assert len(want) >= 2 and model.total() == model.rowCount() == len(want)
    assert [model.row(r) for r in range(len(want))] == want
    assert reads and all(t != threading.main_thread().name for t, _s in reads)
    assert f"{len(want)} open dead letters match" in window.counts.count_label.text()


def test_a_search_typed_over_shows_only_the_newest(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    model = window.model
    qtbot.waitUntil(lambda: model.total() is not None and not window.queries.busy())
    model.set_filter(model.filter.with_(search="qty"))
    model.set_filter(model.filter.with_(search="NoneType"))  # before the first came
    qtbot.waitUntil(lambda: model.total() is not None and not window.queries.busy(), timeout=10_000)
    qtbot.wait(200)  # anything still queued for the first search has come and gone
    rows = [model.row(r) for r in range(model.rowCount())]
    assert model.total() == len(rows) == 1
    assert rows[0] is not None and rows[0].error_class == "code"


def test_a_search_that_cannot_be_read_says_why_and_stops_searching(  # type: ignore[no-untyped-def]
    window, qtbot, monkeypatch
) -> None:
    model = window.model
    qtbot.waitUntil(lambda: model.total() is not None and not window.queries.busy())

    def broken(*_args: Any) -> Any:
        raise OSError("disk I/O error")

    monkeypatch.setattr(table_model, "_fetch_page", broken)
    model.set_filter(model.filter.with_(search="qty"))
    assert model.searching()
    qtbot.waitUntil(lambda: not model.searching(), timeout=10_000)
    assert "disk I/O error" in window.statusBar().currentMessage()
    assert "searching" not in window.counts.count_label.text()
