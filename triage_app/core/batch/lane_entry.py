"""The second lane as a fresh interpreter: ``python -m triage_app.core.batch.lane_entry``.

A module of its own, so that ``lanes`` is imported once (by the package) rather than a
second time as ``__main__``.
"""

import sys

from triage_app.core.batch.lanes import serve

if __name__ == "__main__":
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer))
