//! Schema-guided coercion: each coercion on, and off when disabled; nothing invented.
#![allow(clippy::unwrap_used)]

use jsonheal::schema::{coerce, CoerceOptions, CoercionKind};
use jsonheal::Schema;
use serde_json::{json, Value};

fn schema(v: Value) -> Schema {
    Schema::new(&v).unwrap()
}

/// Options with everything on except `off`.
fn all_but(off: CoercionKind) -> CoerceOptions {
    CoerceOptions::default().with(off, false)
}

/// (kind, schema, input, coerced, path of the coercion).
fn cases() -> Vec<(CoercionKind, Value, Value, Value, &'static str)> {
    use CoercionKind::*;
    let obj = |props: Value, required: Value| json!({"type": "object", "properties": props, "required": required});
    vec![
        (
            StringToNumber,
            obj(json!({"n": {"type": "integer"}}), json!([])),
            json!({"n": "42"}),
            json!({"n": 42}),
            "/n",
        ),
        (
            StringToNumber,
            obj(json!({"x": {"type": "number"}}), json!([])),
            json!({"x": " -3.25 "}),
            json!({"x": -3.25}),
            "/x",
        ),
        (
            StringToBoolean,
            obj(json!({"ok": {"type": "boolean"}}), json!([])),
            json!({"ok": "true"}),
            json!({"ok": true}),
            "/ok",
        ),
        (
            StringToBoolean,
            obj(json!({"ok": {"type": "bool"}}), json!([])),
            json!({"ok": " FALSE"}),
            json!({"ok": false}),
            "/ok",
        ),
        (
            NumberToString,
            obj(json!({"zip": {"type": "string"}}), json!([])),
            json!({"zip": 12345}),
            json!({"zip": "12345"}),
            "/zip",
        ),
        (
            WrapInArray,
            obj(
                json!({"tags": {"type": "array", "items": {"type": "string"}}}),
                json!([]),
            ),
            json!({"tags": "x"}),
            json!({"tags": ["x"]}),
            "/tags",
        ),
        (
            UnwrapSingleArray,
            obj(json!({"user": {"type": "object"}}), json!([])),
            json!({"user": [{"id": 1}]}),
            json!({"user": {"id": 1}}),
            "/user",
        ),
        (
            UnwrapSingleArray,
            json!({"type": "object", "required": ["a"]}),
            json!([{"a": 1}]),
            json!({"a": 1}),
            "",
        ),
        (
            EnumCase,
            obj(json!({"c": {"enum": ["Red", "green"]}}), json!([])),
            json!({"c": " red "}),
            json!({"c": "Red"}),
            "/c",
        ),
        (
            EnumCase,
            obj(json!({"c": {"const": "OK"}}), json!([])),
            json!({"c": "ok"}),
            json!({"c": "OK"}),
            "/c",
        ),
        (
            KeyCase,
            obj(
                json!({"user_name": {"type": "string"}}),
                json!(["user_name"]),
            ),
            json!({"userName": "a"}),
            json!({"user_name": "a"}),
            "/user_name",
        ),
        (
            KeyCase,
            obj(
                json!({"firstName": {"type": "string"}}),
                json!(["firstName"]),
            ),
            json!({"First-Name": "a"}),
            json!({"firstName": "a"}),
            "/firstName",
        ),
        (
            NullForMissing,
            obj(
                json!({"a": {"type": "string"}, "note": {"type": ["string", "null"]}}),
                json!(["a", "note"]),
            ),
            json!({"a": "x"}),
            json!({"a": "x", "note": null}),
            "/note",
        ),
        (
            NullForMissing,
            obj(
                json!({"note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
                json!(["note"]),
            ),
            json!({}),
            json!({"note": null}),
            "/note",
        ),
    ]
}

#[test]
fn each_coercion_applies_and_is_logged() {
    for (kind, s, input, want, path) in cases() {
        let s = schema(s);
        assert!(!s.is_valid(&input), "{kind}: {input} should start invalid");
        let mut v = input.clone();
        let log = coerce(&mut v, &s, &CoerceOptions::default());
        assert_eq!(v, want, "{kind}: {input}");
        assert!(s.is_valid(&v), "{kind}: {v} should now validate");
        assert!(
            log.iter().any(|c| c.kind == kind && c.path == path),
            "{kind}: expected a log entry at {path:?}, got {log:?}"
        );
    }
}

#[test]
fn each_coercion_is_off_when_disabled() {
    for (kind, s, input, _, _) in cases() {
        let s = schema(s);
        let mut v = input.clone();
        let log = coerce(&mut v, &s, &all_but(kind));
        assert!(log.iter().all(|c| c.kind != kind), "{kind}: {log:?}");
        assert!(
            !s.is_valid(&v),
            "{kind}: {input} must stay invalid with it off, got {v}"
        );
        let mut v = input.clone();
        assert!(coerce(&mut v, &s, &CoerceOptions::none()).is_empty());
        assert_eq!(v, input, "{kind}: none() changes nothing");
    }
}

#[test]
fn never_invents_a_required_value() {
    let s = schema(json!({
        "type": "object",
        "required": ["name", "age", "any"],
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "any": {}}
    }));
    let mut v = json!({});
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({}));
    assert!(log.is_empty(), "{log:?}");
}

