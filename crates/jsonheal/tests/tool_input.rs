//! The tool-input storage codec: every row of the behaviour table, and the round trip
//! `decode(encode(x)) == x` over arbitrary objects.
#![allow(clippy::unwrap_used)]

use jsonheal::tool_input::{decode, decode_report, encode, encode_report, Replaced};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn encode_table() {
    let cases: &[(Value, &str, Option<Replaced>)] = &[
        (Value::Null, "{}", Some(Replaced::Null)),
        (json!([]), "{}", Some(Replaced::List)),
        (json!([1, 2]), "{}", Some(Replaced::List)),
        (json!(false), "{}", Some(Replaced::Bool)),
        (json!(true), "{}", Some(Replaced::Bool)),
        (json!(42), "{}", Some(Replaced::Number)),
        (json!(""), "{}", Some(Replaced::Empty)),
        (json!("just a string"), "{}", Some(Replaced::String)),
        (json!("[1, 2]"), "{}", Some(Replaced::List)),
        (json!("{not json"), "{}", Some(Replaced::String)),
        (json!({"b": 1, "a": [1, 2]}), r#"{"b":1,"a":[1,2]}"#, None),
        (json!({}), "{}", None),
        (
            json!(r#"{"file": "main.go"}"#),
            r#"{"file":"main.go"}"#,
            None,
        ),
        // A string holding a string holding an object is unwrapped once only.
        (json!(r#""{\"a\":1}""#), "{}", Some(Replaced::String)),
    ];
    for (value, want, why) in cases {
        assert_eq!(encode_report(value), (want.to_string(), *why), "{value}");
        assert_eq!(encode(value), *want, "{value}");
    }
}

#[test]
fn decode_table() {
    let cases: &[(Option<&str>, Value, Option<Replaced>)] = &[
        (None, json!({}), Some(Replaced::Missing)),
        (Some(""), json!({}), Some(Replaced::Empty)),
        (Some("  \n"), json!({}), Some(Replaced::Empty)),
        (Some("null"), json!({}), Some(Replaced::Null)),
        (Some("[]"), json!({}), Some(Replaced::List)),
        (Some("[1]"), json!({}), Some(Replaced::List)),
        (Some("false"), json!({}), Some(Replaced::Bool)),
        (Some("true"), json!({}), Some(Replaced::Bool)),
        (Some("42"), json!({}), Some(Replaced::Number)),
        (
            Some(r#""just a string""#),
            json!({}),
            Some(Replaced::String),
        ),
        (Some("{not json"), json!({}), Some(Replaced::Invalid)),
        (Some("just text"), json!({}), Some(Replaced::Invalid)),
        (
            Some(r#"{"a": 1, "b": {"c": [true]}}"#),
            json!({"a": 1, "b": {"c": [true]}}),
            None,
        ),
        (Some(r#""{\"a\": 1}""#), json!({"a": 1}), None),
        (Some(r#""[1, 2]""#), json!({}), Some(Replaced::List)),
        (Some(r#"" ""#), json!({}), Some(Replaced::Empty)),
    ];
    for (stored, want, why) in cases {
        let (map, reason) = decode_report(*stored);
        assert_eq!(Value::Object(map), *want, "{stored:?}");
        assert_eq!(reason, *why, "{stored:?}");
        assert_eq!(Value::Object(decode(*stored)), *want, "{stored:?}");
    }
}

#[test]
fn numbers_and_key_order_survive() {
    let text = r#"{"z":1.10,"a":1e+2,"big":123456789012345678901234567890}"#;
    let map = decode(Some(text));
    assert_eq!(encode(&Value::Object(map)), text);
}

#[test]
fn reasons_read_well() {
    assert_eq!(Replaced::List.name(), "list");
    assert_eq!(
        Replaced::List.to_string(),
        "the input is a list, not an object"
    );
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".*".prop_map(Value::String),
        // Strings that look like JSON must stay strings inside an object.
        Just(json!(r#"{"nested": "json"}"#)),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((".*", inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn arb_object() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((".*", arb_value()), 0..8).prop_map(|kv| kv.into_iter().collect())
}

proptest! {
    #[test]
    fn round_trip(x in arb_object()) {
        let stored = encode(&Value::Object(x.clone()));
        prop_assert_eq!(decode(Some(&stored)), x.clone());
        // Stored twice (double-encoded by a careless layer): still the object.
        let twice = serde_json::to_string(&stored).unwrap();
        prop_assert_eq!(decode(Some(&twice)), x);
    }

    #[test]
    fn decode_never_panics_and_always_gives_an_object(s in ".*") {
        let (map, why) = decode_report(Some(&s));
        if why.is_some() {
            prop_assert!(map.is_empty());
        }
    }

    #[test]
    fn encode_is_always_an_object(v in arb_value()) {
        let stored = encode(&v);
        let back: Value = serde_json::from_str(&stored).unwrap();
        prop_assert!(back.is_object());
    }
}

#[test]
fn objects_built_by_hand_round_trip() {
    for v in [
        json!({}),
        json!({"a": null}),
        json!({"": ""}),
        json!({"k": "\u{0}\u{2028}"}),
    ] {
        let x = obj(v);
        assert_eq!(decode(Some(&encode(&Value::Object(x.clone())))), x);
    }
}
