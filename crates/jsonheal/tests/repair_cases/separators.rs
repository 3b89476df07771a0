//! `TrailingComma`, `MissingComma`: commas too many or lost, and layout between tokens.

use crate::prelude::*;

#[test]
fn trailing_and_missing_commas() {
    run(
        "trailing commas",
        &[RepairKind::TrailingComma],
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
        &[RepairKind::MissingComma],
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
fn a_key_right_after_a_closing_quote_means_a_missing_comma() {
    run(
        "missing commas",
        &[RepairKind::MissingComma, RepairKind::InnerQuote],
        &[
            (r#"{"a":"x""b":"y"}"#, r#"{"a":"x","b":"y"}"#),
            (r#"{"key": "val"ue"}"#, r#"{"key":"val\"ue"}"#),
        ],
    );
}

/// Unicode spaces between tokens are layout, not values.
#[test]
fn unicode_spaces_between_tokens() {
    run(
        "layout",
        &[RepairKind::InvalidCharacter],
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

/// YAML habits: `- item` lines in an array are list markers; Mustache sections are
/// templates, not JSON.
#[test]
fn yaml_list_markers_and_mustache_sections() {
    run(
        "yaml",
        &[
            RepairKind::MissingComma,
            RepairKind::StrippedProse,
            RepairKind::NumberFormat,
        ],
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
