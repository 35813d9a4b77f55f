"""Where the shipped resources (demo data, icons) are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path


def resources_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    installed = here / "_resources"  # wheels map the top-level resources/ here
    if installed.is_dir():
        return installed
    return here.parent / "resources"
