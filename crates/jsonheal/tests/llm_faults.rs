//! Hand-written corpora of what models emit, one fault class per category: tool-call
//! arguments, structured answers, code and non-English text inside strings, pretty-printed
//! and cut-off output. Each was written against the repair contract by someone other than
//! the engine's author, then run; the categories are the issue's fault classes. Like the
//! held-out corpus, each is scored per category: at least 95% in every one and 98% overall.
//! Cases the contract leaves open are not in them.
//!
//! - `tests/data/llm_faults.jsonl`: 715 cases, the first corpus.
//! - `tests/data/llm_faults_more.jsonl`: 2,519 cases from five later passes, each written
//!   without running the engine first (554, 591, 548, 458 and 309 cases: small models'
//!   tool calls in the third, whole chat replies in the fourth, strings full of code and
//!   quotes in the fifth), plus 59 aimed at a weak spot the second pass found (an array
//!   left open before the next key).
//! - `tests/data/llm_faults_4.jsonl`: 664 cases of a fourth pass, also written without
//!   running the engine, weighted towards closers, missing openers and inner quotes in
//!   code. Its known misses are listed in its test; one category stays below 95% there.
//!
//! - `tests/data/llm_faults_5.jsonl`: 596 cases of two more passes written without running
//!   the engine (first runs 293/301 and 301/312): truncation at every kind of point, faults
//!   deep in structured output, mixed quoting, wrappers and prose with no JSON; code in
//!   strings, numbers, escapes, valid documents that must come back as they were. (Left
//!   out: cases about duplicate keys, which a `Value` cannot show, numbers past `f64`, and
//!   documents nested too deep for serde_json to read the case.)
//!
//! An expectation is a value, with two escapes: `{"$any": [a, b]}` accepts any of them, and
//! `{"$missing": true}` as a member's value accepts the member absent, `null` or `""` (a key
//! whose value never came). `"error": true` means no honest repair exists.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde_json::Value;

/// Whether `got` is what `expect` allows: same types (`true` is not `1`), same key order.
fn allows(expect: &Value, got: &Value) -> bool {
    if let Some(any) = expect.get("$any").and_then(Value::as_array) {
        return any.iter().any(|e| allows(e, got));
    }
    match (expect, got) {
        (Value::Object(e), Value::Object(g)) => {
            let missing = |v: &Value| v.get("$missing").is_some();
            let present = |k: &String| {
                g.get(k)
                    .is_some_and(|v| !v.is_null() && v.as_str() != Some(""))
            };
            if e.iter().any(|(k, v)| missing(v) && present(k)) {
                return false;
            }
            if g.keys().any(|k| !e.contains_key(k)) {
                return false;
            }
            let required = e.iter().filter(|(_, v)| !missing(v));
            if !required
                .clone()
                .all(|(k, v)| g.get(k).is_some_and(|gv| allows(v, gv)))
            {
                return false;
            }
            // Key order: the keys present come in the expected order.
            let order: Vec<&String> = e.keys().filter(|k| g.contains_key(*k)).collect();
            g.keys().collect::<Vec<_>>() == order
        }
        (Value::Array(e), Value::Array(g)) => {
            e.len() == g.len() && e.iter().zip(g).all(|(e, g)| allows(e, g))
        }
        (Value::Number(e), Value::Number(g)) => e.as_f64() == g.as_f64(),
        _ => expect == got,
    }
}

/// Score one corpus; returns the wrong cases.
fn score_corpus(file: &str, min_cases: usize) -> Vec<String> {
    score_corpus_except(file, min_cases, &[])
}

/// Score one corpus, holding every category but `exempt` to 95%; returns the wrong cases.
fn score_corpus_except(file: &str, min_cases: usize, exempt: &[&str]) -> Vec<String> {
    let (score, failures) = score_cases(file, min_cases);
    let (cases, right) = score
        .values()
        .fold((0, 0), |(c, r), (cc, rr)| (c + cc, r + rr));
    let low: Vec<String> = score
        .iter()
        .filter(|(k, (c, r))| (*r as f64) < 0.95 * *c as f64 && !exempt.contains(&k.as_str()))
        .map(|(k, (c, r))| format!("{k}: {r}/{c}"))
        .collect();
    assert!(
        low.is_empty() && right as f64 >= 0.98 * cases as f64,
        "{file}: below 95% in {low:?} or 98% overall ({right}/{cases}); wrong:\n{}",
        failures.join("\n")
    );
    failures
}

