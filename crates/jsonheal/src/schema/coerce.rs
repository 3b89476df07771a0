//! Schema-guided coercion: shape a value to its schema where the intent is clear, and log
//! every step.

use std::fmt::Write;

use serde::Serialize;
use serde_json::{Map, Value};

use super::render;
use super::Schema;

/// Which coercions [`coerce`] may make. All on by default; [`CoerceOptions::none`] turns all
/// off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoerceOptions {
    /// `"42"` → `42` where the schema wants a number or an integer.
    pub strings_to_numbers: bool,
    /// `"true"` → `true` (any case, surrounding whitespace ignored) where it wants a boolean.
    pub strings_to_booleans: bool,
    /// `42` → `"42"` where it wants a string.
    pub numbers_to_strings: bool,
    /// `x` → `[x]` where it wants an array (never for `null`).
    pub wrap_in_array: bool,
    /// `[x]` → `x` where it wants `x`'s type (an object, typically) and not an array.
    pub unwrap_single_array: bool,
    /// An enum or const string matched ignoring case and surrounding whitespace.
    pub enum_case: bool,
    /// A key matched to a missing required property ignoring case and `snake_case` /
    /// `camelCase` / `kebab-case` differences.
    pub key_case: bool,
    /// `null` for a missing required property whose schema explicitly allows null.
    pub null_for_missing: bool,
}

impl Default for CoerceOptions {
    fn default() -> CoerceOptions {
        CoerceOptions {
            strings_to_numbers: true,
            strings_to_booleans: true,
            numbers_to_strings: true,
            wrap_in_array: true,
            unwrap_single_array: true,
            enum_case: true,
            key_case: true,
            null_for_missing: true,
        }
    }
}

impl CoerceOptions {
    /// These options with one kind of coercion switched on or off.
    pub fn with(mut self, kind: CoercionKind, on: bool) -> CoerceOptions {
        let flag = match kind {
            CoercionKind::StringToNumber => &mut self.strings_to_numbers,
            CoercionKind::StringToBoolean => &mut self.strings_to_booleans,
            CoercionKind::NumberToString => &mut self.numbers_to_strings,
            CoercionKind::WrapInArray => &mut self.wrap_in_array,
            CoercionKind::UnwrapSingleArray => &mut self.unwrap_single_array,
            CoercionKind::EnumCase => &mut self.enum_case,
            CoercionKind::KeyCase => &mut self.key_case,
            CoercionKind::NullForMissing => &mut self.null_for_missing,
        };
        *flag = on;
        self
    }

    /// No coercion at all: the value is validated as it is.
    pub fn none() -> CoerceOptions {
        CoerceOptions {
            strings_to_numbers: false,
            strings_to_booleans: false,
            numbers_to_strings: false,
            wrap_in_array: false,
            unwrap_single_array: false,
            enum_case: false,
            key_case: false,
            null_for_missing: false,
        }
    }
}

/// One kind of coercion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoercionKind {
    /// `"42"` → `42` ([`CoerceOptions::strings_to_numbers`]).
    StringToNumber,
    /// `"true"` → `true` ([`CoerceOptions::strings_to_booleans`]).
    StringToBoolean,
    /// `42` → `"42"` ([`CoerceOptions::numbers_to_strings`]).
    NumberToString,
    /// `x` → `[x]` ([`CoerceOptions::wrap_in_array`]).
    WrapInArray,
    /// `[x]` → `x` ([`CoerceOptions::unwrap_single_array`]).
    UnwrapSingleArray,
    /// `"Admin "` → `"admin"` ([`CoerceOptions::enum_case`]).
    EnumCase,
    /// `userName` → `user_name` ([`CoerceOptions::key_case`]).
    KeyCase,
    /// missing → `null` ([`CoerceOptions::null_for_missing`]).
    NullForMissing,
}

impl CoercionKind {
    /// The stable snake_case name (`string_to_number`).
    pub fn name(self) -> &'static str {
        match self {
            CoercionKind::StringToNumber => "string_to_number",
            CoercionKind::StringToBoolean => "string_to_boolean",
            CoercionKind::NumberToString => "number_to_string",
            CoercionKind::WrapInArray => "wrap_in_array",
            CoercionKind::UnwrapSingleArray => "unwrap_single_array",
            CoercionKind::EnumCase => "enum_case",
            CoercionKind::KeyCase => "key_case",
            CoercionKind::NullForMissing => "null_for_missing",
        }
    }
}

