//! A large real-world-like JSON Schema (well over 100 KB, 120 `$defs` referring to each
//! other, long descriptions and examples, formats, patterns, enums, `anyOf` with null,
//! `allOf` on a shared base, `patternProperties`, `if`/`then`), a valid instance of it, and
//! that instance corrupted the way models corrupt values. All from a seeded generator: every
//! run measures the same bytes.

use serde_json::{json, Map, Value};

use crate::data::Rng;

const DEFS: usize = 30;
const WORDS: &[&str] = &[
    "the",
    "resource",
    "identifier",
    "which",
    "controls",
    "how",
    "value",
    "is",
    "applied",
    "when",
    "cluster",
    "policy",
    "defines",
    "optional",
    "field",
    "default",
    "server",
    "client",
    "must",
    "be",
    "unique",
    "within",
    "namespace",
    "and",
    "may",
    "change",
    "over",
    "time",
];

#[derive(Clone, Copy)]
enum Field {
    Text,
    Email,
    Code,
    Count,
    Ratio,
    Flag,
    Level,
    Tags,
    Child(usize),
    Children(usize),
    MaybeChild(usize),
    Labels,
}

pub struct BigSchema {
    /// The schema.
    pub schema: Value,
    /// A valid instance.
    pub instance: Value,
    /// The same instance with string numbers and booleans, enum case and lone array items.
    pub corrupted: Value,
}

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut out = Vec::with_capacity(words);
    for _ in 0..words {
        out.push(rng.pick(WORDS));
    }
    let mut s = out.join(" ");
    s.push('.');
    s
}

fn fields(rng: &mut Rng, i: usize) -> Vec<(String, Field)> {
    let n = rng.range(4, 7);
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        let target = (i + 1 + rng.below(8)).min(DEFS - 1);
        let kind = match (k, rng.below(12)) {
            (0, _) => Field::Code,
            (1, _) => Field::Count,
            (2, _) => Field::Flag,
            (_, 0) => Field::Text,
            (_, 1) => Field::Email,
            (_, 2) => Field::Ratio,
            (_, 3) => Field::Level,
            (_, 4) => Field::Tags,
            (_, 5 | 6) if target > i => Field::Child(target),
            (_, 7) if target > i => Field::Children(target),
            (_, 8) if target > i => Field::MaybeChild(target),
            (_, 9) => Field::Labels,
            (_, 10) => Field::Count,
            _ => Field::Flag,
        };
        out.push((format!("{}{k}", rng.pick(WORDS)), kind));
    }
    out
}

fn field_schema(rng: &mut Rng, kind: Field) -> Value {
    let words = rng.range(50, 90);
    let description = sentence(rng, words);
    let mut s = match kind {
        Field::Text => json!({"type": "string", "maxLength": 400}),
        Field::Email => json!({"type": "string", "format": "email"}),
        Field::Code => json!({"type": "string", "pattern": "^[a-z]+-[0-9]+$"}),
        Field::Count => json!({"type": "integer", "minimum": 0}),
        Field::Ratio => json!({"type": "number", "minimum": 0, "maximum": 1}),
        Field::Flag => json!({"type": "boolean"}),
        Field::Level => json!({"enum": ["low", "medium", "high", "critical"]}),
        Field::Tags => json!({"type": "array", "items": {"type": "string"}, "maxItems": 20}),
        Field::Child(j) => json!({"$ref": format!("#/$defs/Def{j}")}),
        Field::Children(j) => {
            json!({"type": "array", "items": {"$ref": format!("#/$defs/Def{j}")}})
        }
        Field::MaybeChild(j) => {
            json!({"anyOf": [{"$ref": format!("#/$defs/Def{j}")}, {"type": "null"}]})
        }
        Field::Labels => json!({"type": "object",
                                "patternProperties": {"^x-": {"type": "integer"}},
                                "additionalProperties": {"type": "string"}}),
    };
    if let Some(obj) = s.as_object_mut() {
        obj.insert("description".to_owned(), Value::String(description));
        if rng.chance(30) {
            obj.insert(
                "examples".to_owned(),
                json!([sentence(rng, 6), sentence(rng, 4)]),
            );
        }
    }
    s
}

