"""Keyboard-only use of the steward's loop, and a name for every control.

A steward who does not use the mouse filters, chooses a row, reads its error, fixes the
payload, tries it with a transform version, saves and re-drives with keys alone: shortcuts
that the menus and tooltips show, Tab in a sensible order, and a focus that can be seen.
A screen reader names every control on the way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from tests.support import history_actions
from triage_app.core.db import open_workspace
from triage_app.core.deadletters import ErrorGroup, editable_payload, get_dead_letter
from triage_app.gui import style
from triage_app.gui.dialogs.connect_dialog import ConnectDialog
from triage_app.gui.dialogs.group_dialog import GroupDialog
from triage_app.gui.quarantine.conflict_dialog import ConflictDialog
from triage_app.gui.quarantine.detail_pane import TAB_ERROR, TAB_PAYLOAD
from triage_app.gui.shortcuts import keys_text

Key = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier

# What a person operates: each needs a name a screen reader can say.
INTERACTIVE = (
    QAbstractButton,
    QComboBox,
    QLineEdit,
    QAbstractSpinBox,
    QPlainTextEdit,
    QTextEdit,
    QAbstractItemView,
    QTabWidget,
)
# Controls made of parts (a spin box's line edit, a combo's popup list, a table's headers,
# a line edit's clear button, a tab bar's scroll buttons): the parts are reached and named
# through the control they belong to.
COMPOUND = (QComboBox, QAbstractSpinBox, QLineEdit, QAbstractItemView, QTabBar)

# The demo's data error (qty -1, dead letter 3) and a fix of it.
SITI = 3
FIXED = (
    '{"pesanan_id": 6, "waktu": "2026-01-11T16:40:00", "pelanggan": "Siti", '
    '"produk": "Kemeja Batik", "qty": 1, "harga": 250000, "diskon": 0}'
)


# -- helpers ------------------------------------------------------------------------------
def _part_of_another_control(w: QWidget) -> bool:
    parent = w.parentWidget()
    while parent is not None:
        if isinstance(parent, COMPOUND):
            return True
        parent = parent.parentWidget()
    return False


def controls(top: QWidget) -> Iterator[QWidget]:
    """Every control in ``top`` a person operates, shown or not; Qt's own internal parts
    (named ``qt_…``) left out."""
    for w in top.findChildren(QWidget):
        if not isinstance(w, INTERACTIVE) or w.objectName().startswith("qt_"):
            continue
        if not _part_of_another_control(w):
            yield w


def spoken_name(w: QWidget) -> str:
    """What a screen reader calls ``w``: its accessible name; for a button without one,
    its own words, which Qt's accessibility reads out (a symbol such as ✕ is no name)."""
    name = w.accessibleName().strip()
    if not name and isinstance(w, QAbstractButton) and any(c.isalpha() for c in w.text()):
        name = w.text().replace("&", "").strip()
    return name


def unnamed(top: QWidget) -> list[str]:
    where = top.objectName() or type(top).__name__
    return [
        f"{where}: {type(w).__name__} #{w.objectName() or '(no objectName)'}"
        for w in controls(top)
        if not spoken_name(w)
    ]