impl std::fmt::Display for CoercionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One coercion: where, what kind, and the value (or key) before and after, rendered short.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coercion {
    /// JSON pointer to the coerced value, after the coercion (for `key_case`, the new key).
    pub path: String,
    /// What was done.
    pub kind: CoercionKind,
    /// What was there (`"42"`, the old key); `None` for an added property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// What is there now.
    pub to: String,
}

/// Values nested deeper than this are left as they are (validation still sees them).
const MAX_DEPTH: usize = 128;
/// `$ref` chains longer than this are not followed.
const MAX_REF_HOPS: usize = 16;

/// Shape `value` to `schema` where the intent is clear, and return what was done, in order.
/// Only what `opts` allows is done; a value already valid is left untouched.
pub fn coerce(value: &mut Value, schema: &Schema, opts: &CoerceOptions) -> Vec<Coercion> {
    if *opts == CoerceOptions::none() || schema.is_valid(value) {
        return Vec::new();
    }
    coerce_invalid(value, schema, opts)
}

/// [`coerce`] for a value already known to be invalid.
pub(crate) fn coerce_invalid(
    value: &mut Value,
    schema: &Schema,
    opts: &CoerceOptions,
) -> Vec<Coercion> {
    if *opts == CoerceOptions::none() {
        return Vec::new();
    }
    let mut walker = Walker {
        schema,
        opts,
        log: Vec::new(),
        path: String::new(),
    };
    walker.walk(value, &[schema.raw()], 0);
    walker.log
}

struct Walker<'a> {
    schema: &'a Schema,
    opts: &'a CoerceOptions,
    log: Vec<Coercion>,
    /// The JSON pointer of the value being walked (pushed and popped, built once).
    path: String,
}

/// What applies at one place in the value: the subschemas that apply there, with the `$ref`
/// targets and `allOf` members they pull in. A value must satisfy all of them, so each
/// keyword keeps what every one of them says (a property declared in two `allOf` members is
/// walked with both). Subschemas are references into the root schema.
#[derive(Default)]
struct View<'a> {
    /// Each `type` keyword as written: a name or a list of names.
    types: Vec<&'a Value>,
    /// Each `enum`, and each `const` as a list of one.
    enums: Vec<&'a [Value]>,
    properties: Vec<(&'a str, &'a Value)>,
    patterns: Vec<(&'a str, &'a Value)>,
    required: Vec<&'a str>,
    additional: Vec<&'a Value>,
    /// Positional item schemas and the schema for the rest, per subschema that has them.
    arrays: Vec<(&'a [Value], Option<&'a Value>)>,
    /// Each `anyOf` / `oneOf`.
    alternatives: Vec<&'a [Value]>,
    /// Each `if` with its `then` and `else`.
    conditionals: Vec<(&'a Value, Option<&'a Value>, Option<&'a Value>)>,
    /// `dependentSchemas` (and draft 4-7 `dependencies` holding schemas) by property name.
    dependents: Vec<(&'a str, &'a Value)>,
}

impl View<'_> {
    fn declares(&self, key: &str) -> bool {
        self.properties.iter().any(|(p, _)| *p == key)
    }
}

impl<'a> Walker<'a> {
    /// The subschema, the targets of its `$ref`s and its `allOf` members, in that order
    /// (one pass over each object's keys: hashing every keyword would cost more).
    fn gather(&self, node: &'a Value, hops: usize, out: &mut Vec<&'a Map<String, Value>>) {
        let Some(obj) = node.as_object() else {
            return;
        };
        if hops > MAX_REF_HOPS || out.len() > 64 {
            return;
        }
        out.push(obj);
        let schema: &'a Schema = self.schema;
        for (key, v) in obj {
            match (key.as_str(), v) {
                ("$ref", Value::String(r)) => {
                    if let Some(target) = schema.resolve_ref(node, r) {
                        self.gather(target, hops + 1, out);
                    }
                }
                ("allOf", Value::Array(members)) => {
                    for m in members {
                        self.gather(m, hops + 1, out);
                    }
                }
                _ => {}
            }
        }
    }

