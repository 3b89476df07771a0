"""The json_repair drop-in contract: names, parameters, defaults and return shapes."""

import inspect
import io
import json
import math

import pytest

import jsonheal
import jsonheal as json_repair

# json_repair 0.64's public signatures (parameter name, default), the contract callers rely
# on when they write `import jsonheal as json_repair`.
EMPTY = inspect.Parameter.empty
SIGNATURES = {
    "repair_json": [
        ("json_str", ""),
        ("return_objects", False),
        ("skip_json_loads", False),
        ("logging", False),
        ("json_fd", None),
        ("chunk_length", 0),
        ("stream_stable", False),
        ("strict", False),
        ("schema", None),
        ("schema_repair_mode", "standard"),
        ("json_dumps_args", EMPTY),
    ],
    "loads": [
        ("json_str", EMPTY),
        ("skip_json_loads", False),
        ("logging", False),
        ("stream_stable", False),
        ("strict", False),
        ("schema", None),
        ("schema_repair_mode", "standard"),
    ],
    "load": [
        ("fd", EMPTY),
        ("skip_json_loads", False),
        ("logging", False),
        ("chunk_length", 0),
        ("strict", False),
        ("schema", None),
        ("schema_repair_mode", "standard"),
    ],
    "from_file": [
        ("filename", EMPTY),
        ("skip_json_loads", False),
        ("logging", False),
        ("chunk_length", 0),
        ("strict", False),
        ("schema", None),
        ("schema_repair_mode", "standard"),
    ],
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_match_json_repair(name):
    params = inspect.signature(getattr(jsonheal, name)).parameters.values()
    got = [(p.name, p.default) for p in params]
    want = SIGNATURES[name]
    if name == "repair_json":
        # The Rust signature spells the "" default as None (a str default cannot be a
        # Python object there); both mean an empty input.
        assert got[0] == ("json_str", None)
        assert jsonheal.repair_json() == ""
        got[0] = ("json_str", "")
    assert got == want


def test_repair_json_returns_json_dumps_text():
    assert json_repair.repair_json("{'a': 1, 'b': [1, 2,]}") == '{"a": 1, "b": [1, 2]}'
    assert json_repair.repair_json('{"a": "é"}') == '{"a": "\\u00e9"}'
    assert json_repair.repair_json('{"a": "é"}', ensure_ascii=False) == '{"a": "é"}'
    assert json_repair.repair_json("[1, 2", indent=2) == "[\n  1,\n  2\n]"
    assert json_repair.repair_json("{b: 1, a: 2}", sort_keys=True) == '{"a": 2, "b": 1}'


def test_valid_json_comes_back_as_json_loads_reads_it():
    docs = [
        '{"a": 1, "b": [true, false, null], "c": {"d": "e"}}',
        '{"z": 1, "a": 2, "m": 3}',
        "[1.5, -0.0, 1e400, 123456789012345678901234567890]",
        '"just a string"',
        '{"a": NaN, "b": Infinity}',
        '{"a": 1, "a": 2}',
        '  {"emoji": "\\ud83d\\ude00", "raw": "😀"}  ',
    ]
    for doc in docs:
        got = json_repair.loads(doc)
        want = json.loads(doc)
        assert json.dumps(got) == json.dumps(want), doc
        assert list(_keys(got)) == list(_keys(want))
        assert json_repair.repair_json(doc) == json.dumps(want)


def _keys(v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _keys(x)
    elif isinstance(v, list):
        for x in v:
            yield from _keys(x)


def test_return_shapes():
    assert isinstance(json_repair.repair_json("{a: 1}"), str)
    assert json_repair.repair_json("{a: 1}", return_objects=True) == {"a": 1}
    value, log = json_repair.repair_json("{a: 1}", logging=True)
    assert value == {"a": 1}
    assert isinstance(log, list) and log
    for entry in log:
        assert set(entry) == {"text", "context", "kind", "span"}
        assert isinstance(entry["text"], str) and isinstance(entry["context"], str)
    value, log = json_repair.loads('{"a": 1}', logging=True)
    assert (value, log) == ({"a": 1}, [])


def test_log_entries_name_what_was_repaired_and_where():
    text = "Here it is: {'name': 'Ada', tags: ['x',],}"
    value, log = json_repair.loads(text, logging=True)
    assert value == {"name": "Ada", "tags": ["x"]}
    kinds = [e["kind"] for e in log]
    assert "stripped_prose" in kinds and "single_quotes" in kinds
    assert "unquoted_key" in kinds and "trailing_comma" in kinds
    for e in log:
        start, end = e["span"]
        assert 0 <= start <= end <= len(text)
        assert text[max(0, start - 10) : start + 10] == e["context"]
    tag = next(e for e in log if e["kind"] == "unquoted_key")
    assert text[tag["span"][0] : tag["span"][1]] == "tags"


@pytest.mark.parametrize("hopeless", ["", "   ", "hello world", "no json here at all."])
def test_hopeless_input_gives_empty_string(hopeless):
    assert json_repair.repair_json(hopeless) == ""
    assert json_repair.repair_json(hopeless, return_objects=True) == ""
    assert json_repair.loads(hopeless) == ""
    assert json_repair.loads(hopeless, logging=True) == ("", [])


def test_a_json_string_document_is_not_confused_with_no_json():
    assert json_repair.repair_json('""') == '""'
    assert json_repair.loads('"x"') == "x"


def test_typical_llm_replies():
    cases = {
        '```json\n{"name": "Ada", "age": 36}\n```': {"name": "Ada", "age": 36},
        "{'ok': True, 'v': None}": {"ok": True, "v": None},
        '{"a": 1 // one\n, "b": 2}': {"a": 1, "b": 2},
        '{"text": "cut off': {"text": "cut off"},
        '[1, 2, 3,]': [1, 2, 3],
        '{"a": "x" "b": "y"}': {"a": "x", "b": "y"},
    }
    for text, want in cases.items():
        assert json_repair.loads(text) == want, text
        assert json_repair.loads(text, skip_json_loads=True) == want, text


def test_skip_json_loads_gives_the_same_value_on_valid_input():
    doc = '{"b": [1, 2.5, "x"], "a": {"c": null}}'
    assert json_repair.loads(doc, skip_json_loads=True) == json.loads(doc)
    assert json_repair.repair_json(doc, skip_json_loads=True) == json.dumps(json.loads(doc))


def test_non_finite_needing_repair_becomes_null():
    # json.loads reads NaN, so valid-but-for-NaN JSON keeps it; a document that needs
    # repair goes through the engine, which writes JSON (no NaN): null.
    value = json_repair.loads("{a: NaN}")
    assert value == {"a": None}
    assert math.isnan(json_repair.loads('{"a": NaN}')["a"])


def test_strict_raises_value_error():
    with pytest.raises(ValueError):
        json_repair.loads("{'a': 1}", strict=True)
    assert json_repair.loads('{"a": 1}', strict=True) == {"a": 1}


def test_load_and_from_file(tmp_path):
    assert json_repair.load(io.StringIO("{a: [1, 2,]}")) == {"a": [1, 2]}
    assert json_repair.load(io.BytesIO(b"{a: 1}")) == {"a": 1}
    p = tmp_path / "reply.txt"
    p.write_text("Result: {'x': 'é'}", encoding="utf-8")
    assert json_repair.from_file(p) == {"x": "é"}
    assert json_repair.from_file(str(p)) == {"x": "é"}
    value, log = json_repair.from_file(p, logging=True)
    assert value == {"x": "é"} and log
    assert json_repair.repair_json(json_fd=io.StringIO("[1, 2")) == "[1, 2]"


def test_from_file_reports_bytes_that_are_not_utf8(tmp_path):
    p = tmp_path / "bad.json"
    p.write_bytes(b'{"a": "x\xffy"}')
    value, log = json_repair.from_file(p, logging=True)
    assert value == {"a": "x\ufffdy"}
    assert [e["kind"] for e in log] == ["invalid_character"]


def test_schema_guides_the_value():
    schema = {
        "type": "object",
        "properties": {"age": {"type": "integer"}, "tags": {"type": "array"}},
        "required": ["age"],
    }
    assert json_repair.loads('{"age": "42", "tags": "x"}', schema=schema) == {
        "age": 42,
        "tags": ["x"],
    }
    value, log = json_repair.loads("{age: '7'}", schema=schema, logging=True)
    assert value == {"age": 7}
    kinds = {e["kind"] for e in log}
    assert {"unquoted_key", "single_quotes", "string_to_number"} <= kinds
    with pytest.raises(ValueError):
        json_repair.loads('{"age": "old"}', schema=schema)
    assert json_repair.loads("nothing here", schema=schema) == ""


def test_mode_errors_match_json_repair():
    with pytest.raises(ValueError, match="requires schema"):
        json_repair.loads("{}", schema_repair_mode="salvage")
    with pytest.raises(ValueError, match="cannot be used together"):
        json_repair.loads("{}", schema={}, strict=True)
    with pytest.raises(ValueError, match="not supported"):
        json_repair.loads("{}", schema={}, schema_repair_mode="salvage")


def test_wrong_input_type_is_a_type_error():
    with pytest.raises(TypeError, match="expected str or bytes, got int"):
        json_repair.loads(42)
