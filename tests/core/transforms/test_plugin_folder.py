"""Transform plugins from the plugins folder in the user's data folder: how a packaged app,
which cannot see pip's packages, gets its users' transforms (issue 12)."""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

from tests.support import cli
from triage_app.core.places import resources_dir
from triage_app.core.transforms import Registry, load_plugin_folder, plugin_sources

SAMPLE = resources_dir() / "plugins" / "produk.py"

_EXTRA = textwrap.dedent("""
    from triage_app.core.transforms import Column, Transform

    def _fn(rec):
        return (rec["kode"], rec["kota"])

    def transforms():
        return [Transform("gudang", 1, "gudang", "kode",
                          (Column("kode", "text"), Column("kota", "text")), _fn)]
""")


def _env(data_home: Path) -> dict[str, str]:
    """The CLI with its data folder (platformdirs: XDG_DATA_HOME) under ``data_home``."""
    return {**os.environ, "XDG_DATA_HOME": str(data_home)}


def test_files_and_packages_load_and_disabled_ones_do_not(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path)
    package = tmp_path / "gudang"
    package.mkdir()
    (package / "__init__.py").write_text("from .rules import transforms\n")
    (package / "rules.py").write_text(_EXTRA)  # a package may hold modules of its own
    (tmp_path / "_off.py").write_text("raise SystemExit('switched off, never imported')\n")
    (tmp_path / "notes.txt").write_text("not a plugin")

    registry = Registry()
    loaded, problems = load_plugin_folder(tmp_path, registry.register)

    assert problems == []
    assert loaded == ["gudang", "produk.py"]
    assert [t.ref for t in registry.all()] == ["gudang@1", "produk@1"]
    assert registry.get("gudang@1").fn({"kode": "G1", "kota": "Solo"}) == ("G1", "Solo")


def test_a_broken_plugin_is_reported_in_one_line_and_the_others_still_load(
    tmp_path: Path,
) -> None:
    shutil.copy(SAMPLE, tmp_path)
    (tmp_path / "rusak.py").write_text("def oops(:\n")
    (tmp_path / "kosong.py").write_text("X = 1\n")
    (tmp_path / "salah.py").write_text("TRANSFORMS = ['not a transform']\n")

    registry = Registry()
    loaded, problems = load_plugin_folder(tmp_path, registry.register)

    assert loaded == ["produk.py"]
    assert len(problems) == 3
    assert all("\n" not in p for p in problems)
    by_file = {Path(p.split(": ")[0].removeprefix("plugin ")).name: p for p in problems}
    assert "SyntaxError" in by_file["rusak.py"]
    assert "defines neither TRANSFORMS nor transforms()" in by_file["kosong.py"]
    assert "TypeError: gave str, not a Transform" in by_file["salah.py"]


def test_no_folder_means_no_plugins(tmp_path: Path) -> None:
    assert plugin_sources(tmp_path / "absent") == []


def test_the_cli_runs_a_batch_through_a_plugin_from_the_data_folder(tmp_path: Path) -> None:
    plugins = tmp_path / "data" / "triage-desk" / "plugins"
    plugins.mkdir(parents=True)
    shutil.copy(SAMPLE, plugins)
    source = tmp_path / "katalog.jsonl"
    source.write_text(
        '{"sku": "btk-01", "nama": "kain batik", "harga": 125000, "diubah": "2026-01-02"}\n'
        '{"sku": "", "nama": "tanpa sku", "harga": 1}\n'
        '{"sku": "btk-01", "nama": "kain batik lama", "harga": 99, "diubah": "2026-01-01"}\n'
    )
    env = _env(tmp_path / "data")
    ws = str(tmp_path / "ws")

    listed = cli("transforms", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "produk@1" in listed.stdout
    assert f"plugins folder: {plugins}" in listed.stdout

    ran = cli("--workspace", ws, "--json", "run", str(source), "--transform", "produk@1", env=env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    summary = json.loads(ran.stdout)
    assert (summary["loaded"], summary["superseded"], summary["quarantined"]) == (1, 1, 1)
    dl = json.loads(cli("--workspace", ws, "--json", "list", env=env).stdout)
    assert [d["error"] for d in dl] == ["DataError: kolom wajib hilang: sku"]


def test_a_broken_plugin_warns_but_the_builtins_keep_working(tmp_path: Path) -> None:
    plugins = tmp_path / "data" / "triage-desk" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "rusak.py").write_text("import does_not_exist_anywhere\n")
    env = _env(tmp_path / "data")

    listed = cli("--json", "transforms", env=env)
    assert listed.returncode == 0, listed.stderr
    refs = [t["ref"] for t in json.loads(listed.stdout)]
    assert refs == ["jurnal@1", "orders@1", "pesanan@1", "pesanan@2"]
    warning = listed.stderr.strip()
    assert warning.startswith(f"warning: plugin {plugins / 'rusak.py'}: ModuleNotFoundError:")
    assert "Traceback" not in warning and "\n" not in warning

    unknown = cli("run", str(tmp_path / "x.jsonl"), "--transform", "produk@1", env=env)
    assert unknown.returncode != 0
    assert "1 plugin failed to load" in unknown.stderr
    assert "Traceback" not in unknown.stderr
