//! Every place a schema can declare a value guides coercion: `patternProperties`, `allOf`
//! (all members together), `if`/`then`/`else`, `dependentSchemas`/`dependencies`, `$ref` by
//! `$id` or `$anchor`, and `enum`/`const` as evidence of a type. Each construct on, and off
//! when its coercion is disabled; ECMA-262 patterns; lazy compilation; the schema cache.
#![allow(clippy::unwrap_used)]

use jsonheal::schema::{coerce, CoerceOptions, CoercionKind, HealErrorKind, SchemaCache};
use jsonheal::{heal, ErrorKind, HealOptions, Schema};
use serde_json::{json, Value};

fn schema(v: Value) -> Schema {
    Schema::new(&v).unwrap()
}

/// Options with everything on except `off`.
fn all_but(off: CoercionKind) -> CoerceOptions {
    CoerceOptions::default().with(off, false)
}

/// (construct, kind, schema, input, coerced, path of the coercion of that kind).
type Case = (
    &'static str,
    CoercionKind,
    Value,
    Value,
    Value,
    &'static str,
);

fn cases() -> Vec<Case> {
    use CoercionKind::*;
    vec![
        (
            "patternProperties",
            StringToNumber,
            json!({"type": "object", "patternProperties": {"^x-": {"type": "integer"}}}),
            json!({"x-a": "7", "y": "7"}),
            json!({"x-a": 7, "y": "7"}),
            "/x-a",
        ),
        (
            "patternProperties before additionalProperties",
            StringToBoolean,
            json!({"patternProperties": {"^n_": {"type": "number"}},
                   "additionalProperties": {"type": "boolean"}}),
            json!({"n_a": "1.5", "flag": "TRUE"}),
            json!({"n_a": 1.5, "flag": true}),
            "/flag",
        ),
        (
            "patternProperties beside properties (both apply)",
            WrapInArray,
            json!({"properties": {"tags": {"items": {"type": "string"}}},
                   "patternProperties": {"s$": {"type": "array"}}}),
            json!({"tags": "x"}),
            json!({"tags": ["x"]}),
            "/tags",
        ),
        (
            "patternProperties with an ECMA-262 pattern",
            StringToNumber,
            json!({"patternProperties": {"^\\<\\w+\\>$": {"type": "integer"}}}),
            json!({"<n>": "3"}),
            json!({"<n>": 3}),
            "/<n>",
        ),
        (
            "allOf: a property declared in two members",
            StringToNumber,
            json!({"allOf": [{"properties": {"n": {}}}, {"properties": {"n": {"type": "integer"}}}]}),
            json!({"n": "7"}),
            json!({"n": 7}),
            "/n",
        ),
        (
            "allOf: type in one member, items in another",
            WrapInArray,
            json!({"allOf": [{"properties": {"tags": {"items": {"type": "string"}}}},
                             {"properties": {"tags": {"type": "array"}}}]}),
            json!({"tags": "x"}),
            json!({"tags": ["x"]}),
            "/tags",
        ),
        (
            "allOf: number in one member, integer in another",
            StringToNumber,
            json!({"properties": {"n": {"allOf": [{"type": "number"}, {"type": "integer"}]}}}),
            json!({"n": "12"}),
            json!({"n": 12}),
            "/n",
        ),
        (
            "if/then",
            StringToNumber,
            json!({"properties": {"kind": {"enum": ["num", "text"]}},
                   "if": {"properties": {"kind": {"const": "num"}}},
                   "then": {"properties": {"v": {"type": "integer"}}},
                   "else": {"properties": {"v": {"type": "string"}}}}),
            json!({"kind": "num", "v": "7"}),
            json!({"kind": "num", "v": 7}),
            "/v",
        ),
        (
            "if/else",
            NumberToString,
            json!({"properties": {"kind": {"enum": ["num", "text"]}},
                   "if": {"properties": {"kind": {"const": "num"}}},
                   "then": {"properties": {"v": {"type": "integer"}}},
                   "else": {"properties": {"v": {"type": "string"}}}}),
            json!({"kind": "text", "v": 7}),
            json!({"kind": "text", "v": "7"}),
            "/v",
        ),
        (
            "if decided after the enum case is fixed",
            EnumCase,
            json!({"properties": {"kind": {"enum": ["num", "text"]}},
                   "if": {"properties": {"kind": {"const": "num"}}, "required": ["kind"]},
                   "then": {"properties": {"v": {"type": "integer"}}},
                   "else": {"properties": {"v": {"type": "string"}}}}),
            json!({"kind": "NUM", "v": "7"}),
            json!({"kind": "num", "v": 7}),
            "/kind",
        ),
        (
            "dependentSchemas",
            StringToNumber,
            json!({"properties": {"card": {"type": "string"}},
                   "dependentSchemas": {"card": {"properties": {"cvv": {"type": "integer"}}}}}),
            json!({"card": "4111", "cvv": "123"}),
            json!({"card": "4111", "cvv": 123}),
            "/cvv",
        ),
        (
            "dependencies (draft 7)",
            StringToBoolean,
            json!({"$schema": "http://json-schema.org/draft-07/schema#",
                   "dependencies": {"card": {"properties": {"saved": {"type": "boolean"}}},
                                    "other": ["card"]}}),
            json!({"card": "4111", "saved": "false"}),
            json!({"card": "4111", "saved": false}),
            "/saved",
        ),
        (
            "$ref by $anchor",
            StringToNumber,
            json!({"$defs": {"n": {"$anchor": "num", "type": "integer"}},
                   "properties": {"n": {"$ref": "#num"}}}),
            json!({"n": "5"}),
            json!({"n": 5}),
            "/n",
        ),
        (
            "$ref by $id",
            StringToBoolean,
            json!({"$id": "https://example.com/root.json",
                   "$defs": {"b": {"$id": "flag.json", "type": "boolean"}},
                   "properties": {"f": {"$ref": "flag.json"}}}),
            json!({"f": "true"}),
            json!({"f": true}),
            "/f",
        ),
        (
            "$ref by $id and a pointer inside it",
            StringToNumber,
            json!({"$id": "https://example.com/r.json",
                   "$defs": {"x": {"$id": "https://example.com/other.json",
                                   "$defs": {"n": {"type": "number"}}}},
                   "properties": {"n": {"$ref": "other.json#/$defs/n"}}}),
            json!({"n": "2.5"}),
            json!({"n": 2.5}),
            "/n",
        ),
        (
            "$ref by a draft-7 plain-name $id",
            StringToNumber,
            json!({"$schema": "http://json-schema.org/draft-07/schema#",
                   "definitions": {"n": {"$id": "#count", "type": "integer"}},
                   "properties": {"c": {"$ref": "#count"}}}),
            json!({"c": "3"}),
            json!({"c": 3}),
            "/c",
        ),
        (
            "enum of numbers, no type",
            StringToNumber,
            json!({"properties": {"v": {"enum": [1, 2]}}}),
            json!({"v": "1"}),
            json!({"v": 1}),
            "/v",
        ),
        (
            "enum of booleans, no type",
            StringToBoolean,
            json!({"properties": {"v": {"enum": [false]}}}),
            json!({"v": "false"}),
            json!({"v": false}),
            "/v",
        ),
        (
            "enum with a type that allows strings",
            StringToBoolean,
            json!({"properties": {"v": {"type": ["string", "boolean"], "enum": [true, "op"]}}}),
            json!({"v": "true"}),
            json!({"v": true}),
            "/v",
        ),
        (
            "const number",
            StringToNumber,
            json!({"properties": {"v": {"const": 3}}}),
            json!({"v": " 3 "}),
            json!({"v": 3}),
            "/v",
        ),
        (
            "enum of numeric strings, given a number",
            NumberToString,
            json!({"properties": {"v": {"enum": ["1", "2"]}}}),
            json!({"v": 2}),
            json!({"v": "2"}),
            "/v",
        ),
    ]
}

