//! Healing a typical 2 KB reply (prose + a fenced JSON object with a few coercible faults)
//! against a 30-property schema compiled once, next to `serde_json::from_str` on the bare
//! JSON for a ratio.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jsonheal::{heal, HealOptions, Schema};
use serde_json::{json, Map, Value};

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

criterion_group!(benches, bench);
criterion_main!(benches);
