"""What a user reads about a database: ``redact_url`` and ``redact_text`` replace the password
of ``user:password@`` with ``***``, in a URL and anywhere in free text, and leave text
without credentials alone; ``refusal_message`` turns a failure the user can act on (a
TriageError, a real SQLAlchemy error, an OSError) into one line and answers None for a bug;
``user_message`` always has one line to show, a bug included, and never a password."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError

from triage_app.core.db import redact_url, refusal_message, user_message
from triage_app.core.db.messages import redact_text
from triage_app.core.errors import TriageError

SECRET = "s3cr3t-pw"


def real_operational_error() -> OperationalError:
    engine = create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELEC 1"))
    except OperationalError as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError("a bad statement must fail")


@pytest.mark.parametrize(
    ("url", "want"),
    [
        (
            f"postgresql://bob:{SECRET}@db.example:5432/wh",
            "postgresql://bob:***@db.example:5432/wh",
        ),
        (
            f"postgresql+psycopg://bob:{SECRET}@db.example/dl?sslmode=require",
            "postgresql+psycopg://bob:***@db.example/dl?sslmode=require",
        ),
    ],
)
def test_redact_url_hides_the_password(url: str, want: str) -> None:
    assert redact_url(url) == want


@pytest.mark.parametrize(
    "url", ["postgresql://bob@db.example/wh", "sqlite:////tmp/ws/dead_letter.db", "sqlite://"]
)
def test_redact_url_leaves_a_url_without_password_alone(url: str) -> None:
    assert redact_url(url) == url


def test_redact_url_falls_back_to_text_for_a_url_that_does_not_parse() -> None:
    bad = f"post gres://bob:{SECRET}@db.example/wh"
    assert redact_url(bad) == "post gres://bob:***@db.example/wh"


def test_redact_text_hides_every_password_in_free_text() -> None:
    message = (
        f"could not connect to postgresql+psycopg://bob:{SECRET}@db.example/wh; "
        f"the store at postgresql://ani:other-{SECRET}@10.0.0.2:5433/dl failed too"
    )
    redacted = redact_text(message)
    assert SECRET not in redacted
    assert "postgresql+psycopg://bob:***@db.example/wh" in redacted
    assert "postgresql://ani:***@10.0.0.2:5433/dl failed too" in redacted


def test_redact_text_keeps_text_without_credentials() -> None:
    plain = "qty tidak valid: -1 at 12:30 (see http://example.com/x, user@example.com)"
    assert redact_text(plain) == plain


def test_a_triage_error_is_its_message_with_the_password_hidden() -> None:
    exc = TriageError(f"cannot reach the warehouse at postgresql://bob:{SECRET}@h/wh")
    assert refusal_message(exc) == "cannot reach the warehouse at postgresql://bob:***@h/wh"


def test_a_real_sqlalchemy_error_is_one_database_line() -> None:
    message = refusal_message(real_operational_error())
    assert message == 'database error: near "SELEC": syntax error'


def test_a_sqlalchemy_error_without_a_driver_error_is_collapsed_and_bounded() -> None:
    exc = ArgumentError(f"first\n  second postgresql://bob:{SECRET}@h/wh " + "x" * 1000)
    assert isinstance(exc, SQLAlchemyError)
    message = refusal_message(exc)
    assert message is not None
    assert message.startswith("database error: first second postgresql://bob:***@h/wh x")
    assert "\n" not in message and SECRET not in message
    assert len(message) < 350


def test_an_os_error_is_its_reason(tmp_path: Path) -> None:
    with pytest.raises(OSError) as err:
        (tmp_path / "missing" / "orders.jsonl").open("rb")
    assert refusal_message(err.value) == "No such file or directory"
    assert refusal_message(OSError("disk on fire")) == "disk on fire"


@pytest.mark.parametrize(
    "exc", [KeyError("qty"), TypeError("unsupported operand"), ZeroDivisionError("x")]
)
def test_a_bug_is_not_a_refusal(exc: BaseException) -> None:
    assert refusal_message(exc) is None


def test_user_message_passes_refusals_through() -> None:
    exc = TriageError(f"bad warehouse URL: post gres://bob:{SECRET}@h/wh")
    assert (
        user_message(exc) == refusal_message(exc) == "bad warehouse URL: post gres://bob:***@h/wh"
    )
    assert user_message(real_operational_error()) == 'database error: near "SELEC": syntax error'


def test_user_message_names_a_bug_without_its_password() -> None:
    assert user_message(KeyError("qty")) == "unexpected error (KeyError): 'qty'"
    message = user_message(RuntimeError(f"lost postgresql://bob:{SECRET}@h/wh " + "y" * 1000))
    assert message.startswith("unexpected error (RuntimeError): lost postgresql://bob:***@h/wh")
    assert SECRET not in message
    assert len(message) < 350


@pytest.mark.parametrize(
    "text",
    [
        "postgresql:/bob:s3cret@h/db",  # a slash short of a URL
        "cannot reach postgresql://bob:s3cret@h/db: refused",
        "postgresql+psycopg://bob:s3cret@h:5432/db",
    ],
)
def test_a_password_is_hidden_however_the_url_is_typed(text: str) -> None:
    assert "s3cret" not in redact_text(text)
    assert "bob" in redact_text(text)


def test_an_os_error_naming_a_url_keeps_its_password_hidden() -> None:
    exc = ConnectionRefusedError("no route to postgresql://bob:s3cret@h/db")
    assert "s3cret" not in (refusal_message(exc) or "")
    assert "s3cret" not in user_message(exc)
