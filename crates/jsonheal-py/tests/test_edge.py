"""Large and deep inputs, bytes that are not UTF-8, lone surrogates."""

import json

import pytest

import jsonheal


def _big_doc(n):
    return {"items": [{"id": i, "name": f"item {i}", "tags": ["a", "b"], "score": i / 7} for i in range(n)]}


def test_large_valid_document():
    doc = _big_doc(60_000)
    text = json.dumps(doc)
    assert len(text) > 4_000_000
    assert jsonheal.loads(text) == doc
    r = jsonheal.repair(text)
    assert r.text == text and r.repairs == []
    assert r.value == doc


def test_large_malformed_document():
    doc = _big_doc(20_000)
    text = json.dumps(doc).replace('"name"', "name").replace("]}", ",]}")
    r = jsonheal.repair(text)
    assert r.value == doc
    assert sum(1 for x in r.repairs if x.kind == "unquoted_key") == 20_000
    assert jsonheal.loads(text) == doc


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(jsonheal.JSONHealError) as e:
        jsonheal.repair("[" * 100_000)
    assert e.value.kind == "too_deep"


def test_deep_document_within_the_limit():
    text = "[" * 120 + "1" + "]" * 119
    value = jsonheal.repair(text).value
    for _ in range(120):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == 1


def test_valid_document_deeper_than_python_values_are_built():
    text = "[" * 300 + "]" * 300
    r = jsonheal.repair(text)
    assert r.text == text
    with pytest.raises(jsonheal.JSONHealError) as e:
        r.value
    assert e.value.kind == "internal"


@pytest.mark.parametrize(
    "raw, want, kinds",
    [
        (b'{"a": "x\xffy"}', {"a": "x\ufffdy"}, ["invalid_character"]),
        (b'{"a": "\xe9t\xe9"}', {"a": "\ufffdt\ufffd"}, ["invalid_character", "invalid_character"]),
        (b'{"a": "\xe2\x82"}', {"a": "\ufffd"}, ["invalid_character"]),
        (b'\xef\xbb\xbf{"a": 1}', {"a": 1}, ["stripped_prose"]),
    ],
)
def test_bytes_that_are_not_utf8(raw, want, kinds):
    r = jsonheal.repair(raw)
    assert r.value == want
    assert [x.kind for x in r.repairs] == kinds


def test_lone_surrogate_in_a_python_str_is_replaced_and_reported():
    text = '{"a": "x\ud800y", "b": 1}'
    r = jsonheal.repair(text)
    assert r.value == {"a": "x\ufffdy", "b": 1}
    [rep] = r.repairs
    assert rep.kind == "lone_surrogate"
    assert text[rep.start : rep.end] == "\ud800"
    with pytest.raises(jsonheal.JSONHealError):
        jsonheal.repair(text, strict=True)


def test_surrogate_escapes():
    assert jsonheal.repair('["\\ud83d\\ude00"]').value == ["😀"]
    r = jsonheal.repair('["\\ud800 x"]')
    assert r.value == ["\ufffd x"]
    assert [x.kind for x in r.repairs] == ["lone_surrogate"]
    assert jsonheal.loads('["\\udc00"]') == ["\ufffd"]


def test_non_ascii_text_round_trips():
    doc = {"日本": "語", "emoji": "😀👍", "mixed": "a\u0301"}
    text = json.dumps(doc, ensure_ascii=False)
    assert jsonheal.repair(text).value == doc
    assert jsonheal.loads(text.encode()) == doc
