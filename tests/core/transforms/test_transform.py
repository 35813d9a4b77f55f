"""What a transform is: its declaration is checked when it is built, and it names itself."""

from __future__ import annotations

from typing import Any

import pytest

from triage_app.core.transforms import Column, Transform

COLUMNS = (Column("id", "int"), Column("name", "text"), Column("updated_at", "text"))


def row(record: Any) -> tuple[Any, ...]:
    return (record["id"], record["name"], record["updated_at"])


def make(**overrides: Any) -> Transform:
    fields: dict[str, Any] = dict(
        name="thing", version=3, table="things", key="id", columns=COLUMNS, fn=row
    )
    fields.update(overrides)
    return Transform(**fields)


def test_ref_and_column_names() -> None:
    t = make()
    assert t.ref == "thing@3"
    assert t.column_names == ("id", "name", "updated_at")
    assert t.ordering is None and t.input_format == "jsonl" and t.fast is None


def test_a_valid_declaration_with_ordering_is_accepted() -> None:
    t = make(ordering="updated_at", input_format="csv")
    assert t.ordering == "updated_at"
    assert t.fn({"id": 1, "name": "a", "updated_at": "x"}) == (1, "a", "x")


def test_key_must_be_a_column() -> None:
    with pytest.raises(ValueError, match=r"thing@3: key 'missing' is not a column"):
        make(key="missing")


def test_ordering_must_be_a_column() -> None:
    with pytest.raises(ValueError, match=r"thing@3: ordering 'version' is not a column"):
        make(ordering="version")


@pytest.mark.parametrize(
    "table",
    ["", "1things", "my-things", "things; DROP TABLE x", "_things", "__x", "t" * 64, "tåble"],
)
def test_table_name_must_be_a_plain_identifier(table: str) -> None:
    with pytest.raises(ValueError, match="bad table or column name"):
        make(table=table)


@pytest.mark.parametrize("column", ["_batch_id", "_line", "_x", "has space", "a.b", "9lives"])
def test_column_names_must_be_plain_identifiers_not_starting_with_underscore(
    column: str,
) -> None:
    columns = (*COLUMNS, Column(column, "text"))
    with pytest.raises(ValueError, match=f"bad table or column name {column!r}"):
        make(columns=columns)


def test_a_63_character_name_is_the_longest_accepted() -> None:
    assert make(table="t" * 63).table == "t" * 63
    with pytest.raises(ValueError):
        make(table="t" * 64)


def test_a_bad_key_column_is_refused_even_when_it_is_the_key() -> None:
    columns = (Column("_id", "int"), Column("name", "text"))
    with pytest.raises(ValueError, match="bad table or column name '_id'"):
        make(columns=columns, key="_id")


def test_transforms_are_frozen() -> None:
    t = make()
    with pytest.raises(AttributeError):
        t.version = 4  # type: ignore[misc]
