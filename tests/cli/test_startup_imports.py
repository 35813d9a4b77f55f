"""`triage-app run` imports only what a run needs (issue 11: start-up).

Checked, not timed (the timing is benchmarks/bench_startup.py): after ``main([... run
...])`` in a child process, ``sys.modules`` holds no Alembic, keyring, Qt or psycopg on a
SQLite workspace, no SQLAlchemy ORM at all (the store's tables are Core tables), and none
of the engine's parts that a run does not use: of the dead letters, only the filters and
the error groups' query the stats cache's warming counts with, and after a batch that
quarantined nothing not even those. The dead letters' package loads its parts on demand and
still answers every name of its interface as the eager one did. The registry looks for
plugins only when a question needs them."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import triage_app.core.deadletters as deadletters
from tests.support import gen_batch
from triage_app.core.errors import TriageError
from triage_app.core.transforms import Registry, Transform, default_registry

# Never on the run path of a SQLite workspace: migrations (the schema's fast path knows a
# current store without them), passwords (only URLs with one), the window, the PostgreSQL
# driver and dialect; nor the ORM on any store (importing it cost a run some 60 ms).
NEVER = (
    "sqlalchemy.orm",
    "alembic",
    "keyring",
    "PySide6",
    "shiboken6",
    "pyqtgraph",
    "psycopg",
    "sqlalchemy.dialects.postgresql",
)
# Parts of the engine a run does not use: after a new batch the stats cache is warmed
# (trends, and the dead letters' filters), a rerun ("already loaded") does neither.
NOT_FOR_A_RUN = ("triage_app.core.verify", "triage_app.core.demo", "triage_app.gui")
NOT_FOR_A_RERUN = (*NOT_FOR_A_RUN, "triage_app.core.trends", "triage_app.core.deadletters")
# All a new batch loads of the dead letters' package, for the stats cache: the filters, and
# the error groups' query (not their write path, which would load transitions), and the
# words its sentences use (said: a status or a time as the reader's language says it).
DEAD_LETTERS_FOR_A_RUN = [
    "triage_app.core.deadletters",
    "triage_app.core.deadletters.filters",
    "triage_app.core.deadletters.groups",
    "triage_app.core.deadletters.said",
]

_CHILD = """
import json, sys
from triage_app.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def modules_after(*args: str) -> tuple[str, set[str]]:
    """The CLI's output and the modules loaded after ``main(args)`` in a new interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    *printed, last = out.stdout.strip().splitlines()
    result = json.loads(last)
    assert result["code"] == 0, out.stdout + out.stderr
    return "\n".join(printed), set(result["modules"])


def loaded(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == r or m.startswith(r + ".") for r in roots))


@pytest.mark.slow
def test_a_run_imports_nothing_it_does_not_need(tmp_path: Path) -> None:
    ws = str(tmp_path / "ws")
    small = gen_batch(tmp_path / "small.jsonl", 10, bad=0.1, seed=7)
    other = gen_batch(tmp_path / "other.jsonl", 10, bad=0.3, seed=11)  # quarantines rows

    def run(src: Path) -> tuple[str, set[str]]:
        return modules_after("--workspace", ws, "run", str(src), "--transform", "pesanan@1")

    # A fresh workspace (the store is created), then a new file into it, then a rerun.
    first, on_fresh = run(small)
    assert "10 rows" in first
    second, on_existing = run(other)
    assert "10 rows" in second and "already" not in second and "0 quarantined" not in second
    again, on_rerun = run(small)
    assert "already loaded" in again

    for modules in (on_fresh, on_existing, on_rerun):
        assert "triage_app.core.batch" in modules  # the check sees what a run loads
        assert loaded(modules, NEVER) == []
    for modules in (on_fresh, on_existing):
        assert "triage_app.core.trends" in modules  # the stats cache is warmed
        assert loaded(modules, NOT_FOR_A_RUN) == []
        assert loaded(modules, ("triage_app.core.deadletters",)) == DEAD_LETTERS_FOR_A_RUN
    assert loaded(on_rerun, NOT_FOR_A_RERUN) == []


# Trends' code that counts dead letters: a batch that quarantined nothing never loads it.
COUNTING = (
    "triage_app.core.trends.compute",
    "triage_app.core.trends.counting",
    "triage_app.core.trends.stats",
    "triage_app.core.deadletters",
)


@pytest.mark.slow
def test_a_batch_that_quarantines_nothing_counts_no_dead_letter(tmp_path: Path) -> None:
    """After a clean batch only the batches' totals in the stats cache's stamp move, and the
    entry is re-stamped with the batches' part of Trends read again (trends/stats_cache.py):
    the run loads that part and nothing that counts dead letters."""
    ws = str(tmp_path / "ws")
    bad = gen_batch(tmp_path / "bad.jsonl", 10, bad=0.1, seed=7)
    clean = gen_batch(tmp_path / "clean.jsonl", 10, bad=0.0, seed=8)

    def run(src: Path) -> tuple[str, set[str]]:
        return modules_after("--workspace", ws, "run", str(src), "--transform", "pesanan@1")

    first, counted = run(bad)
    assert "0 quarantined" not in first
    assert loaded(counted, COUNTING) != []  # the first warming counts everything
    second, restamped = run(clean)
    assert "10 rows" in second and "0 quarantined" in second
    assert "triage_app.core.trends.batches" in restamped
    assert loaded(restamped, COUNTING) == []
    assert loaded(restamped, (*NEVER, *NOT_FOR_A_RUN)) == []


def _interface_imports(package: ModuleType) -> dict[str, tuple[str, str]]:
    """What a lazy package's ``__init__`` imports for the checkers: name -> (part, name)."""
    tree = ast.parse(Path(package.__file__ or "").read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            f"{package.__name__}."
        ):
            part = node.module.rsplit(".", 1)[1]  # type: ignore[union-attr]
            for alias in node.names:
                found[alias.asname or alias.name] = (part, alias.name)
    return found


