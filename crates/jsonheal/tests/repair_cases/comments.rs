//! `RemovedComment`: `//`, `/* */` and `#` comments, wherever they stand.

use crate::prelude::*;

#[test]
fn comments() {
    run(
        "comments",
        &[RepairKind::RemovedComment, RepairKind::StrippedProse],
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
fn comments_after_commas_end_the_string_before_them() {
    run(
        "comments",
        &[RepairKind::RemovedComment],
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
fn a_comment_after_a_bracket_in_prose_still_opens_json() {
    run(
        "comments",
        &[RepairKind::RemovedComment],
        &[
            ("Here:\n[ # the ids\n  1, 2]", "[1,2]"),
            ("Result: { // the user\n  \"a\": 1}", r#"{"a":1}"#),
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
            RepairKind::RemovedComment,
            RepairKind::InnerQuote,
            RepairKind::UnquotedKey,
        ],
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

/// A comment around the value holds no value, whatever it holds.
#[test]
fn json_inside_comments_around_the_value() {
    run(
        "json inside comments",
        &[RepairKind::StrippedProse],
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
