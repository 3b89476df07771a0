//! `MissingOpener`, `MissingArrayOpener`, `MissingCloser`, `RedundantCloser`: brackets lost,
//! doubled or of the wrong kind.

use crate::prelude::*;

#[test]
fn brackets() {
    run(
        "missing opening brace",
        &[RepairKind::MissingOpener],
        &[
            (r#""a": 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#""a": 1, "b": 2"#, r#"{"a":1,"b":2}"#),
        ],
    );
    run(
        "mismatched brackets",
        &[RepairKind::MissingCloser],
        &[
            (r#"[{"a": 1, {"b": 2}]"#, r#"[{"a":1},{"b":2}]"#),
            (r#"{"a": [1, 2}"#, r#"{"a":[1,2]}"#),
            (r#"[{"a": 1]"#, r#"[{"a":1}]"#),
            (r#"{"a": [{"b": 1}}"#, r#"{"a":[{"b":1}]}"#),
        ],
    );
    run(
        "redundant closers",
        &[RepairKind::RedundantCloser],
        &[
            (r#"{"a": 1}}"#, r#"{"a":1}"#),
            (r#"[1, 2]]"#, "[1,2]"),
            (r#"{"a": 1}]}"#, r#"{"a":1}"#),
            (r#"{"a": [1]]}"#, r#"{"a":[1]}"#),
        ],
    );
}

/// Cases from the peers' own test suites (jsonrepair, json_repair) where an early, wrong or
/// doubled closer used to end the document and drop what followed.
#[test]
fn early_and_wrong_closers_keep_what_follows() {
    run(
        "closers",
        &[
            RepairKind::RedundantCloser,
            RepairKind::StrippedProse,
            RepairKind::MissingCloser,
        ],
        &[
            (r#"{"a":[1,2}, "b":3}"#, r#"{"a":[1,2],"b":3}"#),
            (
                r#"{"key1": ["value1", "value2"}, "key2": ["value3", "value4"]}"#,
                r#"{"key1":["value1","value2"],"key2":["value3","value4"]}"#,
            ),
            (
                r#"{"key": "value"}, "key2": "value2"}"#,
                r#"{"key":"value","key2":"value2"}"#,
            ),
            (
                r#"[{"key":"value"}},{"key":"value"}]"#,
                r#"[{"key":"value"},{"key":"value"}]"#,
            ),
            (
                r#"[{"a": 1, "b": 2], {"c": 3}]"#,
                r#"[{"a":1,"b":2},{"c":3}]"#,
            ),
            (
                r#"{"a": {"b": [1, 2}, "c": 3}}"#,
                r#"{"a":{"b":[1,2],"c":3}}"#,
            ),
            // A real end stays an end.
            (r#"{"a": [1, 2}"#, r#"{"a":[1,2]}"#),
            (r#"{"a": 1]"#, r#"{"a":1}"#),
            ("{\"a\":1},\n{\"b\":2}", r#"[{"a":1},{"b":2}]"#),
            ("[1,2],[3]", "[[1,2],[3]]"),
        ],
    );
}

/// A `]` of the right kind that closes an array too early: elements follow where the
/// array's holder cannot take them (the text's end, or an object wanting a key), and a
/// later `]` closes it. The elements stay in the array.
#[test]
fn early_array_closers_keep_the_elements() {
    run(
        "closers",
        &[RepairKind::RedundantCloser, RepairKind::StrippedProse],
        &[
            (r#"[{"a": 1}], {"b": 2}]"#, r#"[{"a":1},{"b":2}]"#),
            ("[1, 2], 3, 4]", "[1,2,3,4]"),
            (
                r#"{"rows": [{"a": 1}], {"b": 2}], "total": 3}"#,
                r#"{"rows":[{"a":1},{"b":2}],"total":3}"#,
            ),
            (r#"{"a": [1], 2], "n": 3}"#, r#"{"a":[1,2],"n":3}"#),
            (
                "{\"items\": [\n  {\"id\": 1},\n  {\"id\": 2}],\n  {\"id\": 3}\n]}",
                r#"{"items":[{"id":1},{"id":2},{"id":3}]}"#,
            ),
            // In an array of arrays the last `]` is the doubled one; an array after the
            // closer means the `[` around both was lost.
            (r#"[["x"], "y"]]"#, r#"[["x"],"y"]"#),
            ("[1, 2], [3, 4]]", "[[1,2],[3,4]]"),
            // Unless the root's elements are arrays already: one `]` too many.
            ("[[1, 2]], [3, 4]]", "[[1,2],[3,4]]"),
            ("[[1]], [2], [3]]", "[[1],[2],[3]]"),
            // Without a later `]` these are several values, or members.
            ("[1, 2], [3, 4]", "[[1,2],[3,4]]"),
            (r#"{"a": [1], "b": 2}"#, r#"{"a":[1],"b":2}"#),
            (r#"{"a": [1, 2]]}"#, r#"{"a":[1,2]}"#),
        ],
    );
}

/// The opening bracket went missing before scalars or bare keys; the closer says which.
#[test]
fn missing_openers_before_scalars_and_bare_keys() {
    run(
        "missing openers",
        &[RepairKind::MissingOpener, RepairKind::RedundantCloser],
        &[
            ("1, 2, 3]", "[1,2,3]"),
            (r#""a", "b"]"#, r#"["a","b"]"#),
            (r#"name: "Ada", age: 36}"#, r#"{"name":"Ada","age":36}"#),
            // Prose that merely ends in a bracket holds no JSON.
            ("see item 3]", ERR),
            // Doubled closers before more members: the members stay.
            (
                r#"{"a": "x", "b": {"c": "y"}}}, "d": 1}"#,
                r#"{"a":"x","b":{"c":"y"},"d":1}"#,
            ),
            ("http://x.com/a}", ERR),
        ],
    );
    run(
        "comments inside a concatenation",
        &[RepairKind::Concatenation],
        &[
            (r#"{"a": "x" + /* c */ "y"}"#, r#"{"a":"xy"}"#),
            ("{\"a\": \"x\" + // part two\n \"y\"}", r#"{"a":"xy"}"#),
        ],
    );
}

/// An array inside an object lost its `]`: the next member's key shows where it ended.
#[test]
fn arrays_left_open_before_the_next_key() {
    run(
        "arrays left open before a key",
        &[
            RepairKind::MissingCloser,
            RepairKind::MissingOpener,
            RepairKind::UnquotedValue,
        ],
        &[
            (
                r#"{"tags": ["a", "b", "count": 2}"#,
                r#"{"tags":["a","b"],"count":2}"#,
            ),
            (
                r#"{"ids": [1, 2, 3, "total": 3}"#,
                r#"{"ids":[1,2,3],"total":3}"#,
            ),
            (
                r#"{"items": [{"id": 1}, {"id": 2}, "next": null}"#,
                r#"{"items":[{"id":1},{"id":2}],"next":null}"#,
            ),
            (
                r#"{"a": [1, 2, "b": [3, 4], "c": 5}"#,
                r#"{"a":[1,2],"b":[3,4],"c":5}"#,
            ),
            (
                "{\n  \"scores\": [\n    0.9,\n    0.8,\n  \"mean\": 0.85\n}",
                r#"{"scores":[0.9,0.8],"mean":0.85}"#,
            ),
            (
                r#"{'files': ['a.py', 'b.py', 'message': 'fix: lint'}"#,
                r#"{"files":["a.py","b.py"],"message":"fix: lint"}"#,
            ),
            (
                r#"{"tags": ["x", "y" "count": 2}"#,
                r#"{"tags":["x","y"],"count":2}"#,
            ),
            (
                r#"[{"id": 1, "tags": ["a", "b", "score": 0.5}, {"id": 2, "tags": [], "score": 0.1}]"#,
                r#"[{"id":1,"tags":["a","b"],"score":0.5},{"id":2,"tags":[],"score":0.1}]"#,
            ),
            (r#"{"a": [1, [2, 3, "b": 4}"#, r#"{"a":[1,[2,3]],"b":4}"#),
            (r#"{"a": ["x", "y", "b": 3"#, r#"{"a":["x","y"],"b":3}"#),
            (
                r#"{files: ["a.py", "b.py", message: "fix: lint"}"#,
                r#"{"files":["a.py","b.py"],"message":"fix: lint"}"#,
            ),
            (r#"{"a": [x, y, n: 2}"#, r#"{"a":["x","y"],"n":2}"#),
            // The object in the array lost its `{`: the closers after it say so.
            (r#"[{"a": 1}, "b": 2}]"#, r#"[{"a":1},{"b":2}]"#),
            (
                r#"["a", "b": 2, "c": 3}, "d"]"#,
                r#"["a",{"b":2,"c":3},"d"]"#,
            ),
            (
                r#"{"users": [{"id": 1, "n": "a"}, "id": 2, "n": "b"}]}"#,
                r#"{"users":[{"id":1,"n":"a"},{"id":2,"n":"b"}]}"#,
            ),
            (
                r#"{"users": [{"id": 1}, "id": 2}, {"id": 3}]}"#,
                r#"{"users":[{"id":1},{"id":2},{"id":3}]}"#,
            ),
            (
                r#"Result: {"tags": ["a", "count": 2} Hope this helps :)"#,
                r#"{"tags":["a"],"count":2}"#,
            ),
            // Not keys: a colon inside the text, a URL, an array at the root.
            (
                r#"{"links": [http://x.com, "b"]}"#,
                r#"{"links":["http://x.com","b"]}"#,
            ),
            (
                r#"{"times": ["at 10:30", "b"]}"#,
                r#"{"times":["at 10:30","b"]}"#,
            ),
            (
                r#"{"notes": ["see: below", "b"]}"#,
                r#"{"notes":["see: below","b"]}"#,
            ),
        ],
    );
}

/// A closer that nothing open takes, before more members of the container around: the
/// wrong closer for the inner container.
#[test]
fn wrong_closers_before_more_members() {
    run(
        "wrong closers",
        &[RepairKind::RedundantCloser],
        &[
            (r#"{"h": {"a": 1], "b": 2}"#, r#"{"h":{"a":1},"b":2}"#),
            (r#"{"a": {"b": "x"], "c": 1}"#, r#"{"a":{"b":"x"},"c":1}"#),
            (
                "{\n  'headers': {\n    'Auth': 'Bearer x'\n  ],\n  'body': \"{}\",\n}",
                r#"{"headers":{"Auth":"Bearer x"},"body":"{}"}"#,
            ),
            (r#"{"a": [1, 2}, "b": 3}"#, r#"{"a":[1,2],"b":3}"#),
            (r#"{"a": {"b": 1]]}"#, r#"{"a":{"b":1}}"#),
        ],
    );
}

/// A closer the innermost container does not take, deep inside: the closers that come
/// later decide whether it was doubled or typed for the right one, so no member is lost.
#[test]
fn deep_wrong_closers_keep_every_member() {
    run(
        "deep wrong closers",
        &[RepairKind::RedundantCloser],
        &[
            (
                r#"{"a": [{"b": {"c": 1]}, {"d": 2}]}"#,
                r#"{"a":[{"b":{"c":1}},{"d":2}]}"#,
            ),
            (
                r#"{"lines": [{"tax": {"amount": 1]}, {"sku": "B"}], "paid": false}"#,
                r#"{"lines":[{"tax":{"amount":1}},{"sku":"B"}],"paid":false}"#,
            ),
            (
                r#"{"a": [{"b": 1}}, {"c": 2}], "d": 4}"#,
                r#"{"a":[{"b":1},{"c":2}],"d":4}"#,
            ),
            (r#"[{"k": 1] {"k": 2}]"#, r#"[{"k":1},{"k":2}]"#),
            (
                r#"{"f": [{"k": 1] {"k": 2}]}"#,
                r#"{"f":[{"k":1},{"k":2}]}"#,
            ),
            (
                r#"[{"a": {"b": 1}}}, {"c": 2}]"#,
                r#"[{"a":{"b":1}},{"c":2}]"#,
            ),
        ],
    );
}

/// A number or literal where an object in an array wants its next key: the object lost
/// its `}` before the array's next element. Nothing is made a key.
#[test]
fn elements_after_an_unclosed_object() {
    run(
        "elements after an unclosed object",
        &[RepairKind::MissingCloser, RepairKind::UnquotedKey],
        &[
            (r#"[{"a": 1, 2]"#, r#"[{"a":1},2]"#),
            (r#"[{"a": 1, true]"#, r#"[{"a":1},true]"#),
            (r#"[{"a": 1}, {"b": 2, 3, 4]"#, r#"[{"a":1},{"b":2},3,4]"#),
            (
                r#"{"l4": [1, 2, {"l5": {"l6": "x"}, 3]}"#,
                r#"{"l4":[1,2,{"l5":{"l6":"x"}},3]}"#,
            ),
            // A key after all: a colon follows.
            (r#"[{"a": 1, 2: "x"}]"#, r#"[{"a":1,"2":"x"}]"#),
            // No array around the object: the member's value lost its `[`.
            (r#"{"a": 1, 2]"#, r#"{"a":[1,2]}"#),
        ],
    );
}

/// Every element object of an array lost its `{`: each extra `}` later on closes one more.
/// And JSON Lines whose first object lost its `}`: the next line's value is the next value.
#[test]
fn element_objects_and_root_objects_left_open() {
    run(
        "element objects that lost their {",
        &[RepairKind::MissingOpener, RepairKind::MissingCloser],
        &[
            (
                r#"{"items": ["a": 1}, "a": 2}], "n": 2}"#,
                r#"{"items":[{"a":1},{"a":2}],"n":2}"#,
            ),
            (
                r#"{"items": ["a": 1}, "a": 2}, "a": 3}]}"#,
                r#"{"items":[{"a":1},{"a":2},{"a":3}]}"#,
            ),
            // The array lost its `]` instead: the key is the object's next member.
            (
                r#"{"tags": ["a", "count": 2}"#,
                r#"{"tags":["a"],"count":2}"#,
            ),
        ],
    );
    run(
        "root object left open before the next line's value",
        &[
            RepairKind::MultipleValues,
            RepairKind::MissingComma,
            RepairKind::StrippedProse,
            RepairKind::ControlCharacter,
        ],
        &[
            (
                "{\"id\": 1, \"label\": \"bug\"\n{\"id\": 2, \"label\": \"ok\"}",
                r#"[{"id":1,"label":"bug"},{"id":2,"label":"ok"}]"#,
            ),
            ("{\"a\": 1\n{\"a\": 2}", r#"[{"a":1},{"a":2}]"#),
            ("{\"a\": 1\n[1, 2]", r#"[{"a":1},[1,2]]"#),
            // A later line that lost its `{` instead.
            ("{\"id\": 1}\n\"id\": 2}", r#"[{"id":1},{"id":2}]"#),
            (
                "{\"a\": 1}\n\"id\": 2,\n\"x\": [3]\n}",
                r#"[{"a":1},{"id":2,"x":[3]}]"#,
            ),
            // Prose after the document, with no `}` to close: prose.
            ("{\"a\": 1}\n\"Note\": see above", r#"{"a":1}"#),
            // Inside a string, or not first on its line: content.
            (
                "{\"code\": \"fn main() {\n  {\n  }\n}\"}",
                r#"{"code":"fn main() {\n  {\n  }\n}"}"#,
            ),
            (r#"{"a": 1 {"b": 2}}"#, r#"{"a":1,"b":2}"#),
        ],
    );
}

/// A member's value that lost its `{` or `[` after the colon: a short string that a `:`
/// and a value follow is the first key of an object; a scalar that more elements and a
/// `]` follow is the first element of an array. Nothing is merged into a string.
#[test]
fn member_values_that_lost_their_opener() {
    run(
        "member value lost its {",
        &[RepairKind::MissingOpener, RepairKind::UnquotedValue, RepairKind::InnerQuote],
        &[
            (r#"{"a": "b": 1}"#, r#"{"a":{"b":1}}"#),
            (
                r#"{"user": "name": "Ana", "age": 3}}"#,
                r#"{"user":{"name":"Ana","age":3}}"#,
            ),
            (
                r#"{"args": "path": "a.txt"}, "ok": true}"#,
                r#"{"args":{"path":"a.txt"},"ok":true}"#,
            ),
            (
                "{\"name\": \"x\", \"arguments\": \n  \"message\": \"hi\", \"files\": [\"a\"]}}",
                r#"{"name":"x","arguments":{"message":"hi","files":["a"]}}"#,
            ),
            (r#"{'cfg': 'retries': 3}"#, r#"{"cfg":{"retries":3}}"#),
            // A colon inside the string, or a long string: no key.
            (r#"{"a": "b: c", "d": 1}"#, r#"{"a":"b: c","d":1}"#),
            (r#"{"t": "12:30"}"#, r#"{"t":"12:30"}"#),
            // A concatenation counts whole: short, a key; long (as the stream has shown it),
            // a value.
            (r#"{"a": "x" + "b": 1}"#, r#"{"a":{"xb":1}}"#),
            (
                r#"{"a": "a value far longer than any key, seventy bytes or more of it" + "b": 1}"#,
                r#"{"a":"a value far longer than any key, seventy bytes or more of itb\": 1"}"#,
            ),
            // An inner quote in any part: no key either.
            (
                r#"{"a": "say "hi" now" + "b": 1}"#,
                r#"{"a":"say \"hi\" nowb\": 1"}"#,
            ),
            // Bare keys: a word, `:`, a space and a value.
            (
                r#"{"q": "x", "f": open: true, price: 2}, "n": 5}"#,
                r#"{"q":"x","f":{"open":true,"price":2},"n":5}"#,
            ),
            (
                "{contacts: [\n  name: \"Ana\", phone: \"1\"},\n  {name: \"Rui\", phone: \"2\"}\n]}",
                r#"{"contacts":[{"name":"Ana","phone":"1"},{"name":"Rui","phone":"2"}]}"#,
            ),
            // No space, or prose after the colon: a bare value.
            (r#"{"url": localhost:8080}"#, r#"{"url":"localhost:8080"}"#),
            (r#"{"note": Note: see below}"#, r#"{"note":"Note: see below"}"#),
            (r#"{"t": 12:30}"#, r#"{"t":"12:30"}"#),
        ],
    );
    run(
        "member value lost its [",
        &[
            RepairKind::MissingArrayOpener,
            RepairKind::MissingCloser,
            RepairKind::RedundantCloser,
        ],
        &[
            (
                r#"{"tags": "a", "b", "c"], "n": 1}"#,
                r#"{"tags":["a","b","c"],"n":1}"#,
            ),
            (
                r#"{"v": 140, 160, 201], "t": 1}"#,
                r#"{"v":[140,160,201],"t":1}"#,
            ),
            (r#"{"v": true, null]}"#, r#"{"v":[true,null]}"#),
            (
                r#"[{"n": "a", "v": [1]}, {"n": "b", "v": 2, 3]}]"#,
                r#"[{"n":"a","v":[1]},{"n":"b","v":[2,3]}]"#,
            ),
            // In an array, only when the object's own `}` comes after the `]`.
            (r#"[{"a": 1}, {"b": 2, 3, 4]"#, r#"[{"a":1},{"b":2},3,4]"#),
            // Objects or arrays as the elements.
            (
                r#"{"items": {"a": 1}, {"a": 2}], "n": 2}"#,
                r#"{"items":[{"a":1},{"a":2}],"n":2}"#,
            ),
            (
                r#"{"rows": ["a", 1], ["b", 2]], "units": "k"}"#,
                r#"{"rows":[["a",1],["b",2]],"units":"k"}"#,
            ),
            // No `]` to come: the `{` is a stray one.
            (r#"{"a": {"b": 1}, {"c": 2}}"#, r#"{"a":{"b":1},"c":2}"#),
            // A key next: nothing to do.
            (r#"{"a": 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
        ],
    );
}

/// `[{{"a": 1}, …]`: an element's `{` typed twice is one opener, not an empty element.
#[test]
fn a_doubled_object_opener_in_an_array() {
    run(
        "doubled opener",
        &[RepairKind::InvalidCharacter, RepairKind::MissingCloser],
        &[
            (r#"[{{"a":1}, {"b":2}]"#, r#"[{"a":1},{"b":2}]"#),
            (r#"[{{"a":1}}]"#, r#"[{"a":1}]"#),
            (
                "{\"s\": [\n  {{\n    \"id\": 1\n  },\n  {\"id\": 2}\n]}",
                r#"{"s":[{"id":1},{"id":2}]}"#,
            ),
            (
                r#"{"t": [{"a": 1}, {{"b": 2}], "n": 1}"#,
                r#"{"t":[{"a":1},{"b":2}],"n":1}"#,
            ),
            // An object left open before the next element keeps its members.
            (r#"[{"a": 1, {"b": 2}]"#, r#"[{"a":1},{"b":2}]"#),
            (r#"[{}, {"b": 2}]"#, r#"[{},{"b":2}]"#),
        ],
    );
}

/// `{"k": "x\ny"]: 42}`: a string that no key could be (long, or on several lines) before a
/// wrong closer and a colon stays the member's value; the stream had shown it (found by
/// fuzzing). A short one still opens the object that lost its `{`.
#[test]
fn only_a_key_like_string_opens_a_lost_object_in_a_member() {
    run(
        "lost object in a member",
        &[RepairKind::UnquotedKey, RepairKind::MissingOpener],
        &[
            (r#"{"user": "name": "Ana"}}"#, r#"{"user":{"name":"Ana"}}"#),
            ("{\"k\": \"x\ny\"]:42}", r#"{"k":"x\ny","42":null}"#),
        ],
    );
}

/// A fenced document that lost its `{`, after prose.
#[test]
fn missing_opener_inside_a_fence() {
    run(
        "missing opener inside a fence",
        &[RepairKind::StrippedFence],
        &[
            (
                "Done. Final answer:\n```jsonc\n\n    \"patient\": {\n        \"age\": 54\n    },\n    \"meds\": [\"a\"]\n}\n```",
                r#"{"patient":{"age":54},"meds":["a"]}"#,
            ),
            ("Here:\n```json\n\"a\": 1, \"b\": 2}\n```\nBye", r#"{"a":1,"b":2}"#),
            // A bracket first is the document, as before.
            ("Here:\n```json\n[1, 2]\n```", "[1,2]"),
            ("Here:\n```\nsome code\n```\n{\"a\": 1}", r#"{"a":1}"#),
        ],
    );
}
