//! Table-driven cases for every row of the repair contract and every fault class of the
//! issue: each input with the value it must repair to (or `ERR`: no honest repair exists),
//! and the repair kind it must report.
#![allow(clippy::unwrap_used)]

use jsonheal::{repair, RepairKind};
use serde_json::Value;

/// Expected `ERR` means "no JSON found"-style error.
const ERR: &str = "ERR";

fn check(class: &str, cases: &[(&str, &str)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (input, expected) in cases {
        let got = repair(input);
        let ok = match (&got, *expected) {
            (Err(_), ERR) => true,
            (Ok(_), ERR) | (Err(_), _) => false,
            (Ok(r), exp) => {
                let exp: Value = serde_json::from_str(exp).unwrap();
                // Ok means JSON: serde_json must accept the text. And every repair's span
                // lies in the input, on char boundaries.
                r.value().map(|v| v == exp).unwrap_or(false)
                    && r.repairs.iter().all(|x| {
                        x.span().end <= input.len()
                            && input.is_char_boundary(x.span().start)
                            && input.is_char_boundary(x.span().end)
                    })
            }
        };
        if !ok {
            failures.push(format!(
                "[{class}] {input:?}: expected {expected}, got {:?}",
                got.as_ref()
                    .map(|r| r.text.as_str())
                    .map_err(|e| e.to_string())
            ));
        }
    }
    failures
}

fn run(class: &str, cases: &[(&str, &str)]) {
    let failures = check(class, cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn kinds(input: &str) -> Vec<RepairKind> {
    repair(input)
        .unwrap()
        .repairs
        .iter()
        .map(|r| r.kind())
        .collect()
}

#[test]
fn valid_input_passes_through_byte_identical() {
    for input in [
        r#"{"a": 1, "b": [true, null, "x"]}"#,
        r#"{"n": 1e2, "m": 1.10, "big": 123456789012345678901234567890, "neg": -0}"#,
        "[\n  1,\n  2\n]",
        r#""just a string""#,
        "42",
        "null",
        r#"{"s": "\u00e9\ud83d\ude00 \"q\" \\ \/"}"#,
        r#"{"a": {"b": {"c": []}}, "d": {}}"#,
        r#"{"dup": 1, "dup": 2}"#,
        r#""{\"a\":1}""#,
    ] {
        let r = repair(input).unwrap();
        assert_eq!(r.text, input, "valid input must come back byte-identical");
        assert!(r.repairs.is_empty());
    }
    // Surrounding whitespace is trimmed, nothing else.
    assert_eq!(repair("  \n{\"a\": 1}\n ").unwrap().text, "{\"a\": 1}");
}

#[test]
fn single_quotes() {
    run(
        "single quotes",
        &[
            (r#"{'a': 'b'}"#, r#"{"a":"b"}"#),
            (
                r#"{'msg': "it's ok", 'n': 1}"#,
                r#"{"msg":"it's ok","n":1}"#,
            ),
            (r#"{'a': 'it\'s'}"#, r#"{"a":"it's"}"#),
            (r#"{"msg": 'it's ok'}"#, r#"{"msg":"it's ok"}"#),
            (r#"{'a': 'say "hi"'}"#, r#"{"a":"say \"hi\""}"#),
            (r#"['x', 'y', 'z']"#, r#"["x","y","z"]"#),
            (r#"{'nested': {'k': ['v']}}"#, r#"{"nested":{"k":["v"]}}"#),
            (
                r#"{'a': 'don't', 'b': 'won't'}"#,
                r#"{"a":"don't","b":"won't"}"#,
            ),
            (r#"{'a': ''}"#, r#"{"a":""}"#),
            (r#"{'path': 'C:\\x'}"#, r#"{"path":"C:\\x"}"#),
        ],
    );
    assert!(kinds("{'a': 1}").contains(&RepairKind::SingleQuotes));
}

#[test]
fn unquoted_keys() {
    run(
        "unquoted keys",
        &[
            ("{a: 1, b_2: \"x\"}", r#"{"a":1,"b_2":"x"}"#),
            ("{first name: \"A\"}", r#"{"first name":"A"}"#),
            (
                "{ $id: 1, _x: 2, camelCase: 3 }",
                r#"{"$id":1,"_x":2,"camelCase":3}"#,
            ),
            ("{a-b: 1}", r#"{"a-b":1}"#),
            ("{1: \"one\", 2: \"two\"}", r#"{"1":"one","2":"two"}"#),
            ("{nested: {inner: [1]}}", r#"{"nested":{"inner":[1]}}"#),
            ("{\n  name: \"x\",\n  age: 3\n}", r#"{"name":"x","age":3}"#),
            ("{名前: \"x\"}", r#"{"名前":"x"}"#),
        ],
    );
    assert!(kinds("{a: 1}").contains(&RepairKind::UnquotedKey));
}

#[test]
fn unquoted_values_are_typed() {
    run(
        "unquoted string values",
        &[
            (
                r#"{"name": John Smith, "age": 30}"#,
                r#"{"name":"John Smith","age":30}"#,
            ),
            (
                "{cmd: read, file: main.go, n: 3, ok: true, x: null}",
                r#"{"cmd":"read","file":"main.go","n":3,"ok":true,"x":null}"#,
            ),
            (
                "{v: 1.2.3, ip: 10.0.0.1}",
                r#"{"v":"1.2.3","ip":"10.0.0.1"}"#,
            ),
            (
                "{url: https://example.com/a?b=c}",
                r#"{"url":"https://example.com/a?b=c"}"#,
            ),
            (r"{p: C:\path\to}", r#"{"p":"C:\\path\\to"}"#),
            (
                "{x: none, y: None, z: NULL}",
                r#"{"x":null,"y":null,"z":null}"#,
            ),
            ("[red, green, blue]", r#"["red","green","blue"]"#),
            ("{date: 2024-01-15}", r#"{"date":"2024-01-15"}"#),
            ("{size: 30px}", r#"{"size":"30px"}"#),
            ("{zip: 02134}", r#"{"zip":"02134"}"#),
            ("{n: -5, f: 2.5e3}", r#"{"n":-5,"f":2.5e3}"#),
            ("{color: #fff}", r##"{"color":"#fff"}"##),
        ],
    );
}

#[test]
fn trailing_and_missing_commas() {
    run(
        "trailing commas",
        &[
            (r#"{"a": 1, "b": 2,}"#, r#"{"a":1,"b":2}"#),
            ("[1, 2, 3,]", "[1,2,3]"),
            ("[1, 2, 3, ]", "[1,2,3]"),
            ("{\"a\": [1,],}", r#"{"a":[1]}"#),
            ("[1,,2]", "[1,2]"),
            ("[,1]", "[1]"),
            ("{\"a\": 1,,\"b\": 2}", r#"{"a":1,"b":2}"#),
        ],
    );
    run(
        "missing commas",
        &[
            (r#"{"a": 1 "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"["x" "y" "z"]"#, r#"["x","y","z"]"#),
            (r#"[{"a": 1} {"a": 2}]"#, r#"[{"a":1},{"a":2}]"#),
            ("{\"a\": \"x\"\n\"b\": \"y\"}", r#"{"a":"x","b":"y"}"#),
            ("[1 2 3]", "[1,2,3]"),
            ("{\"a\": true \"b\": null}", r#"{"a":true,"b":null}"#),
            ("[[1] [2]]", "[[1],[2]]"),
            ("{\"a\": {\"x\": 1} \"b\": 2}", r#"{"a":{"x":1},"b":2}"#),
            ("{a: 1\nb: 2}", r#"{"a":1,"b":2}"#),
        ],
    );
    assert_eq!(kinds("[1, 2,]"), vec![RepairKind::TrailingComma]);
    assert_eq!(kinds("[1 2]"), vec![RepairKind::MissingComma]);
}

#[test]
fn missing_colon_and_value() {
    run(
        "missing colon",
        &[
            (r#"{"a" 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a" "x"}"#, r#"{"a":"x"}"#),
            ("{a = 1}", r#"{"a":1}"#),
        ],
    );
    run(
        "missing value",
        &[
            (r#"{"a": , "b": 2}"#, r#"{"a":null,"b":2}"#),
            (r#"{"a": }"#, r#"{"a":null}"#),
            (r#"{"a", "b": 1}"#, r#"{"a":null,"b":1}"#),
        ],
    );
}

#[test]
fn comments() {
    run(
        "comments",
        &[
            ("{\"a\": 1, // note\n \"b\": 2}", r#"{"a":1,"b":2}"#),
            ("{/* c */ \"a\": 1}", r#"{"a":1}"#),
            ("{\"a\": 1, # note\n \"b\": 2}", r#"{"a":1,"b":2}"#),
            ("// leading\n{\"a\": 1}", r#"{"a":1}"#),
            ("{\"a\": 1} // trailing", r#"{"a":1}"#),
            ("[1, /* two */ 2]", "[1,2]"),
            ("{\"url\": \"http://x.com\"} ", r#"{"url":"http://x.com"}"#),
            (
                "{\"a\": \"# not a comment\"}",
                r##"{"a":"# not a comment"}"##,
            ),
            (
                "{\n  \"a\": 1, // one\n  \"b\": 2 // two\n}",
                r#"{"a":1,"b":2}"#,
            ),
        ],
    );
}

#[test]
fn python_and_js_literals() {
    run(
        "python literals",
        &[
            (
                r#"{"a": True, "b": False, "c": None}"#,
                r#"{"a":true,"b":false,"c":null}"#,
            ),
            ("{'pt': (1, 2)}", r#"{"pt":[1,2]}"#),
            ("[True, False, None]", "[true,false,null]"),
            ("True", "true"),
            ("None", "null"),
            ("{'t': ()}", r#"{"t":[]}"#),
        ],
    );
    run(
        "non-finite and JS literals",
        &[
            (
                r#"{"a": NaN, "b": Infinity, "c": -Infinity}"#,
                r#"{"a":null,"b":null,"c":null}"#,
            ),
            (r#"{"a": undefined, "b": 1}"#, r#"{"a":null,"b":1}"#),
            ("[NaN]", "[null]"),
            (
                "{\"a\": +1, \"b\": .5, \"c\": 0x1F, \"d\": 1.}",
                r#"{"a":1,"b":0.5,"c":31,"d":1}"#,
            ),
        ],
    );
}

#[test]
fn truncation() {
    run(
        "truncation",
        &[
            (r#"{"a": "hello wor"#, r#"{"a":"hello wor"}"#),
            (r#"{"a": [1, 2, {"b": "c""#, r#"{"a":[1,2,{"b":"c"}]}"#),
            (r#"{"a": 1, "b":"#, r#"{"a":1}"#),
            (r#"{"a": 1, "bc"#, r#"{"a":1}"#),
            (r#"{"a": 1, "b""#, r#"{"a":1}"#),
            ("[1, 2, 3.", "[1,2,3]"),
            ("[1, 2, -", "[1,2]"),
            ("[1e", "[1]"),
            (r#"{"a": tru"#, r#"{"a":true}"#),
            (r#"{"a": nul"#, r#"{"a":null}"#),
            (r#"{"a": fa"#, r#"{"a":false}"#),
            (
                r#"{"s": "x", "text": "Hello Sergey, I hop"#,
                r#"{"s":"x","text":"Hello Sergey, I hop"}"#,
            ),
            (
                r#"{"text": "Here is a poem for you :"#,
                r#"{"text":"Here is a poem for you :"}"#,
            ),
            (r#"{"a": "caf\u00"#, r#"{"a":"caf"}"#),
            (r#"{"a": "x\"#, r#"{"a":"x"}"#),
            (r#"{"a": "x\ud83d"#, r#"{"a":"x"}"#),
            (r#"{"a": "x\ud83d\ude"#, r#"{"a":"x"}"#),
            (r#"{"a": "x\ud83d\"#, r#"{"a":"x"}"#),
            ("{", "{}"),
            ("[", "[]"),
            ("[{", "[{}]"),
            (r#"{"a": {"b": [1, {"c""#, r#"{"a":{"b":[1,{}]}}"#),
            ("```json\n{\"a\": [1, 2", r#"{"a":[1,2]}"#),
            (r#"{"items": ["one", "tw"#, r#"{"items":["one","tw"]}"#),
            (r#"{"a": 12"#, r#"{"a":12}"#),
            (r#"{"a": true, "b": fals"#, r#"{"a":true,"b":false}"#),
        ],
    );
    let r = repair(r#"{"a": "hello wor"#).unwrap();
    assert!(r.is_truncated());
    assert!(!repair(r#"{"a": 1}"#).unwrap().is_truncated());
}

#[test]
fn brackets() {
    run(
        "missing opening brace",
        &[
            (r#""a": 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#""a": 1, "b": 2"#, r#"{"a":1,"b":2}"#),
        ],
    );
    run(
        "mismatched brackets",
        &[
            (r#"[{"a": 1, {"b": 2}]"#, r#"[{"a":1},{"b":2}]"#),
            (r#"{"a": [1, 2}"#, r#"{"a":[1,2]}"#),
            (r#"[{"a": 1]"#, r#"[{"a":1}]"#),
            (r#"{"a": [{"b": 1}}"#, r#"{"a":[{"b":1}]}"#),
        ],
    );
    run(
        "redundant closers",
        &[
            (r#"{"a": 1}}"#, r#"{"a":1}"#),
            (r#"[1, 2]]"#, "[1,2]"),
            (r#"{"a": 1}]}"#, r#"{"a":1}"#),
            (r#"{"a": [1]]}"#, r#"{"a":[1]}"#),
        ],
    );
}

#[test]
fn fences_prose_and_reasoning() {
    run(
        "code fence",
        &[
            ("```json\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("```\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("~~~json\n{\"a\": 1}\n~~~", r#"{"a":1}"#),
            ("```JSON\n[1, 2]\n```", "[1,2]"),
            ("```json\n{'a': 1,}\n```", r#"{"a":1}"#),
            ("```json\n```", ERR),
            ("```", ERR),
        ],
    );
    run(
        "code fence + prose",
        &[
            (
                "Here is the JSON:\n```json\n{\"a\": 1}\n```\nHope this helps!",
                r#"{"a":1}"#,
            ),
            (
                "Sure, here you go:\n\n```json\n{\n  \"name\": \"x\"\n}\n```",
                r#"{"name":"x"}"#,
            ),
        ],
    );
    run(
        "text around JSON",
        &[
            ("Sure! Here it is: {\"a\": 1} Let me know.", r#"{"a":1}"#),
            ("The result is [1, 2, 3].", "[1,2,3]"),
            ("{\"a\": 1} garbage", r#"{"a":1}"#),
            ("Output: {\"ok\": true}\n\nThat's all.", r#"{"ok":true}"#),
            ("I'd say {'a': 1} is right", r#"{"a":1}"#),
            ("Use the {name} placeholder: {\"a\": 1}", r#"{"a":1}"#),
            ("See [the docs] for {\"a\": 1}", r#"{"a":1}"#),
        ],
    );
    run(
        "no JSON at all",
        &[
            ("I cannot help with that request.", ERR),
            ("", ERR),
            ("   \n\t ", ERR),
            ("I'm sorry, I can't do that.", ERR),
            ("Hello there", ERR),
        ],
    );
    run(
        "reasoning preamble",
        &[
            ("<think>maybe {\"x\": 0}</think>\n{\"a\": 1}", r#"{"a":1}"#),
            ("<thinking>[1]</thinking>[2]", "[2]"),
            (
                "<reasoning>let me think</reasoning>\n```json\n{\"a\": 1}\n```",
                r#"{"a":1}"#,
            ),
            ("<think>only thoughts {\"x\": 1}", ERR),
        ],
    );
    run(
        "multiple JSON values",
        &[
            ("{\"a\": 1}\n{\"a\": 2}", r#"[{"a":1},{"a":2}]"#),
            ("[1] [2]", "[[1],[2]]"),
        ],
    );
}

#[test]
fn strings() {
    run(
        "string concatenation",
        &[
            (r#"{"a": "hello " + "world"}"#, r#"{"a":"hello world"}"#),
            (r#"["a" + "b" + "c"]"#, r#"["abc"]"#),
        ],
    );
    run(
        "escaped JSON",
        &[
            (r#"{\"a\": \"b\"}"#, r#"{"a":"b"}"#),
            (r#"[{\"a\": 1}]"#, r#"[{"a":1}]"#),
            (r#"{\"path\": \"C:\\\\x\"}"#, r#"{"path":"C:\\x"}"#),
            // Pretty-printed, then escaped: the line breaks are escapes too.
            (r#"{\n  \"a\": 1,\n  \"b\": 2\n}"#, r#"{"a":1,"b":2}"#),
            (r#"{\n\"a\": 1}"#, r#"{"a":1}"#),
            (r#"[\n  1,\n  2\n]"#, "[1,2]"),
            (r#"{\"a\": \"x\",\r\n\"b\": 2}"#, r#"{"a":"x","b":2}"#),
            (r#"{\"a\": \"line1\\nline2\"}"#, r#"{"a":"line1\nline2"}"#),
        ],
    );
    run(
        "smart quotes",
        &[
            ("{“a”: “b”}", r#"{"a":"b"}"#),
            ("{‘a’: ‘b’}", r#"{"a":"b"}"#),
            // An element in typographic quotes is a string even with a colon in it (no bare
            // key of the object around the array; found by the stream's soup test).
            (
                "{\"tags\": [‘x:’, \"y\"], \"n\": 2}",
                r#"{"tags":["x:","y"],"n":2}"#,
            ),
            ("{\"t\": [“a: b”]}", r#"{"t":["a: b"]}"#),
            ("{\"q\": \"she said “hi”\"}", r#"{"q":"she said “hi”"}"#),
            // A straight quote opened it, a typographic one closes it.
            ("{\"a\": \"x”, \"b\": \"y”}", r#"{"a":"x","b":"y"}"#),
            (
                "{\"city\": \"Paris”, \"country\": “France\"}",
                r#"{"city":"Paris","country":"France"}"#,
            ),
            // Content otherwise, even before a comma.
            (
                "{'q': \"he said “yes”, then left\"}",
                r#"{"q":"he said “yes”, then left"}"#,
            ),
            // A key that lost its closing quote ends at its colon, whichever quote opened
            // it (the opening `“` is three bytes long).
            ("{“a: 1}", r#"{"a":1}"#),
            ("{“ab: null}", r#"{"ab":null}"#),
            ("{“ ,:\tnull}", r#"{" ,":null}"#),
            ("{‘name: \"Ada\"}", r#"{"name":"Ada"}"#),
            // A `'` then a colon closes a `"` key unless the key's own quote comes later on
            // the line, and an escaped quote is not that one.
            (r#"Here: {"':\"": null}"#, r#"{"':\"":null}"#),
            (r#"{"a': 1}"#, r#"{"a":1}"#),
        ],
    );
    run(
        "unescaped quotes in strings",
        &[
            (
                r#"{"text": "He said "hi" to me", "n": 1}"#,
                r#"{"text":"He said \"hi\" to me","n":1}"#,
            ),
            (
                r#"{"text": "do you know "michael", jackson", "n": 1}"#,
                r#"{"text":"do you know \"michael\", jackson","n":1}"#,
            ),
            (r#"{"code": "print("hi")"}"#, r#"{"code":"print(\"hi\")"}"#),
            (r#"{"a": "x "y" z"}"#, r#"{"a":"x \"y\" z"}"#),
            (r#"["He said "hi" ok"]"#, r#"["He said \"hi\" ok"]"#),
            (r#"{"a": "x, "b": 2}"#, r#"{"a":"x","b":2}"#),
        ],
    );
    run(
        "unescaped control characters",
        &[
            ("{\"a\": \"line1\nline2\"}", r#"{"a":"line1\nline2"}"#),
            (
                "{\"cmd\": \"x\nrollback: (a: B) => void;\", \"n\": 1}",
                r#"{"cmd":"x\nrollback: (a: B) => void;","n":1}"#,
            ),
            ("{\"a\": \"x\ty\"}", r#"{"a":"x\ty"}"#),
            ("{\"a\": \"x\u{1}y\"}", r#"{"a":"x\u0001y"}"#),
        ],
    );
    run(
        "invalid escapes",
        &[
            (r#"{"path": "C:\Users\me"}"#, r#"{"path":"C:\\Users\\me"}"#),
            (r#"{"re": "\d+\.\d+"}"#, r#"{"re":"\\d+\\.\\d+"}"#),
            // `\x` is no JSON escape: its backslash stays, as in a regex (`[\x00-\x1F]`).
            (r#"{"a": "\x41"}"#, r#"{"a":"\\x41"}"#),
            (r#"{"re": "[\x00-\x1F]"}"#, r#"{"re":"[\\x00-\\x1F]"}"#),
            (r#"{"a": "\ud800x"}"#, r#"{"a":"\ufffdx"}"#),
            (r#"{"a": "\uZZZZ"}"#, r#"{"a":"\\uZZZZ"}"#),
            // An escaped quote is no sign of a Windows path, even after a drive letter.
            (r#"[{'a': 'A:\''}]"#, r#"[{"a":"A:'"}]"#),
            (r#"{'p': 'D:\'s', 'q': 1}"#, r#"{"p":"D:'s","q":1}"#),
            (r#"{'p': 'C:\Users\me'}"#, r#"{"p":"C:\\Users\\me"}"#),
        ],
    );
    run(
        "backtick strings",
        &[
            ("{\"a\": `x`}", r#"{"a":"x"}"#),
            ("{`k`: `multi\nline`}", r#"{"k":"multi\nline"}"#),
        ],
    );
}

#[test]
fn wrappers_and_oddities() {
    run(
        "ellipsis",
        &[
            ("[1, 2, 3, ...]", "[1,2,3]"),
            ("[1, 2, ...]", "[1,2]"),
            ("[...]", "[]"),
            ("{\"a\": 1, ...}", r#"{"a":1}"#),
            ("[1, …]", "[1]"),
        ],
    );
    run(
        "JSONP",
        &[
            ("callback({\"a\": 1});", r#"{"a":1}"#),
            ("jQuery123_456([1, 2])", "[1,2]"),
        ],
    );
    run(
        "MongoDB types",
        &[
            (
                r#"{"_id": ObjectId("123"), "n": NumberLong(5)}"#,
                r#"{"_id":"123","n":5}"#,
            ),
            (
                r#"{"d": ISODate("2020-01-01T00:00:00Z")}"#,
                r#"{"d":"2020-01-01T00:00:00Z"}"#,
            ),
            (r#"{"n": NumberInt("7")}"#, r#"{"n":7}"#),
            (r#"{"n": NumberLong("abc")}"#, r#"{"n":"abc"}"#),
        ],
    );
    run(
        "regex literal",
        &[
            (r#"{"r": /ab+c/}"#, r#"{"r":"/ab+c/"}"#),
            (r#"{"r": /a\/b/gi}"#, r#"{"r":"/a\\/b/gi"}"#),
        ],
    );
    run(
        "combined",
        &[
            ("{name: 'Ada', tags: ['x', 'y',], active: True,}", r#"{"name":"Ada","tags":["x","y"],"active":true}"#),
            (
                "Sure!\n```json\n{\n  // the user\n  name: 'Ada', age: 36,\n  langs: ['en', 'fr',],\n}\n```",
                r#"{"name":"Ada","age":36,"langs":["en","fr"]}"#,
            ),
            ("{'a': None, 'b': [True, False], 'c': 'it's'}", r#"{"a":null,"b":[true,false],"c":"it's"}"#),
        ],
    );
}

#[test]
fn repairs_are_reported_with_spans_inside_the_input() {
    let input = "{a: 'x', b: [1, 2,], // c\n c: True}";
    let r = repair(input).unwrap();
    for rep in &r.repairs {
        assert!(
            rep.span().start <= rep.span().end && rep.span().end <= input.len(),
            "{rep:?}"
        );
    }
    let found: Vec<_> = r.repairs.iter().map(|r| r.kind()).collect();
    for k in [
        RepairKind::UnquotedKey,
        RepairKind::SingleQuotes,
        RepairKind::TrailingComma,
        RepairKind::RemovedComment,
        RepairKind::PythonLiteral,
    ] {
        assert!(found.contains(&k), "{k:?} missing from {found:?}");
    }
    let comma = r
        .repairs
        .iter()
        .find(|r| r.kind() == RepairKind::TrailingComma)
        .unwrap();
    assert_eq!(&input[comma.span()], ",");
}

#[test]
fn repair_is_idempotent_on_the_table() {
    for input in [
        "{a: 'x', b: [1, 2,],}",
        "```json\n{\"a\": 1}\n```",
        r#"{"a": "hello wor"#,
        r#"{"text": "He said "hi" to me"}"#,
        "{\"a\":1}\n{\"a\":2}",
    ] {
        let once = repair(input).unwrap().text;
        let twice = repair(&once).unwrap();
        assert_eq!(twice.text, once);
        assert!(twice.repairs.is_empty());
    }
}

#[test]
fn options_policies() {
    use jsonheal::{repair_with, DuplicateKeys, ErrorKind, Multiple, NonFinite, Options};
    let two = "{\"a\": 1}\n{\"a\": 2}";
    let o = |m| Options {
        multiple: m,
        ..Options::default()
    };
    assert_eq!(
        repair_with(two, &o(Multiple::First)).unwrap().text,
        r#"{"a":1}"#
    );
    assert_eq!(
        repair_with(two, &o(Multiple::Last)).unwrap().text,
        r#"{"a":2}"#
    );
    assert_eq!(
        repair_with(two, &o(Multiple::Error)).unwrap_err().kind(),
        &ErrorKind::MultipleValues
    );

    let dup = r#"{"a": 1, "b": 2, "a": 3}"#;
    let d = |p| Options {
        duplicate_keys: p,
        ..Options::default()
    };
    assert_eq!(repair_with(dup, &d(DuplicateKeys::Keep)).unwrap().text, dup);
    assert_eq!(
        repair_with(dup, &d(DuplicateKeys::First)).unwrap().text,
        r#"{"a":1,"b":2}"#
    );
    assert_eq!(
        repair_with(dup, &d(DuplicateKeys::Last)).unwrap().text,
        r#"{"b":2,"a":3}"#
    );
    assert!(matches!(
        repair_with(dup, &d(DuplicateKeys::Error)).unwrap_err().kind(),
        ErrorKind::DuplicateKey(k) if k == "a"
    ));

    let nf = "[NaN, Infinity]";
    let n = |p| Options {
        non_finite: p,
        ..Options::default()
    };
    assert_eq!(
        repair_with(nf, &n(NonFinite::String)).unwrap().text,
        r#"["NaN","Infinity"]"#
    );
    assert_eq!(
        repair_with(nf, &n(NonFinite::Error)).unwrap_err().kind(),
        &ErrorKind::NonFinite
    );

    let deep = format!("{}{}", "[".repeat(10), "]".repeat(10));
    let shallow = Options {
        max_depth: 5,
        ..Options::default()
    };
    assert_eq!(
        repair_with(&deep, &shallow).unwrap_err().kind(),
        &ErrorKind::TooDeep
    );
}

#[test]
fn strict_mode_reports_line_and_column() {
    use jsonheal::{repair_with, Options};
    let ok = repair_with("{\"a\": 1}", &Options::strict()).unwrap();
    assert!(ok.repairs.is_empty());
    let err = repair_with("{\n  \"a\" 1\n}", &Options::strict()).unwrap_err();
    assert_eq!((err.line(), err.column()), (Some(2), Some(7)));
    assert_eq!(err.to_string(), "expected `:` at line 2 column 7");
    let eof = repair_with("{\"a\": 1", &Options::strict()).unwrap_err();
    assert!(
        eof.to_string()
            .starts_with("EOF while parsing an object at line 1"),
        "{eof}"
    );
    assert_eq!(
        repair_with("  ", &Options::strict())
            .unwrap_err()
            .to_string(),
        "no JSON found"
    );
    // Columns count characters, offsets bytes, whatever serde_json counts.
    let wide = "{\"é\": \"ü\", \"x\": 1,,}";
    let err = repair_with(wide, &Options::strict()).unwrap_err();
    let at = err.position().map(|p| p.offset);
    assert_eq!(at.and_then(|o| wide.get(o..o + 1)), Some(","));
    assert_eq!(at, wide.rfind(','));
    assert_eq!(err.column(), Some(19));
}

#[test]
fn deep_nesting_is_bounded_and_linear() {
    // Run on a small stack: the engine must not recurse.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let deep = "[".repeat(1_000_000);
            let err = repair(&deep).unwrap_err();
            assert_eq!(err.kind(), &jsonheal::ErrorKind::TooDeep);
            let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
            assert_eq!(repair(&ok).unwrap().text, ok);
            let cut = "[".repeat(100);
            let r = repair(&cut).unwrap();
            assert_eq!(r.text, format!("{}{}", "[".repeat(100), "]".repeat(100)));
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn comments_after_commas_end_the_string_before_them() {
    run(
        "comments",
        &[
            (
                "{\"a\": \"\", # a note\n\"b\": null}",
                r#"{"a":"","b":null}"#,
            ),
            ("{\"a\": \"x\", // note\n\"b\": 1}", r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\", /* c */ \"b\": 1}", r#"{"a":"x","b":1}"#),
        ],
    );
}

#[test]
fn cut_unicode_escapes_are_never_copied_through() {
    // serde_json reports these as a valid prefix cut short; they are not.
    for (input, expected) in [
        ("{\"s\": \"x\\u\", ", r#"{"s":"x\\u"}"#),
        ("[\"\\ud800\", 1", r#"["\ufffd",1]"#),
    ] {
        let r = repair(input).unwrap();
        let v = r.value().unwrap();
        assert_eq!(
            v,
            serde_json::from_str::<Value>(expected).unwrap(),
            "{input:?}"
        );
    }
}

#[test]
fn strings_that_lost_their_closing_quote() {
    run(
        "missing closing quote",
        &[
            (
                "{\"a\": 1, \"b\": \"unterminated\n}",
                r#"{"a":1,"b":"unterminated"}"#,
            ),
            (
                "{\n  \"a\": \"foo\",\n  \"b\": \"bar\n}",
                r#"{"a":"foo","b":"bar"}"#,
            ),
            ("[\"x\n]", r#"["x"]"#),
            (r#"{"a": "b" , , "c": "d"}"#, r#"{"a":"b","c":"d"}"#),
            // A cut string whose text merely contains a line break keeps it.
            ("{\"a\": \"line\nmore", r#"{"a":"line\nmore"}"#),
        ],
    );
}

#[test]
fn arithmetic_after_a_number_is_one_bare_value() {
    run(
        "unquoted string values",
        &[
            ("{expression: 3 * 7}", r#"{"expression":"3 * 7"}"#),
            ("{\"a\": 10 - 2, \"b\": 1}", r#"{"a":"10 - 2","b":1}"#),
            ("{\"size\": 1920 x 1080}", r#"{"size":"1920 x 1080"}"#),
            ("[1 -2]", "[1,-2]"),
            ("{\"a\": 5 // c\n}", r#"{"a":5}"#),
        ],
    );
}

#[test]
fn reasoning_tags_close_in_any_case() {
    run(
        "reasoning preamble",
        &[
            ("<THINKING>x {\"a\": 0}</THINKING>{\"a\": 1}", r#"{"a":1}"#),
            ("<Think>x</think>\n[1]", "[1]"),
        ],
    );
}

#[test]
fn a_key_right_after_a_closing_quote_means_a_missing_comma() {
    run(
        "missing commas",
        &[
            (r#"{"a":"x""b":"y"}"#, r#"{"a":"x","b":"y"}"#),
            (r#"{"key": "val"ue"}"#, r#"{"key":"val\"ue"}"#),
        ],
    );
}

#[test]
fn prose_in_braces_is_not_an_object() {
    run(
        "no JSON at all",
        &[
            ("{see attached}", ERR),
            ("{name}", ERR),
            ("{a = 1}", r#"{"a":1}"#),
            ("{a: 1}", r#"{"a":1}"#),
            ("{\"a\"}", r#"{"a":null}"#),
            ("{", "{}"),
        ],
    );
}

#[test]
fn a_comment_after_a_bracket_in_prose_still_opens_json() {
    run(
        "comments",
        &[
            ("Here:\n[ # the ids\n  1, 2]", "[1,2]"),
            ("Result: { // the user\n  \"a\": 1}", r#"{"a":1}"#),
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

/// A comment right after a closing quote (no space): the string ends there when JSON goes on
/// after the comment; otherwise the quote and the slashes are content.
#[test]
fn a_comment_right_after_a_closing_quote() {
    run(
        "comments",
        &[
            (r#"["a"/* foo */]"#, r#"["a"]"#),
            ("{\"a\": \"b\"// c\n}", r#"{"a":"b"}"#),
            (r#"{"a": "b"/* c */, "d": 1}"#, r#"{"a":"b","d":1}"#),
            (r#"{"a": "x"/*c*/ "b": 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a": "x", "b" /* c */: 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a": "x", b /* c */ : 1}"#, r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\", \"b\"// c\n: 1}", r#"{"a":"x","b":1}"#),
            (
                r#"{"a": "see "//server/x" ok"}"#,
                r#"{"a":"see \"//server/x\" ok"}"#,
            ),
            (
                r#"{"a": "x", url: "http://x/y"}"#,
                r#"{"a":"x","url":"http://x/y"}"#,
            ),
        ],
    );
}

/// A key that lost its colon, right before a number or a quoted value.
#[test]
fn missing_colons_right_after_the_key() {
    run(
        "missing colon",
        &[
            (r#"{"a"2}"#, r#"{"a":2}"#),
            (r#"{"a"1, "b"2}"#, r#"{"a":1,"b":2}"#),
            ("{a 'b'}", r#"{"a":"b"}"#),
            ("{a “b”}", r#"{"a":"b"}"#),
            // A word after the quote is still part of the key.
            (r#"{"key"s": 1}"#, r#"{"key\"s":1}"#),
            ("{see attached}", ERR),
        ],
    );
}

/// `1/3` is one bare value (a string); a comment after a number still ends it.
#[test]
fn a_slash_after_a_number_is_not_a_comment() {
    run(
        "bare values",
        &[
            (r#"{"key": 1/3}"#, r#"{"key":"1/3"}"#),
            (r#"{"key": 10/3, "b": 1}"#, r#"{"key":"10/3","b":1}"#),
            ("[1/2]", r#"["1/2"]"#),
            ("[1// c\n]", "[1]"),
            (r#"{"a": 1/* x */}"#, r#"{"a":1}"#),
        ],
    );
}

/// Unicode spaces between tokens are layout, not values.
#[test]
fn unicode_spaces_between_tokens() {
    run(
        "layout",
        &[
            ("{\"a\":\u{a0}\"foo\"}", r#"{"a":"foo"}"#),
            ("{\"a\":\u{202f}\"foo\"}", r#"{"a":"foo"}"#),
            ("{\"a\":\u{3000}\"foo\"}", r#"{"a":"foo"}"#),
            ("{\u{2003}\"a\": \u{201c}b\u{201d}}", r#"{"a":"b"}"#),
            ("[1,\u{2028} 2]", "[1,2]"),
            // After a string value's closing quote too: the quote ends the string.
            ("{\"a\": \"x\",\u{a0}\"b\": 1}", r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\",\u{2009}\"b\": 1}", r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\",\u{200b}\"b\": 1}", r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\",\u{3000}\"b\": 1}", r#"{"a":"x","b":1}"#),
            ("{\"a\": \"x\"\u{a0}, \"b\": 1}", r#"{"a":"x","b":1}"#),
            ("[\"x\",\u{a0}\"y\"]", r#"["x","y"]"#),
            // Direction marks and the word joiner are invisible layout as well.
            ("{\"a\":\u{200f}\"x\"}", r#"{"a":"x"}"#),
            (
                "{\"a\":\u{200e}\"x\", \"b\":\u{2060}2}",
                r#"{"a":"x","b":2}"#,
            ),
            // Inside a string they are content.
            ("{\"a\": \"x\u{3000}y\"}", "{\"a\":\"x\u{3000}y\"}"),
        ],
    );
}

/// A code fence written on one line.
#[test]
fn one_line_fences() {
    run(
        "fences",
        &[
            ("```{\"a\": 1}```", r#"{"a":1}"#),
            ("```json {\"a\": \"b\"} ```", r#"{"a":"b"}"#),
            ("Here: ```json {\"a\": 1}```", r#"{"a":1}"#),
            ("````{ \"key\": \"value\" }```", r#"{"key":"value"}"#),
            ("Here it is: ```json { 'a': 'b' } ```", r#"{"a":"b"}"#),
            ("```json [1, 2]``` and ```json [3]```", "[[1,2],[3]]"),
            ("```json```", ERR),
        ],
    );
}

/// A scalar, or several, making up the whole text.
#[test]
fn top_level_scalars_that_need_repair() {
    run(
        "top level",
        &[
            (r#""He said "hi" to me""#, r#""He said \"hi\" to me""#),
            (
                r#""The TV has a 24" screen""#,
                r#""The TV has a 24\" screen""#,
            ),
            ("\"hello\nworld\"", r#""hello\nworld""#),
            (r#""a"+"b"+"c""#, r#""abc""#),
            (r#""hello" + " world""#, r#""hello world""#),
            ("'it's'", r#""it's""#),
            // Cut off: the prefix, reported as truncated.
            (r#""abc"#, r#""abc""#),
            ("'abc", r#""abc""#),
            // Several scalars: an array, as for several top-level values.
            ("1\n2", "[1,2]"),
            ("1,2,3", "[1,2,3]"),
            ("1,2,3,", "[1,2,3]"),
            ("\"a\"\n\"b\"", r#"["a","b"]"#),
            (r#""a", "b""#, r#"["a","b"]"#),
            ("None, 1", "[null,1]"),
            ("4,", "4"),
            ("4 , ", "4"),
            // Prose is still prose.
            ("hello", ERR),
            ("42 is the answer", ERR),
            (r#""I am sorry" he said"#, ERR),
            (r#""Hello," she said. {"a": 1}"#, r#"{"a":1}"#),
        ],
    );
    assert!(repair(r#""abc"#).unwrap().is_truncated());
}

/// A string that never closes, at the end of a text that ends with exactly the closers of
/// what is open: the quote was forgotten before them (not a cut-off answer).
#[test]
fn a_forgotten_quote_before_the_final_closers() {
    run(
        "missing quote",
        &[
            (r#"{"key": ["value]}"#, r#"{"key":["value"]}"#),
            ("[\"abc]\n", r#"["abc"]"#),
            ("[\"abc  ]\n", r#"["abc"]"#),
            ("[\n[\n\"abc\n]\n]\n", r#"[["abc"]]"#),
            (r#"[{"a": "x}]"#, r#"[{"a":"x"}]"#),
            // Closers that do not match what is open are content of a cut-off string.
            (r#"{"code": "arr[i]"#, r#"{"code":"arr[i]"}"#),
            (r#"{"a": ["x", "y]]}"#, r#"{"a":["x","y]]}"]}"#),
        ],
    );
    assert!(!repair(r#"{"key": ["value]}"#).unwrap().is_truncated());
    assert!(repair(r#"{"a": ["x", "y]]}"#).unwrap().is_truncated());
}

/// A wrapper call making up the whole text is unwrapped like one inside a document.
#[test]
fn top_level_wrappers() {
    run(
        "wrappers",
        &[
            ("callback_123(2);", "2"),
            ("callback_123(\"foo\");", r#""foo""#),
            ("callback_123(null);", "null"),
            ("NumberLong(5)", "5"),
            // Mongo quotes 64-bit numbers: the number is meant.
            ("NumberLong(\"2\")", "2"),
            ("ObjectId(\"x\")", r#""x""#),
            // Code is not a value.
            ("print(hello)", ERR),
            ("foo() bar", ERR),
        ],
    );
}

/// Quotes alone hold no value.
#[test]
fn quotes_alone_are_no_json() {
    run(
        "no json",
        &[("\"\"\"\"\"", ERR), ("''''", ERR), ("\"", ERR), ("'", ERR)],
    );
}

/// What follows a string value's closing quote decides that it closes the string: the next
/// member in any form a model writes it (a key that lost its colon, a dotted or `@` key, an
/// ellipsis, a key cut by the end of the text).
#[test]
fn what_follows_a_closing_quote() {
    run(
        "key without colon after a string",
        &[
            (
                "{\n  \"name\" \"Ada\",\n  \"age\" 36\n}",
                r#"{"name":"Ada","age":36}"#,
            ),
            (r#"{"a": "x", "b" 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a" "b" "c" "d"}"#, r#"{"a":"b","c":"d"}"#),
            (
                r#"{"name": "Ada", "tags" ["x"]}"#,
                r#"{"name":"Ada","tags":["x"]}"#,
            ),
            (
                r#"{"name": "search", "arguments" {"q": "rust"}}"#,
                r#"{"name":"search","arguments":{"q":"rust"}}"#,
            ),
            (
                r#"{"city": "Paris", "sunny" true}"#,
                r#"{"city":"Paris","sunny":true}"#,
            ),
            // A quoted word then prose is still an inner quote.
            (
                r#"{"say": "press "OK" to go", "n": 1}"#,
                r#"{"say":"press \"OK\" to go","n":1}"#,
            ),
        ],
    );
    run(
        "dotted, @ and slashed keys after a string",
        &[
            (
                r#"{user.name: "ada", user.id: 7}"#,
                r#"{"user.name":"ada","user.id":7}"#,
            ),
            (
                r#"{@type: "Person", @id: "p1"}"#,
                r#"{"@type":"Person","@id":"p1"}"#,
            ),
            (
                r#"{"src": "a.txt", dest/path: "b.txt"}"#,
                r#"{"src":"a.txt","dest/path":"b.txt"}"#,
            ),
            (r#"{"a": "x", b /* c */ : 1}"#, r#"{"a":"x","b":1}"#),
        ],
    );
    run(
        "ellipsis after a string",
        &[
            (r#"{"a": "x", ... "z": 1}"#, r#"{"a":"x","z":1}"#),
            (r#"{"name": "Ada", ...}"#, r#"{"name":"Ada"}"#),
            (
                "{\n  \"id\": \"u1\",\n  \"name\": \"Ada\",\n  ...\n}",
                r#"{"id":"u1","name":"Ada"}"#,
            ),
            (
                r#"[{"id": 1, "name": "a", ...}, ...]"#,
                r#"[{"id":1,"name":"a"}]"#,
            ),
        ],
    );
    run(
        "a key cut by the end after a string",
        &[
            (r#"{"a": "x", na"#, r#"{"a":"x"}"#),
            (r#"{name: "Ada", user.na"#, r#"{"name":"Ada"}"#),
            ("{'a': 'x', 'b'", r#"{"a":"x"}"#),
            ("{'a': 'x', '", r#"{"a":"x"}"#),
            (r#"{"a": "x" + "#, r#"{"a":"x"}"#),
        ],
    );
}

/// A number or literal followed by words on the same line is one bare string (`3 apples`),
/// unless the words are a key or a literal of their own.
#[test]
fn numbers_and_literals_followed_by_words() {
    run(
        "phrases",
        &[
            (
                r#"{"a": True story, "b": nullable}"#,
                r#"{"a":"True story","b":"nullable"}"#,
            ),
            (
                r#"{"a": 3 apples, "b": 1st place}"#,
                r#"{"a":"3 apples","b":"1st place"}"#,
            ),
            (
                r#"{"count": 10 items, "ok": true}"#,
                r#"{"count":"10 items","ok":true}"#,
            ),
            (r#"{"duration": 5 minutes}"#, r#"{"duration":"5 minutes"}"#),
            (
                r#"{"price": 19.99 USD, "qty": 2}"#,
                r#"{"price":"19.99 USD","qty":2}"#,
            ),
            (
                r#"{"error": null pointer exception, "line": 3}"#,
                r#"{"error":"null pointer exception","line":3}"#,
            ),
            (
                r#"{"temp": -5 degrees, "city": Oslo}"#,
                r#"{"temp":"-5 degrees","city":"Oslo"}"#,
            ),
            ("{\"eta\": 3 days\n, \"n\": 1}", r#"{"eta":"3 days","n":1}"#),
            (r#"[3 apples, 2 pears]"#, r#"["3 apples","2 pears"]"#),
            // Separate values.
            ("[1 2 3]", "[1,2,3]"),
            ("[true false]", "[true,false]"),
            (r#"{"a": 1 b: 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a": 1 "b": 2}"#, r#"{"a":1,"b":2}"#),
            ("{\"a\": 1 // note\n}", r#"{"a":1}"#),
            // Cut by the end: the words may be a key being written.
            (r#"{"a": 1 b"#, r#"{"a":1}"#),
        ],
    );
    run(
        "clock times and ratios",
        &[
            (
                r#"{"time": 12:30, "tz": UTC}"#,
                r#"{"time":"12:30","tz":"UTC"}"#,
            ),
            (
                r#"{"aspect": 16:9, "fps": 30}"#,
                r#"{"aspect":"16:9","fps":30}"#,
            ),
            (
                r#"{"start": 10:30 AM, "room": B2}"#,
                r#"{"start":"10:30 AM","room":"B2"}"#,
            ),
        ],
    );
}

/// A call with several arguments is an expression, kept whole; one argument is a wrapper.
#[test]
fn calls_with_several_arguments() {
    run(
        "calls",
        &[
            (r#"{"formula": max(a, b)}"#, r#"{"formula":"max(a, b)"}"#),
            (
                "{'when': datetime.date(2024, 5, 1), 'n': 1}",
                r#"{"when":"datetime.date(2024, 5, 1)","n":1}"#,
            ),
            (r#"[max(1,2), 3]"#, r#"["max(1,2)",3]"#),
            (r#"{"a": f("x, y")}"#, r#"{"a":"x, y"}"#),
            (
                r#"{"_id": ObjectId("x"), "n": NumberLong(5)}"#,
                r#"{"_id":"x","n":5}"#,
            ),
        ],
    );
}

/// A non-finite number or `undefined` cut by the end is completed, never a string.
#[test]
fn cut_literals_of_every_kind() {
    run(
        "cut literals",
        &[
            ("[1, 2, Infin", "[1,2,null]"),
            ("[1, undefi", "[1,null]"),
            (r#"{"a": "x", "b": -Inf"#, r#"{"a":"x","b":null}"#),
            ("[1, tr", "[1,true]"),
        ],
    );
}

/// JSON or code inside a string value whose own closers come right before the real
/// closing quote: the closers are content, the members after the string survive.
#[test]
fn closers_inside_a_string_before_its_quote() {
    run(
        "closers inside a string",
        &[
            (
                r#"{"content": "{"key": "value"}", "path": "a.json"}"#,
                r#"{"content":"{\"key\": \"value\"}","path":"a.json"}"#,
            ),
            (
                r#"{"code": "x = {"k": "v"}", "n": 1}"#,
                r#"{"code":"x = {\"k\": \"v\"}","n":1}"#,
            ),
            (
                r#"{"js": "const o = {a: "b"};", "ok": true}"#,
                r#"{"js":"const o = {a: \"b\"};","ok":true}"#,
            ),
            // JSON inside, its quotes unescaped: its own members stay inside.
            (
                r#"{"arguments": "{"location": "Boston, MA", "unit": "f"}"}"#,
                r#"{"arguments":"{\"location\": \"Boston, MA\", \"unit\": \"f\"}"}"#,
            ),
            (
                "{\"code\": \"data = {\"name\": \"x\", \"id\": 2}\\nprint(data)\", \"lang\": \"py\"}",
                r#"{"code":"data = {\"name\": \"x\", \"id\": 2}\nprint(data)","lang":"py"}"#,
            ),
            // A wrong closer with more text after it, in an object.
            (
                r#"{"css": "a[href="x"] { color: red; }"}"#,
                r#"{"css":"a[href=\"x\"] { color: red; }"}"#,
            ),
            (r#"["{", null]"#, r#"["{",null]"#),
            // A stray quote after the document is not content.
            (r#"{"a": {"b": "c"}}""#, r#"{"a":{"b":"c"}}"#),
            (r#"[{"a": "x"}, "y"]"#, r#"[{"a":"x"},"y"]"#),
        ],
    );
}

/// The opening bracket went missing before scalars or bare keys; the closer says which.
#[test]
fn missing_openers_before_scalars_and_bare_keys() {
    run(
        "missing openers",
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
        &[
            (r#"{"a": "x" + /* c */ "y"}"#, r#"{"a":"xy"}"#),
            ("{\"a\": \"x\" + // part two\n \"y\"}", r#"{"a":"xy"}"#),
        ],
    );
}

/// A member whose key lost its colon after a string value: the string still ends at its
/// quote, and the member keeps its value.
#[test]
fn keys_without_colons_after_strings() {
    run(
        "keys without colons",
        &[
            (r#"{'name' 'x', age 3,}"#, r#"{"name":"x","age":3}"#),
            (
                r#"{"name": "Ann", age 31, "city": "Rome"}"#,
                r#"{"name":"Ann","age":31,"city":"Rome"}"#,
            ),
            (
                "{\n  \"name\": \"Ann\",\n  age 31\n}",
                r#"{"name":"Ann","age":31}"#,
            ),
            (
                r#"{"id": "7", status "open"}"#,
                r#"{"id":"7","status":"open"}"#,
            ),
            (
                r#"{"title": "Dune", author "Frank Herbert", year 1965}"#,
                r#"{"title":"Dune","author":"Frank Herbert","year":1965}"#,
            ),
            (r#"{city "Paris", days 3}"#, r#"{"city":"Paris","days":3}"#),
            (
                r#"{"id": "7", "status" open}"#,
                r#"{"id":"7","status":"open"}"#,
            ),
            (
                r#"{"city": "Lyon", "unit" celsius, "days": 3}"#,
                r#"{"city":"Lyon","unit":"celsius","days":3}"#,
            ),
            (
                r#"{'lang': 'de', 'mode' strict}"#,
                r#"{"lang":"de","mode":"strict"}"#,
            ),
            // Prose after an inner quote stays in the string.
            (
                r#"{"text": "He said "yes", then 2 more"}"#,
                r#"{"text":"He said \"yes\", then 2 more"}"#,
            ),
            (r#"{"msg": "a, b 1, c"}"#, r#"{"msg":"a, b 1, c"}"#),
        ],
    );
    run(
        "bare keys without colons",
        &[
            (r#"{"a": null, count 2}"#, r#"{"a":null,"count":2}"#),
            (r#"{"ok": true, retries 3}"#, r#"{"ok":true,"retries":3}"#),
            (
                r#"{"tags": ["x"], limit 10}"#,
                r#"{"tags":["x"],"limit":10}"#,
            ),
            (r#"{"a": 1, enabled true}"#, r#"{"a":1,"enabled":true}"#),
            (r#"{"a": 1, retry count 3}"#, r#"{"a":1,"retry count":3}"#),
            // The last word is no value: a key with spaces and no value.
            (r#"{"a": 1, first name}"#, r#"{"a":1,"first name":null}"#),
            (
                r#"{"a": 1, version 1.2.3}"#,
                r#"{"a":1,"version 1.2.3":null}"#,
            ),
        ],
    );
}

/// Quotes inside code or prose in a string, where what follows them looks like the end of
/// the string at first sight.
#[test]
fn inner_quotes_before_separators_and_closers() {
    run(
        "inner quotes before `;` and closers",
        &[
            (
                r#"{"code": "function f() { return "ok"; }", "file": "a.js"}"#,
                r#"{"code":"function f() { return \"ok\"; }","file":"a.js"}"#,
            ),
            (
                r#"{"name": "write_file", "arguments": {"path": "g.ts", "content": "export function g() { return "hi"; }"}}"#,
                r#"{"name":"write_file","arguments":{"path":"g.ts","content":"export function g() { return \"hi\"; }"}}"#,
            ),
            (
                r#"{"msg": "Type "}" to close", "n": 1}"#,
                r#"{"msg":"Type \"}\" to close","n":1}"#,
            ),
            // A `;` between members is still a separator.
            (r#"{"a": "x"; "b": 2}"#, r#"{"a":"x","b":2}"#),
            // A closer that closes an inner container before a key is no content.
            (r#"{"a": {"b": "x"}"c": 1}"#, r#"{"a":{"b":"x"},"c":1}"#),
            (r#"[["a"]"b", "c"]"#, r#"[["a"],"b","c"]"#),
        ],
    );
    run(
        "inner quotes before a comma in an array",
        &[
            (
                r#"["She said "no", then left", "next"]"#,
                r#"["She said \"no\", then left","next"]"#,
            ),
            (
                r#"{"quotes": ["He said "wait", and stopped", "fine"]}"#,
                r#"{"quotes":["He said \"wait\", and stopped","fine"]}"#,
            ),
            (r#"["a", b, "c"]"#, r#"["a","b","c"]"#),
            (r#"["x", "y"]"#, r#"["x","y"]"#),
            // One bare word after a string: the comma before it went missing.
            (r#"["red", "green" blue]"#, r#"["red","green","blue"]"#),
            (r#"["He said "hi" twice]"#, r#"["He said \"hi\" twice"]"#),
        ],
    );
}

/// A key with quotes inside, and comments inside a concatenation at the top level.
#[test]
fn inner_quotes_in_keys_and_top_level_concatenation() {
    run(
        "inner quotes in keys",
        &[
            (r#"{"the "best" one": 1}"#, r#"{"the \"best\" one":1}"#),
            (r#"{"name" "Ada", "age" 36}"#, r#"{"name":"Ada","age":36}"#),
            (r#"{"a" "b": 1}"#, r#"{"a":{"b":1}}"#),
        ],
    );
    run(
        "top-level concatenation with comments",
        &[
            (r#""a" + /* c */ "b""#, r#""ab""#),
            (r#""a" /* c */ + "b""#, r#""ab""#),
            ("\"a\" + // c\n \"b\"", r#""ab""#),
            (r#""He said "hi" + more""#, r#""He said \"hi\" + more""#),
        ],
    );
}

/// An array inside an object lost its `]`: the next member's key shows where it ended.
#[test]
fn arrays_left_open_before_the_next_key() {
    run(
        "arrays left open before a key",
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

/// Source code inside a string value with its quotes unescaped.
#[test]
fn code_with_unescaped_quotes_in_strings() {
    run(
        "code in strings",
        &[
            // Go imports: quoted words on lines of their own are no keys without colons.
            (
                "{\"path\": \"main.go\", \"content\": \"import (\n\t\"fmt\"\n\t\"net/http\"\n)\n\"}",
                r#"{"path":"main.go","content":"import (\n\t\"fmt\"\n\t\"net/http\"\n)\n"}"#,
            ),
            // A `)` right after closers inside the document is code.
            (
                r#"{"arguments": {"content": "r = get(URL, params={"base": "EUR"})\nprint(r)"}}"#,
                r#"{"arguments":{"content":"r = get(URL, params={\"base\": \"EUR\"})\nprint(r)"}}"#,
            ),
            // JSONP still ends at its `)`.
            (r#"The call is get_time({"tz": "UTC"})"#, r#"{"tz":"UTC"}"#),
            (r#"cb({"a": ["x"]});"#, r#"{"a":["x"]}"#),
            // A fence inside an unfenced document's string is content.
            (
                "{\"content\": \"## Usage\n```bash\nrun --column \"price\"\n```\nDone.\n\"}",
                r###"{"content":"## Usage\n```bash\nrun --column \"price\"\n```\nDone.\n"}"###,
            ),
            // A closing fence at the text's end (the opening one was in the prompt).
            ("{\"key\": \"value, value2\"```", r#"{"key":"value, value2"}"#),
            // Fenced, the closing fence still ends the document after a string.
            ("```json\n{\"a\": \"x\"\n```", r#"{"a":"x"}"#),
            // A key that lost its colon keeps its value on its line.
            ("{\"name\" \"Ada\", \"age\" 36}", r#"{"name":"Ada","age":36}"#),
        ],
    );
}

/// A fenced document that lost its `{`, after prose.
#[test]
fn missing_opener_inside_a_fence() {
    run(
        "missing opener inside a fence",
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

/// A closer that nothing open takes, before more members of the container around: the
/// wrong closer for the inner container.
#[test]
fn wrong_closers_before_more_members() {
    run(
        "wrong closers",
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

/// An inner quote followed by closers and more words (`if [[ -f "$f" ]]; then`), or by a
/// line comment whose line holds the string's real end: content, not the string's end.
#[test]
fn closers_and_comments_after_inner_quotes() {
    run(
        "closers and comments after inner quotes",
        &[
            (
                r#"{"c": "x "y" ]] z", "d": 1}"#,
                r#"{"c":"x \"y\" ]] z","d":1}"#,
            ),
            (r#"["x "y" ]] z"]"#, r#"["x \"y\" ]] z"]"#),
            (r#"{"c": "a "b" } c"}"#, r#"{"c":"a \"b\" } c"}"#),
            (
                r#"{"content": "if [[ -f "$f" ]]; then\n  echo ok\nfi", "path": "a.sh"}"#,
                r#"{"content":"if [[ -f \"$f\" ]]; then\n  echo ok\nfi","path":"a.sh"}"#,
            ),
            (
                r#"{"c": "say "hi" # note", "d": 1}"#,
                r#"{"c":"say \"hi\" # note","d":1}"#,
            ),
            (
                r#"{"c": "say "hi" // note", "d": 1}"#,
                r#"{"c":"say \"hi\" // note","d":1}"#,
            ),
            // Prose after the document quotes words too: the document ends at its closer.
            (r#"{"a": "x"} and "b", too"#, r#"{"a":"x"}"#),
            (r#"{"a": "x"} Hope "this" helps"#, r#"{"a":"x"}"#),
            // A real comment after a value.
            ("{\"a\": \"x\" // the \"main\" one\n}", r#"{"a":"x"}"#),
            ("{\"a\": \"x\" # note\n, \"b\": 1}", r#"{"a":"x","b":1}"#),
            (r#"{"k": "a" /* c */ + "b"}"#, r#"{"k":"ab"}"#),
        ],
    );
}

/// A number or literal where an object in an array wants its next key: the object lost
/// its `}` before the array's next element. Nothing is made a key.
#[test]
fn elements_after_an_unclosed_object() {
    run(
        "elements after an unclosed object",
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

/// A citation in prose (`[1]`, `[12][13]` after words on a line) is no answer; a `[1]` that
/// starts the text or its own line, or comes after a first value, is JSON.
#[test]
fn citations_in_prose_are_no_answer() {
    run(
        "citations",
        &[
            ("This is well documented in the literature [1][2].", "ERR"),
            ("Refs: [12]", "ERR"),
            ("I could not find the primes; see [1].", "ERR"),
            ("see [1] and then {\"a\": 1}", r#"{"a":1}"#),
            ("[1]", "[1]"),
            ("[1][2]", "[[1],[2]]"),
            ("[1]\n[2]\n[3]", "[[1],[2],[3]]"),
            ("// {\"a\": 1}\n[1]", "[1]"),
            ("The result is [1, 2].", "[1,2]"),
            ("Result: [-1]", "[-1]"),
            // A Markdown task box is no empty array either.
            ("Todo:\n- [ ] write tests\n- [x] ship it", "ERR"),
            ("Steps:\n- [1, 2]", "[1,2]"),
        ],
    );
}

/// A bare path with one slash (`/tmp`) is no regex literal: nothing closes it on its line.
#[test]
fn bare_paths_with_one_slash() {
    run(
        "bare paths",
        &[
            (r#"{dir: /tmp}"#, r#"{"dir":"/tmp"}"#),
            (r#"{"a": /tmp, "b": 1}"#, r#"{"a":"/tmp","b":1}"#),
            (r#"{cwd: /tmp, cmd: ls}"#, r#"{"cwd":"/tmp","cmd":"ls"}"#),
            // A closed one with flags is a regex.
            (r#"{"re": /ab+c/i, "x": 1}"#, r#"{"re":"/ab+c/i","x":1}"#),
        ],
    );
}

/// Single-character slips around a key: a doubled colon, and a colon lost between a
/// quoted key and a container with no space (`"c"{"d": 1}`).
#[test]
fn doubled_and_lost_colons() {
    run(
        "colon slips",
        &[
            (r#"{"a":: 1}"#, r#"{"a":1}"#),
            (r#"{"a":: "x", "b": 2}"#, r#"{"a":"x","b":2}"#),
            (r#"{"a":: {"b": 1}, "c": 2}"#, r#"{"a":{"b":1},"c":2}"#),
            (r#"{"a":"b","c"{"d":1}}"#, r#"{"a":"b","c":{"d":1}}"#),
            (r#"{"a":"b","c"[1]}"#, r#"{"a":"b","c":[1]}"#),
            // In a string, a colon is content.
            (r#"{"a": "::"}"#, r#"{"a":"::"}"#),
        ],
    );
}

/// A string opened by `'` and closed by `"`: its first `"`, when a `:` follows a key, or the
/// container's closer or `, ` and the next key or element follows a value.
#[test]
fn mismatched_quotes_around_a_string() {
    run(
        "mismatched quotes",
        &[
            (r#"{"a": 'x", "b": 1}"#, r#"{"a":"x","b":1}"#),
            (r#"['x", "y"]"#, r#"["x","y"]"#),
            (r#"{'a": 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a": 'x"}"#, r#"{"a":"x"}"#),
            // And a key opened by `"`, closed by `'`.
            (r#"{"a': 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"don't": 1}"#, r#"{"don't":1}"#),
            (r#"{"':": null}"#, r#"{"':":null}"#),
            // A key that lost its closing quote before its colon.
            (r#"{"a: 1, "b": 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a": 1, "b: 2}"#, r#"{"a":1,"b":2}"#),
            (r#"{"a: "x", "b": 2}"#, r#"{"a":"x","b":2}"#),
            (r#"{"time: 12:30": 1}"#, r#"{"time: 12:30":1}"#),
            (r#"{"a:b": 1}"#, r#"{"a:b":1}"#),
            // Double quotes inside a single-quoted string are content: JSON, code, speech.
            (
                r#"{'v': '{"t":"abc","e":1}', 'n': 2}"#,
                r#"{"v":"{\"t\":\"abc\",\"e\":1}","n":2}"#,
            ),
            (
                r#"{'c': 'CMD ["python", "main.py"]'}"#,
                r#"{"c":"CMD [\"python\", \"main.py\"]"}"#,
            ),
            (
                r#"{'a': 'He said "no", and left', 'b': 2}"#,
                r#"{"a":"He said \"no\", and left","b":2}"#,
            ),
        ],
    );
}

/// A stray quote right after a number that a separator or closer follows.
#[test]
fn stray_quote_after_a_number() {
    run(
        "stray quote after a number",
        &[
            (r#"{"a": 5", "b": 1}"#, r#"{"a":5,"b":1}"#),
            (r#"[1, 2"]"#, r#"[1,2]"#),
            (r#"{"a": -0.5e3"}"#, r#"{"a":-0.5e3}"#),
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

/// A Windows path that ends in a backslash right before its closing quote (`"C:\dir\"`):
/// no path holds a quote, so the quote ends it and the backslash stays.
#[test]
fn windows_paths_ending_in_a_backslash() {
    run(
        "windows paths ending in a backslash",
        &[
            (r#"{"path": "C:\dir\"}"#, r#"{"path":"C:\\dir\\"}"#),
            (r#"{"p": "C:\dir\", "q": 1}"#, r#"{"p":"C:\\dir\\","q":1}"#),
            (r#"["C:\dir\"]"#, r#"["C:\\dir\\"]"#),
            (r#"{"p": "C:\dir\"name"}"#, r#"{"p":"C:\\dir\"name"}"#),
        ],
    );
}

/// Small slips around numbers and separators: a negative number as a key after a string,
/// a minus sign parted from its number, full-width `：` and `，` from CJK text.
#[test]
fn negative_keys_parted_minus_and_full_width_separators() {
    run(
        "numbers and full-width separators",
        &[
            (r#"{"a": "x", -2: "y"}"#, r#"{"a":"x","-2":"y"}"#),
            (r#"{1.5: "x", -2: "y"}"#, r#"{"1.5":"x","-2":"y"}"#),
            (
                r#"{"a": "x, -2 is less", "b": 1}"#,
                r#"{"a":"x, -2 is less","b":1}"#,
            ),
            (r#"{"neg": - 5}"#, r#"{"neg":-5}"#),
            (r#"[- 5, 1]"#, r#"[-5,1]"#),
            (r#"{"a": - x}"#, r#"{"a":"- x"}"#),
            (r#"{"a"："b"，"c"："d"}"#, r#"{"a":"b","c":"d"}"#),
            (r#"{"a": "b"，"c": "d"}"#, r#"{"a":"b","c":"d"}"#),
            (r#"["x"，"y"]"#, r#"["x","y"]"#),
            // A trailing one (its repair's span covers all three bytes).
            (r#"["x"，]"#, r#"["x"]"#),
            // Bare keys and values around a full-width colon, at the text's start.
            (r#"{名前：太郎}"#, r#"{"名前":"太郎"}"#),
            (r#"{名前：太郎, 年齢：30}"#, r#"{"名前":"太郎","年齢":30}"#),
            (r#"{name：Taro}"#, r#"{"name":"Taro"}"#),
            // In text they are text.
            (
                r#"{"a": "你好，世界", "b": "x：y"}"#,
                r#"{"a":"你好，世界","b":"x：y"}"#,
            ),
        ],
    );
}

/// Prose that looks like JSON for a byte or two holds none.
#[test]
fn placeholders_and_options_are_no_json() {
    run(
        "json-looking prose",
        &[
            ("Usage: read_file <path> [--lines N]", ERR),
            ("see [-a] here", ERR),
            ("{{user_name}}", ERR),
            ("Hello {{ name }}, welcome", ERR),
            ("{{name}} and {{date}}", ERR),
            // Still JSON: a negative number, nested objects.
            ("Result: [-1, 2]", "[-1,2]"),
            (r#"{{"a": 1}}"#, r#"{"a":1}"#),
        ],
    );
}

/// A JSON string that holds JSON stays a string, with or without prose around it.
#[test]
fn json_strings_holding_json_stay_strings() {
    run(
        "double-encoded strings in prose",
        &[
            (r#""{\"a\": 1}""#, r#""{\"a\": 1}""#),
            (
                "Here's the payload:\n\"{\\\"user\\\": \\\"kim\\\"}\"",
                r#""{\"user\": \"kim\"}""#,
            ),
            ("```json\n\"{\\\"a\\\": 1}\"\n```", r#""{\"a\": 1}""#),
            // Not a string literal: an escaped document, unescaped.
            (r#"{\"a\": \"b\"}"#, r#"{"a":"b"}"#),
            // A member's value, in a document that lost its `{`: the document is the answer.
            (
                r#""result": "{\"a\": 1}", "ok": true}"#,
                r#"{"result":"{\"a\": 1}","ok":true}"#,
            ),
            (r#"'r': "[1, 2]"}"#, r#"{"r":"[1, 2]"}"#),
        ],
    );
}

/// A comment around the value holds no value, whatever it holds.
#[test]
fn json_inside_comments_around_the_value() {
    run(
        "json inside comments",
        &[
            ("// {\"a\": 1}\n{\"b\": 2}", r#"{"b":2}"#),
            (r#"/* {"old": true} */ {"new": true}"#, r#"{"new":true}"#),
            ("{\"b\": 2}\n// {\"a\": 1}", r#"{"b":2}"#),
            (r#"{"b": 2} /* {"a": 1} */"#, r#"{"b":2}"#),
            ("// {\"a\": 1}\n[1]", "[1]"),
            // A URL's `//` in prose is no comment; a Markdown heading is prose.
            (r#"see http://x.com {"a": 1}"#, r#"{"a":1}"#),
            ("# Result\n{\"a\": 1}", r#"{"a":1}"#),
            ("## Output {\"a\": 1}", r#"{"a":1}"#),
            ("// only a comment {\"a\": 1}", ERR),
        ],
    );
}

/// Paths written bare, and words before a colon inside a string.
#[test]
fn bare_paths_and_colons_inside_strings() {
    run(
        "bare paths",
        &[
            (
                r#"{"path": /usr/local/bin}"#,
                r#"{"path":"/usr/local/bin"}"#,
            ),
            ("[/usr/local/bin, 1]", r#"["/usr/local/bin",1]"#),
            (r#"{"p": /etc/hosts}"#, r#"{"p":"/etc/hosts"}"#),
            // Regex literals keep their flags.
            (r#"{"r": /ab+c/gi}"#, r#"{"r":"/ab+c/gi"}"#),
            (r#"{"r": /ab+c/, "b": 1}"#, r#"{"r":"/ab+c/","b":1}"#),
        ],
    );
    run(
        "a colon inside a string after an inner quote",
        &[
            (
                r#"{"reply": "Sure! Here is the "updated" version:", "done": true}"#,
                r#"{"reply":"Sure! Here is the \"updated\" version:","done":true}"#,
            ),
            (
                "{\"a\": \"x\"\n b: \"\", \"c\": 1}",
                r#"{"a":"x","b":"","c":1}"#,
            ),
            // A bare key whose value is the string `, ` (a whole value: `}` or `,`
            // follows it) is a key, and the string before it ends.
            (r#"{a: "", b: ", "}"#, r#"{"a":"","b":", "}"#),
            (
                r#"{a: [{a: "x", b: ", "}]}"#,
                r#"{"a":[{"a":"x","b":", "}]}"#,
            ),
            (
                r#"{"a": "x", b: ", ", "c": 1}"#,
                r#"{"a":"x","b":", ","c":1}"#,
            ),
            (r#"{"a": "x", sep: ",\t"}"#, r#"{"a":"x","sep":",\t"}"#),
            // A string that starts with `//` after the colon is the key's value.
            (
                "{a: '',_: \n\"// not a comment\",\n}",
                r#"{"a":"","_":"// not a comment"}"#,
            ),
        ],
    );
}

/// A string that lost its opening quote keeps its closing one: for a value, a separator or
/// closer follows that quote; for a key, its colon does.
#[test]
fn strings_that_lost_their_opening_quote() {
    run(
        "lost opening quote",
        &[
            (r#"{"a": x", "b": 1}"#, r#"{"a":"x","b":1}"#),
            (
                r#"{"a": hello world", "b": 1}"#,
                r#"{"a":"hello world","b":1}"#,
            ),
            (r#"["a", b", "c"]"#, r#"["a","b","c"]"#),
            (r#"{"a": x"}"#, r#"{"a":"x"}"#),
            (r#"{a": 1}"#, r#"{"a":1}"#),
            (r#"{"a": 1, b": 2}"#, r#"{"a":1,"b":2}"#),
            // After a string value the quote still closes it: the key follows.
            (r#"{"a": "x", b": 2}"#, r#"{"a":"x","b":2}"#),
            (
                "{\"a\": \"x\",\n b\": 2, c\": 3}",
                r#"{"a":"x","b":2,"c":3}"#,
            ),
            // A quote inside a value with words after it is no such thing.
            (
                r#"{"a": "say "hi" now", "b": 1}"#,
                r#"{"a":"say \"hi\" now","b":1}"#,
            ),
        ],
    );
}

/// Python string prefixes (`u`, `b`, `r`, `f`, `rb`): the string is meant. A raw string's
/// backslashes stay.
#[test]
fn python_string_prefixes() {
    run(
        "python",
        &[
            ("{u'a': 1}", r#"{"a":1}"#),
            ("{'a': u'x', 'b': b'y'}", r#"{"a":"x","b":"y"}"#),
            (r"{'a': r'\d{3}', 'b': 2}", r#"{"a":"\\d{3}","b":2}"#),
            (r#"{"a": u"x y", "b": 1}"#, r#"{"a":"x y","b":1}"#),
            ("[rb'x', f'{y}']", r#"["x","{y}"]"#),
            // A lone `u` or `b` is a value or a key, not a prefix.
            (r#"{"a": u, "b": 1}"#, r#"{"a":"u","b":1}"#),
            (r#"{"a": b", "c": 1}"#, r#"{"a":"b","c":1}"#),
        ],
    );
}

/// A chat template's control tokens before the value (`[TOOL_CALLS]`, `[ARGS]`, `[INST]`)
/// are not arrays; alone, `[ABC]` still is one.
#[test]
fn chat_template_control_tokens() {
    run(
        "prose",
        &[
            (
                r#"[TOOL_CALLS] [{"name": "a", "arguments": {}}]"#,
                r#"[{"name":"a","arguments":{}}]"#,
            ),
            (
                r#"[TOOL_CALLS]translate[ARGS]{"text": "x",}"#,
                r#"{"text":"x"}"#,
            ),
            (r#"[INST] json please [/INST] {"a": 1}"#, r#"{"a":1}"#),
            (
                r#"[TOOL_CALLS] [{"name": "f", "arguments": {"ids": [1, 2"#,
                r#"[{"name":"f","arguments":{"ids":[1,2]}}]"#,
            ),
            ("[ABC]", r#"["ABC"]"#),
            (r#"[ABC, "d"]"#, r#"["ABC","d"]"#),
        ],
    );
}

/// JavaScript's `new` before a wrapper call; German low quotes; a bare key before a
/// full-width colon; a key with a Python prefix after a string value.
#[test]
fn more_literal_styles() {
    run(
        "literals",
        &[
            (
                r#"{created: new Date("2024-03-01"), id: 7}"#,
                r#"{"created":"2024-03-01","id":7}"#,
            ),
            ("[new Date(1700000000000)]", "[1700000000000]"),
            (
                r#"{"a": new Foo(1, 2), "b": 1}"#,
                r#"{"a":"new Foo(1, 2)","b":1}"#,
            ),
            (
                "{\u{201e}name\u{201c}: \u{201e}K\u{f6}ln\u{201c}}",
                "{\"name\":\"K\u{f6}ln\"}",
            ),
            (
                "{\"a\": \"sagte \u{201e}hallo\u{201c} laut\", \"b\": 1}",
                "{\"a\":\"sagte \u{201e}hallo\u{201c} laut\",\"b\":1}",
            ),
            (
                "{\u{540d}\u{524d}\u{ff1a}\"x\"\u{ff0c}\u{5e74}\u{9f62}\u{ff1a}30}",
                "{\"\u{540d}\u{524d}\":\"x\",\"\u{5e74}\u{9f62}\":30}",
            ),
            (
                "{u'name': u'Ada', u'lang': u'en', u'score': 0.5}",
                r#"{"name":"Ada","lang":"en","score":0.5}"#,
            ),
        ],
    );
}

/// A Python raw string (`r'…'`, `R"…"`, `rb'…'`) keeps every backslash as content, as
/// Python reads it: a regex's `\b` and `\d`, a Windows path's `\n`. Other prefixes keep
/// the usual escapes.
#[test]
fn python_raw_strings_keep_their_backslashes() {
    run(
        "raw strings",
        &[
            (r"{'re': r'\bword\b'}", r#"{"re":"\\bword\\b"}"#),
            (r"{'p': r'C:\new\table'}", r#"{"p":"C:\\new\\table"}"#),
            (r#"{"re": r"\d+\.\d+"}"#, r#"{"re":"\\d+\\.\\d+"}"#),
            (r"{'a': R'\t', 'b': 1}", r#"{"a":"\\t","b":1}"#),
            (r"{'a': rb'\x00'}", r#"{"a":"\\x00"}"#),
            // Two backslashes are two; a backslash keeps the quote after it from closing.
            (r"{'a': r'\\'}", r#"{"a":"\\\\"}"#),
            (r"{'a': r'it\'s'}", r#"{"a":"it\\'s"}"#),
            (r#"{'a': r"say \"hi\""}"#, r#"{"a":"say \\\"hi\\\""}"#),
            // A raw key too.
            (r"{r'\d': 1}", r#"{"\\d":1}"#),
            // Other prefixes are not raw.
            (r"{'a': u'x\ny'}", r#"{"a":"x\ny"}"#),
            (r"{'a': b'\t'}", r#"{"a":"\t"}"#),
            // Only the string after the prefix is raw.
            (r"{'a': r'\n', 'b': '\n'}", r#"{"a":"\\n","b":"\n"}"#),
        ],
    );
}

/// A wrapper's closing tag or a chat template's special token at the text's end ends the
/// document, even where the document is still open; elsewhere `<` is content.
#[test]
fn closing_tags_end_the_document() {
    run(
        "wrappers",
        &[
            (r#"{"a": "x"</tool_call>"#, r#"{"a":"x"}"#),
            (r#"{"a": "x" </tool_call>"#, r#"{"a":"x"}"#),
            (r#"{"a": 1</tool_call>"#, r#"{"a":1}"#),
            ("{\"a\": true</function>\n", r#"{"a":true}"#),
            (r#"{"a": "O'Neil"<|call|>"#, r#"{"a":"O'Neil"}"#),
            (r#"{"a": {"b": 1}<|im_end|>"#, r#"{"a":{"b":1}}"#),
            (
                r#"<tool_call>{"a": "x", "b": [1, 2</tool_call>"#,
                r#"{"a":"x","b":[1,2]}"#,
            ),
            (r#"{"a": "x"}</parameter></invoke>"#, r#"{"a":"x"}"#),
            // Inside a string, or with more after it, a tag is content.
            (r#"{"a": "<b>bold</b>"}"#, r#"{"a":"<b>bold</b>"}"#),
            (r#"{"a": "x</b>", "c": 1}"#, r#"{"a":"x</b>","c":1}"#),
            (r#"{"html": "<p>x</p>""#, r#"{"html":"<p>x</p>"}"#),
            (r#"{"a": 1 < 2}"#, r#"{"a":"1 < 2"}"#),
        ],
    );
}

/// `=` (TOML, INI) and `=>` (Perl, PHP, Ruby) for the colon, after quoted keys too: the
/// string before them has ended.
#[test]
fn equals_signs_for_colons() {
    run(
        "colons",
        &[
            (r#"{"a": "x", "b" = 1}"#, r#"{"a":"x","b":1}"#),
            (r#"{"a" => "x"}"#, r#"{"a":"x"}"#),
            (r#"{"a" => "x", "b" => [1, 2]}"#, r#"{"a":"x","b":[1,2]}"#),
            (r#"{a = 1, b = "two"}"#, r#"{"a":1,"b":"two"}"#),
            // After a string value too, with or without commas.
            (
                "{\n  host = \"localhost\"\n  port = 5432\n  debug = false\n}",
                r#"{"host":"localhost","port":5432,"debug":false}"#,
            ),
            (
                "{\"cmd\": \"a=1 b=2\",\n x = 3}",
                r#"{"cmd":"a=1 b=2","x":3}"#,
            ),
            // SQL and HTML in a string with inner quotes keep them content.
            (
                r#"{"sql": "UPDATE t SET a = "x", b = 2 WHERE id = 7"}"#,
                r#"{"sql":"UPDATE t SET a = \"x\", b = 2 WHERE id = 7"}"#,
            ),
            (
                r#"{"html": "<div class="card" id="main">Hi</div>"}"#,
                r#"{"html":"<div class=\"card\" id=\"main\">Hi</div>"}"#,
            ),
            (
                r#"{ name => "Ana", tags => ["a", "b"] }"#,
                r#"{"name":"Ana","tags":["a","b"]}"#,
            ),
            // `==` inside a string is content.
            (r#"{"a": "x == y", "b": 1}"#, r#"{"a":"x == y","b":1}"#),
        ],
    );
}

/// A bracket in prose opens an array only before JSON: `[8%]`, `[0u8; 32]` and `[-r]` are
/// notes, a code snippet and an option.
#[test]
fn bracketed_notes_in_prose_are_no_arrays() {
    run(
        "prose",
        &[
            (r#"{"a": 1} Tax [8%]."#, r#"{"a":1}"#),
            ("Result: [1, 2]", "[1,2]"),
            ("Result: [1 2]", "[1,2]"),
            ("see [-1, 2]", "[-1,2]"),
            ("values [1.5e3]", "[1.5e3]"),
        ],
    );
}

/// YAML habits: `- item` lines in an array are list markers; Mustache sections are
/// templates, not JSON.
#[test]
fn yaml_list_markers_and_mustache_sections() {
    run(
        "yaml",
        &[
            (
                "{\"tags\": [\n  - \"red\"\n  - \"blue\"\n]}",
                r#"{"tags":["red","blue"]}"#,
            ),
            (
                "{\"steps\": [\n  - install\n  - build\n]}",
                r#"{"steps":["install","build"]}"#,
            ),
            (
                "[\n  - {\"id\": 1}\n  - {\"id\": 2}\n]",
                r#"[{"id":1},{"id":2}]"#,
            ),
            (
                "{\"ports\": [\n  - 80\n  - 443\n]}",
                r#"{"ports":[80,443]}"#,
            ),
            // A minus inside a line is a sign.
            ("[- 5, 1]", "[-5,1]"),
            ("[\n  -5,\n  -6\n]", "[-5,-6]"),
            ("Hello {{> header}} {\"a\": 1}", r#"{"a":1}"#),
            ("{{#a}} {\"x\": 1} {{/a}}", r#"{"x":1}"#),
        ],
    );
}

/// A string value that lost its closing quote right before the closers of its containers,
/// then a comma and the next key of an object around them: the closers are structure. Not
/// when the string holds an opener of its own (code, whose closers are content), nor when the
/// closers do not lead to an object.
#[test]
fn lost_quotes_before_closers_and_the_next_key() {
    run(
        "lost quotes before closers",
        &[
            (r#"{"a": ["x", "y], "b": 1}"#, r#"{"a":["x","y"],"b":1}"#),
            (r#"{"a": {"b": "x}, "c": 1}"#, r#"{"a":{"b":"x"},"c":1}"#),
            (
                r#"{"a": [{"b": "x}], "c": 1}"#,
                r#"{"a":[{"b":"x"}],"c":1}"#,
            ),
            (
                r#"{"a": [{"b": "x} ] , "c": 1}"#,
                r#"{"a":[{"b":"x"}],"c":1}"#,
            ),
            (
                r#"{"user": {"tags": ["admin", "ops], "name": "Ana"}}"#,
                r#"{"user":{"tags":["admin","ops"],"name":"Ana"}}"#,
            ),
            // Code whose braces are its own.
            (
                r#"{"call": {"content": "if (x) { y }, "path": "a"}}"#,
                r#"{"call":{"content":"if (x) { y }","path":"a"}}"#,
            ),
            // The closer ends an object inside an array: no key of that array follows.
            (
                r#"{"a": [{"b": "x}, "c": 1}"#,
                r#"{"a":[{"b":"x}","c":1}]}"#,
            ),
            // The closer ends the root: what follows is not a member.
            (r#"["see [1], "b": 2]"#, r#"["see [1], \"b\": 2"]"#),
        ],
    );
    assert!(kinds(r#"{"a": ["x", "y], "b": 1}"#).contains(&RepairKind::MissingQuote));
}

/// A colon after a string element makes it a key only when the string is as short as a key
/// and on one line (the stream shows longer ones as they come): else the colon is dropped.
#[test]
fn long_elements_before_a_colon_stay_elements() {
    let long = "y".repeat(80);
    run(
        "long elements before a colon",
        &[
            (
                &format!("[\"{long}\" // c\n: 1]"),
                &format!("[\"{long}\",1]"),
            ),
            ("[\"a\" // c\n: 1]", r#"[{"a":1}]"#),
            (r#"{"t": ["a", "n": 2}"#, r#"{"t":["a"],"n":2}"#),
        ],
    );
}

/// A value that lost its closing quote before `,` at the end of a line, the next key on the
/// next line: the comma and the line break are the separator, not content.
#[test]
fn lost_quotes_before_a_comma_and_a_line_break() {
    run(
        "lost quotes before a comma and a line break",
        &[
            (
                "{\"name\": \"Ada,\n  \"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"name\": \"Ada,\r\n  \"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"name\": \"Ada,\t\n\"age\": 3}",
                r#"{"name":"Ada","age":3}"#,
            ),
            (
                "{\"a\": \"multi\nline,\n  \"b\": 1}",
                r#"{"a":"multi\nline","b":1}"#,
            ),
            // Only one comma is the separator.
            ("{\"a\": \"x,,\n \"b\": 1}", r#"{"a":"x,","b":1}"#),
        ],
    );
    // The line break is gone from the value, and so is its repair.
    assert_eq!(
        kinds("{\"name\": \"Ada,\n  \"age\": 3}"),
        vec![RepairKind::MissingQuote, RepairKind::MissingComma]
    );
}

/// `"a" + /* …` with a comment that never ends: a quote far inside it is no next part (the
/// look-ahead stops inside the comment; found by fuzzing, where it cut a character).
#[test]
fn a_plus_before_an_unterminated_comment_joins_nothing() {
    // The look-ahead (256 bytes from after the `+`) ends right on the quote.
    let filler = "x".repeat(253);
    let input = format!("\"a\" + /*{filler}\" + b\"");
    assert_eq!(input.as_bytes()[261], b'"');
    let got = repair(&input).unwrap();
    assert_eq!(got.value().unwrap(), Value::String("a".into()));
    run(
        "a plus before a comment",
        &[
            (r#""x" /* a */ + /* c */ "y""#, r#""xy""#),
            (r#""x" + "y""#, r#""xy""#),
        ],
    );
}

/// An element that lost its closing quote at the end of its line, the next element's quote
/// first on the next line: the string ends at the line's end (a comma there is the
/// separator). Not when the text before was already on several lines, nor when the quoted
/// words are followed by more text (a quote inside prose).
#[test]
fn elements_that_lost_their_quote_at_the_line_end() {
    run(
        "elements that lost their quote at the line end",
        &[
            (
                "{\n  \"steps\": [\n    \"one\",\n    \"two,\n    \"three\"\n  ]\n}",
                r#"{"steps":["one","two","three"]}"#,
            ),
            (
                "{\n  \"steps\": [\n    \"one\",\n    \"two\n    \"three\"\n  ]\n}",
                r#"{"steps":["one","two","three"]}"#,
            ),
            ("[\n  \"a\n  \"b\",\n  \"c\"\n]", r#"["a","b","c"]"#),
            (
                "[\"one\",\r\n\"two\r\n\"three\"]",
                r#"["one","two","three"]"#,
            ),
            (
                "[\"He said:\n\"hello\" and left\"]",
                r#"["He said:\n\"hello\" and left"]"#,
            ),
            (
                "[\n  \"multi\nline\n  \"b\"\n]",
                r#"["multi\nline\n  \"b"]"#,
            ),
            (r#"["x, "y"]"#, r#"["x, \"y"]"#),
        ],
    );
}

/// A key that lost its closing quote before `: ` after a string value: the value's quote
/// closes it, and the key ends at its colon, also before a container.
#[test]
fn keys_that_lost_their_quote_after_a_string_value() {
    run(
        "keys that lost their quote after a string value",
        &[
            (
                r#"[{"name": "Bob", "role": "designer", "skills: []}, {"name": "Carol"}]"#,
                r#"[{"name":"Bob","role":"designer","skills":[]},{"name":"Carol"}]"#,
            ),
            (
                r#"{"model": "resnet-50", "metrics: {"loss": 1.25e-3}, "ok": true}"#,
                r#"{"model":"resnet-50","metrics":{"loss":1.25e-3},"ok":true}"#,
            ),
            (
                r#"{"name": "write_file", "arguments: {"path": "a.py"}}"#,
                r#"{"name":"write_file","arguments":{"path":"a.py"}}"#,
            ),
            (r#"{"a": "b", "c: 1}"#, r#"{"a":"b","c":1}"#),
            // No colon and space after the word: no key.
            (r#"{"a": "x", "Note:this"}"#, r#"{"a":"x\", \"Note:this"}"#),
        ],
    );
}

/// A key opened by one straight quote and closed by the other, after a string value: the
/// value's quote closes it (`"x", 'role": null`, `"x", "args': {…}`).
#[test]
fn mixed_quote_keys_after_a_string_value() {
    run(
        "mixed-quote keys after a string value",
        &[
            (
                r#"[{"name": "Carol", 'role": null, "skills": ["ux"]}]"#,
                r#"[{"name":"Carol","role":null,"skills":["ux"]}]"#,
            ),
            (
                r#"{"tool": "bash", "args': {"command": "ls"}, "ok": true}"#,
                r#"{"tool":"bash","args":{"command":"ls"},"ok":true}"#,
            ),
            (
                r#"{"city": "Paris", "units':"metric", "days": [1]}"#,
                r#"{"city":"Paris","units":"metric","days":[1]}"#,
            ),
            // An apostrophe in prose after a comma opens no key: no colon follows the word.
            (
                r#"{"a": "it is", 'twas the night', "b": 1}"#,
                r#"{"a":"it is\", 'twas the night'","b":1}"#,
            ),
        ],
    );
}

/// A key that lost its closing quote in compact JSON (`"units:"metric"`), before a raw line
/// break (`"id: 1,\n`), or before a value that its own quote opens (`"cwd: "/home"`): the
/// key ends at its colon. A key that holds a colon and closes properly stays whole.
#[test]
fn keys_that_lost_their_closing_quote_in_compact_and_multiline_json() {
    run(
        "key lost its closing quote",
        &[
            (
                r#"{"a":"x","units:"metric","d":[1]}"#,
                r#"{"a":"x","units":"metric","d":[1]}"#,
            ),
            (r#"{"units:"metric"}"#, r#"{"units":"metric"}"#),
            (
                r#"{"id":"c","type:"function","f":{"n":"g"}}"#,
                r#"{"id":"c","type":"function","f":{"n":"g"}}"#,
            ),
            (
                r#"{"a":{"b":1,"days:[1,2,3]}},"i":0}"#,
                r#"{"a":{"b":1,"days":[1,2,3]},"i":0}"#,
            ),
            (
                r#"{"f":{"arguments:{"city":"Paris"}},"i":0}"#,
                r#"{"f":{"arguments":{"city":"Paris"}},"i":0}"#,
            ),
            (r#"{"index:0}"#, r#"{"index":0}"#),
            // A colon lost between a key and its string value, in compact JSON.
            (
                r#"{"id":"c","type""function","f":1}"#,
                r#"{"id":"c","type":"function","f":1}"#,
            ),
            (
                "{\"a\": \"x\",\n  \"id: 1,\n  \"b\": 2}",
                r#"{"a":"x","id":1,"b":2}"#,
            ),
            (
                "{\"a\": \"x\", \"owner: null\n}",
                r#"{"a":"x","owner":null}"#,
            ),
            (
                r#"{"lang": "de", "summary: "日本語 ok", "tags": ["a"]}"#,
                r#"{"lang":"de","summary":"日本語 ok","tags":["a"]}"#,
            ),
            (
                r#"{"a": 1, "cwd: "/home/user"}, "r": 2}"#,
                r#"{"a":1,"cwd":"/home/user","r":2}"#,
            ),
            // Keys with a colon of their own, closed by their quote: kept.
            (r#"{"a:b": 1, "http://x": 2}"#, r#"{"a:b":1,"http://x":2}"#),
            (r#"{"12:30": "lunch"}"#, r#"{"12:30":"lunch"}"#),
            // A value that holds `word:` stays one string.
            (r#"{"a": "note:", "b": 1}"#, r#"{"a":"note:","b":1}"#),
        ],
    );
}

/// A string value that lost its opening quote runs to its first unescaped `"` on the line
/// when what follows that quote ends the value: a separator, or, where the text holds
/// structure, the closer of what holds it or a comma and the next key or element. Escapes
/// JSON knows are read as escapes.
#[test]
fn values_that_lost_their_opening_quote() {
    run(
        "value lost its opening quote",
        &[
            (
                r#"{"host": 0.0.0.0", "port": 8080}"#,
                r#"{"host":"0.0.0.0","port":8080}"#,
            ),
            (
                r#"{"url": postgres://a:b@db:5432/app", "pool": 1}"#,
                r#"{"url":"postgres://a:b@db:5432/app","pool":1}"#,
            ),
            (
                r#"{"PERSON": [John O'Brien"], "ORG": []}"#,
                r#"{"PERSON":["John O'Brien"],"ORG":[]}"#,
            ),
            (
                r#"{"q": She said \"yes, [maybe]\" and left", "c": "x"}"#,
                r#"{"q":"She said \"yes, [maybe]\" and left","c":"x"}"#,
            ),
            (
                r#"[{"b": Off-by-one: `0..=n` [see #12]"}, {"c": 1}]"#,
                r#"[{"b":"Off-by-one: `0..=n` [see #12]"},{"c":1}]"#,
            ),
            (
                r#"{"r": ^[a-z]+:\\d{2,4}$", "m": 1}"#,
                r#"{"r":"^[a-z]+:\\d{2,4}$","m":1}"#,
            ),
            (
                r#"{"p": C:\Users\me", "q": 1}"#,
                r#"{"p":"C:\\Users\\me","q":1}"#,
            ),
            (
                r#"{"cmd": ls -la | grep \"x\"", "n": 1}"#,
                r#"{"cmd":"ls -la | grep \"x\"","n":1}"#,
            ),
            // The first quote opens the next key: the word before it is a bare value.
            (r#"{"a": x, "b": y", "c": 1}"#, r#"{"a":"x","b":"y","c":1}"#),
            (r#"{"a":x,"b":"c"}"#, r#"{"a":"x","b":"c"}"#),
            (r#"{"a": foo "b": 1}"#, r#"{"a":"foo","b":1}"#),
            // Structure before a quote that nothing plausible follows: `a` is no `x, y`.
            (r#"{"a": x, y" z, "b": 1}"#, r#"{"a":"x","y":" z","b":1}"#),
        ],
    );
}

/// `[{{"a": 1}, …]`: an element's `{` typed twice is one opener, not an empty element.
#[test]
fn a_doubled_object_opener_in_an_array() {
    run(
        "doubled opener",
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

/// A string a straight `"` opened and a `”`, `’` or `'` closed (`"fr’, "n": 1`,
/// `"Build passed', …`), or that `‘` opened and `"` closed: the other quote ends it where
/// what follows ends a value (the closer of what holds it and then the end or the next
/// member, or a comma and the next key or quoted element) or, in a key, before its colon.
/// Apostrophes and quotes in code and prose stay content.
#[test]
fn strings_closed_by_another_kind_of_quote() {
    run(
        "mixed quotes",
        &[
            (
                r#"["north", "south”, "east"]"#,
                r#"["north","south","east"]"#,
            ),
            (
                "{\"text\": \"x\", \"lang\": \"fr’,\n  \"c\": 0.99}",
                r#"{"text":"x","lang":"fr","c":0.99}"#,
            ),
            (
                r#"{"t": "Inception", "director": "Christopher Nolan’}, "n": 1}"#,
                r#"{"t":"Inception","director":"Christopher Nolan","n":1}"#,
            ),
            (
                r#"{"email": "j@x.com", "verified”: false, "plan": "free"}"#,
                r#"{"email":"j@x.com","verified":false,"plan":"free"}"#,
            ),
            (
                r#"{"full name’: "Lee", "age": 29}"#,
                r#"{"full name":"Lee","age":29}"#,
            ),
            (
                r#"{"path": ‘/var/log/syslog", "lines": 200}"#,
                r#"{"path":"/var/log/syslog","lines":200}"#,
            ),
            (
                "{\n  ‘event\": \"signup\",\n  \"plan\": \"team\"\n}",
                r#"{"event":"signup","plan":"team"}"#,
            ),
            (
                r#"{"msg": "Build passed', "duration_s": 312}"#,
                r#"{"msg":"Build passed","duration_s":312}"#,
            ),
            (
                r#"[{"by": "finance'}, {"by": "ops"}]"#,
                r#"[{"by":"finance"},{"by":"ops"}]"#,
            ),
            // At the text's end, the closers of what is open end it as for any string
            // that lost its quote before them (`'` kept: it may be content).
            (r#"{"by": "finance'}"#, r#"{"by":"finance'"}"#),
            (r#"["it']"#, r#"["it'"]"#),
            (
                r#"{"v": ["1.0.2", "1.1.0', "2.0"], "l": 1}"#,
                r#"{"v":["1.0.2","1.1.0","2.0"],"l":1}"#,
            ),
            (
                r#"[{"p": "README.md'}, {"id": 2}]"#,
                r#"[{"p":"README.md"},{"id":2}]"#,
            ),
            // Content.
            (
                r#"{"a": "it’s fine", "b": "the students’ work"}"#,
                r#"{"a":"it’s fine","b":"the students’ work"}"#,
            ),
            (r#"["don’t", "won’t stop"]"#, r#"["don’t","won’t stop"]"#),
            (
                r#"{"code": "print('a', 'b')", "n": 1}"#,
                r#"{"code":"print('a', 'b')","n":1}"#,
            ),
            (r#"["print('a', 'b')"]"#, r#"["print('a', 'b')"]"#),
            (
                r#"{"code": "x = {'a': 'b'}", "n": 1}"#,
                r#"{"code":"x = {'a': 'b'}","n":1}"#,
            ),
            (
                r#"{"a": "it's", "b": "the users'"}"#,
                r#"{"a":"it's","b":"the users'"}"#,
            ),
            (
                r#"{"sql": "WHERE a IN ('x', 'y')"}"#,
                r#"{"sql":"WHERE a IN ('x', 'y')"}"#,
            ),
            (
                r#"{"js": "f({ 'Accept': 'json' });", "n": 1}"#,
                r#"{"js":"f({ 'Accept': 'json' });","n":1}"#,
            ),
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
        &[
            (r#"{"user": "name": "Ana"}}"#, r#"{"user":{"name":"Ana"}}"#),
            ("{\"k\": \"x\ny\"]:42}", r#"{"k":"x\ny","42":null}"#),
        ],
    );
}

/// `{"id":42"name":"x"}`: a number right before the next key (its comma lost) stays a
/// number; `["x",\n  "y\n  ]\n}`: a string that lost its quote at a line's end, when only
/// layout, closers and commas follow to the text's end over several lines, ends at the
/// first of those line breaks.
#[test]
fn a_lost_comma_after_a_number_and_a_lost_quote_before_closing_lines() {
    run(
        "lost comma, lost quote",
        &[
            (
                r#"{"id":42"name":"Widget","price":9.99}"#,
                r#"{"id":42,"name":"Widget","price":9.99}"#,
            ),
            (r#"{"a": 5", "b": 1}"#, r#"{"a":5,"b":1}"#),
            (
                "{\"tracks\": [\n    \"Weightless\",\n    \"Experience\n  ]\n}",
                r#"{"tracks":["Weightless","Experience"]}"#,
            ),
            ("{\"a\": \"bar\n}", r#"{"a":"bar"}"#),
            ("{\"a\": \"x\n  y\n  ]\n}", r#"{"a":"x\n  y"}"#),
        ],
    );
    // The line breaks that became layout are not reported as escaped.
    assert_eq!(
        kinds("{\"t\": [\"E\n  ]\n}"),
        vec![RepairKind::MissingQuote],
        "{:?}",
        repair("{\"t\": [\"E\n  ]\n}").unwrap().repairs
    );
}

/// After an inner quote, words that run on the line to the string's real end are the
/// sentence going on, not a key that lost its colon (`"The word "x" means y, so z."`); a
/// bare key and its value after a clean string still are.
#[test]
fn inner_quotes_before_the_rest_of_a_sentence() {
    run(
        "inner quotes",
        &[
            (
                r#"{"a": "The word "x" means y, so z."}"#,
                r#"{"a":"The word \"x\" means y, so z."}"#,
            ),
            (
                r#"{"e": "The word "ephemeral" means short-lived, so B fits.", "n": 1}"#,
                r#"{"e":"The word \"ephemeral\" means short-lived, so B fits.","n":1}"#,
            ),
            (
                r#"{"note": "use "strict" mode", "b": 1}"#,
                r#"{"note":"use \"strict\" mode","b":1}"#,
            ),
            (r#"{"name": "Ann" age 31}"#, r#"{"name":"Ann","age":31}"#),
            (r#"{"a": "x" b: 2}"#, r#"{"a":"x","b":2}"#),
        ],
    );
}

/// A fence that holds one scalar is a JSON document (`42`, `"yes"`, `null`, `True`), and
/// wins over a value in the prose around it; prose alone in a fence is none.
#[test]
fn a_fence_that_holds_one_scalar() {
    run(
        "fenced scalar",
        &[
            ("```json\n42\n```", "42"),
            ("```json\nnull\n```", "null"),
            (
                "The answer:\n```json\n\"hi there\"\n```\nThanks",
                r#""hi there""#,
            ),
            ("```json\n\"say \\\"hi\\\"\"\n```", r#""say \"hi\"""#),
            ("```\nTrue\n```", "true"),
            ("```json\n-1.5e3\n```\nAlso see [1, 2]", "-1.5e3"),
            ("```json\n{\"a\": 1}\n```", r#"{"a":1}"#),
            ("```json\n42 apples\n```", ERR),
            ("```\nI cannot help with that.\n```", ERR),
        ],
    );
}

/// `{"arguments": {\"q\": \"cats\"}}`: an object inside a document written as escaped JSON
/// (a double-encoded value that lost its quotes) is unescaped once; one that never closes
/// is read as before.
#[test]
fn an_escaped_object_as_a_members_value() {
    run(
        "escaped member",
        &[
            (
                r#"{"name": "get_time", "arguments": {\"tz\": \"Europe/Paris\"}}"#,
                r#"{"name":"get_time","arguments":{"tz":"Europe/Paris"}}"#,
            ),
            (
                r#"{"a": {\"b\": {\"c\": [1, \"x\"]}}, "d": 2}"#,
                r#"{"a":{"b":{"c":[1,"x"]}},"d":2}"#,
            ),
            (
                r#"{"a": {\"s\": \"say \\\"hi\\\"\"}}"#,
                r#"{"a":{"s":"say \"hi\""}}"#,
            ),
            (r#"[{\"a\": 1}, {\"a\": 2}]"#, r#"[{"a":1},{"a":2}]"#),
            // A valid string holding JSON stays a string.
            (
                r#"{"arguments": "{\"q\": \"cats\"}"}"#,
                r#"{"arguments":"{\"q\": \"cats\"}"}"#,
            ),
        ],
    );
    assert_eq!(
        kinds(r#"{"arguments": {\"q\": \"cats\"}}"#),
        vec![RepairKind::EscapedJson]
    );
}

#[test]
fn thousands_separators_in_a_members_value() {
    run(
        "thousands",
        &[
            (
                r#"{"city": "Amsterdam", "population": 921,402}"#,
                r#"{"city":"Amsterdam","population":921402}"#,
            ),
            (r#"{"a": 1,234,567, "b": 2}"#, r#"{"a":1234567,"b":2}"#),
            (r#"{"a": -1,000}"#, r#"{"a":-1000}"#),
            // Cut off after a group: the groups so far.
            (r#"{"a": 12,345"#, r#"{"a":12345}"#),
            // Valid JSON: two elements.
            (r#"[1,234]"#, r#"[1,234]"#),
            // Not groups of three, a leading zero, or a key after all.
            (r#"{"a": 1,2345}"#, r#"{"a":1,"2345":null}"#),
            (r#"{"a": 0,123}"#, r#"{"a":0,"123":null}"#),
            (r#"{"a": 1,234: 5}"#, r#"{"a":1,"234":5}"#),
            (r#"{"a": 1.5,234}"#, r#"{"a":1.5,"234":null}"#),
        ],
    );
    assert_eq!(kinds(r#"{"a": 1,234}"#), vec![RepairKind::NumberFormat]);
}
