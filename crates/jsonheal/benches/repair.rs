//! The repair engine against serde_json, on the same data in the same run.
//!
//! (a) a ~20 MB valid document; (b) the same data written LLM-style; (c) 200,000 tool-call
//! payloads, 30% broken; (d) the valid document truncated at 25/55/90%; (e) adversarial
//! inputs at sizes n, 2n, 4n (linear time shows as t(2n)/t(n) ≈ 2).
//!
//! Criterion reports throughput; it does not report ratios, so after it runs, each section is
//! timed again here (best of 11 rounds, repair and reference interleaved) and the ratio of
//! throughputs `(input bytes / repair time) / (valid bytes / serde_json time)` is printed.
//!
//! `cargo bench -p jsonheal --bench repair -- --warm-up-time 1 --measurement-time 3`
//! (a filter such as `-- e_adversarial` runs one section). `JSONHEAL_BENCH_MB` changes the
//! document size (default 20).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use jsonheal::{repair, repair_with, Options, Repaired};
use serde::de::IgnoredAny;

mod data;

use data::{Fault, Payload, Style};

const TRUNCATIONS: [usize; 3] = [25, 55, 90];

/// The reference: validation only.
fn serde_validate(text: &str) -> bool {
    serde_json::from_slice::<IgnoredAny>(text.as_bytes()).is_ok()
}

fn repair_ok(text: &str) -> bool {
    repair(text).is_ok()
}

/// The best of `runs` timings of `f` (the least disturbed by the other processes).
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

fn mb_per_s(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / 1e6 / t.as_secs_f64().max(1e-9)
}

/// What one section measured by hand.
struct Ratio {
    name: String,
    repair_mbps: f64,
    serde_mbps: f64,
    target: f64,
    /// Inputs the engine refused: a fast error is not a repair, so the ratio is void.
    refused: usize,
}

impl Ratio {
    fn ratio(&self) -> f64 {
        self.repair_mbps / self.serde_mbps.max(1e-9)
    }
}

/// The sections selected by the command line's filter (criterion's first free argument).
struct Selection(Option<String>);

impl Selection {
    fn from_args() -> Selection {
        // Flags of criterion's that take a value; their value is not the filter.
        const WITH_VALUE: &[&str] = &[
            "--warm-up-time",
            "--measurement-time",
            "--sample-size",
            "--save-baseline",
            "--baseline",
            "--baseline-lenient",
            "--load-baseline",
            "--noise-threshold",
            "--significance-level",
            "--confidence-level",
            "--nresamples",
            "--output-format",
            "--color",
            "--plotting-backend",
            "--profile-time",
            "--format",
        ];
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            if WITH_VALUE.contains(&a.as_str()) {
                args.next();
            } else if !a.starts_with('-') {
                return Selection(Some(a));
            }
        }
        Selection(None)
    }

    fn wants(&self, section: &str) -> bool {
        self.0
            .as_deref()
            .is_none_or(|f| section.contains(f) || f.contains(section))
    }
}

