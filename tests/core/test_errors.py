"""Classification and signatures: who must act, and which dead letters share a cause."""

from __future__ import annotations

import json

import orjson
import pytest

from triage_app.core.errors import DataError, TransientError, classify, error_message, signature
from triage_app.core.vocabulary import ErrorClass


@pytest.mark.parametrize(
    ("exc", "cls"),
    [
        (DataError("qty tidak valid: -1"), ErrorClass.DATA),
        (json.JSONDecodeError("x", "doc", 0), ErrorClass.DATA),
        (orjson.JSONDecodeError("x", "doc", 0), ErrorClass.DATA),
        (KeyError("qty"), ErrorClass.DATA),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), ErrorClass.DATA),
        (TypeError("unsupported operand"), ErrorClass.CODE),
        (AttributeError("x"), ErrorClass.CODE),
        (ZeroDivisionError("x"), ErrorClass.CODE),
        (TransientError("busy"), ErrorClass.TRANSIENT),
        (TimeoutError("slow"), ErrorClass.TRANSIENT),
    ],
)
def test_classify(exc: BaseException, cls: ErrorClass) -> None:
    assert classify(exc) is cls


@pytest.mark.parametrize(
    ("message", "sig"),
    [
        ("ValueError: qty tidak valid: -1", "ValueError: qty tidak valid: <n>"),
        ("DataError: qty tidak valid: 'abc'", "DataError: qty tidak valid: <s>"),
        (
            "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
            "TypeError: unsupported operand type(s) for -: 'int' and 'NoneType'",
        ),
        (
            "JSONDecodeError: unexpected end of data: line 1 column 72 (char 71)",
            "JSONDecodeError: unexpected end of data: line <n> column <n> (char <n>)",
        ),
        ("X: order 0a3fdeadbeef99 failed at 1.5e3", "X: order <hex> failed at <n>"),
    ],
)
def test_signature_masks_values(message: str, sig: str) -> None:
    assert signature(message) == sig


def test_same_cause_same_signature() -> None:
    a = signature(error_message(DataError("qty tidak valid: -1")))
    b = signature(error_message(DataError("qty tidak valid: -250")))
    assert a == b


def test_error_message_is_one_bounded_line() -> None:
    msg = error_message(ValueError("line one\nline two\t" + "x" * 10_000))
    assert "\n" not in msg and msg.startswith("ValueError: line one line two")
    assert len(msg) < 600
    assert error_message(KeyError("qty")) == "KeyError: 'qty'"
