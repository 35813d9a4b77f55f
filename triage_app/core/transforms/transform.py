"""A transform: a named, versioned, pure function from one parsed record to one warehouse
row (a tuple in the order of its declared columns), or an exception, and the table it
writes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from triage_app.core.messages import _
from triage_app.core.retry import Ladder

ColumnType = Literal["int", "text", "real"]
InputFormat = Literal["jsonl", "csv"]
# A check across a batch's rows (``Transform.check_whole``): given every healthy row as
# (line, row), the lines that fail it, each with why. Pure, like ``fn``.
WholeCheck = Callable[[Sequence[tuple[int, tuple[Any, ...]]]], list[tuple[int, str]]]


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType


@dataclass(frozen=True)
class Transform:
    """A named, versioned transform and the warehouse table it writes."""

    name: str
    version: int
    table: str
    key: str
    columns: tuple[Column, ...]
    fn: Callable[[Any], tuple[Any, ...]]
    ordering: str | None = None  # column whose larger value wins (newest wins)
    input_format: InputFormat = "jsonl"
    # One line on what it is for, in English: marked ``N_`` where a built-in is defined and
    # shown through ``messages._`` (a plugin's, not in the catalogue, shows as written).
    description: str = ""
    # Optional: a raw record's bytes straight to its row, for speed. It may raise anything
    # for any record, which means "ask fn": fn decides every failure and its evidence.
    # Wherever it returns, it must return exactly fn(orjson.loads(raw)) (JSONL), or for CSV
    # fn(decode_csv(raw, column_names)): a CSV fast path assumes the header is the columns
    # in order, and is used only on a file whose header is.
    fast: Callable[[bytes], tuple[Any, ...]] | None = None
    # All or nothing (issue 25): a batch through an atomic transform loads nothing until
    # every row of it passes, ``fn`` and ``check_whole`` both; its healthy rows wait with
    # the batch (``held_rows``) and load in one warehouse transaction. For records that
    # only mean something together, such as the lines of a journal posting.
    atomic: bool = False
    # Optional, atomic transforms only: a check over the batch's rows together (a journal
    # balances only across its lines). Each line it names becomes a data dead letter.
    check_whole: WholeCheck | None = None
    # The fields of a record that hold personal data (issue 27, UU PDP): a customer's name,
    # phone, address, national id. Shown masked (``S•••``) wherever a dead letter leaves
    # the store for a person (core/masking.py); revealed only by an audited action.
    personal_fields: tuple[str, ...] = ()
    # Optional: the retry ladder of this version's transient dead letters (issue 27), e.g.
    # ``Ladder.parse("1m,10m")``; None: the workspace's (``ladder set``), else 5m,30m,2h.
    retry_ladder: Ladder | None = None

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def __post_init__(self) -> None:
        names = self.column_names
        # A plugin's mistakes: the registry reports them, one line each.
        if self.key not in names:
            raise ValueError(
                _("{ref}: key {key} is not a column").format(ref=self.ref, key=repr(self.key))
            )
        if self.ordering is not None and self.ordering not in names:
            raise ValueError(
                _("{ref}: ordering {column} is not a column").format(
                    ref=self.ref, column=repr(self.ordering)
                )
            )
        if self.check_whole is not None and not self.atomic:
            raise ValueError(
                _("{ref}: a whole-batch check needs an atomic transform").format(ref=self.ref)
            )
        for n in (self.table, *names):
            if not _NAME.fullmatch(n) or n.startswith("_"):
                raise ValueError(
                    _("{ref}: bad table or column name {name}").format(ref=self.ref, name=repr(n))
                )


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
