//! How far the stream gets on a fault corpus before `finish`: how many cases freeze it, and
//! in how many its last snapshot is already the final value.
//!
//! `cargo run --release -p jsonheal-tools --bin stream_coverage -- crates/jsonheal/tests/data/llm_faults_13.jsonl [-v]`
//!
//! With `-v`, each frozen case is printed with its category.

use std::process::ExitCode;

use jsonheal::stream::Repairer;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: stream_coverage CORPUS.jsonl [-v]");
        return ExitCode::from(2);
    };
    let verbose = args.iter().any(|a| a == "-v");
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("stream_coverage: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut cases, mut frozen, mut complete) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(case) = serde_json::from_str::<serde_json::Value>(line) else {
            eprintln!("stream_coverage: a line is not JSON");
            return ExitCode::from(2);
        };
        let input = case["input"].as_str().unwrap_or_default();
        let mut r = Repairer::new();
        for piece in input.as_bytes().chunks(7) {
            r.push_bytes(piece);
        }
        let snapshot = r.snapshot();
        let is_frozen = r.is_frozen();
        let fin = r.finish().ok().and_then(|f| f.value().ok());
        cases += 1;
        frozen += usize::from(is_frozen);
        complete += usize::from(snapshot.is_some() && snapshot == fin);
        if is_frozen && verbose {
            let shown: String = input.chars().take(150).collect();
            println!("{}\t{shown:?}", case["category"]);
        }
    }
    println!("{cases} cases, {frozen} frozen, {complete} whose last snapshot is the final value");
    ExitCode::SUCCESS
}