fn value_for(
    rng: &mut Rng,
    kind: Field,
    specs: &[Vec<(String, Field)>],
    depth: usize,
) -> Option<Value> {
    Some(match kind {
        Field::Text => json!(sentence(rng, 8)),
        Field::Email => json!(format!("user{}@example.com", rng.below(1000))),
        Field::Code => json!(format!("{}-{}", rng.pick(WORDS), rng.below(10_000))),
        Field::Count => json!(rng.below(1_000_000)),
        Field::Ratio => json!(rng.below(100) as f64 / 100.0 + 0.005),
        Field::Flag => json!(rng.chance(50)),
        Field::Level => json!(rng.pick(&["low", "medium", "high", "critical"])),
        Field::Tags => json!([rng.pick(WORDS), rng.pick(WORDS)]),
        Field::Child(j) if depth < 3 => object_for(rng, j, specs, depth + 1),
        Field::Children(j) if depth < 3 => {
            json!([object_for(rng, j, specs, depth + 1)])
        }
        Field::MaybeChild(j) if depth < 3 && rng.chance(50) => object_for(rng, j, specs, depth + 1),
        Field::MaybeChild(_) => Value::Null,
        Field::Labels => json!({"x-count": rng.below(50), "owner": rng.pick(WORDS)}),
        _ => return None,
    })
}

fn object_for(rng: &mut Rng, i: usize, specs: &[Vec<(String, Field)>], depth: usize) -> Value {
    let mut obj = Map::new();
    obj.insert("id".to_owned(), json!(format!("id-{}", rng.below(100_000))));
    obj.insert(
        "kind".to_owned(),
        json!(if rng.chance(50) {
            "managed"
        } else {
            "external"
        }),
    );
    if obj["kind"] == "managed" {
        obj.insert("owner".to_owned(), json!(rng.below(500)));
    }
    for (name, kind) in &specs[i] {
        if let Some(v) = value_for(rng, *kind, specs, depth) {
            obj.insert(name.clone(), v);
        }
    }
    Value::Object(obj)
}

/// Corrupt a valid instance the way models do; positions come from `rng`.
fn corrupt(rng: &mut Rng, v: &mut Value) {
    match v {
        Value::Object(map) => map.values_mut().for_each(|c| corrupt(rng, c)),
        Value::Array(items) if items.len() == 1 && rng.chance(40) => {
            if let Some(only) = items.pop() {
                *v = only;
                corrupt(rng, v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|c| corrupt(rng, c)),
        Value::Number(n) if rng.chance(40) => *v = Value::String(n.to_string()),
        Value::Bool(b) if rng.chance(40) => *v = Value::String(b.to_string()),
        Value::String(s)
            if ["low", "medium", "high", "critical"].contains(&s.as_str()) && rng.chance(40) =>
        {
            *v = Value::String(s.to_uppercase());
        }
        _ => {}
    }
}

pub fn big_schema(seed: u64) -> BigSchema {
    let mut rng = Rng::new(seed);
    let specs: Vec<Vec<(String, Field)>> = (0..DEFS).map(|i| fields(&mut rng, i)).collect();
    let mut defs = Map::new();
    // Every object shares a base through `allOf`, and `owner` is required when managed.
    defs.insert(
        "Base".to_owned(),
        json!({
            "type": "object",
            "description": sentence(&mut rng, 40),
            "properties": {
                "id": {"type": "string", "minLength": 1, "description": sentence(&mut rng, 30)},
                "kind": {"enum": ["managed", "external"], "description": sentence(&mut rng, 30)},
                "owner": {"type": "integer", "description": sentence(&mut rng, 30)}
            },
            "required": ["id", "kind"],
            "if": {"properties": {"kind": {"const": "managed"}}},
            "then": {"required": ["owner"]}
        }),
    );
    for (i, spec) in specs.iter().enumerate() {
        let mut props = Map::new();
        let mut required = Vec::new();
        for (k, (name, kind)) in spec.iter().enumerate() {
            props.insert(name.clone(), field_schema(&mut rng, *kind));
            if k < 3 {
                required.push(json!(name));
            }
        }
        defs.insert(
            format!("Def{i}"),
            json!({
                "title": format!("Def{i}"),
                "description": sentence(&mut rng, 120),
                "allOf": [{"$ref": "#/$defs/Base"}],
                "properties": props,
                "required": required
            }),
        );
    }
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/schemas/deployment.json",
        "title": "Deployment",
        "description": sentence(&mut rng, 80),
        "type": "object",
        "properties": {
            "spec": {"$ref": "#/$defs/Def0"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/Def1"}},
            "status": {"$ref": "#/$defs/Def2"}
        },
        "required": ["spec", "items"],
        "additionalProperties": false,
        "$defs": defs
    });
    let instance = json!({
        "spec": object_for(&mut rng, 0, &specs, 0),
        "items": [object_for(&mut rng, 1, &specs, 1), object_for(&mut rng, 1, &specs, 1)],
        "status": object_for(&mut rng, 2, &specs, 1)
    });
    let mut corrupted = instance.clone();
    corrupt(&mut rng, &mut corrupted);
    BigSchema {
        schema,
        instance,
        corrupted,
    }
}
