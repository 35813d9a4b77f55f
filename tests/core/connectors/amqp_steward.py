"""A steward importing from or re-driving to RabbitMQ in a process of its own:
``python -m tests.core.connectors.amqp_steward ACTION STORE CONNECTOR URL [GO_FILE]``.

ACTION is ``import`` (the connector's queue into the store) or ``redrive`` (every open dead
letter back where it was going); STORE is ``DIR`` for a workspace folder, or
``WAREHOUSE_URL,DEAD_LETTER_URL``. With GO_FILE it waits, imported and connected, until
that file exists, so that two stewards start their racing part together. Prints what it
did as JSON. Crash points (``TRIAGE_CRASH_AT``) kill it where the test says.
"""

from __future__ import annotations

import os
import sys
import time

import orjson

from tests.support.stewards import open_store
from triage_app.core.connectors import RoutedSink, connector_named, import_letters, open_source
from triage_app.core.deadletters import DeadLetterFilter, redrive

LIMIT = 120.0  # seconds: a test that died never leaves one waiting for good


def wait_for(go: str | None) -> None:
    if go is None:
        return
    with open(f"{go}.ready.{os.getpid()}", "w"):
        pass
    deadline = time.monotonic() + LIMIT
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.002)


def main(action: str, store: str, name: str, url: str, go: str | None) -> dict[str, object]:
    with open_store(store) as ws:
        connector = connector_named(ws, name)
        if action == "import":
            source = open_source(connector, url)
            try:
                wait_for(go)
                return import_letters(ws, connector, source).to_json()
            finally:
                source.close()
        if action == "redrive":
            sink = RoutedSink(ws, "original", url=url)
            try:
                wait_for(go)
                s = redrive(ws, None, where=DeadLetterFilter(), sink=sink, keep=None)
            finally:
                sink.close()
            return {
                "succeeded": s.succeeded,
                "undelivered": s.undelivered,
                "taken": s.taken,
                "resolved": sorted(r.id for r in s.results if r.outcome == "resolved"),
            }
    raise SystemExit(f"unknown action {action}")


if __name__ == "__main__":
    act, spec, conn_name, address, *rest = sys.argv[1:]
    out = main(act, spec, conn_name, address, rest[0] if rest else None)
    sys.stdout.write(orjson.dumps(out).decode() + "\n")
