"""Where things live: the shipped resources hold the demo batches and the icons; the default
workspace is a folder named ``workspace`` inside the platform's data folder for
``triage-desk``; a named workspace folder wins over ``TRIAGE_WORKSPACE``, which wins over
that default, and ``~`` is expanded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from triage_app.core.places import (
    APP_NAME,
    default_workspace_dir,
    resources_dir,
    user_data_dir,
    workspace_folder,
)


def test_resources_hold_the_demo_data_and_the_icons() -> None:
    res = resources_dir()
    assert res.is_absolute()
    assert (res / "demo").is_dir() and (res / "icons").is_dir()
    assert (res / "demo" / "pesanan_2026-01-12.jsonl").is_file()
    assert any((res / "icons").iterdir())


def test_the_default_workspace_is_inside_the_user_data_folder() -> None:
    data = user_data_dir()
    assert APP_NAME == "triage-desk" and APP_NAME in data.parts
    assert default_workspace_dir() == data / "workspace"
    assert default_workspace_dir().parent == data


def test_the_user_data_folder_follows_the_platform_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform.startswith("linux"):
        assert user_data_dir() == tmp_path / "data" / APP_NAME
    assert default_workspace_dir().is_relative_to(user_data_dir())
    assert not user_data_dir().exists()  # only whoever writes there creates it


def test_the_workspace_folder_argument_wins_over_the_environment(tmp_path: Path) -> None:
    env = {"TRIAGE_WORKSPACE": str(tmp_path / "from-env")}
    assert workspace_folder(tmp_path / "from-arg", env) == tmp_path / "from-arg"
    assert workspace_folder(None, env) == tmp_path / "from-env"
    assert workspace_folder(None, {}) == default_workspace_dir()
    assert workspace_folder("", {}) == default_workspace_dir()


def test_the_workspace_folder_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert workspace_folder("~/ws", {}) == tmp_path / "ws"
    assert workspace_folder(None, {"TRIAGE_WORKSPACE": "~/env-ws"}) == tmp_path / "env-ws"
