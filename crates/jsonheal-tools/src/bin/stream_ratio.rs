//! The stream bench's ratio on a noisy machine: best of N rounds, the stream and one-shot
//! `repair` interleaved in one process, so both see the same load.
//!
//! `cargo run --release -p jsonheal-tools --bin stream_ratio -- [llm|code|dense] [chunk bytes] [rounds]`
//!
//! Feeds the bench's 1 MB document (`benches/stream.rs`) in chunks of the given size, reading
//! every path event after every chunk, and prints both best times and their ratio (the
//! requirement is ≤ 3).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use jsonheal::stream::{OpRef, Repairer};

#[path = "../../../jsonheal/benches/data/stream_docs.rs"]
mod stream_docs;

/// Push `doc` in `chunk`-byte pieces, reading every event as a UI would.
#[inline(never)]
fn stream(doc: &str, chunk: usize) -> usize {
    let mut r = Repairer::new();
    let mut read = 0;
    for piece in doc.as_bytes().chunks(chunk) {
        r.push_bytes(piece);
        for event in r.events() {
            read += event.path.len();
            if let OpRef::Append(text) = event.op {
                read += text.len();
            }
        }
    }
    read
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("llm", String::as_str);
    let chunk = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16usize)
        .max(1);
    let rounds = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40usize)
        .max(1);
    let doc = match kind {
        "llm" => stream_docs::llm_document(1 << 20),
        "code" => stream_docs::code_document(1 << 20),
        "dense" => stream_docs::document(1 << 20),
        other => {
            eprintln!("stream_ratio: unknown document {other:?} (llm, code or dense)");
            return ExitCode::from(2);
        }
    };
    let (mut one_shot, mut streamed) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(jsonheal::repair(black_box(&doc)).is_ok());
        one_shot = one_shot.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(stream(black_box(&doc), chunk));
        streamed = streamed.min(t.elapsed().as_secs_f64());
    }
    let ratio = streamed / one_shot;
    println!(
        "{kind} in {chunk} B chunks: one-shot {:.3} ms, stream {:.3} ms, ratio {ratio:.2}",
        one_shot * 1e3,
        streamed * 1e3
    );
    if ratio <= 3.0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
