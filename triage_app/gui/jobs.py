"""The long jobs the window starts: each is one core call, described by frozen values."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from triage_app.core import (
    BatchSummary,
    DeadLetterFilter,
    Progress,
    RedriveSummary,
    run_batch,
)
from triage_app.core.export import ExportSummary, export_dead_letters
from triage_app.core.idempotence import IdempotenceProof, verify_idempotent
from triage_app.core.redrive import redrive
from triage_app.core.workspace import Workspace


@dataclass(frozen=True)
class BatchJob:
    path: Path
    transform: str
    fmt: str | None = None  # None: detected from the file name
    chunk_size: int | None = None  # None: core's default (a cancel waits at most one chunk)

    @property
    def title(self) -> str:
        return f"batch {self.path.name} with {self.transform}"

    def run(self, ws: Workspace, progress: Progress) -> BatchSummary:
        if self.chunk_size is None:
            return run_batch(ws, self.path, self.transform, fmt=self.fmt, progress=progress)
        return run_batch(
            ws,
            self.path,
            self.transform,
            fmt=self.fmt,
            progress=progress,
            chunk_size=self.chunk_size,
        )


@dataclass(frozen=True)
class VerifyJob:
    """Run a file twice into scratch databases and compare the warehouse SHA-256; the
    workspace it is started from is not touched."""

    path: Path
    transform: str
    fmt: str | None = None

    @property
    def title(self) -> str:
        return f"idempotence check of {self.path.name} with {self.transform}"

    def run(self, ws: Workspace, progress: Progress) -> IdempotenceProof:
        return verify_idempotent(self.path, self.transform, fmt=self.fmt, progress=progress)


@dataclass(frozen=True)
class RedriveJob:
    transform: str
    ids: tuple[int, ...] | None = None
    where: DeadLetterFilter | None = None
    dry_run: bool = False

    @property
    def title(self) -> str:
        return f"{'preview of a ' if self.dry_run else ''}re-drive with {self.transform}"

    def run(self, ws: Workspace, progress: Progress) -> RedriveSummary:
        return redrive(
            ws,
            self.transform,
            ids=list(self.ids) if self.ids else None,
            where=self.where,
            dry_run=self.dry_run,
            progress=progress,
        )


@dataclass(frozen=True)
class ExportJob:
    where: DeadLetterFilter
    path: Path
    fmt: str

    @property
    def title(self) -> str:
        return f"export to {self.path.name}"

    def run(self, ws: Workspace, progress: Progress) -> ExportSummary:
        return export_dead_letters(ws, self.where, self.path, self.fmt, progress=progress)
