"""``make package-test``: install the built ``.deb`` into a scratch root (``dpkg -x``, no
root and no container) and use the frozen app there as ops would: its self-test, the demo,
a report, the sample transform plugin from the plugins folder, and a batch into a fresh
PostgreSQL database. One line per step; exit 0, or 1
naming the step that failed.

    .venv/bin/python packaging/package_test.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
PG_ADMIN = os.environ.get("TRIAGE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def step(name: str, cmd: list[str], env: dict[str, str], expect: str = "") -> str:
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    took = time.perf_counter() - start
    if out.returncode != 0 or expect not in out.stdout:
        print(f"FAIL {name} ({took:.1f} s): exit {out.returncode}")
        print((out.stdout + out.stderr)[-2000:])
        sys.exit(1)
    print(f"ok   {name} ({took:.1f} s)")
    return out.stdout


def fresh_database() -> tuple[str, str] | None:
    """A new PostgreSQL database for the batch, and its name; None when no server answers."""
    try:
        import psycopg
    except ImportError:
        return None
    admin = PG_ADMIN.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"triage_pkg_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError:
        return None
    return admin.rsplit("/", 1)[0] + "/" + name, name


def drop_database(name: str) -> None:
    import psycopg

    admin = PG_ADMIN.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def lint(deb: Path) -> None:
    """lintian, where installed: no errors (the overrides shipped in the package say why
    each rule a bundle in /opt cannot follow is set aside)."""
    if shutil.which("lintian") is None:
        if os.environ.get("CI"):
            sys.exit("FAIL lintian: not installed (apt-get install lintian)")
        print("skip lintian: not installed (apt-get install lintian)")
        return
    out = subprocess.run(["lintian", str(deb)], capture_output=True, text=True, timeout=900)
    errors = [line for line in out.stdout.splitlines() if line.startswith("E:")]
    warnings = [line for line in out.stdout.splitlines() if line.startswith("W:")]
    if errors:
        print(f"FAIL lintian: {len(errors)} errors")
        print("\n".join(errors[:20]))
        sys.exit(1)
    print(f"ok   lintian: no errors, {len(warnings)} warnings")


def frozen_plugin(app: Path, scratch: Path, env: dict[str, str]) -> None:
    """The sample plugin the package ships, dropped into the user's plugins folder as the
    README tells users to, registers in the frozen app and runs a batch there."""
    shipped = next(app.parent.rglob("_resources/plugins/produk.py"), None)
    if shipped is None:
        sys.exit("FAIL plugin: the package does not ship _resources/plugins/produk.py")
    plugins = Path(env["XDG_DATA_HOME"]) / "triage-desk" / "plugins"
    plugins.mkdir(parents=True)
    shutil.copy(shipped, plugins)
    step("plugin listed", [str(app), "transforms"], env, "produk@1")
    katalog = scratch / "katalog.jsonl"
    katalog.write_text(
        '{"sku": "btk-01", "nama": "kain batik", "harga": 125000, "diubah": "2026-01-02"}\n'
        '{"sku": "", "nama": "tanpa sku", "harga": 1}\n'
    )
    ws = ["--workspace", str(scratch / "plugin-ws")]
    run = [str(app), *ws, "run", str(katalog), "--transform", "produk@1"]
    step("batch through the plugin", run, env, "1 loaded, 0 superseded, 1 quarantined")


def two_lanes(app: Path, scratch: Path, env: dict[str, str]) -> None:
    """A batch big enough for two lanes, and the frozen app started as its own second lane
    (``APP -m triage_app.core.batch.lane_entry``, as the window starts it): with nothing
    asked of it, it exits at once, cleanly."""
    ws = ["--workspace", str(scratch / "lanes-ws")]
    out = step("demo of 80,000 rows (two lanes)", [str(app), *ws, "demo", "--rows", "80000"], env)
    print("     " + next(line for line in out.splitlines() if "loaded" in line))
    generated = next((scratch / "lanes-ws" / "incoming").glob("*generated*.jsonl"))
    again = [str(app), *ws, "--json", "run", str(generated), "--transform", "pesanan@2"]
    batch_id = json.loads(step("the same file again", again, env, "already_loaded"))["batch_id"]
    step("reconcile it", [str(app), *ws, "reconcile", batch_id], env)
    lane = [str(app), "-m", "triage_app.core.batch.lane_entry"]
    started = subprocess.run(lane, input=b"", capture_output=True, env=env, timeout=60)
    if started.returncode != 0:
        print(f"FAIL the frozen lane: exit {started.returncode}")
        print(started.stderr.decode(errors="replace")[-2000:])
        sys.exit(1)
    print("ok   the frozen app starts as its own second lane")


def main() -> int:
    debs = sorted(BUILD.glob("triage-desk_*.deb"))
    if not debs:
        sys.exit("no .deb in build/: run make package first")
    lint(debs[-1])
    with tempfile.TemporaryDirectory(prefix="triage-package-test-") as tmp:
        scratch = Path(tmp)
        root = scratch / "root"
        subprocess.run(["dpkg-deb", "-x", str(debs[-1]), str(root)], check=True)
        app = root / "opt" / "triage-desk" / "triage-desk"
        print(f"installed {debs[-1].name} into {root} ({app.stat().st_size // 1000} kB launcher)")
        home = scratch / "home"
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "QT_QPA_PLATFORM": "offscreen",
            "TMPDIR": str(scratch),
            "LANG": "C.UTF-8",
        }
        step("self-test", [str(app), "--self-test"], env, "self-test passed")
        ws = ["--workspace", str(scratch / "ws")]
        step("demo", [str(app), *ws, "demo"], env, "4 quarantined")
        step("report", [str(app), *ws, "report", "--out", str(scratch / "report")], env)
        charts = sorted((scratch / "report").glob("*.png"))
        if not charts:
            print("FAIL report: no charts written")
            return 1
        print(f"     report: {len(charts)} charts")
        frozen_plugin(app, scratch, env)
        two_lanes(app, scratch, env)
        demo_batch = next((scratch / "ws" / "incoming").glob("*.jsonl"))
        db = fresh_database()
        if db is None:
            if os.environ.get("CI"):
                print("FAIL postgresql: no server at 127.0.0.1:5432")
                return 1
            print("skip postgresql: no server at 127.0.0.1:5432 (TRIAGE_TEST_PG names another)")
        else:
            url, name = db
            try:
                pg = ["--warehouse", url, "--dead-letter", url]
                step(
                    "batch into PostgreSQL",
                    [str(app), *pg, "run", str(demo_batch), "--transform", "pesanan@1"],
                    env,
                    "4 quarantined",
                )
                step("list from PostgreSQL", [str(app), *pg, "list"], env, "TypeError")
            finally:
                drop_database(name)
        shutil.rmtree(home, ignore_errors=True)
    print("package test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