    fn view(&self, nodes: &[&'a Value]) -> View<'a> {
        let mut view = View::default();
        let mut objs = Vec::with_capacity(nodes.len());
        for &node in nodes {
            let Some(obj) = node.as_object() else {
                continue;
            };
            // Most subschemas pull nothing in: no `$ref`, no `allOf`.
            if obj.keys().any(|k| k == "$ref" || k == "allOf") {
                self.gather(node, 0, &mut objs);
            } else {
                objs.push(obj);
            }
        }
        for obj in objs {
            let mut prefix: Option<&'a [Value]> = None;
            let (mut rest, mut additional_items) = (None, None);
            let (mut cond, mut then, mut otherwise) = (None, None, None);
            for (key, v) in obj {
                match (key.as_str(), v) {
                    ("type", t @ (Value::String(_) | Value::Array(_))) => view.types.push(t),
                    ("enum", Value::Array(values)) => view.enums.push(values),
                    ("const", c) => view.enums.push(std::slice::from_ref(c)),
                    ("properties", Value::Object(props)) => {
                        view.properties.reserve(props.len());
                        view.properties
                            .extend(props.iter().map(|(k, sub)| (k.as_str(), sub)));
                    }
                    ("patternProperties", Value::Object(props)) => {
                        view.patterns
                            .extend(props.iter().map(|(k, sub)| (k.as_str(), sub)));
                    }
                    ("required", Value::Array(req)) => {
                        for r in req.iter().filter_map(Value::as_str) {
                            if !view.required.contains(&r) {
                                view.required.push(r);
                            }
                        }
                    }
                    ("additionalProperties", a @ Value::Object(_)) => view.additional.push(a),
                    ("prefixItems", Value::Array(p)) => prefix = Some(p.as_slice()),
                    ("items", i @ Value::Object(_)) => rest = Some(i),
                    // Drafts 4 to 2019-09 wrote positional items as an `items` array, and
                    // the rest as `additionalItems`.
                    ("items", Value::Array(p)) => prefix = prefix.or(Some(p.as_slice())),
                    ("additionalItems", a @ Value::Object(_)) => additional_items = Some(a),
                    ("anyOf" | "oneOf", Value::Array(branches)) => {
                        view.alternatives.push(branches);
                    }
                    ("if", c) => cond = Some(c),
                    ("then", t) => then = Some(t),
                    ("else", e) => otherwise = Some(e),
                    ("dependentSchemas" | "dependencies", Value::Object(deps)) => {
                        view.dependents.extend(
                            deps.iter()
                                .filter(|(_, sub)| sub.is_object())
                                .map(|(k, sub)| (k.as_str(), sub)),
                        );
                    }
                    _ => {}
                }
            }
            let rest = rest.or(additional_items.filter(|_| prefix.is_some()));
            if prefix.is_some() || rest.is_some() {
                view.arrays.push((prefix.unwrap_or_default(), rest));
            }
            if let Some(cond) = cond.filter(|_| then.is_some() || otherwise.is_some()) {
                view.conditionals.push((cond, then, otherwise));
            }
        }
        view
    }

    fn record(&mut self, kind: CoercionKind, from: Option<String>, to: &Value) {
        self.log.push(Coercion {
            path: self.path.clone(),
            kind,
            from,
            to: render::value(to),
        });
    }

    /// Walk `child` under the path segment `segment`.
    fn descend(&mut self, child: &mut Value, schemas: &[&'a Value], segment: &str, depth: usize) {
        let len = self.path.len();
        self.path.push('/');
        render::push_segment(&mut self.path, segment);
        self.walk(child, schemas, depth + 1);
        self.path.truncate(len);
    }

    fn walk(&mut self, value: &mut Value, nodes: &[&'a Value], depth: usize) {
        if depth > MAX_DEPTH || nodes.is_empty() {
            return;
        }
        let view = self.view(nodes);
        for branches in &view.alternatives {
            self.choose_alternative(value, branches, depth);
        }
        if !view.types.is_empty() {
            self.coerce_type(value, &view.types);
        }
        if !view.enums.is_empty() {
            self.match_enum(value, &view);
        }
        match value {
            Value::Object(map) => self.walk_object(map, &view, depth),
            Value::Array(items) if !view.arrays.is_empty() => {
                for (i, item) in items.iter_mut().enumerate() {
                    let subs: Vec<&'a Value> = view
                        .arrays
                        .iter()
                        .filter_map(|&(prefix, rest)| match prefix.get(i) {
                            Some(p) => Some(p),
                            None => rest,
                        })
                        .collect();
                    if !subs.is_empty() {
                        let len = self.path.len();
                        // Writing to a String cannot fail.
                        let _ = write!(self.path, "/{i}");
                        self.walk(item, &subs, depth + 1);
                        self.path.truncate(len);
                    }
                }
            }
            _ => {}
        }
        // `if` is asked about the value as coerced so far: a corrupted value may fail it
        // only because of what coercion has just fixed.
        for &(cond, then, otherwise) in &view.conditionals {
            let branch = match self.schema.is_valid_against(cond, value) {
                Some(true) => then,
                Some(false) => otherwise,
                None => None,
            };
            if let Some(branch) = branch {
                self.walk(value, &[branch], depth + 1);
            }
        }
        let dependents: Vec<&'a Value> = match &*value {
            Value::Object(map) => view
                .dependents
                .iter()
                .filter(|(name, _)| map.contains_key(*name))
                .map(|&(_, sub)| sub)
                .collect(),
            _ => Vec::new(),
        };
        if !dependents.is_empty() {
            self.walk(value, &dependents, depth + 1);
        }
    }

    /// `anyOf` / `oneOf`: keep the value if a branch already accepts it; otherwise take the
    /// first branch that accepts it after coercion.
    fn choose_alternative(&mut self, value: &mut Value, branches: &'a [Value], depth: usize) {
        if branches
            .iter()
            .any(|b| self.schema.is_valid_against(b, value) == Some(true))
        {
            return;
        }
        for branch in branches {
            let mut trial = value.clone();
            let mut sub = Walker {
                schema: self.schema,
                opts: self.opts,
                log: Vec::new(),
                path: self.path.clone(),
            };
            sub.walk(&mut trial, &[branch], depth + 1);
            if !sub.log.is_empty() && self.schema.is_valid_against(branch, &trial) == Some(true) {
                *value = trial;
                self.log.append(&mut sub.log);
                return;
            }
        }
    }

    fn coerce_type(&mut self, value: &mut Value, types: &[&Value]) {
        let fits = |v: &Value| {
            types
                .iter()
                .all(|ty| type_names(ty).any(|t| type_matches(v, t)))
        };
        if fits(value) {
            return;
        }
        // What every `type` accepts (a `number` accepts an `integer`).
        let wants = |t: &str| {
            types.iter().all(|ty| {
                type_names(ty).any(|name| name == t || (t == "integer" && name == "number"))
            })
        };
        let opts = *self.opts;
        let replacement = match &*value {
            Value::String(s) if opts.strings_to_numbers && wants("integer") => number_from_str(s)
                .filter(|n| wants("number") || render::is_integer(n))
                .map(|n| (Value::Number(n), CoercionKind::StringToNumber)),
            _ => None,
        };
        let replacement = replacement.or_else(|| match &*value {
            Value::String(s) if opts.strings_to_booleans && wants("boolean") => {
                bool_from_str(s).map(|b| (Value::Bool(b), CoercionKind::StringToBoolean))
            }
            Value::Number(n) if opts.numbers_to_strings && wants("string") => {
                Some((Value::String(n.to_string()), CoercionKind::NumberToString))
            }
            _ => None,
        });
        if let Some((new, kind)) = replacement {
            let from = Some(render::value(value));
            *value = new;
            self.record(kind, from, value);
            return;
        }
        let unwrap = opts.unwrap_single_array
            && !wants("array")
            && matches!(&*value, Value::Array(items) if items.len() == 1
                && items.first().is_some_and(fits));
        if unwrap {
            let from = Some(render::value(value));
            if let Value::Array(items) = value {
                if let Some(only) = items.pop() {
                    *value = only;
                    self.record(CoercionKind::UnwrapSingleArray, from, value);
                }
            }
        } else if opts.wrap_in_array && wants("array") && !value.is_array() && !value.is_null() {
            let from = Some(render::value(value));
            let inner = std::mem::take(value);
            *value = Value::Array(vec![inner]);
            self.record(CoercionKind::WrapInArray, from, value);
        }
    }

    /// `enum` and `const`: a string matched to a string member ignoring case, or taken as
    /// evidence of a member's type (`"1"` for `1`, `"false"` for `false`, `7` for `"7"`)
    /// when it matches no member as it is. Only a unique match is taken.
    fn match_enum(&mut self, value: &mut Value, view: &View<'a>) {
        let Some((first, others)) = view.enums.split_first() else {
            return;
        };
        // A value must be a member of every `enum` and `const` that applies.
        let options: Vec<&'a Value> = first
            .iter()
            .filter(|o| others.iter().all(|e| e.contains(o)))
            .collect();
        if options.iter().any(|o| *o == value) {
            return;
        }
        let opts = *self.opts;
        let (member, kind) = match &*value {
            Value::String(s) => {
                let wanted = s.trim().to_lowercase();
                let by_case = unique(options.iter().copied().filter(|o| {
                    o.as_str()
                        .is_some_and(|o| o.trim().to_lowercase() == wanted)
                }));
                match by_case {
                    Some(m) if opts.enum_case => (m, CoercionKind::EnumCase),
                    // Two members that differ only in case: which one was meant is unclear.
                    _ if by_case.is_some() => return,
                    _ => match (bool_from_str(s), number_from_str(s)) {
                        (Some(b), _) if opts.strings_to_booleans => {
                            match options.iter().copied().find(|o| o.as_bool() == Some(b)) {
                                Some(m) => (m, CoercionKind::StringToBoolean),
                                None => return,
                            }
                        }
                        (_, Some(n)) if opts.strings_to_numbers => {
                            let numeric = options
                                .iter()
                                .copied()
                                .filter(|o| matches!(o, Value::Number(m) if numbers_equal(&n, m)));
                            match unique(numeric) {
                                Some(m) => (m, CoercionKind::StringToNumber),
                                None => return,
                            }
                        }
                        _ => return,
                    },
                }
            }
            Value::Number(n) if opts.numbers_to_strings => {
                let text = n.to_string();
                let numeric = options
                    .iter()
                    .any(|o| matches!(o, Value::Number(m) if numbers_equal(n, m)));
                match options.iter().copied().find(|o| o.as_str() == Some(&text)) {
                    Some(m) if !numeric => (m, CoercionKind::NumberToString),
                    _ => return,
                }
            }
            _ => return,
        };
        let from = Some(render::value(value));
        *value = member.clone();
        self.record(kind, from, value);
    }

    /// The subschemas of the `patternProperties` whose pattern `key` matches.
    fn matching_patterns(&self, view: &View<'a>, key: &str) -> Vec<&'a Value> {
        view.patterns
            .iter()
            .filter(|(p, _)| self.schema.key_matches(p, key) == Some(true))
            .map(|&(_, sub)| sub)
            .collect()
    }

    fn walk_object(&mut self, map: &mut Map<String, Value>, view: &View<'a>, depth: usize) {
        if self.opts.key_case {
            for &required in &view.required {
                if map.contains_key(required) {
                    continue;
                }
                let folded = fold_key(required);
                let mut found = map
                    .keys()
                    .filter(|k| fold_key(k) == folded && !view.declares(k));
                if let (Some(key), None) = (found.next(), found.next()) {
                    let key = key.clone();
                    rename_key(map, &key, required);
                    self.log.push(Coercion {
                        path: render::child(&self.path, required),
                        kind: CoercionKind::KeyCase,
                        from: Some(render::quote(&key)),
                        to: render::quote(required),
                    });
                }
            }
        }
        // Declared properties in the schema's order, each with every subschema naming it
        // and every pattern its name matches (all of them apply).
        let mut declared: Vec<(&'a str, Vec<&'a Value>)> = Vec::new();
        for &(name, sub) in &view.properties {
            match declared.iter_mut().find(|(n, _)| *n == name) {
                Some((_, subs)) => subs.push(sub),
                None => declared.push((name, vec![sub])),
            }
        }
        for (name, mut subs) in declared {
            if let Some(child) = map.get_mut(name) {
                subs.extend(self.matching_patterns(view, name));
                self.descend(child, &subs, name, depth);
            }
        }
        if !view.patterns.is_empty() || !view.additional.is_empty() {
            for (key, child) in map.iter_mut() {
                if view.declares(key) {
                    continue;
                }
                let mut subs = self.matching_patterns(view, key);
                if subs.is_empty() {
                    subs.clone_from(&view.additional);
                }
                self.descend(child, &subs, key, depth);
            }
        }
        if self.opts.null_for_missing {
            for &required in &view.required {
                if map.contains_key(required) {
                    continue;
                }
                let subs: Vec<&'a Value> = view
                    .properties
                    .iter()
                    .filter(|(p, _)| *p == required)
                    .map(|&(_, sub)| sub)
                    .collect();
                if !subs.is_empty() && self.allows_null(&subs) {
                    map.insert(required.to_owned(), Value::Null);
                    self.log.push(Coercion {
                        path: render::child(&self.path, required),
                        kind: CoercionKind::NullForMissing,
                        from: None,
                        to: "null".to_owned(),
                    });
                }
            }
        }
    }

    /// Whether subschemas say explicitly that null is fine: `null` among their types, in
    /// their enum, as their const, or as one of their alternatives. A schema that merely
    /// does not forbid null does not count: that would be inventing a value.
    fn allows_null(&self, nodes: &[&'a Value]) -> bool {
        let view = self.view(nodes);
        if !view.types.is_empty()
            && view
                .types
                .iter()
                .all(|t| type_names(t).any(|name| name == "null"))
        {
            return true;
        }
        if !view.enums.is_empty() && view.enums.iter().all(|e| e.contains(&Value::Null)) {
            return true;
        }
        view.alternatives.iter().flat_map(|bs| bs.iter()).any(|b| {
            b.get("type").is_some_and(|t| {
                t == "null"
                    || t.as_array()
                        .is_some_and(|ts| ts.iter().any(|x| x == "null"))
            })
        })
    }
}

/// The only item of `items`, if there is exactly one.
fn unique<T>(mut items: impl Iterator<Item = T>) -> Option<T> {
    match (items.next(), items.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// `"true"` / `"false"` in any case, surrounding whitespace ignored.
fn bool_from_str(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Whether two numbers are the same value: the same text, the same 64-bit integer, or the
/// same double where doubles are exact (below 2^53).
fn numbers_equal(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    if a.to_string() == b.to_string() {
        return true;
    }
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x == y;
    }
    const EXACT: f64 = 9_007_199_254_740_992.0;
    matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y && x.abs() < EXACT)
}

/// The names in a `type` keyword (`"string"` or `["string", "null"]`).
fn type_names(types: &Value) -> impl Iterator<Item = &str> {
    let (one, many) = match types {
        Value::String(t) => (Some(t.as_str()), None),
        Value::Array(ts) => (None, Some(ts.iter().filter_map(Value::as_str))),
        _ => (None, None),
    };
    one.into_iter().chain(many.into_iter().flatten())
}

/// Whether a value has JSON Schema type `t` (an integral number is an `integer`, every
/// number is a `number`).
fn type_matches(value: &Value, t: &str) -> bool {
    match (value, t) {
        (Value::Null, "null") | (Value::Bool(_), "boolean") => true,
        (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => render::is_integer(n),
        (Value::String(_), "string") | (Value::Array(_), "array") => true,
        (Value::Object(_), "object") => true,
        _ => false,
    }
}

/// A JSON number written in a string (`" 42 "`, `"-3.5"`, `"1e3"`), its text kept.
fn number_from_str(s: &str) -> Option<serde_json::Number> {
    let t = s.trim();
    if t.is_empty() || t.len() > 400 {
        return None;
    }
    serde_json::from_str::<serde_json::Number>(t).ok()
}

/// A key with case and word separators folded away: `userName`, `user_name`, `User-Name`
/// all become `username`.
fn fold_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Rename `from` to `to` in place, keeping the key's position.
fn rename_key(map: &mut Map<String, Value>, from: &str, to: &str) {
    let old = std::mem::take(map);
    for (k, v) in old {
        if k == from {
            map.insert(to.to_owned(), v);
        } else {
            map.insert(k, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_key_styles() {
        for k in [
            "userName",
            "user_name",
            "User-Name",
            "USERNAME",
            "user name",
        ] {
            assert_eq!(fold_key(k), "username", "{k}");
        }
    }

    #[test]
    fn parses_only_json_numbers() {
        assert!(number_from_str(" 42 ").is_some());
        assert!(number_from_str("-3.5e2").is_some());
        for bad in ["", "0x1F", "1,000", "NaN", "42abc", "+1", "."] {
            assert!(number_from_str(bad).is_none(), "{bad}");
        }
    }
}
