//! `args::normalize` over 100,000 generated tool-call payloads (40–300 bytes, 30% broken:
//! single quotes, bare keys and values, trailing commas, plain values, CLI text,
//! double-encoded), beside `serde_json::from_str::<Value>` on the valid ones in the same run.
//!
//! Criterion reports payloads per second (`Throughput::Elements`); after it runs, the two are
//! timed again here (best of 5, interleaved) and the ratio is printed, since the machine is
//! shared and absolute numbers drift.
//!
//! `cargo bench -p jsonheal --bench args -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use jsonheal::args::{normalize, ArgsOptions};
use serde_json::Value;

const PAYLOADS: usize = 100_000;

/// A small deterministic generator (xorshift), so every run sees the same payloads.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: &[&str] = &[
    "parser", "config", "handler", "router", "client", "server", "model", "utils", "cache",
    "session", "storage", "metrics", "worker", "schema", "auth", "billing",
];

/// One valid payload: `(tool, text)`.
fn valid(rng: &mut Rng, i: usize) -> (&'static str, String) {
    let w = WORDS[rng.below(WORDS.len() as u64) as usize];
    let w2 = WORDS[rng.below(WORDS.len() as u64) as usize];
    match rng.below(6) {
        0 => (
            "Read",
            format!(
                r#"{{"file_path":"/home/dev/project/src/{w}/{w2}_{i}.rs","offset":{},"limit":200}}"#,
                rng.below(900)
            ),
        ),
        1 => (
            "Bash",
            format!(
                r#"{{"command":"cargo test -p {w} --lib {w2}::tests -- --nocapture","description":"Run the {w2} tests","timeout":120000}}"#
            ),
        ),
        2 => (
            "Grep",
            format!(
                r#"{{"pattern":"fn {w}_[a-z]+\\(","path":"src/{w2}","output_mode":"content","-n":true,"head_limit":{}}}"#,
                rng.below(100)
            ),
        ),
        3 => {
            let more = " with retries and structured logging".repeat(rng.below(4) as usize);
            (
                "web_search",
                format!(
                    r#"{{"query":"how to configure {w} {w2} in production{more} {i}","max_results":5}}"#
                ),
            )
        }
        4 => {
            let body = format!("def {w2}(x):\\n    return x * {}\\n", rng.below(1000))
                .repeat(1 + rng.below(5) as usize);
            (
                "Write",
                format!(r#"{{"file_path":"src/{w}.py","content":"{body}\\nprint({w2}(3))\\n"}}"#),
            )
        }
        _ => (
            "fs",
            format!(
                r#"{{"cmd":"read","file":"internal/{w}/{w2}_{i}.go","lines":[1,{}]}}"#,
                rng.below(500)
            ),
        ),
    }
}

/// One broken payload, in the styles models produce.
fn broken(rng: &mut Rng, i: usize) -> (&'static str, String) {
    let w = WORDS[rng.below(WORDS.len() as u64) as usize];
    let w2 = WORDS[rng.below(WORDS.len() as u64) as usize];
    match rng.below(8) {
        0 => ("fs", format!("{{'cmd': 'read', 'file': 'internal/{w}/{w2}_{i}.go', 'limit': 40}}")),
        1 => {
            let note = ", note: check the error path first".repeat(rng.below(3) as usize);
            (
                "fs",
                format!("{{cmd: read, file: internal/{w}/{w2}_{i}.go, append: true, n: 3{note}}}"),
            )
        }
        2 => (
            "Read",
            format!(r#"{{"file_path":"/home/dev/project/src/{w}/{w2}_{i}.rs","offset":10,}}"#),
        ),
        3 => ("read_file", format!("src/components/{w}/{w2}/Widget_{i}.tsx")),
        4 => ("run_command", format!("go test ./internal/{w}/... -run Test{w2}_{i} -count=1 -v")),
        5 => ("fs", format!("read --file internal/{w}/{w2}_{i}.go --offset 10 --limit 200")),
        6 => (
            "Bash",
            serde_json::to_string(&format!(
                r#"{{"command":"git log --oneline -n {i} -- src/{w}","description":"history of {w2}"}}"#
            ))
            .unwrap_or_default(),
        ),
        _ => ("fs", format!("{{cmd: 'search', term: '{w}_{w2}', dir: 'src/{w}'}}")),
    }
}

fn payloads() -> Vec<(&'static str, String)> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..PAYLOADS)
        .map(|i| {
            if rng.below(10) < 3 {
                broken(&mut rng, i)
            } else {
                valid(&mut rng, i)
            }
        })
        .collect()
}

fn run_normalize(opts: &ArgsOptions, all: &[(&str, String)]) -> usize {
    all.iter()
        .filter(|(tool, raw)| normalize(tool, raw, opts).is_ok())
        .count()
}

fn run_serde(valid: &[&str]) -> usize {
    valid
        .iter()
        .filter(|raw| serde_json::from_str::<Value>(raw).is_ok())
        .count()
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let all = payloads();
    let opts = ArgsOptions::default();
    let valid: Vec<&str> = all
        .iter()
        .map(|(_, raw)| raw.as_str())
        .filter(|raw| serde_json::from_str::<Value>(raw).is_ok())
        .collect();
    let (valid_pairs, broken_pairs): (Vec<_>, Vec<_>) = all
        .iter()
        .cloned()
        .partition(|(_, raw)| serde_json::from_str::<Value>(raw).is_ok());
    let sizes: Vec<usize> = all.iter().map(|(_, r)| r.len()).collect();
    let ok = run_normalize(&opts, &all);
    eprintln!(
        "args bench: {} payloads, {} valid JSON, {}..{} bytes (mean {}), {} normalised ok",
        all.len(),
        valid.len(),
        sizes.iter().min().copied().unwrap_or(0),
        sizes.iter().max().copied().unwrap_or(0),
        sizes.iter().sum::<usize>() / sizes.len().max(1),
        ok
    );

    let mut c = Criterion::default().configure_from_args();
    {
        let mut g = c.benchmark_group("args");
        g.sample_size(10);
        g.throughput(Throughput::Elements(all.len() as u64));
        g.bench_function("normalize_100k_mixed", |b| {
            b.iter(|| black_box(run_normalize(&opts, black_box(&all))))
        });
        g.throughput(Throughput::Elements(valid.len() as u64));
        g.bench_function("serde_json_value_valid_only", |b| {
            b.iter(|| black_box(run_serde(black_box(&valid))))
        });
        g.bench_function("normalize_valid_only", |b| {
            b.iter(|| black_box(run_normalize(&opts, black_box(&valid_pairs))))
        });
        g.throughput(Throughput::Elements(broken_pairs.len() as u64));
        g.bench_function("normalize_broken_only", |b| {
            b.iter(|| black_box(run_normalize(&opts, black_box(&broken_pairs))))
        });
        g.finish();
    }
    c.final_summary();

    // The ratios, measured interleaved (best of 5) so both see the same machine.
    let (mut t_norm, mut t_valid, mut t_serde) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        t_norm = t_norm.min(best_of(1, || {
            black_box(run_normalize(&opts, &all));
        }));
        t_valid = t_valid.min(best_of(1, || {
            black_box(run_normalize(&opts, &valid_pairs));
        }));
        t_serde = t_serde.min(best_of(1, || {
            black_box(run_serde(&valid));
        }));
    }
    // How much of the broken path is the engine itself (objects only; plain values and CLI
    // text never reach it).
    let broken_objects: Vec<&str> = broken_pairs
        .iter()
        .map(|(_, r)| r.as_str())
        .filter(|r| r.starts_with('{'))
        .collect();
    let t_norm_objects = best_of(5, || {
        for raw in &broken_objects {
            black_box(normalize("fs", raw, &opts).is_ok());
        }
    });
    let t_engine = best_of(5, || {
        for raw in &broken_objects {
            black_box(jsonheal::repair(raw).is_ok());
        }
    });
    eprintln!(
        "args: {} broken objects: normalize {:.0}/s, of which the repair engine alone {:.0}/s",
        broken_objects.len(),
        broken_objects.len() as f64 / t_norm_objects.as_secs_f64().max(1e-9),
        broken_objects.len() as f64 / t_engine.as_secs_f64().max(1e-9)
    );
    let rate = |n: usize, t: Duration| n as f64 / t.as_secs_f64().max(1e-9);
    let norm_rate = rate(all.len(), t_norm);
    let valid_rate = rate(valid.len(), t_valid);
    let serde_rate = rate(valid.len(), t_serde);
    eprintln!(
        "args: normalize (mixed) {norm_rate:.0} payloads/s (target >= 1,000,000 on one core); \
         normalize (valid only) {valid_rate:.0}/s; serde_json Value (valid only) \
         {serde_rate:.0}/s; mixed/serde {:.2}, valid/serde {:.2}",
        norm_rate / serde_rate,
        valid_rate / serde_rate
    );
}