/// A corpus held against regressions: at most `known` wrong and at least `min_right` right.
fn assert_at_most(file: &str, min_cases: usize, known: usize, min_right: usize) {
    let (score, failures) = score_cases(file, min_cases);
    let right: usize = score.values().map(|(_, r)| r).sum();
    assert!(
        failures.len() <= known && right >= min_right,
        "{file}: {right} right (at least {min_right}), {} wrong ({known} known):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Each category's (cases, right), and the wrong cases.
type Score = (BTreeMap<String, (usize, usize)>, Vec<String>);

fn score_cases(file: &str, min_cases: usize) -> Score {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    // category -> (cases, right)
    let mut score: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let category = case["category"].as_str().unwrap().to_owned();
        let input = case["input"].as_str().unwrap();
        let got = jsonheal::repair(input);
        let right = match (case.get("expect"), &got) {
            (None, Err(_)) => true,
            (None, Ok(_)) | (Some(_), Err(_)) => false,
            (Some(expect), Ok(r)) => r.value().is_ok_and(|v| allows(expect, &v)),
        };
        let entry = score.entry(category.clone()).or_default();
        entry.0 += 1;
        if right {
            entry.1 += 1;
        } else {
            failures.push(format!(
                "[{file}: {category}] {input:?} -> {:?}",
                got.as_ref()
                    .map(|r| r.text.as_str())
                    .map_err(|e| e.to_string())
            ));
        }
    }
    let cases: usize = score.values().map(|(c, _)| c).sum();
    assert!(cases >= min_cases, "{file} shrank: {cases} cases");
    (score, failures)
}

#[test]
fn llm_fault_corpus_scores_per_category() {
    let failures = score_corpus("llm_faults.jsonl", 700);
    // No known misses: a new one shows up in review even above the thresholds.
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn later_llm_fault_corpora_score_per_category() {
    let failures = score_corpus("llm_faults_more.jsonl", 2500);
    // Known miss: `{a 1, b 2}` (braces around bare words and numbers read as prose).
    assert!(
        failures.len() <= 1,
        "{} wrong (1 known):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn fourth_llm_fault_corpus_scores_per_category() {
    let failures = score_corpus_except("llm_faults_4.jsonl", 660, &[]);
    // Known miss (1 of 664): JavaScript code inside a string ending in `port: 3000\n};`.
    assert!(
        failures.len() <= 1,
        "{} wrong (1 known):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn fifth_llm_fault_corpora_score_per_category() {
    let failures = score_corpus_except(
        "llm_faults_5.jsonl",
        590,
        &["concatenated / multiple values"],
    );
    // Known misses (3 of 596):
    // - a scalar on its own line or fence next to a container at the top level
    //   (`{"a": 1}\n[2]\n"three"\n4`, an array split over two fences): taken as prose
    //   around the document, 2 cases; "concatenated / multiple values" is 28/30 for that.
    // - YAML in a string written with raw line breaks, where `echo "hello, world" # greet`
    //   reads as the string's end and a comment (1).
    assert!(
        failures.len() <= 3,
        "{} wrong (3 known):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A sixth pass, written the same way (before running the engine): wrappers of model
/// families around tool calls, long arrays with one fault deep inside, JSON5 / JavaScript /
/// Python literal styles, non-English text and Unicode spaces, streams cut at nasty points,
/// schema-shaped answers. Its first run: 291 / 326.
#[test]
fn sixth_llm_fault_corpus_scores_per_category() {
    score_corpus_except("llm_faults_6.jsonl", 320, &[]);
    assert_at_most("llm_faults_6.jsonl", 320, 0, 0);
}

/// A seventh pass, written the same way: backslash-heavy strings (LaTeX, regexes, paths),
/// JSON inside JSON, prose that only looks like JSON, self-corrections, odd keys, and YAML,
/// TOML and INI habits. Its first run: 294 / 335 (323 are scored here: duplicate-key cases
/// and ones that allow an error are left out). Not yet held to 95% per category: it
/// records what is left, and no fix may lose a case it gets right.
#[test]
fn seventh_llm_fault_corpus_does_not_regress() {
    // Known misses (18 of 323):
    // - self-corrections (8): a document cut off, then prose and a complete retry; the
    //   cut string or array swallows the retry.
    // - YAML, TOML and INI (6): block scalars (`run: |`, 3), Ruby's `:name =>`, and
    //   `key = value` after a comma on the same line, which SQL in a string looks like.
    // - JSON inside JSON (1): a document escaped twice over (`{\\\"a\\\": 1}`).
    // - prose (3): set notation `{n : n is even}`, wiki links `[[Plan]]`, a matrix
    //   `[[a, b], [c, d]]` in a sentence.
    assert_at_most("llm_faults_7.jsonl", 320, 18, 305);
}

/// An eighth pass, written the same way but for the mainstream of what models emit rather
/// than traps: about 20 cases for each class of the repair contract, truncation at seeded
/// points, and tool calls and structured answers with several faults at once. Its first
/// run: 461 / 464.
#[test]
fn eighth_llm_fault_corpus_scores_per_category() {
    score_corpus_except("llm_faults_8.jsonl", 460, &[]);
    assert_at_most("llm_faults_8.jsonl", 460, 0, 0);
}

/// A ninth pass, written the same way, on the structural faults: openers and closers
/// deleted, doubled or switched in turn in realistic documents, several top-level values,
/// truncation at classified points, and those combined with quoting faults. Its first run:
/// 374 / 397.
#[test]
fn ninth_llm_fault_corpus_scores_per_category() {
    // Known misses (2 of 397):
    // - a missing `{` before the whole text, after a comment, with bare keys and a nested
    //   object (`// call\nquery: "x", filters: {…}, limit: 5}`): the stream reads prose
    //   up to the first bracket, and cannot know the brackets balance before the end;
    // - a top-level string between two documents, read as prose.
    assert_at_most("llm_faults_9.jsonl", 390, 2, 395);
}

/// A tenth pass: every single-character slip of 15 realistic documents (a structural
/// character deleted or doubled, a quote deleted or swapped for `'`, a trailing comma, a cut
/// at each boundary), sampled to 1,510 cases. Its first run: 983 / 1,510, the expectations
/// then corrected to 1,019. Held against regressions: most of what is left is a quote lost
/// or swapped around a value, where the string runs past its real end.
#[test]
fn tenth_llm_fault_corpus_does_not_regress() {
    assert_at_most("llm_faults_10.jsonl", 1500, 9, 1501);
}

/// An eleventh pass, written the same way (blind, by a helper that never ran the engine):
/// tool-call arguments, structured answers, one quote lost or swapped for `'` or a
/// typographic one, one structural slip, truncation, prose and fences, escapes, inner
/// quotes, JavaScript and Python habits, valid documents and text with no JSON. Its first
/// run: 303 / 323 (swapped quotes 14 / 27). Held against regressions; the misses left:
/// - a string's closing `'` or `’` right before the text's last closer (`"finance'}`), kept
///   as content: a valid prefix cut there must read as cut off (2);
/// - a compact array element that lost its closing quote before `,"next"` (1), a huge
///   document cut inside a late element (1);
/// - quoted dialogue inside a string, each line quoted again (1);
/// - CSS (`body { margin: 0; }`) and `[citation needed]` read as JSON (2).
#[test]
fn eleventh_llm_fault_corpus_does_not_regress() {
    assert_at_most("llm_faults_11.jsonl", 320, 7, 316);
}

/// A twelfth pass, written blind the same way: double-encoded JSON, several top-level
/// values, missing openers and closers, wrappers, comments anywhere, numbers, long code in
/// strings, Markdown around the answer, odd keys, schema-shaped answers, agents' tool-call
/// envelopes and answers cut at `max_tokens`. Its first run: 329 / 335. Held to 95% in
/// every category but Markdown (24 / 26, the two fenced answers below); the misses left:
/// - a Go file with raw line breaks and unescaped quotes cut off inside (1);
/// - two fenced answers with prose between (`The answer: …` and `the example was: …`) make
///   an array of both, as any several top-level values do (2).
#[test]
fn twelfth_llm_fault_corpus_scores_per_category() {
    score_corpus_except("llm_faults_12.jsonl", 330, &["markdown-around"]);
    assert_at_most("llm_faults_12.jsonl", 330, 3, 332);
}

/// A thirteenth pass, written blind by a helper that read only the contract: tool calls,
/// truncation, Python and JS literals, prose and fences, mixed quotes, structural slips,
/// escapes, odd numbers, double encoding, long schema-shaped answers, tricky valid JSON and
/// prose with no JSON (315 cases). Its first run: 314 / 315; the miss, `"population":
/// 921,402}` read as two members, is now digit groups. Held to every case.
#[test]
fn thirteenth_llm_fault_corpus_scores_every_case() {
    score_corpus_except("llm_faults_13.jsonl", 310, &[]);
    assert_at_most("llm_faults_13.jsonl", 310, 0, 315);
}

#[test]
fn the_matcher_tells_values_apart() {
    let cases = [
        (r#"{"a": 1}"#, r#"{"a": 1.0}"#, true),
        (r#"{"a": true}"#, r#"{"a": 1}"#, false),
        (r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#, false),
        (r#"{"a": 1, "b": {"$missing": true}}"#, r#"{"a": 1}"#, true),
        (
            r#"{"a": 1, "b": {"$missing": true}}"#,
            r#"{"a": 1, "b": null}"#,
            true,
        ),
        (
            r#"{"a": 1, "b": {"$missing": true}}"#,
            r#"{"a": 1, "b": 2}"#,
            false,
        ),
        (r#"{"$any": [[1], [1, 2]]}"#, "[1, 2]", true),
        (r#"{"$any": [[1], [1, 2]]}"#, "[2]", false),
        (r#"{"a": 1}"#, r#"{"a": 1, "x": 0}"#, false),
    ];
    for (expect, got, ok) in cases {
        let e: Value = serde_json::from_str(expect).unwrap();
        let g: Value = serde_json::from_str(got).unwrap();
        assert_eq!(allows(&e, &g), ok, "{expect} vs {got}");
    }
}
