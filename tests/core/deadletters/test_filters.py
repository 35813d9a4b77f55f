"""The filter every view shares, as SQL: refusals in one line, batch prefixes as ranges, a
literal search over the payload bytes and the error, days with both ends included, and the
sort orders a view may ask for."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import (
    DeadLetterFilter,
    count_dead_letters,
    filter_clauses,
    list_dead_letters,
)
from triage_app.core.deadletters.filters import SORTABLE, order_clause
from triage_app.core.demo import StoreFiller
from triage_app.core.errors import TriageError

B_LOW = "aaff000000000000"  # sorts just below the "ab" prefix
B1 = "ab12000000000000"
B2 = "ab34000000000000"
B_HIGH = "ac00000000000000"  # sorts just above it
MAR = [dt.date(2026, 3, d) for d in range(1, 6)]  # MAR[0] is March 1
UBER = "DataError: status tidak valid: 'ÜBER'"

# name: (batch, line, payload, error, class, status, attempts, first failed, transform)
ROWS: dict[str, tuple[Any, ...]] = {
    "pct": (B1, 1, b'{"note": "50% off"}', "DataError: qty tidak valid: -1", "data", "open", 1,
            dt.datetime(2026, 3, 1, 0, 0, 0), "pesanan@1"),
    "under": (B1, 2, b'{"sku": "A_B"}', "DataError: harga tidak valid: 'x'", "data", "open", 2,
              dt.datetime(2026, 3, 1, 23, 59, 59), "pesanan@1"),
    "quote": (B2, 1, b'{"name": "O\'Brien"}', "KeyError: 'diskon'", "code", "parked", 3,
              dt.datetime(2026, 3, 2, 0, 0, 0), "pesanan@1"),
    "backslash": (B2, 2, b'{"path": 1}', "OSError: cannot read C:\\in\\x.jsonl", "transient",
                  "open", 1, dt.datetime(2026, 3, 3, 12, 0), "pesanan@2"),
    "bytes": (B_LOW, 1, b'{"produk": "Kemeja Batik", "x": "\xff"}', "JSONDecodeError: bad",
              "data", "resolved", 2, dt.datetime(2026, 3, 2, 8, 0), "pesanan@1"),
    "typeerr": (B_HIGH, 1, b'{"a": 1}', "TypeError: unsupported operand", "code", "discarded",
                1, dt.datetime(2026, 3, 4, 0, 0), "pesanan@1"),
    "uber": (B_HIGH, 2, b'{"status": 7}', UBER, "data", "open", 1,
             dt.datetime(2026, 3, 4, 6, 0), "pesanan@1"),
}  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Workspace, dict[str, int]]]:
    folder: Path = tmp_path_factory.mktemp("filters") / "ws"
    ids: dict[str, int] = {}
    with open_workspace(folder) as ws:
        with StoreFiller(ws) as filler:
            for b in (B_LOW, B1, B2, B_HIGH):
                filler.batch(b)
            for name, (batch, line, payload, error, cls, status, attempts, at, tr) in ROWS.items():
                ids[name] = filler.dead_letter(
                    batch,
                    line,
                    payload=payload,
                    error=error,
                    error_class=cls,
                    status=status,
                    attempts=attempts,
                    failed_at=at,
                    transform=tr,
                )
        yield ws, ids


def matched(store: tuple[Workspace, dict[str, int]], **narrow: Any) -> set[str]:
    """The names of the rows a filter (any status unless it says) matches; the count and the
    list must agree."""
    ws, ids = store
    f = DeadLetterFilter(status="all").with_(**narrow)
    rows = list_dead_letters(ws, f, limit=None)
    assert count_dead_letters(ws, f) == len(rows)
    by_id = {v: k for k, v in ids.items()}
    return {by_id[r.id] for r in rows}


def test_unknown_status_or_class_is_refused_in_one_line(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    ws, _ = store
    with pytest.raises(TriageError) as status:
        count_dead_letters(ws, DeadLetterFilter(status="Open"))
    assert str(status.value) == (
        "unknown status 'Open': use open, resolved, parked, discarded, all"
    )
    with pytest.raises(TriageError) as cls:
        list_dead_letters(ws, DeadLetterFilter(error_class="bug"))
    assert str(cls.value) == "unknown class 'bug': use data, code or transient"
    for exc in (status.value, cls.value):
        assert "\n" not in str(exc)


def test_no_filter_but_the_default_status_adds_one_clause() -> None:
    assert len(filter_clauses(DeadLetterFilter())) == 1  # open only
    assert filter_clauses(DeadLetterFilter(status="all")) == []
    # Values that narrow nothing add nothing: an empty search, one attempt as a minimum.
    assert filter_clauses(DeadLetterFilter(status="all", search="", min_attempts=1)) == []


def test_status_class_transform_and_signature(store: tuple[Workspace, dict[str, int]]) -> None:
    ws, _ = store
    assert count_dead_letters(ws) == 4  # open is the default
    assert matched(store, status="open") == {"pct", "under", "backslash", "uber"}
    assert matched(store, status="parked") == {"quote"}
    assert matched(store, status="resolved") == {"bytes"}
    assert matched(store, status="discarded") == {"typeerr"}
    assert matched(store, error_class="code") == {"quote", "typeerr"}
    assert matched(store, error_class="transient") == {"backslash"}
    assert matched(store, status="open", error_class="data") == {"pct", "under", "uber"}
    assert matched(store, transform="pesanan@2") == {"backslash"}
    # Without a signature of its own, a dead letter's signature is its error.
    assert matched(store, signature="KeyError: 'diskon'") == {"quote"}
    assert matched(store, signature="KeyError") == set()


def test_batch_id_prefix_matches_by_range(store: tuple[Workspace, dict[str, int]]) -> None:
    assert matched(store, batch_id="ab") == {"pct", "under", "quote", "backslash"}
    assert matched(store, batch_id="ab1") == {"pct", "under"}
    assert matched(store, batch_id="ab3") == {"quote", "backslash"}
    assert matched(store, batch_id="aa") == {"bytes"}
    assert matched(store, batch_id="ac") == {"typeerr", "uber"}
    assert matched(store, batch_id="a") == set(ROWS)
    assert matched(store, batch_id="b") == set()
    # A whole id (16 digits) is compared for equality.
    assert matched(store, batch_id=B2) == {"quote", "backslash"}
    assert matched(store, batch_id=B2[:15] + "1") == set()


def test_search_treats_like_wildcards_as_plain_characters(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    # Unescaped, "%" and "_" in a LIKE pattern would match every error.
    assert matched(store, search="%") == {"pct"}
    assert matched(store, search="50% off") == {"pct"}
    assert matched(store, search="_") == {"under"}
    assert matched(store, search="A_B") == {"under"}
    assert matched(store, search="A%B") == set()
    assert matched(store, search="tidak_valid") == set()
    assert matched(store, search="tidak%valid") == set()


def test_search_treats_quotes_and_backslashes_as_plain_characters(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    assert matched(store, search="'diskon'") == {"quote"}  # in the error
    assert matched(store, search="O'Brien") == {"quote"}  # in the payload
    assert matched(store, search='"sku"') == {"under"}
    assert matched(store, search="\\") == {"backslash"}  # the escape character itself
    assert matched(store, search="C:\\in\\x") == {"backslash"}
    assert matched(store, search="C:\\\\in") == set()


def test_search_looks_at_the_payload_bytes_and_the_error(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    # In the payload only, although the payload is not valid UTF-8.
    assert matched(store, search="Kemeja Batik") == {"bytes"}
    # In the error only.
    assert matched(store, search="unsupported operand") == {"typeerr"}
    # The error matches whatever the case of the search.
    assert matched(store, search="QTY TIDAK") == {"pct"}
    assert matched(store, search="keyerror") == {"quote"}
    assert matched(store, search="TiDaK VaLiD") == {"pct", "under", "uber"}
    # The search narrows together with the other fields.
    assert matched(store, search="tidak valid", status="open", batch_id="ab") == {"pct", "under"}


def test_search_finds_non_ascii_text_exactly_as_the_error_spells_it(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    assert matched(store, search="'ÜBER'") == {"uber"}


def test_failed_from_and_failed_to_include_both_days(
    store: tuple[Workspace, dict[str, int]],
) -> None:
    # pct failed at 00:00:00 and under at 23:59:59 on March 1: both are that day.
    assert matched(store, failed_from=MAR[0], failed_to=MAR[0]) == {"pct", "under"}
    assert matched(store, failed_from=MAR[1], failed_to=MAR[1]) == {"quote", "bytes"}
    assert matched(store, failed_from=MAR[2], failed_to=MAR[2]) == {"backslash"}
    assert matched(store, failed_from=MAR[1]) == {"quote", "bytes", "backslash", "typeerr", "uber"}
    assert matched(store, failed_to=MAR[2]) == {"pct", "under", "quote", "bytes", "backslash"}
    assert matched(store, failed_from=MAR[3], failed_to=MAR[3]) == {"typeerr", "uber"}
    assert matched(store, failed_from=MAR[4]) == set()
    assert matched(store, failed_from=MAR[2], failed_to=MAR[1]) == set()  # an empty span


def test_ids_attempts_and_min_attempts(store: tuple[Workspace, dict[str, int]]) -> None:
    _, ids = store
    assert matched(store, ids=(ids["under"], ids["bytes"])) == {"under", "bytes"}
    assert matched(store, ids=(ids["under"], ids["bytes"]), status="open") == {"under"}
    assert matched(store, ids=()) == set()  # no ids: nothing, not everything
    assert matched(store, ids=(9999,)) == set()
    assert matched(store, attempts=2) == {"under", "bytes"}
    assert matched(store, attempts=3) == {"quote"}
    assert matched(store, min_attempts=2) == {"under", "quote", "bytes"}
    assert matched(store, min_attempts=3) == {"quote"}
    assert matched(store, min_attempts=4) == set()
    assert matched(store, min_attempts=1) == set(ROWS)
    assert matched(store, min_attempts=0) == set(ROWS)


def test_order_clause_refuses_an_unknown_column(store: tuple[Workspace, dict[str, int]]) -> None:
    ws, _ = store
    for column in ("payload", "error", "id; DROP TABLE dead_letters", ""):
        with pytest.raises(TriageError, match="cannot sort by"):
            order_clause(column)
    with pytest.raises(TriageError) as exc:
        list_dead_letters(ws, sort="original_payload")
    assert str(exc.value) == "cannot sort by 'original_payload'"
    # Every column it offers sorts, and id alone needs no tie-break.
    for column in SORTABLE:
        assert len(list_dead_letters(ws, DeadLetterFilter(status="all"), sort=column)) == 7
        assert len(order_clause(column, descending=True)) == (1 if column == "id" else 2)
