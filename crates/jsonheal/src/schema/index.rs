//! Where each subschema of a document is: the one list of which keywords hold schemas, the
//! JSON pointer and base URI of every subschema, and `$ref` resolution by pointer, `$id` and
//! `$anchor`. Coercion, compilation, compact rendering and alias rewriting all walk schemas
//! through [`children`] and [`children_mut`], so a new keyword is taught here once.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::render;

/// What a keyword's value is, for a walk over the subschemas of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// One schema (`not`, `items` as an object, `additionalProperties`, …).
    One,
    /// A list of schemas (`allOf`, `prefixItems`, draft-4 `items` as an array, …).
    List,
    /// Schemas by name (`properties`, `$defs`, `patternProperties`, …).
    Named,
    /// Anything else: data (`enum`, `const`, `default`, `examples`) or a keyword we do not
    /// know; never walked, never rewritten.
    Opaque,
}

fn slot(keyword: &str, value: &Value) -> Slot {
    match keyword {
        "additionalProperties"
        | "additionalItems"
        | "contains"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "contentSchema" => Slot::One,
        "items" if value.is_array() => Slot::List,
        "items" => Slot::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Slot::List,
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
        | "dependencies" => Slot::Named,
        _ => Slot::Opaque,
    }
}

/// Whether a value can be a schema (an object or a boolean).
fn is_schema(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

/// The direct subschemas of `node`, each with its JSON pointer segments (one for a keyword
/// holding a schema, two for a list item or a named schema).
pub(crate) fn children(node: &Value) -> Vec<(&str, Option<String>, &Value)> {
    let mut out = Vec::new();
    let Some(obj) = node.as_object() else {
        return out;
    };
    for (key, v) in obj {
        match (slot(key, v), v) {
            (Slot::One, v) if is_schema(v) => out.push((key.as_str(), None, v)),
            (Slot::List, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate().filter(|(_, s)| is_schema(s)) {
                    out.push((key.as_str(), Some(i.to_string()), item));
                }
            }
            (Slot::Named, Value::Object(named)) => {
                // `dependencies` also maps names to lists of names: those are data.
                for (name, sub) in named.iter().filter(|(_, s)| is_schema(s)) {
                    out.push((key.as_str(), Some(name.clone()), sub));
                }
            }
            _ => {}
        }
    }
    out
}

/// The pointer of a subschema found by [`children`] below the schema at `pointer`.
pub(crate) fn child_pointer(pointer: &str, keyword: &str, segment: Option<&str>) -> String {
    let p = render::child(pointer, keyword);
    match segment {
        Some(segment) => render::child(&p, segment),
        None => p,
    }
}

/// Call `f` on every direct subschema of `node`, mutably (the same keywords as [`children`]).
pub(crate) fn children_mut(node: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    for (key, v) in obj.iter_mut() {
        match slot(key, v) {
            Slot::One if is_schema(v) => f(v),
            Slot::List => {
                if let Value::Array(items) = v {
                    items.iter_mut().filter(|s| is_schema(s)).for_each(&mut *f);
                }
            }
            Slot::Named => {
                if let Value::Object(named) = v {
                    named
                        .values_mut()
                        .filter(|s| is_schema(s))
                        .for_each(&mut *f);
                }
            }
            _ => {}
        }
    }
}

/// The base URI of a document without an `$id`, as the `jsonschema` crate uses it.
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// Every subschema of one document by address: its JSON pointer and base URI, plus the
/// resources (`$id`) and anchors (`$anchor`, draft-7 `$id: "#name"`) a `$ref` can name.
pub(crate) struct Index {
    pointers: HashMap<usize, String>,
    bases: HashMap<usize, Arc<str>>,
    /// Absolute URI (no fragment) → JSON pointer of the resource's root.
    resources: HashMap<String, String>,
    /// `(base URI, anchor)` → JSON pointer.
    anchors: HashMap<(String, String), String>,
}

pub(crate) fn address(v: &Value) -> usize {
    v as *const Value as usize
}

impl Index {
    /// Walk `root` once (iteratively: a schema may nest deep).
    pub(crate) fn new(root: &Value) -> Index {
        let mut index = Index {
            pointers: HashMap::new(),
            bases: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
        };
        let root_base: Arc<str> = Arc::from(DEFAULT_BASE);
        index
            .resources
            .insert(DEFAULT_BASE.to_owned(), String::new());
        let mut stack = vec![(root, String::new(), root_base)];
        while let Some((node, pointer, parent_base)) = stack.pop() {
            let base = index.enter(node, &pointer, parent_base);
            for (keyword, segment, child) in children(node) {
                let p = child_pointer(&pointer, keyword, segment.as_deref());
                stack.push((child, p, Arc::clone(&base)));
            }
            index.pointers.insert(address(node), pointer);
            index.bases.insert(address(node), base);
        }
        index
    }

    /// Record `node`'s identifiers; return its base URI.
    fn enter(&mut self, node: &Value, pointer: &str, parent: Arc<str>) -> Arc<str> {
        let Some(obj) = node.as_object() else {
            return parent;
        };
        let mut base = parent;
        // `id` is draft 4's spelling; a `$ref` beside it hides it in drafts 4 to 7, but a
        // schema carrying both is rare enough to take the identifier as written.
        let id = obj
            .get("$id")
            .or_else(|| obj.get("id"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            if let Some(anchor) = id.strip_prefix('#') {
                if !anchor.is_empty() {
                    self.anchor(&base, anchor, pointer);
                }
            } else if let Some(uri) = resolve(&base, id) {
                let (resource, fragment) = split_fragment(&uri);
                self.resources
                    .insert(resource.to_owned(), pointer.to_owned());
                base = Arc::from(resource);
                if !fragment.is_empty() && !fragment.starts_with('/') {
                    self.anchor(&base, fragment, pointer);
                }
            }
        }
        for key in ["$anchor", "$dynamicAnchor"] {
            if let Some(anchor) = obj.get(key).and_then(Value::as_str) {
                self.anchor(&base, anchor, pointer);
            }
        }
        base
    }

    fn anchor(&mut self, base: &str, name: &str, pointer: &str) {
        self.anchors
            .entry((base.to_owned(), name.to_owned()))
            .or_insert_with(|| pointer.to_owned());
    }

    /// The root's URI: its `$id` resolved, else the default base.
    pub(crate) fn root_uri(&self) -> String {
        self.resources
            .iter()
            .filter(|(uri, at)| at.is_empty() && uri.as_str() != DEFAULT_BASE)
            .map(|(uri, _)| uri.clone())
            .next()
            .unwrap_or_else(|| DEFAULT_BASE.to_owned())
    }

    /// The JSON pointer (from the document's root) of a subschema of it.
    pub(crate) fn pointer(&self, node: &Value) -> Option<&str> {
        self.pointers.get(&address(node)).map(String::as_str)
    }

    /// The subschema `reference` names, seen from `from` (the schema holding the `$ref`).
    pub(crate) fn resolve<'a>(
        &self,
        root: &'a Value,
        from: &Value,
        reference: &str,
    ) -> Option<&'a Value> {
        let base = self
            .bases
            .get(&address(from))
            .map_or(DEFAULT_BASE, |b| &**b);
        let (resource, fragment) = match reference.strip_prefix('#') {
            // The common case needs no URI parsing.
            Some(fragment) => (base.to_owned(), fragment.to_owned()),
            None => {
                let uri = resolve(base, reference)?;
                let (resource, fragment) = split_fragment(&uri);
                (resource.to_owned(), fragment.to_owned())
            }
        };
        let fragment = percent_decode(&fragment);
        let target = if fragment.is_empty() || fragment.starts_with('/') {
            let at = self.resources.get(&resource)?;
            format!("{at}{fragment}")
        } else {
            self.anchors.get(&(resource, fragment))?.clone()
        };
        root.pointer(&target)
    }
}

