"""Trends' widgets made directly (not through the window) speak English with its catalogue
installed: a counted text's English forms ("1 dead letter", "3 dead letters") are in the
catalogue, and without a translator Qt shows the source ("3 dead letter(s)")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from triage_app.gui.i18n import install_language


@pytest.fixture(autouse=True)
def speaks_english(qapp: QApplication) -> Iterator[None]:
    if not qapp.property("triage_language"):
        # As ``gui.app.application`` does once per process (the suite speaks English).
        qapp.setProperty("triage_language", install_language(qapp, "en"))
    yield
