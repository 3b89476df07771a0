//! The labelled corpus `data/args_corpus.jsonl`: tool-call payloads as models send them
//! (plain values, CLI text, object literals, mixed styles, double-encoded, smart quotes,
//! empty and shape cases). Each line is `{"tool", "input", "expect"}` (`expect: null` means
//! "must be an error"), optionally `"strategy"` and `"parameters"` (the tool's schema).
//! The goal is ≥ 98% correct; failures are printed.
#![allow(clippy::unwrap_used)]

use jsonheal::args::{normalize, ArgsOptions};
use jsonheal::quotes::QuoteMode;
use serde_json::Value;

#[derive(serde::Deserialize)]
struct Case {
    tool: String,
    input: String,
    expect: Option<Value>,
    strategy: Option<String>,
    parameters: Option<Value>,
}

#[test]
fn corpus_is_at_least_98_percent_correct() {
    let text = include_str!("data/args_corpus.jsonl");
    let mut total = 0;
    let mut failures = Vec::new();
    let mut generic_ok = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: Case =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("corpus line {}: {e}", i + 1));
        total += 1;
        let opts = ArgsOptions {
            parameters: case.parameters.clone(),
            ..ArgsOptions::default()
        };
        // The baseline: the generic repair engine alone, taken as right when it gives the
        // expected object (or fails where an error is expected).
        let generic = match (jsonheal::repair(&case.input), &case.expect) {
            (Ok(r), Some(want)) => r.value().is_ok_and(|v| same(&v, want)),
            (Ok(r), None) => !r.value().is_ok_and(|v| v.is_object()),
            (Err(_), None) => true,
            (Err(_), Some(_)) => false,
        };
        generic_ok += usize::from(generic);
        let got = normalize(&case.tool, &case.input, &opts);
        let verdict = match (&got, &case.expect) {
            (Ok(n), Some(want)) => {
                let value = Value::Object(n.value.clone());
                if !same(&value, want) {
                    Some(format!("got {value}, want {want}"))
                } else {
                    case.strategy
                        .as_deref()
                        .filter(|s| *s != n.strategy.name())
                        .map(|s| format!("strategy {}, want {s}", n.strategy))
                }
            }
            (Err(_), None) => None,
            (Ok(n), None) => Some(format!(
                "got {} ({}), want an error",
                n.to_json_string(),
                n.strategy
            )),
            (Err(e), Some(want)) => Some(format!("error {e}, want {want}")),
        };
        if let Some(why) = verdict {
            failures.push(format!(
                "line {}: {} {:?}: {why}",
                i + 1,
                case.tool,
                case.input
            ));
        }
    }
    assert!(
        total >= 150,
        "the corpus needs at least 150 cases, has {total}"
    );
    let passed = total - failures.len();
    let rate = passed as f64 / total as f64;
    println!(
        "args corpus: {passed}/{total} correct ({:.1}%)",
        rate * 100.0
    );
    println!(
        "baseline, jsonheal::repair alone: {generic_ok}/{total} ({:.1}%)",
        generic_ok as f64 * 100.0 / total as f64
    );
    for f in &failures {
        println!("  FAIL {f}");
    }
    assert!(
        rate >= 0.98,
        "{passed}/{total} correct, below 98%:\n{}",
        failures.join("\n")
    );
}

/// JSON equality where numbers compare by value: the engine keeps number text (`9.30`),
/// the labels were written by a tool that prints `9.3`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.to_string() == y.to_string() || (x.as_f64().is_some() && x.as_f64() == y.as_f64())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
        }
        _ => a == b,
    }
}

/// A second corpus, `data/args_corpus_2.jsonl`, written blind (before the tool ran on it) by
/// a separate pass: plain values, CLI text, object literals, JSON-ish text, double-encoded
/// objects, smart quotes, shapes, schema-derived fields, fenced and prose-wrapped arguments,
/// mixed agent payloads. Each line lists every acceptable object (`accept`, key order free)
/// and whether an error is acceptable (`error_ok`). Its first run: 354 / 361.
#[derive(serde::Deserialize)]
struct BlindCase {
    tool: String,
    input: String,
    accept: Vec<Value>,
    error_ok: bool,
    parameters: Option<Value>,
    quotes: Option<String>,
}

#[test]
fn blind_corpus_is_at_least_98_percent_correct() {
    let (total, failures) = blind_failures(include_str!("data/args_corpus_2.jsonl"));
    assert!(total >= 350, "the blind corpus shrank: {total} cases");
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A third corpus, `data/args_corpus_3.jsonl`, written blind the same way (271 payloads:
/// plain values, quoted ones, double-encoded, object literals, dicts, CLI text, smart quotes,
/// cut-off arguments, fences and prose, shapes, schema-derived fields, agents' payloads).
/// Its first run: 269 / 271 (Python's `None` and a fence holding `null` for a tool without
/// a primary field were errors; both are no arguments, `{}`).
#[test]
fn third_blind_corpus_is_right() {
    let (total, failures) = blind_failures(include_str!("data/args_corpus_3.jsonl"));
    assert!(total >= 270, "the third corpus shrank: {total} cases");
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// How many cases a blind corpus holds, and the ones it gets wrong.
fn blind_failures(text: &str) -> (usize, Vec<String>) {
    let mut total = 0;
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: BlindCase =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("corpus line {}: {e}", i + 1));
        total += 1;
        let quotes = match case.quotes.as_deref() {
            Some("always") => QuoteMode::Always,
            Some("never") => QuoteMode::Never,
            _ => QuoteMode::Code,
        };
        let opts = ArgsOptions {
            parameters: case.parameters.clone(),
            quotes,
            ..ArgsOptions::default()
        };
        let right = match normalize(&case.tool, &case.input, &opts) {
            Ok(n) => {
                let value = Value::Object(n.value);
                case.accept.iter().any(|want| same_unordered(&value, want))
            }
            Err(_) => case.error_ok || case.accept.is_empty(),
        };
        if !right {
            failures.push(format!("line {}: {} {:?}", i + 1, case.tool, case.input));
        }
    }
    (total, failures)
}

/// `same`, with object keys in any order.
fn same_unordered(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_unordered(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_unordered(p, q))
        }
        _ => same(a, b),
    }
}
