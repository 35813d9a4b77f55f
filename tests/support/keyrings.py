"""Keyring backends for tests: an in-memory one (what a desktop's Secret Service or Keychain
does) and a context that installs a backend for one test, the user's own never touched."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import keyring
from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    """A keyring in a dict."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        del self.items[(service, username)]


@contextmanager
def installed(backend: KeyringBackend) -> Iterator[KeyringBackend]:
    before = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(before)
