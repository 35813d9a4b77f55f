"""The batches: ``run`` a source file through a transform, ``verify-idempotent`` (run it twice
into scratch databases), ``reconcile`` a batch's books, the ``demo`` batch, the
``transforms`` a batch can go through, and the batches' kept ``sources`` (``give-source``
gives a batch its file again)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from triage_app.cli.support import (
    Subparsers,
    command,
    emit,
    for_terminal,
    full_ref,
    open_workspace_of,
    whole,
    workspace_args,
)
from triage_app.core.vocabulary import SOURCE_FORMATS, plural


def add_commands(subparsers: Subparsers) -> None:
    _add_run(subparsers)
    _add_transforms(subparsers)
    _add_demo(subparsers)
    _add_reconcile(subparsers)
    _add_verify_idempotent(subparsers)
    _add_sources(subparsers)
    _add_give_source(subparsers)


def _source_args(sp: argparse.ArgumentParser) -> None:
    """A source file and the transform to run it through (run, verify-idempotent)."""
    sp.add_argument("file", help="the source file (JSONL or CSV)")
    sp.add_argument(
        "--transform",
        required=True,
        metavar="NAME@VERSION",
        help="transform to run, e.g. pesanan@2",
    )
    sp.add_argument("--format", choices=SOURCE_FORMATS, help="default: from the extension")


def _add_run(subparsers: Subparsers) -> None:
    sp = command(subparsers, "run", cmd_run, "run a source file through a transform")
    _source_args(sp)
    sp.epilog = "FILE - reads standard input (with --format); a named pipe is refused."
    sp.add_argument(
        "--chunk-size",
        type=whole(1),
        default=None,
        metavar="N",
        help="lines (CSV: records) per committed chunk (default 20000)",
    )


def cmd_run(args: argparse.Namespace) -> int:
    args.transform = full_ref(args.transform, writes=True)  # "@" in it: no import
    opened = _hash_in_background(args.file)
    from triage_app.core.jobs import BatchJob

    chunk = {"chunk_size": args.chunk_size} if args.chunk_size else {}
    job = BatchJob(Path(args.file), args.transform, args.format, **chunk)
    try:
        job.check()  # a format the transform does not read, a pipe: before any workspace opens
        with open_workspace_of(args, act="run") as ws:
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
    if s.state != "complete" or s.held:  # an all-or-nothing batch held, or discarded whole
        data |= {"state": s.state, "held": s.held}

    # The run's sentence is core's, the one the window shows (it names the source's batch id).
    emit(data, args.json, lambda: for_terminal(s.describe()))
    return 0


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


def _add_transforms(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "transforms",
        cmd_transforms,
        "list the registered transforms",
        opens_workspace=False,
    )


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
            "atomic": t.atomic,
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
                + (", all or nothing" if t.atomic else "")
                + f")  {t.description}"
                for t in ts
            )
            + f"\nplugins folder: {plugins_dir()}"
        ),
    )
    return 0


def _add_demo(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
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
    sp.add_argument(
        "--journal",
        action="store_true",
        help="also a journal posting through the all-or-nothing jurnal@1: a held batch "
        "(one journal does not balance), nothing of it loaded until it is fixed",
    )


def cmd_demo(args: argparse.Namespace) -> int:
    """The demo: into the workspace named, else the default one, which ``list``, ``gui``
    and every other command use when none is named (never into a workspace that holds
    batches of its own)."""
    from triage_app.core.demo import batches_not_the_demos
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import DemoJob

    if not 0 <= args.bad <= 1:
        raise TriageError(f"--bad {args.bad}: a share between 0 and 1")
    with open_workspace_of(args, act="run") as ws:
        where = ws.config.folder
        own = batches_not_the_demos(ws)
        if own:
            more = f" and {len(own) - 3:,} more" if len(own) > 3 else ""
            raise TriageError(
                f"the workspace at {where} holds batches of its own "
                f"({', '.join(map(for_terminal, own[:3]))}{more}): the demo's made-up orders "
                "go into a workspace of their own: triage-app --workspace DIR demo"
            )
        incoming, s = DemoJob(args.rows, args.bad, args.seed, journal=args.journal).run(ws)
    data = {"workspace": str(where), "incoming": str(incoming), **s.to_json()}
    named = workspace_args(args, where)

    def text() -> str:
        head = "the default workspace" if not named else "the workspace"
        counts = (
            f"{plural(s.rows, 'row')} = {s.loaded:,} loaded + {s.superseded:,} superseded + "
            f"{s.quarantined:,} quarantined"
        )
        already = " (already there: nothing to do)" if s.already_loaded else ""
        journal = (
            "\nand a journal posting through jurnal@1, held: all or nothing, it loads once "
            "its dead letters are fixed (triage-app redrive --batch ID)"
            if args.journal
            else ""
        )
        return (
            f"demo in {head} at {where}: {counts}{already}{journal}\n"
            f"see it with: triage-app{named} list, or triage-app{named} gui"
        )

    emit(data, args.json, text)
    return 0


def _add_reconcile(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "reconcile",
        cmd_reconcile,
        "check that every line of a batch was loaded, superseded or quarantined once "
        "(exit 1 if not)",
    )
    sp.add_argument("batch_id", metavar="BATCH_ID", help="the batch's id (or a unique prefix)")


def cmd_reconcile(args: argparse.Namespace) -> int:
    from triage_app.core.batch import source_state
    from triage_app.core.verify import reconcile

    with open_workspace_of(args, create=False) as ws:
        r = reconcile(ws, args.batch_id)
        kept = source_state(ws, [r.batch_id])[r.batch_id]
    data = r.to_json() | {"source_kept": kept}

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
            f"{r.superseded} superseded + {r.quarantined} quarantined{gone}"
            + (f" + {r.held} held" if r.held or r.state == "held" else "")
            + f" over {plural(r.chunks, 'chunk')}"
        )
        if r.ok:
            if r.state in ("held", "discarded"):
                state = (
                    " (held: nothing loaded until every dead letter is fixed)"
                    if r.state == "held"
                    else " (discarded whole: its held rows dropped)"
                )
                return f"{head}{state}: consistent\n{source}"
            said = head + ("" if r.complete else " (not finished: resumable)") + ": consistent"
            return f"{said}\n{source}"
        out = [head + ": NOT consistent"]
        out += [f"  missing lines {a}-{b}" for a, b in r.missing_lines]
        out += [f"  doubled lines {a}-{b}" for a, b in r.doubled_lines]
        out += [f"  {for_terminal(p)}" for p in r.problems]
        out.append(source)
        return "\n".join(out)

    source = (
        "source kept"
        if kept
        else f"source gone: give it again with triage-app give-source {r.batch_id} FILE"
    )
    emit(data, args.json, text)
    return 0 if r.ok else 1


def _add_verify_idempotent(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "verify-idempotent",
        cmd_verify_idempotent,
        "run a file twice into scratch databases and compare the warehouse SHA-256 "
        "(exit 1 if they differ); your workspace is not touched",
        opens_workspace=False,
    )
    _source_args(sp)


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


def _add_sources(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "sources",
        cmd_sources,
        "list the batches' kept sources (by SHA-256, compressed): format, size, stored "
        "size, when kept, the batches that read each",
    )


def cmd_sources(args: argparse.Namespace) -> int:
    from triage_app.core.batch import (
        describe_retention,
        human_size,
        list_kept,
        sources_retention,
    )

    with open_workspace_of(args, create=False) as ws:
        kept = list_kept(ws)
        days = sources_retention(ws)

    def text() -> str:
        lines = [
            f"{plural(len(kept), 'kept source')} "
            f"({human_size(sum(k.stored_size for k in kept))} stored); "
            f"{describe_retention(days)} (purge forgets older ones)"
        ]
        for k in kept:
            used = ", ".join(k.batches[:3]) + (
                f" and {len(k.batches) - 3:,} more" if len(k.batches) > 3 else ""
            )
            gone = "" if k.present else "  FILE GONE"
            lines.append(
                f"  {k.sha256[:12]}  {k.format:5}  {human_size(k.size):>10}  "
                f"{human_size(k.stored_size):>10}  {k.kept_at}  "
                f"{for_terminal(used) or 'no batch'}{gone}"
            )
        return "\n".join(lines)

    emit([k.to_json() for k in kept], args.json, text)
    return 0


def _add_give_source(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "give-source",
        cmd_give_source,
        "give a batch whose source is gone its file again: kept only if its SHA-256 is the batch's",
    )
    sp.add_argument("batch_id", metavar="BATCH", help="the batch's id (or a unique prefix)")
    sp.add_argument("file", metavar="FILE", help="the batch's source file")


def cmd_give_source(args: argparse.Namespace) -> int:
    from triage_app.core.batch import give_source

    with open_workspace_of(args, create=False, act="run") as ws:
        kept = give_source(ws, args.batch_id, args.file)
    emit(
        {"batch_id": args.batch_id, "kept": kept},
        args.json,
        lambda: (
            f"kept the source of batch {for_terminal(args.batch_id)}"
            if kept
            else f"the source of batch {for_terminal(args.batch_id)} was kept already: "
            "the file is the same"
        ),
    )
    return 0
