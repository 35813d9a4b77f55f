"""Reprocess: run every row a suspect version wrote through another version.

A dry run only judges (``verdicts.py``). Applying is a run recorded like a batch (kind
``reprocess``): its input is the records of the rows that change or now fail, written as
a JSONL file and kept like any batch's source (``batch/kept_sources.py``), so the run's
lines, ledger and checkpoint are a batch's and a killed run resumes from its checkpoint.

Each chunk commits as a batch's does, the warehouse first, then the store:

- a changed row is updated only while it is still the row the suspect version wrote (the
  same batch, line and version): a row a later batch or re-drive wrote since is left
  alone and counted ``superseded``, as newest-wins would leave it. A replayed chunk finds
  its own rows (this run, this line) and counts them again, so nothing is doubled;
- a row the fixed version refuses becomes a dead letter of the run, with the record as its
  payload, and its warehouse row is left as it was until that dead letter is re-driven.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Row, func, insert, select, update

from triage_app.core.batch import (
    Failure,
    SourceGone,
    batch_advance,
    batch_begun,
    batch_records,
    describe_classes,
    hold_batch,
    keep_source,
    ledger_row,
    quarantine_failures,
)
from triage_app.core.bilingual import Said
from triage_app.core.clock import utcnow
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    Workspace,
    actor_for,
    batch_named,
    notify_change,
    target_table,
    version_literal,
)
from triage_app.core.errors import TriageError
from triage_app.core.locale_format import format_int, format_number
from triage_app.core.messages import _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.reprocess.suspects import (
    Suspect,
    check_pair,
    count_suspects,
    envelope,
    suspects,
)
from triage_app.core.reprocess.verdicts import Judge, Verdict, VerdictKind
from triage_app.core.retry import RetryPolicy, with_retry
from triage_app.core.transforms import Registry, Transform, default_registry
from triage_app.core.vocabulary import AuditAction, BatchKind, BatchState, ErrorClass

_BATCHES = Batch.__table__
CHUNK = 2_000


@dataclass
class ReprocessSummary:
    """What a reprocess found, and (applied) what it did."""

    produced_by: str
    with_: str
    scope: str | None
    dry_run: bool
    checked: int = 0  # rows the suspect version last wrote, judged
    unchanged: int = 0
    changed: int = 0
    failing: int = 0
    no_input: int = 0  # rows whose record could not be read
    # Rows an earlier reprocess run of the same version quarantined: their dead letters are
    # there already (re-driving one rewrites the row), so they are not judged again.
    quarantined_before: int = 0
    applied: int = 0  # changed rows updated
    left: int = 0  # changed rows a later batch or re-drive wrote since: left alone
    quarantined: int = 0  # failing rows now dead letters of the run
    by_class: dict[str, int] = field(default_factory=dict)
    run_id: str | None = None
    resumed: bool = False
    already: bool = False
    cancelled: bool = False
    seconds: float = 0.0
    # Changed, failing and no input, in (batch, line) order; the unchanged too if asked.
    verdicts: list[Verdict] = field(default_factory=list)
    # batch -> why it has no input (in the user's language where shown, in English in JSON)
    missing: dict[str, Said] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {
            k: getattr(self, k)
            for k in (
                "produced_by",
                "scope",
                "dry_run",
                "checked",
                "unchanged",
                "changed",
                "failing",
                "no_input",
                "quarantined_before",
                "applied",
                "left",
                "quarantined",
                "by_class",
                "run_id",
                "resumed",
                "already",
                "cancelled",
                "seconds",
            )
        }
        out["missing"] = {batch: why.english for batch, why in self.missing.items()}
        out["with"] = self.with_
        out["rows"] = [v.to_json() for v in self.verdicts]
        return out

    def describe(self) -> str:
        """The run in a few sentences a person reads."""
        if self.resumed and not self.dry_run:
            said = _("Resumed reprocess run {run} ({suspect} -> {fixer}).")
            text = said.format(run=self.run_id, suspect=self.produced_by, fixer=self.with_)
        else:
            text = self._judged()
        for batch, why in sorted(self.missing.items()):
            text += " " + _("Batch {batch}: {why}.").format(batch=batch, why=why)
        if self.dry_run:
            return text + " " + _("Nothing was written.")
        if self.already:
            said = _("Run {run} had applied this already: nothing to do.")
            return text + " " + said.format(run=self.run_id)
        if self.run_id is None:
            return text + " " + _("Nothing to apply.")
        classes = describe_classes(self.by_class)
        if classes:
            said = _(
                "Run {run}: {applied} updated, {left} left alone (written since by a later batch "
                "or re-drive), {quarantined} quarantined ({classes}) in {seconds} s."
            )
        else:
            said = _(
                "Run {run}: {applied} updated, {left} left alone (written since by a later batch "
                "or re-drive), {quarantined} quarantined in {seconds} s."
            )
        text += " " + said.format(
            run=self.run_id,
            applied=format_int(self.applied),
            left=format_int(self.left),
            quarantined=format_int(self.quarantined),
            classes=classes,
            seconds=format_number(self.seconds, 2),
        )
        if self.cancelled:
            text += " " + _("Cancelled: run the same reprocess again to resume where it stopped.")
        return text

    def _judged(self) -> str:
        """What the judging found: the rows, and what each came to."""
        n = format_int(self.checked)
        if self.scope:
            rows = ngettext(
                "{n} row last written by {suspect} in batch {batch}",
                "{n} rows last written by {suspect} in batch {batch}",
                self.checked,
            )
        else:
            rows = ngettext(
                "{n} row last written by {suspect}",
                "{n} rows last written by {suspect}",
                self.checked,
            )
        found = [
            _("{n} unchanged").format(n=format_int(self.unchanged)),
            _("{n} changed").format(n=format_int(self.changed)),
            _("{n} now failing").format(n=format_int(self.failing)),
        ]
        if self.no_input:
            found.append(_("{n} with no input").format(n=format_int(self.no_input)))
        if self.quarantined_before:
            earlier = _("{n} quarantined by an earlier reprocess (their dead letters wait)")
            found.append(earlier.format(n=format_int(self.quarantined_before)))
        said = _("{rows}, run through {fixer}: {found}.")
        return said.format(
            rows=rows.format(n=n, suspect=self.produced_by, batch=self.scope),
            fixer=self.with_,
            found=", ".join(found),
        )


def reprocess(
    ws: Workspace,
    produced_by: str,
    with_: str,
    *,
    scope: str | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    registry: Registry | None = None,
    actor: str | None = None,
    chunk_size: int = CHUNK,
    retry: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    keep_verdicts: int | None = None,
    keep_unchanged: bool = False,
) -> ReprocessSummary:
    """Judge every row ``produced_by`` last wrote with ``with_``; unless ``dry_run``, apply
    the verdicts as a run (see the module). ``keep_verdicts``: how many verdicts the summary
    keeps (None: all); ``keep_unchanged``: the unchanged rows' too (by key, batch and line),
    for a report of every row, where otherwise they are only counted."""
    started = time.perf_counter()
    reg = registry or default_registry()
    suspect, fixer = reg.get(produced_by), reg.get(with_)
    check_pair(suspect, fixer)
    if chunk_size < 1:
        raise TriageError(_("the chunk size must be at least 1"))
    progress = progress or NoProgress()
    retry = retry or RetryPolicy()
    summary = ReprocessSummary(suspect.ref, fixer.ref, scope, dry_run)
    if scope is not None:
        scope = _batch_named(ws, scope)
        summary.scope = scope
    if dry_run:
        _judge_all(
            ws, suspect, fixer, scope, summary, None, progress, keep_verdicts, keep_unchanged
        )
        summary.seconds = round(time.perf_counter() - started, 3)
        return summary
    actor = actor or actor_for(ws.store)
    with hold_batch(ws.store, _lock_name(suspect)):
        run = _unfinished_run(ws, suspect, fixer, scope)
        if run is None:
            run = _plan_run(
                ws, suspect, fixer, scope, summary, actor, progress, keep_verdicts, keep_unchanged
            )
            if run is None or run.state == BatchState.COMPLETE:
                summary.already = run is not None
                summary.run_id = run.batch_id if run is not None else None
                summary.seconds = round(time.perf_counter() - started, 3)
                return summary
            crash_point("reprocess-after-plan")
        else:
            summary.resumed = True
        summary.run_id = run.batch_id
        applier = _Applier(ws, suspect, fixer, run.batch_id, retry, sleep)
        # The run's input is one line per changed or failing row (a resumed run's count is
        # not known before its input is read: its progress counts lines only).
        lines = 0 if summary.resumed else summary.changed + summary.failing
        summary.cancelled = applier.apply(run.lines_done, chunk_size, progress, lines)
        final = _finish(
            ws, run.batch_id, not summary.cancelled, time.perf_counter() - started, actor
        )
    summary.applied, summary.left = final.loaded, final.superseded
    summary.quarantined = final.quarantined
    counts = zip(ErrorClass, (final.q_data, final.q_code, final.q_transient), strict=True)
    summary.by_class = {c.value: n for c, n in counts if n}
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary


def _batch_named(ws: Workspace, given: str) -> str:
    with ws.store.connect() as conn:
        return str(batch_named(conn, given).batch_id)


def _lock_name(suspect: Transform) -> str:
    """One reprocess of a suspect version at a time, whatever its fixed version and scope
    (the batch loading lock's name): two at once could each quarantine the same refused
    record, since each learns what the other quarantined only when it plans."""
    return hashlib.sha256(f"reprocess|{suspect.ref}".encode()).hexdigest()[:16]


def _judge_all(
    ws: Workspace,
    suspect: Transform,
    fixer: Transform,
    scope: str | None,
    summary: ReprocessSummary,
    write: Callable[[Suspect, Verdict], None] | None,
    progress: Progress,
    keep_verdicts: int | None,
    keep_unchanged: bool = False,
) -> None:
    total = count_suspects(ws, suspect, scope)
    before = _quarantined_before(ws, suspect)
    judge = Judge(fixer).verdict
    for s in suspects(ws, suspect, scope):
        summary.checked += 1
        if (s.batch_id, s.line) in before:
            summary.quarantined_before += 1
            continue
        v = judge(s)
        kind = v.kind
        if kind is VerdictKind.UNCHANGED:
            summary.unchanged += 1
            if keep_unchanged and (keep_verdicts is None or len(summary.verdicts) < keep_verdicts):
                # Its name only: the record and the values are not kept for a million rows.
                light = Suspect(s.key, (), s.batch_id, s.line, None, s.kind)
                summary.verdicts.append(Verdict(VerdictKind.UNCHANGED, light))
        else:
            if kind is VerdictKind.CHANGED:
                summary.changed += 1
            elif kind is VerdictKind.FAILING:
                summary.failing += 1
            else:
                summary.no_input += 1
                summary.missing.setdefault(
                    v.suspect.batch_id, v.suspect.why_missing or Said("", "")
                )
            if keep_verdicts is None or len(summary.verdicts) < keep_verdicts:
                summary.verdicts.append(v)
            if write is not None and kind is not VerdictKind.NO_INPUT:
                write(v.suspect, v)
        if summary.checked % CHUNK == 0:
            progress.update(summary.checked, total, summary.checked)
            if progress.cancelled():
                raise TriageError(_("cancelled before anything was written"))
    progress.update(summary.checked, max(total, summary.checked), summary.checked)


def _quarantined_before(ws: Workspace, suspect: Transform) -> set[tuple[str, int]]:
    """The rows (batch, line) whose records earlier reprocess runs of ``suspect``
    quarantined: each run's dead letters, traced through its kept input."""
    with ws.store.connect() as conn:
        runs = list(
            conn.execute(
                select(Batch.batch_id).where(
                    Batch.kind == BatchKind.REPROCESS.value, Batch.produced_by == suspect.ref
                )
            ).scalars()
        )
        lines = {
            run: set(
                conn.execute(select(DeadLetter.line).where(DeadLetter.batch_id == run)).scalars()
            )
            for run in runs
        }
    out: set[tuple[str, int]] = set()
    for run, wanted in lines.items():
        if not wanted:
            continue
        try:
            for _line, raw in batch_records(ws, run, wanted):
                e = orjson.loads(raw)
                out.add((e["batch"], int(e["line"])))
        except SourceGone:
            continue  # forgotten by retention: those rows are judged again
    return out


def _unfinished_run(
    ws: Workspace, suspect: Transform, fixer: Transform, scope: str | None
) -> Row[Any] | None:
    b = _BATCHES.c
    stmt = select(_BATCHES).where(
        b.kind == BatchKind.REPROCESS.value,
        b.produced_by == suspect.ref,
        b.transform == fixer.ref,
        b.state == BatchState.RUNNING.value,
        b.scope.is_(None) if scope is None else b.scope == scope,
    )
    with ws.store.connect() as conn:
        return conn.execute(stmt.order_by(b.started_at.desc()).limit(1)).one_or_none()


def _plan_run(
    ws: Workspace,
    suspect: Transform,
    fixer: Transform,
    scope: str | None,
    summary: ReprocessSummary,
    actor: str,
    progress: Progress,
    keep_verdicts: int | None,
    keep_unchanged: bool,
) -> Row[Any] | None:
    """Judge every row, write the run's input (the rows to change or quarantine), keep it
    and record the run; None when there is nothing to apply."""
    # Written beside the store (a team store's desk has no folder: the temp folder), then
    # kept like any source and removed.
    fd, name = tempfile.mkstemp(prefix=".reprocess-", suffix=".jsonl", dir=ws.config.folder)
    path = Path(name)
    try:
        digest = hashlib.sha256()
        lines = 0
        with os.fdopen(fd, "wb") as out:

            def write(s: Suspect, v: Verdict) -> None:
                nonlocal lines
                assert s.raw is not None
                data = envelope(s.key, s.batch_id, s.line, s.raw, s.kind) + b"\n"
                digest.update(data)
                out.write(data)
                lines += 1

            _judge_all(
                ws,
                suspect,
                fixer,
                scope,
                summary,
                write,
                progress,
                keep_verdicts,
                keep_unchanged,
            )
        if lines == 0:
            return None
        sha = digest.hexdigest()
        run_id = hashlib.sha256(f"reprocess|{sha}|{suspect.ref}|{fixer.ref}".encode()).hexdigest()[
            :16
        ]
        with ws.store.connect() as conn:
            stored = conn.execute(
                select(_BATCHES).where(_BATCHES.c.batch_id == run_id)
            ).one_or_none()
        if stored is not None:
            return stored
        keep_source(ws, sha, "jsonl", path)
        named = f"reprocess {suspect.ref} -> {fixer.ref}" + (f" (batch {scope})" if scope else "")
        with ws.store.begin() as conn:
            conn.execute(
                batch_begun(
                    run_id,
                    source_name=named,
                    source_sha256=sha,
                    transform=fixer.ref,
                    fmt="jsonl",
                    actor=actor,
                    kind=BatchKind.REPROCESS.value,
                    produced_by=suspect.ref,
                    scope=scope,
                )
            )
            return conn.execute(select(_BATCHES).where(_BATCHES.c.batch_id == run_id)).one()
    finally:
        path.unlink(missing_ok=True)


class _Applier:
    """Applies a recorded run's input, chunk by chunk, from its checkpoint."""

    def __init__(
        self,
        ws: Workspace,
        suspect: Transform,
        fixer: Transform,
        run_id: str,
        retry: RetryPolicy,
        sleep: Callable[[float], None],
    ) -> None:
        self.ws, self.suspect, self.fixer, self.run_id = ws, suspect, fixer, run_id
        self.retry, self.sleep = retry, sleep
        self.table = target_table(fixer)
        self.actor = ""
        self.judge = Judge(fixer)
        self.update = _guarded_update(ws.warehouse.dialect.name, suspect, fixer, run_id)

    def apply(self, done: int, chunk_size: int, progress: Progress, lines: int = 0) -> bool:
        """Apply every line after ``done`` of the run's ``lines`` (0: not known); True if
        cancelled."""
        with self.ws.store.connect() as conn:
            stored = conn.execute(
                select(_BATCHES.c.actor, _BATCHES.c.source_sha256).where(
                    _BATCHES.c.batch_id == self.run_id
                )
            ).one()
        self.actor = stored.actor or ""
        total = done
        chunk: list[tuple[int, bytes]] = []
        for line, raw in batch_records(self.ws, self.run_id):
            total = max(total, line)
            if line <= done:
                continue
            chunk.append((line, raw))
            if len(chunk) == chunk_size:
                self._commit(chunk)
                progress.update(line, max(lines, line), line)
                chunk = []
                if progress.cancelled():
                    return True
        if chunk:
            self._commit(chunk)
            progress.update(chunk[-1][0], max(lines, chunk[-1][0]), chunk[-1][0])
        return False

    def _commit(self, chunk: list[tuple[int, bytes]]) -> None:
        params: list[tuple[Any, ...]] = []
        failures: dict[str, list[Failure]] = {}
        for line, raw in chunk:
            e = orjson.loads(raw)
            record = e["record"].encode()
            s = Suspect(e["key"], (), e["batch"], int(e["line"]), record, e["kind"])
            row, failure = self.judge.outcome(s)
            if row is None:
                assert failure is not None
                failures.setdefault(e["kind"], []).append(failure._replace(line=line))
                continue
            others = [v for i, v in enumerate(row) if i != self.judge.key_at]
            params.append((*others, line, e["key"], e["batch"], int(e["line"]), line))
        first, last = chunk[0][0], chunk[-1][0]
        applied = with_retry(lambda: self._write(params, first, last), self.retry, sleep=self.sleep)
        crash_point("reprocess-after-warehouse")
        quarantined = sum(len(f) for f in failures.values())
        left = len(params) - applied
        by_class = Counter(f.error_class for fs in failures.values() for f in fs)
        now = utcnow()

        def _store() -> None:
            with self.ws.store.begin() as conn:
                notify_change(conn)
                for kind, fs in failures.items():
                    quarantine_failures(
                        conn,
                        batch_id=self.run_id,
                        transform_ref=self.fixer.ref,
                        payload_kind=kind,
                        failures=fs,
                        actor=self.actor,
                        now=now,
                        personal=self.fixer.personal_fields,
                    )
                conn.execute(
                    ledger_row(),
                    {
                        "batch_id": self.run_id,
                        "first_line": first,
                        "last_line": last,
                        "records": len(chunk),
                        "loaded": applied,
                        "superseded": left,
                        "quarantined": quarantined,
                        "committed_at": now,
                    },
                )
                conn.execute(
                    batch_advance(),
                    {
                        "id_": self.run_id,
                        "lines_done_": last,
                        "rows_": len(chunk),
                        "loaded_": applied,
                        "superseded_": left,
                        "quarantined_": quarantined,
                        "q_data_": by_class[ErrorClass.DATA],
                        "q_code_": by_class[ErrorClass.CODE],
                        "q_transient_": by_class[ErrorClass.TRANSIENT],
                        "held_": 0,
                    },
                )

        with_retry(_store, self.retry, sleep=self.sleep)
        crash_point("reprocess-after-chunk")

    def _write(self, params: list[tuple[Any, ...]], first: int, last: int) -> int:
        """The chunk's guarded updates, and how many rows are now this run's."""
        t = self.table.c
        with self.ws.warehouse.begin() as conn:
            if params:
                conn.exec_driver_sql(self.update, params)
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(self.table)
                    .where(t._batch_id == self.run_id, t._line.between(first, last))
                ).scalar_one()
            )


