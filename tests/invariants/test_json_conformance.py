"""JSONTestSuite in full: the JSONL reader and ``edit`` accept every y_ case, refuse every
n_ case, and never crash on any case (i_ cases may go either way)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from tests.support import JsonTestSuite
from triage_app.cli import main as cli_main
from triage_app.core.batch import run_batch
from triage_app.core.db import Workspace, open_workspace
from triage_app.core.deadletters import list_dead_letters
from triage_app.core.transforms import Column, Registry, Transform


def _any_json(rec: Any) -> tuple[Any, ...]:
    text = repr(rec)
    return (hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), text[:200])


REGISTRY = Registry()
REGISTRY.register(
    Transform("anyjson", 1, "anyjson", "k", (Column("k", "text"), Column("v", "text")), _any_json)
)


def as_jsonl(case: Path) -> bytes:
    """The case as JSONL. A y_ case's raw newlines are insignificant whitespace, which JSONL
    cannot carry inside a record: they become spaces. Other cases go in as they are."""
    body = case.read_bytes()
    if case.name.startswith("y_"):
        body = body.replace(b"\r", b" ").replace(b"\n", b" ")
    return body + b"\n"


def test_the_corpus_is_all_there(json_test_suite: JsonTestSuite) -> None:
    cases = json_test_suite.cases
    assert len(cases) == 318
    assert sum(c.name.startswith("y_") for c in cases) == 95
    assert sum(c.name.startswith("n_") for c in cases) == 188


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    return open_workspace(tmp_path_factory.mktemp("conformance"))


def test_jsonl_reader(json_test_suite: JsonTestSuite, ws: Workspace, tmp_path: Path) -> None:
    """Every case as a one-file batch: what is wrong is listed, case by case."""
    wrong = [
        f"{case.name}: {problem}"
        for case in json_test_suite.cases
        if (problem := _read_as_jsonl(case, ws, tmp_path)) is not None
    ]
    assert wrong == []


def _read_as_jsonl(case: Path, ws: Workspace, tmp_path: Path) -> str | None:
    src = tmp_path / (case.stem + ".jsonl")
    src.write_bytes(as_jsonl(case))
    s = run_batch(ws, src, "anyjson@1", registry=REGISTRY)
    counts = (s.rows, s.loaded, s.superseded, s.quarantined)
    if s.rows != s.loaded + s.superseded + s.quarantined:
        return f"rows do not add up: {counts}"
    if case.name.startswith("y_"):
        if (s.rows, s.loaded + s.superseded, s.quarantined) != (1, 1, 0):
            return f"valid JSON not loaded: {counts}"
    elif case.name.startswith("n_"):
        body = case.read_bytes().removeprefix(b"\xef\xbb\xbf").strip(b" \t\r\n")
        if b"\n" in body:
            # JSONL splits it into lines, and a line may be valid on its own (["a",\n4\n,1,
            # has a valid 4); the document as a whole is still refused.
            if s.quarantined < 1:
                return f"nothing of the invalid document quarantined: {counts}"
        # Every record of the refused input is kept as evidence, byte-exact.
        elif s.loaded + s.superseded != 0 or not s.quarantined == s.rows == (1 if body else 0):
            return f"invalid JSON not quarantined whole: {counts}"
    return None


@pytest.mark.slow
def test_edit_accepts_y_refuses_n(
    json_test_suite: JsonTestSuite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the CLI's own ``edit --payload-file``, in process."""
    ws_dir = tmp_path / "ws"
    batch = tmp_path / "one.jsonl"
    batch.write_text("{broken\n")
    base = ["--workspace", str(ws_dir)]
    assert cli_main([*base, "run", str(batch), "--transform", "pesanan@1"]) == 0
    with open_workspace(ws_dir) as ws:
        (dl,) = list_dead_letters(ws)
    wrong: list[str] = []
    for case in json_test_suite.cases:
        code = cli_main([*base, "edit", str(dl.id), "--payload-file", str(case)])
        err = capsys.readouterr().err
        if code not in (0, 2) or "Traceback" in err:
            wrong.append(f"{case.name}: crashed ({code})")
        elif code == 2 and (err.count("\n") != 1 or not err.startswith("triage-app: ")):
            wrong.append(f"{case.name}: refusal is not one line: {err!r}")
        elif case.name.startswith("y_") and code != 0 and "unchanged" not in err:
            wrong.append(f"{case.name}: valid JSON refused: {err.strip()}")
        elif case.name.startswith("n_") and code == 0:
            wrong.append(f"{case.name}: invalid JSON accepted")
    assert wrong == []