#[test]
fn optional_nullable_properties_are_not_added() {
    let s = schema(json!({
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"type": "string"}, "b": {"type": ["string", "null"]}}
    }));
    let mut v = json!({"a": 1});
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"a": "1"}));
}

#[test]
fn unclear_intent_is_left_alone() {
    let cases = [
        // Not a JSON number.
        (json!({"type": "number"}), json!("12 apples")),
        (json!({"type": "number"}), json!("0x1F")),
        // An integer wanted, a fraction given.
        (json!({"type": "integer"}), json!("3.5")),
        (json!({"type": "boolean"}), json!("yes please")),
        // Two enum values differ only in case: which one is meant is not clear.
        (json!({"enum": ["ON", "on"]}), json!("On")),
        // null is not wrapped into [null].
        (json!({"type": "array"}), json!(null)),
        // Several elements are not unwrapped.
        (json!({"type": "object"}), json!([{"a": 1}, {"a": 2}])),
    ];
    for (s, input) in cases {
        let s = schema(s);
        let mut v = input.clone();
        let log = coerce(&mut v, &s, &CoerceOptions::default());
        assert_eq!(v, input, "{log:?}");
        assert!(log.is_empty());
    }
}

#[test]
fn key_case_needs_a_unique_unknown_key() {
    let s = schema(json!({
        "type": "object",
        "required": ["user_name"],
        "properties": {"user_name": {"type": "string"}}
    }));
    // Two keys fold to the same name: ambiguous, left alone.
    let mut v = json!({"userName": "a", "UserName": "b"});
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"userName": "a", "UserName": "b"}));
    // The renamed key keeps its position.
    let mut v = json!({"a": 1, "USER_NAME": "x", "z": 2});
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v.to_string(), r#"{"a":1,"user_name":"x","z":2}"#);
}

#[test]
fn valid_values_are_untouched() {
    let s = schema(json!({"type": ["string", "number"]}));
    for input in [json!("42"), json!(42)] {
        let mut v = input.clone();
        assert!(coerce(&mut v, &s, &CoerceOptions::default()).is_empty());
        assert_eq!(v, input);
    }
}

#[test]
fn number_text_is_kept() {
    let s = schema(json!({"type": "number"}));
    let mut v = json!("1.10");
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v.to_string(), "1.10");
    let s = schema(json!({"type": "string"}));
    let mut v: Value = serde_json::from_str("123456789012345678901234567890").unwrap();
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!("123456789012345678901234567890"));
}

