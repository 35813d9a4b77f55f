"""The command line: a thin layer over ``triage_app.core``; ``--json`` on every command.

Exit 0 when the command did its job (a batch with quarantined rows succeeded); exit 2
with one line on stderr for bad usage, unreadable input or an unreachable database.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import orjson

from triage_app import __version__
from triage_app.cli_support import (
    chosen_ids,
    dead_letter_id,
    emit,
    for_terminal,
    full_ref,
    more_note,
    open_workspace_of,
    pause_collector,
    rate,
    share,
    start_up_done,
    start_up_over,
    text_argument,
    whole,
    workspace_args,
)
from triage_app.core.vocabulary import (
    CLASSES,
    NOBODY,
    SOURCE_FORMATS,
    STATUS_FILTERS,
    WAITING,
    AuditAction,
    named_ids,
    plural,
)


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (exit 2), the way every other refusal is reported."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _hash_in_background(file: str) -> Callable[[], Any]:
    """Open the source and hash it while the engine imports (hashlib lets go of the GIL).
    The batch reads this very descriptor: the file is opened once. Standard input (``-``)
    is left to the batch, which spools it into the workspace as it hashes it."""
    import threading

    from triage_app.core.fingerprint import STDIN, open_file

    if file == STDIN:
        return lambda: None
    box: list[Any] = []

    def work() -> None:
        try:
            opened = open_file(Path(file))
            try:
                opened.fingerprint()
            except BaseException:
                opened.close()
                raise
            box.append(opened)
        except BaseException as exc:  # raised again by the main thread: one line there
            box.append(exc)

    thread = threading.Thread(target=work, name="hash-source")
    thread.start()

    def result() -> Any:
        thread.join()  # joined, not pooled: the batch may fork, and forks want one thread
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    return result


def _close_source(opened: Callable[[], Any]) -> None:
    """Close the file opened in the background if no run took it (a refusal, a workspace
    that did not open); closing one a run closed already does nothing."""
    with contextlib.suppress(Exception):
        source = opened()
        if source is not None:
            source.close()


def cmd_run(args: argparse.Namespace) -> int:
    args.transform = full_ref(args.transform, writes=True)  # "@" in it: no import
    opened = _hash_in_background(args.file)
    from triage_app.core.jobs import BatchJob

    chunk = {"chunk_size": args.chunk_size} if args.chunk_size else {}
    job = BatchJob(Path(args.file), args.transform, args.format, **chunk)
    try:
        job.check()  # a format the transform does not read, a pipe: before any workspace opens
        with open_workspace_of(args) as ws:
            # Joined only now: the hash ran while the engine imported and the workspace opened.
            s = job.run(ws, opened=opened())
    finally:
        _close_source(opened)
    data = {
        k: v
        for k, v in s.to_json().items()
        if k
        in (
            "batch_id",
            "rows",
            "loaded",
            "superseded",
            "quarantined",
            "by_class",
            "seconds",
            "already_loaded",
        )
    }

    def text() -> str:
        if s.already_loaded:
            return (
                f"batch {s.batch_id} was already loaded: nothing to do "
                f"({plural(s.rows, 'row')}: {s.loaded} loaded, {s.superseded} superseded, "
                f"{s.quarantined} quarantined)"
            )
        classes = ", ".join(f"{n} {c}" for c, n in s.by_class.items()) or "none"
        head = "resumed batch" if s.resumed else "batch"
        return (
            f"{head} {s.batch_id}: {plural(s.rows, 'row')}, {s.loaded} loaded, "
            f"{s.superseded} superseded, {s.quarantined} quarantined ({classes}) "
            f"in {s.seconds:.2f}s"
        )

    emit(data, args.json, text)
    return 0


def _filter(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from triage_app.core.deadletters import DeadLetterFilter

    return DeadLetterFilter(
        error_class=args.error_class,
        status=args.status,
        batch_id=args.batch,
        search=args.search,
        owner=getattr(args, "owner", None),
        tag=getattr(args, "tag", None),
    )


def cmd_list(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import page_of_dead_letters

    with open_workspace_of(args, create=False) as ws:
        page = page_of_dead_letters(ws, _filter(args), limit=args.limit, offset=args.offset)
    views = page.views
    more = more_note(page.more, page.next_offset, json=args.json) if page.more else None

    def text() -> str:
        if not views:
            return "no dead letters match" + (
                f" after the first {args.offset:,}" if args.offset else ""
            )
        lines = [
            f"{'id':>6}  {'batch':16}  {'line':>6}  {'class':9}  {'att':>3}  {'status':9}  error"
        ]
        for v in views:
            lines.append(
                f"{v.id:>6}  {for_terminal(v.batch_id):16}  {v.line:>6}  {v.error_class:9}  "
                f"{v.attempts:>3}  {v.status:9}  {for_terminal(v.error[:80])}"
            )
        if more:
            lines.append(more)
        return "\n".join(lines)

    # --json stays an array, as scripts read it; what is left over is said on stderr.
    emit([v.to_json() for v in views], args.json, text)
    if more and args.json:
        print(more, file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import get_dead_letter

    with open_workspace_of(args, create=False) as ws:
        d = get_dead_letter(ws, args.id)

    def text() -> str:
        t = for_terminal  # every text from the store: a partner's bytes, a steward's note
        out = [
            f"dead letter {d.id} (version {d.version}): batch {t(d.batch_id)} line {d.line}, "
            f"{d.status}, "
            f"{plural(d.attempts, 'attempt')}, transform {t(d.transform)}",
            f"error [{d.error_class}]: {t(d.error)}",
            f"signature: {t(d.signature)}",
            f"payload:  {t(d.payload)}",
        ]
        if d.payload != d.original_payload:
            out.append(f"original: {t(d.original_payload)}")
        out.append("history:")
        out += [f"  {e.at}  {t(e.actor):12} {e.action:15} {t(e.detail)}" for e in d.events]
        return "\n".join(out)

    emit(d.to_json(), args.json, text)
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import edit_payload

    if args.payload_file is not None:  # - reads standard input, as run - does
        payload = text_argument(args.payload_file, "the payload")
    else:
        payload = args.payload
    with open_workspace_of(args) as ws:
        d = edit_payload(ws, args.id, payload, if_version=args.if_version)
    emit(
        d.to_json(),
        args.json,
        lambda: f"dead letter {d.id} edited (now version {d.version}); the original is kept",
    )
    return 0


def cmd_row_action(args: argparse.Namespace) -> int:
    """park, discard, reopen, reclassify, note: on the ids named (all or none), or on
    every row a filter matches (each row guarded on its own; refusals listed, exit 1).
    ``--dry-run`` says what would change and writes nothing."""
    from triage_app.core import deadletters as dls
    from triage_app.core.errors import TriageError

    action = args.command
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
                f"{action}: name dead letters by id, or by a filter "
                "(--status, --class, --batch, --search)"
            )
        where = dls.DeadLetterFilter(
            status=args.status or _ROW_ACTION_STATUS[action],
            error_class=args.error_class,
            batch_id=args.batch,
            search=args.search,
        )
    if args.dry_run:
        with open_workspace_of(args, create=False) as ws:
            preview = dls.preview_change(ws, change, ids=args.ids, where=where)
        emit(preview.to_json(), args.json, lambda: _would(preview, action, by_ids=bool(args.ids)))
        return 0
    with open_workspace_of(args) as ws:
        report = dls.apply_change(ws, args.ids, change, where=where)
    verb = change.verb

    def text() -> str:
        lines = [for_terminal(report.summary(verb))]  # it quotes a refusal: who holds a row
        if report.unchanged:
            lines.append(f"  already {verb}: {named_ids(report.unchanged)}")
        lines += [f"  {for_terminal(reason)}" for _, reason in report.refused[:20]]
        if len(report.refused) > 20:
            lines.append(f"  … and {len(report.refused) - 20:,} more refused")
        return "\n".join(lines)

    emit(report.to_json(), args.json, text)
    return 1 if report.refused else 0


def _would(preview: Any, action: str, *, by_ids: bool) -> str:
    """A change by hand's dry run for people: how many rows it would change, a sample, and
    the rows it would not change, with why."""
    n, verb = preview.count, preview.verb
    k = len(preview.refused)
    if by_ids and k:  # by ids, a change is all or none
        lines = [f"would {action} none: by ids it is all or none, and {k:,} would be refused:"]
    else:
        lines = [f"would {action} {plural(n, 'dead letter')}"]
        if preview.sample:
            lines.append(f"  {'id':>7}  {'batch':16}  {'line':>7}  {'class':9}  error")
            lines += [
                f"  {r.id:>7}  {for_terminal(r.batch_id):16}  {r.line:>7}  "
                f"{r.error_class:9}  {for_terminal(r.error[:80])}"
                for r in preview.sample
            ]
            if n > len(preview.sample):
                lines.append(f"  … and {n - len(preview.sample):,} more")
    if preview.unchanged:
        lines.append(f"already {verb} ({len(preview.unchanged):,}): {named_ids(preview.unchanged)}")
    if k:
        if not by_ids:
            lines.append(f"would not {action} {k:,}:")
        lines += [f"  {for_terminal(why)}" for _, why in preview.refused[:20]]
        if k > 20:
            lines.append(f"  … and {k - 20:,} more")
    lines.append("dry run: nothing was written")
    return "\n".join(lines)


# The rows a filter means by default for each action: those the action can change.
_ROW_ACTION_STATUS = {
    "park": "open",
    "discard": "open",
    "reopen": "parked",
    "reclassify": "open",
    "note": "open",
}


def _print_outcomes(results: Sequence[Any]) -> None:
    """``redrive --verbose``: each row's outcome, a chunk at a time; the summary follows."""
    sys.stdout.write(
        "".join(
            f"  {r.id:>6} line {r.line:>6}  {r.outcome:13} {for_terminal(r.error or '')}\n"
            for r in results
        )
    )


