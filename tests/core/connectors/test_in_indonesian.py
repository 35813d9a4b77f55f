"""Issue 28: the connectors in Bahasa Indonesia. An import's summary and the Source column
are the reader's language; why a row was not delivered is shown in it too, while the row's
``undelivered`` event and ``--json`` keep the English (one store, readers of both)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from tests.core.connectors.conftest import open_place
from tests.core.connectors.memory import ListSource
from tests.core.connectors.test_importing import _letters
from triage_app.core import messages
from triage_app.core.batch import run_batch
from triage_app.core.bilingual import english, reason_of
from triage_app.core.connectors import (
    ImportSummary,
    RoutedSink,
    batch_sources,
    import_letters,
    keep_connector,
)
from triage_app.core.connectors.tables import _mapping
from triage_app.core.db import Batch
from triage_app.core.deadletters import AuditFilter, audit_trail, redrive
from triage_app.core.errors import TriageError


def test_an_import_is_counted_in_indonesian(place: dict[str, Any], indonesian: None) -> None:
    with open_place(place) as ws:
        c = keep_connector(ws, "amqp", "amqp://127.0.0.1/", {"queue": "orders.dlq"})
        s = import_letters(ws, c, ListSource(_letters(1_500)), chunk=500)
        assert s.describe() == (
            "1.500 dead letter diimpor dari orders.dlq (1.500 cacat data); "
            "0 sudah diimpor sebelumnya (tidak digandakan)."
        )
        again = import_letters(ws, c, ListSource(_letters(1)))
        assert again.describe() == (
            "0 dead letter diimpor dari orders.dlq; 1 sudah diimpor sebelumnya (tidak digandakan)."
        )


def test_a_summary_for_one_and_for_many_in_both_languages() -> None:
    one = ImportSummary("orders.dlq", "b", 1, 1, 0, {"transient": 1})
    many = ImportSummary("orders.dlq", "b", 2, 2, 0, {"code": 2})
    assert one.describe().startswith("Imported 1 dead letter from orders.dlq (1 transient);")
    assert many.describe().startswith("Imported 2 dead letters from orders.dlq (2 code);")
    messages.use_language("id")
    try:
        assert one.describe().startswith("1 dead letter diimpor dari orders.dlq (1 sementara);")
        assert many.describe().startswith("2 dead letter diimpor dari orders.dlq (2 bug kode);")
    finally:
        messages.use_language("en")


def test_a_row_not_delivered_says_why_in_both_and_keeps_the_english(
    place: dict[str, Any], seed_batch: Path, indonesian: None
) -> None:
    with open_place(place) as ws:
        run_batch(ws, seed_batch, "pesanan@1")
        with ws.store.connect() as conn:
            (batch_id,) = conn.execute(select(Batch.batch_id)).scalars()
        assert batch_sources(ws, [batch_id]) == {batch_id: f"berkas {seed_batch.name}"}
        sink = RoutedSink(ws, "original")
        s = redrive(ws, None, ids=[1], sink=sink)
        why = "tidak diimpor dari konektor: kirim ulang ke warehouse"
        assert s.describe() == (
            "1 dead letter dikirim ulang ke asal masing-masing apa adanya: 0 selesai, "
            "0 gagal (0 diparkir). 1 tidak terkirim (dibiarkan terbuka). "
            f"Yang pertama tidak terkirim: #1: {why}."
        )
        data = s.to_json()
        english_why = "not imported from a connector: re-drive it into the warehouse"
        assert data["destination"] == "where each came from"
        assert [r["error"] for r in data["results"]] == [english_why]
        (event,) = audit_trail(ws, AuditFilter(dead_letter_id=1, action="undelivered"))
        assert event.detail == english_why


def test_a_connector_refused_in_indonesian_keeps_its_english(indonesian: None) -> None:
    with pytest.raises(TriageError) as caught:
        _mapping({"table": "dead_letter"})
    assert str(caught.value).startswith("konektor tabel memerlukan kolomnya:")
    assert english(reason_of(caught.value)).startswith("a table connector needs its columns:")
