//! Where the stream freezes on fault corpora: each case is pushed a character at a time up to
//! the push that freezes it, and the cases are grouped by the text around that point (letters
//! shown as `a`, digits as `9`), most frequent first, with one example each. It tells which
//! repair the stream should learn from the engine next.
//!
//! `cargo run --release -p jsonheal-tools --bin stream_freezes -- crates/jsonheal/tests/data/llm_faults*.jsonl`

use std::collections::HashMap;
use std::process::ExitCode;

use jsonheal::stream::Repairer;

/// Letters as `a`, digits as `9`, line breaks as `⏎`.
fn shape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            c if c.is_ascii_alphabetic() => 'a',
            c if c.is_ascii_digit() => '9',
            '\n' => '⏎',
            c => c,
        })
        .collect()
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: stream_freezes CORPUS.jsonl...");
        return ExitCode::from(2);
    }
    let mut groups: HashMap<String, (usize, String)> = HashMap::new();
    let (mut cases, mut frozen) = (0, 0);
    for path in &paths {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("stream_freezes: {path}: {e}");
                return ExitCode::from(2);
            }
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(case) = serde_json::from_str::<serde_json::Value>(line) else {
                eprintln!("stream_freezes: {path}: a line is not JSON");
                return ExitCode::from(2);
            };
            let input = case["input"].as_str().unwrap_or_default();
            cases += 1;
            let mut r = Repairer::new().without_events();
            let mut at = None;
            for (i, c) in input.char_indices() {
                r.push(c.encode_utf8(&mut [0u8; 4]));
                if r.is_frozen() {
                    at = Some(i + c.len_utf8());
                    break;
                }
            }
            let Some(at) = at else { continue };
            frozen += 1;
            let from = input[..at]
                .char_indices()
                .rev()
                .nth(11)
                .map_or(0, |(i, _)| i);
            let (before, after) = (&input[from..at], &input[at..]);
            let before_shape: Vec<char> = shape(before).chars().collect();
            let key = format!(
                "{}|{}",
                before_shape[before_shape.len().saturating_sub(6)..]
                    .iter()
                    .collect::<String>(),
                shape(after).chars().take(3).collect::<String>()
            );
            let example = format!(
                "{before:?} ‖ {:?}",
                after.chars().take(6).collect::<String>()
            );
            groups.entry(key).or_insert((0, example)).0 += 1;
        }
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    println!("{cases} cases, {frozen} frozen; where (before | after the freezing push):");
    for (key, (n, example)) in groups.iter().take(60) {
        println!("{n:5}  {key:20} {example}");
    }
    ExitCode::SUCCESS
}
