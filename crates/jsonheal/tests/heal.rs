//! `heal`: extraction, coercion and validation in one call; the errors it returns.
#![allow(clippy::unwrap_used)]

use jsonheal::extract::CandidateSource;
use jsonheal::schema::{CoerceOptions, CoercionKind, HealErrorKind};
use jsonheal::{heal, HealOptions, Schema};
use serde_json::{json, Value};

fn person() -> Schema {
    Schema::new(&json!({
        "type": "object",
        "required": ["name", "age"],
        "additionalProperties": false,
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "age": {"type": "integer", "minimum": 0},
            "email": {"type": "string", "format": "email"}
        }
    }))
    .unwrap()
}

fn healed(reply: &str) -> Value {
    heal(reply, &person(), &HealOptions::default())
        .unwrap_or_else(|e| panic!("{reply:?}: {e}\n{}", e.feedback))
        .value
}

#[test]
fn heals_a_typical_reply() {
    let reply =
        "Sure! Here is the person:\n```json\n{name: 'Ada', \"Age\": \"36\",}\n```\nAnything else?";
    let h = heal(reply, &person(), &HealOptions::default()).unwrap();
    assert_eq!(h.value, json!({"name": "Ada", "age": 36}));
    assert_eq!(h.candidate, CandidateSource::Fence(0));
    let kinds: Vec<CoercionKind> = h.coercions.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        vec![CoercionKind::KeyCase, CoercionKind::StringToNumber]
    );
    let repairs: Vec<&str> = h.repairs.iter().map(|r| r.kind).collect();
    assert!(
        repairs.contains(&"unquoted_key") && repairs.contains(&"trailing_comma"),
        "{repairs:?}"
    );
    // Healed serializes for logs and the gateway.
    let out = serde_json::to_value(&h).unwrap();
    assert_eq!(out["candidate"], json!({"fence": 0}));
    assert_eq!(out["coercions"][1]["kind"], "string_to_number");
}

#[test]
fn the_first_candidate_that_validates_wins() {
    // An example object, then the real one: only the real one validates.
    let reply = r#"The format is {"name": "string", "age": "number"}. Filled in: {"name": "Ada", "age": 36}"#;
    assert_eq!(healed(reply), json!({"name": "Ada", "age": 36}));
    // Same, the other way round: the real one first, then an invalid example.
    let reply = r#"Answer: {"name": "Ada", "age": 36}. (Shape: {"name": "...", "age": "n/a"})"#;
    assert_eq!(healed(reply), json!({"name": "Ada", "age": 36}));
    // Two fences: an example and the answer.
    let reply = "Example:\n```json\n{\"name\": \"\", \"age\": -1}\n```\nAnswer:\n```json\n{\"name\": \"Bo\", \"age\": 5}\n```";
    assert_eq!(healed(reply), json!({"name": "Bo", "age": 5}));
    // The example is the last fence and invalid; the answer before it validates.
    let reply =
        "```json\n{\"name\": \"Bo\", \"age\": 5}\n```\nfor input like\n```json\n{\"id\": 3}\n```";
    assert_eq!(healed(reply), json!({"name": "Bo", "age": 5}));
}

#[test]
fn reasoning_is_skipped() {
    let reply = "<think>The user wants {\"name\": \"Guess\", \"age\": 1}... let me check.</think>\n{\"name\": \"Ada\", \"age\": 36}";
    assert_eq!(healed(reply), json!({"name": "Ada", "age": 36}));
    // JSON only inside the reasoning: no answer.
    let err = heal(
        "<think>{\"name\": \"A\", \"age\": 1}</think>Sorry.",
        &person(),
        &HealOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, HealErrorKind::NoJson);
}

#[test]
fn top_level_arrays() {
    let s = Schema::new(&json!({"type": "array", "items": {"type": "integer"}, "minItems": 2}))
        .unwrap();
    let h = heal("The ids are [1, \"2\", 3].", &s, &HealOptions::default()).unwrap();
    assert_eq!(h.value, json!([1, 2, 3]));
    assert_eq!(h.candidate, CandidateSource::Span);
}

