//! Healing a typical 2 KB reply (prose + a fenced JSON object with a few coercible faults)
//! against a 30-property schema compiled once, next to `serde_json::from_str` on the bare
//! JSON for a ratio; and healing a corrupted instance of a large real-world-like schema
//! (`data/big_schema.rs`): the first call on a freshly compiled schema, later calls, and the
//! eager compilation of every subschema the first call used to pay, in the same run.

use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use jsonheal::schema::{instructions, InstructionOptions};
use jsonheal::{heal, HealOptions, Schema};
use serde_json::{json, Map, Value};

#[path = "data/big_schema.rs"]
mod big_schema;
mod data;

/// 30 properties of mixed kinds, all required, no extras.
fn schema() -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for i in 0..30 {
        let name = format!("field_{i:02}");
        let prop = match i % 6 {
            0 => json!({"type": "string", "minLength": 1, "maxLength": 200}),
            1 => json!({"type": "integer", "minimum": 0, "maximum": 1000000}),
            2 => json!({"type": "boolean"}),
            3 => json!({"enum": ["low", "medium", "high"]}),
            4 => json!({"type": "array", "items": {"type": "string"}, "maxItems": 10}),
            _ => json!({"type": "string", "format": "email"}),
        };
        props.insert(name.clone(), prop);
        required.push(Value::String(name));
    }
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// The JSON answer, with faults a model makes: numbers and booleans as strings, an enum in
/// the wrong case, a scalar where an array is wanted.
fn answer(faulty: bool) -> String {
    let mut fields = Vec::new();
    for i in 0..30 {
        let name = format!("field_{i:02}");
        let value = match i % 6 {
            0 => json!(format!(
                "a description for item {i}: a sentence or two of plain text, as a model \
                 writes when asked to summarise a record, with a few more words in it"
            )),
            1 if faulty && i < 10 => json!(format!("{}", i * 1000)),
            1 => json!(i * 1000),
            2 if faulty && i < 10 => json!("true"),
            2 => json!(true),
            3 if faulty && i < 10 => json!("High"),
            3 => json!("high"),
            4 if faulty && i < 10 => json!("solo"),
            4 => json!(["alpha", "beta", "gamma"]),
            _ => json!(format!("user{i}@example.com")),
        };
        fields.push(format!("  \"{name}\": {value}"));
    }
    format!("{{\n{}\n}}", fields.join(",\n"))
}

fn reply() -> String {
    let prose = "Sure! I looked at the record you sent and filled in every field of the form. \
                 Where a value was unclear I picked the most likely one, and where the record \
                 had two conflicting values I kept the more recent one. The priority fields \
                 follow the scale you gave (low, medium, high); the tags are the labels that \
                 appeared most often in the notes.";
    let after = "Let me know if you want me to change any of these values or explain a choice. \
                 I can also produce the same data as CSV or add the fields that were empty in \
                 the original record, if you tell me where to find them.";
    format!("{prose}\n\n```json\n{}\n```\n\n{after}", answer(true))
}

fn bench(c: &mut Criterion) {
    let schema = Schema::new(&schema()).expect("schema compiles");
    let reply = reply();
    let bare = answer(false);
    let opts = HealOptions::default();
    let healed = heal(&reply, &schema, &opts).expect("the reply heals");
    assert_eq!(healed.coercions.len(), 7, "{:?}", healed.coercions);
    eprintln!(
        "reply: {} bytes, bare JSON: {} bytes",
        reply.len(),
        bare.len()
    );

    let mut group = c.benchmark_group("heal");
    group.throughput(criterion::Throughput::Bytes(reply.len() as u64));
    group.bench_function("heal_2kb_reply_30_props", |b| {
        b.iter(|| heal(black_box(&reply), &schema, &opts))
    });
    group.bench_function("serde_json_from_str_bare", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&bare)))
    });
    group.bench_function("validate_bare_value", |b| {
        let value: Value = serde_json::from_str(&bare).expect("valid");
        b.iter(|| schema.is_valid(black_box(&value)))
    });
    group.bench_function("parts/candidates", |b| {
        b.iter(|| jsonheal::extract::candidates(black_box(&reply)))
    });
    group.bench_function("parts/repair_reply", |b| {
        b.iter(|| jsonheal::repair(black_box(&reply)))
    });
    group.bench_function("parts/coerce", |b| {
        let faulty: Value = serde_json::from_str(&answer(true)).expect("valid");
        b.iter(|| {
            let mut v = faulty.clone();
            jsonheal::schema::coerce(&mut v, &schema, &opts.coerce)
        })
    });
    group.finish();
}

