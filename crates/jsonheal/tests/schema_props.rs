//! Generated schemas using each construct (`properties`, `patternProperties`, `allOf`,
//! `if`/`then`, `dependentSchemas`, `$ref` by `$id` and by `$anchor`, `enum`/`const` without
//! a type) × instances corrupted the way models corrupt them (numbers and booleans as
//! strings, enum case, a lone value for a one-item array). Healing gives back the exact
//! original instance or refuses with feedback, never another value; and since every
//! corruption here is unambiguous, it does give it back.
#![allow(clippy::unwrap_used)]

use jsonheal::schema::HealErrorKind;
use jsonheal::{heal, HealOptions, Schema};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

#[path = "../benches/data/big_schema.rs"]
#[allow(dead_code, unreachable_pub)]
mod big_schema;
#[path = "../benches/data/mod.rs"]
#[allow(unreachable_pub)]
mod data;

/// A leaf: its schema and a valid value.
#[derive(Debug, Clone)]
enum Leaf {
    Int(i64),
    Num(u16),
    Bool(bool),
    Word(usize),
    EnumNum(usize),
    ConstBool(bool),
    Ints(Vec<i64>),
    Text(String),
}

const WORDS: &[&str] = &["low", "medium", "high", "ok", "done"];

impl Leaf {
    fn schema(&self) -> Value {
        match self {
            Leaf::Int(_) => json!({"type": "integer"}),
            Leaf::Num(_) => json!({"type": "number"}),
            Leaf::Bool(_) => json!({"type": "boolean"}),
            Leaf::Word(_) => json!({"type": "string", "enum": WORDS}),
            Leaf::EnumNum(_) => json!({"enum": [1, 2, 3, 5, 8]}),
            Leaf::ConstBool(b) => json!({"const": b}),
            Leaf::Ints(_) => json!({"type": "array", "items": {"type": "integer"}}),
            Leaf::Text(_) => json!({"type": "string"}),
        }
    }

    fn value(&self) -> Value {
        match self {
            Leaf::Int(n) => json!(n),
            Leaf::Num(n) => serde_json::from_str(&format!("{}.25", n)).unwrap(),
            Leaf::Bool(b) | Leaf::ConstBool(b) => json!(b),
            Leaf::Word(i) => json!(WORDS[*i]),
            Leaf::EnumNum(i) => json!([1, 2, 3, 5, 8][*i]),
            Leaf::Ints(items) => json!(items),
            Leaf::Text(s) => json!(s),
        }
    }
}

fn leaf() -> impl Strategy<Value = Leaf> {
    prop_oneof![
        any::<i64>().prop_map(Leaf::Int),
        any::<u16>().prop_map(Leaf::Num),
        any::<bool>().prop_map(Leaf::Bool),
        (0..WORDS.len()).prop_map(Leaf::Word),
        (0..5usize).prop_map(Leaf::EnumNum),
        any::<bool>().prop_map(Leaf::ConstBool),
        prop::collection::vec(any::<i64>(), 1..3).prop_map(Leaf::Ints),
        "[a-z ]{0,8}".prop_map(Leaf::Text),
    ]
}

/// Where the schema declares the leaves.
#[derive(Debug, Clone, Copy)]
enum Construct {
    Properties,
    PatternProperties,
    AllOf,
    IfThen,
    DependentSchemas,
    RefById,
    RefByAnchor,
}

fn construct() -> impl Strategy<Value = Construct> {
    prop_oneof![
        Just(Construct::Properties),
        Just(Construct::PatternProperties),
        Just(Construct::AllOf),
        Just(Construct::IfThen),
        Just(Construct::DependentSchemas),
        Just(Construct::RefById),
        Just(Construct::RefByAnchor),
    ]
}

/// A schema declaring `leaves` through `how`, and a valid instance of it.
fn build(how: Construct, leaves: &[Leaf]) -> (Value, Value) {
    let mut instance = Map::new();
    let mut props = Map::new();
    let mut defs = Map::new();
    let mut patterns = Map::new();
    for (i, leaf) in leaves.iter().enumerate() {
        let name = format!("f{i}");
        let key = match how {
            Construct::PatternProperties => format!("{name}_x"),
            _ => name.clone(),
        };
        instance.insert(key, leaf.value());
        match how {
            Construct::PatternProperties => {
                patterns.insert(format!("^{name}_"), leaf.schema());
            }
            Construct::RefById => {
                let mut def = leaf.schema();
                def["$id"] = json!(format!("{name}.json"));
                defs.insert(name.clone(), def);
                props.insert(name.clone(), json!({"$ref": format!("{name}.json")}));
            }
            Construct::RefByAnchor => {
                let mut def = leaf.schema();
                def["$anchor"] = json!(format!("a{name}"));
                defs.insert(name.clone(), def);
                props.insert(name.clone(), json!({"$ref": format!("#a{name}")}));
            }
            _ => {
                props.insert(name, leaf.schema());
            }
        }
    }
    let props = Value::Object(props);
    let declared: Map<String, Value> = props
        .as_object()
        .unwrap()
        .keys()
        .map(|k| (k.clone(), json!({})))
        .collect();
    let schema = match how {
        Construct::Properties => json!({"type": "object", "properties": props}),
        Construct::PatternProperties => json!({"type": "object",
            "patternProperties": patterns, "additionalProperties": false}),
        Construct::AllOf => json!({"allOf": [{"properties": declared}, {"properties": props}]}),
        Construct::IfThen => {
            instance.insert("mode".to_owned(), json!("strict"));
            json!({"properties": {"mode": {"enum": ["strict", "loose"]}},
                   "if": {"properties": {"mode": {"const": "strict"}}, "required": ["mode"]},
                   "then": {"properties": props},
                   "else": {"properties": declared}})
        }
        Construct::DependentSchemas => {
            instance.insert("mode".to_owned(), json!("on"));
            json!({"properties": {"mode": {"type": "string"}},
                   "dependentSchemas": {"mode": {"properties": props}}})
        }
        Construct::RefById => json!({"$id": "https://example.com/gen/root.json",
                                     "$defs": defs, "properties": props}),
        Construct::RefByAnchor => json!({"$defs": defs, "properties": props}),
    };
    (schema, Value::Object(instance))
}

