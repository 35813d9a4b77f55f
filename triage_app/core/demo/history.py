"""A quarantine history for Trends: months of nightly batches and their dead letters, with
a release that broke the transform twice, written straight into a store.

What it holds, for a store of ``dead_letters`` over ``batches`` batches and ``DAYS`` days:
batches of 80,000 to 120,000 rows, 3 to 6 % quarantined (mostly data errors, some code,
a few transient); two releases of ``pesanan@2`` whose batches quarantine 4.5 times as much,
mostly code errors (the second is the newest batch: the spike banner's case); older dead
letters mostly resolved, some discarded or parked, the newest ones open. Deterministic.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from triage_app.core.db import Workspace
from triage_app.core.demo.store import EPOCH, StoreFiller, order_payload
from triage_app.core.vocabulary import AuditAction, Status

DAYS = 90
# (class, signature, one stored message); a spike batch draws mostly from the code rows.
SIGNATURES = [
    ("data", "DataError: qty tidak valid: <n>", "DataError: qty tidak valid: -1"),
    ("data", "DataError: kolom wajib hilang: qty", "DataError: kolom wajib hilang: qty"),
    ("data", "DataError: harga tidak valid: <s>", "DataError: harga tidak valid: 'abc'"),
    (
        "data",
        "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)",
        "JSONDecodeError: unexpected end of data: line 1 column 72 (char 71)",
    ),
    ("data", "DataError: tanggal tidak valid: <s>", "DataError: tanggal tidak valid: '2026-13'"),
    (
        "code",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
        "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
    ),
    ("code", "KeyError: <s>", "KeyError: 'diskon'"),
    ("transient", "TimeoutError: warehouse busy", "TimeoutError: warehouse busy"),
]
DATA_SIGS = [s for s in SIGNATURES if s[0] == "data"]
CODE_SIGS = [s for s in SIGNATURES if s[0] == "code"]
TRANSIENT_SIGS = [s for s in SIGNATURES if s[0] == "transient"]


@dataclass
class _Night:
    """One planned batch."""

    number: int
    rows: int
    rate: float
    start: dt.datetime
    spike: bool
    quarantined: int = 0

    @property
    def transform(self) -> str:
        return "pesanan@2" if self.spike else "pesanan@1"


def _plan(total: int, batches: int, rnd: random.Random, first: dt.datetime = EPOCH) -> list[_Night]:
    """The batches, oldest first, each with how many of the ``total`` it quarantined."""
    plan = []
    spikes = {int(batches * 0.55), batches - 1}
    for b in range(batches):
        rows = rnd.randrange(80_000, 120_000)
        rate = rnd.uniform(0.03, 0.06) * (4.5 if b in spikes else 1.0)
        start = first + dt.timedelta(days=DAYS * b / batches, minutes=rnd.randrange(0, 300))
        plan.append(_Night(b, rows, rate, start, b in spikes))
    weights = [p.rows * p.rate for p in plan]
    scale = total / sum(weights)
    counts = [int(w * scale) for w in weights]
    counts[-1] += total - sum(counts)
    for p, n in zip(plan, counts, strict=True):
        p.quarantined = n
    return plan


def fill_history(
    ws: Workspace,
    dead_letters: int = 1_000_000,
    batches: int = 200,
    first: dt.datetime = EPOCH,
) -> None:
    """Write the history into ``ws``'s store (empty, or holding other batches)."""
    rnd = random.Random(5)
    now = first + dt.timedelta(days=DAYS)
    with StoreFiller(ws) as filler:
        for p in _plan(dead_letters, batches, rnd, first):
            bid = f"{p.number:04d}{rnd.getrandbits(48):012x}"
            n = p.quarantined
            by_class = {"data": 0, "code": 0, "transient": 0}
            rows = []
            for i in range(n):
                r = rnd.random()
                if p.spike:
                    pool = CODE_SIGS if r < 0.75 else DATA_SIGS
                else:
                    pool = DATA_SIGS if r < 0.72 else CODE_SIGS if r < 0.9 else TRANSIENT_SIGS
                cls, sig, err = rnd.choice(pool)
                by_class[cls] += 1
                line = 1 + (i * p.rows) // n
                at = p.start + dt.timedelta(seconds=line // 200)
                age = (now - at).days
                u = rnd.random()
                resolve_share = min(0.92, age / 40)
                resolved_at = None
                if u < resolve_share:
                    status = Status.RESOLVED
                    resolved_at = min(now, at + dt.timedelta(hours=rnd.randrange(2, 24 * 12)))
                    attempts = 1 + (rnd.random() < 0.25)
                elif u < resolve_share + 0.03:
                    status, attempts = Status.DISCARDED, 1
                elif u < resolve_share + 0.07:
                    status, attempts = Status.PARKED, 3
                else:
                    status, attempts = Status.OPEN, 1 + (rnd.random() < 0.3)
                rows.append((cls, sig, err, line, at, status, attempts, resolved_at))
            # The batch first: its dead letters refer to it.
            filler.batch(
                bid,
                source_name=f"pesanan_{p.start:%Y-%m-%d}_{p.number}.jsonl",
                source_sha256=f"{p.number:064x}",
                transform=p.transform,
                rows=p.rows,
                loaded=p.rows - n,
                quarantined=n,
                by_class=by_class,
                started_at=p.start,
                finished_at=p.start + dt.timedelta(minutes=3),
                seconds=9.5,
            )
            for cls, sig, err, line, at, status, attempts, resolved_at in rows:
                dl_id = filler.dead_letter(
                    bid,
                    line,
                    error=err,
                    error_class=cls,
                    signature=sig,
                    payload=order_payload(line),
                    attempts=attempts,
                    status=status,
                    transform=p.transform,
                    failed_at=at,
                    last_failed_at=at + dt.timedelta(hours=6 * (attempts - 1)),
                    resolved_at=resolved_at,
                )
                filler.event(dl_id, AuditAction.QUARANTINED, at, actor="demo", detail=err)
                if status in (Status.RESOLVED, Status.DISCARDED):
                    when = resolved_at or min(now, at + dt.timedelta(days=3))
                    filler.event(dl_id, AuditAction(status.value), when, actor="demo")
