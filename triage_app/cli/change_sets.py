"""The command line's fixes for many rows at once (issue 13): ``fix``, ``changesets`` and
``revert``. A thin layer over ``core.deadletters`` (fixes.py, change_sets.py)."""

from __future__ import annotations

import argparse
from typing import Any

from triage_app.cli.support import (
    Subparsers,
    add_row_filter,
    command,
    dead_letter_id,
    emit,
    for_terminal,
    full_ref,
    open_workspace_of,
    row_filter,
    text_argument,
    when,
    whole,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _, ngettext

# How each form option reads its argument: FIELD=JSON, OLD=NEW, or FIELD; its help is said
# in the user's language where the parser is built.
_FORM = {
    "set": ("FIELD=JSON", N_("set FIELD to the JSON value (added where missing)")),
    "default": ("FIELD=JSON", N_("give FIELD this value where it is missing or null")),
    "rename": ("OLD=NEW", N_("rename the field OLD to NEW")),
    "trim": ("FIELD", N_("strip spaces around FIELD's text")),
    "to_number": ("FIELD", N_('turn FIELD\'s text into a number ("12" -> 12)')),
    "map": ("FIELD=OBJECT", N_('replace FIELD\'s values, e.g. status={"lunas": "paid"}')),
}


class _StepAction(argparse.Action):
    """Each form option appends one step, in the order given on the command line."""

    def __call__(self, parser: Any, namespace: Any, value: Any, option: Any = None) -> None:
        steps = list(getattr(namespace, "steps", None) or [])
        steps.append((self.const, value))
        namespace.steps = steps


def add_commands(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "fix",
        cmd_fix,
        _(
            "apply one fix to many dead letters as a change-set, after a preview; a JSON "
            "Patch or the form's steps, on ids, a signature or a filter"
        ),
    )
    sp.epilog = _(
        "Each row the fix does not apply to is listed with why; a row changed since the "
        "preview is left out and listed (exit 1). revert undoes a change-set."
    )
    g = sp.add_argument_group(_("the fix (a patch, or steps applied in the order given)"))
    g.add_argument(
        "--patch", metavar="FILE", help=_("a JSON Patch (RFC 6902) document; - reads stdin")
    )
    for op, (metavar, help_) in _FORM.items():
        g.add_argument(
            f"--{op.replace('_', '-')}",
            dest="steps",
            action=_StepAction,
            const=op,
            metavar=metavar,
            help=_(help_),
        )
    g.add_argument("--description", metavar="TEXT", help=_("how the history names the fix"))
    r = sp.add_argument_group(_("the rows (open ones unless --status says otherwise)"))
    r.add_argument(
        "ids", type=dead_letter_id, nargs="*", metavar="ID", help=_("these dead letters")
    )
    r.add_argument(
        "--id",
        type=dead_letter_id,
        nargs="+",
        metavar="ID",
        help=_("these dead letters (as ID)"),
    )
    r.add_argument("--signature", metavar="TEXT", help=_("the rows of this error group"))
    add_row_filter(r, status_help=_("only this status (default {status})").format(status="open"))
    sp.add_argument(
        "--try",
        dest="try_ref",
        metavar="NAME@VERSION",
        help=_("also say what this transform makes of each fixed payload"),
    )
    sp.add_argument("--dry-run", action="store_true", help=_("preview only; nothing is written"))
    sp.add_argument("--verbose", action="store_true", help=_("a line for each row"))

    sp = command(subparsers, "changesets", cmd_changesets, _("list the change-sets, newest first"))
    sp.add_argument(
        "--limit", type=whole(1), default=100, metavar="N", help=_("at most N (default 100)")
    )

    sp = command(
        subparsers,
        "revert",
        cmd_revert,
        _("undo a change-set: each row back to its payload from before"),
    )
    sp.add_argument("change_set", type=whole(1), metavar="CHANGESET", help=_("the change-set's id"))


def _fix(args: argparse.Namespace) -> Any:
    from triage_app.core import deadletters as dls

    steps = getattr(args, "steps", None) or []
    if args.patch and steps:
        raise TriageError(_("fix: give a --patch or form steps (--set, --default, ...), not both"))
    if args.patch:
        text = text_argument(args.patch, _("the patch"))
        return dls.Fix(patch=dls.read_patch(text), description=args.description or "")
    if not steps:
        raise TriageError(
            _("fix: say what to change: --patch FILE, or --set, --default, --rename, ...")
        )
    return dls.Fix(
        steps=tuple(_step(op, raw) for op, raw in steps), description=args.description or ""
    )


def _step(op: str, raw: str) -> Any:
    from triage_app.core import deadletters as dls

    if op in ("trim", "to_number"):
        return dls.step_from_text(op, raw)
    name, sep, rest = raw.partition("=")
    if not sep:
        raise TriageError(
            _("--{option} {value}: expected {form}").format(
                option=op.replace("_", "-"), value=raw, form=_FORM[op][0]
            )
        )
    return dls.step_from_text(op, name, rest)


def _rows(args: argparse.Namespace, ws: Any) -> list[int]:
    from triage_app.core import deadletters as dls

    ids = list(dict.fromkeys([*args.ids, *(args.id or [])]))
    if ids:
        return dls.chosen_ids(ws, ids, None)
    narrowed = (args.signature, args.error_class, args.batch, args.search, args.status)
    if all(v is None for v in narrowed):
        raise TriageError(
            _(
                "fix: name the rows: ids, --signature, or a filter (--class, --status, "
                "--batch, --search)"
            )
        )
    where = row_filter(args, status=args.status or "open", signature=args.signature)
    return dls.chosen_ids(ws, None, where)


def cmd_fix(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls
    from triage_app.core.transforms import default_registry

    fix = _fix(args)
    transform = default_registry().get(full_ref(args.try_ref)) if args.try_ref else None
    with open_workspace_of(args, act=None if args.dry_run else "fix") as ws:
        ids = _rows(args, ws)
        if not ids:
            raise TriageError(_("fix: no dead letters match"))
        keep = len(ids) if args.json or args.verbose else 0  # per-row detail only when shown
        preview = dls.preview_fix(ws, fix, ids, transform=transform, keep=keep)
        report = (
            None
            if args.dry_run or not preview.versions
            else dls.apply_fix(ws, fix, preview.versions)
        )
    data: dict[str, Any] = {"preview": preview.to_json()}
    if report is not None:
        data["applied"] = report.to_json()

    def text() -> str:
        p = preview
        if args.dry_run:
            head = ngettext(
                "fix: {description}, on {n} dead letter: {applies} would change, "
                "{not_applicable} not applicable",
                "fix: {description}, on {n} dead letters: {applies} would change, "
                "{not_applicable} not applicable",
                p.rows,
            )
        else:
            head = ngettext(
                "fix: {description}, on {n} dead letter: {applies} to change, "
                "{not_applicable} not applicable",
                "fix: {description}, on {n} dead letters: {applies} to change, "
                "{not_applicable} not applicable",
                p.rows,
            )
        lines = [
            head.format(
                description=for_terminal(fix.description),
                n=format_int(p.rows),
                applies=format_int(p.applies),
                not_applicable=format_int(p.not_applicable),
            )
        ]
        if p.transform:
            lines.append(
                _("  through {transform}: {load} would load, {fail} would still fail").format(
                    transform=p.transform,
                    load=format_int(p.would_load),
                    fail=format_int(p.still_fails),
                )
            )
        for why, n in list(p.why_not.items())[:10]:
            lines.append(
                _("  not applicable ({n}): {why}").format(n=format_int(n), why=for_terminal(why))
            )
        if args.verbose:
            for r in p.shown:
                said = r.why or r.changes + (f"  => {r.error}" if r.error else "")
                lines.append(f"  {r.id:>7}  {r.outcome:14} {for_terminal(said[:120])}")
        if args.dry_run:
            lines.append(_("dry run: nothing was written"))
        else:
            # Core's sentence (the window's too); no report: nothing applied, none made.
            done = report or dls.ChangeSetReport(None, "applied")
            lines.append(for_terminal(done.describe()))
            lines += [
                _("  left out: {why}").format(why=for_terminal(why))
                for _id, why in done.refused[:20]
            ]
        return "\n".join(lines)

    emit(data, args.json, text)
    if args.dry_run:
        return 0
    return 0 if report is not None and report.changed and not report.refused else 1


def cmd_changesets(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls

    with open_workspace_of(args, create=False) as ws:
        found = dls.list_change_sets(ws, limit=args.limit)

    def text() -> str:
        if not found:
            return _("no change-sets yet")
        lines = []
        t = for_terminal  # who and the description: people's text, from the store
        for c in found:
            undone = (
                "  "
                + _("(reverted {at} by {who})").format(
                    at=when(c.reverted_at), who=t(c.reverted_by or "")
                )
                if c.reverted_at
                else ""
            )
            rows = ngettext("{n} row", "{n} rows", c.rows).format(n=format_int(c.rows))
            lines.append(
                f"{c.id:>5}  {when(c.at)}  {t(c.actor)}  {rows}  {t(c.description)}{undone}"
            )
        return "\n".join(lines)

    emit([c.to_json() for c in found], args.json, text)
    return 0


def cmd_revert(args: argparse.Namespace) -> int:
    from triage_app.core import deadletters as dls
    from triage_app.core.db import require_revert

    with open_workspace_of(args, create=False) as ws:
        # Only one's own change-set, unless a lead (the database checks it again).
        require_revert(ws.store, args.change_set)
        report = dls.revert_change_set(ws, args.change_set)

    emit(report.to_json(), args.json, lambda: revert_text(report))
    # Done when the change-set is reverted; open (a row waits, or a re-drive holds one): 1.
    return 0 if report.reverted_at is not None else 1


def revert_text(report: Any) -> str:
    """A revert in words: core's sentence (the window's too), then each row that moved on
    (who did what) and each left for now (held by a re-drive)."""
    lines = [for_terminal(report.describe())]
    for m in report.moved_on[:20]:
        if m.still_open:
            said = _("  moved on (still open): {why}")
        else:
            said = _("  moved on (for good): {why}")
        lines.append(said.format(why=for_terminal(m.why)))
    if len(report.moved_on) > 20:
        lines.append(_("  … and {n} more moved on").format(n=format_int(len(report.moved_on) - 20)))
    for _id, why in report.refused[:20]:
        lines.append(_("  left for now: {why}").format(why=for_terminal(why)))
    return "\n".join(lines)
