"""How every SQLite connection of a workspace is tuned."""

from __future__ import annotations

import os
from typing import Any

# How long SQLite itself waits on a lock before our retries take over; tests shorten it.
BUSY_TIMEOUT_MS = int(os.environ.get("TRIAGE_BUSY_TIMEOUT_MS", "15000"))


def apply_pragmas(dbapi_conn: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode=WAL")
    # NORMAL is durable against a killed process in WAL mode; only power loss may lose
    # the last commits, and never corrupts.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
