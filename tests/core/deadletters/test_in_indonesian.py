"""Issue 28: the dead-letter engine in Bahasa Indonesia. Its summaries and refusals come
from the catalogue, numbers and dates are written the Indonesian way, a counted sentence is
right for one and for many in both languages; and what ``--json`` and the store keep is
the same English whatever the reader's language (a ``Said`` keeps its English)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import orjson
import pytest

from tests.support import cli
from triage_app.core import messages
from triage_app.core.batch import run_batch
from triage_app.core.bilingual import Said, english
from triage_app.core.db import Workspace
from triage_app.core.deadletters import (
    AuditFilter,
    ChangeReport,
    DeadLetterFilter,
    Fix,
    PurgeSummary,
    Refused,
    RetentionPolicy,
    Step,
    apply_change,
    audit_trail,
    park,
    preview_fix,
    redrive,
)
from triage_app.core.vocabulary import RedriveOutcome

# The seed batch through pesanan@1 quarantines lines 3, 4, 6 and 8, as ids 1 to 4; 4 (a
# null diskon) resolves through pesanan@2.
TRUNCATED, NULL_DISKON = 1, 4


@pytest.fixture
def ws(workspace: Workspace, seed_batch: Path) -> Workspace:
    run_batch(workspace, seed_batch, "pesanan@1")
    return workspace


def _both(make):  # type: ignore[no-untyped-def]
    """What ``make()`` says in English, then in Indonesian."""
    en = make()
    messages.use_language("id")
    try:
        return en, make()
    finally:
        messages.use_language("en")


def test_a_counted_sentence_for_one_and_for_many_in_both_languages() -> None:
    one = ChangeReport("parked", changed=(1,))
    many = ChangeReport("parked", changed=tuple(range(1, 1235)))
    (en_one, en_many), (id_one, id_many) = _both(lambda: (one.describe(), many.describe()))
    assert en_one == "Parked 1 dead letter: #1."
    assert en_many.startswith("Parked 1,234 dead letters: #1, #2, ")
    assert id_one == "1 dead letter diparkir: #1."
    assert id_many.startswith("1.234 dead letter diparkir: #1, #2, ")
    days = (RetentionPolicy(1, ("discarded",)), RetentionPolicy(30, ("discarded",)))
    en, id_ = _both(lambda: [p.describe() for p in days])
    assert en == [
        "discarded dead letters closed more than 1 day ago",
        "discarded dead letters closed more than 30 days ago",
    ]
    assert id_ == [
        "dead letter dibuang yang ditutup lebih dari 1 hari lalu",
        "dead letter dibuang yang ditutup lebih dari 30 hari lalu",
    ]


def test_numbers_and_dates_are_written_the_indonesian_way(indonesian: None) -> None:
    cutoff = dt.datetime(2026, 9, 1, 12, 5)
    s = PurgeSummary(
        cutoff,
        ("resolved",),
        False,
        1_234_567,
        {"resolved": 1_234_567},
        {"2026-08-01": {"data": 1_200, "transient": 3}},
        days=30,
    )
    assert s.describe() == (
        "1.234.567 dead letter dihapus permanen (1.234.567 selesai), ditutup lebih dari 30 hari "
        "lalu (sebelum 1 Sep 2026 12.05 UTC). Dikarantina pada 1 Agu 2026: 1.200 cacat data, "
        "3 sementara."
    )
    # The numbers --json prints are the numbers themselves.
    assert s.to_json()["rows"] == 1_234_567 and s.to_json()["cutoff"] == "2026-09-01T12:05:00Z"


def test_a_refusal_is_indonesian_and_its_english_is_kept_for_json(
    ws: Workspace, indonesian: None
) -> None:
    assert redrive(ws, "pesanan@2", ids=[NULL_DISKON]).succeeded == 1
    with pytest.raises(Refused) as caught:
        apply_change(ws, [TRUNCATED, NULL_DISKON], park())
    assert str(caught.value) == "dead letter 4 berstatus selesai; tidak dapat diparkir"
    report = apply_change(ws, [TRUNCATED, NULL_DISKON], park(), all_or_nothing=False)
    assert report.describe() == (
        "1 dead letter diparkir: #1. Tidak diikutkan 1: #4 "
        "(pertama: dead letter 4 berstatus selesai; tidak dapat diparkir)."
    )
    assert report.to_json()["refused"] == [
        {"id": 4, "reason": "dead letter 4 is resolved; it cannot be parked"}
    ]
    # The park's reason is stored as given; the stored default stays English.
    details = [r.detail for r in audit_trail(ws, AuditFilter(dead_letter_id=TRUNCATED))]
    assert details[0] == "parked by hand"


def test_a_redrive_says_why_it_skipped_and_json_keeps_the_english(
    ws: Workspace, indonesian: None
) -> None:
    assert redrive(ws, "pesanan@2", ids=[NULL_DISKON]).succeeded == 1
    s = redrive(ws, "pesanan@2", ids=[NULL_DISKON], dry_run=True)
    assert s.describe() == (
        "Pratinjau 0 dead letter dengan pesanan@2: 0 akan berhasil, 0 masih akan gagal. "
        "Akan dilewati 1 (sudah selesai): #4. Tidak ada yang ditulis."
    )
    (result,) = s.to_json()["results"]
    assert (result["outcome"], result["error"]) == (RedriveOutcome.SKIPPED, "already resolved")


def test_a_filter_in_words_is_shown_translated_and_kept_in_english(indonesian: None) -> None:
    f = DeadLetterFilter(status="open", error_class="transient", failed_from=dt.date(2026, 11, 30))
    said = f.describe()
    assert isinstance(said, Said)
    assert said == "status terbuka · kelas sementara · pertama gagal 30 Nov 2026"
    assert english(said) == "status open · class transient · first failed 30 Nov 2026"


def test_a_fix_says_why_it_does_not_apply_and_json_keeps_the_english(
    ws: Workspace, indonesian: None
) -> None:
    fix = Fix(steps=(Step("default", "pesanan_id", 1),))
    p = preview_fix(ws, fix, [2, 3])
    assert set(p.why_not) == {"pesanan_id sudah memiliki nilai"}
    assert p.to_json()["why_not"] == {"pesanan_id already has a value": 2}
    assert {r["why"] for r in p.to_json()["shown"]} == {"pesanan_id already has a value"}


def _json(args: list[str], lang: str) -> object:
    done = cli(*args, "--json", env={**os.environ, "TRIAGE_LANG": lang})
    assert done.returncode in (0, 1), done.stderr
    return orjson.loads(done.stdout)


def test_the_command_line_json_is_the_same_in_both_languages(ws: Workspace, tmp_path: Path) -> None:
    assert redrive(ws, "pesanan@2", ids=[NULL_DISKON]).succeeded == 1
    args = ["--workspace", str(tmp_path / "ws")]
    # Nothing changes on either run: the only resolved row is refused a reopen.
    reopen = [*args, "reopen", "--status", "resolved"]
    assert (
        _json(reopen, "en")
        == _json(reopen, "id")
        == {
            "action": "reopened",
            "changed": [],
            "unchanged": [],
            "refused": [{"id": 4, "reason": "dead letter 4 is resolved; it cannot be reopened"}],
        }
    )
    text = cli(*reopen, env={**os.environ, "TRIAGE_LANG": "id"}).stdout
    assert text.startswith(
        "0 dead letter dibuka kembali. Tidak diikutkan 1: #4 "
        "(pertama: dead letter 4 berstatus selesai; tidak dapat dibuka kembali)."
    )
    dry = [*args, "redrive", "--id", "1", "4", "--transform", "pesanan@2", "--dry-run"]
    en = _json(dry, "en")
    assert en == _json(dry, "id")
    assert [(r["id"], r["outcome"], r["error"]) for r in en["results"]][-1] == (  # type: ignore[index]
        4,
        "skipped",
        "already resolved",
    )
