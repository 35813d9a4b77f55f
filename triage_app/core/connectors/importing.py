"""Import: another pipeline's dead letters become the desk's, at least once and never twice.

An import is a batch of kind ``import`` of one connector. It takes letters from the source
a chunk at a time, and in one store transaction per chunk quarantines the new ones (the
same rows, signatures, summary cells and counters as a batch's failures, so the table,
editor, bulk fixes, re-drive, Trends and audit treat them as any other) with their
``dead_letter_origins`` rows; only after that commit does it acknowledge the chunk to the
source. A process killed between the two leaves the letters unacknowledged: the broker
gives them again, and their identities, unique per connector, are found stored, so they
are acknowledged without a second row. A letter whose identity another import (another
steward, at the same moment) stored first is the same: counted ``already``, not doubled.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from triage_app.core.batch import (
    Failure,
    batch_advance,
    batch_begun,
    ledger_row,
    quarantine_failures,
)
from triage_app.core.bilingual import english, reason_of
from triage_app.core.clock import utcnow
from triage_app.core.connectors.letters import DeadLetterSource, OutsideLetter, bounded_identity
from triage_app.core.connectors.stored import Connector
from triage_app.core.crashpoints import crash_point
from triage_app.core.db import (
    AuditEvent,
    Batch,
    DeadLetter,
    Origin,
    Workspace,
    actor_for,
    notify_change,
)
from triage_app.core.deadletters import counted_word, slices
from triage_app.core.errors import TriageError, signature
from triage_app.core.locale_format import format_int
from triage_app.core.messages import _, ngettext
from triage_app.core.progress import NoProgress, Progress
from triage_app.core.transforms import personal_fields_of
from triage_app.core.vocabulary import AuditAction, BatchKind, BatchState, ErrorClass, PayloadKind

CHUNK = 500  # letters per store transaction and per acknowledgement


@dataclass(frozen=True)
class ImportSummary:
    connector: str
    batch_id: str
    taken: int  # letters read from the source
    imported: int  # new dead letters
    already: int  # letters stored before (a replay, or another steward's import)
    by_class: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    # Why it ended before the source was empty or the limit (a ``Said``: English in --json).
    stopped: str | None = None
    cancelled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "connector": self.connector,
            "batch_id": self.batch_id,
            "taken": self.taken,
            "imported": self.imported,
            "already": self.already,
            "by_class": dict(self.by_class),
            "seconds": round(self.seconds, 3),
            "stopped": english(self.stopped),
            "cancelled": self.cancelled,
        }

    def describe(self) -> str:
        classes = ", ".join(
            counted_word(c, format_int(n)) for c, n in sorted(self.by_class.items()) if n
        )
        n, already = self.imported, format_int(self.already)
        if classes:
            text = ngettext(
                "Imported {n} dead letter from {connector} ({classes}); "
                "{already} were imported before (not doubled).",
                "Imported {n} dead letters from {connector} ({classes}); "
                "{already} were imported before (not doubled).",
                n,
            )
        else:
            text = ngettext(
                "Imported {n} dead letter from {connector}; "
                "{already} were imported before (not doubled).",
                "Imported {n} dead letters from {connector}; "
                "{already} were imported before (not doubled).",
                n,
            )
        text = text.format(
            n=format_int(n), connector=self.connector, classes=classes, already=already
        )
        if self.cancelled:
            text += " " + _("Cancelled: what was not taken stays in the source.")
        if self.stopped:
            text += " " + _("Stopped: {why}.").format(why=self.stopped)
        return text


def _new_batch_id(connector: Connector) -> str:
    seed = f"import {connector.id} {utcnow().isoformat()} {uuid.uuid4().hex}"
    return hashlib.sha256(seed.encode()).hexdigest()[:32]


def _begin(ws: Workspace, connector: Connector, actor: str) -> str:
    batch_id = _new_batch_id(connector)
    with ws.store.begin() as conn:
        conn.execute(
            batch_begun(
                batch_id,
                source_name=connector.short()[:500],
                # No file: the hash names the connector, so two imports of one queue share it.
                source_sha256=hashlib.sha256(f"connector {connector.id}".encode()).hexdigest(),
                transform=connector.label,
                fmt=connector.kind,
                actor=actor,
                kind=BatchKind.IMPORT.value,
                connector_id=connector.id,
            )
        )
    return batch_id


def _known(conn: Connection, connector_id: int, identities: Sequence[str]) -> set[str]:
    o = Origin
    found: set[str] = set()
    for part in slices(identities):
        found.update(
            conn.execute(
                select(o.identity).where(o.connector_id == connector_id, o.identity.in_(list(part)))
            ).scalars()
        )
    return found


def _store_chunk(
    ws: Workspace,
    connector: Connector,
    batch_id: str,
    first_line: int,
    letters: Sequence[OutsideLetter],
    actor: str,
) -> tuple[int, Counter[str]]:
    """One transaction: the chunk's new letters quarantined, their origins, the ledger and
    the batch's counters. Returns (lines used, new letters by class)."""
    identities = [bounded_identity(x.identity) for x in letters]
    with ws.store.begin() as conn:
        notify_change(conn)
        known = _known(conn, connector.id, identities)
        fresh: list[tuple[int, str, OutsideLetter]] = []
        seen: set[str] = set()
        for identity, letter in zip(identities, letters, strict=True):
            if identity in known or identity in seen:
                continue
            seen.add(identity)
            fresh.append((first_line + len(fresh), identity, letter))
        by_class: Counter[str] = Counter()
        if not fresh:
            return 0, by_class
        now = utcnow()
        failures = [
            Failure(
                line,
                letter.payload,
                letter.error,
                letter.error_class,
                signature(letter.error),
                letter.traceback if letter.error_class is ErrorClass.CODE else None,
            )
            for line, _, letter in fresh
        ]
        quarantine_failures(
            conn,
            batch_id=batch_id,
            transform_ref=connector.label,
            payload_kind=PayloadKind.JSONL.value,
            failures=failures,
            actor=actor,
            now=now,
            # The attempts a source counted (the seed's percobaan), where more than one.
            attempts={line: x.attempts for line, _, x in fresh if x.attempts > 1} or None,
            # A connector's letters are masked when its label names a transform that
            # declares personal fields (core/masking.py); otherwise there is none to know.
            personal=personal_fields_of(connector.label),
        )
        last = fresh[-1][0]
        ids = dict(
            conn.execute(
                select(DeadLetter.line, DeadLetter.id).where(
                    DeadLetter.batch_id == batch_id, DeadLetter.line.between(first_line, last)
                )
            ).all()
        )
        conn.execute(
            insert(Origin),
            [
                {
                    "dead_letter_id": ids[line],
                    "connector_id": connector.id,
                    "identity": identity,
                    "destination": letter.destination,
                    "evidence": orjson.dumps(
                        dict(letter.evidence), option=orjson.OPT_SORT_KEYS, default=str
                    ).decode(),
                }
                for line, identity, letter in fresh
            ],
        )
        by_class.update(letter.error_class.value for _, _, letter in fresh)
        conn.execute(
            ledger_row(),
            {
                "batch_id": batch_id,
                "first_line": first_line,
                "last_line": last,
                "records": len(fresh),
                "loaded": 0,
                "superseded": 0,
                "quarantined": len(fresh),
                "committed_at": now,
            },
        )
        conn.execute(
            batch_advance(),
            {
                "id_": batch_id,
                "lines_done_": last,
                "rows_": len(fresh),
                "loaded_": 0,
                "superseded_": 0,
                "quarantined_": len(fresh),
                "q_data_": by_class[ErrorClass.DATA.value],
                "q_code_": by_class[ErrorClass.CODE.value],
                "q_transient_": by_class[ErrorClass.TRANSIENT.value],
                "held_": 0,
            },
        )
    return len(fresh), by_class


