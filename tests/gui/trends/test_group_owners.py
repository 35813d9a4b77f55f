"""Trends' error groups as a team's backlog (issue 13): a group's menu assigns an owner and
tags; the change is written (audited) off the GUI thread, and the groups table shows it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu

from tests.support import cli
from triage_app.core import deadletters as dls
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import AuditFilter
from triage_app.core.vocabulary import NOBODY
from triage_app.gui.dialogs.group_dialog import GroupDialog
from triage_app.gui.trends.groups_view import COL_NOTE, COL_OWNER, COL_TAGS, COL_WAITED


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

    # One dialog holds the owner, the tags and the note; the menu item chooses the focus.
    def answer(owner: str | None = None, tags: tuple[str, ...] = (), note: str | None = None):  # type: ignore[no-untyped-def]
        def exec_(dialog: GroupDialog) -> int:
            if owner is not None:
                dialog.owner.setCurrentText(owner)
            for tag in tags:
                dialog.new_tag.setText(tag)
                dialog._on_new_tag()
            if note is not None:
                dialog.note.setPlainText(note)
            dialog.accept()
            return int(dialog.result())

        monkeypatch.setattr(GroupDialog, "exec", exec_)

    answer(owner="ani")
    window.work.edit_group(group, "owner")
    qtbot.waitUntil(lambda: model.rowCount() and _row_of(model, group.signature)[0] == "ani")
    answer(tags=("needs source fix", "waiting on vendor"))
    window.work.edit_group(next(g for g in model.groups if g.signature == group.signature), "tags")
    qtbot.waitUntil(
        lambda: _row_of(model, group.signature)[1] == "needs source fix, waiting on vendor"
    )
    # The pickers now offer the new owner and tags.
    qtbot.waitUntil(lambda: window.filter_bar.owner_combo.findData("ani") > 0)
    assert window.filter_bar.tag_combo.findData("waiting on vendor") > 0
    assert groups.owner_combo.findData("ani") > 0

    with open_workspace(demo_workspace) as ws:
        (g,) = [g for g in dls.error_groups(ws) if g.signature == group.signature]
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


def test_a_group_changed_meanwhile_is_refused_not_overwritten(
    qtbot, window, demo_workspace, monkeypatch
):  # type: ignore[no-untyped-def]
    """The dialog showed version 0; another steward assigns the group before OK: the
    change is refused with who did it, and the table shows the other steward's owner."""
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    model = window.trends.groups.model
    group = model.groups[0]
    done = cli("--workspace", str(demo_workspace), "group", group.signature, "--owner", "budi")
    assert done.returncode == 0, done.stderr

    def exec_(dialog: GroupDialog) -> int:
        dialog.owner.setCurrentText("ani")
        dialog.note.setPlainText("mine now")
        dialog.accept()
        return int(dialog.result())

    monkeypatch.setattr(GroupDialog, "exec", exec_)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    window.work.edit_group(group, "owner")
    qtbot.waitUntil(lambda: any("changed since version 0" in m for m in said), timeout=10_000)
    qtbot.waitUntil(lambda: _row_of(model, group.signature)[0] == "budi", timeout=10_000)
    with open_workspace(demo_workspace) as ws:
        (g,) = [g for g in dls.error_groups(ws) if g.signature == group.signature]
    assert (g.owner, g.note, g.version) == ("budi", "", 1)


