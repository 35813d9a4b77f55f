"""The Help menu's pages: getting started, the user guide, the keyboard shortcuts (read
from the window's own actions and buttons, so the list cannot go stale), a problem report
(the versions a bug report needs, copied to the clipboard), and About.

The user guide is docs/guide.md, which every installed or frozen app carries as its package
metadata's description (pyproject's ``readme``): it opens offline, at the version installed.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.db import HEAD_REVISION, WorkspaceConfig
from triage_app.gui.i18n import fill, translate
from triage_app.gui.lifetime import dispose
from triage_app.gui.shortcuts import keys_text, plain_text

# The keys, filled in where the page is shown (``getting_started``): %1 find, %2 the error,
# %3 the editor, %4 Try, %5 Save, %6 re-drive, %7 run a batch, %8 the shortcuts.
GETTING_STARTED = QT_TRANSLATE_NOOP(
    "help_pages",
    "# Getting started\n"
    "\n"
    "Rows a nightly batch could not load wait in the **Quarantine** tab, each with its "
    "original bytes and why it failed. The loop:\n"
    "\n"
    "1. **Find** the rows of one cause: the filters above the table, or the search (%1). "
    "The **Trends** tab shows which cause is largest; a click there filters the table to "
    "it.\n"
    "2. **Read** the error (%2): *data* means the payload is wrong, *code* the transform "
    "mishandles valid data, *transient* the infrastructure failed.\n"
    "3. **Fix** the payload in the editor (%3), **Try** it with a transform version "
    "(%4: nothing is written), then **Save** (%5). The original is kept. "
    "Many rows with one cause: **Re-drive → Fix rows…** applies one fix to all of them.\n"
    "4. **Re-drive** (%6) the fixed rows through a transform version: the rows that load "
    "go to the warehouse, the others count an attempt and stay.\n"
    "\n"
    "New files arrive with **Batch → Run batch…** (%7); a workspace's `incoming` folder is "
    "where it looks first. Every change is in the **Audit** tab. Help → Keyboard shortcuts "
    "(%8) lists every key; Help → User guide has the rest, including the command line "
    "(`triage-app`).\n",
)


@dataclass(frozen=True)
class Shortcut:
    where: str  # the menu, or the part of the window a button is in
    what: str
    keys: str


def _menu_actions(menu: QMenu) -> list[QAction]:
    out: list[QAction] = []
    for action in menu.actions():
        sub = action.menu()
        out += _menu_actions(sub) if isinstance(sub, QMenu) else [action]
    return out


def _area(widget: QWidget) -> str:
    """The nearest enclosing part of the window with a name a steward hears or reads."""
    w = widget.parentWidget()
    while w is not None and not w.isWindow():
        if w.accessibleName():
            return w.accessibleName()
        w = w.parentWidget()
    return translate("help_pages", "Window")


def shortcuts(window: QMainWindow) -> list[Shortcut]:
    """Every key the window answers to: each menu's actions, then the buttons that have
    keys of their own (the detail pane's Try and Save), in the order they appear."""
    out: list[Shortcut] = []
    seen: set[int] = set()
    for top in window.menuBar().actions():
        menu = top.menu()
        if not isinstance(menu, QMenu):
            continue
        for action in _menu_actions(menu):
            if not action.shortcut().isEmpty() and id(action) not in seen:
                seen.add(id(action))
                what = plain_text(action).rstrip("…")
                out.append(Shortcut(plain_text(top), what, keys_text(action.shortcut())))
    for button in window.findChildren(QAbstractButton):
        if not button.shortcut().isEmpty():
            what = button.accessibleName() or button.text().replace("&", "")
            out.append(Shortcut(_area(button), what, keys_text(button.shortcut())))
    return out


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[Shortcut], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(translate("ShortcutsDialog", "Keyboard shortcuts"))
        self.table = QTableWidget(len(rows), 3, objectName="shortcutsTable")
        self.table.setHorizontalHeaderLabels(
            [
                translate("ShortcutsDialog", "Where"),
                translate("ShortcutsDialog", "What"),
                translate("ShortcutsDialog", "Keys"),
            ]
        )
        self.table.setAccessibleName(translate("ShortcutsDialog", "Keyboard shortcuts"))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        for r, row in enumerate(rows):
            for c, text in enumerate((row.where, row.what, row.keys)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        v = QVBoxLayout(self)
        v.addWidget(self.table)
        v.addWidget(buttons)
        self.resize(520, 460)


class GuideDialog(QDialog):
    """A page of Markdown, read-only, its links opened by the system."""

    def __init__(self, name: str, title: str, markdown: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setWindowTitle(title)
        self.text = QTextBrowser(objectName=f"{name}Text")
        self.text.setAccessibleName(title)
        self.text.setOpenExternalLinks(True)
        self.text.setMarkdown(markdown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        v = QVBoxLayout(self)
        v.addWidget(self.text)
        v.addWidget(buttons)
        self.resize(760, 560)


def user_guide() -> str:
    """The user guide of the version installed, from the package's metadata."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("triage-desk")
    except PackageNotFoundError:
        meta = None
    text = (meta.get_payload() or meta.get("Description") or "") if meta is not None else ""
    if not str(text).strip():
        return translate(
            "help_pages",
            "# User guide\n\nThis installation carries no copy of the guide (its package "
            "metadata is missing: run `triage-app --self-test`). It is the project's "
            "docs/guide.md.",
        )
    return str(text)


def _reused(window: QWidget, name: str, make: Callable[[], QDialog]) -> QDialog:
    """One of each page per window: shown again (and raised) rather than made again."""
    dialog = window.findChild(QDialog, name)
    if dialog is None:
        dialog = make()
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog


def show_shortcuts(window: QMainWindow) -> QDialog:
    return _reused(window, "shortcutsDialog", lambda: ShortcutsDialog(shortcuts(window), window))


def getting_started(window: Any) -> str:
    """The page, with the keys the window's actions and buttons have."""
    m, d = window.menu, window.detail.payload
    keys = (
        m.find_action,
        m.error_action,
        m.editor_action,
        d.try_button,
        d.save_button,
        m.redrive_action,
        m.batch_action,
        m.shortcuts_action,
    )
    page = translate("help_pages", GETTING_STARTED)
    return fill(page, *(keys_text(k.shortcut()) for k in keys))


def show_getting_started(window: Any) -> QDialog:
    return _reused(
        window,
        "gettingStarted",
        lambda: GuideDialog(
            "gettingStarted",
            translate("help_pages", "Getting started"),
            getting_started(window),
            window,
        ),
    )


def show_user_guide(window: QWidget) -> QDialog:
    return _reused(
        window,
        "userGuide",
        lambda: GuideDialog(
            "userGuide", translate("help_pages", "Triage Desk user guide"), user_guide(), window
        ),
    )


# -- reporting a problem --------------------------------------------------------------------
@dataclass(frozen=True)
class StoreFacts:
    revision: str | None
    dialect: str
    server: str  # the database's version, as its driver reports it


def store_facts(ws: Any) -> StoreFacts:
    """Read on the window's query thread: the store's schema as it records it."""
    from triage_app.core.db import store_revision

    engine = ws.store
    info = engine.dialect.server_version_info or ()
    return StoreFacts(store_revision(engine), engine.dialect.name, ".".join(map(str, info)))


def problem_report(config: WorkspaceConfig | None, store: StoreFacts | None) -> str:
    """The versions a bug report needs, one per line, with no password in them. In English
    whatever the window speaks: it is read by the maintainers the report goes to."""
    import PySide6
    import sqlalchemy
    from PySide6.QtCore import qVersion

    from triage_app import __version__

    lines = [
        f"Triage Desk {__version__}",
        f"Python {sys.version.split()[0]} ({platform.python_implementation()})",
        f"Qt {qVersion()} (PySide6 {PySide6.__version__}), "
        f"platform {QGuiApplication.platformName()}",
        f"SQLAlchemy {sqlalchemy.__version__}",
        f"System {platform.platform()}",
    ]
    if config is None:
        lines.append("Workspace: none open")
    else:
        lines.append(f"Workspace: {config.description}")
    if store is not None:
        at = store.revision or "none yet"
        server = f" {store.server}" if store.server else ""
        lines.append(
            f"Store: schema {at} (this version writes {HEAD_REVISION}), {store.dialect}{server}"
        )
    else:
        lines.append(f"Store: not open (this version writes schema {HEAD_REVISION})")
    return "\n".join(lines)


def copy_problem_report(parent: QWidget, text: str) -> None:
    """The report on the clipboard, and shown, so the steward sees what they will send."""
    QGuiApplication.clipboard().setText(text)
    box = QMessageBox(parent)
    box.setObjectName("problemReportBox")
    box.setWindowTitle(translate("help_pages", "Report a problem"))
    box.setIcon(QMessageBox.Icon.Information)
    box.setText(translate("help_pages", "Copied to the clipboard: paste it into your report."))
    box.setInformativeText(
        fill(
            translate(
                "help_pages",
                "%1\n\nAdd what you did, what you expected and what you saw instead "
                "(a screenshot helps). No password is in it.",
            ),
            text,
        )
    )
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()
    dispose(box)  # gone once read, not kept as the window's child (gui/lifetime.py)


def report_problem(window: Any) -> None:
    """Help → Report a problem: the versions, the store's schema read off the GUI thread
    when a workspace is open, copied and shown."""
    config, queries = window.config, window.queries
    if queries is None:
        copy_problem_report(window, problem_report(config, None))
        return

    def done(facts: StoreFacts) -> None:
        copy_problem_report(window, problem_report(config, facts))

    queries.submit(store_facts, done, window.show_message, key="problem report")


def show_about(window: QWidget) -> None:
    """Help → About Triage Desk: the version and what the app is for."""
    from triage_app import __version__

    QMessageBox.about(
        window,
        translate("help_pages", "About Triage Desk"),
        fill(
            translate(
                "help_pages",
                "Triage Desk %1\n\nQuarantine, fix and re-drive the rows a nightly "
                "batch could not load.",
            ),
            __version__,
        ),
    )
