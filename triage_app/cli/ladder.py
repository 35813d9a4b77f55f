"""The command line's retry ladder (issue 27): ``retry-due`` runs one retry pass (for cron
or a systemd timer), ``ladder`` shows the ladder in force and its backlog, ``ladder set``
and ``ladder reset`` change the workspace's (a lead's). A thin layer over
``core.deadletters`` (ladder.py, retrying.py)."""

from __future__ import annotations

import argparse

from triage_app.cli.support import Subparsers, command, emit, open_workspace_of, when
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _


def add_commands(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "retry-due",
        cmd_retry_due,
        _(
            "one pass of the retry ladder: re-drive the transient dead letters due now "
            "through the version that failed them (for cron or a systemd timer); exit 0 even "
            "when rows failed again"
        ),
    )
    sp = command(
        subparsers,
        "ladder",
        cmd_ladder,
        _(
            "show the retry ladder in force and the rows waiting on each step; "
            "ladder set 5m,30m,2h or ladder reset changes the workspace's (a lead's)"
        ),
    )
    sp.add_argument(
        "action",
        nargs="?",
        choices=("show", "set", "reset"),
        default="show",
        help=_("show (default), set WAITS, or reset to the default 5m,30m,2h"),
    )
    sp.add_argument(
        "waits",
        nargs="?",
        metavar="WAITS",
        help=_("for set: the waits in order, each a number and s, m, h or d, e.g. 5m,30m,2h"),
    )


def cmd_retry_due(args: argparse.Namespace) -> int:
    from triage_app.core.jobs import RetryJob

    # The warehouse may be down: that is what moves the due rows down the ladder.
    with open_workspace_of(args, create=False, act="redrive", warehouse_optional=True) as ws:
        done = RetryJob().run(ws)
    emit(done.to_json(), args.json, done.describe)
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls

    if args.action == "set" and not args.waits:
        raise TriageError(_("ladder set: give the waits, e.g. triage-app ladder set 5m,30m,2h"))
    if args.action != "set" and args.waits:
        raise TriageError(
            _("ladder {action} takes no waits; to change them: ladder set").format(
                action=args.action
            )
        )
    ladder = dls.Ladder.parse(args.waits) if args.action == "set" else None
    with open_workspace_of(args, create=args.action != "show") as ws:
        if args.action != "show":
            dls.set_workspace_ladder(ws, ladder)
        backlog = dls.ladder_backlog(ws)

    def text() -> str:
        if backlog.own:
            head = _("Retry ladder: {ladder} ({words}; set for this workspace)")
        else:
            head = _("Retry ladder: {ladder} ({words}; the default)")
        lines = [head.format(ladder=backlog.ladder.describe(), words=backlog.ladder.words())]
        for ref, waits in backlog.declared:
            lines.append(_("  {ref} declares its own: {waits}").format(ref=ref, waits=waits))
        if not backlog.steps:
            lines.append(_("No row waits on the ladder."))
        for s in backlog.steps:
            if s.next_due is not None:
                said = _("  before retry {step}: {n} waiting, next due {when}")
            else:
                said = _("  before retry {step}: {n} waiting")
            lines.append(
                said.format(step=s.step + 1, n=format_int(s.waiting), when=when(s.next_due))
            )
        lines.append(
            _("Due now: {due}. Parked at the ladder's end: {parked}.").format(
                due=format_int(backlog.due_now), parked=format_int(backlog.parked_at_end)
            )
        )
        return "\n".join(lines)

    emit(backlog.to_json(), args.json, text)
    return 0
