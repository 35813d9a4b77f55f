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
    when,
    whole,
    workspace_args,
)
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.vocabulary import SOURCE_FORMATS


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
    sp.add_argument("file", help=_("the source file (JSONL or CSV)"))
    sp.add_argument(
        "--transform",
        required=True,
        metavar="NAME@VERSION",
        help=_("transform to run, e.g. pesanan@2"),
    )
    sp.add_argument("--format", choices=SOURCE_FORMATS, help=_("default: from the extension"))


def _add_run(subparsers: Subparsers) -> None:
    sp = command(subparsers, "run", cmd_run, _("run a source file through a transform"))
    _source_args(sp)
    sp.epilog = _("FILE - reads standard input (with --format); a named pipe is refused.")
    sp.add_argument(
        "--chunk-size",
        type=whole(1),
        default=None,
        metavar="N",
        help=_("lines (CSV: records) per committed chunk (default 20000)"),
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
        _("list the registered transforms"),
        opens_workspace=False,
    )


def cmd_transforms(args: argparse.Namespace) -> int:
    from triage_app.core.transforms import default_registry, plugins_dir

    registry = default_registry()
    ts = registry.all()
    for problem in registry.problems:  # on stderr, so that --json stays a list of transforms
        print(_("warning: {problem}").format(problem=for_terminal(problem)), file=sys.stderr)
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

    def text() -> str:
        lines = [f"{t.ref:14} -> {t.table} ({_how_it_loads(t)})  {_(t.description)}" for t in ts]
        lines.append(_("plugins folder: {folder}").format(folder=plugins_dir()))
        return "\n".join(lines)

    emit(data, args.json, text)
    return 0


def _how_it_loads(t: Any) -> str:
    """A transform's key, which row wins when two share it, and whether its batches load
    all or nothing."""
    if t.ordering and t.atomic:
        said = _("key {key}, newest {ordering} wins, all or nothing")
    elif t.ordering:
        said = _("key {key}, newest {ordering} wins")
    elif t.atomic:
        said = _("key {key}, all or nothing")
    else:
        said = _("key {key}")
    return said.format(key=t.key, ordering=t.ordering)


def _add_demo(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "demo",
        cmd_demo,
        _(
            "fill a workspace (the default one unless named: the one list and gui open) "
            "from the seed's 10-row batch, or from a generated batch of N orders; prints where"
        ),
    )
    sp.add_argument(
        "--rows",
        type=whole(1, 100_000_000),  # a bound, so that a typo cannot fill the disk
        metavar="N",
        help=_("generate a batch of N orders in the seed's shape instead of the seed's 10 rows"),
    )
    sp.add_argument(
        "--bad",
        type=float,
        default=0.01,
        metavar="SHARE",
        help=_("with --rows: the share of defective orders (default 0.01)"),
    )
    sp.add_argument(
        "--seed", type=int, default=43, help=_("with --rows: the generator's seed (default 43)")
    )
    sp.add_argument(
        "--journal",
        action="store_true",
        help=_(
            "also a journal posting through the all-or-nothing jurnal@1: a held batch "
            "(one journal does not balance), nothing of it loaded until it is fixed"
        ),
    )


