"""Trends' error groups as a team's backlog (issue 13): a group's menu assigns an owner and
tags; the change is written (audited) off the GUI thread, and the groups table shows it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QInputDialog, QMenu

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import AuditFilter
from triage_app.gui.trends.groups_view import COL_OWNER, COL_TAGS


def test_assigning_and_tagging_a_group_from_trends(qtbot, window, demo_workspace, monkeypatch):
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    groups = window.trends.groups
    model = groups.model
    horizontal, shown_text = Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole
    assert model.headerData(COL_OWNER, horizontal, shown_text) == "owner"
    group = model.groups[0]

    # The menu offers the three changes.
    shown: list[QMenu] = []
    monkeypatch.setattr(QMenu, "popup", lambda self, _pos: shown.append(self))
    groups._menu(groups.table.visualRect(model.index(0, 0)).center() + QPoint(0, 0))
    assert [a.text() for a in shown[0].actions()] == ["Assign owner…", "Tags…", "Note…"]

    answers = iter([("ani", True), ("needs source fix, waiting on vendor", True)])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: next(answers))
    window.edit_group(group, "owner")
    qtbot.waitUntil(lambda: model.rowCount() and _row_of(model, group.signature)[0] == "ani")
    window.edit_group(next(g for g in model.groups if g.signature == group.signature), "tags")
    qtbot.waitUntil(
        lambda: _row_of(model, group.signature)[1] == "needs source fix, waiting on vendor"
    )

    with open_workspace(demo_workspace) as ws:
        (g,) = [g for g in dls.list_groups(ws) if g.signature == group.signature]
        events = dls.audit_trail(ws, AuditFilter(action="group"))
    assert (g.owner, g.tags, g.version) == ("ani", ("needs source fix", "waiting on vendor"), 2)
    assert len(events) == 2


def _row_of(model, signature):  # type: ignore[no-untyped-def]
    row = next(i for i, g in enumerate(model.groups) if g.signature == signature)
    return (model.index(row, COL_OWNER).data(), model.index(row, COL_TAGS).data())


def test_another_stewards_assignment_shows_through_the_live_view(qtbot, window, demo_workspace):
    """A steward in another process assigns a group: this window's Trends shows the owner
    without anyone pressing Refresh."""
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    model = window.trends.groups.model
    signature = model.groups[0].signature
    done = cli("--workspace", str(demo_workspace), "group", signature, "--owner", "budi")
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: _row_of(model, signature)[0] == "budi", timeout=15_000)


def test_groups_sort_by_a_column_and_an_owner_filters_the_table(qtbot, window):
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    groups = window.trends.groups
    model = groups.model
    largest_first = [g.signature for g in model.groups]
    model.sort(COL_OWNER, Qt.SortOrder.AscendingOrder)  # nobody owns any: as they were
    assert [g.signature for g in model.groups] == largest_first
    model.sort(0, Qt.SortOrder.AscendingOrder)  # by signature
    assert [g.signature for g in model.groups] == sorted(largest_first)
    model.sort(0, Qt.SortOrder.DescendingOrder)
    assert [g.signature for g in model.groups] == sorted(largest_first, reverse=True)

    signature = model.groups[1].signature
    done = cli("--workspace", str(window.config.folder), "group", signature, "--owner", "citra")
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: _row_of(model, signature)[0] == "citra", timeout=15_000)
    assert [g.signature for g in model.groups] == sorted(largest_first, reverse=True)  # kept

    links = []
    groups.linked.connect(links.append)
    row = next(i for i, g in enumerate(model.groups) if g.signature == signature)
    groups._on_clicked(model.index(row, COL_OWNER))
    (link,) = links
    assert link.changes == (("owner", "citra"),)
    window.apply_link(link)
    qtbot.waitUntil(lambda: window.model.total() == 1)
    assert window.model.filter.owner == "citra"
