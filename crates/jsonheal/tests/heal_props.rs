//! Properties of healing on arbitrary input: no panic, Ok means valid, valid stays untouched,
//! feedback stays within its limits.
#![allow(clippy::unwrap_used)]

use jsonheal::schema::{
    coerce, feedback, CoerceOptions, HealErrorKind, Violation, MAX_FEEDBACK_BYTES,
    MAX_FEEDBACK_ERRORS,
};
use jsonheal::{heal, HealOptions, Schema};
use proptest::prelude::*;
use serde_json::{json, Value};

fn schema() -> Schema {
    Schema::new(&json!({
        "type": "object",
        "required": ["id", "tags"],
        "properties": {
            "id": {"type": "integer", "minimum": 0},
            "ok": {"type": "boolean"},
            "name": {"type": ["string", "null"], "maxLength": 20},
            "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}},
            "sub": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"n": {"type": "number"}}}]}
        }
    }))
    .unwrap()
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-zA-Z0-9 .-]{0,8}".prop_map(Value::String),
        prop_oneof![Just("42"), Just("true"), Just(" A "), Just("3.5")]
            .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("id".to_owned()),
                        Just("Id".to_owned()),
                        Just("tags".to_owned()),
                        Just("ok".to_owned()),
                        Just("sub".to_owned()),
                        Just("n".to_owned()),
                        "[a-z]{1,4}"
                    ],
                    inner
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Reply-like text: JSON-ish fragments, prose, fences and reasoning tags in any order.
fn reply() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        json_value().prop_map(|v| v.to_string()),
        Just("```json\n".to_owned()),
        Just("```".to_owned()),
        Just("~~~".to_owned()),
        Just("<think>".to_owned()),
        Just("</think>".to_owned()),
        Just("Final answer:".to_owned()),
        "[ a-zA-Z{}\\[\\]\",:'\\n]{0,12}",
    ];
    prop::collection::vec(piece, 0..8).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn heal_never_panics_and_ok_means_valid(text in reply(), allow in any::<bool>()) {
        let s = schema();
        let opts = HealOptions { allow_truncated: allow, ..HealOptions::default() };
        match heal(&text, &s, &opts) {
            Ok(h) => prop_assert!(s.is_valid(&h.value), "{text:?} -> {}", h.value),
            Err(e) => {
                prop_assert!(e.feedback.len() <= MAX_FEEDBACK_BYTES);
                prop_assert_eq!(e.kind == HealErrorKind::Invalid, !e.violations.is_empty());
            }
        }
    }

    #[test]
    fn extraction_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = jsonheal::extract::candidates(&text);
        let _ = heal(&text, &schema(), &HealOptions::default());
    }

    #[test]
    fn coercion_leaves_valid_values_alone(v in json_value()) {
        let s = schema();
        let mut c = v.clone();
        let log = coerce(&mut c, &s, &CoerceOptions::default());
        if s.is_valid(&v) {
            prop_assert!(log.is_empty());
            prop_assert_eq!(&c, &v);
        }
        // Every change is logged: no log, no change.
        if log.is_empty() {
            prop_assert_eq!(&c, &v);
        }
        // Coercing again changes nothing more once valid.
        if s.is_valid(&c) {
            let mut again = c.clone();
            prop_assert!(coerce(&mut again, &s, &CoerceOptions::default()).is_empty());
        }
    }

    #[test]
    fn feedback_stays_within_limits(
        items in prop::collection::vec(("[/a-z0-9~é\"\\n]{0,300}", "[ -~é\\n]{0,600}"), 0..60)
    ) {
        let violations: Vec<Violation> = items
            .into_iter()
            .map(|(path, message)| Violation {
                path,
                keyword: "type".to_owned(),
                expected: "x".to_owned(),
                found: "y".to_owned(),
                message,
            })
            .collect();
        let msg = feedback(HealErrorKind::Invalid, &violations);
        prop_assert!(msg.len() <= MAX_FEEDBACK_BYTES, "{} bytes", msg.len());
        let errors = msg.lines().filter(|l| l.starts_with("- ") && !l.starts_with("- … and")).count();
        prop_assert!(errors <= MAX_FEEDBACK_ERRORS);
    }
}
