"""Starting the window: the display check, the QApplication, the main window.

Qt aborts the process when it finds no display; ``run_gui`` checks first and says, in
one line, what is missing and how to get it.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from triage_app.core import language
from triage_app.core.messages import N_, _

if TYPE_CHECKING:  # Qt loads only once a window is wanted (the display is checked first)
    from PySide6.QtWidgets import QApplication

XCB_PACKAGES = (
    "xvfb libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 "
    "libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0"
)
# The libraries Qt's xcb platform plugin loads beyond what every desktop has.
XCB_LIBRARIES = (
    "xcb-cursor",
    "xcb-icccm",
    "xcb-keysyms",
    "xcb-image",
    "xcb-render-util",
    "xcb-shape",
    "xcb-xkb",
    "xkbcommon-x11",
)
# The application's name in title bars: Qt appends it to every window's title where the
# platform's title bars name the app, so no window title spells it out again.
DISPLAY_NAME = "Triage Desk"
# Said before Qt exists (so through gettext, not Qt's translators); {packages} is
# XCB_PACKAGES.
HOW_TO_GET_ONE = N_(
    "install a display with `sudo apt-get install {packages}` and run under "
    "`xvfb-run triage-app`, or set QT_QPA_PLATFORM=offscreen to run headless"
)


def display_problem(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    find_library: object = None,
) -> str | None:
    """Why the window cannot be shown here, or None when it can (as far as we can tell)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    find = find_library or ctypes.util.find_library
    if env.get("QT_QPA_PLATFORM"):
        return None
    if not platform.startswith("linux"):
        return None
    if env.get("WAYLAND_DISPLAY"):
        return None
    how = _(HOW_TO_GET_ONE).format(packages=XCB_PACKAGES)
    if not env.get("DISPLAY"):
        return _("no display available (DISPLAY is not set): {how}").format(how=how)
    missing = [lib for lib in XCB_LIBRARIES if not find(lib)]  # type: ignore[operator]
    if missing:
        names = ", ".join(f"lib{m}" for m in missing)
        return _("the display's system libraries are missing ({names}): {how}").format(
            names=names, how=how
        )
    return None


def application() -> QApplication:
    """The process's QApplication, made on first use with the app's name and icon; the
    window, the self-test and the tests share it."""
    from PySide6.QtWidgets import QApplication

    from triage_app.gui.lifetime import collect_in_gui_thread
    from triage_app.gui.settings import APPLICATION, ORGANIZATION, app_icon

    app = QApplication.instance()
    if app is None:
        if not QApplication.organizationName():
            QApplication.setOrganizationName(ORGANIZATION)
        QApplication.setApplicationName(APPLICATION)
        app = QApplication(sys.argv[:1])
        app.setApplicationDisplayName(DISPLAY_NAME)
        app.setWindowIcon(app_icon())
    if not app.property("triage_language"):
        # Once per process, before any widget is made (a widget's texts are fixed when made).
        from triage_app.gui.i18n import install_language

        app.setProperty("triage_language", install_language(app, language.explicit()))
    # Qt objects die in the GUI thread only: never by a garbage collection that a query or
    # job thread happened to trigger (gui/lifetime.py).
    collect_in_gui_thread(app)
    return app


def open_window(
    workspace: str | os.PathLike[str] | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
):  # type: ignore[no-untyped-def]
    """The main window on the workspace, shown, without entering the event loop.

    Raises TriageError when the workspace cannot be opened.
    """
    from triage_app.core.db import resolve_config
    from triage_app.gui.window.main_window import MainWindow

    application()
    config = resolve_config(workspace, warehouse_url, dead_letter_url)
    window = MainWindow(config)
    window.show()
    _freeze_heap()
    return window


def _freeze_heap() -> None:
    """Leave what start-up made (the modules, Qt's wrappers, the window) out of the cyclic
    garbage collector's full passes. A full pass walks every object of the process, holding
    the interpreter lock: with these some 125,000 objects, about 150 ms in which the window
    cannot paint, and a long job (a re-drive's results) triggers one every few seconds.
    Frozen, a pass walks only what came since."""
    import gc

    gc.freeze()


def run_gui(
    workspace: str | os.PathLike[str] | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
) -> int:
    """``triage-app`` and ``triage-app gui``: the window until it is closed."""
    problem = display_problem()
    if problem is not None:
        print(f"triage-app: {problem}", file=sys.stderr)
        return 2
    app = application()
    window = first_window(workspace, warehouse_url=warehouse_url, dead_letter_url=dead_letter_url)
    from triage_app.gui.first_paint import report_first_paint

    report_first_paint(window)
    # Quitting without closing the window (the session ends, QApplication.quit) still joins
    # its threads: a QThread destroyed while it runs aborts the process.
    app.aboutToQuit.connect(window.shut_down)
    return int(app.exec())


def first_window(
    workspace: str | os.PathLike[str] | None = None,
    *,
    warehouse_url: str | None = None,
    dead_letter_url: str | None = None,
):  # type: ignore[no-untyped-def]
    """The window the app starts with: on the workspace named (or the default one), or on
    the welcome page when there is none yet or it cannot be opened. A named folder without
    a workspace becomes one only if the steward says so (a mistyped or unmounted folder
    must not open as an empty queue)."""
    from PySide6.QtWidgets import QMessageBox

    from triage_app.core.db import missing_workspace, resolve_config
    from triage_app.core.errors import TriageError
    from triage_app.core.places import is_first_run, printable
    from triage_app.gui.i18n import translate
    from triage_app.gui.window.main_window import MainWindow
    from triage_app.gui.window.opening import ask_create

    application()
    if is_first_run(workspace, (warehouse_url, dead_letter_url)):
        config, missing = None, None
    else:
        config = resolve_config(workspace, warehouse_url, dead_letter_url)
        missing = missing_workspace(config)
    refusal = None
    if config is not None and missing is None:
        try:
            return open_window(
                workspace, warehouse_url=warehouse_url, dead_letter_url=dead_letter_url
            )
        except TriageError as exc:
            refusal = str(exc)
    window = MainWindow(None)  # the welcome page: the demo, a folder, a team store
    window.show()
    asked = config is not None and missing is not None
    if asked and ask_create(window, printable(config.description), missing):
        try:
            window.open_config(config)
        except TriageError as exc:
            refusal = str(exc)
    if refusal is not None:
        QMessageBox.warning(window, translate("app", "Cannot open the workspace"), refusal)
    return window