#[test]
fn no_json_has_its_own_error() {
    let err = heal(
        "I'm sorry, I can't do that.",
        &person(),
        &HealOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, HealErrorKind::NoJson);
    assert!(err.violations.is_empty());
    assert!(
        err.feedback.contains("did not contain a JSON value"),
        "{}",
        err.feedback
    );
    assert_eq!(err.to_string(), "no JSON found");
}

#[test]
fn truncation_is_refused_unless_allowed() {
    let reply = r#"{"name": "Ada", "age": 36, "email": "ada@"#;
    let err = heal(reply, &person(), &HealOptions::default()).unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Truncated);
    assert!(err.feedback.contains("cut off"), "{}", err.feedback);
    let allow = HealOptions {
        allow_truncated: true,
        ..HealOptions::default()
    };
    // Allowed, the completed value is validated like any other (here the email is cut short).
    let err = heal(reply, &person(), &allow).unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Invalid);
    assert_eq!(err.violations[0].path, "/email");
    let h = heal(r#"{"name": "Ada", "age": 36"#, &person(), &allow).unwrap();
    assert_eq!(h.value, json!({"name": "Ada", "age": 36}));
    assert!(h.repairs.iter().any(|r| r.kind == "truncated"));
}

#[test]
fn a_cut_off_answer_after_a_complete_example_is_truncation() {
    let reply = "Example: ```json\n{\"name\": \"X\", \"age\": 1}\n```\nAnswer: ```json\n{\"name\": \"Ada\", \"ag";
    let err = heal(reply, &person(), &HealOptions::default()).unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Truncated);
}

#[test]
fn invalid_carries_violations_and_feedback() {
    let reply = r#"{"name": "", "age": "old", "extra": true}"#;
    let err = heal(reply, &person(), &HealOptions::default()).unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Invalid);
    let paths: Vec<&str> = err.violations.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, vec!["/name", "/age", "/extra"]);
    assert!(
        err.feedback
            .contains("- /age: expected integer, found string \"old\""),
        "{}",
        err.feedback
    );
    assert!(
        err.feedback
            .contains("- /extra: property \"extra\" is not allowed"),
        "{}",
        err.feedback
    );
    let rejected = err.rejected.as_ref().unwrap();
    assert_eq!(rejected.candidate, CandidateSource::Whole);
    assert!(
        err.to_string()
            .starts_with("3 schema violations, first: /name: "),
        "{err}"
    );
}

#[test]
fn coercion_can_be_turned_off() {
    let reply = r#"{"name": "Ada", "age": "36"}"#;
    assert_eq!(healed(reply), json!({"name": "Ada", "age": 36}));
    let strict = HealOptions {
        coerce: CoerceOptions::none(),
        ..HealOptions::default()
    };
    let err = heal(reply, &person(), &strict).unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Invalid);
    assert_eq!(err.violations[0].path, "/age");
}

#[test]
fn valid_replies_come_back_unchanged() {
    let reply = r#"{"name": "Ada", "age": 36, "email": "ada@example.com"}"#;
    let h = heal(reply, &person(), &HealOptions::default()).unwrap();
    assert_eq!(h.candidate, CandidateSource::Whole);
    assert!(h.repairs.is_empty() && h.coercions.is_empty());
    assert_eq!(
        h.value.to_string(),
        r#"{"name":"Ada","age":36,"email":"ada@example.com"}"#
    );
}

#[test]
fn several_values_pick_the_one_that_fits() {
    let reply = "{\"name\": \"A\", \"age\": 1}\n{\"name\": \"B\", \"age\": 2}";
    // The whole reply reads as an array of both; the schema wants one object: the last span.
    let h = heal(reply, &person(), &HealOptions::default()).unwrap();
    assert_eq!(h.value, json!({"name": "B", "age": 2}));
}

#[test]
fn cut_off_while_reasoning_is_truncation() {
    let err = heal(
        "<think>The user wants {\"name\": \"A\", \"age\": 1} so",
        &person(),
        &HealOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, HealErrorKind::Truncated);
    let err = heal(
        "<think>done</think> Sorry, no.",
        &person(),
        &HealOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, HealErrorKind::NoJson);
}
