"""The progress contract between long work in core and whoever shows it.

Core functions take a ``Progress``; the CLI passes a silent one, the GUI adapts it to
signals. Cancellation is polled at chunk boundaries, where the state is consistent.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def update(self, done: int, total: int, rows: int = 0) -> None:
        """``done`` of ``total`` units (bytes for a batch, dead letters for a re-drive)."""

    def cancelled(self) -> bool:
        """True once the user asked to stop; checked per chunk."""


class NoProgress:
    def update(self, done: int, total: int, rows: int = 0) -> None:
        pass

    def cancelled(self) -> bool:
        return False
