"""The long jobs, shared by the command line and the window: each is a frozen description of
one piece of work whose ``run(ws, progress)`` does it through the engine's functions.

The CLI runs a job in its own process and thread; the window runs the same job on a worker
thread (``gui/workers.py``) and shows its progress. Whatever a job does after its work, for
both (warming the stats cache after a batch or a re-drive), is done here, once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from triage_app.core.batch import DEFAULT_CHUNK, BatchSummary, check_source, run_batch
from triage_app.core.db import (
    Workspace,
    check_reachable,
    make_engine,
    redact_url,
    user_message,
)
from triage_app.core.fingerprint import OpenedFile
from triage_app.core.locale_format import format_int
from triage_app.core.messages import N_, _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.vocabulary import Status

# The rest of the engine is imported by the jobs that use it: dead letters, trends, the
# demo and verify cost every start some 30 ms, and `triage-app run` of a file loaded
# already needs none of them (a new batch, only what warming the stats cache uses).
if TYPE_CHECKING:
    from triage_app.core.connectors import Connector, DeadLetterSource, ImportSummary
    from triage_app.core.deadletters import (
        ChangePreview,
        ChangeReport,
        ChangeSetReport,
        DeadLetterFilter,
        ExportSummary,
        Fix,
        FixPreview,
        HeldBatchLoad,
        PurgeSummary,
        RedriveGuard,
        RedriveResult,
        RedriveSummary,
        RetryPass,
        RowChange,
        SeenRows,
        Sink,
    )
    from triage_app.core.reprocess import ReprocessSummary
    from triage_app.core.transforms import Registry, Transform
    from triage_app.core.verify import IdempotenceProof


class Job(Protocol):
    """A unit of long work. ``ws`` is None for a job that opens no workspace of the user's."""

    @property
    def title(self) -> str: ...

    def run(self, ws: Workspace | None, progress: Progress) -> Any: ...


def _needs(ws: Workspace | None) -> Workspace:
    if ws is None:
        raise ValueError("this job works on a workspace")
    return ws


@dataclass(frozen=True)
class BatchJob:
    """Run a source file (``-``: standard input) through a transform into the workspace."""

    path: Path
    transform: str
    fmt: str | None = None  # None: detected from the file name
    chunk_size: int = DEFAULT_CHUNK  # a cancel waits at most one chunk

    @property
    def title(self) -> str:
        return _("batch {file} with {transform}").format(
            file=self.path.name, transform=self.transform
        )

    def check(self) -> str:
        """Refuse, in one line and before any workspace is opened, what cannot run: a format
        the transform does not read, a path that is no file (a pipe, a directory), a
        terminal as standard input. Returns the format the file will be read as."""
        return check_source(self.path, self.fmt, self.transform)

    def run(
        self,
        ws: Workspace | None,
        progress: Progress | None = None,
        *,
        opened: OpenedFile | None = None,
    ) -> BatchSummary:
        """``opened``: the file, where the caller opened and hashed it already (the CLI
        does, while the engine imports); the run closes it."""
        ws = _needs(ws)
        summary = run_batch(
            ws,
            self.path,
            self.transform,
            fmt=self.fmt,
            progress=progress or NoProgress(),
            chunk_size=self.chunk_size,
            opened=opened,
        )
        if not summary.already_loaded:
            from triage_app.core.trends import warm_stats_cache

            # The lead's `stats` right after a batch is then answered from the cache.
            warm_stats_cache(ws)
        return summary


@dataclass(frozen=True)
class DemoJob:
    """Fill a workspace folder with the demo: the seed's batch, or ``rows`` generated
    orders."""

    rows: int | None = None
    bad: float = 0.01
    seed: int = 43
    journal: bool = False  # and the demo's held journal batch (all or nothing)

    @property
    def title(self) -> str:
        return _("demo workspace")

    def run(
        self, ws: Workspace | None, progress: Progress | None = None
    ) -> tuple[Path, BatchSummary]:
        from triage_app.core.demo import make_demo
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        incoming, summary = make_demo(
            ws, self.rows, bad=self.bad, seed=self.seed, journal=self.journal
        )
        if not summary.already_loaded:
            warm_stats_cache(ws)
        return incoming, summary


