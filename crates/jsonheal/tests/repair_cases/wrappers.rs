//! `Wrapper`, `RegexLiteral`, `TupleToArray`, `Ellipsis`: calls, JSONP, MongoDB types and
//! other wrappers around values.

use crate::prelude::*;

#[test]
fn wrappers_and_oddities() {
    run(
        "ellipsis",
        &[RepairKind::Ellipsis],
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
        &[RepairKind::Wrapper],
        &[
            ("callback({\"a\": 1});", r#"{"a":1}"#),
            ("jQuery123_456([1, 2])", "[1,2]"),
        ],
    );
    run(
        "MongoDB types",
        &[RepairKind::Wrapper],
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
        &[RepairKind::RegexLiteral],
        &[
            (r#"{"r": /ab+c/}"#, r#"{"r":"/ab+c/"}"#),
            (r#"{"r": /a\/b/gi}"#, r#"{"r":"/a\\/b/gi"}"#),
        ],
    );
    run(
        "combined",
        &[RepairKind::SingleQuotes],
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

/// A wrapper call making up the whole text is unwrapped like one inside a document.
#[test]
fn top_level_wrappers() {
    run(
        "wrappers",
        &[RepairKind::Wrapper],
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