def _table(package: ModuleType) -> dict[str, tuple[str, str]]:
    """A lazy package's ``_PARTS`` as name -> (part, name), each name from one part."""
    names = [name for names in package._PARTS.values() for name in names]
    assert len(names) == len(set(names))  # each name listed once
    return {name: (part, name) for part, names in package._PARTS.items() for name in names}


def test_the_lazy_dead_letters_package_answers_what_it_imported() -> None:
    """Each name of the interface is the object its part defines, the one the checkers see
    imported; no name is left out of ``__all__`` or the table that loads it."""
    import importlib

    imports = _interface_imports(deadletters)
    assert len(imports) > 50
    assert sorted(imports) == sorted(deadletters.__all__)
    assert imports == _table(deadletters)
    assert not set(deadletters._PARTS) & set(imports)  # no part is named like a name of it
    for name, (part, there) in imports.items():
        module = importlib.import_module(f"triage_app.core.deadletters.{part}")
        assert getattr(deadletters, name) is getattr(module, there), name
    assert callable(deadletters.purge) and callable(deadletters.audit_trail)
    assert set(dir(deadletters)) >= set(deadletters.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        deadletters.no_such_name  # noqa: B018


def test_the_lazy_trends_package_answers_what_it_imported() -> None:
    """As the dead letters' package: every name of ``triage_app.core.trends`` is the object
    its part defines, the one the checkers see imported, loaded on first use."""
    import importlib

    import triage_app.core.trends as trends

    imports = _interface_imports(trends)
    assert sorted(imports) == sorted(trends.__all__)
    assert imports == _table(trends)
    assert not set(trends._PARTS) & set(imports)  # no part is named like a name of it
    for name, (part, there) in imports.items():
        module = importlib.import_module(f"triage_app.core.trends.{part}")
        assert getattr(trends, name) is getattr(module, there), name
    assert set(dir(trends)) >= set(trends.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        trends.no_such_name  # noqa: B018


def test_a_name_listed_under_two_parts_is_refused() -> None:
    """The table is the interface: a name under two parts would load whichever came last."""
    from triage_app.core.lazy_package import lazy_interface

    with pytest.raises(ValueError, match="'x' is listed under 'a' and 'b'"):
        lazy_interface("pkg", {"a": ("x",), "b": ("x", "y")}, {})


_SHADOWS = """
import importlib, sys, types
{first}
from triage_app.core.deadletters import audit_trail, purge
import triage_app.core.deadletters as dls
print(all(
    isinstance(f, types.FunctionType)
    for f in (audit_trail, purge, dls.purge, dls.audit_trail)
))
print(sorted(m for m in sys.modules if m.startswith("triage_app.core.deadletters.")))
"""


@pytest.mark.parametrize(
    "first",
    [
        "",
        "import triage_app.core.deadletters.retention, triage_app.core.deadletters.trail",
        "from triage_app.core.deadletters.trail import parse_action",
        "from triage_app.core.deadletters import redrive",  # loads parts that load others
    ],
)
@pytest.mark.slow
def test_purge_and_audit_trail_are_the_functions_however_their_parts_loaded(first: str) -> None:
    """The package's ``purge`` and ``audit_trail`` are the functions, even where their parts
    were loaded first: the import system binds a part to the package's attribute of the
    part's name, so no part is named like a function it exports (``retention``, ``trail``)."""
    out = subprocess.run(
        [sys.executable, "-c", _SHADOWS.format(first=first)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    functions, parts = out.stdout.splitlines()
    assert functions == "True"
    assert "triage_app.core.deadletters.retention" in parts


def test_a_part_loads_only_when_one_of_its_names_is_asked_for() -> None:
    code = (
        "import sys\n"
        "import triage_app.core.deadletters as dls\n"
        "before = sorted(m for m in sys.modules if m.startswith('triage_app.core.deadletters.'))\n"
        "dls.DeadLetterFilter\n"
        "after = sorted(m for m in sys.modules if m.startswith('triage_app.core.deadletters.'))\n"
        "print(before, after)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[] ['triage_app.core.deadletters.filters']"


def _transform(name: str, version: int) -> Transform:
    builtin = default_registry().get("pesanan@1")
    return Transform(name, version, builtin.table, builtin.key, builtin.columns, builtin.fn)


def test_plugins_are_looked_for_only_when_needed() -> None:
    calls: list[int] = []
    plugin = _transform("produk", 1)

    def plugins(reg: Registry) -> None:
        calls.append(1)
        reg.register(plugin)

    reg = Registry(plugins=plugins)
    builtin = reg.register(_transform("pesanan", 1))
    assert reg.get("pesanan@1") is builtin
    assert calls == []  # a built-in's exact reference needs no plugin
    assert reg.get("produk@1") is plugin  # one no built-in answers looks for them
    assert calls == [1]
    assert [t.ref for t in reg.all()] == ["pesanan@1", "produk@1"]
    assert reg.newest("produk") is plugin
    assert calls == [1]  # once


@pytest.mark.parametrize("question", ["all", "newest", "unknown"])
def test_every_question_about_the_whole_list_sees_the_plugins(question: str) -> None:
    def plugins(r: Registry) -> None:
        r.register(_transform("pesanan", 7))

    reg = Registry(plugins=plugins)
    reg.register(_transform("pesanan", 1))
    if question == "all":
        assert [t.ref for t in reg.all()] == ["pesanan@1", "pesanan@7"]
    elif question == "newest":
        assert reg.newest("pesanan").version == 7
        assert reg.get("pesanan").version == 7
    else:
        with pytest.raises(TriageError, match="known: pesanan@1, pesanan@7"):
            reg.get("pesanan@9")


def test_a_plugin_that_fails_is_looked_for_again() -> None:
    attempts: list[int] = []

    def plugins(reg: Registry) -> None:
        attempts.append(1)
        reg.register(_transform("half", 1))  # registered, then the plugin fails
        if len(attempts) == 1:
            raise RuntimeError("broken plugin")
        reg.register(_transform("whole", 1))

    reg = Registry(plugins=plugins)
    with pytest.raises(RuntimeError):
        reg.all()
    assert [t.ref for t in reg.all()] == ["half@1", "whole@1"]  # from scratch, no duplicate
    assert len(attempts) == 2


def test_the_collector_is_left_as_it_was_found(tmp_path: Path) -> None:
    """main pauses the garbage collector while the engine imports; a process that goes on
    after main (the tests, a script) gets it back running and nothing left frozen, and one
    that had stopped it finds it stopped."""
    import gc

    from triage_app.cli import main

    src = gen_batch(tmp_path / "small.jsonl", 10, bad=0.1, seed=9)
    args = ["--workspace", str(tmp_path / "ws"), "run", str(src), "--transform", "pesanan@1"]
    assert gc.isenabled()
    assert main(args) == 0
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert main(["--workspace", str(tmp_path / "nowhere"), "list"]) == 2  # refused
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        assert main(args) == 0  # already loaded
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


_WHILE_WORKING = """
import gc, sys
from triage_app.core import jobs
from triage_app.cli import main
run = jobs.BatchJob.run

def watched(self, ws, *a, **k):
    print("collector at work:", gc.isenabled(), gc.get_freeze_count() > 0)
    return run(self, ws, *a, **k)

jobs.BatchJob.run = watched
sys.exit(main(sys.argv[1:]))
"""


def test_the_collector_runs_during_the_work(tmp_path: Path) -> None:
    """Paused for the imports only: a batch of a million rows runs with it (and the lane's
    memory stays bounded)."""
    src = gen_batch(tmp_path / "small.jsonl", 10, bad=0.1, seed=10)
    args = ["--workspace", str(tmp_path / "ws"), "run", str(src), "--transform", "pesanan@1"]
    out = subprocess.run(
        [sys.executable, "-c", _WHILE_WORKING, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "collector at work: True True" in out.stdout


def test_a_question_asked_while_the_plugins_load_waits_for_them() -> None:
    """The window asks from worker threads too: none sees the list half made."""
    import threading

    started, go_on = threading.Event(), threading.Event()

    def plugins(reg: Registry) -> None:
        started.set()
        assert go_on.wait(10)
        reg.register(_transform("produk", 1))

    reg = Registry(plugins=plugins)
    reg.register(_transform("pesanan", 1))
    seen: list[list[str]] = []
    first = threading.Thread(target=lambda: seen.append([t.ref for t in reg.all()]))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=lambda: seen.append([t.ref for t in reg.all()]))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the first to finish loading
    go_on.set()
    first.join(10)
    second.join(10)
    assert seen == [["pesanan@1", "produk@1"]] * 2
