//! Inside strings: `ControlCharacter`, `InvalidEscape`, `LoneSurrogate`, `Concatenation`,
//! `EscapedJson`.

use crate::prelude::*;

#[test]
fn concatenation_and_escaped_json() {
    run(
        "string concatenation",
        &[RepairKind::Concatenation],
        &[
            (r#"{"a": "hello " + "world"}"#, r#"{"a":"hello world"}"#),
            (r#"["a" + "b" + "c"]"#, r#"["abc"]"#),
        ],
    );
    run(
        "escaped JSON",
        &[RepairKind::EscapedJson],
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
}

#[test]
fn control_characters_and_invalid_escapes() {
    run(
        "unescaped control characters",
        &[RepairKind::ControlCharacter],
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
        &[RepairKind::InvalidEscape, RepairKind::SingleQuotes],
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
}

/// A JSON string that holds JSON stays a string, with or without prose around it.
#[test]
fn json_strings_holding_json_stay_strings() {
    run(
        "double-encoded strings in prose",
        &[
            RepairKind::StrippedProse,
            RepairKind::MissingOpener,
            RepairKind::EscapedJson,
        ],
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

/// `{"arguments": {\"q\": \"cats\"}}`: an object inside a document written as escaped JSON
/// (a double-encoded value that lost its quotes) is unescaped once; one that never closes
/// is read as before.
#[test]
fn an_escaped_object_as_a_members_value() {
    run(
        "escaped member",
        &[RepairKind::EscapedJson],
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
        &[RepairKind::Concatenation],
        &[
            (r#""x" /* a */ + /* c */ "y""#, r#""xy""#),
            (r#""x" + "y""#, r#""xy""#),
        ],
    );
}
