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
from triage_app.core.vocabulary import CLASSES, SOURCE_FORMATS, STATUS_FILTERS, WAITING

JsonValue = Any


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (exit 2), the way every other refusal is reported."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _emit(data: JsonValue, as_json: bool, text: Callable[[], str]) -> None:
    if as_json:
        sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write(text() + "\n")


def _open(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from triage_app.core.db import open_workspace

    return open_workspace(
        args.workspace, warehouse_url=args.warehouse, dead_letter_url=args.dead_letter
    )


def _hash_in_background(path: Path) -> Callable[[], str | None]:
    """Start hashing the file while the engine imports (hashlib lets go of the GIL)."""
    import threading

    from triage_app.core.fingerprint import sha256_of

    box: list[str] = []

    def work() -> None:
        # On any error run_batch reads the file itself and says what is wrong.
        with contextlib.suppress(Exception), path.open("rb") as f:
            box.append(sha256_of(f))

    thread = threading.Thread(target=work, name="hash-source")
    thread.start()

    def result() -> str | None:
        thread.join()  # joined, not pooled: the batch may fork, and forks want one thread
        return box[0] if box else None

    return result


def cmd_run(args: argparse.Namespace) -> int:
    sha = _hash_in_background(Path(args.file))
    from triage_app.core.jobs import BatchJob

    chunk = {"chunk_size": args.chunk_size} if args.chunk_size else {}
    with _open(args) as ws:
        s = BatchJob(Path(args.file), args.transform, args.format, sha256=sha(), **chunk).run(ws)
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
                f"({s.rows} rows: {s.loaded} loaded, {s.superseded} superseded, "
                f"{s.quarantined} quarantined)"
            )
        classes = ", ".join(f"{n} {c}" for c, n in s.by_class.items()) or "none"
        head = "resumed batch" if s.resumed else "batch"
        return (
            f"{head} {s.batch_id}: {s.rows} rows, {s.loaded} loaded, "
            f"{s.superseded} superseded, {s.quarantined} quarantined ({classes}) "
            f"in {s.seconds:.2f}s"
        )

    _emit(data, args.json, text)
    return 0