fn doc_bytes() -> usize {
    let mb = std::env::var("JSONHEAL_BENCH_MB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(20);
    mb * 1_000_000
}

/// Repair the whole batch; the count of successes keeps the work observable.
fn repair_batch(batch: &[Payload]) -> usize {
    batch.iter().filter(|p| repair_ok(&p.input)).count()
}

fn validate_batch(batch: &[Payload]) -> usize {
    batch.iter().filter(|p| serde_validate(&p.valid)).count()
}

fn value_of(r: &Result<Repaired, jsonheal::Error>) -> Option<serde_json::Value> {
    r.as_ref().ok().and_then(|r| r.value().ok())
}

/// Report, once, whether the repairs the bench measures are right: a benchmark of a repairer
/// that gives wrong answers proves nothing.
fn check_documents(valid: &str, llm: &str) {
    let a = repair(valid);
    let a_ok = a
        .as_ref()
        .is_ok_and(|r| r.text == valid.trim() && r.repairs.is_empty());
    eprintln!("check (a): valid document comes back byte-identical: {a_ok}");
    let expected: Option<serde_json::Value> = serde_json::from_str(valid).ok();
    let b = repair(llm);
    match &b {
        Ok(r) => eprintln!(
            "check (b): LLM-style document repaired to the valid value: {} ({} repairs)",
            value_of(&b) == expected,
            r.repairs.len()
        ),
        Err(e) => eprintln!("check (b): LLM-style document: error: {e}"),
    }
}

fn check_payloads(batch: &[Payload]) {
    let mut broken = 0;
    let mut right = 0;
    let mut truncated_ok = 0;
    let mut truncated = 0;
    let mut first_wrong: Option<&str> = None;
    for p in batch {
        match p.fault {
            Fault::None => {}
            Fault::Style | Fault::Fenced => {
                broken += 1;
                let want: Option<serde_json::Value> = serde_json::from_str(&p.valid).ok();
                if value_of(&repair(&p.input)) == want {
                    right += 1;
                } else if first_wrong.is_none() {
                    first_wrong = Some(&p.input);
                }
            }
            Fault::Truncated => {
                truncated += 1;
                if repair(&p.input).is_ok_and(|r| r.is_truncated()) {
                    truncated_ok += 1;
                }
            }
        }
    }
    eprintln!(
        "check (c): {right}/{broken} broken payloads repaired to the intended value; \
         {truncated_ok}/{truncated} truncated ones completed and reported as truncated"
    );
    if let Some(input) = first_wrong {
        eprintln!("check (c): first wrong repair: {input:?}");
    }
}

fn bench_document(c: &mut Criterion, sel: &Selection, ratios: &mut Vec<Ratio>, manual: bool) {
    if !(sel.wants("a_valid") || sel.wants("b_llm") || sel.wants("d_truncated")) {
        return;
    }
    let bytes = doc_bytes();
    let t = Instant::now();
    let valid = data::document(bytes, Style::VALID);
    let llm = data::document(bytes, Style::LLM);
    eprintln!(
        "generated the documents in {:.1?}: valid {} bytes, LLM-style {} bytes",
        t.elapsed(),
        valid.len(),
        llm.len()
    );
    if manual {
        check_documents(&valid, &llm);
    }

    let mut sections: Vec<(String, &str, f64)> = Vec::new();
    if sel.wants("a_valid") {
        sections.push(("a_valid".to_owned(), valid.as_str(), 0.5));
    }
    if sel.wants("b_llm") {
        sections.push(("b_llm".to_owned(), llm.as_str(), 0.3));
    }
    if sel.wants("d_truncated") {
        for p in TRUNCATIONS {
            sections.push((format!("d_truncated_{p}"), data::truncated(&valid, p), 0.3));
        }
    }

    for (name, input, target) in &sections {
        let mut g = c.benchmark_group(name.as_str());
        g.sample_size(10).sampling_mode(SamplingMode::Flat);
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function("jsonheal_repair", |b| b.iter(|| repair(black_box(input))));
        g.throughput(Throughput::Bytes(valid.len() as u64));
        g.bench_function("serde_json_ignored_any_valid", |b| {
            b.iter(|| serde_validate(black_box(&valid)))
        });
        g.finish();
        if manual {
            let mut tr = Duration::MAX;
            let mut ts = Duration::MAX;
            // Best of 11 rounds, interleaved: a shared machine disturbs single runs.
            for _ in 0..11 {
                tr = tr.min(best_of(1, || {
                    black_box(repair(black_box(input)).map(|r| r.text.len()).ok());
                }));
                ts = ts.min(best_of(1, || {
                    black_box(serde_validate(black_box(&valid)));
                }));
            }
            ratios.push(Ratio {
                name: name.clone(),
                repair_mbps: mb_per_s(input.len(), tr),
                serde_mbps: mb_per_s(valid.len(), ts),
                target: *target,
                refused: usize::from(!repair_ok(input)),
            });
        }
    }
}

fn bench_payloads(c: &mut Criterion, sel: &Selection, ratios: &mut Vec<Ratio>, manual: bool) {
    if !sel.wants("c_tool_calls") {
        return;
    }
    let batch = data::payloads(200_000, 30);
    let in_bytes: usize = batch.iter().map(|p| p.input.len()).sum();
    let valid_bytes: usize = batch.iter().map(|p| p.valid.len()).sum();
    eprintln!(
        "generated {} payloads: {in_bytes} input bytes, {valid_bytes} valid bytes",
        batch.len()
    );
    if manual {
        check_payloads(&batch);
    }
    let mut g = c.benchmark_group("c_tool_calls");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(in_bytes as u64));
    g.bench_function("jsonheal_repair_each", |b| {
        b.iter(|| repair_batch(black_box(&batch)))
    });
    g.throughput(Throughput::Bytes(valid_bytes as u64));
    g.bench_function("serde_json_ignored_any_valid_each", |b| {
        b.iter(|| validate_batch(black_box(&batch)))
    });
    g.finish();
    if manual {
        let mut tr = Duration::MAX;
        let mut ts = Duration::MAX;
        for _ in 0..11 {
            tr = tr.min(best_of(1, || {
                black_box(repair_batch(&batch));
            }));
            ts = ts.min(best_of(1, || {
                black_box(validate_batch(&batch));
            }));
        }
        ratios.push(Ratio {
            name: "c_tool_calls".to_owned(),
            repair_mbps: mb_per_s(in_bytes, tr),
            serde_mbps: mb_per_s(valid_bytes, ts),
            target: 0.3,
            refused: batch.len() - repair_batch(&batch),
        });
    }
}

/// One adversarial family at one size.
struct Scaling {
    name: String,
    times: Vec<(usize, Duration, String)>,
}

fn outcome(r: &Result<Repaired, jsonheal::Error>) -> String {
    match r {
        Ok(r) => format!(
            "ok, {} repairs, {} bytes out",
            r.repairs.len(),
            r.text.len()
        ),
        Err(e) => format!("error: {e}"),
    }
}

