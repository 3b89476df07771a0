//! Validation: every keyword the issue lists, pass and fail; invalid schemas; the `bool` alias.
#![allow(clippy::unwrap_used)]

use jsonheal::schema::Violation;
use jsonheal::{ErrorKind, Schema};
use serde_json::{json, Value};

fn schema(v: Value) -> Schema {
    Schema::new(&v).unwrap_or_else(|e| panic!("schema {v} should compile: {e}"))
}

/// (name, schema, a valid instance, an invalid instance, the keyword the failure names).
fn keyword_cases() -> Vec<(&'static str, Value, Value, Value, &'static str)> {
    vec![
        (
            "minLength",
            json!({"type":"string","minLength":3}),
            json!("abc"),
            json!("ab"),
            "minLength",
        ),
        (
            "maxLength",
            json!({"type":"string","maxLength":3}),
            json!("abc"),
            json!("abcd"),
            "maxLength",
        ),
        (
            "maxLength counts chars",
            json!({"maxLength":2}),
            json!("éé"),
            json!("ééé"),
            "maxLength",
        ),
        (
            "pattern",
            json!({"type":"string","pattern":"^[a-z]+-\\d+$"}),
            json!("ab-12"),
            json!("AB-12"),
            "pattern",
        ),
        (
            "format email",
            json!({"format":"email"}),
            json!("ada@example.com"),
            json!("ada at example"),
            "format",
        ),
        (
            "format date",
            json!({"format":"date"}),
            json!("2024-02-29"),
            json!("2023-02-30"),
            "format",
        ),
        (
            "format date-time",
            json!({"format":"date-time"}),
            json!("2024-01-02T03:04:05Z"),
            json!("2024-01-02 03:04"),
            "format",
        ),
        (
            "format uri",
            json!({"format":"uri"}),
            json!("https://example.com/a?b=c"),
            json!("not a uri"),
            "format",
        ),
        (
            "format uuid",
            json!({"format":"uuid"}),
            json!("123e4567-e89b-12d3-a456-426614174000"),
            json!("123e4567"),
            "format",
        ),
        (
            "format ipv4",
            json!({"format":"ipv4"}),
            json!("10.0.0.1"),
            json!("10.0.0.256"),
            "format",
        ),
        (
            "format ipv6",
            json!({"format":"ipv6"}),
            json!("::1"),
            json!("1::2::3"),
            "format",
        ),
        (
            "enum",
            json!({"enum":["red","green",3]}),
            json!(3),
            json!("blue"),
            "enum",
        ),
        (
            "minimum",
            json!({"type":"number","minimum":1.5}),
            json!(1.5),
            json!(1.4),
            "minimum",
        ),
        (
            "maximum",
            json!({"type":"number","maximum":10}),
            json!(10),
            json!(10.01),
            "maximum",
        ),
        (
            "exclusiveMinimum",
            json!({"exclusiveMinimum":0}),
            json!(0.001),
            json!(0),
            "exclusiveMinimum",
        ),
        (
            "exclusiveMaximum",
            json!({"exclusiveMaximum":5}),
            json!(4.99),
            json!(5),
            "exclusiveMaximum",
        ),
        (
            "draft-04 exclusiveMinimum",
            json!({"$schema":"http://json-schema.org/draft-04/schema#","minimum":0,"exclusiveMinimum":true}),
            json!(1),
            json!(0),
            "exclusiveMinimum",
        ),
        (
            "multipleOf",
            json!({"multipleOf":0.5}),
            json!(2.5),
            json!(2.25),
            "multipleOf",
        ),
        (
            "integer",
            json!({"type":"integer"}),
            json!(3),
            json!(3.5),
            "type",
        ),
        (
            "items",
            json!({"type":"array","items":{"type":"integer"}}),
            json!([1, 2]),
            json!([1, "2"]),
            "type",
        ),
        (
            "uniqueItems",
            json!({"uniqueItems":true}),
            json!([1,2,{"a":1}]),
            json!([{"a":1},{"a":1}]),
            "uniqueItems",
        ),
        (
            "minItems",
            json!({"minItems":2}),
            json!([1, 2]),
            json!([1]),
            "minItems",
        ),
        (
            "maxItems",
            json!({"maxItems":1}),
            json!([1]),
            json!([1, 2]),
            "maxItems",
        ),
        (
            "properties",
            json!({"properties":{"a":{"type":"string"}}}),
            json!({"a":"x","b":1}),
            json!({"a":1}),
            "type",
        ),
        (
            "required",
            json!({"required":["a"]}),
            json!({"a":null}),
            json!({"b":1}),
            "required",
        ),
        (
            "additionalProperties false",
            json!({"properties":{"a":{}},"additionalProperties":false}),
            json!({"a":1}),
            json!({"a":1,"b":2}),
            "additionalProperties",
        ),
        (
            "additionalProperties schema",
            json!({"properties":{"a":{}},"additionalProperties":{"type":"integer"}}),
            json!({"a":"x","b":2}),
            json!({"b":"x"}),
            "type",
        ),
        (
            "boolean",
            json!({"type":"boolean"}),
            json!(false),
            json!("false"),
            "type",
        ),
        (
            "bool alias",
            json!({"type":"bool"}),
            json!(true),
            json!(1),
            "type",
        ),
        (
            "bool alias in a list",
            json!({"type":["bool","null"]}),
            json!(null),
            json!(0),
            "type",
        ),
        (
            "null",
            json!({"type":"null"}),
            json!(null),
            json!(0),
            "type",
        ),
        (
            "several types",
            json!({"type":["string","number"]}),
            json!(1.5),
            json!(true),
            "type",
        ),
        (
            "$ref/$defs",
            json!({"$defs":{"pos":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/pos"}}}),
            json!({"n":1}),
            json!({"n":0}),
            "minimum",
        ),
        (
            "definitions (draft-07)",
            json!({"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"items":{"$ref":"#/definitions/s"}}),
            json!(["a"]),
            json!([1]),
            "type",
        ),
        (
            "anyOf",
            json!({"anyOf":[{"type":"string"},{"type":"integer"}]}),
            json!(3),
            json!(3.5),
            "anyOf",
        ),
        (
            "oneOf none",
            json!({"oneOf":[{"type":"string"},{"type":"integer"}]}),
            json!("x"),
            json!(null),
            "oneOf",
        ),
        (
            "oneOf several",
            json!({"oneOf":[{"type":"number"},{"type":"integer"}]}),
            json!(1.5),
            json!(1),
            "oneOf",
        ),
        (
            "allOf",
            json!({"allOf":[{"type":"string"},{"minLength":2}]}),
            json!("ab"),
            json!("a"),
            "minLength",
        ),
        (
            "const",
            json!({"const":{"v":1}}),
            json!({"v":1}),
            json!({"v":2}),
            "const",
        ),
    ]
}

#[test]
fn every_keyword_passes_and_fails() {
    for (name, s, good, bad, keyword) in keyword_cases() {
        let compiled = schema(s.clone());
        assert!(compiled.is_valid(&good), "{name}: {good} should be valid");
        assert!(
            compiled.validate(&good).is_empty(),
            "{name}: no violations for {good}"
        );
        assert!(!compiled.is_valid(&bad), "{name}: {bad} should be invalid");
        let violations = compiled.validate(&bad);
        assert!(
            violations.iter().any(|v| v.keyword == keyword),
            "{name}: expected a `{keyword}` violation, got {violations:?}"
        );
        for v in &violations {
            assert!(
                !v.expected.is_empty() && !v.found.is_empty() && !v.message.is_empty(),
                "{name}: {v:?}"
            );
        }
    }
}

#[test]
fn violation_paths_are_json_pointers() {
    let s = schema(json!({
        "type": "object",
        "required": ["user"],
        "properties": {"user": {"type": "object", "required": ["name"], "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "a/b": {"type": "integer"}
        }}}
    }));
    let v = s.validate(&json!({"user": {"tags": ["x", 2], "a/b": "no"}}));
    let paths: Vec<&str> = v.iter().map(|v| v.path.as_str()).collect();
    assert!(paths.contains(&"/user/name"), "{paths:?}");
    assert!(paths.contains(&"/user/tags/1"), "{paths:?}");
    assert!(paths.contains(&"/user/a~1b"), "{paths:?}");
    let root = s.validate(&json!([]));
    assert_eq!(root[0].path, "");
    assert_eq!(root[0].display_path(), "/");
}

#[test]
fn violations_say_expected_and_found() {
    let s = schema(
        json!({"type":"object","properties":{"age":{"type":"integer"}},"required":["name"]}),
    );
    let v = s.validate(&json!({"age": "forty"}));
    let age = v.iter().find(|v| v.path == "/age").unwrap();
    assert_eq!(age.expected, "integer");
    assert_eq!(age.found, r#"string "forty""#);
    assert_eq!(age.message, r#"expected integer, found string "forty""#);
    let name = v.iter().find(|v| v.path == "/name").unwrap();
    assert_eq!(name.keyword, "required");
    assert_eq!(name.message, r#"missing required property "name""#);
}

#[test]
fn long_values_are_cut_in_violations() {
    let s = schema(json!({"type":"integer"}));
    let v: Vec<Violation> = s.validate(&json!("x".repeat(10_000)));
    assert!(v[0].found.chars().count() < 100, "{}", v[0].found);
    assert!(v[0].found.contains('…'));
}

#[test]
fn violations_are_capped() {
    let s = schema(json!({"type":"array","items":{"type":"string"}}));
    let many: Vec<Value> = (0..1000).map(Value::from).collect();
    let v = s.validate(&Value::Array(many));
    assert_eq!(v.len(), jsonheal::schema::MAX_VIOLATIONS);
}

#[test]
fn invalid_schemas_name_the_keyword() {
    let cases = [
        (json!({"type": "strin"}), "`type`"),
        (
            json!({"properties": {"a": {"type": "bolean"}}}),
            "`type` at /properties/a/type",
        ),
        (json!({"minLength": -1}), "`minLength`"),
        (json!({"maxItems": "3"}), "`maxItems`"),
        // A pattern: the pattern and the reason first, then where.
        (
            json!({"pattern": "(("}),
            "the pattern \"((\" is not a valid regular expression: unclosed group (at /pattern)",
        ),
        (json!({"required": "a"}), "`required`"),
        (json!({"enum": 3}), "`enum`"),
        (json!({"$ref": "#/$defs/missing"}), "`$ref`"),
        (json!({"properties": {"a": {"maximum": "x"}}}), "`maximum`"),
    ];
    for (s, needle) in cases {
        let err = Schema::new(&s).expect_err(&format!("{s} should be refused"));
        assert!(
            matches!(err.kind(), ErrorKind::InvalidSchema(_)),
            "{s}: {err:?}"
        );
        let text = err.to_string();
        assert!(text.starts_with("invalid schema: "), "{text}");
        assert!(
            text.contains(needle),
            "{s}: {text:?} should contain {needle:?}"
        );
    }
}

#[test]
fn deep_schema_is_an_error_not_a_crash() {
    let mut s = json!({"type": "string"});
    for _ in 0..300 {
        s = json!({"items": s});
    }
    let err = Schema::new(&s).expect_err("too deep");
    assert!(matches!(err.kind(), ErrorKind::InvalidSchema(_)));
}

#[test]
fn bool_alias_leaves_data_alone() {
    // "bool" inside const/enum is data, not a type name.
    let s = schema(json!({"properties": {"t": {"const": {"type": "bool"}}}, "type": "object"}));
    assert!(s.is_valid(&json!({"t": {"type": "bool"}})));
    assert!(!s.is_valid(&json!({"t": {"type": "boolean"}})));
    assert_eq!(s.raw()["properties"]["t"]["const"]["type"], "bool");
}

#[test]
fn schema_is_cheap_to_share() {
    fn send_sync<T: Send + Sync + Clone>() {}
    send_sync::<Schema>();
    let s = schema(json!({"type": "integer"}));
    let t = s.clone();
    let handle = std::thread::spawn(move || t.is_valid(&json!(1)));
    assert!(handle.join().unwrap());
    assert!(s.is_valid(&json!(2)));
    let parsed: Schema = r#"{"type":"string"}"#.parse().unwrap();
    assert!(parsed.is_valid(&json!("x")));
    let err = "{not json".parse::<Schema>().unwrap_err();
    assert!(err.to_string().contains("not JSON"), "{err}");
}

#[test]
fn big_numbers_keep_their_precision() {
    let s = schema(json!({"type":"integer","minimum":0}));
    let big: Value = serde_json::from_str("123456789012345678901234567890").unwrap();
    assert!(s.is_valid(&big));
}

#[test]
fn additional_properties_false_alone_names_each_property() {
    let s = schema(
        json!({"type": "object", "properties": {"o": {"type": "object", "additionalProperties": false}}}),
    );
    let v = s.validate(&json!({"o": {"x": 1, "y": {"z": 2}}}));
    let got: Vec<(&str, &str)> = v
        .iter()
        .map(|v| (v.path.as_str(), v.message.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("/o/x", r#"property "x" is not allowed"#),
            ("/o/y", r#"property "y" is not allowed"#)
        ]
    );
}