# The closed statuses a purge takes, as a title names them.
_CLOSED_LABELS = {Status.RESOLVED.value: N_("resolved"), Status.DISCARDED.value: N_("discarded")}


def _statuses(statuses: Sequence[str]) -> str:
    """``resolved``, ``resolved and discarded``: the statuses a purge takes, in words."""
    said = [_(_CLOSED_LABELS[s]) if s in _CLOSED_LABELS else s for s in statuses]
    if len(said) == 2:
        return _("{first} and {second}").format(first=said[0], second=said[1])
    return ", ".join(said)


def _default_max_attempts() -> int:
    from triage_app.core.deadletters import DEFAULT_MAX_ATTEMPTS

    return DEFAULT_MAX_ATTEMPTS


# Makes the sink a re-drive to an imported dead letter's source delivers to: (workspace,
# ``to``, the chosen transform or None) -> Sink. The default is connectors.RoutedSink; a test
# gives one that keeps the parcels in memory.
SinkFactory = Callable[["Workspace", str, "Transform | None"], "Sink"]


@dataclass(frozen=True)
class RedriveJob:
    """Re-drive dead letters (by id, or matching a filter) through a transform version, into
    the warehouse; or, with ``to``, back to where imported ones came from (``"original"``)
    or to one ``amqp://host/vhost/exchange/routing-key`` (``connectors.RoutedSink``), where
    the version may be None: the payloads go as they are."""

    transform: str | None
    ids: tuple[int, ...] | None = None
    where: DeadLetterFilter | None = None
    dry_run: bool = False
    max_attempts: int = field(default_factory=_default_max_attempts)
    # How many rows' outcomes the summary keeps (None: all), and who sees each chunk's.
    keep: int | None = 2_000
    on_results: Callable[[Sequence[RedriveResult]], None] | None = field(
        default=None, compare=False
    )
    guard: RedriveGuard | None = None  # canary, pace, stop on failures
    # Exactly the rows a preview showed, each while still at the version it showed.
    seen: SeenRows | None = field(default=None, compare=False)
    to: str | None = None  # None: the warehouse
    # The connector's URL as typed, with its password (None: the keyring's).
    source_url: str | None = field(default=None, repr=False)
    sink: SinkFactory | None = field(default=None, compare=False, repr=False)

    @property
    def title(self) -> str:
        t, preview = self.transform, self.dry_run
        if self.to is None:
            if preview:
                text = _("preview of a re-drive with {transform}")
            else:
                text = _("re-drive with {transform}")
            return text.format(transform=t)
        where = _("where each came from") if self.to == "original" else redact_url(self.to)
        if t and preview:
            text = _("preview of a re-drive to {where} with {transform}")
        elif t:
            text = _("re-drive to {where} with {transform}")
        elif preview:
            text = _("preview of a re-drive to {where} as they are")
        else:
            text = _("re-drive to {where} as they are")
        return text.format(where=where, transform=t)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> RedriveSummary:
        from triage_app.core.deadletters import redrive
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        sink = self._open_sink(ws)
        try:
            summary = redrive(
                ws,
                self.transform,
                ids=list(self.ids) if self.ids else None,
                where=self.where,
                dry_run=self.dry_run,
                max_attempts=self.max_attempts,
                progress=progress or NoProgress(),
                keep=self.keep,
                on_results=self.on_results,
                guard=self.guard,
                seen=self.seen,
                sink=sink,
            )
        finally:
            if sink is not None:
                sink.close()
        if not self.dry_run:
            warm_stats_cache(ws)
        return summary

    def _open_sink(self, ws: Workspace) -> Sink | None:
        """The sink for ``to`` (None: the warehouse). Opened lazily by its kind, so a
        preview connects to nothing; a dry run's summary still names the destination."""
        if self.to is None:
            return None
        from triage_app.core.transforms import default_registry

        transform = default_registry().get(self.transform) if self.transform else None
        if self.sink is not None:
            return self.sink(ws, self.to, transform)
        from triage_app.core.connectors import RoutedSink

        return RoutedSink(ws, self.to, transform, self.source_url)