/// Beyond this, a size is not run again under criterion: the family is already too slow to
/// be linear, and the bench must finish.
const TOO_SLOW: Duration = Duration::from_secs(5);

fn bench_adversarial(
    c: &mut Criterion,
    sel: &Selection,
    scalings: &mut Vec<Scaling>,
    manual: bool,
) {
    if !sel.wants("e_adversarial") {
        return;
    }
    let unlimited = Options {
        max_depth: usize::MAX,
        ..Options::default()
    };
    let mut families: Vec<(String, data::Adversarial, Options)> = data::adversarial()
        .into_iter()
        .map(|a| (a.name.to_owned(), a, Options::default()))
        .collect();
    // At the default max_depth, `[` × 1M stops at depth 10,000; unlimited shows the engine
    // walking the whole depth.
    families.push((
        "open_brackets_unlimited_depth".to_owned(),
        data::Adversarial {
            name: "open_brackets",
            n: 1_000_000,
            make: |n| "[".repeat(n),
        },
        unlimited,
    ));

    let mut g = c.benchmark_group("e_adversarial");
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    for (name, fam, options) in &families {
        let mut s = Scaling {
            name: name.clone(),
            times: Vec::new(),
        };
        let mut slow = false;
        for k in [1, 2, 4] {
            let n = fam.n * k;
            let input = (fam.make)(n);
            if slow {
                s.times
                    .push((n, Duration::MAX, "skipped: smaller size too slow".into()));
                continue;
            }
            let mut out = String::new();
            let t = if manual {
                let first = best_of(1, || {
                    let r = repair_with(black_box(&input), options);
                    out = outcome(&r);
                    black_box(r.ok());
                });
                // Each sample repeats the repair to last about 10 ms: a sub-millisecond run
                // alone is easily disturbed on a shared machine. Best of 7 samples.
                let reps = (Duration::from_millis(10).as_nanos() / first.as_nanos().max(1))
                    .clamp(1, 1000) as u32;
                best_of(7, || {
                    for _ in 0..reps {
                        black_box(repair_with(black_box(&input), options).ok());
                    }
                }) / reps
            } else {
                Duration::ZERO
            };
            slow = t > TOO_SLOW;
            if !slow {
                g.throughput(Throughput::Bytes(input.len() as u64));
                g.bench_with_input(BenchmarkId::new(name.as_str(), n), &input, |b, i| {
                    b.iter(|| repair_with(black_box(i), options))
                });
            }
            s.times.push((n, t, out));
        }
        scalings.push(s);
    }
    g.finish();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --benches` runs each benchmark once; the hand timing is for real runs only.
    let manual = !args.iter().any(|a| a == "--test" || a == "--list");
    let sel = Selection::from_args();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut ratios = Vec::new();
    let mut scalings = Vec::new();
    bench_document(&mut c, &sel, &mut ratios, manual);
    bench_payloads(&mut c, &sel, &mut ratios, manual);
    bench_adversarial(&mut c, &sel, &mut scalings, manual);
    c.final_summary();

    if !manual {
        return;
    }
    if !ratios.is_empty() {
        eprintln!();
        eprintln!("throughput ratio vs serde_json::from_slice::<IgnoredAny> on the valid data:");
        for r in &ratios {
            let verdict = if r.refused > 0 {
                format!("VOID: the engine refused {} input(s)", r.refused)
            } else if r.ratio() >= r.target {
                "ok".to_owned()
            } else {
                "BELOW TARGET".to_owned()
            };
            eprintln!(
                "  ratio ({}) = {:.2}x   repair {:.0} MB/s, serde_json {:.0} MB/s, target >= {:.1}x: {verdict}",
                r.name,
                r.ratio(),
                r.repair_mbps,
                r.serde_mbps,
                r.target
            );
        }
    }
    if !scalings.is_empty() {
        eprintln!();
        eprintln!(
            "adversarial scaling (best of 7 samples of ~10 ms; linear time shows as \
             t(2n)/t(n) ~ 2, t(4n)/t(n) ~ 4):"
        );
        for s in &scalings {
            for (i, (n, t, out)) in s.times.iter().enumerate() {
                let growth = match i {
                    0 => String::new(),
                    _ if *t == Duration::MAX => String::new(),
                    _ => format!(
                        "  t/t(prev) = {:.2}",
                        t.as_secs_f64() / s.times[i - 1].1.as_secs_f64().max(1e-9)
                    ),
                };
                let time = if *t == Duration::MAX {
                    "-".to_owned()
                } else {
                    format!("{t:.2?}")
                };
                eprintln!("  {:<30} n={n:<10} {time:>10}{growth}   ({out})", s.name);
            }
            // End to end, the steadier figure: 4 for linear time, 16 for quadratic.
            if let (Some(first), Some(last)) = (s.times.first(), s.times.last()) {
                if last.1 != Duration::MAX && s.times.len() == 3 {
                    eprintln!(
                        "  {:<30} t(4n)/t(n) = {:.2}",
                        s.name,
                        last.1.as_secs_f64() / first.1.as_secs_f64().max(1e-9)
                    );
                }
            }
        }
    }
}