def cmd_redrive(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import DeadLetterFilter
    from triage_app.core.jobs import RedriveJob
    from triage_app.core.vocabulary import Status

    ids = chosen_ids(
        args, "redrive", {"--all-open": "all_open", "--class": "error_class", "--batch": "batch"}
    )
    args.transform = full_ref(args.transform, writes=not args.dry_run)
    where = None
    if args.all_open:
        where = DeadLetterFilter(status=Status.OPEN)
    elif args.error_class or args.batch:
        where = DeadLetterFilter(
            status=args.status, error_class=args.error_class, batch_id=args.batch
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
        keep=None if args.json else 0,
        on_results=_print_outcomes if verbose else None,
    )
    with open_workspace_of(args) as ws:
        s = job.run(ws)
    data: dict[str, Any] = {}
    if args.json:  # a whole batch's rows: built only when asked for
        data = s.to_json()  # "transform": the version it went (or would go) through
        for k in ("dry_run", "cancelled", "more_results"):
            data.pop(k)
        if job.guard is None:
            data.pop("stopped")

    def text() -> str:
        if s.dry_run:  # nothing was written: every outcome is a "would"
            lines = [
                f"would re-drive {s.attempted:,} with {s.transform}: {s.succeeded:,} would "
                f"succeed, {s.failed:,} would fail (dry run: nothing was written)"
            ]
        else:
            lines = [
                f"re-drove {s.attempted:,} with {s.transform}: {s.succeeded:,} succeeded, "
                f"{s.failed:,} failed, {s.parked:,} parked"
            ]
        skip = "would skip" if s.dry_run else "skipped"
        for why, (n, ids) in s.not_attempted.items():
            lines.append(f"{skip} {n:,} ({for_terminal(why)}): {named_ids(ids, total=n)}")
        if s.stopped:
            lines.append(f"stopped by itself: {s.stopped}")
        return "\n".join(lines)

    emit(data, args.json, text)
    return 1 if s.stopped else 0


def _guard(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """``--canary``, ``--max-failure-rate``, ``--pace``: a re-drive that guards itself."""
    if args.canary is None and args.pace is None and args.max_failure_rate is None:
        return None
    from triage_app.core.deadletters import RedriveGuard

    rate = 0.2 if args.max_failure_rate is None else args.max_failure_rate
    return RedriveGuard(canary=args.canary, max_failure_rate=rate, pace=args.pace)


def cmd_transforms(args: argparse.Namespace) -> int:
    from triage_app.core.transforms import default_registry, plugins_dir

    registry = default_registry()
    ts = registry.all()
    for problem in registry.problems:  # on stderr, so that --json stays a list of transforms
        print(f"warning: {for_terminal(problem)}", file=sys.stderr)
    data = [
        {
            "name": t.name,
            "version": t.version,
            "ref": t.ref,
            "table": t.table,
            "key": t.key,
            "ordering": t.ordering,
            "columns": list(t.column_names),
            "format": t.input_format,
            "description": t.description,
        }
        for t in ts
    ]
    emit(
        data,
        args.json,
        lambda: (
            "\n".join(
                f"{t.ref:14} -> {t.table} (key {t.key}"
                + (f", newest {t.ordering} wins" if t.ordering else "")
                + f")  {t.description}"
                for t in ts
            )
            + f"\nplugins folder: {plugins_dir()}"
        ),
    )
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from triage_app.core import quick_stats

    db = quick_stats.store_path(args.workspace, args.dead_letter)
    payload = quick_stats.cached_answer(db) if db is not None else None
    if payload is not None:
        st = orjson.loads(payload)  # unchanged since last asked: no engine needed
    else:
        from triage_app.core.trends import stats_json

        with open_workspace_of(args, create=False) as ws:
            st = stats_json(ws)

    def text() -> str:
        out = [plural(st["total"], "dead letter")]
        out.append("by class:  " + ", ".join(f"{k} {v}" for k, v in st["by_class"].items()))
        out.append("by status: " + ", ".join(f"{k} {v}" for k, v in st["by_status"].items()))
        out.append("attempts:  " + ", ".join(f"{k}x {v}" for k, v in st["attempts"].items()))
        out += _per_day(st["failures_per_day"], args.days)
        out.append("top signatures:")
        out += [
            f"  {s['count']:>6}  {s['class']:9} {for_terminal(s['signature'])}"
            for s in st["top_signatures"]
        ]
        return "\n".join(out)

    emit(st, args.json, text)
    return 0


def _per_day(counts: list[dict[str, Any]], days: int) -> list[str]:
    """``stats``' failures per day: each of the last ``days`` UTC days (from the first with a
    failure), by the day of each dead letter's first failure, with its classes. The head
    names the days: a UTC day is not the reader's own, and the window ends at today's."""
    import datetime as dt

    from triage_app.core.clock import today

    last = today()
    first = last - dt.timedelta(days=days - 1)
    by_day: dict[str, dict[str, int]] = {}
    for c in counts:  # {"day", "class", "count"}, zero counts left out
        if first.isoformat() <= c["day"] <= last.isoformat():
            by_day.setdefault(c["day"], {})[c["class"]] = c["count"]
    span = f"{first.isoformat()} to {last.isoformat()}" if days != 1 else last.isoformat()
    head = (
        f"failures per day (first failure, UTC), last {days} day{'s' if days != 1 else ''} "
        f"({span}):"
    )
    if not by_day:
        newest = max((c["day"] for c in counts), default=None)
        return [head, "  none" + (f" (the newest: {newest})" if newest else "")]
    lines = [head]
    day = dt.date.fromisoformat(min(by_day))
    while day <= last:
        classes = by_day.get(day.isoformat(), {})
        said = ", ".join(f"{c} {n:,}" for c, n in classes.items())
        lines.append(f"  {day.isoformat()}  {sum(classes.values()):>6,}  {said}".rstrip())
        day += dt.timedelta(days=1)
    return lines


def cmd_demo(args: argparse.Namespace) -> int:
    """The demo: into the workspace named, else the default one, which ``list``, ``gui``
    and every other command use when none is named (never into a workspace that holds
    batches of its own)."""
    from triage_app.core.demo import batches_not_the_demos
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import DemoJob

    if not 0 <= args.bad <= 1:
        raise TriageError(f"--bad {args.bad}: a share between 0 and 1")
    with open_workspace_of(args) as ws:
        where = ws.config.folder
        own = batches_not_the_demos(ws)
        if own:
            more = f" and {len(own) - 3:,} more" if len(own) > 3 else ""
            raise TriageError(
                f"the workspace at {where} holds batches of its own "
                f"({', '.join(map(for_terminal, own[:3]))}{more}): the demo's made-up orders "
                "go into a workspace of their own: triage-app --workspace DIR demo"
            )
        incoming, s = DemoJob(args.rows, args.bad, args.seed).run(ws)
    data = {"workspace": str(where), "incoming": str(incoming), **s.to_json()}
    named = workspace_args(args, where)

    def text() -> str:
        head = "the default workspace" if not named else "the workspace"
        counts = (
            f"{plural(s.rows, 'row')} = {s.loaded:,} loaded + {s.superseded:,} superseded + "
            f"{s.quarantined:,} quarantined"
        )
        already = " (already there: nothing to do)" if s.already_loaded else ""
        return (
            f"demo in {head} at {where}: {counts}{already}\n"
            f"see it with: triage-app{named} list, or triage-app{named} gui"
        )

    emit(data, args.json, text)
    return 0


def cmd_reconcile(args: argparse.Namespace) -> int:
    from triage_app.core.verify import reconcile

    with open_workspace_of(args, create=False) as ws:
        r = reconcile(ws, args.batch_id)

    def text() -> str:
        purged = r.purged_resolved + r.purged_discarded
        gone = (
            f" ({purged:,} since purged: {r.purged_resolved:,} resolved, "
            f"{r.purged_discarded:,} discarded)"
            if purged
            else ""
        )
        head = (
            f"batch {r.batch_id}: {plural(r.rows, 'row')} = {r.loaded} loaded + "
            f"{r.superseded} superseded + {r.quarantined} quarantined{gone} over "
            f"{plural(r.chunks, 'chunk')}"
        )
        if r.ok:
            return head + ("" if r.complete else " (not finished: resumable)") + ": consistent"
        out = [head + ": NOT consistent"]
        out += [f"  missing lines {a}-{b}" for a, b in r.missing_lines]
        out += [f"  doubled lines {a}-{b}" for a, b in r.doubled_lines]
        out += [f"  {for_terminal(p)}" for p in r.problems]
        return "\n".join(out)

    emit(r.to_json(), args.json, text)
    return 0 if r.ok else 1


def cmd_verify_idempotent(args: argparse.Namespace) -> int:
    from triage_app.core.jobs import VerifyJob

    args.transform = full_ref(args.transform)
    p = VerifyJob(Path(args.file), args.transform, args.format).run(None)
    emit(
        p.to_json(),
        args.json,
        lambda: (
            f"{'idempotent' if p.identical else 'NOT idempotent'}: two runs of "
            f"{plural(p.rows, 'row')} "
            f"through {p.transform}, warehouse SHA-256 {p.first_sha256[:16]}… and "
            f"{p.second_sha256[:16]}…"
            + ("" if p.same_dead_letters else "; the dead letters differ")
        ),
    )
    return 0 if p.identical else 1


def cmd_report(args: argparse.Namespace) -> int:
    import datetime as dt

    from triage_app.core.errors import TriageError

    since = None
    if args.since:
        try:
            since = dt.date.fromisoformat(args.since)
        except ValueError:
            raise TriageError(f"--since {args.since!r} is not a date (YYYY-MM-DD)") from None
    if not args.out.strip():
        raise TriageError("--out names no folder: give the folder to write the report in")
    from triage_app.core.places import printable
    from triage_app.gui.trends.report import write_report

    out = Path(args.out)
    with open_workspace_of(args, create=False) as ws:
        try:
            r = write_report(ws, out, since)
        except OSError as exc:
            # The folder named, and the file inside it where that is what failed.
            where = printable(out)
            if isinstance(exc.filename, str) and Path(exc.filename) != out:
                where += f" ({printable(Path(exc.filename).name)})"
            raise TriageError(
                f"cannot write the report to {where}: {exc.strerror or exc}"
            ) from None
    emit(
        r.to_json(),
        args.json,
        lambda: (
            f"report in {r.out_dir}: {plural(len(r.images), 'chart')}, "
            f"{plural(r.dead_letters, 'dead letter')}"
            + (f", {plural(r.spikes, 'spike')}" if r.spikes else "")
            + f"; open {r.html.name} or {r.markdown.name}"
        ),
    )
    return 0


def cmd_purge(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import RetentionPolicy, retention_policy, set_retention_policy
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import PurgeJob

    with open_workspace_of(args) as ws:
        if args.older_than is None:
            policy = retention_policy(ws)
            if policy is None:
                raise TriageError(
                    "no retention policy is set for this store: give --older-than DAYS "
                    "(and --save-policy to keep it for the team)"
                )
            if args.status:
                policy = RetentionPolicy.of(policy.days, args.status)
        else:
            policy = RetentionPolicy.of(args.older_than, args.status or ["resolved", "discarded"])
        if args.save_policy:
            set_retention_policy(ws, policy)
        s = PurgeJob(policy.days, policy.statuses, args.dry_run, args.batch).run(ws)

    def text() -> str:
        verb = "would purge" if s.dry_run else "purged"
        parts = ", ".join(f"{n:,} {st}" for st, n in s.by_status.items()) or "nothing"
        lines = [
            f"{verb} {plural(s.rows, 'dead letter')} ({parts}) closed before "
            f"{s.cutoff:%Y-%m-%d %H:%M} UTC ({' and '.join(s.statuses)}, "
            f"older than {plural(policy.days, 'day')})"
        ]
        for day, classes in s.by_day.items():
            counts = ", ".join(f"{n:,} {c}" for c, n in classes.items())
            lines.append(f"  quarantined {day}: {counts}")
        if s.cancelled:
            lines.append("cancelled: the rest was kept")
        if args.save_policy:
            lines.append(f"retention policy saved for the store: {policy.describe()}")
        return "\n".join(lines)

    emit(s.to_json(), args.json, text)
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from triage_app.core.clock import readable
    from triage_app.core.deadletters import AuditFilter, audit_page, parse_action, parse_since
    from triage_app.core.errors import TriageError

    if args.one_id is not None and args.id not in (None, args.one_id):
        raise TriageError(f"audit: dead letter {args.one_id} or {args.id}? give one id")
    f = AuditFilter(
        since=parse_since(args.since) if args.since else None,
        actor=args.actor or None,
        action=parse_action(args.action) if args.action else None,
        dead_letter_id=args.id if args.one_id is None else args.one_id,
    )
    with open_workspace_of(args, create=False) as ws:
        page = audit_page(ws, f, limit=args.limit, offset=args.offset)
    events = page.records
    more = more_note(page.more, page.next_offset, json=args.json) if page.more else None

    def text() -> str:
        if not events:
            return "no audit events match" + (
                f" after the first {args.offset:,}" if args.offset else ""
            )
        actors = [for_terminal(e.actor) for e in events]
        who = min(max(len("actor"), *map(len, actors)), 40)
        lines = [f"{'at (UTC)':19}  {'actor':{who}}  {'action':14}  {'dead letter':>11}  detail"]
        for e, actor in zip(events, actors, strict=True):
            dl = "" if e.dead_letter_id is None else str(e.dead_letter_id)
            detail = for_terminal(e.detail if len(e.detail) <= 100 else e.detail[:99] + "…")
            lines.append(
                f"{readable(e.at):19}  {actor[:who]:{who}}  {e.action:14}  {dl:>11}  {detail}"
            )
        if more:
            lines.append(more)
        return "\n".join(lines)

    emit([e.to_json() for e in events], args.json, text)
    if more and args.json:
        print(more, file=sys.stderr)
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from triage_app.core.db import migrate_workspace

    store, change = migrate_workspace(args.workspace, dead_letter_url=args.dead_letter)
    data = change.to_json() if change else {"store": store, "from": None, "to": None}
    data["current"] = change is None
    emit(data, args.json, lambda: change.message if change else f"{store} is current")
    return 0


def cmd_gui(args: argparse.Namespace) -> int:
    from triage_app.gui.app import run_gui

    return run_gui(args.workspace, warehouse_url=args.warehouse, dead_letter_url=args.dead_letter)


def cmd_self_test(_args: argparse.Namespace) -> int:
    from triage_app.self_test import run_self_test

    return run_self_test()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="triage-app",
        description=(
            "Triage Desk: run nightly batches, quarantine the rows that fail, fix them and "
            "re-drive them. With no command, opens the window."
        ),
    )
    p.add_argument("--version", action="version", version=f"triage-app {__version__}")
    p.add_argument(
        "--workspace",
        metavar="DIR",
        help="workspace folder (env TRIAGE_WORKSPACE; default: the workspace in your data "
        "folder, which every command and the window use when none is named)",
    )
    p.add_argument(
        "--warehouse", metavar="URL", help="warehouse SQLAlchemy URL (env TRIAGE_WAREHOUSE_URL)"
    )
    p.add_argument(
        "--dead-letter",
        metavar="URL",
        help="dead-letter store SQLAlchemy URL (env TRIAGE_DEAD_LETTER_URL)",
    )
    p.add_argument("--json", action="store_true", help="print JSON (before or after the command)")
    p.add_argument(
        "--self-test",
        action="store_true",
        help="check this installation (drivers, transforms, migrations, the window, charts) "
        "in a temporary workspace, one line per check, and exit",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(
        name: str, fn: Callable[[argparse.Namespace], int], help_: str
    ) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        # SUPPRESS: not given after the command, it keeps what was given before it.
        sp.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
        sp.set_defaults(func=fn)
        return sp

    def source_args(sp: argparse.ArgumentParser) -> None:
        """A source file and the transform to run it through (run, verify-idempotent)."""
        sp.add_argument("file", help="the source file (JSONL or CSV)")
        sp.add_argument(
            "--transform",
            required=True,
            metavar="NAME@VERSION",
            help="transform to run, e.g. pesanan@2",
        )
        sp.add_argument("--format", choices=SOURCE_FORMATS, help="default: from the extension")

    sp = add("run", cmd_run, "run a source file through a transform")
    source_args(sp)
    sp.epilog = "FILE - reads standard input (with --format); a named pipe is refused."
    sp.add_argument(
        "--chunk-size",
        type=whole(1),
        default=None,
        metavar="N",
        help="lines (CSV: records) per committed chunk (default 20000)",
    )

    def filters(sp: argparse.ArgumentParser, status_default: str) -> None:
        sp.add_argument(
            "--class",
            dest="error_class",
            choices=CLASSES,
            help="only this error class",
        )
        sp.add_argument(
            "--status",
            default=status_default,
            choices=STATUS_FILTERS,
            help=f"only this status (default {status_default})",
        )
        sp.add_argument("--batch", metavar="ID", help="only this batch (id or prefix)")

    sp = add("list", cmd_list, "list dead letters")
    filters(sp, "open")
    sp.add_argument("--search", metavar="TEXT", help="literal text in the payload or error")
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--owner", metavar="NAME", help="the rows of the error groups NAME owns")
    who.add_argument(
        "--unowned",
        dest="owner",
        action="store_const",
        const=NOBODY,
        help="the rows of the error groups nobody owns",
    )
    sp.add_argument("--tag", metavar="TAG", help="the rows of the error groups tagged TAG")
    sp.add_argument(
        "--limit", type=whole(1), default=100, metavar="N", help="at most N rows (default 100)"
    )
    sp.add_argument(
        "--offset",
        type=whole(0),
        default=0,
        metavar="N",
        help="skip the first N matching rows (by id): the next page",
    )

    sp = add("show", cmd_show, "show one dead letter with its original and history")
    sp.add_argument("id", type=dead_letter_id, help="the dead letter's id")

    sp = add("edit", cmd_edit, "replace a dead letter's payload (the original is kept)")
    sp.add_argument("id", type=dead_letter_id, help="the dead letter's id")
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--payload", metavar="TEXT", help="the new payload, as JSON")
    g.add_argument(
        "--payload-file", metavar="FILE", help="read the new payload from FILE; - reads stdin"
    )
    sp.add_argument(
        "--if-version",
        type=whole(1, 2**31 - 1),  # the version column is a 32-bit integer everywhere
        metavar="N",
        help="only if the dead letter is still at version N (show --json gives it); "
        "refused, naming who changed it, otherwise",
    )

    def row_action(name: str, help_: str) -> argparse.ArgumentParser:
        sp = add(name, cmd_row_action, help_ + "; by ids (all or none) or by a filter")
        sp.add_argument(
            "ids", type=dead_letter_id, nargs="*", metavar="ID", help="these dead letters"
        )
        class_flag = "--where-class" if name == "reclassify" else "--class"
        sp.add_argument(class_flag, dest="error_class", choices=CLASSES, help="only this class")
        sp.add_argument(
            "--status",
            choices=STATUS_FILTERS,
            help=f"only this status (default {_ROW_ACTION_STATUS[name]})",
        )
        sp.add_argument("--batch", metavar="ID", help="only this batch (id or prefix)")
        sp.add_argument("--search", metavar="TEXT", help="literal text in the payload or error")
        sp.add_argument(
            "--dry-run",
            action="store_true",
            help="say how many rows it would change, show some, and which it would not "
            "change and why; write nothing",
        )
        return sp

    row_action("park", "set dead letters aside for a person").add_argument(
        "--reason", metavar="TEXT", help="why (kept in the history)"
    )
    row_action("discard", "discard dead letters as junk (kept for the audit)").add_argument(
        "--reason", metavar="TEXT", required=True, help="why they are junk"
    )
    row_action("reopen", "reopen parked or discarded dead letters").add_argument(
        "--reason", metavar="TEXT", help="why (kept in the history)"
    )
    row_action("reclassify", "change dead letters' error class").add_argument(
        "--class", dest="new_class", choices=CLASSES, required=True, help="the new class"
    )
    row_action("note", "add a note to dead letters' history").add_argument(
        "--text", required=True, metavar="TEXT", help="the note"
    )

    from triage_app import cli_change_sets, cli_groups

    cli_change_sets.add_commands(add, CLASSES, STATUS_FILTERS)
    cli_groups.add_commands(add)

    sp = add("redrive", cmd_redrive, "re-drive dead letters through a transform version")
    # Not in the group below: argparse counts an absent nargs="*" positional as given.
    sp.add_argument("ids", type=dead_letter_id, nargs="*", metavar="ID", help="these dead letters")
    g = sp.add_mutually_exclusive_group()
    g.add_argument(
        "--id", type=dead_letter_id, nargs="+", metavar="ID", help="these dead letters (as ID)"
    )
    g.add_argument("--all-open", action="store_true", help="every open dead letter")
    g.add_argument(
        "--class",
        dest="error_class",
        choices=CLASSES,
        help="open dead letters of this class",
    )
    g.add_argument("--batch", metavar="ID", help="open dead letters of this batch")
    sp.add_argument(
        "--status",
        default="open",
        choices=[s.value for s in WAITING],
        help="with --class or --batch: which status (default open)",
    )
    sp.add_argument(
        "--transform",
        required=True,
        metavar="NAME@VERSION",
        help="transform version to re-drive through, e.g. pesanan@2",
    )
    sp.add_argument(
        "--dry-run", action="store_true", help="report each row's outcome and write nothing"
    )
    sp.add_argument(
        "--verbose", action="store_true", help="list each row's outcome, not only the counts"
    )
    sp.add_argument(
        "--max-attempts",
        type=whole(1, 1_000_000),
        default=3,
        help="park a row once it has failed this often (default 3)",
    )
    sp.add_argument(
        "--canary",
        type=whole(0, 1_000_000),
        nargs="?",
        const=0,
        metavar="N",
        help="re-drive N rows first (default 10 or 1%%) and go on only if few enough failed",
    )
    sp.add_argument(
        "--max-failure-rate",
        type=share,
        metavar="SHARE",
        help="stop (after the canary, or any later 200 rows) when more than this share "
        "failed (default 0.2); exit 1",
    )
    sp.add_argument(
        "--pace", type=rate, metavar="ROWS", help="at most ROWS rows a second (a busy warehouse)"
    )

    add("transforms", cmd_transforms, "list the registered transforms")
    sp = add(
        "stats", cmd_stats, "counts by class and status, attempts, failures per day, top errors"
    )
    sp.add_argument(
        "--days",
        type=whole(1, 3660),
        default=14,
        metavar="N",
        help="failures per day for the last N days (default 14; --json has every day)",
    )
    sp = add(
        "demo",
        cmd_demo,
        "fill a workspace (the default one unless named: the one list and gui open) from "
        "the seed's 10-row batch, or from a generated batch of N orders; prints where",
    )
    sp.add_argument(
        "--rows",
        type=whole(1, 100_000_000),  # a bound, so that a typo cannot fill the disk
        metavar="N",
        help="generate a batch of N orders in the seed's shape instead of the seed's 10 rows",
    )
    sp.add_argument(
        "--bad",
        type=float,
        default=0.01,
        metavar="SHARE",
        help="with --rows: the share of defective orders (default 0.01)",
    )
    sp.add_argument(
        "--seed", type=int, default=43, help="with --rows: the generator's seed (default 43)"
    )
    sp = add(
        "reconcile",
        cmd_reconcile,
        "check that every line of a batch was loaded, superseded or quarantined once "
        "(exit 1 if not)",
    )
    sp.add_argument("batch_id", metavar="BATCH_ID", help="the batch's id (or a unique prefix)")

    sp = add(
        "verify-idempotent",
        cmd_verify_idempotent,
        "run a file twice into scratch databases and compare the warehouse SHA-256 "
        "(exit 1 if they differ); your workspace is not touched",
    )
    source_args(sp)

    sp = add(
        "report",
        cmd_report,
        "write the Trends charts (PNG, with their numbers as CSV) and a Markdown and "
        "HTML summary into a folder; needs no display",
    )
    sp.add_argument("--out", required=True, metavar="DIR", help="folder to write (created)")
    sp.add_argument("--since", metavar="DATE", help="first day to cover, YYYY-MM-DD")

    sp = add(
        "purge",
        cmd_purge,
        "delete resolved or discarded dead letters closed more than DAYS ago, with their "
        "history (open and parked ones never); without --older-than, the store's policy",
    )
    sp.add_argument(
        "--older-than",
        type=int,
        metavar="DAYS",
        help="closed more than DAYS days ago (default: the store's retention policy)",
    )
    sp.add_argument(
        "--status",
        action="append",
        metavar="STATUS",
        help="resolved or discarded; repeat for both (default: both, or the policy's)",
    )
    sp.add_argument("--batch", metavar="ID", help="only this batch's rows (id or prefix)")
    sp.add_argument("--dry-run", action="store_true", help="count what would go; delete nothing")
    sp.add_argument(
        "--save-policy",
        action="store_true",
        help="keep --older-than and --status as the store's retention policy, for the team",
    )

    sp = add(
        "audit",
        cmd_audit,
        "the audit trail: who did what to which dead letter, and when; newest first",
    )
    sp.add_argument(
        "--since",
        metavar="DATE",
        help="from this UTC day (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM[:SS], UTC unless "
        "it gives an offset) on",
    )
    sp.add_argument("--actor", metavar="TEXT", help="actors containing TEXT (any case)")
    sp.add_argument(
        "--action",
        metavar="ACTION",
        help="only this action: " + ", ".join(a.value for a in AuditAction),
    )
    sp.add_argument(
        "one_id", type=dead_letter_id, nargs="?", metavar="ID", help="only this dead letter's"
    )
    sp.add_argument("--id", type=whole(1), metavar="N", help="only the events of dead letter N")
    sp.add_argument(
        "--limit", type=whole(1), default=100, metavar="N", help="at most N events (default 100)"
    )
    sp.add_argument(
        "--offset",
        type=whole(0),
        default=0,
        metavar="N",
        help="skip the N newest matching events: the next page",
    )

    add(
        "migrate",
        cmd_migrate,
        "bring the dead-letter store to this version's schema (a SQLite store is copied "
        "first; back up a PostgreSQL one yourself)",
    )
    add("gui", cmd_gui, "open the window")
    return p


# The commands that open their workspace through open_workspace_of, before any long work.
_OPEN_THEIR_WORKSPACE = frozenset(
    {cmd_run, cmd_list, cmd_show, cmd_edit, cmd_row_action, cmd_redrive, cmd_stats}
    | {cmd_demo, cmd_reconcile, cmd_report, cmd_purge, cmd_audit}
)


def main(argv: Sequence[str] | None = None, *, fast_exit: bool = False) -> int:
    """Run one command; its exit code. ``fast_exit`` (the console script) ends the process
    as soon as a command other than the window has done its job and flushed its output."""
    # The engine is imported by the commands, not here: `run` starts hashing its file on a
    # thread first, and the import (SQLAlchemy, a third of a second) overlaps the hash.
    pause_collector()
    try:
        args = build_parser().parse_args(argv)
        if args.self_test:
            args.func = cmd_self_test
        elif args.command is None:
            args.func = cmd_gui
        if args.func not in _OPEN_THEIR_WORKSPACE:
            start_up_done()
        code = int(args.func(args))
        if fast_exit and args.func is not cmd_gui:
            _exit_now(code)
        return code
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("triage-app: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except Exception as exc:
        message = _refusal(exc)
        if message is None:
            raise
        # One line, whatever it quotes (a file's name, a row's holder): escaped like stdout.
        print(f"triage-app: {for_terminal(message)}", file=sys.stderr)
        return 2
    finally:
        start_up_over()


def _exit_now(code: int) -> NoReturn:
    """Skip the interpreter's teardown: unloading SQLAlchemy and friends takes 80 ms that no
    one waits for usefully. By now every database and file the command opened is closed;
    only the standard streams need flushing. The window is left to exit normally, for Qt's
    sake."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to say
            stream.flush()
    os._exit(code)


def entry() -> NoReturn:
    """The ``triage-app`` console script."""
    sys.exit(main(fast_exit=True))


def _refusal(exc: Exception) -> str | None:
    """The one line for a failure the user can act on; None for a bug (it propagates)."""
    from triage_app.core.db import refusal_message

    message = refusal_message(exc)
    name = getattr(exc, "filename", None)
    if message is not None and isinstance(exc, OSError) and isinstance(name, str | bytes):
        # An OSError's own text leaves out the file (strerror): name it, or the line says
        # "No such file or directory" about nothing in particular.
        from triage_app.core.places import printable

        where = printable(os.fsdecode(name))
        if where not in message:
            message = f"{where}: {message}"
    return message