@dataclass(frozen=True)
class RetryJob:
    """One pass of the retry ladder: the transient dead letters due now, each re-driven
    through the version that failed them (``deadletters.retry_due``). ``now``: the pass's
    clock (None: the real one)."""

    now: dt.datetime | None = None

    @property
    def title(self) -> str:
        return _("retry pass")

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> RetryPass:
        from triage_app.core.deadletters import retry_due
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        summary = retry_due(ws, now=self.now, progress=progress or NoProgress())
        if summary.retried or summary.not_retried:
            warm_stats_cache(ws)
        return summary


@dataclass(frozen=True)
class ImportJob:
    """Import another pipeline's dead letters: from the connector kept as ``kept``, or
    from the queue or table of ``kind``, ``url`` and ``options``, kept first as a connector
    (``keep_connector``: the one of that address and options, or a new one named ``name``;
    the password ``url`` carries goes to the keyring, never to the store). At most
    ``limit`` letters (None: all waiting), a chunk per transaction; Cancel stops after the
    chunk being stored, and what was committed stays."""

    kind: str = ""
    url: str = field(default="", repr=False)  # as typed, with its password ("": keyring)
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = None
    limit: int | None = None
    kept: str | None = None
    # Opens the connector's source: connectors.open_source, or a test's in-memory one.
    source: Callable[[Connector, str | None], DeadLetterSource] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def title(self) -> str:
        what = self.kept or self.name or self.options.get("queue") or self.options.get("table")
        return _("import from {source}").format(source=what or self.kind)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ImportSummary:
        from triage_app.core.connectors import (
            Connector,
            connector_named,
            import_letters,
            keep_connector,
            open_source,
        )
        from triage_app.core.db import split_password
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        opener = self.source or open_source
        if self.kept is not None:
            connector = connector_named(ws, self.kept)
            source = opener(connector, self.url or None)
        else:
            # The source opened before the connector is kept: an address typed wrong (an
            # unreachable host, a refused login) is not kept under the name it would take.
            hidden = split_password(self.url)[0]
            typed = Connector(0, self.name or "", self.kind, hidden, dict(self.options))
            source = opener(typed, self.url)
            try:
                connector = keep_connector(ws, self.kind, self.url, self.options, self.name)
            except BaseException:
                source.close()
                raise
        try:
            summary = import_letters(ws, connector, source, limit=self.limit, progress=progress)
        finally:
            source.close()  # what was taken and not acknowledged goes back to the source
        if summary.imported:
            warm_stats_cache(ws)  # its dead letters count in the stats at once
        return summary


@dataclass(frozen=True)
class HeldBatchJob:
    """Load a held (all-or-nothing) batch whole, once every dead letter of it is fixed."""

    batch_id: str
    transform: str | None = None  # if named, it must be the batch's own
    max_attempts: int = field(default_factory=_default_max_attempts)

    @property
    def title(self) -> str:
        return _("loading batch {batch} whole").format(batch=self.batch_id)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> HeldBatchLoad:
        from triage_app.core.deadletters import load_held_batch
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        done = load_held_batch(
            ws, self.batch_id, transform=self.transform, max_attempts=self.max_attempts
        )
        if not done.already:
            warm_stats_cache(ws)
        return done


