"""Passwords apart from URLs: split into the hidden URL and the password, joined back, and
kept in the system keyring where there is one (an in-memory backend here), never where
there is none (keyring's fail backend)."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backends import fail
from sqlalchemy.engine import make_url

from tests.support.keyrings import MemoryKeyring, installed
from triage_app.core.db import (
    NO_KEYRING,
    complete_url,
    forget_password,
    has_hidden_password,
    join_password,
    keyring_unavailable,
    recall_password,
    redact_url,
    remember_password,
    split_password,
)
from triage_app.core.db.messages import as_url, redact_text
from triage_app.core.db.secrets import SERVICE, split_secrets

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


# Issue 21: a password in a URL's query, libpq's sslpassword, and a keyword string.
QUERY_URL = "postgresql+psycopg://steward@db.example/triage?password=s3cr%40t&sslmode=require"


@pytest.mark.parametrize(
    ("given", "hidden"),
    [
        (QUERY_URL, "postgresql+psycopg://steward@db.example/triage?password=***&sslmode=require"),
        (
            "host=db.example user=steward password='s3cr@t x' dbname=triage",
            "postgresql+psycopg://steward:***@db.example/triage",
        ),
        (
            "postgresql://db.example/triage?PASSWORD=s3cr%40t",
            "postgresql://db.example/triage?PASSWORD=***",
        ),
    ],
)
def test_every_spelling_of_a_password_is_split_off(given: str, hidden: str) -> None:
    assert redact_url(given) == hidden
    got_hidden, password = split_password(given)
    assert got_hidden == hidden and password in ("s3cr@t", "s3cr@t x")
    assert has_hidden_password(hidden)
    # Joined back, it connects as the given text does.
    assert make_url(join_password(hidden, password)) == make_url(as_url(given))


def test_sslpassword_is_kept_beside_the_password(memory_keyring: MemoryKeyring) -> None:
    url = "postgresql+psycopg://steward:pw1@db.example/triage?sslpassword=pw2&sslmode=require"
    hidden, found = split_secrets(url)
    assert found == {"password": "pw1", "sslpassword": "pw2"}
    assert "pw1" not in hidden and "pw2" not in hidden and "sslpassword=***" in hidden
    assert remember_password(url) is True
    assert memory_keyring.items == {
        (SERVICE, hidden): "pw1",
        (SERVICE, f"{hidden}#sslpassword"): "pw2",
    }
    # The dialog's field gives the password; the keyring the passphrase.
    assert make_url(complete_url(hidden, "pw1")) == make_url(url)
    forget_password(hidden)
    assert memory_keyring.items == {}
    # Nothing kept for it: the hidden passphrase is taken out, never sent as ***.
    assert "sslpassword" not in complete_url(hidden, "pw1")


def test_text_that_quotes_a_connection_hides_every_password() -> None:
    said = redact_text(
        "at postgresql://u@h/db?sslmode=x&password=abc&y=1, postgresql://u:def@h/db, "
        "host=h password=ghi dbname=d (sslpassword='j k l') password authentication failed"
    )
    for secret in ("abc", "def", "ghi", "j k l"):
        assert secret not in said
    assert "password=***&y=1" in said and "u:***@h" in said
    assert said.endswith("password authentication failed")
