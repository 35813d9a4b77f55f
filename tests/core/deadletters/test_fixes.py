"""Fixes on one payload (issue 13): each step of the form and JSON Patch, what each does
where it applies, and why it does not where it does not (never a silent skip)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from triage_app.core.deadletters import Fix, NotApplicable, Step, fix_from_spec, read_patch
from triage_app.core.deadletters.fixes import fixed_payload, payload_value, what_changed
from triage_app.core.errors import TriageError

ORDER = {"pesanan_id": 8, "qty": "2", "status": "lunas", "nama": "  Budi ", "diskon": None}


def fixed(fix: Fix, value: Any) -> Any:
    return fix.apply(value)


def why(fix: Fix, value: Any) -> str:
    with pytest.raises(NotApplicable) as caught:
        fix.apply(value)
    return str(caught.value)


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        (Step("set", "qty", 1), {**ORDER, "qty": 1}),
        (Step("set", "kanal", "web"), {**ORDER, "kanal": "web"}),
        (Step("default", "diskon", 0), {**ORDER, "diskon": 0}),
        (Step("default", "ongkir", 0), {**ORDER, "ongkir": 0}),
        (Step("trim", "nama"), {**ORDER, "nama": "Budi"}),
        (Step("to_number", "qty"), {**ORDER, "qty": 2}),
        (Step("map", "status", {"lunas": "paid"}), {**ORDER, "status": "paid"}),
    ],
)
def test_each_step_where_it_applies(step: Step, expected: dict[str, Any]) -> None:
    assert fixed(Fix(steps=(step,)), ORDER) == expected


def test_rename_moves_the_value_and_keeps_the_others() -> None:
    out = fixed(Fix(steps=(Step("rename", "nama", "pelanggan"),)), ORDER)
    assert "nama" not in out and out["pelanggan"] == "  Budi "
    assert {k: v for k, v in out.items() if k != "pelanggan"} == {
        k: v for k, v in ORDER.items() if k != "nama"
    }


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        (Step("default", "pesanan_id", 0), "pesanan_id already has a value"),
        (Step("rename", "alamat", "address"), "there is no alamat"),
        (Step("rename", "nama", "qty"), "qty is there already"),
        (Step("trim", "pesanan_id"), "pesanan_id is not text"),
        (Step("trim", "status"), "status has nothing to trim"),
        (Step("to_number", "pesanan_id"), "pesanan_id is a number already"),
        (Step("to_number", "status"), "status is not a number: 'lunas'"),
        (
            Step("map", "status", {"belum": "unpaid"}),
            'status is "lunas", none of the values mapped',
        ),
        (Step("set", "qty", "2"), "the fix changes nothing here"),
    ],
)
def test_each_step_says_why_it_does_not_apply(step: Step, reason: str) -> None:
    assert why(Fix(steps=(step,)), ORDER) == reason


def test_steps_apply_in_order_and_one_that_cannot_apply_stops_the_row() -> None:
    fix = Fix(steps=(Step("rename", "nama", "pelanggan"), Step("trim", "pelanggan")))
    assert fixed(fix, ORDER)["pelanggan"] == "Budi"
    blocked = Fix(steps=(Step("trim", "nama"), Step("default", "qty", 1)))
    assert why(blocked, ORDER) == "qty already has a value"


def test_a_pointer_names_a_nested_field_and_a_name_with_a_slash_is_one_key() -> None:
    nested = {"alamat": {"kota": " Solo"}, "a/b": 1}
    assert fixed(Fix(steps=(Step("trim", "/alamat/kota"),)), nested)["alamat"] == {"kota": "Solo"}
    assert fixed(Fix(steps=(Step("set", "a/b", 2),)), nested)["a/b"] == 2


def test_json_patch_every_operation() -> None:
    patch = read_patch(
        orjson.dumps(
            [
                {"op": "test", "path": "/status", "value": "lunas"},
                {"op": "replace", "path": "/status", "value": "paid"},
                {"op": "copy", "from": "/pesanan_id", "path": "/order_id"},
                {"op": "move", "from": "/nama", "path": "/pelanggan"},
                {"op": "remove", "path": "/diskon"},
                {"op": "add", "path": "/tags", "value": ["late"]},
            ]
        ).decode()
    )
    out = fixed(Fix(patch=patch), ORDER)
    assert out == {
        "pesanan_id": 8,
        "qty": "2",
        "status": "paid",
        "order_id": 8,
        "pelanggan": "  Budi ",
        "tags": ["late"],
    }


def test_a_failed_test_or_a_missing_path_is_a_reason_not_an_error() -> None:
    failing = Fix(patch=({"op": "test", "path": "/status", "value": "belum"},))
    assert why(failing, ORDER).startswith("test failed:")
    missing = Fix(patch=({"op": "remove", "path": "/alamat"},))
    assert why(missing, ORDER).startswith("the patch does not apply:")
    scalar = Fix(patch=({"op": "add", "path": "/a/b", "value": 1},))
    assert why(scalar, [1, 2]).startswith("the patch does not apply:")


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"op": "add"}',
        '[{"op": "frobnicate", "path": "/a"}]',
        '[{"op": "add", "path": "/a"}]',
    ],
)
def test_a_bad_patch_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(TriageError) as caught:
        read_patch(text)
    assert "\n" not in str(caught.value)


def test_a_bad_step_is_refused_in_one_line() -> None:
    for bad in (
        lambda: Step("frob", "a"),
        lambda: Step("set", ""),
        lambda: Step("rename", "a", ""),
        lambda: Step("map", "a", "paid"),
        lambda: Fix(),
    ):
        with pytest.raises(TriageError):
            bad()


def test_a_fix_survives_its_spec_and_has_words_for_the_history() -> None:
    fix = Fix(steps=(Step("default", "diskon", 0), Step("map", "status", {"lunas": "paid"})))
    again = fix_from_spec(fix.spec(), fix.description)
    assert again == fix
    assert fix.description == "default diskon = 0; map status: lunas -> paid"
    patch = Fix(patch=({"op": "remove", "path": "/diskon"},))
    assert fix_from_spec(patch.spec(), patch.description) == patch


def test_payloads_of_every_kind() -> None:
    fix = Fix(steps=(Step("default", "diskon", 0),))
    # A JSON line: parsed, fixed, written compact.
    out = fixed_payload(fix, b'{"a": 1, "diskon": null}', "jsonl", None)
    assert out == b'{"a":1,"diskon":0}'
    # A CSV row: patched as its header -> value object, as a person edits it.
    header = b"order_id,pelanggan,status,total,updated_at"
    row = b"7,Ani,lunas,1500,2026-01-09T08:00:00"
    assert payload_value(row, "csv", header)["status"] == "lunas"
    mapped = fixed_payload(
        Fix(steps=(Step("map", "status", {"lunas": "paid"}),)), row, "csv", header
    )
    assert orjson.loads(mapped)["status"] == "paid"
    # Not JSON: the reason, with where the JSON broke.
    with pytest.raises(NotApplicable, match="not valid JSON: unexpected end of data"):
        fixed_payload(fix, b'{"a": 1, ', "jsonl", None)
    # A CSV row must stay an object.
    with pytest.raises(NotApplicable, match="must stay an object"):
        fixed_payload(Fix(patch=({"op": "replace", "path": "", "value": 1},)), row, "csv", header)


def test_what_changed_says_the_fix_on_a_row_in_a_line() -> None:
    before = orjson.dumps(ORDER)
    fix = Fix(steps=(Step("default", "diskon", 0), Step("rename", "nama", "pelanggan")))
    after = fixed_payload(fix, before, "jsonl", None)
    assert what_changed(before, after, "jsonl", None) == (
        'diskon: null -> 0; + pelanggan: "  Budi "; - nama'
    )
    long_text = Fix(steps=(Step("set", "nama", "x" * 80),))
    said = what_changed(before, fixed_payload(long_text, before, "jsonl", None), "jsonl", None)
    assert said.startswith('nama: "  Budi " -> "xxx') and said.endswith("…")


# -- RFC 6902, checked against the jsonpatch package ------------------------------------------
def _json() -> Any:
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["a", "b", "", "~/"])
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["a", "b", "c", "a/b", "m~n", "0"]), inner, max_size=3),
        ),
        max_leaves=8,
    )


def _pointers(doc: Any, prefix: str = "") -> list[str]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _pointers(v, f"{prefix}/{k.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _pointers(v, f"{prefix}/{i}")
        out.append(f"{prefix}/-")
    return out


@pytest.mark.slow
def test_apply_patch_agrees_with_the_jsonpatch_package() -> None:
    import copy

    import jsonpatch
    import jsonpointer
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from triage_app.core.deadletters.fixes import apply_patch

    @st.composite
    def cases(draw: Any) -> tuple[Any, list[dict[str, Any]]]:
        doc = draw(_json())
        pointers = [*_pointers(doc), "/zz", "/a/zz", "/0/a", "/9"]
        ops = []
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]))
            op: dict[str, Any] = {"op": kind, "path": draw(st.sampled_from(pointers))}
            if kind in ("add", "replace", "test"):
                op["value"] = draw(_json())
            if kind in ("move", "copy"):
                op["from"] = draw(st.sampled_from(pointers))
            ops.append(op)
        return doc, ops

    @settings(max_examples=600, deadline=None)
    @given(cases())
    def agree(case: tuple[Any, list[dict[str, Any]]]) -> None:
        doc, ops = case
        kept = copy.deepcopy(doc)
        try:
            expected = jsonpatch.apply_patch(doc, ops, in_place=False)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError):
            expected = NotApplicable
        try:
            got = apply_patch(doc, ops)
        except NotApplicable:
            got = NotApplicable
        assert orjson.dumps(doc) == orjson.dumps(kept)  # the given document is untouched
        if expected is NotApplicable or got is NotApplicable:
            assert got is expected, (doc, ops, got)
        else:
            assert orjson.dumps(got) == orjson.dumps(expected), (doc, ops)

    agree()
