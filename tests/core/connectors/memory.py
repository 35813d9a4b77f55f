"""A source and a sink held in memory: the import and re-drive contract without a server
(the broker's and the tables' own tests run against real ones)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from triage_app.core.connectors import OutsideLetter
from triage_app.core.deadletters import Parcel
from triage_app.core.errors import TriageError


@dataclass
class ListSource:
    """Letters in a list; ``acknowledge`` removes them, ``close`` gives the rest back."""

    letters: list[OutsideLetter]
    name: str = "memory"
    acked: list[str] = field(default_factory=list)
    fail_after: int | None = None  # raise as a lost connection after this many taken
    taken: int = 0
    _out: list[OutsideLetter] = field(default_factory=list)

    def take(self, most: int) -> Sequence[OutsideLetter]:
        if self.fail_after is not None and self.taken >= self.fail_after:
            raise TriageError("connection lost")
        got = [x for x in self.letters if x not in self._out][:most]
        self._out += got
        self.taken += len(got)
        return got

    def acknowledge(self, letters: Sequence[OutsideLetter]) -> None:
        for x in letters:
            self.letters.remove(x)
            self._out.remove(x)
            self.acked.append(x.identity)

    def close(self) -> None:
        self._out.clear()


@dataclass
class ListSink:
    name: str = "memory sink"
    refuse: dict[bytes, str] = field(default_factory=dict)  # payload -> why
    got: list[Parcel] = field(default_factory=list)

    def deliver(self, parcels: Sequence[Parcel]) -> dict[int, str]:
        out = {}
        for p in parcels:
            why = self.refuse.get(p.payload)
            if why:
                out[p.id] = why
            else:
                self.got.append(p)
        return out

    def close(self) -> None:
        pass
