"""``reprocess``: when a transform version is found wrong, run every row it loaded through
another version; a dry run says per row what would change, applying does it as a run."""

from __future__ import annotations

import argparse

from triage_app.cli.support import Subparsers, command, emit, for_terminal, open_workspace_of
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _

ROWS_SAID = 1_000  # rows a terminal is shown per kind before "and N more"


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "reprocess",
        cmd_reprocess,
        _(
            "run the warehouse rows a suspect transform version wrote through another "
            "version; --dry-run says per row what would change (a column diff) or now fail"
        ),
    )
    sp.add_argument(
        "--produced-by",
        required=True,
        metavar="NAME@V",
        help=_("the suspect version, e.g. pesanan@1"),
    )
    sp.add_argument(
        "--with",
        dest="with_",
        required=True,
        metavar="NAME@W",
        help=_("the version to run the rows through, e.g. pesanan@2"),
    )
    sp.add_argument(
        "--batch", metavar="ID", help=_("only the rows this batch wrote (a unique prefix)")
    )
    sp.add_argument(
        "--dry-run", action="store_true", help=_("say what would change; write nothing")
    )
    sp.add_argument(
        "--show-unchanged",
        action="store_true",
        help=_("list the unchanged rows too (--json always has every row)"),
    )
    sp.add_argument("--chunk-size", type=int, default=None, help=argparse.SUPPRESS)


def cmd_reprocess(args: argparse.Namespace) -> int:
    from triage_app.cli.support import full_ref
    from triage_app.core.reprocess import reprocess

    produced_by = full_ref(args.produced_by, writes=True)
    with_ = full_ref(args.with_, writes=True)
    more = {"chunk_size": args.chunk_size} if args.chunk_size else {}
    with open_workspace_of(args, create=False, act=None if args.dry_run else "run") as ws:
        s = reprocess(
            ws,
            produced_by,
            with_,
            scope=args.batch,
            dry_run=args.dry_run,
            keep_unchanged=args.json or args.show_unchanged,
            **more,
        )

    def text() -> str:
        lines = [for_terminal(s.describe())]
        for v in s.verdicts[:ROWS_SAID]:
            where = _("{key} (batch {batch} line {line})").format(
                key=v.suspect.key, batch=v.suspect.batch_id, line=v.suspect.line
            )
            if v.kind == "unchanged":
                said = _("unchanged")
            elif v.kind == "changed":
                said = v.diff_said()
            elif v.failure is not None:
                said = _("now failing ({error_class}): {error}").format(
                    error_class=v.failure.error_class, error=v.failure.error
                )
            else:
                said = _("no input: {missing}").format(missing=v.suspect.missing)
            lines.append(for_terminal(f"  {where}: {said}"))
        if len(s.verdicts) > ROWS_SAID:
            lines.append(
                _("  ... and {n} more (--json has them all)").format(
                    n=format_int(len(s.verdicts) - ROWS_SAID)
                )
            )
        return "\n".join(lines)

    emit(s.to_json(), args.json, text)
    return 0
