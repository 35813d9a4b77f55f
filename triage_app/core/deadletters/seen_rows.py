"""The rows a steward was shown, each at the version shown: what a confirmed action acts on.

A preview (a re-drive's dry run) names the rows it covered; the action that follows acts on
exactly those, and leaves out any that changed since (a row another steward edited is not
the row that was previewed). Kept as two machine-word arrays rather than a dict: a preview of
a million rows holds 16 MB here, not the ~100 MB of a dict of Python ints.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True, eq=False)
class SeenRows:
    """Ids in the order a dry run read them (by id), and the version each was seen at."""

    ids: array[int] = field(default_factory=lambda: array("q"))
    versions: array[int] = field(default_factory=lambda: array("q"))

    def __len__(self) -> int:
        return len(self.ids)

    def __bool__(self) -> bool:
        return len(self.ids) > 0

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids)

    def first(self, n: int) -> list[int]:
        return list(self.ids[:n])

    def versions_of(self, start: int, stop: int) -> dict[int, int]:
        """Id -> version for the rows ``start:stop`` (a re-drive's chunk)."""
        return dict(zip(self.ids[start:stop], self.versions[start:stop], strict=True))


class SeenRowsBuilder:
    """Collects (id, version) pairs as a dry run reads its rows."""

    def __init__(self) -> None:
        self._ids: array[int] = array("q")
        self._versions: array[int] = array("q")

    def add(self, dl_id: int, version: int) -> None:
        self._ids.append(dl_id)
        self._versions.append(version)

    def build(self) -> SeenRows:
        return SeenRows(self._ids, self._versions)
