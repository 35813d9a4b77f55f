"""The dialogs' tests speak English the way the app does: ``install_language`` sets Qt's
default locale too, which counted texts (``%Ln``) write their numbers with ("1,234"). A
test that opens the main window gets this from ``application()``; a dialog made alone
would otherwise count in the C locale ("1234")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from triage_app.gui.i18n import install_language


@pytest.fixture(autouse=True)
def english(qapp: QApplication) -> Iterator[None]:
    install_language(qapp, "en")
    yield