#[test]
fn each_construct_guides_coercion() {
    for (what, kind, s, input, want, path) in cases() {
        let s = schema(s);
        assert!(!s.is_valid(&input), "{what}: {input} should start invalid");
        let mut v = input.clone();
        let log = coerce(&mut v, &s, &CoerceOptions::default());
        assert_eq!(v, want, "{what}: {input} ({log:?})");
        assert!(s.is_valid(&v), "{what}: {v} should now validate");
        assert!(
            log.iter().any(|c| c.kind == kind && c.path == path),
            "{what}: expected {kind} at {path:?}, got {log:?}"
        );
    }
}

#[test]
fn each_construct_is_off_when_its_coercion_is() {
    for (what, kind, s, input, _, _) in cases() {
        let s = schema(s);
        let mut v = input.clone();
        let log = coerce(&mut v, &s, &all_but(kind));
        assert!(log.iter().all(|c| c.kind != kind), "{what}: {log:?}");
        assert!(
            !s.is_valid(&v),
            "{what}: {input} must stay invalid, got {v}"
        );
        let mut v = input.clone();
        assert!(coerce(&mut v, &s, &CoerceOptions::none()).is_empty());
        assert_eq!(v, input, "{what}: none() changes nothing");
    }
}

#[test]
fn heal_uses_every_construct() {
    for (what, _, s, input, want, _) in cases() {
        let s = schema(s);
        let healed = heal(&input.to_string(), &s, &HealOptions::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(healed.value, want, "{what}");
    }
}

#[test]
fn unclear_or_contradictory_evidence_is_refused_not_guessed() {
    let refused = [
        // Both members apply and disagree: no value satisfies both.
        (
            json!({"allOf": [{"properties": {"n": {"type": "string", "maxLength": 0}}},
                             {"properties": {"n": {"type": "integer"}}}]}),
            json!({"n": "7"}),
        ),
        // A string that is no member and parses to none.
        (
            json!({"properties": {"v": {"enum": [1, 2]}}}),
            json!({"v": "3"}),
        ),
        (
            json!({"properties": {"v": {"enum": [true]}}}),
            json!({"v": "yes"}),
        ),
        // The pattern does not match: the value is not declared as an integer.
        (
            json!({"patternProperties": {"^x-": {"type": "integer"}},
                   "additionalProperties": false}),
            json!({"y-a": "7"}),
        ),
    ];
    for (s, input) in refused {
        let s = schema(s);
        let err = heal(&input.to_string(), &s, &HealOptions::default()).unwrap_err();
        assert_eq!(err.kind, HealErrorKind::Invalid, "{input}");
        assert!(!err.feedback.is_empty());
    }
    // A string that is already a member stays a string.
    let s = schema(json!({"properties": {"v": {"enum": ["1", 1]}}}));
    let mut v = json!({"v": "1"});
    assert!(coerce(&mut v, &s, &CoerceOptions::default()).is_empty());
    assert_eq!(v, json!({"v": "1"}));
}

#[test]
fn patterns_are_ecma_262() {
    let email = schema(json!({"type": "string", "pattern": "^.+\\<.+@.+\\..+\\>$"}));
    assert!(email.is_valid(&json!("a<a@a.a>")));
    assert!(!email.is_valid(&json!("a@a.a")));
    let any = schema(json!({"pattern": "^[^]$"}));
    assert!(any.is_valid(&json!("\n")));
    let brace = schema(json!({"pattern": "^a{$"}));
    assert!(brace.is_valid(&json!("a{")));
    let class = schema(json!({"pattern": "^[\\w-.]+$"}));
    assert!(class.is_valid(&json!("a-b.c")));
    assert!(!class.is_valid(&json!("a b")));
    let draft4 = schema(json!({"$schema": "http://json-schema.org/draft-04/schema#",
                               "properties": {"t": {"pattern": "^\\<b\\>$"}}}));
    assert!(draft4.is_valid(&json!({"t": "<b>"})));
}

#[test]
fn invalid_patterns_are_refused_with_the_pattern_and_the_reason_first() {
    let mut big = serde_json::Map::new();
    for i in 0..50 {
        big.insert(
            format!("p{i}"),
            json!({"type": "string", "description": "x".repeat(40)}),
        );
    }
    big.insert("bad".to_owned(), json!({"pattern": "^(ab$"}));
    for s in [
        json!({"properties": Value::Object(big)}),
        json!({"patternProperties": {"^(ab$": {}}}),
    ] {
        let e = Schema::new(&s).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidSchema(_)));
        let text = e.to_string();
        assert!(
            text.starts_with(
                "invalid schema: the pattern \"^(ab$\" is not a valid regular expression: "
            ),
            "{text}"
        );
        assert!(text.contains("unclosed group"), "{text}");
        assert!(text.len() < 200, "{text}");
    }
}

