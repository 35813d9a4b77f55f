"""A spike's cause from its evidence (causes.py): the class mix, the largest error groups,
and whether the transform version is new. Each case on a crafted store
(tests/support/spike_stores.py), through ``compute_trends`` and the banner's own
``banner_spike``, so the window, ``report`` and ``stats --json`` say the same; the release
case on PostgreSQL too."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.spike_stores import NIGHTS, QTY, TIMEOUT, TYPE_ERROR, build_spike
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.trends import banner_spike, compute_trends
from triage_app.core.trends.causes import Verdict


def _spike(ws: Workspace):  # type: ignore[no-untyped-def]
    s = compute_trends(ws).banner_spike()
    assert s is not None and s.cause is not None
    # The banner's own reading (no dead letter counted) says the same.
    alone = banner_spike(ws)
    assert alone is not None and alone.message() == s.message()
    return s


@pytest.fixture
def ws(tmp_path: Path):  # type: ignore[no-untyped-def]
    with open_workspace(tmp_path / "ws") as w:
        yield w


def test_a_data_spike_names_the_source_and_never_the_release(ws: Workspace) -> None:
    # The case: 249 rows, all data class, through a version that ran before.
    build_spike(ws, [("data", QTY, 249)], transform="pesanan@2", quiet_transforms=["pesanan@2"] * 8)
    s = _spike(ws)
    assert s.cause.verdict is Verdict.DATA
    text = s.message()
    assert (
        "All 249 quarantined rows are data errors: the source sent 249 rows that fail the "
        "same check (DataError: qty tidak valid" in text
    )
    assert "night_8.jsonl" in text
    assert "release" not in text and "broke" not in text
    assert "pesanan@2 is not new" in text


def test_a_data_spike_through_a_new_version_states_the_change_without_blame(
    ws: Workspace,
) -> None:
    build_spike(
        ws, [("data", QTY, 200), ("data", "DataError: pelanggan kosong", 30)], transform="pesanan@2"
    )
    s = _spike(ws)
    assert s.cause.verdict is Verdict.DATA and s.cause.new_version
    text = s.message()
    assert (
        "All 230 quarantined rows are data errors: the source sent 200 rows that fail the "
        "same check" in text
    )
    assert "and 30 more with other data errors" in text
    assert "pesanan@2 is new: this batch is the first through it" in text
    assert "broke" not in text


def test_code_errors_through_a_new_version_blame_the_release(ws: Workspace) -> None:
    build_spike(ws, [("code", TYPE_ERROR, 180), ("data", QTY, 20)], transform="pesanan@2")
    s = _spike(ws)
    c = s.cause
    assert c.verdict is Verdict.RELEASE
    assert c.by_class == {"data": 20, "code": 180, "transient": 0}
    assert [(g.signature, g.count) for g in c.top] == [(TYPE_ERROR, 180), (QTY, 20)]
    assert c.first_use and c.previous_version == "pesanan@1"
    text = s.message()
    assert "180 of the 200 quarantined rows are code errors" in text
    assert "pesanan@2 is new: this batch is the first through it" in text
    assert "the release of pesanan@2 likely broke the transform" in text
    assert f"Largest: {TYPE_ERROR} (180); {QTY} (20)." in text


def test_code_errors_through_an_old_version_point_at_the_input(ws: Workspace) -> None:
    build_spike(ws, [("code", TYPE_ERROR, 150)], transform="pesanan@1")
    s = _spike(ws)
    assert s.cause.verdict is Verdict.CODE and not s.cause.new_version
    text = s.message()
    assert "pesanan@1 is not new" in text and "broke" not in text
    assert "input from night_8.jsonl that the transform does not handle" in text


def test_a_version_back_after_another_is_new_since_the_previous_normal_batch(
    ws: Workspace,
) -> None:
    # pesanan@2 ran once long ago, then pesanan@1 every night; pesanan@2 comes back.
    quiet = ["pesanan@2"] + ["pesanan@1"] * (NIGHTS - 1)
    build_spike(ws, [("code", TYPE_ERROR, 120)], transform="pesanan@2", quiet_transforms=quiet)
    c = _spike(ws).cause
    assert not c.first_use and c.previous_version == "pesanan@1" and c.new_version
    assert c.verdict is Verdict.RELEASE
    assert "new since the previous normal batch, which ran pesanan@1" in c.sentence()


def test_transient_errors_point_at_what_was_down(ws: Workspace) -> None:
    build_spike(ws, [("transient", TIMEOUT, 90), ("code", TYPE_ERROR, 10)], transform="pesanan@2")
    s = _spike(ws)
    assert s.cause.verdict is Verdict.TRANSIENT
    text = s.message()
    assert "90 of the 100 quarantined rows are transient errors" in text
    assert "broke" not in text


def test_no_class_holding_most_rows_says_the_mix(ws: Workspace) -> None:
    build_spike(ws, [("code", TYPE_ERROR, 50), ("data", QTY, 50), ("transient", TIMEOUT, 40)])
    s = _spike(ws)
    assert s.cause.verdict is Verdict.MIXED
    assert "No one class holds most of the 140 rows (code 50, data 50, transient 40)" in (
        s.message()
    )


def test_the_cause_reaches_stats_json(ws: Workspace) -> None:
    build_spike(ws, [("data", QTY, 249)])
    spikes = compute_trends(ws).to_json()["spikes"]
    assert len(spikes) == 1
    cause = spikes[0]["cause"]
    assert cause["verdict"] == "data" and cause["top"][0] == {
        "signature": QTY,
        "class": "data",
        "count": 249,
    }
    assert cause["sentence"] in spikes[0]["message"]


def test_the_release_case_on_postgresql(pg_urls: tuple[str, str]) -> None:
    wh, dl = pg_urls
    with open_workspace(None, warehouse_url=wh, dead_letter_url=dl) as ws:
        build_spike(ws, [("code", TYPE_ERROR, 180), ("data", QTY, 20)], transform="pesanan@2")
        c = _spike(ws).cause
        assert c.verdict is Verdict.RELEASE
        assert [(g.signature, g.count) for g in c.top] == [(TYPE_ERROR, 180), (QTY, 20)]