@dataclass(frozen=True)
class ReprocessJob:
    """Run the warehouse rows ``produced_by`` last wrote (within batch ``scope``) through
    ``with_``: a dry run (a check) judges each row and writes nothing; applying is a run
    recorded like a batch, which judges every row again when it starts."""

    produced_by: str
    with_: str
    scope: str | None = None
    dry_run: bool = False
    keep_verdicts: int | None = 100_000  # the changed and failing rows the summary keeps
    registry: Registry | None = field(default=None, compare=False)  # None: the default

    @property
    def title(self) -> str:
        if self.dry_run:
            text = _("check of a reprocess {suspect} -> {fixed}")
        else:
            text = _("reprocess {suspect} -> {fixed}")
        return text.format(suspect=self.produced_by, fixed=self.with_)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ReprocessSummary:
        from triage_app.core.errors import TriageError
        from triage_app.core.reprocess import ReprocessSummary, reprocess
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        progress = progress or NoProgress()
        try:
            summary = reprocess(
                ws,
                self.produced_by,
                self.with_,
                scope=self.scope,
                dry_run=self.dry_run,
                progress=progress,
                registry=self.registry,
                keep_verdicts=self.keep_verdicts,
            )
        except TriageError:
            # A check stops with an error when cancelled (nothing was written): a cancelled
            # check is an outcome like a cancelled run, not a failure.
            if self.dry_run and progress.cancelled():
                return ReprocessSummary(
                    self.produced_by, self.with_, self.scope, True, cancelled=True
                )
            raise
        if not self.dry_run and summary.run_id is not None:
            warm_stats_cache(ws)  # the run's dead letters count in the stats
        return summary


@dataclass(frozen=True)
class FixPreviewJob:
    """A fix on the rows named by ``ids`` or matching ``where``, nothing written; with a
    transform, what it would make of each fixed payload."""

    fix: Fix
    ids: tuple[int, ...] | None = None
    where: DeadLetterFilter | None = None
    transform: str | None = None

    @property
    def title(self) -> str:
        return _("preview of a fix")

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> FixPreview:
        from triage_app.core.deadletters import chosen_ids, preview_fix
        from triage_app.core.transforms import default_registry

        ws = _needs(ws)
        transform = default_registry().get(self.transform) if self.transform else None
        ids = chosen_ids(ws, self.ids, self.where)
        return preview_fix(ws, self.fix, ids, transform=transform, progress=progress)


@dataclass(frozen=True)
class FixApplyJob:
    """A previewed fix applied as one change-set, each row held to the version seen."""

    fix: Fix
    versions: dict[int, int] = field(compare=False)

    @property
    def title(self) -> str:
        return _("change-set")

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ChangeSetReport:
        from triage_app.core.deadletters import apply_fix

        return apply_fix(_needs(ws), self.fix, self.versions, progress=progress)


@dataclass(frozen=True)
class ChangePreviewJob:
    """What a change by hand (a discard, ...) would do to the rows named by ``ids`` or
    matching ``where``: how many, which, and which not and why; nothing written."""

    change: RowChange
    ids: tuple[int, ...] | None = None
    where: DeadLetterFilter | None = None

    @property
    def title(self) -> str:
        return _("preview: {change}").format(change=self.change.verb)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ChangePreview:
        from triage_app.core.deadletters import preview_change

        return preview_change(_needs(ws), self.change, ids=self.ids, where=self.where)


@dataclass(frozen=True)
class ChangeApplyJob:
    """A previewed change by hand applied to exactly the rows previewed, each held to the
    version seen: a row changed since is left out and reported, never changed blind."""

    change: RowChange
    versions: dict[int, int] = field(compare=False)

    @property
    def title(self) -> str:
        return self.change.verb

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ChangeReport:
        from triage_app.core.deadletters import apply_change

        return apply_change(
            _needs(ws),
            sorted(self.versions),
            self.change,
            expected=self.versions,
            all_or_nothing=False,
        )


@dataclass(frozen=True)
class RevertJob:
    change_set: int

    @property
    def title(self) -> str:
        return _("revert of change-set {id}").format(id=self.change_set)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ChangeSetReport:
        from triage_app.core.deadletters import revert_change_set

        return revert_change_set(_needs(ws), self.change_set, progress=progress)


@dataclass(frozen=True)
class GroupJob:
    """An error group's owner, tags or note changed (``deadletters.set_group``)."""

    signature: str
    owner: str | None = None
    set_owner: bool = False  # False: the owner stays as it is
    add_tags: tuple[str, ...] = ()
    remove_tags: tuple[str, ...] = ()
    note: str | None = None
    if_version: int | None = None  # the group as the steward saw it; refused if moved on

    @property
    def title(self) -> str:
        return _("error group change")

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> Any:
        from triage_app.core.deadletters import UNCHANGED, set_group

        return set_group(
            _needs(ws),
            self.signature,
            owner=self.owner if self.set_owner else UNCHANGED,
            add_tags=self.add_tags,
            remove_tags=self.remove_tags,
            note=self.note,
            if_version=self.if_version,
        )


