"""The dead letters one by one or by a filter: ``list``, ``show`` and ``edit`` them; ``park``,
``discard``, ``reopen``, ``reclassify`` or ``note`` them (by ids, all or none, or by a
filter); ``redrive`` them through a transform version."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from triage_app.cli.support import (
    Subparsers,
    add_row_filter,
    chosen_ids,
    command,
    dead_letter_id,
    emit,
    for_terminal,
    full_ref,
    more_note,
    open_workspace_of,
    rate,
    row_filter,
    share,
    text_argument,
    when,
    whole,
)
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.vocabulary import (
    CLASSES,
    NOBODY,
    WAITING,
    named_ids,
)

# The tables' column heads (list, a dry run's sample), said where shown.
ID, BATCH, LINE, CLASS, ATTEMPTS, STATUS, ERROR = (
    N_("id"),
    N_("batch"),
    N_("line"),
    N_("class"),
    N_("att"),
    N_("status"),
    N_("error"),
)


def add_commands(subparsers: Subparsers) -> None:
    _add_list(subparsers)
    _add_show(subparsers)
    _add_edit(subparsers)
    _add_row_actions(subparsers)
    _add_redrive(subparsers)


def _add_list(subparsers: Subparsers) -> None:
    sp = command(subparsers, "list", cmd_list, _("list dead letters"))
    add_row_filter(
        sp,
        class_help=_("only this error class"),
        status_default="open",
        status_help=_("only this status (default {status})").format(status="open"),
    )
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--owner", metavar="NAME", help=_("the rows of the error groups NAME owns"))
    who.add_argument(
        "--unowned",
        dest="owner",
        action="store_const",
        const=NOBODY,
        help=_("the rows of the error groups nobody owns"),
    )
    sp.add_argument("--tag", metavar="TAG", help=_("the rows of the error groups tagged TAG"))
    sp.add_argument(
        "--limit",
        type=whole(1),
        default=100,
        metavar="N",
        help=_("at most N rows (default 100)"),
    )
    sp.add_argument(
        "--offset",
        type=whole(0),
        default=0,
        metavar="N",
        help=_("skip the first N matching rows (by id): the next page"),
    )


def cmd_list(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import page_of_dead_letters

    with open_workspace_of(args, create=False) as ws:
        page = page_of_dead_letters(
            ws,
            row_filter(args, status=args.status, owner=args.owner, tag=args.tag),
            limit=args.limit,
            offset=args.offset,
        )
    views = page.views
    more = more_note(page.more, page.next_offset, json=args.json) if page.more else None

    def text() -> str:
        if not views and args.offset:
            return _("no dead letters match after the first {n}").format(n=format_int(args.offset))
        if not views:
            return _("no dead letters match")
        # Each column as wide as its head in the user's language, at least.
        heads = [_(h) for h in (ID, BATCH, LINE, CLASS, ATTEMPTS, STATUS)]
        i, b, n, c, a, s = (max(w, len(h)) for w, h in zip((6, 16, 6, 9, 3, 9), heads, strict=True))
        lines = [
            f"{heads[0]:>{i}}  {heads[1]:{b}}  {heads[2]:>{n}}  {heads[3]:{c}}  "
            f"{heads[4]:>{a}}  {heads[5]:{s}}  {_(ERROR)}"
        ]
        for v in views:
            lines.append(
                f"{v.id:>{i}}  {for_terminal(v.batch_id):{b}}  {v.line:>{n}}  "
                f"{v.error_class:{c}}  {v.attempts:>{a}}  {v.status:{s}}  "
                f"{for_terminal(v.error[:80])}"
            )
        return "\n".join(lines)

    emit([v.to_json() for v in views], args.json, text, more)
    return 0


def _add_show(subparsers: Subparsers) -> None:
    sp = command(
        subparsers, "show", cmd_show, _("show one dead letter with its original and history")
    )
    sp.add_argument("id", type=dead_letter_id, help=_("the dead letter's id"))
    sp.add_argument(
        "--reveal",
        action="store_true",
        help=_(
            "show its personal fields unmasked (steward or lead; recorded in the audit as "
            "'revealed')"
        ),
    )


def cmd_show(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import get_dead_letter, reveal_dead_letter

    with open_workspace_of(args, create=False) as ws:
        d = reveal_dead_letter(ws, args.id) if args.reveal else get_dead_letter(ws, args.id)

    def text() -> str:
        t = for_terminal  # every text from the store: a partner's bytes, a steward's note
        out = [
            ngettext(
                "dead letter {id} (version {version}): batch {batch} line {line}, {status}, "
                "{n} attempt, transform {transform}",
                "dead letter {id} (version {version}): batch {batch} line {line}, {status}, "
                "{n} attempts, transform {transform}",
                d.attempts,
            ).format(
                id=d.id,
                version=d.version,
                batch=t(d.batch_id),
                line=d.line,
                status=d.status,
                n=format_int(d.attempts),
                transform=t(d.transform),
            ),
            _("error [{error_class}]: {error}").format(error_class=d.error_class, error=t(d.error)),
            _("signature: {signature}").format(signature=t(d.signature)),
            _("payload:  {payload}").format(payload=t(d.payload)),
        ]
        if d.payload != d.original_payload:
            out.append(_("original: {payload}").format(payload=t(d.original_payload)))
        fields = ", ".join(map(t, d.personal_fields))
        if d.masked:
            out.append(
                _(
                    "masked:   {fields} (personal: show --reveal shows them, and the audit "
                    "records it)"
                ).format(fields=fields)
            )
        elif d.revealed and d.personal_fields:
            out.append(_("revealed: {fields} (recorded in the audit)").format(fields=fields))
        out.append(_("history:"))
        out += [f"  {when(e.at)}  {t(e.actor):12} {e.action:15} {t(e.detail)}" for e in d.events]
        return "\n".join(out)

    emit(d.to_json(), args.json, text)
    return 0


def _add_edit(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "edit",
        cmd_edit,
        _("replace a dead letter's payload (the original is kept)"),
    )
    sp.add_argument("id", type=dead_letter_id, help=_("the dead letter's id"))
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--payload", metavar="TEXT", help=_("the new payload, as JSON"))
    g.add_argument(
        "--payload-file",
        metavar="FILE",
        help=_("read the new payload from FILE; - reads stdin"),
    )
    sp.add_argument(
        "--if-version",
        type=whole(1, 2**31 - 1),  # the version column is a 32-bit integer everywhere
        metavar="N",
        help=_(
            "only if the dead letter is still at version N (show --json gives it); "
            "refused, naming who changed it, otherwise"
        ),
    )


def cmd_edit(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import edit_payload

    if args.payload_file is not None:  # - reads standard input, as run - does
        payload = text_argument(args.payload_file, _("the payload"))
    else:
        payload = args.payload
    with open_workspace_of(args, act="edit") as ws:
        d = edit_payload(ws, args.id, payload, if_version=args.if_version)
    emit(
        d.to_json(),
        args.json,
        lambda: _("dead letter {id} edited (now version {version}); the original is kept").format(
            id=d.id, version=d.version
        ),
    )
    return 0


def _add_row_actions(subparsers: Subparsers) -> None:
    def row_action(name: str, help_: str) -> argparse.ArgumentParser:
        sp = command(subparsers, name, cmd_row_action, help_)
        sp.add_argument(
            "ids", type=dead_letter_id, nargs="*", metavar="ID", help=_("these dead letters")
        )
        add_row_filter(
            sp,
            class_flag="--where-class" if name == "reclassify" else "--class",
            status_help=_("only this status (default {status})").format(
                status=_ROW_ACTION_STATUS[name]
            ),
        )
        sp.add_argument(
            "--dry-run",
            action="store_true",
            help=_(
                "say how many rows it would change, show some, and which it would not "
                "change and why; write nothing"
            ),
        )
        return sp

    why = _("why (kept in the history)")
    row_action(
        "park",
        _("set dead letters aside for a person; by ids (all or none) or by a filter"),
    ).add_argument("--reason", metavar="TEXT", help=why)
    discarding = row_action(
        "discard",
        _("discard dead letters as junk (kept for the audit); by ids (all or none) or by a filter"),
    )
    discarding.add_argument("--reason", metavar="TEXT", required=True, help=_("why they are junk"))
    discarding.add_argument(
        "--whole-batch",
        metavar="BATCH",
        help=_(
            "an all-or-nothing batch whole: every dead letter of it discarded and its held "
            "rows dropped, one audited action (its rows one by one are refused)"
        ),
    )
    row_action(
        "reopen",
        _("reopen parked or discarded dead letters; by ids (all or none) or by a filter"),
    ).add_argument("--reason", metavar="TEXT", help=why)
    row_action(
        "reclassify",
        _("change dead letters' error class; by ids (all or none) or by a filter"),
    ).add_argument(
        "--class", dest="new_class", choices=CLASSES, required=True, help=_("the new class")
    )
    row_action(
        "note",
        _("add a note to dead letters' history; by ids (all or none) or by a filter"),
    ).add_argument("--text", required=True, metavar="TEXT", help=_("the note"))


# The rows a filter means by default for each action: those the action can change.
# What each row action is, for the role check (core.db.Act's values).
_ROW_ACTION_ACT = {
    "park": "park",
    "discard": "discard",
    "reopen": "reopen",
    "reclassify": "reclassify",
    "note": "note",
}

_ROW_ACTION_STATUS = {
    "park": "open",
    "discard": "open",
    "reopen": "parked",
    "reclassify": "open",
    "note": "open",
}


def cmd_row_action(args: argparse.Namespace) -> int:
    """park, discard, reopen, reclassify, note: on the ids named (all or none), or on
    every row a filter matches (each row guarded on its own; refusals listed, exit 1).
    ``--dry-run`` says what would change and writes nothing."""
    from triage_app.core import deadletters as dls
    from triage_app.core.errors import TriageError

    action = args.command
    if action == "discard" and args.whole_batch is not None:
        return _discard_whole_batch(args)
    if action == "discard":
        change = dls.discard(args.reason or "")
    elif action == "park":
        change = dls.park(args.reason or "parked by hand")
    elif action == "reopen":
        change = dls.reopen(args.reason or "reopened")
    elif action == "reclassify":
        change = dls.reclassify_as(args.new_class)
    else:
        change = dls.note(args.text)
    where = None
    if not args.ids:
        narrowed = (args.status, args.error_class, args.batch, args.search)
        if all(v is None for v in narrowed):
            raise TriageError(
                _(
                    "{action}: name dead letters by id, or by a filter "
                    "(--status, --class, --batch, --search)"
                ).format(action=action)
            )
        where = row_filter(args, status=args.status or _ROW_ACTION_STATUS[action])
    if args.dry_run:
        with open_workspace_of(args, create=False) as ws:
            preview = dls.preview_change(ws, change, ids=args.ids, where=where)
        emit(preview.to_json(), args.json, lambda: _would(preview, action, by_ids=bool(args.ids)))
        return 0
    with open_workspace_of(args, act=_ROW_ACTION_ACT[action]) as ws:
        report = dls.apply_change(ws, args.ids, change, where=where)

    def text() -> str:
        # Core's sentence (the window's too), then each refusal's reason: who holds a row,
        # what it is now. Both quote the store: for_terminal.
        lines = [for_terminal(report.describe())]
        lines += [f"  {for_terminal(reason)}" for _id, reason in report.refused[:20]]
        if len(report.refused) > 20:
            lines.append(
                _("  … and {n} more refused").format(n=format_int(len(report.refused) - 20))
            )
        return "\n".join(lines)

    emit(report.to_json(), args.json, text)
    return 1 if report.refused else 0


def _discard_whole_batch(args: argparse.Namespace) -> int:
    """``discard --whole-batch ID --reason TEXT``: an all-or-nothing batch, whole."""
    from triage_app.core.deadletters import discard_held_batch
    from triage_app.core.errors import TriageError

    if args.ids or any(v is not None for v in (args.status, args.error_class, args.batch)):
        raise TriageError(_("discard --whole-batch names a batch: no ids or filter with it"))
    if args.dry_run:
        raise TriageError(_("discard --whole-batch has no dry run: list the batch's rows instead"))
    with open_workspace_of(args, act="discard") as ws:
        d = discard_held_batch(ws, args.whole_batch, args.reason or "")
    emit(d.to_json(), args.json, lambda: for_terminal(d.describe()))
    return 0


def _would(preview: Any, action: str, *, by_ids: bool) -> str:
    """A change by hand's dry run for people: how many rows it would change, a sample, and
    the rows it would not change, with why."""
    n = preview.count
    k = len(preview.refused)
    if by_ids and k:  # by ids, a change is all or none
        lines = [_would_none(action).format(n=format_int(k))]
    else:
        lines = [_would_change(action, n).format(n=format_int(n))]
        if preview.sample:
            heads = [_(h) for h in (ID, BATCH, LINE, CLASS)]
            i, b, ln, c = (max(w, len(h)) for w, h in zip((7, 16, 7, 9), heads, strict=True))
            lines.append(
                f"  {heads[0]:>{i}}  {heads[1]:{b}}  {heads[2]:>{ln}}  {heads[3]:{c}}  {_(ERROR)}"
            )
            lines += [
                f"  {r.id:>{i}}  {for_terminal(r.batch_id):{b}}  {r.line:>{ln}}  "
                f"{r.error_class:{c}}  {for_terminal(r.error[:80])}"
                for r in preview.sample
            ]
            if n > len(preview.sample):
                lines.append(_("  … and {n} more").format(n=format_int(n - len(preview.sample))))
    if preview.unchanged:
        lines.append(
            _already(action).format(
                n=format_int(len(preview.unchanged)), ids=named_ids(preview.unchanged)
            )
        )
    if k:
        if not by_ids:
            lines.append(_would_not(action).format(n=format_int(k)))
        lines += [f"  {for_terminal(why)}" for _id, why in preview.refused[:20]]
        if k > 20:
            lines.append(_("  … and {n} more").format(n=format_int(k - 20)))
    lines.append(_("dry run: nothing was written"))
    return "\n".join(lines)


# A dry run's sentences, one per action: a translator sees each whole (the verb is not a
# word put into a sentence made for another).
def _would_change(action: str, n: int) -> str:
    if action == "park":
        return ngettext("would park {n} dead letter", "would park {n} dead letters", n)
    if action == "discard":
        return ngettext("would discard {n} dead letter", "would discard {n} dead letters", n)
    if action == "reopen":
        return ngettext("would reopen {n} dead letter", "would reopen {n} dead letters", n)
    if action == "reclassify":
        return ngettext("would reclassify {n} dead letter", "would reclassify {n} dead letters", n)
    return ngettext("would note {n} dead letter", "would note {n} dead letters", n)


def _would_none(action: str) -> str:
    return {
        "park": _("would park none: by ids it is all or none, and {n} would be refused:"),
        "discard": _("would discard none: by ids it is all or none, and {n} would be refused:"),
        "reopen": _("would reopen none: by ids it is all or none, and {n} would be refused:"),
        "reclassify": _(
            "would reclassify none: by ids it is all or none, and {n} would be refused:"
        ),
        "note": _("would note none: by ids it is all or none, and {n} would be refused:"),
    }[action]


def _would_not(action: str) -> str:
    return {
        "park": _("would not park {n}:"),
        "discard": _("would not discard {n}:"),
        "reopen": _("would not reopen {n}:"),
        "reclassify": _("would not reclassify {n}:"),
        "note": _("would not note {n}:"),
    }[action]


def _already(action: str) -> str:
    return {
        "park": _("already parked ({n}): {ids}"),
        "discard": _("already discarded ({n}): {ids}"),
        "reopen": _("already reopened ({n}): {ids}"),
        "reclassify": _("already reclassified ({n}): {ids}"),
        "note": _("already noted ({n}): {ids}"),
    }[action]


def _add_redrive(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "redrive",
        cmd_redrive,
        _("re-drive dead letters through a transform version"),
    )
    # Not in the group below: argparse counts an absent nargs="*" positional as given.
    sp.add_argument(
        "ids", type=dead_letter_id, nargs="*", metavar="ID", help=_("these dead letters")
    )
    g = sp.add_mutually_exclusive_group()
    g.add_argument(
        "--id",
        type=dead_letter_id,
        nargs="+",
        metavar="ID",
        help=_("these dead letters (as ID)"),
    )
    g.add_argument("--all-open", action="store_true", help=_("every open dead letter"))
    g.add_argument(
        "--class",
        dest="error_class",
        choices=CLASSES,
        help=_("open dead letters of this class"),
    )
    g.add_argument("--batch", metavar="ID", help=_("open dead letters of this batch"))
    g.add_argument(
        "--source",
        metavar="NAME",
        help=_("open dead letters imported from this connector (`files`: the desk's own)"),
    )
    sp.add_argument(
        "--status",
        default="open",
        choices=[s.value for s in WAITING],
        help=_("with --class, --batch or --source: which status (default open)"),
    )
    sp.add_argument(
        "--transform",
        "--with",
        dest="transform",
        metavar="NAME@VERSION",
        help=_(
            "transform version to re-drive through, e.g. pesanan@2 (required, except for "
            "--batch of an all-or-nothing batch, which loads whole through its own, and --to "
            "a queue, where it validates each payload before it is published)"
        ),
    )
    sp.add_argument(
        "--to",
        metavar="WHERE",
        help=_(
            "imported dead letters back to their source, not to the warehouse: `original` "
            "(each to the exchange and routing key it came with, or its connector's table), "
            "or amqp://user@host/vhost/exchange/routing-key"
        ),
    )
    sp.add_argument(
        "--source-url",
        metavar="URL",
        help=_(
            "with --to original: the connector's URL with its password (default: the "
            "password in the keyring)"
        ),
    )
    sp.add_argument(
        "--dry-run", action="store_true", help=_("report each row's outcome and write nothing")
    )
    sp.add_argument(
        "--verbose",
        action="store_true",
        help=_("list each row's outcome, not only the counts"),
    )
    sp.add_argument(
        "--max-attempts",
        type=whole(1, 1_000_000),
        default=3,
        help=_("park a row once it has failed this often (default 3)"),
    )
    sp.add_argument(
        "--canary",
        type=whole(0, 1_000_000),
        nargs="?",
        const=0,
        metavar="N",
        help=_("re-drive N rows first (default 10 or 1%%) and go on only if few enough failed"),
    )
    sp.add_argument(
        "--max-failure-rate",
        type=share,
        metavar="SHARE",
        help=_(
            "stop (after the canary, or any later 200 rows) when more than this share "
            "failed (default 0.2); exit 1"
        ),
    )
    sp.add_argument(
        "--pace",
        type=rate,
        metavar="ROWS",
        help=_("at most ROWS rows a second (a busy warehouse)"),
    )


def cmd_redrive(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import DeadLetterFilter
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import RedriveJob
    from triage_app.core.vocabulary import Status

    ids = chosen_ids(
        args,
        "redrive",
        {
            "--all-open": "all_open",
            "--class": "error_class",
            "--batch": "batch",
            "--source": "source",
        },
    )
    if args.batch:
        from triage_app.core.deadletters import is_whole_batch

        with open_workspace_of(args, create=False) as ws:
            whole_batch = is_whole_batch(ws, args.batch)
        if whole_batch:
            return _redrive_whole_batch(args)
    if args.transform is None and args.to is None:
        raise TriageError(_("redrive: the argument --transform is required"))
    if args.transform is not None:
        args.transform = full_ref(args.transform, writes=not args.dry_run)
    where = None
    if args.all_open:
        where = DeadLetterFilter(status=Status.OPEN)
    elif args.error_class or args.batch or args.source:
        where = DeadLetterFilter(
            status=args.status,
            error_class=args.error_class,
            batch_id=args.batch,
            source=args.source,
        )
    verbose = args.verbose and not args.json
    job = RedriveJob(
        args.transform,
        ids=tuple(ids) if ids else None,
        where=where,
        dry_run=args.dry_run,
        max_attempts=args.max_attempts,
        guard=_guard(args),
        # JSON lists every row's outcome; the text is a summary, and with --verbose each
        # row's line is printed as its chunk settles, so memory stays flat either way.
        # The text keeps a few rows that did not succeed, to say what became of a lapsed one.
        keep=None if args.json else 10,
        on_results=_print_outcomes if verbose else None,
        to=args.to,
        source_url=args.source_url,
    )
    with open_workspace_of(args, act=None if args.dry_run else "redrive") as ws:
        s = job.run(ws)
    data: dict[str, Any] = {}
    if args.json:  # a whole batch's rows: built only when asked for
        data = s.to_json()  # "transform": the version it went (or would go) through
        for k in ("dry_run", "cancelled", "more_results"):
            data.pop(k)
        if job.guard is None:
            data.pop("stopped")
        if args.to is None:
            data.pop("destination")
            data.pop("undelivered")

    def text() -> str:
        # The sentence is core's (the window shows it): counts, rows skipped with why, each
        # lapsed row kept, why it stopped. It quotes errors from the store: for_terminal.
        lines = [for_terminal(s.describe())]
        lapsed_named = sum(1 for r in s.results if r.outcome == "lapsed")
        if s.lapsed > lapsed_named:
            lines.append(_("  (--verbose or --json names each)"))
        return "\n".join(lines)

    emit(data, args.json, text)
    return 1 if s.stopped else 0


def _redrive_whole_batch(args: argparse.Namespace) -> int:
    """``redrive --batch ID`` of an all-or-nothing batch: the whole batch in one
    transaction once every dead letter of it is fixed (core: ``load_held_batch``). Exit 0
    when it loaded (or had been loaded), 1 when something still fails (nothing loaded)."""
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import HeldBatchJob

    if args.dry_run:
        raise TriageError(
            _("a whole batch has no dry run: its load writes nothing unless every line passes")
        )
    if _guard(args) is not None:
        raise TriageError(_("--canary, --max-failure-rate and --pace are for row-by-row re-drives"))
    job = HeldBatchJob(args.batch, transform=args.transform, max_attempts=args.max_attempts)
    with open_workspace_of(args, act="redrive") as ws:
        s = job.run(ws)
    emit(s.to_json(), args.json, lambda: for_terminal(s.describe()))
    return 0 if s.loaded or s.already else 1


def _guard(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """``--canary``, ``--max-failure-rate``, ``--pace``: a re-drive that guards itself."""
    if args.canary is None and args.pace is None and args.max_failure_rate is None:
        return None
    from triage_app.core.deadletters import RedriveGuard

    rate = 0.2 if args.max_failure_rate is None else args.max_failure_rate
    return RedriveGuard(canary=args.canary, max_failure_rate=rate, pace=args.pace)


def _print_outcomes(results: Sequence[Any]) -> None:
    """``redrive --verbose``: each row's outcome, a chunk at a time; the summary follows."""
    said = _("  {id} line {line}  {outcome} {error}")
    sys.stdout.write(
        "".join(
            said.format(
                id=f"{r.id:>6}",
                line=f"{r.line:>6}",
                outcome=f"{r.outcome:13}",
                error=for_terminal(r.error or ""),
            )
            + "\n"
            for r in results
        )
    )
