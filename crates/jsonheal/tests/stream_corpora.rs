//! Every case of the engine's fault corpora (`tests/data/llm_faults*.jsonl`: what models
//! really emit, each with one or more faults) through the stream, in pieces of 1 to 16 bytes
//! and of 1 to 300: no snapshot goes back on an earlier one, and outside the documented
//! limits (as the stream fuzzer reads them) none contradicts the final value; `finish`
//! equals one-shot `repair`.
#![allow(clippy::unwrap_used)]

use jsonheal::stream::Repairer;
use serde_json::Value;

mod common;
use common::{feed_checking, final_within_limits};

/// Feed `text` in pieces of 1 to `largest` bytes, whose sizes cycle from `first`; the
/// contradictions found (the checks of `common::feed_checking`), and whether `finish`
/// differs from one-shot `repair`.
fn stream_problems(text: &str, fin: &Option<Value>, first: usize, largest: usize) -> Vec<String> {
    let mut cuts = Vec::new();
    let (mut at, mut k) = (0, 0);
    while at < text.len() {
        at = (at + 1 + (first + k * 7) % largest).min(text.len());
        k += 1;
        cuts.push(at);
    }
    let mut problems = Vec::new();
    let mut r = Repairer::new();
    if let Err(m) = feed_checking(&mut r, "case", text, &cuts, fin.as_ref(), false) {
        problems.push(m);
    }
    if r.finish() != jsonheal::repair(text) {
        problems.push("finish differs from repair".to_owned());
    }
    problems
}

#[test]
fn fault_corpora_stream_without_contradictions() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("llm_faults") && n.ends_with(".jsonl"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the corpora went missing: {files:?}");
    let (mut cases, mut checked, mut failures) = (0, 0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line_no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let case: Value = serde_json::from_str(line).unwrap();
            let input = case["input"].as_str().unwrap();
            cases += 1;
            let fin = final_within_limits(input);
            checked += usize::from(fin.is_some());
            // Three chunkings per case: each cuts in other places; the last in pieces large
            // enough for whole containers to arrive in one.
            for (first, largest) in [(0, 16), (5, 16), (3, 300)] {
                for problem in stream_problems(input, &fin, first, largest) {
                    failures.push(format!(
                        "{}:{} (chunking {first}): {problem}\n  {input:?}",
                        file.file_name().unwrap().to_string_lossy(),
                        line_no + 1
                    ));
                }
            }
        }
    }
    assert!(cases > 7000, "only {cases} cases");
    // The limits leave most cases to check against their final value.
    assert!(
        checked * 10 > cases * 7,
        "only {checked} of {cases} checked"
    );
    assert!(
        failures.is_empty(),
        "{} contradictions in {cases} cases:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