def menu_actions(menu_bar: Any) -> list[QAction]:
    """Every action in the menus, submenus included (not the recent-workspace entries,
    which are made when the menu opens)."""
    out: list[QAction] = []

    def walk(menu: QMenu) -> None:
        for action in menu.actions():
            if action.menu() is not None:
                walk(action.menu())
            elif not action.isSeparator():
                out.append(action)

    for action in menu_bar.actions():
        if action.menu() is not None:
            walk(action.menu())
    return out


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def press(key: Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """One key press where the keyboard is: on the focused widget."""
    widget = focused()
    assert widget is not None, "nothing has the keyboard focus"
    QTest.keyClick(widget, key, modifier)


def describe(w: QWidget | None) -> str:
    if w is None:
        return "nothing"
    name = w.objectName()
    if name.startswith("qt_") and w.parentWidget() is not None:  # a tab widget's tab bar
        name = f"{w.parentWidget().objectName()}.{name}"
    return f"{type(w).__name__} #{name}"


def activate(qtbot: Any, window: QWidget) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def open_valid_row(qtbot: Any, window: Any) -> None:
    """Dead letter 3 (valid JSON, so Format and Compact are enabled) in the pane."""
    window.table.selectRow(next(r for r in range(4) if window.model.row(r).id == SITI))
    qtbot.waitUntil(lambda: window.detail.current_id() == SITI)
    qtbot.waitUntil(lambda: not window.queries.busy())


def ring(image: QImage, width: int = 2) -> list[QColor]:
    """The pixels of the outermost ``width`` pixels of ``image``: where a frame is."""
    w, h = image.width(), image.height()
    points = [(x, y) for x in range(w) for y in (*range(width), *range(h - width, h))]
    points += [(x, y) for y in range(h) for x in (*range(width), *range(w - width, w))]
    return [image.pixelColor(x, y) for x, y in points]


# -- names --------------------------------------------------------------------------------
def test_every_control_in_the_window_and_its_dialogs_has_a_name(
    qtbot, window, demo_workspace, dialogs
):
    offenders = unnamed(window)

    window.work.run_batch()
    window.table.selectRow(0)
    qtbot.waitUntil(lambda: window.selected_count() == 1)
    window.work.redrive()
    window.work.fix_rows()
    window.work.show_change_sets()
    window.work.retention()
    opened = window.dialogs()
    assert [d.objectName() for d in opened] == [
        "batchDialog",
        "redriveDialog",
        "fixDialog",
        "changeSetsDialog",
        "retentionDialog",
    ]
    for dialog in opened:
        offenders += unnamed(dialog)

    # File > Connect… is modal: looked at while it is up, then cancelled.
    seen: list[QWidget] = []

    def look(tries: int = 0) -> None:
        d = QApplication.activeModalWidget()
        if not isinstance(d, ConnectDialog):
            if tries < 1_000:
                QTimer.singleShot(10, lambda: look(tries + 1))
            return
        seen.append(d)
        offenders.extend(unnamed(d))
        d.reject()

    QTimer.singleShot(0, look)
    window.menu.connect_action.trigger()
    assert seen, "the connect dialog did not open"

    # The conflict dialog, as Compare opens it (theirs and mine side by side).
    with open_workspace(demo_workspace) as ws:
        theirs = get_dead_letter(ws, SITI, reveal=True)
    text = editable_payload(theirs.payload_bytes, theirs.payload_kind, theirs.csv_header).text
    conflict = ConflictDialog(theirs, text, FIXED, theirs.version, window)
    offenders += unnamed(conflict)
    conflict.deleteLater()
    # An error group's dialog (Trends > a group's menu): owner, tags, note.
    group = ErrorGroup("DataError: qty", "data", 2, {"open": 2}, None, None, "ani", ("x",), "n")
    group_dialog = GroupDialog(group, ["ani", "budi"], ["x", "y"], parent=window)
    offenders += unnamed(group_dialog)
    group_dialog.deleteLater()

    qtbot.waitUntil(lambda: not opened[-1].is_busy(), timeout=20_000)
    for dialog in opened:
        dialog.close()
    assert not offenders, "controls without an accessible name:\n" + "\n".join(offenders)


# -- shortcuts ----------------------------------------------------------------------------
def test_the_loops_actions_have_shortcuts_and_tooltips_show_them(window):
    m = window.menu
    for action in (
        m.find_action,  # filter
        m.table_action,  # select a row
        m.error_action,  # read the error
        m.editor_action,  # fix the payload
        m.redrive_action,  # re-drive
        m.refresh_action,
        m.batch_action,
    ):
        assert not action.shortcut().isEmpty(), f"{action.text()!r} has no shortcut"
    assert window.detail.payload.try_button.shortcut().toString() == "Ctrl+Return"
    assert window.detail.payload.save_button.shortcut().toString() == "Ctrl+S"
    assert m.redrive_action.toolTip() == "Re-drive dead letters (Ctrl+R)"

    # Whatever has a shortcut says it in its tooltip.
    missing = [
        f"{a.text()!r}: {a.toolTip()!r}"
        for a in menu_actions(m)
        if not a.shortcut().isEmpty() and f"({keys_text(a.shortcut())})" not in a.toolTip()
    ]
    buttons = [
        (window.run_batch_button, m.batch_action),
        (window.redrive_button, m.redrive_action),
        (window.refresh_button, m.refresh_action),
    ]
    missing += [
        f"{b.objectName()}: {b.toolTip()!r}"
        for b, action in buttons
        if f"({keys_text(action.shortcut())})" not in b.toolTip()
    ]
    missing += [
        f"{b.objectName()}: {b.toolTip()!r}"
        for b in window.findChildren(QAbstractButton)
        if not b.shortcut().isEmpty() and f"({keys_text(b.shortcut())})" not in b.toolTip()
    ]
    assert not missing, "shortcuts the tooltips do not show:\n" + "\n".join(missing)
    assert f"({keys_text(m.find_action.shortcut())})" in window.filter_bar.search.placeholderText()

    # No two things answer the same keys.
    taken: dict[str, str] = {}
    for name, keys in [(a.text(), a.shortcut()) for a in window.actions()] + [
        (b.objectName(), b.shortcut()) for b in window.findChildren(QAbstractButton)
    ]:
        if keys.isEmpty():
            continue
        assert keys.toString() not in taken, f"{name} and {taken[keys.toString()]} clash"
        taken[keys.toString()] = name


# -- tab order ----------------------------------------------------------------------------
def test_tab_goes_from_the_filters_to_the_table_to_the_detail_pane(qtbot, window):
    activate(qtbot, window)
    open_valid_row(qtbot, window)
    f, d = window.filter_bar, window.detail
    expected = [
        f.class_combo,
        f.status_combo,
        f.batch_combo,
        f.transform_combo,
        f.owner_combo,
        f.tag_combo,
        f.attempts_spin,
        f.search,
        window.table,
        d.reveal_button,  # the row's customer name is masked: Reveal (issue 27)
        d.tabs.tabBar(),
        d.payload.editor,  # Tab indents here; Ctrl+Tab moves on
        d.payload.format_button,
        d.payload.compact_button,  # Revert and Save are disabled: nothing is edited
        d.payload.try_combo,
        d.payload.try_button,
        d.payload.try_result,
        window.tabs.tabBar(),
        window.run_batch_button,
        window.redrive_button,
        window.refresh_button,
        f.class_combo,
    ]
    f.class_combo.setFocus(Qt.FocusReason.TabFocusReason)
    walked = [focused()]
    for _ in expected[1:]:
        in_editor = focused() is d.payload.editor
        press(Key.Key_Tab, CTRL if in_editor else Qt.KeyboardModifier.NoModifier)
        walked.append(focused())
    assert [describe(w) for w in walked] == [describe(w) for w in expected]

    # Shift+Tab walks the same way back (out of the editor too).
    back = [focused()]
    for _ in expected[1:]:
        press(Key.Key_Backtab, SHIFT)
        back.append(focused())
    assert [describe(w) for w in back] == [describe(w) for w in reversed(expected)]

    # In the editor Tab is typed: it indents.
    d.payload.editor.setFocus(Qt.FocusReason.TabFocusReason)
    press(Key.Key_Tab)
    assert focused() is d.payload.editor and "\t" in d.payload.editor.toPlainText()


# -- the loop -----------------------------------------------------------------------------
def test_the_stewards_loop_by_keyboard_alone(qtbot, window, demo_workspace):
    activate(qtbot, window)
    d = window.detail

    # Filter: Ctrl+F puts the cursor in the search box; type.
    press(Key.Key_F, CTRL)
    search = window.filter_bar.search
    assert focused() is search
    QTest.keyClicks(search, "qty")
    qtbot.waitUntil(lambda: window.model.total() == 3 and window.model.rowCount() == 3)
    assert [window.model.row(r).id for r in range(3)] == [2, SITI, 4]

    # Select: Tab to the table, whose first row is chosen; the arrows move between rows.
    press(Key.Key_Tab)
    assert focused() is window.table
    qtbot.waitUntil(lambda: d.current_id() == 2 and window.selected_count() == 1)
    press(Key.Key_Down)
    qtbot.waitUntil(lambda: d.current_id() == SITI)
    press(Key.Key_Down)
    qtbot.waitUntil(lambda: d.current_id() == 4)
    press(Key.Key_Up)
    qtbot.waitUntil(lambda: d.current_id() == SITI)
    qtbot.waitUntil(lambda: not window.queries.busy())
    assert window.selected_ids() == [SITI]

    # Read the error: Ctrl+2 shows it, ready to be read with the keys.
    press(Key.Key_2, CTRL)
    assert d.tabs.currentIndex() == TAB_ERROR and focused() is d.error_view
    assert "qty tidak valid: -1" in d.error_view.toPlainText()
    press(Key.Key_1, CTRL)  # and back to the table: the row is still chosen
    assert focused() is window.table and window.selected_ids() == [SITI]

    # Fix the payload: Ctrl+3 goes to the editor; select all and type the fix.
    press(Key.Key_3, CTRL)
    assert d.tabs.currentIndex() == TAB_PAYLOAD and focused() is d.payload.editor
    press(Key.Key_A, CTRL)
    QTest.keyClicks(d.payload.editor, FIXED)
    assert d.payload.editor.toPlainText() == FIXED and d.is_dirty() and d.can_save()

    # Try it with a transform version: Ctrl+Tab out of the editor, Tab to the version,
    # choose pesanan@1 with the arrows, Ctrl+Return tries it (nothing is written).
    press(Key.Key_Tab, CTRL)
    while focused() is not d.payload.try_combo:
        p = d.payload
        assert focused() in (p.format_button, p.compact_button, p.revert_button)
        press(Key.Key_Tab)
    while d.payload.try_combo.currentText() != "pesanan@1":
        before = d.payload.try_combo.currentIndex()
        press(Key.Key_Up)
        assert d.payload.try_combo.currentIndex() != before, "pesanan@1 is not in the list"
    press(Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: "would load" in d.payload.try_result.toPlainText())
    assert d.payload.try_result.toPlainText().startswith("✓ pesanan@1 would load")

    # Save: Ctrl+S, wherever the focus is in the window.
    press(Key.Key_S, CTRL)
    qtbot.waitUntil(lambda: history_actions(window)[-1:] == ["edited"])
    with open_workspace(demo_workspace) as ws:
        assert get_dead_letter(ws, SITI, reveal=True).payload == FIXED

    # Re-drive: Ctrl+R opens the dialog; Enter previews (a dry run), Enter again re-drives.
    press(Key.Key_R, CTRL)
    dialog = window.dialogs()[-1]
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    assert dialog.scope_selected.isChecked()
    press(Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=10_000)
    assert "1 would succeed" in dialog.summary.text()
    with open_workspace(demo_workspace) as ws:
        assert get_dead_letter(ws, SITI, reveal=True).status == "open"  # the preview wrote nothing
    with qtbot.waitSignal(dialog.jobFinished, timeout=10_000):
        press(Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.is_running())
    assert "1 resolved" in dialog.summary.text()
    press(Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())

    with open_workspace(demo_workspace) as ws:
        row = get_dead_letter(ws, SITI, reveal=True)
    assert row.status == "resolved" and row.payload == FIXED
    qtbot.waitUntil(lambda: history_actions(window)[-1:] == ["resolved"])


# -- focus is visible ---------------------------------------------------------------------
def test_the_focus_can_be_seen(qtbot, window):
    """The focused table, search box and editor each look different from unfocused at
    their edge (the caret alone does not count); the table and editor wear the window's
    focus colour there."""
    activate(qtbot, window)
    open_valid_row(qtbot, window)
    for widget in (window.table, window.filter_bar.search, window.detail.payload.editor):
        window.refresh_button.setFocus(Qt.FocusReason.TabFocusReason)
        plain = ring(widget.grab().toImage())
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        assert focused() is widget
        lit = ring(widget.grab().toImage())
        assert plain != lit, f"{describe(widget)} looks the same with and without the focus"
        if widget is not window.filter_bar.search:  # the platform style draws that one's
            assert QColor(style.FOCUS) in lit, f"{describe(widget)} has no focus ring"
