//! Streaming repair vs one-shot repair of the same document.
//!
//! A 1 MB document (tool-call-like records: code in strings, nested objects, numbers,
//! literals, non-ASCII text; a node every 18 bytes) is fed in 16 B, 1 KB and 64 KB chunks,
//! reading every path event after every chunk (a record that a chunk brings whole is one
//! event, as the stream reports it); `push+events` is the streaming parser alone,
//! `push+events+finish` adds the one-shot repair that `finish` runs. The 2 MB document shows
//! the growth is linear. `code_1MB` is one streamed `write_file` call: a long string of
//! escaped code.
//!
//! Baselines in the same run: `oneshot_repair` (for valid JSON the engine only validates and
//! returns the text), `oneshot_repair+value` (what a caller needs for a value),
//! `serde_json_value` (serde_json's own parse of the valid documents into a `Value`) and
//! `push_only` (the stream without events). `llm_1MB` and `llm_2MB` are the same data
//! written the way models write it (single quotes, bare keys, comments, Python literals,
//! trailing commas), so the one-shot engine does its full repair.
//!
//! `cargo bench -p jsonheal --bench stream -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use jsonheal::stream::{OpRef, Repairer};

#[path = "data/stream_docs.rs"]
mod stream_docs;

use stream_docs::{code_document, document, llm_document};

fn stream(doc: &str, chunk: usize, finish: bool) {
    let mut r = Repairer::new();
    let mut events = 0usize;
    for piece in doc.as_bytes().chunks(chunk) {
        r.push_bytes(piece);
        // Read every event, as a UI patching its view would.
        for event in r.events() {
            events += event.path.len();
            if let OpRef::Append(text) = event.op {
                events += text.len();
            }
        }
    }
    black_box(events);
    if finish {
        black_box(r.finish().ok());
    }
}

fn bench(c: &mut Criterion) {
    let docs = [
        ("1MB", document(1 << 20), true),
        ("2MB", document(2 << 20), false),
        ("code_1MB", code_document(1 << 20), true),
        ("llm_1MB", llm_document(1 << 20), true),
        ("llm_2MB", llm_document(2 << 20), false),
    ];
    for (label, doc, all_chunks) in &docs {
        let fixed = jsonheal::repair(doc).expect("the bench document repairs");
        assert_eq!(
            fixed.repairs.is_empty(),
            !label.starts_with("llm"),
            "only the LLM-style document needs repairs"
        );
        // The stream must fill the whole value in (a frozen stream would do less work).
        let mut r = Repairer::new();
        r.push(doc);
        assert!(!r.is_frozen(), "{label}: the stream froze");
        assert_eq!(
            r.snapshot(),
            fixed.value().ok(),
            "{label}: the stream disagrees"
        );
        let mut g = c.benchmark_group(format!("stream_{label}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_function("oneshot_repair", |b| {
            b.iter(|| black_box(jsonheal::repair(black_box(doc)).ok()))
        });
        if !label.starts_with("llm") {
            // What a caller of a plain JSON parser pays for the value of valid input.
            g.bench_function("serde_json_value", |b| {
                b.iter(|| black_box(serde_json::from_str::<serde_json::Value>(black_box(doc)).ok()))
            });
        }
        g.bench_function("oneshot_repair+value", |b| {
            b.iter(|| {
                black_box(
                    jsonheal::repair(black_box(doc))
                        .and_then(|r| r.value())
                        .ok(),
                )
            })
        });
        g.bench_function("push_only/1KB", |b| {
            b.iter(|| {
                let mut r = Repairer::new().without_events();
                for piece in doc.as_bytes().chunks(1024) {
                    r.push_bytes(piece);
                }
                black_box(r.revision())
            })
        });
        let chunks: &[(&str, usize)] = if *all_chunks {
            &[("16B", 16), ("1KB", 1024), ("64KB", 64 * 1024)]
        } else {
            &[("16B", 16)]
        };
        for &(name, chunk) in chunks {
            g.bench_with_input(BenchmarkId::new("push+events", name), &chunk, |b, &n| {
                b.iter(|| stream(doc, n, false))
            });
            g.bench_with_input(
                BenchmarkId::new("push+events+finish", name),
                &chunk,
                |b, &n| b.iter(|| stream(doc, n, true)),
            );
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
