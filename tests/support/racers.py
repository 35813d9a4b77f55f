"""A command line in a process of its own that starts on a signal, so that several start
their racing part together: ``python -m tests.support.racers GO_FILE ARGS...`` imports
the app, waits until GO_FILE exists, then runs ``triage-app ARGS...`` as the console
script does and exits with its code. Without a start line, the import (a third of a
second, more on a loaded machine) spreads the processes out and hides the race."""

from __future__ import annotations

import os
import sys
import time

import sqlalchemy  # noqa: F401  (imported before the start, as a long-running app has it)

from triage_app import cli
from triage_app.core import db  # noqa: F401

LIMIT = 120.0  # seconds: a test that died never leaves one waiting for good


def main(go: str, argv: list[str]) -> int:
    deadline = time.monotonic() + LIMIT
    with open(go + f".ready.{os.getpid()}", "w"):
        pass
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.002)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
