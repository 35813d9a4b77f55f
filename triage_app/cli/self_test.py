"""``triage-app --self-test``: does this installation work? One line per check, in a
temporary workspace that is removed afterwards; exit 0, or 1 naming what failed.

Meant for the installed and the frozen app alike, where what breaks is what packaging left
out: a Qt plugin, the package's data, the migrations' files, a driver, the metadata that
registers the transforms. So each check goes through the same code the app runs.

The window it builds keeps its settings in the temporary folder too (``TRIAGE_SETTINGS_DIR``):
a self-test must not make its deleted workspace the user's recent one, nor its offscreen
window's size the user's.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from triage_app.core.messages import N_, _, ngettext

# A fixed demo row (line 4 of the seed batch lacks its qty) and what it becomes.
_FIXED = (
    '{"pesanan_id": 4, "waktu": "2026-01-11T08:05:00", "pelanggan": "Rina", '
    '"produk": "Seluar Linen", "qty": 2, "harga": 210000, "diskon": 0}'
)
_NATIVE_PLATFORM = {"linux": "xcb", "win32": "windows", "darwin": "cocoa"}
_ACTOR = "self-test"


@dataclass
class Outcome:
    name: str
    ok: bool
    detail: str


class _Checks:
    """The checks, in the order they run; later ones use what earlier ones made."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ws: Any = None

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        from triage_app import __version__

        try:
            installed = version("triage-desk")
        except PackageNotFoundError:
            # A frozen build without it also loses the entry points that register plugins.
            raise AssertionError(
                _("triage-desk {version} has no package metadata").format(version=__version__)
            ) from None
        if installed != __version__:
            raise AssertionError(
                _("metadata says {installed}, the code {version}").format(
                    installed=installed, version=__version__
                )
            )
        return f"triage-desk {installed}, Python {sys.version.split()[0]}"

    def transforms(self) -> str:
        from triage_app.core.transforms import (
            ENTRY_POINT_GROUP,
            default_registry,
            plugin_sources,
            plugins_dir,
        )

        registry = default_registry()
        refs = [t.ref for t in registry.all()]
        for wanted in ("pesanan@1", "pesanan@2", "orders@1"):
            if wanted not in refs:
                raise AssertionError(
                    _("{ref} is not registered (have: {refs})").format(
                        ref=wanted, refs=", ".join(refs)
                    )
                )
        if registry.problems:
            raise AssertionError(registry.problems[0])
        from importlib.metadata import entry_points

        plugins = [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)]
        folder = plugins_dir()
        return _(
            "{n} registered ({refs}); entry points: {entry_points}; plugins folder: "
            "{plugins} in {folder}"
        ).format(
            n=len(refs),
            refs=", ".join(refs),
            entry_points=len(plugins),
            plugins=len(plugin_sources(folder)),
            folder=folder,
        )

    def plugin_folder(self) -> str:
        """The sample plugin, copied into a plugins folder of its own, loads and transforms:
        what a frozen app's users rely on, since it cannot see pip's packages."""
        import shutil

        from triage_app.core.places import resources_dir
        from triage_app.core.transforms import Registry, load_plugin_folder

        folder = self.folder / "plugins"
        folder.mkdir()
        shutil.copy(resources_dir() / "plugins" / "produk.py", folder)
        registry = Registry()
        loaded, problems = load_plugin_folder(folder, registry.register)
        if problems:
            raise AssertionError(problems[0])
        row = registry.get("produk@1").fn({"sku": "btk-01", "nama": "kain  batik", "harga": 5})
        if row[:3] != ("BTK-01", "Kain Batik", 5):
            raise AssertionError(_("the sample plugin gave {row}").format(row=repr(row)))
        return _("the sample plugin loads from a plugins folder ({loaded})").format(
            loaded=", ".join(loaded)
        )

    def sqlite_driver(self) -> str:
        import sqlite3

        return f"sqlite3 {sqlite3.sqlite_version}"

    def postgresql_driver(self) -> str:
        import psycopg

        return f"psycopg {psycopg.__version__}, libpq {psycopg.pq.version()}"

    def migrations(self) -> str:
        from sqlalchemy import create_engine

        from triage_app.core.db import HEAD_REVISION, apply_every_migration

        engine = create_engine(f"sqlite:///{self.folder / 'migrations.db'}")
        try:
            rev = apply_every_migration(engine)
        finally:
            engine.dispose()
        if rev != HEAD_REVISION:
            raise AssertionError(
                _("an empty store went to {revision}, not {head}").format(
                    revision=rev, head=HEAD_REVISION
                )
            )
        return ngettext(
            "{n} revision applied to an empty store, at {revision}",
            "{n} revisions applied to an empty store, at {revision}",
            int(rev),
        ).format(n=int(rev), revision=rev)

    def demo_batch(self) -> str:
        from triage_app.core.db import open_workspace
        from triage_app.core.demo import make_demo

        self.ws = open_workspace(self.folder / "ws")
        _src, s = make_demo(self.ws)
        said = ngettext(
            "{n} row: {loaded} loaded, {quarantined} quarantined",
            "{n} rows: {loaded} loaded, {quarantined} quarantined",
            s.rows,
        ).format(n=s.rows, loaded=s.loaded, quarantined=s.quarantined)
        if (s.rows, s.loaded, s.quarantined) != (10, 6, 4):
            raise AssertionError(said)
        return said

    def edit_and_redrive(self) -> str:
        from triage_app.core.deadletters import edit_payload, redrive

        edit_payload(self.ws, 2, _FIXED, actor=_ACTOR)
        summary = redrive(self.ws, "pesanan@1", ids=[2], actor=_ACTOR)
        if summary.succeeded != 1:
            raise AssertionError(
                _("the edited row did not load: {summary}").format(summary=summary)
            )
        return _("dead letter 2 edited and re-driven: resolved")

    def qt_platform(self) -> str:
        from PySide6.QtCore import QLibraryInfo

        from triage_app.gui.app import application

        app = application()
        plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
        names = sorted(p.name for p in plugins.iterdir()) if plugins.is_dir() else []
        native = _NATIVE_PLATFORM.get(sys.platform)
        if native is not None and not any(native in n for n in names):
            raise AssertionError(
                _("no {platform} platform plugin in {folder}").format(
                    platform=native, folder=plugins
                )
            )
        return _("{platform} loaded; plugins: {plugins}").format(
            platform=app.platformName(), plugins=", ".join(names)
        )

    def text(self) -> str:
        """Qt's collation and case mapping, which read ICU's data: a packaged app carries a
        trimmed copy of it (packaging/trim.py), and a missing item shows here."""
        from PySide6.QtCore import QCollator, QLocale, qInstallMessageHandler

        complaints: list[str] = []
        previous = qInstallMessageHandler(lambda _kind, _ctx, msg: complaints.append(msg))
        try:
            czech = QCollator(QLocale("cs_CZ"))  # "ch" sorts after "h", "ž" after "z"
            order = sorted(["ž", "z", "ch", "h", "c", "č"], key=czech.sortKey)
            upper = QLocale("tr_TR").toUpper("istanbul")
        finally:
            qInstallMessageHandler(previous)
        if order != ["c", "č", "h", "ch", "z", "ž"]:
            raise AssertionError(_("Czech collation gave {order}").format(order=order))
        if upper != "İSTANBUL":
            raise AssertionError(_("Turkish upper case gave {text}").format(text=repr(upper)))
        if complaints:
            raise AssertionError(_("Qt said: {complaint}").format(complaint=complaints[0]))
        return _("collation and case mapping by locale (ICU data present)")

    def translations(self) -> str:
        """The Indonesian catalogues load, the command line's (gettext) and the window's
        (Qt): the package's data a frozen app could leave out, or fail to compile."""
        import gettext

        from PySide6.QtCore import QTranslator

        from triage_app.core.catalogues import gettext_catalogue, qt_catalogue

        one, many = "self-test passed: {n} check", "self-test passed: {n} checks"
        with gettext_catalogue("id").open("rb") as handle:
            said = gettext.GNUTranslations(handle).ngettext(one, many, 2)
        if said in (one, many):
            raise AssertionError(
                _("the Indonesian catalogue does not translate {text}").format(text=repr(many))
            )
        qm = qt_catalogue("id")
        if not QTranslator().load(str(qm)):
            raise AssertionError(_("Qt cannot load {file}").format(file=qm.name))
        return _("Indonesian loads: {text}").format(text=repr(said))

    def main_window(self) -> str:
        from PySide6.QtWidgets import QApplication

        from triage_app.gui import open_window

        window = open_window(str(self.folder / "ws"))
        app = QApplication.instance()
        kept = Path(window.settings.file_name())
        if not kept.is_relative_to(self.folder):
            window.close()
            raise AssertionError(
                _("the window's settings would go to {file}, the user's own").format(file=kept)
            )
        deadline = time.monotonic() + 20
        while window.model.total() is None or window.queries is None or window.queries.busy():
            if time.monotonic() > deadline:
                raise AssertionError(_("the table did not fill within 20 s"))
            app.processEvents()
            time.sleep(0.01)
        shown = window.model.total()
        window.close()
        app.processEvents()
        if shown != 3:  # the demo's four dead letters, one resolved: three open
            raise AssertionError(
                ngettext(
                    "the table shows {n} open dead letter, not 3",
                    "the table shows {n} open dead letters, not 3",
                    shown or 0,
                ).format(n=shown)
            )
        return ngettext(
            "built; the table shows {n} open dead letter",
            "built; the table shows {n} open dead letters",
            shown,
        ).format(n=shown)

    def chart_png(self) -> str:
        from triage_app.core.trends import compute_trends
        from triage_app.gui.trends.report import render_charts

        out = self.folder / "charts"
        out.mkdir()
        paths = render_charts(compute_trends(self.ws), out)
        sizes = [p.stat().st_size for p in paths]
        if (
            not paths
            or min(sizes) == 0
            or any(p.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n" for p in paths)
        ):
            raise AssertionError(_("the charts are not PNG files"))
        return ngettext(
            "{n} chart rendered to PNG", "{n} charts rendered to PNG", len(paths)
        ).format(n=len(paths))

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def run_self_test(out: TextIO = sys.stdout) -> int:
    """Run every check; 0 when all passed, else 1."""
    # The window is built offscreen: the check is of the app, not of this session's display.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="triage-self-test-") as tmp, _settings_in(Path(tmp)):
        checks = _Checks(Path(tmp))
        steps: list[tuple[str, Callable[[], str]]] = [
            (N_("version"), checks.version),
            (N_("transforms"), checks.transforms),
            (N_("plugin folder"), checks.plugin_folder),
            (N_("sqlite driver"), checks.sqlite_driver),
            (N_("postgresql driver"), checks.postgresql_driver),
            (N_("migrations"), checks.migrations),
            (N_("demo batch"), checks.demo_batch),
            (N_("edit and re-drive"), checks.edit_and_redrive),
            (N_("qt platform"), checks.qt_platform),
            (N_("text"), checks.text),
            (N_("translations"), checks.translations),
            (N_("main window"), checks.main_window),
            (N_("chart to png"), checks.chart_png),
        ]
        ok, fail = _("ok"), _("FAIL")
        width = max(len(ok), len(fail))
        try:
            for name, step in steps:
                outcomes.append(_run(_(name), step))
                o = outcomes[-1]
                print(f"{ok if o.ok else fail:{width}} {o.name}: {o.detail}", file=out, flush=True)
        finally:
            checks.close()
    failed = [o.name for o in outcomes if not o.ok]
    if failed:
        print(_("self-test failed: {checks}").format(checks=", ".join(failed)), file=out)
        return 1
    n = len(outcomes)
    print(
        ngettext("self-test passed: {n} check", "self-test passed: {n} checks", n).format(n=n),
        file=out,
    )
    return 0


@contextmanager
def _settings_in(folder: Path) -> Iterator[None]:
    """The window's settings in ``folder/settings`` while the checks run, whatever was named
    before (set before anything reads them: Qt reads nothing until asked)."""
    from triage_app.core.places import SETTINGS_DIR_ENV

    before = os.environ.get(SETTINGS_DIR_ENV)
    os.environ[SETTINGS_DIR_ENV] = str(folder / "settings")
    try:
        yield
    finally:
        if before is None:
            del os.environ[SETTINGS_DIR_ENV]
        else:
            os.environ[SETTINGS_DIR_ENV] = before


def _run(name: str, step: Callable[[], str]) -> Outcome:
    try:
        return Outcome(name, True, step())
    except Exception as exc:  # a failed check is reported, and the others still run
        where = traceback.extract_tb(exc.__traceback__)[-1]
        detail = f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})"
        return Outcome(name, False, " ".join(detail.split()))
