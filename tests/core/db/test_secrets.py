"""Passwords apart from URLs: split into the hidden URL and the password, joined back, and
kept in the system keyring where there is one (an in-memory backend here), never where
there is none (keyring's fail backend)."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backends import fail

from tests.support.keyrings import MemoryKeyring, installed
from triage_app.core.db import (
    NO_KEYRING,
    forget_password,
    has_hidden_password,
    join_password,
    keyring_unavailable,
    recall_password,
    remember_password,
    split_password,
)
from triage_app.core.db.secrets import SERVICE

URL = "postgresql+psycopg://steward:s3cr%40t@db.example:5432/triage?sslmode=require"


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    with installed(MemoryKeyring()) as kr:
        assert isinstance(kr, MemoryKeyring)
        yield kr


@pytest.fixture
def no_keyring() -> Iterator[None]:
    with installed(fail.Keyring()):
        yield


def test_split_and_join() -> None:
    hidden, password = split_password(URL)
    assert password == "s3cr@t"
    assert hidden == "postgresql+psycopg://steward:***@db.example:5432/triage?sslmode=require"
    assert has_hidden_password(hidden) and not has_hidden_password(URL)
    assert join_password(hidden, password) == URL
    # No password to put back: the URL carries none, rather than a literal ***.
    assert join_password(hidden, None) == (
        "postgresql+psycopg://steward@db.example:5432/triage?sslmode=require"
    )
    # A password typed into the URL itself wins over the field.
    assert join_password(URL, "other") == URL


@pytest.mark.parametrize(
    "url", ["sqlite:////tmp/x/dead_letter.db", "postgresql://steward@db/triage", "not a url", ""]
)
def test_urls_without_a_password_pass_through(url: str) -> None:
    hidden, password = split_password(url)
    assert password is None
    assert join_password(hidden, None) == url


def test_with_a_keyring_the_password_is_kept_under_the_hidden_url(
    memory_keyring: MemoryKeyring,
) -> None:
    assert keyring_unavailable() is None
    assert remember_password(URL) is True
    hidden, _ = split_password(URL)
    assert memory_keyring.items == {(SERVICE, hidden): "s3cr@t"}
    assert recall_password(hidden) == "s3cr@t"
    assert recall_password(URL) == "s3cr@t"
    assert remember_password("postgresql://steward@db/triage") is False  # none to keep
    forget_password(hidden)
    assert recall_password(hidden) is None
    forget_password(hidden)  # forgetting twice is fine


def test_without_a_keyring_nothing_is_kept_and_it_says_why(no_keyring: None) -> None:
    assert (
        keyring_unavailable() == NO_KEYRING == ("no system keyring: the password is not remembered")
    )
    assert remember_password(URL) is False
    assert recall_password(URL) is None
    forget_password(URL)  # no error


def test_a_refusing_keyring_counts_as_none(memory_keyring: MemoryKeyring) -> None:
    def refuse(*_a: object) -> None:
        raise keyring.errors.PasswordSetError("locked")

    memory_keyring.set_password = refuse  # type: ignore[method-assign]
    assert remember_password(URL) is False