/// `reference` resolved against `base` (RFC 3986), as the validator resolves it.
fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = jsonschema::uri::from_str(base).ok()?;
    jsonschema::uri::resolve_against(&base.borrow(), reference)
        .ok()
        .map(|u| u.as_str().to_owned())
}

fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// `%XX` escapes decoded (a JSON pointer in a URI fragment escapes `%`, spaces, `^`, …);
/// a malformed escape is kept as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// A JSON pointer written as a URI fragment: everything but the characters a fragment may
/// hold unescaped is `%XX`-escaped.
pub(crate) fn pointer_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_pointers_ids_and_anchors() {
        let root = json!({
            "$id": "https://example.com/root.json",
            "$defs": {
                "a": {"$anchor": "alpha", "type": "integer"},
                "b": {"$id": "item.json", "$defs": {"c": {"type": "boolean"}}},
                "d e": {"type": "null"},
                "old": {"$id": "#legacy", "type": "string"}
            },
            "$ref": "#/$defs/a"
        });
        let index = Index::new(&root);
        let at = |from: &Value, r: &str| index.resolve(&root, from, r);
        assert_eq!(at(&root, "#/$defs/a"), root.pointer("/$defs/a"));
        assert_eq!(at(&root, "#alpha"), root.pointer("/$defs/a"));
        assert_eq!(at(&root, "#legacy"), root.pointer("/$defs/old"));
        assert_eq!(at(&root, "item.json"), root.pointer("/$defs/b"));
        assert_eq!(
            at(&root, "https://example.com/item.json#/$defs/c"),
            root.pointer("/$defs/b/$defs/c")
        );
        let b = root.pointer("/$defs/b").expect("b");
        // Inside `item.json`, `#` is that resource.
        assert_eq!(at(b, "#/$defs/c"), root.pointer("/$defs/b/$defs/c"));
        assert_eq!(at(&root, "#/$defs/d%20e"), root.pointer("/$defs/d e"));
        assert_eq!(at(&root, "#nowhere"), None);
        assert_eq!(at(&root, "other.json"), None);
        assert_eq!(index.pointer(b), Some("/$defs/b"));
    }

    #[test]
    fn data_keywords_are_not_schemas() {
        let root = json!({"enum": [{"type": "x"}], "properties": {"enum": {"type": "string"}}});
        let kids = children(&root);
        assert_eq!(kids.len(), 1);
        assert_eq!(kids[0].1.as_deref(), Some("enum"));
        assert_eq!(pointer_fragment("/a b/%"), "/a%20b/%25");
        assert_eq!(percent_decode("/a%20b/%25/%zz"), "/a b/%/%zz");
    }
}
