//! The public conformance cases of `shared/conformance/probe.jsonl`: each must repair to one
//! of its accepted values, or be an error when no honest repair exists. Read from `../shared`
//! when it is there (the newest copy), else from the copy in this repo's test data. Each
//! case runs through both paths (the engine and the stream).

use std::path::PathBuf;

use serde_json::Value;

use crate::common::both::outcome;

fn probe_path() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../../../shared/conformance/probe.jsonl");
    if shared.exists() {
        shared
    } else {
        root.join("tests/data/probe.jsonl")
    }
}

#[test]
fn probe_cases_pass() {
    let path = probe_path();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        count += 1;
        let case: Value = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap_or("?");
        let input = case["input"].as_str().unwrap();
        let (got, stream) = outcome(input);
        if let Err(m) = stream {
            failures.push(format!("{id}: {m}"));
        }
        if case.get("expect_error").and_then(Value::as_bool) == Some(true) {
            if let Ok(r) = got {
                failures.push(format!("{id}: expected an error, got {}", r.text));
            }
            continue;
        }
        let accept = case["accept"].as_array().unwrap();
        match got.as_ref().map(|r| r.value()) {
            Ok(Ok(v)) if accept.contains(&v) => {}
            other => failures.push(format!("{id}: {input:?} gave {other:?}")),
        }
    }
    assert!(
        count >= 59,
        "only {count} cases read from {}",
        path.display()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