def _finish(
    ws: Workspace, batch_id: str, connector: Connector, seconds: float, actor: str, note: str
) -> None:
    """The import batch complete, and one audit event about it (who, from where, how many):
    its dead letters' own record, as a batch is theirs."""
    with ws.store.begin() as conn:
        conn.execute(
            update(Batch)
            .where(Batch.batch_id == batch_id)
            .values(
                state=BatchState.COMPLETE.value,
                finished_at=utcnow(),
                seconds=func.coalesce(Batch.seconds, 0.0) + seconds,
            )
        )
        conn.execute(
            insert(AuditEvent).values(
                dead_letter_id=None,
                at=utcnow(),
                actor=actor,
                action=AuditAction.IMPORTED.value,
                # Stored: in English, for every reader (said.py).
                detail=f"batch {batch_id} from {english(connector.describe())}: {note}"[:2000],
            )
        )


def import_letters(
    ws: Workspace,
    connector: Connector,
    source: DeadLetterSource,
    *,
    limit: int | None = None,
    chunk: int = CHUNK,
    progress: Progress | None = None,
    actor: str | None = None,
) -> ImportSummary:
    """Import up to ``limit`` letters (None: until the source has none waiting) from
    ``source`` as ``connector``'s dead letters; see the module's note for the guarantees."""
    progress = progress or NoProgress()
    actor = actor or actor_for(ws.store)
    started = time.monotonic()
    batch_id = _begin(ws, connector, actor)
    taken = imported = 0
    by_class: Counter[str] = Counter()
    next_line = 1
    cancelled = False
    stopped: str | None = None
    try:
        while limit is None or taken < limit:
            most = chunk if limit is None else min(chunk, limit - taken)
            letters = source.take(most)
            if not letters:
                break
            taken += len(letters)
            for attempt in range(3):
                try:
                    used, classes = _store_chunk(ws, connector, batch_id, next_line, letters, actor)
                    break
                except IntegrityError:
                    # Another import stored one of these identities meanwhile: read again.
                    if attempt == 2:
                        raise
            next_line += used
            imported += used
            by_class.update(classes)
            crash_point("import-after-commit")
            source.acknowledge(letters)
            progress.update(taken, limit or taken, taken)
            if progress.cancelled():
                cancelled = True
                break
    except TriageError as exc:  # the source went away: what was committed stays, said so
        stopped = reason_of(exc)
    finally:
        seconds = time.monotonic() - started
        # Stored (the import's event): English.
        note = f"{imported:,} new, {taken - imported:,} imported before" + (
            f"; stopped: {english(stopped)}" if stopped else ""
        )
        _finish(ws, batch_id, connector, seconds, actor, note)
    return ImportSummary(
        connector.name,
        batch_id,
        taken,
        imported,
        taken - imported,
        dict(by_class),
        seconds,
        stopped,
        cancelled,
    )
