//! `Truncated`: documents cut off by the end of the text.

use crate::prelude::*;

#[test]
fn truncation() {
    run(
        "truncation",
        &[RepairKind::Truncated],
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

/// A non-finite number or `undefined` cut by the end is completed, never a string.
#[test]
fn cut_literals_of_every_kind() {
    run(
        "cut literals",
        &[RepairKind::Truncated],
        &[
            ("[1, 2, Infin", "[1,2,null]"),
            ("[1, undefi", "[1,null]"),
            (r#"{"a": "x", "b": -Inf"#, r#"{"a":"x","b":null}"#),
            ("[1, tr", "[1,true]"),
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