def _filter(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from triage_app.core.deadletters import DeadLetterFilter

    return DeadLetterFilter(
        error_class=args.error_class, status=args.status, batch_id=args.batch, search=args.search
    )


def cmd_list(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import list_dead_letters

    with _open(args) as ws:
        views = list_dead_letters(ws, _filter(args), limit=args.limit)

    def text() -> str:
        if not views:
            return "no dead letters match"
        lines = [
            f"{'id':>6}  {'batch':16}  {'line':>6}  {'class':9}  {'att':>3}  {'status':9}  error"
        ]
        for v in views:
            lines.append(
                f"{v.id:>6}  {v.batch_id:16}  {v.line:>6}  {v.error_class:9}  "
                f"{v.attempts:>3}  {v.status:9}  {v.error[:80]}"
            )
        return "\n".join(lines)

    _emit([v.to_json() for v in views], args.json, text)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import get_dead_letter

    with _open(args) as ws:
        d = get_dead_letter(ws, args.id)

    def text() -> str:
        out = [
            f"dead letter {d.id} (version {d.version}): batch {d.batch_id} line {d.line}, "
            f"{d.status}, "
            f"{d.attempts} attempt(s), transform {d.transform}",
            f"error [{d.error_class}]: {d.error}",
            f"signature: {d.signature}",
            f"payload:  {d.payload}",
        ]
        if d.payload != d.original_payload:
            out.append(f"original: {d.original_payload}")
        out.append("history:")
        out += [f"  {e.at}  {e.actor:12} {e.action:15} {e.detail}" for e in d.events]
        return "\n".join(out)

    _emit(d.to_json(), args.json, text)
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import edit_payload
    from triage_app.core.errors import TriageError

    if args.payload_file is not None:
        try:
            payload = Path(args.payload_file).read_bytes().decode("utf-8")
        except OSError as exc:
            raise TriageError(f"cannot read {args.payload_file}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise TriageError(f"{args.payload_file} is not UTF-8 text") from None
    else:
        payload = args.payload
    with _open(args) as ws:
        d = edit_payload(ws, args.id, payload, if_version=args.if_version)
    _emit(
        d.to_json(),
        args.json,
        lambda: f"dead letter {d.id} edited (now version {d.version}); the original is kept",
    )
    return 0


def cmd_row_action(args: argparse.Namespace) -> int:
    """park, discard, reopen, reclassify, note: on the ids named (all or none), or on
    every row a filter matches (each row guarded on its own; refusals listed, exit 1)."""
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
    with _open(args) as ws:
        report = dls.apply_change(ws, args.ids, change, where=where)
    verb = change.verb

    def text() -> str:
        lines = [report.summary(verb)]
        lines += [f"  {reason}" for _, reason in report.refused[:20]]
        if len(report.refused) > 20:
            lines.append(f"  … and {len(report.refused) - 20:,} more refused")
        return "\n".join(lines)

    _emit(report.to_json(), args.json, text)
    return 1 if report.refused else 0


# The rows a filter means by default for each action: those the action can change.
_ROW_ACTION_STATUS = {
    "park": "open",
    "discard": "open",
    "reopen": "parked",
    "reclassify": "open",
    "note": "open",
}


def cmd_redrive(args: argparse.Namespace) -> int:
    from triage_app.core.deadletters import DeadLetterFilter
    from triage_app.core.jobs import RedriveJob
    from triage_app.core.vocabulary import Status

    where = None
    if args.all_open:
        where = DeadLetterFilter(status=Status.OPEN)
    elif args.error_class or args.batch:
        where = DeadLetterFilter(
            status=args.status, error_class=args.error_class, batch_id=args.batch
        )
    job = RedriveJob(
        args.transform,
        ids=tuple(args.id) if args.id else None,
        where=where,
        dry_run=args.dry_run,
        max_attempts=args.max_attempts,
    )
    with _open(args) as ws:
        s = job.run(ws)
    data = s.to_json()
    for k in ("transform", "dry_run", "cancelled"):
        data.pop(k)

    def text() -> str:
        verb = "would re-drive" if s.dry_run else "re-drove"
        lines = [
            f"{verb} {s.attempted} with {s.transform}: {s.succeeded} succeeded, "
            f"{s.failed} failed, {s.parked} parked"
            + (f"; {s.taken} taken by another re-drive" if s.taken else "")
        ]
        for r in s.results:
            lines.append(f"  {r.id:>6} line {r.line:>6}  {r.outcome:13} {r.error or ''}")
        return "\n".join(lines)

    _emit(data, args.json, text)
    return 0


def cmd_transforms(args: argparse.Namespace) -> int:
    from triage_app.core.transforms import default_registry

    ts = default_registry().all()
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
    _emit(
        data,
        args.json,
        lambda: "\n".join(
            f"{t.ref:14} -> {t.table} (key {t.key}"
            + (f", newest {t.ordering} wins" if t.ordering else "")
            + f")  {t.description}"
            for t in ts
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

        with _open(args) as ws:
            st = stats_json(ws)

    def text() -> str:
        out = [f"{st['total']} dead letters"]
        out.append("by class:  " + ", ".join(f"{k} {v}" for k, v in st["by_class"].items()))
        out.append("by status: " + ", ".join(f"{k} {v}" for k, v in st["by_status"].items()))
        out.append("attempts:  " + ", ".join(f"{k}x {v}" for k, v in st["attempts"].items()))
        out.append("top signatures:")
        out += [f"  {s['count']:>6}  {s['class']:9} {s['signature']}" for s in st["top_signatures"]]
        return "\n".join(out)

    _emit(st, args.json, text)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import DemoJob
    from triage_app.core.places import WORKSPACE_ENV, user_data_dir

    if args.workspace is None and not os.environ.get(WORKSPACE_ENV):
        args.workspace = str(user_data_dir() / "demo")
    if args.rows is not None and args.rows < 1:
        raise TriageError(f"--rows {args.rows}: a batch needs at least one row")
    if not 0 <= args.bad <= 1:
        raise TriageError(f"--bad {args.bad}: a share between 0 and 1")
    with _open(args) as ws:
        incoming, s = DemoJob(args.rows, args.bad, args.seed).run(ws)
        where = ws.config.folder
    data = {"workspace": str(where), "incoming": str(incoming), **s.to_json()}
    _emit(
        data,
        args.json,
        lambda: (
            f"demo workspace at {where}: {s.rows} rows, {s.loaded} loaded, "
            f"{s.quarantined} quarantined\n"
            f"open it with: triage-app --workspace {where} gui"
        ),
    )
    return 0


def cmd_reconcile(args: argparse.Namespace) -> int:
    from triage_app.core.verify import reconcile

    with _open(args) as ws:
        r = reconcile(ws, args.batch_id)

    def text() -> str:
        head = (
            f"batch {r.batch_id}: {r.rows} rows = {r.loaded} loaded + {r.superseded} "
            f"superseded + {r.quarantined} quarantined over {r.chunks} chunk(s)"
        )
        if r.ok:
            return head + ("" if r.complete else " (not finished: resumable)") + ": consistent"
        out = [head + ": NOT consistent"]
        out += [f"  missing lines {a}-{b}" for a, b in r.missing_lines]
        out += [f"  doubled lines {a}-{b}" for a, b in r.doubled_lines]
        out += [f"  {p}" for p in r.problems]
        return "\n".join(out)

    _emit(r.to_json(), args.json, text)
    return 0 if r.ok else 1


def cmd_verify_idempotent(args: argparse.Namespace) -> int:
    from triage_app.core.jobs import VerifyJob

    p = VerifyJob(Path(args.file), args.transform, args.format).run(None)
    _emit(
        p.to_json(),
        args.json,
        lambda: (
            f"{'idempotent' if p.identical else 'NOT idempotent'}: two runs of {p.rows} rows "
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
    from triage_app.gui.trends.report import write_report

    with _open(args) as ws:
        r = write_report(ws, Path(args.out), since)
    _emit(
        r.to_json(),
        args.json,
        lambda: (
            f"report in {r.out_dir}: {len(r.images)} charts, {r.dead_letters} dead letters"
            + (f", {r.spikes} spike(s)" if r.spikes else "")
            + f"; open {r.html.name} or {r.markdown.name}"
        ),
    )
    return 0


def cmd_gui(args: argparse.Namespace) -> int:
    from triage_app.gui.app import run_gui

    return run_gui(args.workspace, warehouse_url=args.warehouse, dead_letter_url=args.dead_letter)


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
        help="workspace folder (env TRIAGE_WORKSPACE; default: your data folder)",
    )
    p.add_argument(
        "--warehouse", metavar="URL", help="warehouse SQLAlchemy URL (env TRIAGE_WAREHOUSE_URL)"
    )
    p.add_argument(
        "--dead-letter",
        metavar="URL",
        help="dead-letter store SQLAlchemy URL (env TRIAGE_DEAD_LETTER_URL)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(
        name: str, fn: Callable[[argparse.Namespace], int], help_: str
    ) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.add_argument("--json", action="store_true", help="print JSON")
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
    sp.add_argument(
        "--chunk-size",
        type=int,
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
    sp.add_argument("--limit", type=int, default=100, help="at most N rows (default 100)")

    sp = add("show", cmd_show, "show one dead letter with its original and history")
    sp.add_argument("id", type=int, help="the dead letter's id")

    sp = add("edit", cmd_edit, "replace a dead letter's payload (the original is kept)")
    sp.add_argument("id", type=int, help="the dead letter's id")
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--payload", metavar="TEXT", help="the new payload, as JSON")
    g.add_argument("--payload-file", metavar="FILE", help="read the new payload from FILE")
    sp.add_argument(
        "--if-version",
        type=int,
        metavar="N",
        help="only if the dead letter is still at version N (show --json gives it); "
        "refused, naming who changed it, otherwise",
    )

    def row_action(name: str, help_: str) -> argparse.ArgumentParser:
        sp = add(name, cmd_row_action, help_ + "; by ids (all or none) or by a filter")
        sp.add_argument("ids", type=int, nargs="*", metavar="ID", help="these dead letters")
        class_flag = "--where-class" if name == "reclassify" else "--class"
        sp.add_argument(class_flag, dest="error_class", choices=CLASSES, help="only this class")
        sp.add_argument(
            "--status",
            choices=STATUS_FILTERS,
            help=f"only this status (default {_ROW_ACTION_STATUS[name]})",
        )
        sp.add_argument("--batch", metavar="ID", help="only this batch (id or prefix)")
        sp.add_argument("--search", metavar="TEXT", help="literal text in the payload or error")
        return sp

    row_action("park", "set dead letters aside for a person").add_argument(
        "--reason", metavar="TEXT", help="why (kept in the history)"
    )
    row_action("discard", "discard dead letters as junk (kept for the audit)").add_argument(
        "--reason", metavar="TEXT", required=True, help="why they are junk"
    )
    row_action("reopen", "reopen parked dead letters").add_argument(
        "--reason", metavar="TEXT", help="why (kept in the history)"
    )
    row_action("reclassify", "change dead letters' error class").add_argument(
        "--class", dest="new_class", choices=CLASSES, required=True, help="the new class"
    )
    row_action("note", "add a note to dead letters' history").add_argument(
        "--text", required=True, metavar="TEXT", help="the note"
    )

    sp = add("redrive", cmd_redrive, "re-drive dead letters through a transform version")
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--id", type=int, nargs="+", metavar="ID", help="these dead letters")
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
        "--max-attempts",
        type=int,
        default=3,
        help="park a row once it has failed this often (default 3)",
    )

    add("transforms", cmd_transforms, "list the registered transforms")
    add("stats", cmd_stats, "counts by class and status, attempts, failures per day, top errors")
    sp = add(
        "demo",
        cmd_demo,
        "make a demo workspace from the seed's 10-row batch, or from a generated batch of "
        "N orders; prints where",
    )
    sp.add_argument(
        "--rows",
        type=int,
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

    add("gui", cmd_gui, "open the window")
    return p


def main(argv: Sequence[str] | None = None, *, fast_exit: bool = False) -> int:
    """Run one command; its exit code. ``fast_exit`` (the console script) ends the process
    as soon as a command other than the window has done its job and flushed its output."""
    # The engine is imported by the commands, not here: `run` starts hashing its file on a
    # thread first, and the import (SQLAlchemy, a third of a second) overlaps the hash.
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            args.func = cmd_gui
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
        print(f"triage-app: {message}", file=sys.stderr)
        return 2


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

    return refusal_message(exc)
