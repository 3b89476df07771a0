"""Errors: JSONHealError is a ValueError with kind, line, column and offset."""

import pytest

import jsonheal


def test_strict_error_names_line_column_and_offset():
    text = 'Ça: {\n  "a": 1,\n  "b": [1 2]\n}'
    body = text[text.index("{") :]
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair(body, strict=True)
    err = e.value
    assert isinstance(err, ValueError)
    assert err.kind == "syntax"
    assert (err.line, err.column) == (3, 11)
    assert body[err.offset] == "2"
    assert str(err).endswith("at line 3 column 11")


def test_offsets_count_characters_not_bytes():
    text = '{"é": "ü", "x": 1,,}'
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair(text, strict=True)
    assert text[e.value.offset] == ","
    assert e.value.column == e.value.offset + 1


def test_no_json():
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair("nothing to see")
    assert e.value.kind == "no_json"
    assert str(e.value) == "no JSON found"
    assert e.value.line is None and e.value.offset is None


def test_too_deep():
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair("[" * 10 + "1,", max_depth=5)
    assert e.value.kind == "too_deep"


def test_non_finite_and_duplicate_errors():
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair("[NaN]", non_finite="error")
    assert e.value.kind == "non_finite"
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair('{"a": 1, "a": 2}', duplicate_keys="error")
    assert e.value.kind == "duplicate_key"


def test_type_errors():
    for bad in (None, 1, 1.5, ["[]"], {"a": 1}):
        with pytest.raises(TypeError):
            jsonheal.repair(bad)
