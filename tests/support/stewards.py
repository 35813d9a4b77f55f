"""A steward at work in a process of its own, racing another: ``python -m
tests.support.stewards ACTION STORE_ARGS IDS...`` edits or discards each dead letter named,
as fast as it can, and prints what happened as JSON. A refusal (the row moved on, or a
re-drive holds it) is counted, never an error: that is the behaviour under test.

STORE_ARGS is ``DIR`` for a workspace folder, or ``WAREHOUSE_URL,DEAD_LETTER_URL``.
"""

from __future__ import annotations

import sys

import orjson

from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import apply_change, discard, edit_payload, get_dead_letter
from triage_app.core.errors import TriageError


def open_store(spec: str) -> Workspace:
    if "," in spec:
        wh, dl = spec.split(",", 1)
        return open_workspace(warehouse_url=wh, dead_letter_url=dl)
    return open_workspace(spec)


def fixed(payload: bytes, bump: int) -> str:
    """The steward's fix: a discount, and a price that shows whose edit the warehouse got."""
    record = orjson.loads(payload)
    record["diskon"] = 5
    record["harga"] = record["harga"] + bump
    return orjson.dumps(record).decode()


def main(action: str, spec: str, ids: list[int], bump: int = 1) -> dict[str, list[int]]:
    done: list[int] = []
    refused: list[int] = []
    with open_store(spec) as ws:
        for dl_id in ids:
            try:
                if action == "edit":
                    d = get_dead_letter(ws, dl_id, reveal=True)
                    text = fixed(d.payload_bytes, bump)
                    edit_payload(ws, dl_id, text, if_version=d.version, actor=f"editor{bump}")
                elif action == "discard":
                    apply_change(ws, [dl_id], discard("junk"), actor="discarder")
                else:
                    raise SystemExit(f"unknown action {action}")
            except TriageError:
                refused.append(dl_id)
            else:
                done.append(dl_id)
    return {"done": done, "refused": refused}


if __name__ == "__main__":
    act, store, bump_s, *rest = sys.argv[1:]
    out = main(act, store, [int(i) for i in rest], int(bump_s))
    sys.stdout.write(orjson.dumps(out).decode() + "\n")