#[test]
fn a_large_bad_keyword_value_does_not_hide_the_reason() {
    let long = "y".repeat(400);
    let e = Schema::new(&json!({"items": [{"description": long}, {"description": long}]}))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("invalid schema: bad `items` at /items: an array of 2 items is not of type"),
        "{e}"
    );
    assert!(!e.contains("yyyy"), "{e}");
}

/// A schema with many definitions, one of them reached through `anyOf`.
fn wide_schema(n: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"id": {"type": "integer"},
                   "kind": {"anyOf": [{"const": i}, {"type": "string", "pattern": "^k[0-9]+$"}]}}}),
        );
    }
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"$ref": format!("#/$defs/d{i}")})))
        .collect();
    json!({"type": "object", "properties": props, "$defs": defs})
}

#[test]
fn subschemas_are_compiled_only_when_visited_and_kept() {
    let s = schema(wide_schema(80));
    assert_eq!(s.compiled_subschemas(), 0);
    let mut v = json!({"p3": {"id": "1", "kind": "3"}});
    let log = coerce(&mut v, &s, &CoerceOptions::default());
    assert_eq!(v, json!({"p3": {"id": 1, "kind": 3}}), "{log:?}");
    let after_first = s.compiled_subschemas();
    assert!(
        (1..=4).contains(&after_first),
        "only p3's branches: {after_first}"
    );
    let mut again = json!({"p3": {"id": "2", "kind": "3"}});
    coerce(&mut again, &s, &CoerceOptions::default());
    assert_eq!(s.compiled_subschemas(), after_first, "kept, not recompiled");
    // A clone shares them.
    assert_eq!(s.clone().compiled_subschemas(), after_first);
}

