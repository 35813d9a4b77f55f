"""The frozen app's entry point: the same as the ``triage-app`` console script; and, given
``-m MODULE``, that module run as Python's ``-m`` would, which is how the app starts the
second lane of a batch from the window (core/batch/lanes.py: ``Partner``), having no other
interpreter to start."""

import multiprocessing
import os
import runpy
import sys

if __name__ == "__main__":
    # Anything that starts a process through multiprocessing must not re-run the app in it.
    multiprocessing.freeze_support()
    # The window's program on Windows has no console: sys.stdout is None there, and a
    # command given to it rather than to triage-app.exe must not fail on printing.
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115 (for the process's life)
    if len(sys.argv) >= 3 and sys.argv[1] == "-m" and sys.argv[2].startswith("triage_app."):
        sys.argv = sys.argv[2:]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        from triage_app.cli import entry

        entry()