#[test]
fn walks_refs_arrays_and_additional_properties() {
    let s = schema(json!({
        "$defs": {"item": {"type": "object", "properties": {"qty": {"type": "integer"}}}},
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]}
        },
        "additionalProperties": {"type": "number"}
    }));
    let mut v = json!({"items": [{"qty": "2"}, {"qty": 3}], "pair": [7, "true"], "extra": "1.5"});
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(
        v,
        json!({"items": [{"qty": 2}, {"qty": 3}], "pair": ["7", true], "extra": 1.5})
    );
    let paths: Vec<&str> = log.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, vec!["/items/0/qty", "/pair/0", "/pair/1", "/extra"]);
    assert!(s.is_valid(&v));
}

#[test]
fn picks_the_any_of_branch_that_fits_after_coercion() {
    let s = schema(json!({
        "type": "object",
        "properties": {"v": {"anyOf": [
            {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}}},
            {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}, "flag": {"type": "boolean"}}}
        ]}}
    }));
    let mut v = json!({"v": {"kind": "b", "flag": "true"}});
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"v": {"kind": "b", "flag": true}}), "{log:?}");
    assert!(s.is_valid(&v));
    // A value already valid against one branch is left as it is.
    let mut v = json!({"v": {"kind": "a", "n": 1}});
    assert!(coerce(&mut v, &s, &CoerceOptions::default()).is_empty());
}

#[test]
fn all_of_members_are_merged() {
    let s = schema(json!({
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}},
            {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}
        ]
    }));
    let mut v = json!({"a": "1", "B": "false"});
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"a": 1, "b": false}));
}

#[test]
fn coercions_serialize_for_logs() {
    let s = schema(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
    let mut v = json!({"n": "7"});
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(
        serde_json::to_value(&log).unwrap(),
        json!([{"path": "/n", "kind": "string_to_number", "from": "\"7\"", "to": "7"}])
    );
}

#[test]
fn deep_values_do_not_overflow() {
    let s = schema(
        json!({"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "$ref": "#/$defs/t"}),
    );
    let mut v = json!([]);
    for _ in 0..5000 {
        v = Value::Array(vec![v]);
    }
    // Coercion stops at its depth cap; too deep to validate safely is invalid, not a crash.
    let _ = coerce(&mut v, &s, &CoerceOptions::default());
    assert!(!s.is_valid(&v));
    assert_eq!(s.validate(&v)[0].keyword, "depth");
    // Just under the cap validates as usual.
    let mut ok = json!([]);
    for _ in 0..jsonheal::schema::MAX_VALUE_DEPTH - 1 {
        ok = Value::Array(vec![ok]);
    }
    assert!(s.is_valid(&ok));
    // Dropping a deep value recurses in serde_json; leak it rather than test serde_json.
    std::mem::forget(v);
}

#[test]
fn one_of_with_ref_branches() {
    let s = schema(json!({
        "$defs": {
            "circle": {"type": "object", "required": ["kind", "r"], "additionalProperties": false,
                       "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
            "square": {"type": "object", "required": ["kind", "side"], "additionalProperties": false,
                       "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}}
        },
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/circle"}, {"$ref": "#/$defs/square"}]}
    }));
    let mut v = json!([{"kind": "Square", "side": "2"}, {"kind": "circle", "r": 1}]);
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(
        v,
        json!([{"kind": "square", "side": 2}, {"kind": "circle", "r": 1}]),
        "{log:?}"
    );
    assert!(s.is_valid(&v));
    let paths: Vec<&str> = log.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, vec!["/0/kind", "/0/side"]);
}

#[test]
fn strict_mode_style_nullable_fields() {
    // OpenAI strict structured outputs: every property required, optional ones nullable.
    let s = schema(json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["city", "zip", "note"],
        "properties": {
            "city": {"type": "string"},
            "zip": {"type": ["string", "null"]},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        }
    }));
    let mut v = json!({"city": "Paris", "zip": 75001});
    coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"city": "Paris", "zip": "75001", "note": null}));
    assert!(s.is_valid(&v));
}