#[test]
fn the_cache_shares_compiled_schemas_across_threads() {
    let cache = SchemaCache::new(2);
    let raw = wide_schema(5);
    let first = cache.get(&raw).unwrap();
    let mut v = json!({"p1": {"kind": "1"}});
    coerce(&mut v, &first, &CoerceOptions::default());
    let compiled = first.compiled_subschemas();
    assert!(compiled > 0);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let s = cache.get(&raw).unwrap();
                assert!(s.same_as(&first));
                assert_eq!(s.compiled_subschemas(), compiled);
            });
        }
    });
    // Invalid schemas are an error each time, and not kept.
    assert!(cache.get(&json!({"type": 5})).is_err());
    assert_eq!(cache.len(), 1);
    // Bounded: a third schema starts the cache over.
    cache.get(&json!({"type": "string"})).unwrap();
    cache.get(&json!({"type": "number"})).unwrap();
    assert!(cache.len() <= 2);
    assert!(!cache.get(&raw).unwrap().same_as(&first));
}

#[test]
fn heal_error_kind_names_are_the_serialized_ones() {
    for kind in [
        HealErrorKind::NoJson,
        HealErrorKind::Truncated,
        HealErrorKind::Invalid,
    ] {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.name()));
        assert_eq!(kind.to_string(), kind.name());
    }
}