def cmd_demo(args: argparse.Namespace) -> int:
    """The demo: into the workspace named, else the default one, which ``list``, ``gui``
    and every other command use when none is named (never into a workspace that holds
    batches of its own)."""
    from triage_app.core.demo import batches_not_the_demos
    from triage_app.core.errors import TriageError
    from triage_app.core.jobs import DemoJob

    if not 0 <= args.bad <= 1:
        raise TriageError(_("--bad {share}: a share between 0 and 1").format(share=args.bad))
    with open_workspace_of(args, act="run") as ws:
        where = ws.config.folder
        own = batches_not_the_demos(ws)
        if own:
            named = ", ".join(map(for_terminal, own[:3]))
            if len(own) > 3:
                named = _("{batches} and {n} more").format(
                    batches=named, n=format_int(len(own) - 3)
                )
            raise TriageError(
                _(
                    "the workspace at {where} holds batches of its own ({batches}): the "
                    "demo's made-up orders go into a workspace of their own: "
                    "triage-app --workspace DIR demo"
                ).format(where=where, batches=named)
            )
        incoming, s = DemoJob(args.rows, args.bad, args.seed, journal=args.journal).run(ws)
    data = {"workspace": str(where), "incoming": str(incoming), **s.to_json()}
    named = workspace_args(args, where)

    def text() -> str:
        counts = books(s.rows, s.loaded, s.superseded, s.quarantined)
        if s.already_loaded:
            counts = _("{books} (already there: nothing to do)").format(books=counts)
        if named:
            head = _("demo in the workspace at {where}: {books}")
        else:
            head = _("demo in the default workspace at {where}: {books}")
        lines = [head.format(where=where, books=counts)]
        if args.journal:
            lines.append(
                _(
                    "and a journal posting through jurnal@1, held: all or nothing, it loads "
                    "once its dead letters are fixed (triage-app redrive --batch ID)"
                )
            )
        lines.append(
            _("see it with: triage-app{named} list, or triage-app{named} gui").format(named=named)
        )
        return "\n".join(lines)

    emit(data, args.json, text)
    return 0


def _add_reconcile(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "reconcile",
        cmd_reconcile,
        _(
            "check that every line of a batch was loaded, superseded or quarantined once "
            "(exit 1 if not)"
        ),
    )
    sp.add_argument("batch_id", metavar="BATCH_ID", help=_("the batch's id (or a unique prefix)"))


def cmd_reconcile(args: argparse.Namespace) -> int:
    from triage_app.core.batch import source_state
    from triage_app.core.verify import reconcile

    with open_workspace_of(args, create=False) as ws:
        r = reconcile(ws, args.batch_id)
        kept = source_state(ws, [r.batch_id])[r.batch_id]
    data = r.to_json() | {"source_kept": kept}

    def text() -> str:
        said = books(r.rows, r.loaded, r.superseded, r.quarantined)
        purged = r.purged_resolved + r.purged_discarded
        if purged:
            said = _(
                "{books} ({purged} since purged: {resolved} resolved, {discarded} discarded)"
            ).format(
                books=said,
                purged=format_int(purged),
                resolved=format_int(r.purged_resolved),
                discarded=format_int(r.purged_discarded),
            )
        if r.held or r.state == "held":
            said = _("{books} + {held} held").format(books=said, held=format_int(r.held))
        said = ngettext("{books} over {n} chunk", "{books} over {n} chunks", r.chunks).format(
            books=said, n=format_int(r.chunks)
        )
        head = _("batch {batch}: {books}").format(batch=r.batch_id, books=said)
        if r.ok:
            if r.state == "held":
                verdict = _("{head} (held: nothing loaded until every dead letter is fixed)")
            elif r.state == "discarded":
                verdict = _("{head} (discarded whole: its held rows dropped)")
            elif not r.complete:
                verdict = _("{head} (not finished: resumable)")
            else:
                verdict = "{head}"
            return "\n".join(
                [_("{said}: consistent").format(said=verdict.format(head=head)), source]
            )
        out = [_("{said}: NOT consistent").format(said=head)]
        out += [
            _("  missing lines {first}-{last}").format(first=a, last=b) for a, b in r.missing_lines
        ]
        out += [
            _("  doubled lines {first}-{last}").format(first=a, last=b) for a, b in r.doubled_lines
        ]
        out += [f"  {for_terminal(p)}" for p in r.problems]
        out.append(source)
        return "\n".join(out)

    source = (
        _("source kept")
        if kept
        else _("source gone: give it again with triage-app give-source {batch} FILE").format(
            batch=r.batch_id
        )
    )
    emit(data, args.json, text)
    return 0 if r.ok else 1


def _add_verify_idempotent(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "verify-idempotent",
        cmd_verify_idempotent,
        _(
            "run a file twice into scratch databases and compare the warehouse SHA-256 "
            "(exit 1 if they differ); your workspace is not touched"
        ),
        opens_workspace=False,
    )
    _source_args(sp)