def test_the_group_dialog_asks_only_for_what_changed(qtbot, window):  # type: ignore[no-untyped-def]
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    group = window.trends.groups.model.groups[0]
    dialog = GroupDialog(group, ["ani"], list(dls.SUGGESTED_TAGS), focus="note")
    qtbot.addWidget(dialog)
    assert dialog.job() is None  # nothing changed yet
    assert [dialog.tags.item(i).text() for i in range(dialog.tags.count())] == sorted(
        dls.SUGGESTED_TAGS
    )
    dialog.tags.item(0).setCheckState(Qt.CheckState.Checked)
    dialog.note.setPlainText("  asked the shop  ")
    job = dialog.job()
    assert job is not None
    assert (job.set_owner, job.add_tags, job.remove_tags, job.note, job.if_version) == (
        False,
        (sorted(dls.SUGGESTED_TAGS)[0],),
        (),
        "asked the shop",
        0,
    )
    dialog.note.setPlainText("x" * 2_001)
    dialog.accept()
    assert dialog.result() == 0 and "at most 2,000" in dialog.said.text()


def test_groups_filter_by_owner_tag_and_text_and_show_age_and_note(qtbot, window, demo_workspace):  # type: ignore[no-untyped-def]
    window.tabs.setCurrentWidget(window.trends)
    qtbot.waitUntil(lambda: window.trends.trends is not None and not window.trends.busy())
    view = window.trends.groups
    model = view.model
    every = [g.signature for g in model.groups]
    assert len(every) == 4 and view.count_label.text() == "4 groups"
    first, second = every[0], every[1]
    for args in (
        (first, "--owner", "ani", "--tag", "needs source fix", "--note", "asked the shop"),
        (second, "--tag", "waiting on vendor"),
    ):
        assert cli("--workspace", str(demo_workspace), "group", *args).returncode == 0
    qtbot.waitUntil(lambda: model.rowCount() and _row_of(model, first)[0] == "ani", timeout=15_000)
    row = next(i for i, g in enumerate(model.groups) if g.signature == first)
    assert model.index(row, COL_NOTE).data() == "asked the shop"
    assert model.index(row, COL_WAITED).data().endswith((" d", " h", " min"))
    assert "first failed" in model.index(row, COL_WAITED).data(Qt.ItemDataRole.ToolTipRole)

    view.owner_combo.setCurrentIndex(view.owner_combo.findData("ani"))
    assert [g.signature for g in model.groups] == [first]
    assert view.count_label.text() == "1 of 4 groups"
    view.owner_combo.setCurrentIndex(view.owner_combo.findData(NOBODY))
    assert first not in [g.signature for g in model.groups] and model.rowCount() == 3
    view.owner_combo.setCurrentIndex(0)
    view.tag_combo.setCurrentIndex(view.tag_combo.findData("waiting on vendor"))
    assert [g.signature for g in model.groups] == [second]
    view.tag_combo.setCurrentIndex(0)
    view.search.setText("SHOP")
    assert [g.signature for g in model.groups] == [first]
    view.search.clear()
    model.sort(COL_WAITED, Qt.SortOrder.AscendingOrder)  # the longest wait first
    waits = [g.oldest_open for g in model.groups if g.oldest_open is not None]
    assert waits == sorted(waits)
    # The quarantine table's pickers: the rows of the groups ani owns, or nobody owns.
    bar = window.filter_bar
    qtbot.waitUntil(lambda: bar.owner_combo.findData("ani") > 0)
    bar.owner_combo.setCurrentIndex(bar.owner_combo.findData("ani"))
    assert window.model.filter.owner == "ani"
    qtbot.waitUntil(lambda: window.model.total() == 1 and window.model.rowCount() == 1)
    # Its row's detail names the group's owner, and its Error tab the tags and note.
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: "group owned by ani" in window.detail.title.text())
    shown = window.detail.error_view.toPlainText()
    assert "needs source fix" in shown and "asked the shop" in shown
    bar.owner_combo.setCurrentIndex(bar.owner_combo.findData(NOBODY))
    qtbot.waitUntil(lambda: window.model.total() == 3)
    bar.owner_combo.setCurrentIndex(0)
    bar.tag_combo.setCurrentIndex(bar.tag_combo.findData("waiting on vendor"))
    qtbot.waitUntil(lambda: window.model.total() == 1)
    assert window.model.filter.tag == "waiting on vendor"