/// `(p50, p99, max)` of `runs` timings of `f`.
fn percentiles(runs: usize, mut f: impl FnMut() -> Duration) -> (Duration, Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), times[times.len() - 1])
}

fn bench_big(c: &mut Criterion) {
    let big = big_schema::big_schema(7);
    let schema_text = big.schema.to_string();
    let corrupted = serde_json::to_string_pretty(&big.corrupted).expect("serializes");
    let reply = format!("Here is the deployment you asked for:\n\n```json\n{corrupted}\n```\n");
    let bare = big.instance.to_string();
    let opts = HealOptions::default();

    let schema = Schema::new(&big.schema).expect("the schema compiles");
    assert!(
        schema.is_valid(&big.instance),
        "{:?}",
        schema.validate(&big.instance)
    );
    let healed = heal(&reply, &schema, &opts).expect("the reply heals");
    assert_eq!(
        healed.value, big.instance,
        "healing gives back the exact instance"
    );
    let text = instructions(&schema);
    let budget = InstructionOptions::default();
    assert!(text.chars().count() <= budget.budget_chars());
    eprintln!(
        "big schema: {} bytes, {} $defs; reply {} bytes, {} coercions; {} subschema validators \
         compiled by the first heal; instructions {} characters (budget {} tokens = {} \
         characters; the minified schema alone is {})",
        schema_text.len(),
        big.schema["$defs"].as_object().map_or(0, Map::len),
        reply.len(),
        healed.coercions.len(),
        schema.compiled_subschemas(),
        text.chars().count(),
        budget.budget_tokens,
        budget.budget_chars(),
        schema_text.chars().count()
    );

    // Percentiles, which criterion does not report: the first call on a fresh schema (the
    // subschemas it needs compiled then), and later calls.
    let (p50, p99, max) = percentiles(30, || {
        let fresh = Schema::new(&big.schema).expect("compiles");
        let start = Instant::now();
        black_box(heal(&reply, &fresh, &opts)).expect("heals");
        start.elapsed()
    });
    eprintln!("big/first_heal: p50 {p50:?}, p99 {p99:?}, max {max:?}");
    let (p50, p99, max) = percentiles(30, || {
        let start = Instant::now();
        let fresh = Schema::new(&big.schema).expect("compiles");
        black_box(heal(&reply, &fresh, &opts)).expect("heals");
        start.elapsed()
    });
    eprintln!("big/compile_and_first_heal: p50 {p50:?}, p99 {p99:?}, max {max:?}");
    let (p50, p99, max) = percentiles(500, || {
        let start = Instant::now();
        black_box(heal(&reply, &schema, &opts)).expect("heals");
        start.elapsed()
    });
    eprintln!("big/heal_after_first: p50 {p50:?}, p99 {p99:?}, max {max:?}");

    let mut group = c.benchmark_group("heal_big");
    group.sample_size(20);
    group.bench_function("compile", |b| {
        b.iter(|| Schema::new(black_box(&big.schema)))
    });
    group.bench_function("first_heal", |b| {
        b.iter_batched(
            || Schema::new(&big.schema).expect("compiles"),
            |fresh| heal(black_box(&reply), &fresh, &opts),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("heal_after_first", |b| {
        b.iter(|| heal(black_box(&reply), &schema, &opts))
    });
    group.bench_function("serde_json_from_str_bare", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&bare)))
    });
    // What the first coercion used to cost: a validator for every subschema, eagerly.
    group.bench_function("old_eager_build_map", |b| {
        b.iter(|| {
            jsonschema::options()
                .should_validate_formats(true)
                .build_map(black_box(schema.raw()))
        })
    });
    group.bench_function("instructions_fresh", |b| {
        b.iter_batched(
            || Schema::new(&big.schema).expect("compiles"),
            |fresh| instructions(&fresh),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench, bench_big);
criterion_main!(benches);