/// Corrupt `value` (a leaf's value) as a model would, by `how`.
fn corrupt(value: &Value, how: u8) -> Value {
    match (value, how % 4) {
        (Value::Number(n), 0 | 1) => json!(n.to_string()),
        (Value::Number(n), _) => json!(format!(" {n} ")),
        (Value::Bool(b), 0) => json!(b.to_string()),
        (Value::Bool(b), _) => json!(b.to_string().to_uppercase()),
        (Value::String(s), 0 | 1) if WORDS.contains(&s.as_str()) => json!(s.to_uppercase()),
        (Value::Array(items), 0 | 1) if items.len() == 1 => corrupt(&items[0], 2),
        (Value::Array(items), _) => Value::Array(items.iter().map(|i| corrupt(i, 0)).collect()),
        _ => value.clone(),
    }
}

fn corrupted(instance: &Value, hows: &[u8]) -> Value {
    let mut out = instance.clone();
    if let Value::Object(map) = &mut out {
        for ((key, v), how) in map.iter_mut().zip(hows.iter().cycle()) {
            if key != "mode" {
                *v = corrupt(v, *how);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn heal_gives_back_the_original_or_refuses(
        how in construct(),
        leaves in prop::collection::vec(leaf(), 1..6),
        hows in prop::collection::vec(any::<u8>(), 1..6),
    ) {
        let (raw, instance) = build(how, &leaves);
        let schema = Schema::new(&raw).unwrap();
        prop_assert!(schema.is_valid(&instance), "{raw} {instance}");
        let bad = corrupted(&instance, &hows);
        let opts = HealOptions::default();
        match heal(&bad.to_string(), &schema, &opts) {
            Ok(healed) => prop_assert_eq!(&healed.value, &instance, "{:?} {}", how, raw),
            Err(e) => {
                prop_assert_eq!(e.kind, HealErrorKind::Invalid);
                prop_assert!(!e.feedback.is_empty());
                // Every corruption made here has one clear reading: a refusal is a gap.
                prop_assert!(false, "{:?}: {} refused: {}", how, bad, e);
            }
        }
        // Valid instances come back as they are.
        let same = heal(&instance.to_string(), &schema, &opts).unwrap();
        prop_assert_eq!(same.value, instance);
        prop_assert!(same.coercions.is_empty());
    }

    #[test]
    fn off_means_refused_not_changed(
        how in construct(),
        leaves in prop::collection::vec(leaf(), 1..4),
        hows in prop::collection::vec(any::<u8>(), 1..4),
    ) {
        let (raw, instance) = build(how, &leaves);
        let schema = Schema::new(&raw).unwrap();
        let bad = corrupted(&instance, &hows);
        let opts = HealOptions {
            coerce: jsonheal::schema::CoerceOptions::none(),
            ..HealOptions::default()
        };
        match heal(&bad.to_string(), &schema, &opts) {
            Ok(healed) => prop_assert_eq!(healed.value, bad),
            Err(e) => prop_assert!(e.kind == HealErrorKind::Invalid && !e.feedback.is_empty()),
        }
    }
}

/// The bench's large schema: its corrupted instance heals back to the exact instance.
#[test]
fn the_large_generated_schema_heals_exactly() {
    for seed in [7, 8, 9] {
        let big = big_schema::big_schema(seed);
        let size = big.schema.to_string().len();
        assert!(size > 100_000, "{size}");
        let schema = Schema::new(&big.schema).unwrap();
        assert!(
            schema.is_valid(&big.instance),
            "{:?}",
            schema.validate(&big.instance)
        );
        assert_ne!(big.corrupted, big.instance);
        let reply = format!("Here:\n```json\n{}\n```", big.corrupted);
        let healed = heal(&reply, &schema, &HealOptions::default())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(healed.value, big.instance, "seed {seed}");
        let text = jsonheal::schema::instructions(&schema);
        let chars = text.chars().count();
        eprintln!("seed {seed}: schema {size} bytes, instructions {chars} characters");
        assert!(chars <= 12_000, "{chars}");
    }
}