def _guarded_update(dialect: str, suspect: Transform, fixer: Transform, run_id: str) -> str:
    """The update of one row to the fixed version's values and this run's lineage, only
    while it is the row the suspect version wrote at its batch and line, or already this
    run's at this line (a replayed chunk). Driver-level text: the warehouse writer's way, a
    fifth of SQLAlchemy's cost per row for an executemany. The names are checked
    identifiers (transform.py), the versions checked literals, the run id hex."""
    mark = "?" if dialect == "sqlite" else "%s"
    others = [n for n in fixer.column_names if n != fixer.key]
    sets = ", ".join(f"{n} = {mark}" for n in others)
    assert run_id.isalnum()
    return (
        f"UPDATE {fixer.table} SET {sets}, _batch_id = '{run_id}', _line = {mark}, "
        f"_transform = {version_literal(fixer)} WHERE {fixer.key} = {mark} AND ("
        f"(_batch_id = {mark} AND _line = {mark} AND _transform = {version_literal(suspect)})"
        f" OR (_batch_id = '{run_id}' AND _line = {mark}))"
    )


def _finish(ws: Workspace, run_id: str, complete: bool, seconds: float, actor: str) -> Row[Any]:
    """Add this run's seconds, mark it complete unless cancelled, and audit what it did:
    one event about the warehouse (no dead letter), in the same transaction."""
    changes: dict[str, Any] = {"seconds": func.coalesce(_BATCHES.c.seconds, 0.0) + seconds}
    if complete:
        changes |= {"state": BatchState.COMPLETE.value, "finished_at": utcnow()}
    with ws.store.begin() as conn:
        conn.execute(update(_BATCHES).where(_BATCHES.c.batch_id == run_id).values(changes))
        run = conn.execute(select(_BATCHES).where(_BATCHES.c.batch_id == run_id)).one()
        scope = f" (batch {run.scope})" if run.scope else ""
        how = "" if complete else "; stopped, resumes when run again"
        conn.execute(
            insert(AuditEvent).values(
                dead_letter_id=None,
                at=utcnow(),
                actor=actor,
                action=AuditAction.REPROCESSED.value,
                detail=(
                    f"run {run_id}: {run.produced_by} -> {run.transform}{scope}: "
                    f"{run.loaded:,} updated, {run.superseded:,} left alone, "
                    f"{run.quarantined:,} quarantined{how}"
                ),
            )
        )
        return run
