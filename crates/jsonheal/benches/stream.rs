//! Streaming repair vs one-shot repair of the same document.
//!
//! A 1 MB document (tool-call-like records: code in strings, nested objects, numbers,
//! literals, non-ASCII text; a node every 18 bytes) is fed in 16 B, 1 KB and 64 KB chunks,
//! reading every path event after every chunk; `push+events` is the streaming parser alone,
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

/// The same records written LLM-style: every repair the stream applies as it goes.
fn llm_document(size: usize) -> String {
    document(size)
        .replace("{\"id\": ", "{id: ")
        .replace("\"name\": \"", "name: '")
        .replace(" – café 😀\", ", " – café 😀', /* who */ ")
        .replace("\"ok\": true", "ok: True")
        .replace("\"ok\": false", "ok: False")
        .replace("\"parent\": null", "parent: None")
        .replace(
            "\"tags\": [\"alpha\", \"beta\", ",
            "tags: ['alpha', 'beta', ",
        )
        .replace("]}", ",]} // end\n")
}

/// One tool call writing a big file: a few keys and one long string of escaped code, the
/// shape of a streamed `write_file` call.
fn code_document(size: usize) -> String {
    let mut code = String::with_capacity(size + 128);
    let mut i = 0;
    while code.len() < size {
        code.push_str(&format!(
            "fn f_{i}(x: &str) -> String {{\\n    let s = format!(\\\"{{}} {i}\\\", x);\\n    s.trim().to_owned() // café\\n}}\\n\\n"
        ));
        i += 1;
    }
    format!(
        "{{\"tool\": \"write_file\", \"arguments\": {{\"path\": \"src/big.rs\", \"content\": \"{code}\"}}}}"
    )
}

/// A deterministic document of about `size` bytes.
fn document(size: usize) -> String {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = String::with_capacity(size + 1024);
    out.push_str("{\"model\": \"bench\", \"records\": [\n");
    let mut i = 0u64;
    while out.len() < size {
        if i > 0 {
            out.push_str(",\n");
        }
        let n = next();
        out.push_str(&format!(
            concat!(
                "  {{\"id\": {id}, \"name\": \"record {id} – café 😀\", \"score\": {score}.{frac}e-3, ",
                "\"ok\": {ok}, \"parent\": null, \"tags\": [\"alpha\", \"beta\", {tag}],\n",
                "   \"call\": {{\"tool\": \"write_file\", \"arguments\": {{\"path\": \"src/mod_{id}.rs\", ",
                "\"content\": \"fn f_{id}() -> Vec<u32> {{\\n    let v = vec![1, 2, 3];\\n    ",
                "println!(\\\"{{:?}} {{}}\\\", v, \\\"}}]\\\");\\n    v\\n}}\\n\\t// \\u00e9\\ud83d\\ude00\\n\"}}}},\n",
                "   \"matrix\": [[{a}, {b}], [-{b}, {a}]]}}"
            ),
            id = i,
            score = n % 1000,
            frac = (n >> 10) % 100,
            ok = n % 2 == 0,
            tag = (n >> 20) % 7,
            a = (n >> 30) % 1000,
            b = (n >> 40) % 1000,
        ));
        i += 1;
    }
    out.push_str("\n]}\n");
    out
}

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
