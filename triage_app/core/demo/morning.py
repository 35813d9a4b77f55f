"""A team lead's morning: ten nightly batches ending last night, one of which spiked, with
error groups of several ages, some owned and tagged. What the Trends screenshots and the
one-screen tests show (issue 24).

``spike`` says what went wrong last night: ``"data"`` (the source sent 249 rows that fail
one check, through a version that ran all week: the issue's case), ``"release"`` (a new
``pesanan@2`` that breaks on a null discount: its TypeError is a group first seen last
night, the nights before never had it) or ``None`` (a quiet night). Deterministic for a
given ``now``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence

from triage_app.core.db import Workspace
from triage_app.core.demo.history import SIGNATURES
from triage_app.core.demo.store import StoreFiller, order_payload
from triage_app.core.vocabulary import Status

NIGHTS = 10
ROWS = 2_000
QTY = "DataError: qty tidak valid: <n>"
TYPE_ERROR = "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'"
# Who already works on what: the rest is nobody's.
OWNED = {
    "DataError: kolom wajib hilang: qty": ("ani", ("needs source fix",), "asked the shop"),
    "KeyError: <s>": ("budi", (), ""),
}


def _quiet_night(i: int, spike: str | None) -> list[tuple[str, str, int]]:
    """A few rows of most groups: 1 to 2 % of the batch."""
    out = []
    for k, (cls, sig, _msg) in enumerate(SIGNATURES):
        n = (i * 7 + k * 3) % 6 + (2 if cls == "data" else 0)
        if cls == "code" and i < 4:  # the code errors began mid-week
            n = 0
        if spike == "release" and sig == TYPE_ERROR:  # the release's own bug: new last night
            n = 0
        if n:
            out.append((cls, sig, n))
    return out


def fill_morning(ws: Workspace, spike: str | None = "data", now: dt.datetime | None = None) -> None:
    """Ten nights into ``ws``'s store, the last one ``spike`` (see the module)."""
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None)
    first = (now - dt.timedelta(days=NIGHTS - 1)).replace(hour=1, minute=30, second=0)
    if first + dt.timedelta(days=NIGHTS - 1) > now:  # before 01:30 today: last night was yesterday
        first -= dt.timedelta(days=1)
    with StoreFiller(ws) as filler:
        for i in range(NIGHTS):
            last = i == NIGHTS - 1
            started = first + dt.timedelta(days=i)
            transform = "pesanan@1"
            fails = _quiet_night(i, spike)
            if last and spike == "data":
                fails.append(("data", QTY, 249))
            elif last and spike == "release":
                transform = "pesanan@2"
                fails.append(("code", TYPE_ERROR, 240))
            write_night(
                filler,
                f"{0xB47C0000 + i:08x}{i:08x}",
                started,
                transform,
                fails,
                source_name=f"pesanan_{started:%Y-%m-%d}.jsonl",
                worked_off=i < NIGHTS - 3,  # older nights mostly; the last three still wait
            )
    _own(ws)


Failures = Sequence[tuple[str, str, int]]  # (class, signature, rows)


def write_night(
    filler: StoreFiller,
    batch_id: str,
    started: dt.datetime,
    transform: str,
    fails: Failures,
    *,
    source_name: str,
    rows: int = ROWS,
    worked_off: bool = False,
) -> None:
    """One nightly batch whose counters agree with its dead letters: ``fails`` rows of
    each (class, signature), one a second from ``started``. ``worked_off``: two in three of
    them resolved six hours later."""
    messages = {sig: msg for _c, sig, msg in SIGNATURES}
    by_class: dict[str, int] = {}
    for cls, _sig, n in fails:
        by_class[cls] = by_class.get(cls, 0) + n
    filler.batch(
        batch_id,
        source_name=source_name,
        source_sha256=hashlib.sha256(batch_id.encode()).hexdigest(),
        transform=transform,
        rows=rows,
        loaded=rows - sum(by_class.values()),
        quarantined=sum(by_class.values()),
        by_class=by_class,
        started_at=started,
        finished_at=started + dt.timedelta(minutes=4),
        seconds=240.0,
        actor="nightly",
    )
    line = 0
    for cls, sig, n in fails:
        for k in range(n):
            line += 1
            at = started + dt.timedelta(seconds=line)
            done = worked_off and k % 3 != 0
            filler.dead_letter(
                batch_id,
                line,
                error=messages.get(sig, sig),
                error_class=cls,
                signature=sig,
                payload=order_payload(line),
                status=Status.RESOLVED if done else Status.OPEN,
                transform=transform,
                failed_at=at,
                resolved_at=at + dt.timedelta(hours=6) if done else None,
            )


def _own(ws: Workspace) -> None:
    from triage_app.core.deadletters import set_group

    for sig, (owner, tags, note) in OWNED.items():
        set_group(ws, sig, owner=owner, add_tags=tags, note=note or None, actor="lead")