def cmd_verify_idempotent(args: argparse.Namespace) -> int:
    from triage_app.core.jobs import VerifyJob

    args.transform = full_ref(args.transform)
    p = VerifyJob(Path(args.file), args.transform, args.format).run(None)

    def text() -> str:
        if p.identical:
            said = ngettext(
                "idempotent: two runs of {n} row through {transform}, warehouse SHA-256 "
                "{first}… and {second}…",
                "idempotent: two runs of {n} rows through {transform}, warehouse SHA-256 "
                "{first}… and {second}…",
                p.rows,
            )
        else:
            said = ngettext(
                "NOT idempotent: two runs of {n} row through {transform}, warehouse SHA-256 "
                "{first}… and {second}…",
                "NOT idempotent: two runs of {n} rows through {transform}, warehouse SHA-256 "
                "{first}… and {second}…",
                p.rows,
            )
        said = said.format(
            n=format_int(p.rows),
            transform=p.transform,
            first=p.first_sha256[:16],
            second=p.second_sha256[:16],
        )
        if not p.same_dead_letters:
            said = _("{said}; the dead letters differ").format(said=said)
        return said

    emit(p.to_json(), args.json, text)
    return 0 if p.identical else 1


def _add_sources(subparsers: Subparsers) -> None:
    command(
        subparsers,
        "sources",
        cmd_sources,
        _(
            "list the batches' kept sources (by SHA-256, compressed): format, size, stored "
            "size, when kept, the batches that read each"
        ),
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
            ngettext(
                "{n} kept source ({stored} stored); {retention} (purge forgets older ones)",
                "{n} kept sources ({stored} stored); {retention} (purge forgets older ones)",
                len(kept),
            ).format(
                n=format_int(len(kept)),
                stored=human_size(sum(k.stored_size for k in kept)),
                retention=describe_retention(days),
            )
        ]
        for k in kept:
            used = for_terminal(", ".join(k.batches[:3]))
            if len(k.batches) > 3:
                used = _("{batches} and {n} more").format(
                    batches=used, n=format_int(len(k.batches) - 3)
                )
            gone = "  " + _("FILE GONE") if not k.present else ""
            lines.append(
                f"  {k.sha256[:12]}  {k.format:5}  {human_size(k.size):>10}  "
                f"{human_size(k.stored_size):>10}  {when(k.kept_at)}  "
                f"{used or _('no batch')}{gone}"
            )
        return "\n".join(lines)

    emit([k.to_json() for k in kept], args.json, text)
    return 0


def _add_give_source(subparsers: Subparsers) -> None:
    sp = command(
        subparsers,
        "give-source",
        cmd_give_source,
        _(
            "give a batch whose source is gone its file again: kept only if its SHA-256 is "
            "the batch's"
        ),
    )
    sp.add_argument("batch_id", metavar="BATCH", help=_("the batch's id (or a unique prefix)"))
    sp.add_argument("file", metavar="FILE", help=_("the batch's source file"))


def cmd_give_source(args: argparse.Namespace) -> int:
    from triage_app.core.batch import give_source

    with open_workspace_of(args, create=False, act="run") as ws:
        kept = give_source(ws, args.batch_id, args.file)
    emit(
        {"batch_id": args.batch_id, "kept": kept},
        args.json,
        lambda: (
            _("kept the source of batch {batch}")
            if kept
            else _("the source of batch {batch} was kept already: the file is the same")
        ).format(batch=for_terminal(args.batch_id)),
    )
    return 0


def books(rows: int, loaded: int, superseded: int, quarantined: int) -> str:
    """A batch's books in one line: ``10 rows = 6 loaded + 0 superseded + 4 quarantined``."""
    return ngettext(
        "{n} row = {loaded} loaded + {superseded} superseded + {quarantined} quarantined",
        "{n} rows = {loaded} loaded + {superseded} superseded + {quarantined} quarantined",
        rows,
    ).format(
        n=format_int(rows),
        loaded=format_int(loaded),
        superseded=format_int(superseded),
        quarantined=format_int(quarantined),
    )
