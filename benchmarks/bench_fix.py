#!/usr/bin/env python3
"""One fix for a whole error group (issue 13): previewing it, applying it as a change-set
and reverting it, on 100,000 dead letters of one signature, each a whole ``triage-app``
process, against a fresh batch of the same rows measured in the same run.

The scene: a release with a code bug quarantines every row of a batch (a null ``diskon``,
which ``pesanan@1`` mishandles). Instead of shipping a new transform, a steward defaults
the discount to 0 for the whole group, tries the result with ``pesanan@1``, applies it and
later reverts it. ``fix`` previews before it applies, so its time includes a preview.

Each round copies a quarantined workspace made once (not timed), then times, in turn: a
fresh batch of the file through ``pesanan@2`` (the reference), the dry run, the fix
applied, the revert. Medians of each; rows per second; peak RSS of the process tree.

    python benchmarks/bench_fix.py [--rows 100000] [--repeat 3]
    QT_QPA_PLATFORM=offscreen python benchmarks/bench_fix.py --window

``--window`` does it from the window instead (Re-drive > Fix rows… on every open row,
then Store > Change-sets… > Revert): preview, apply and revert run on a worker thread, and
a 10 ms timer in the GUI thread measures the longest time the event loop was blocked
(target < 100 ms).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_redrive import cli, null_discount_batch  # noqa: E402
from bench_run import measure  # noqa: E402

FIX = ("--default", "diskon=0")


def window(rows: int) -> int:
    """The fix from the window, with the event loop watched through preview and apply."""
    import time

    from bench_gui import Heartbeat, _settle, open_measured

    with tempfile.TemporaryDirectory(prefix="triage-bench-fix-window-") as tmp:
        work = Path(tmp)
        src = null_discount_batch(work / "orders.jsonl", rows)
        folder = work / "ws"
        measure(cli("--workspace", str(folder), "run", str(src), "--transform", "pesanan@1"))
        app, win = open_measured(folder, work)
        win.work.fix_rows()
        dialog = win.dialogs()[-1]
        dialog.step_kind.setCurrentIndex(dialog.step_kind.findData("default"))
        dialog.step_field.setText("diskon")
        dialog.step_value.setText("0")
        dialog.add_step()
        dialog.transform_combo.setCurrentIndex(dialog.transform_combo.findData("pesanan@1"))
        for what, click, done in (
            ("preview", dialog.preview, lambda: dialog.apply_button.isEnabled()),
            ("apply", dialog.apply, lambda: "Change-set 1" in dialog.summary.text()),
        ):
            beat = Heartbeat()
            beat.start()
            t0 = time.perf_counter()
            click()
            _settle(app, lambda d=done: d() and not dialog.is_running(), timeout=600)
            took = time.perf_counter() - t0
            beat.stop()
            print(
                f"{what} of {rows:,} rows from the window: {took:.2f} s ({rows / took:,.0f} rows/s)"
            )
            beat.report(f"fix {what}", took)
        print(dialog.summary.text())
        dialog.close()
        win.work.show_change_sets()
        sets = win.dialogs()[-1]
        beat = Heartbeat()
        beat.start()
        t0 = time.perf_counter()
        sets.revert(1)
        _settle(app, lambda: "reverted" in sets.summary.text() and not sets.is_running(), 600)
        took = time.perf_counter() - t0
        beat.stop()
        print(f"revert of {rows:,} rows from the window: {took:.2f} s ({rows / took:,.0f} rows/s)")
        beat.report("revert", took)
        sets.close()
        win.close()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--window", action="store_true", help="from the window, event loop watched")
    a = ap.parse_args()
    if a.window:
        return window(a.rows)
    with tempfile.TemporaryDirectory(prefix="triage-bench-fix-") as tmp:
        work = Path(tmp)
        src = null_discount_batch(work / "orders.jsonl", a.rows)
        quarantined = work / "quarantined"
        measure(cli("--workspace", str(quarantined), "run", str(src), "--transform", "pesanan@1"))
        times: dict[str, list[float]] = {"fresh": [], "preview": [], "apply": [], "revert": []}
        peaks: dict[str, float] = dict.fromkeys(times, 0.0)
        for i in range(a.repeat):
            ws = work / f"ws{i}"
            shutil.copytree(quarantined, ws)
            base = ("--workspace", str(ws))
            steps = {
                "fresh": cli(
                    "--workspace",
                    str(work / f"fresh{i}"),
                    "run",
                    str(src),
                    "--transform",
                    "pesanan@2",
                ),
                "preview": cli(
                    *base, "fix", "--status", "open", *FIX, "--try", "pesanan@1", "--dry-run"
                ),
                "apply": cli(*base, "fix", "--status", "open", *FIX),
                "revert": cli(*base, "revert", "1"),
            }
            for name, cmd in steps.items():
                wall, peak, out = measure(cmd)
                times[name].append(wall)
                peaks[name] = max(peaks[name], peak)
                if i == 0 and name != "fresh":
                    print(f"  {name}: {out.strip().splitlines()[-1]}")
            shutil.rmtree(ws)
    fresh = statistics.median(times["fresh"])
    print(f"\n{a.rows:,} dead letters of one signature; medians of {a.repeat} whole processes")
    print(f"  {'':22}{'seconds':>9}{'rows/s':>11}{'/ fresh':>9}{'peak MB':>9}")
    for name, label in (
        ("fresh", "fresh batch (@2)"),
        ("preview", "fix --dry-run --try"),
        ("apply", "fix (preview + apply)"),
        ("revert", "revert"),
    ):
        t = statistics.median(times[name])
        print(f"  {label:22}{t:9.2f}{a.rows / t:11,.0f}{t / fresh:9.2f}{peaks[name]:9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
