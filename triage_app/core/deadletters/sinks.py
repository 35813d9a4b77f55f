"""Where a re-drive delivers what it re-drives, when not to the warehouse: a sink for dead
letters another pipeline made (a broker's exchange, an outside table; core/connectors).

A re-drive claims, transforms (when a version is chosen: validate before delivering) and
settles as always; in between, the sink takes each row's parcel and says which it did not
confirm. A confirmed parcel resolves its row; an unconfirmed one leaves the row open with
why (``settling.undeliver``). A sink is at least once: a process killed between a confirm
and the settle leaves the row open, and the next re-drive delivers it again, under the same
identity, so that the receiver can tell (a broker's ``message_id``, a table's key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Parcel:
    """One dead letter on its way to a sink."""

    id: int  # the dead letter
    payload: bytes  # its working payload: the original, or as the steward fixed it
    kind: str  # the payload's PayloadKind
    row: tuple[Any, ...] | None  # what the chosen transform made of it; None: no transform


class Sink(Protocol):
    """Takes parcels and confirms them (``deliver``); ``name`` says where, for summaries."""

    name: str

    def deliver(self, parcels: Sequence[Parcel]) -> dict[int, str]:
        """Deliver ``parcels`` in order; the ones not confirmed, by dead letter id, each with
        why in one line (a nack, a lost connection, a refused row). Raises only for a
        failure that says nothing was delivered (TriageError: unreachable, refused login)."""
        ...

    def close(self) -> None: ...
