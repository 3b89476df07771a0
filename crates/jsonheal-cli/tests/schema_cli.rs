//! `jsonheal extract`, `validate` and `instructions`: output, stderr and exit codes.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const SCHEMA: &str = r#"{
  "type": "object",
  "required": ["name", "age"],
  "additionalProperties": false,
  "properties": {
    "name": {"type": "string", "minLength": 2},
    "age": {"type": "integer", "minimum": 0}
  }
}"#;

/// A file under a directory of this test run's own.
fn file(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jsonheal-schema-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn jsonheal(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jsonheal"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading (a bad schema): a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn extract_without_schema_prints_the_value() {
    let o = jsonheal(
        &["extract"],
        "Sure!\n```json\n{a: 1, b: [1,2,],}\n```\nBye.",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"a\":1,\"b\":[1,2]}\n");
}

#[test]
fn extract_with_schema_heals() {
    let schema = file("s1.json", SCHEMA);
    let reply = file("r1.txt", "Here: {\"Name\": \"Ada\", \"age\": \"36\"} done");
    let o = jsonheal(
        &[
            "extract",
            "--schema",
            schema.to_str().unwrap(),
            reply.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"name\":\"Ada\",\"age\":36}\n");
    let o = jsonheal(
        &[
            "extract",
            "--report",
            "--schema",
            schema.to_str().unwrap(),
            reply.to_str().unwrap(),
        ],
        "",
    );
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["candidate"], "span");
    assert_eq!(report["coercions"].as_array().unwrap().len(), 2);
}

#[test]
fn extract_invalid_exits_1_with_path_errors() {
    let schema = file("s2.json", SCHEMA);
    let o = jsonheal(
        &["extract", "--schema", schema.to_str().unwrap()],
        r#"{"name": "A", "age": -1, "x": 0}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.contains("/name: expected at least 2 characters, found 1 character: \"A\"\n"),
        "{err}"
    );
    assert!(
        err.contains("/age: expected a number >= 0, found integer -1\n"),
        "{err}"
    );
    assert!(err.contains("/x: property \"x\" is not allowed"), "{err}");
}

#[test]
fn feedback_prints_the_message_for_the_model() {
    let schema = file("s3.json", SCHEMA);
    let s = schema.to_str().unwrap();
    let o = jsonheal(
        &["extract", "--feedback", "--schema", s],
        r#"{"name": "Ada"}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.starts_with("Your JSON reply does not match the required schema."),
        "{out}"
    );
    assert!(
        out.contains("- /age: missing required property \"age\" (integer)"),
        "{out}"
    );
    let o = jsonheal(&["extract", "--feedback", "--schema", s], "No idea, sorry.");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("did not contain a JSON value"));
    assert!(stderr(&o).contains("no JSON found"));
    let o = jsonheal(
        &["extract", "--feedback", "--schema", s],
        r#"{"name": "Ada", "age": 3"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("cut off"));
    let o = jsonheal(
        &["extract", "--allow-truncated", "--schema", s],
        r#"{"name": "Ada", "age": 3"#,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"name\":\"Ada\",\"age\":3}\n");
}

#[test]
fn no_coerce_validates_as_extracted() {
    let schema = file("s4.json", SCHEMA);
    let o = jsonheal(
        &[
            "extract",
            "--no-coerce",
            "--schema",
            schema.to_str().unwrap(),
        ],
        r#"{"name": "Ada", "age": "3"}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/age: expected integer, found string \"3\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn extract_jsonl_batch() {
    let schema = file("s5.json", SCHEMA);
    let input = [
        json!({"id": 1, "text": "```json\n{\"name\": \"Ada\", \"age\": 36}\n```"}),
        json!({"id": "b", "text": "{\"name\": \"A\"}"}),
        json!({"id": 3, "text": "{\"v\": \"7\"}", "schema": {"properties": {"v": {"type": "integer"}}}}),
        json!({"id": 4, "text": "nothing here"}),
        json!({"id": 5}),
    ]
    .iter()
    .map(Value::to_string)
    .collect::<Vec<_>>()
    .join("\n")
        + "\nnot json\n";
    let o = jsonheal(
        &[
            "extract",
            "--jsonl",
            "--feedback",
            "--schema",
            schema.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0],
        json!({"id": 1, "ok": true, "value": {"name": "Ada", "age": 36}})
    );
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["error"], "invalid");
    assert!(lines[1]["feedback"].as_str().unwrap().contains("- /name:"));
    assert!(lines[1]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["path"] == "/age"));
    assert_eq!(lines[2], json!({"id": 3, "ok": true, "value": {"v": 7}}));
    assert_eq!(lines[3]["error"], "no_json");
    assert!(lines[4]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("\"text\""));
    assert!(lines[5]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("line 6: not a JSON object"));
    // All good: exit 0.
    let o = jsonheal(&["extract", "--jsonl"], "{\"id\": 1, \"text\": \"[1]\"}\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "{\"id\":1,\"ok\":true,\"value\":[1]}\n");
}

#[test]
fn validate_exit_codes_and_messages() {
    let schema = file("s6.json", SCHEMA);
    let s = schema.to_str().unwrap();
    let o = jsonheal(
        &["validate", "--schema", s],
        r#"{"name": "Ada", "age": 36}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let o = jsonheal(
        &["validate", "--schema", s],
        r#"{"name": "Ada", "age": "36"}"#,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "/age: expected integer, found string \"36\"\n");
    let o = jsonheal(&["validate", "--schema", s], "[]");
    assert_eq!(stderr(&o), "/: expected object, found []\n");
    // Not JSON: invalid (1), unless --repair makes it JSON.
    let o = jsonheal(&["validate", "--schema", s], "{name: 'Ada', age: 36}");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not valid JSON"), "{}", stderr(&o));
    let o = jsonheal(
        &["validate", "--repair", "--schema", s],
        "{name: 'Ada', age: 36}",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = jsonheal(
        &["validate", "--feedback", "--schema", s],
        r#"{"name": "Ada"}"#,
    );
    assert!(
        stdout(&o).contains("- /age: missing required property"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn validate_jsonl_batch() {
    let schema = file("s7.json", SCHEMA);
    let input = "{\"id\": 1, \"value\": {\"name\": \"Ada\", \"age\": 1}}\n{\"id\": 2, \"text\": \"{\\\"name\\\": 3}\"}\n";
    let o = jsonheal(
        &["validate", "--jsonl", "--schema", schema.to_str().unwrap()],
        input,
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["errors"].as_array().unwrap().len(), 2);
    assert!(lines[1].get("feedback").is_none());
}

#[test]
fn schema_problems_are_usage_errors() {
    let bad = file("bad.json", r#"{"type": "strng"}"#);
    let o = jsonheal(&["validate", "--schema", bad.to_str().unwrap()], "{}");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("invalid schema: bad `type`"), "{err}");
    let o = jsonheal(&["extract", "--schema", "/nonexistent/schema.json"], "{}");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/schema.json"),
        "{}",
        stderr(&o)
    );
    let not_json = file("nj.json", "{type: string");
    let o = jsonheal(
        &["instructions", "--schema", not_json.to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not JSON"), "{}", stderr(&o));
}

#[test]
fn instructions_print_rules_and_schema() {
    let schema = file("s8.json", SCHEMA);
    let o = jsonheal(&["instructions", "--schema", schema.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("Answer with a single JSON value"), "{out}");
    assert!(
        out.contains("Always include these properties: name (string), age (integer)."),
        "{out}"
    );
    assert!(out.contains("\"additionalProperties\":false"), "{out}");
}

#[test]
fn instructions_fit_the_budget_and_keep_every_constraint() {
    let long = "words that explain the field at length ".repeat(30);
    let raw = json!({
        "type": "object",
        "description": long,
        "required": ["n"],
        "properties": {
            "n": {"type": "integer", "minimum": 3, "description": long, "examples": [3, 4]},
            "s": {"$ref": "#/$defs/Code"}
        },
        "$defs": {"Code": {"type": "string", "pattern": "^[a-z]+$", "description": long}}
    });
    let schema = file("s10.json", &raw.to_string());
    let path = schema.to_str().unwrap();
    let full = stdout(&jsonheal(&["instructions", "--schema", path], ""));
    assert!(
        full.contains(&raw.to_string()),
        "fits the default budget as it is"
    );
    let o = jsonheal(&["instructions", "--schema", path, "--budget", "250"], "");
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.chars().count() <= 750,
        "{} characters: {out}",
        out.chars().count()
    );
    let compact = out.lines().last().unwrap();
    let compact: Value = serde_json::from_str(compact).unwrap();
    assert_eq!(
        compact,
        json!({"type": "object", "required": ["n"],
               "properties": {"n": {"type": "integer", "minimum": 3},
                              "s": {"type": "string", "pattern": "^[a-z]+$"}}})
    );
    let o = jsonheal(&["instructions", "--schema", path, "--budget", "x"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn errors_stay_one_a_line() {
    let schema = file(
        "s9.json",
        r#"{"properties": {"a": {}}, "additionalProperties": false}"#,
    );
    let o = jsonheal(
        &["validate", "--schema", schema.to_str().unwrap()],
        "{\"x\\ny\": 1}",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "/x\\ny: property \"x\\ny\" is not allowed (allowed: \"a\")\n"
    );
}
