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
        root: schema.raw(),
        opts,
        log: Vec::new(),
        path: String::new(),
    };
    walker.walk(value, schema.raw(), 0);
    walker.log
}

struct Walker<'a> {
    schema: &'a Schema,
    root: &'a Value,
    opts: &'a CoerceOptions,
    log: Vec<Coercion>,
    /// The JSON pointer of the value being walked (pushed and popped, built once).
    path: String,
}

/// What applies at one place in the value: the subschema, the `$ref` targets and `allOf`
/// members it pulls in, merged (the first to say something wins, `required` is a union).
/// Subschemas are references into the root schema.
#[derive(Default)]
struct View<'a> {
    /// The `type` keyword as written: a name or a list of names.
    types: Option<&'a Value>,
    enum_values: Option<&'a Vec<Value>>,
    constant: Option<&'a Value>,
    properties: Vec<(&'a str, &'a Value)>,
    required: Vec<&'a str>,
    additional: Option<&'a Value>,
    items: Option<&'a Value>,
    prefix: Vec<&'a Value>,
    alternatives: Vec<&'a Value>,
}

impl View<'_> {
    fn declares(&self, key: &str) -> bool {
        self.properties.iter().any(|(p, _)| *p == key)
    }
}

impl<'a> Walker<'a> {
    /// The subschema, the targets of its local `$ref`s and its `allOf` members, in that
    /// order (one pass over each object's keys: hashing every keyword would cost more).
    fn gather(&self, node: &'a Value, hops: usize, out: &mut Vec<&'a Map<String, Value>>) {
        let Some(obj) = node.as_object() else {
            return;
        };
        if hops > MAX_REF_HOPS || out.len() > 64 {
            return;
        }
        out.push(obj);
        for (key, v) in obj {
            match (key.as_str(), v) {
                ("$ref", Value::String(r)) => {
                    if let Some(target) = r.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
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

    fn view(&self, node: &'a Value) -> View<'a> {
        let mut view = View::default();
        let Some(obj) = node.as_object() else {
            return view;
        };
        // Most subschemas pull nothing in: no `$ref`, no `allOf`.
        let pulls = obj.keys().any(|k| k == "$ref" || k == "allOf");
        let mut nodes = Vec::new();
        if pulls {
            self.gather(node, 0, &mut nodes);
        } else {
            nodes.push(obj);
        }
        let merging = nodes.len() > 1;
        for obj in nodes {
            let mut items_array = None;
            for (key, v) in obj {
                match (key.as_str(), v) {
                    ("type", t @ (Value::String(_) | Value::Array(_))) if view.types.is_none() => {
                        view.types = Some(t);
                    }
                    ("enum", Value::Array(values)) if view.enum_values.is_none() => {
                        view.enum_values = Some(values);
                    }
                    ("const", c) if view.constant.is_none() => view.constant = Some(c),
                    ("properties", Value::Object(props)) => {
                        view.properties.reserve(props.len());
                        for (k, sub) in props {
                            if !merging || !view.declares(k) {
                                view.properties.push((k.as_str(), sub));
                            }
                        }
                    }
                    ("required", Value::Array(req)) => {
                        for r in req.iter().filter_map(Value::as_str) {
                            if !view.required.contains(&r) {
                                view.required.push(r);
                            }
                        }
                    }
                    ("additionalProperties", a @ Value::Object(_)) if view.additional.is_none() => {
                        view.additional = Some(a);
                    }
                    ("prefixItems", Value::Array(prefix)) if view.prefix.is_empty() => {
                        view.prefix = prefix.iter().collect();
                    }
                    ("items", i @ Value::Object(_)) if view.items.is_none() => {
                        view.items = Some(i);
                    }
                    // Drafts 4 to 2019-09 wrote positional items as an `items` array.
                    ("items", Value::Array(prefix)) => items_array = Some(prefix),
                    ("anyOf" | "oneOf", Value::Array(branches)) if view.alternatives.is_empty() => {
                        view.alternatives = branches.iter().collect();
                    }
                    _ => {}
                }
            }
            if let Some(prefix) = items_array {
                if view.prefix.is_empty() {
                    view.prefix = prefix.iter().collect();
                }
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
    fn descend(&mut self, child: &mut Value, schema: &'a Value, segment: &str, depth: usize) {
        let len = self.path.len();
        self.path.push('/');
        render::push_segment(&mut self.path, segment);
        self.walk(child, schema, depth + 1);
        self.path.truncate(len);
    }

    fn walk(&mut self, value: &mut Value, node: &'a Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let view = self.view(node);
        if !view.alternatives.is_empty() {
            self.choose_alternative(value, &view.alternatives, depth);
        }
        if let Some(types) = view.types {
            self.coerce_type(value, types);
        }
        if self.opts.enum_case {
            self.match_enum(value, &view);
        }
        match value {
            Value::Object(map) => self.walk_object(map, &view, depth),
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let sub = match view.prefix.get(i) {
                        Some(p) => Some(*p),
                        None if i >= view.prefix.len() => view.items,
                        None => None,
                    };
                    if let Some(sub) = sub {
                        let len = self.path.len();
                        // Writing to a String cannot fail.
                        let _ = write!(self.path, "/{i}");
                        self.walk(item, sub, depth + 1);
                        self.path.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }

    /// `anyOf` / `oneOf`: keep the value if a branch already accepts it; otherwise take the
    /// first branch that accepts it after coercion.
    fn choose_alternative(&mut self, value: &mut Value, branches: &[&'a Value], depth: usize) {
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
                root: self.root,
                opts: self.opts,
                log: Vec::new(),
                path: self.path.clone(),
            };
            sub.walk(&mut trial, branch, depth + 1);
            if !sub.log.is_empty() && self.schema.is_valid_against(branch, &trial) == Some(true) {
                *value = trial;
                self.log.append(&mut sub.log);
                return;
            }
        }
    }

    fn coerce_type(&mut self, value: &mut Value, types: &Value) {
        if type_names(types).any(|t| type_matches(value, t)) {
            return;
        }
        let wants = |t: &str| type_names(types).any(|name| name == t);
        let opts = *self.opts;
        let replacement = match &*value {
            Value::String(s)
                if opts.strings_to_numbers && (wants("number") || wants("integer")) =>
            {
                number_from_str(s)
                    .filter(|n| wants("number") || render::is_integer(n))
                    .map(|n| (Value::Number(n), CoercionKind::StringToNumber))
            }
            _ => None,
        };
        let replacement = replacement.or_else(|| match &*value {
            Value::String(s) if opts.strings_to_booleans && wants("boolean") => {
                match s.trim().to_ascii_lowercase().as_str() {
                    "true" => Some((Value::Bool(true), CoercionKind::StringToBoolean)),
                    "false" => Some((Value::Bool(false), CoercionKind::StringToBoolean)),
                    _ => None,
                }
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
                && items.first().is_some_and(|only| type_names(types).any(|t| type_matches(only, t))));
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

    fn match_enum(&mut self, value: &mut Value, view: &View<'a>) {
        let Value::String(s) = &*value else {
            return;
        };
        let options: &[Value] = match (view.enum_values, view.constant) {
            (Some(values), _) => values,
            (None, Some(c)) => std::slice::from_ref(c),
            (None, None) => return,
        };
        if options.iter().any(|o| o.as_str() == Some(s)) {
            return;
        }
        let wanted = s.trim().to_lowercase();
        let mut matches = options
            .iter()
            .filter_map(Value::as_str)
            .filter(|o| o.trim().to_lowercase() == wanted);
        // Two options that differ only in case: which one was meant is not clear.
        if let (Some(only), None) = (matches.next(), matches.next()) {
            let from = Some(render::value(value));
            *value = Value::String(only.to_owned());
            self.record(CoercionKind::EnumCase, from, value);
        }
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
        for &(name, sub) in &view.properties {
            if let Some(child) = map.get_mut(name) {
                self.descend(child, sub, name, depth);
            }
        }
        if let Some(sub) = view.additional {
            for (key, child) in map.iter_mut() {
                if !view.declares(key) {
                    self.descend(child, sub, key, depth);
                }
            }
        }
        if self.opts.null_for_missing {
            for &required in &view.required {
                if map.contains_key(required) {
                    continue;
                }
                let allows = view
                    .properties
                    .iter()
                    .find(|(p, _)| *p == required)
                    .is_some_and(|(_, sub)| self.allows_null(sub));
                if allows {
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

    /// Whether a subschema says explicitly that null is fine: `null` among its types, in its
    /// enum, as its const, or as one of its alternatives. A schema that merely does not
    /// forbid null does not count: that would be inventing a value.
    fn allows_null(&self, node: &'a Value) -> bool {
        let view = self.view(node);
        if view
            .types
            .is_some_and(|t| type_names(t).any(|name| name == "null"))
        {
            return true;
        }
        if view.enum_values.is_some_and(|e| e.contains(&Value::Null)) {
            return true;
        }
        if view.constant == Some(&Value::Null) {
            return true;
        }
        view.alternatives.iter().any(|b| {
            b.get("type").is_some_and(|t| {
                t == "null"
                    || t.as_array()
                        .is_some_and(|ts| ts.iter().any(|x| x == "null"))
            })
        })
    }
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
