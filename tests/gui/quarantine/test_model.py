"""The quarantine table's model: Qt's model contract, and paging that matches SQL."""

from __future__ import annotations

from PySide6.QtCore import Qt

from triage_app.core.db import open_workspace
from triage_app.core.deadletters import DeadLetterFilter, list_dead_letters
from triage_app.gui.quarantine.model import PAGE, SORT_KEYS, DeadLetterTableModel

N = 2 * PAGE * 3 + 57  # several pages and a partial last one


def test_model_passes_qt_model_tester_in_the_window(qtmodeltester, window):
    qtmodeltester.check(window.model)


def test_model_passes_qt_model_tester_over_many_pages(qtmodeltester, tmp_path, bulk_store):
    bulk_store(tmp_path, N)
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws)  # no counter: counts synchronously
        assert model.rowCount() == N
        qtmodeltester.check(model)
        model.set_workspace(None)


def _all_ids(model: DeadLetterTableModel, order) -> list[int]:  # type: ignore[no-untyped-def]
    return [model.row(r).id for r in order]


def test_pages_in_any_order_match_sql_for_every_sort(tmp_path, bulk_store):
    bulk_store(tmp_path, N)
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws)
        for column, key in enumerate(SORT_KEYS):
            if key is None:  # the Source column: the store does not sort by it
                continue
            for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
                model.sort(column, order)
                if key in ("batch_id", "line"):
                    expected_rows = sorted(
                        list_dead_letters(ws, DeadLetterFilter(), limit=None),
                        key=lambda v: (v.batch_id, v.line),
                        reverse=order == Qt.SortOrder.DescendingOrder,
                    )
                    expected = [v.id for v in expected_rows]
                else:
                    expected = [
                        v.id
                        for v in list_dead_letters(
                            ws,
                            DeadLetterFilter(),
                            limit=None,
                            sort=key,
                            descending=order == Qt.SortOrder.DescendingOrder,
                        )
                    ]
                # The last row first (from the end), then forwards (keyset), then a
                # jump into the middle (offset from the nearest known page).
                assert model.row(N - 1).id == expected[-1]
                model.refresh()
                forwards = _all_ids(model, range(N))
                assert forwards == expected, key
                model.refresh()
                jumps = [N - 1, N // 2, 3, N - PAGE - 1, PAGE + 1]
                assert _all_ids(model, jumps) == [expected[r] for r in jumps], key
        model.set_workspace(None)


def test_count_arrives_later_and_table_grows_until_then(tmp_path, qtbot, bulk_store):
    bulk_store(tmp_path, N)
    asked = []
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws, lambda f, generation: asked.append((f, generation)))
        assert model.total() is None
        assert model.rowCount() == PAGE
        assert model.canFetchMore(model.index(-1, -1))
        model.fetchMore(model.index(-1, -1))
        assert model.rowCount() == 2 * PAGE
        _f, generation = asked[-1]
        model.set_total(generation - 1, 5)  # a stale answer is ignored
        assert model.total() is None
        with qtbot.waitSignal(model.totalChanged):
            model.set_total(generation, N)
        assert model.rowCount() == N
        assert not model.canFetchMore(model.index(-1, -1))
        model.set_filter(DeadLetterFilter(error_class="code"))
        assert model.total() is None and asked[-1][0].error_class == "code"
        model.set_workspace(None)


def test_filter_by_class_status_attempts(tmp_path, bulk_store):
    bulk_store(tmp_path, 300)
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws)
        model.set_filter(DeadLetterFilter(error_class="code", min_attempts=2))
        rows = [model.row(r) for r in range(model.rowCount())]
        assert rows and all(r.error_class == "code" and r.attempts >= 2 for r in rows)
        assert model.rowCount() == sum(1 for i in range(1, 301) if i % 3 == 1 and 1 + i % 3 >= 2)
        model.set_workspace(None)


def test_refresh_in_place_keeps_the_contract_and_follows_rows(qtmodeltester, tmp_path, bulk_store):
    """Read again after another steward's change: rows come and go, deep pages read from
    the end shift, and a persistent index still points at its dead letter; the model
    tester watches every signal on the way."""
    from PySide6.QtCore import QPersistentModelIndex

    from triage_app.core.deadletters import apply_change, discard, note

    bulk_store(tmp_path, N)
    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(ws)
        qtmodeltester.check(model)
        deep = N - 40  # on a page read from the end
        deep_id = model.row(deep).id
        near = 5
        near_id = model.row(near).id
        pins = [QPersistentModelIndex(model.index(r, 0)) for r in (near, deep)]
        apply_change(ws, [1, 2, 3], discard("junk"))  # three rows above both go
        model.refresh_in_place()
        assert model.rowCount() == N - 3 == model.total()
        assert [p.row() for p in pins] == [near - 3, deep - 3]
        assert [model.row(p.row()).id for p in pins] == [near_id, deep_id]
        # A row that leaves the filter leaves the selection; the versions shown move on.
        assert model.row(pins[0].row()).version == 1
        apply_change(ws, [deep_id], discard("junk too"))
        apply_change(ws, [near_id], note("seen"))
        model.refresh_in_place()
        assert not pins[1].isValid()
        assert model.row(pins[0].row()).id == near_id
        assert model.row(pins[0].row()).version == 2
        model.set_workspace(None)


def test_an_in_place_refresh_with_a_reader_reads_on_its_thread(qtmodeltester, tmp_path, bulk_store):
    """With a reader (the window's query thread), the count and the pages are read on its
    thread and swapped in when they come; until then the table shows what it had, and a
    read asked for before a filter change is dropped when it comes."""
    import threading

    from PySide6.QtCore import QPersistentModelIndex

    from triage_app.core.deadletters import apply_change, discard

    bulk_store(tmp_path, N)
    pending: list = []

    def off_the_gui_thread(fn, ws):  # type: ignore[no-untyped-def]
        out: list = []
        t = threading.Thread(target=lambda: out.append(fn(ws)))
        t.start()
        t.join()
        return out[0]

    with open_workspace(tmp_path) as ws:
        model = DeadLetterTableModel()
        model.set_workspace(
            ws, reader=lambda fn, on_done, _on_failed: pending.append((fn, on_done))
        )
        qtmodeltester.check(model)
        deep, near = N - 40, 5  # a page read from the end, and one from the start
        deep_id, near_id = model.row(deep).id, model.row(near).id
        pins = [QPersistentModelIndex(model.index(r, 0)) for r in (near, deep)]
        apply_change(ws, [1, 2, 3], discard("junk"))
        model.refresh_in_place()
        assert model.rowCount() == N and model.row(near).id == near_id  # not read yet
        ((fn, on_done),) = pending
        pending.clear()
        on_done(off_the_gui_thread(fn, ws))
        assert model.rowCount() == N - 3 == model.total()
        assert [p.row() for p in pins] == [near - 3, deep - 3]
        assert [model.row(p.row()).id for p in pins] == [near_id, deep_id]
        assert [model.row(r).id for r in range(N - 3)] == list(range(4, N + 1))

        model.refresh_in_place()
        ((fn, on_done),) = pending
        model.set_filter(DeadLetterFilter(error_class="code"))
        code_rows = model.rowCount()
        on_done(off_the_gui_thread(fn, ws))  # read for the old filter: dropped
        assert model.rowCount() == code_rows
        assert all(model.row(r).error_class == "code" for r in range(code_rows))
        model.set_workspace(None)
