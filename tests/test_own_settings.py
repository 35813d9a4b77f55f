"""No test reaches the user's settings (issue 20): the session's settings folder and config
home are temporary ones, for the windows tests build and the apps they start alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from triage_app.core.places import SETTINGS_DIR_ENV
from triage_app.gui.settings import Settings


def test_the_session_keeps_settings_in_a_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    temp = tmp_path_factory.getbasetemp().resolve()
    for name in (SETTINGS_DIR_ENV, "XDG_CONFIG_HOME"):
        assert Path(os.environ[name]).resolve().is_relative_to(temp), name
    kept = Path(Settings().file_name()).resolve()
    assert kept.is_relative_to(Path(os.environ[SETTINGS_DIR_ENV]).resolve())
