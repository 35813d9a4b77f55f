"""``import`` and ``connectors``: dead letters another pipeline made, from a broker's
dead-letter queue or the pipeline's own dead-letter table (core: ``connectors``)."""

from __future__ import annotations

import argparse
from typing import Any

from triage_app.cli.support import Subparsers, command, emit, for_terminal, open_workspace_of, whole
from triage_app.core.messages import _

# --map's name for seed 000's own dead_letter table (connectors.SEED_000).
SEED_000 = "seed-000"


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "import",
        cmd_import,
        _(
            "import the dead letters waiting in a broker's dead-letter queue (amqp://...) or "
            "a pipeline's own dead-letter table (a database URL and --table), or a kept "
            "connector"
        ),
    )
    sp.add_argument(
        "source",
        metavar="SOURCE",
        help=_(
            "amqp://user:password@host:port/vhost, a database URL (with --table), or the "
            "name of a connector imported from before"
        ),
    )
    sp.add_argument("--queue", metavar="NAME", help=_("the dead-letter queue (amqp://)"))
    sp.add_argument("--table", metavar="NAME", help=_("the dead-letter table (a database URL)"))
    sp.add_argument(
        "--map",
        metavar="MAPPING",
        default=None,
        help=_(
            "the table's columns: `{seed}` (seed 000's dead_letter: id=dl_id, "
            "payload=payload, error=galat, class=kelas, attempts=percobaan, line=baris) or "
            "KEY=COLUMN,... with keys id, payload (required), error, class, attempts, time, "
            "line"
        ).format(seed=SEED_000),
    )
    sp.add_argument(
        "--sink-table",
        metavar="NAME",
        help=_(
            "the table a re-drive --to original writes the transformed rows to (the seed's pesanan)"
        ),
    )
    sp.add_argument(
        "--after-load",
        default="keep",
        metavar="WHAT",
        help=_(
            "what a re-drive does to the source row once its row is written: keep "
            "(default), delete (as seed 000's retry_dead_letter does), or mark:COLUMN"
        ),
    )
    sp.add_argument("--name", metavar="NAME", help=_("the connector's name (default: the queue's)"))
    sp.add_argument(
        "--limit",
        type=whole(1),
        metavar="N",
        help=_("at most N dead letters (default: all waiting)"),
    )

    sp = command(subparsers, "connectors", cmd_connectors, _("list the connectors imported from"))


def _mapping(text: str | None) -> dict[str, Any]:
    from triage_app.core.connectors import MAPPING_FIELDS, SEED_000
    from triage_app.core.errors import TriageError

    if text is None or text == "seed-000":
        return dict(SEED_000["columns"])
    out: dict[str, Any] = dict.fromkeys(MAPPING_FIELDS)
    for part in text.split(","):
        key, sep, column = part.partition("=")
        key, column = key.strip(), column.strip()
        if not sep or key not in MAPPING_FIELDS or not column:
            raise TriageError(
                _("--map: {part} is not KEY=COLUMN with a key of {keys}").format(
                    part=repr(for_terminal(part.strip())[:60]), keys=", ".join(MAPPING_FIELDS)
                )
            )
        out[key] = column
    if not out["id"] or not out["payload"]:
        raise TriageError(_("--map: name the table's id and payload columns (id=..., payload=...)"))
    return out


def _import_job(args: argparse.Namespace) -> Any:
    """The import SOURCE names: a new queue or table (kept as a connector once it opens),
    or a connector kept by name."""
    from triage_app.core.connectors import AMQP, TABLE
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import ImportJob

    source = args.source
    if source.startswith(("amqp://", "amqps://")):
        if not args.queue:
            raise TriageError(_("import: say which dead-letter queue: --queue NAME"))
        return ImportJob(AMQP, source, {"queue": args.queue}, args.name, args.limit)
    if "://" in source:
        if not args.table:
            raise TriageError(_("import: say which dead-letter table: --table NAME"))
        options: dict[str, Any] = {"table": args.table, "columns": _mapping(args.map)}
        after = args.after_load
        if after not in ("keep", "delete") and not after.startswith("mark:"):
            raise TriageError(_("--after-load: keep, delete or mark:COLUMN"))
        if args.sink_table:
            options["sink"] = {"table": args.sink_table, "after_load": after}
        return ImportJob(TABLE, source, options, args.name, args.limit)
    if args.queue or args.table:
        raise TriageError(
            _("import: --queue and --table come with a URL; a kept connector knows its own")
        )
    return ImportJob(limit=args.limit, kept=source)


def cmd_import(args: argparse.Namespace) -> int:
    job = _import_job(args)
    with open_workspace_of(args, act="run") as ws:
        s = job.run(ws)
    emit(s.to_json(), args.json, lambda: for_terminal(s.describe()))
    return 1 if s.stopped else 0


def cmd_connectors(args: argparse.Namespace) -> int:
    from triage_app.core.connectors import list_connectors
    from triage_app.core.db import redact_url

    with open_workspace_of(args, create=False) as ws:
        found = list_connectors(ws)
    data = [
        {
            "name": c.name,
            "kind": c.kind,
            "address": redact_url(c.address),
            "options": dict(c.options),
        }
        for c in found
    ]

    def text() -> str:
        if not found:
            return _("no connectors: `triage-app import amqp://... --queue NAME` adds one")
        return "\n".join(for_terminal(c.describe()) for c in found)

    emit(data, args.json, text)
    return 0