@dataclass(frozen=True)
class PurgeJob:
    """Purge closed dead letters (resolved, discarded) closed more than ``days`` ago."""

    days: int
    statuses: tuple[str, ...]
    dry_run: bool = False
    batch: str | None = None  # one batch's rows only (an id or its start)
    # Kept sources forgotten in the same run (the store's keep_sources_days, or these days).
    sources: bool = True
    sources_older_than: int | None = None

    @property
    def title(self) -> str:
        n, batch, preview = self.days, self.batch, self.dry_run
        if batch is None and preview:
            text = ngettext(
                "preview of a purge of {statuses} dead letters closed over {n} day ago",
                "preview of a purge of {statuses} dead letters closed over {n} days ago",
                n,
            )
        elif batch is None:
            text = ngettext(
                "purge of {statuses} dead letters closed over {n} day ago",
                "purge of {statuses} dead letters closed over {n} days ago",
                n,
            )
        elif preview:
            text = ngettext(
                "preview of a purge of {statuses} dead letters of batch {batch} closed over "
                "{n} day ago",
                "preview of a purge of {statuses} dead letters of batch {batch} closed over "
                "{n} days ago",
                n,
            )
        else:
            text = ngettext(
                "purge of {statuses} dead letters of batch {batch} closed over {n} day ago",
                "purge of {statuses} dead letters of batch {batch} closed over {n} days ago",
                n,
            )
        return text.format(statuses=_statuses(self.statuses), batch=batch, n=format_int(n))

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> PurgeSummary:
        from triage_app.core.deadletters import purge
        from triage_app.core.trends import warm_stats_cache

        ws = _needs(ws)
        summary = purge(
            ws,
            self.days,
            self.statuses,
            self.dry_run,
            batch=self.batch,
            progress=progress,
            sources=self.sources,
            sources_older_than=self.sources_older_than,
        )
        if summary.rows and not summary.dry_run:
            warm_stats_cache(ws)
        return summary


@dataclass(frozen=True)
class VerifyJob:
    """Run a file twice into scratch databases and compare the warehouse SHA-256; the
    workspace it is started from is not touched."""

    path: Path
    transform: str
    fmt: str | None = None

    @property
    def title(self) -> str:
        return _("idempotence check of {file} with {transform}").format(
            file=self.path.name, transform=self.transform
        )

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> IdempotenceProof:
        from triage_app.core.verify import verify_idempotent

        return verify_idempotent(self.path, self.transform, fmt=self.fmt, progress=progress)


@dataclass(frozen=True)
class ExportJob:
    """Write the dead letters matching a filter to a CSV or JSONL file."""

    where: DeadLetterFilter
    path: Path
    fmt: str

    @property
    def title(self) -> str:
        return _("export to {file}").format(file=self.path.name)

    def run(self, ws: Workspace | None, progress: Progress | None = None) -> ExportSummary:
        from triage_app.core.deadletters import export_dead_letters

        return export_dead_letters(_needs(ws), self.where, self.path, self.fmt, progress=progress)


@dataclass(frozen=True)
class ConnectionTest:
    """Can both databases be reached? One line each, passwords hidden."""

    warehouse_url: str
    dead_letter_url: str

    @property
    def title(self) -> str:
        return _("connection test")

    def run(self, ws: Workspace | None = None, progress: Progress | None = None) -> str:
        out = []
        for url, role, reachable in (
            (self.warehouse_url, "warehouse", N_("✓ warehouse: reachable")),
            (self.dead_letter_url, "dead-letter store", N_("✓ dead-letter store: reachable")),
        ):
            try:
                engine = make_engine(url, role)
                try:
                    check_reachable(engine, role)
                finally:
                    engine.dispose()
            except Exception as exc:
                out.append(f"✗ {user_message(exc)}")
            else:
                out.append(_(reachable))
        return "\n".join(out)
