"""The native API: repair, extract, heal, Schema, args.normalize."""

import json

import pytest

import jsonheal
from jsonheal import args


def test_valid_input_comes_back_as_written():
    doc = '{"b": 1.50, "a": [1e2, -0.0, 12345678901234567890123], "c": "\\u00e9"}'
    r = jsonheal.repair("  " + doc + "\n")
    assert r.text == doc
    assert r.repairs == []
    assert r.truncated is False
    assert list(r.value) == ["b", "a", "c"]
    assert r.value == {"b": 1.5, "a": [100.0, -0.0, 12345678901234567890123], "c": "é"}
    assert isinstance(r.value["a"][2], int)


def test_value_is_built_once():
    r = jsonheal.repair("{a: [1]}")
    assert r.value is r.value


def test_repairs_have_kinds_messages_and_character_spans():
    text = "Réponse : {'clé': 'valeur', nombre: 3,}"
    r = jsonheal.repair(text)
    assert r.value == {"clé": "valeur", "nombre": 3}
    by_kind = {rep.kind: rep for rep in r.repairs}
    assert set(by_kind) == {"stripped_prose", "single_quotes", "unquoted_key", "trailing_comma"}
    assert text[by_kind["unquoted_key"].start : by_kind["unquoted_key"].end] == "nombre"
    comma = by_kind["trailing_comma"]
    assert text[comma.start : comma.end] == ","
    assert comma.span == (comma.start, comma.end)
    assert comma.message == "removed a trailing comma"
    assert [x.start for x in r.repairs] == sorted(x.start for x in r.repairs)


def test_truncated():
    r = jsonheal.repair('{"items": [{"id": 1}, {"id": 2, "name": "Bo')
    assert r.truncated
    assert r.value == {"items": [{"id": 1}, {"id": 2, "name": "Bo"}]}
    assert r.repairs[-1].kind == "truncated"


def test_options():
    assert jsonheal.repair('{"a":1}\n{"a":2}').value == [{"a": 1}, {"a": 2}]
    assert jsonheal.repair('{"a":1}\n{"a":2}', multiple="last").value == {"a": 2}
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair('{"a":1}\n{"a":2}', multiple="error")
    assert e.value.kind == "multiple_values"
    assert jsonheal.repair('{"a": 1, "a": 2}', duplicate_keys="first").value == {"a": 1}
    assert jsonheal.repair("[NaN]", non_finite="string").value == ["NaN"]
    assert jsonheal.repair("[NaN]").value == [None]
    with pytest.raises(ValueError, match="multiple must be one of 'array', 'first', 'last', 'error', got 'all'"):
        jsonheal.repair("[]", multiple="all")


def test_bytes_and_bytearray_input():
    assert jsonheal.repair(b"{a: 1}").value == {"a": 1}
    assert jsonheal.repair(bytearray(b"[1, 2,]")).value == [1, 2]


def test_extract_picks_the_answer():
    reply = 'Example: {"x": 0}\n\nAnswer:\n```json\n{"x": 1, "y": [1, 2,]}\n```\n'
    got = jsonheal.extract(reply)
    assert got.value == {"x": 1, "y": [1, 2]}
    assert got.source == "fence" and got.fence == 0
    start, end = got.span
    assert jsonheal.repair(reply[start:end]).value == got.value
    assert not got.truncated
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.extract("I could not find anything.")
    assert e.value.kind == "no_json"


SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "role": {"enum": ["admin", "user"]},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def test_heal_coerces_to_the_schema():
    healed = jsonheal.heal("Sure! {name: 'Ada', age: '36', role: 'Admin'}", SCHEMA)
    assert healed.value == {"name": "Ada", "age": 36, "role": "admin"}
    assert healed.candidate in ("whole", "span", "repaired")
    kinds = {c["kind"] for c in healed.coercions}
    assert kinds == {"string_to_number", "enum_case"}
    assert {r.kind for r in healed.repairs} >= {"unquoted_key", "single_quotes"}


def test_heal_without_coercion_refuses_what_needs_it():
    with pytest.raises(jsonheal.HealError):
        jsonheal.heal('{"name": "Ada", "age": "36"}', SCHEMA, coerce=False)


def test_heal_error_carries_the_feedback():
    with pytest.raises(jsonheal.HealError) as e:
        jsonheal.heal('{"name": "Ada", "age": "old"}', SCHEMA)
    err = e.value
    assert isinstance(err, jsonheal.JSONHealError) and isinstance(err, ValueError)
    assert err.kind == "invalid"
    assert "/age" in err.feedback
    assert err.violations[0]["path"] == "/age"
    assert err.violations[0]["keyword"] == "type"
    assert err.rejected == {"name": "Ada", "age": "old"}


def test_heal_refuses_a_cut_off_reply_unless_allowed():
    with pytest.raises(jsonheal.HealError) as e:
        jsonheal.heal('{"name": "Ada", "age": 3', SCHEMA)
    assert e.value.kind == "truncated"
    assert jsonheal.heal('{"name": "Ada", "age": 3', SCHEMA, allow_truncated=True).value == {
        "name": "Ada",
        "age": 3,
    }
    with pytest.raises(jsonheal.HealError) as e:
        jsonheal.heal("no json", SCHEMA)
    assert e.value.kind == "no_json"


def test_schema_object_json_text_and_invalid_schema():
    compiled = jsonheal.Schema(SCHEMA)
    assert compiled.is_valid({"name": "x", "age": 1})
    assert not compiled.is_valid({"name": "x"})
    assert jsonheal.heal('{"name": "x", "age": 1}', compiled).value == {"name": "x", "age": 1}
    assert jsonheal.heal('{"name": "x", "age": 1}', json.dumps(SCHEMA)).value["age"] == 1
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.Schema({"type": "no-such-type"})
    assert e.value.kind == "invalid_schema"


def test_heal_accepts_a_model_class():
    class Model:
        @classmethod
        def model_json_schema(cls):
            return SCHEMA

    assert jsonheal.heal('{"name": "x", "age": "2"}', Model).value == {"name": "x", "age": 2}


def test_args_normalize():
    n = args.normalize("{cmd: 'ls'}", tool="bash")
    assert n.value == {"cmd": "ls"} and n.strategy == "quotes_and_keys"
    assert not n.truncated
    plain = args.normalize("ls -la", tool="bash")
    assert plain.value == {"command": "ls -la"} and plain.strategy == "plain_wrap"
    assert args.normalize('{"a": 1}').strategy == "valid"
    assert args.normalize("").value == {}
    with pytest.raises(jsonheal.JSONHealError) as e:
        args.normalize("just words", tool="unknown_tool")
    assert e.value.kind == "not_an_object"


def test_args_normalize_with_schema_and_tool_map():
    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    assert args.normalize("cats", tool="search", schema=schema).value == {"query": "cats"}
    assert args.normalize("cats", tool="lookup", tool_map={"lookup": "term"}).value == {"term": "cats"}
    with pytest.raises(TypeError):
        args.normalize("x", tool="t", tool_map={"t": 1})
