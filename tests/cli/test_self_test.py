"""``triage-app --self-test``: every check passes on a working installation, and a broken
part is named while the other checks still run (issue 12)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import cli
from triage_app.core.db import HEAD_REVISION

CHECKS = [
    "version",
    "transforms",
    "plugin folder",
    "sqlite driver",
    "postgresql driver",
    "migrations",
    "demo batch",
    "edit and re-drive",
    "qt platform",
    "text",
    "translations",
    "main window",
    "chart to png",
]


def checks(stdout: str) -> dict[str, str]:
    """Each check's verdict (ok or FAIL) by name."""
    out = {}
    for line in stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("ok", "FAIL"):
            out[rest.strip().split(":")[0]] = verdict
    return out


def test_a_working_installation_passes_every_check(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = cli("--self-test", env=env, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    assert checks(out.stdout) == dict.fromkeys(CHECKS, "ok")
    assert out.stdout.splitlines()[-1] == f"self-test passed: {len(CHECKS)} checks"
    head = HEAD_REVISION
    assert f"migrations: {int(head)} revisions applied to an empty store, at {head}" in out.stdout
    assert list(tmp_path.iterdir()) == []  # its temporary workspace is gone


def test_a_missing_driver_is_named_and_the_rest_still_run(tmp_path: Path) -> None:
    # What a package that left the PostgreSQL driver out looks like from inside.
    (tmp_path / "psycopg.py").write_text("raise ImportError('no psycopg in this build')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = cli("--self-test", env=env, timeout=180)
    assert out.returncode == 1
    got = checks(out.stdout)
    assert got.pop("postgresql driver") == "FAIL"
    assert set(got.values()) == {"ok"} and len(got) == len(CHECKS) - 1
    assert "FAIL postgresql driver: ImportError: no psycopg in this build" in out.stdout
    assert out.stdout.splitlines()[-1] == "self-test failed: postgresql driver"


@pytest.mark.slow
def test_the_self_test_leaves_the_users_settings_alone(tmp_path: Path) -> None:
    """Its window is built offscreen in a temporary workspace: neither that workspace (gone
    afterwards) nor the offscreen window's geometry may become the user's (issue 20)."""
    home = tmp_path / "home"
    config = home / ".config"
    settings = config / "TriageDesk" / "triage-desk.conf"
    settings.parent.mkdir(parents=True)
    settings.write_bytes(
        b"[General]\n"
        b"recent\\workspaces=/home/steward/workspace\n"
        b"window\\geometry=@ByteArray(\\x1\\xd9\\xd0\\xcb\\0\\x3\\0\\0\\0\\0\\0\\x64)\n"
    )
    before = {p: p.read_bytes() for p in config.rglob("*") if p.is_file()}
    env = {k: v for k, v in os.environ.items() if k != "TRIAGE_SETTINGS_DIR"}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(config), TMPDIR=str(tmp_path))
    out = cli("--self-test", env=env, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    after = {p: p.read_bytes() for p in config.rglob("*") if p.is_file()}
    assert after == before  # byte for byte, and no file added beside it


def test_the_self_test_speaks_indonesian(tmp_path: Path) -> None:
    """Its lines in the user's language (issue 28), with the check that the Indonesian
    catalogues load among them."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "TRIAGE_LANG": "id"}
    out = cli("--self-test", env=env, timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    *lines, last = out.stdout.splitlines()
    assert last == f"uji mandiri lolos: {len(CHECKS)} pemeriksaan"
    verdicts, details = zip(*(line.split(None, 1) for line in lines), strict=True)
    assert set(verdicts) == {"ok"} and len(lines) == len(CHECKS)
    assert details[0].startswith("versi: triage-desk ")
    assert any(d.startswith("terjemahan: bahasa Indonesia dimuat: 'uji mandiri") for d in details)
    assert any(" revisi diterapkan pada penyimpanan kosong, kini di " in d for d in details)
