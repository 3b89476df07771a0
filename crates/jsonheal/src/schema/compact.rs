//! A schema rendered to fit a size: annotations trimmed step by step, `$defs` used once
//! inlined, constraints never touched. What a model needs to answer is the constraints;
//! descriptions and examples help, but a prompt that does not fit helps nobody.

use serde_json::Value;

use super::index;

/// Annotations a model can do without, dropped at the last step (never data: the keyword
/// must be a schema keyword, which the walk guarantees).
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "examples",
    "example",
];

/// The compact JSON text of `schema`, as short as needed to fit `max_chars` if it can:
/// 1. as it is;
/// 2. without `$comment`, `examples` and `example`, descriptions cut to 200 characters;
/// 3. plus `$defs` / `definitions` referenced exactly once inlined at the reference, and
///    unreferenced ones dropped;
/// 4. descriptions cut to 60 characters;
/// 5. no annotations at all (titles, descriptions, defaults, …).
///
/// The first that fits is returned; when none does, the last (the constraints alone).
pub(crate) fn render(schema: &Value, max_chars: usize) -> String {
    let text = schema.to_string();
    if text.chars().count() <= max_chars {
        return text;
    }
    let mut work = schema.clone();
    let mut last = text;
    for step in 2..=5 {
        match step {
            2 => trim(&mut work, &["$comment", "examples", "example"], 200),
            3 => inline_single_defs(&mut work),
            4 => trim(&mut work, &[], 60),
            _ => trim(&mut work, ANNOTATIONS, 0),
        }
        last = work.to_string();
        if last.chars().count() <= max_chars {
            break;
        }
    }
    last
}

/// Drop `drop` from every subschema and cut every `description` to `cut` characters.
fn trim(node: &mut Value, drop: &[&str], cut: usize) {
    if let Some(obj) = node.as_object_mut() {
        obj.retain(|k, _| !drop.contains(&k.as_str()));
        if let Some(Value::String(d)) = obj.get_mut("description") {
            if let Some((at, _)) = d.char_indices().nth(cut) {
                d.truncate(at);
                d.push('…');
            }
        }
    }
    index::children_mut(node, &mut |child| trim(child, drop, cut));
}

/// Replace each local `$ref` to a definition used exactly once by the definition itself,
/// and drop definitions nothing refers to. Skipped for documents with embedded resources
/// (`$id` below the root) or anchors: there a definition may be reached in other ways.
fn inline_single_defs(root: &mut Value) {
    let mut refs: Vec<String> = Vec::new();
    let mut identified = false;
    collect_refs(root, true, &mut refs, &mut identified);
    if identified {
        return;
    }
    for container in ["$defs", "definitions"] {
        let Some(Value::Object(defs)) = root.get(container) else {
            continue;
        };
        let names: Vec<String> = defs.keys().cloned().collect();
        for name in names {
            let target = format!("#/{container}/{}", super::render::escape_segment(&name));
            let inside = format!("{target}/");
            let uses = refs.iter().filter(|r| **r == target).count();
            // Something points inside it, or it refers to itself: keep it where it is.
            let pinned = refs.iter().any(|r| r.starts_with(&inside))
                || root
                    .get(container)
                    .and_then(|d| d.get(&name))
                    .is_some_and(|d| mentions(d, &target, &inside));
            if pinned || uses > 1 {
                continue;
            }
            let Some(Value::Object(defs)) = root.get_mut(container) else {
                continue;
            };
            let Some(def) = defs.shift_remove(&name) else {
                continue;
            };
            if uses == 1 {
                replace_ref(root, &target, def);
            }
        }
        if root
            .get(container)
            .and_then(Value::as_object)
            .is_some_and(|d| d.is_empty())
        {
            if let Some(obj) = root.as_object_mut() {
                obj.shift_remove(container);
            }
        }
    }
}

fn collect_refs(node: &Value, is_root: bool, refs: &mut Vec<String>, identified: &mut bool) {
    if let Some(obj) = node.as_object() {
        if let Some(Value::String(r)) = obj.get("$ref") {
            refs.push(r.clone());
        }
        let has_id = ["$id", "id"]
            .iter()
            .any(|k| obj.get(*k).is_some_and(Value::is_string));
        if (has_id && !is_root)
            || obj.contains_key("$anchor")
            || obj.contains_key("$dynamicAnchor")
            || obj.contains_key("$recursiveAnchor")
        {
            *identified = true;
        }
    }
    for (_, _, child) in index::children(node) {
        collect_refs(child, false, refs, identified);
    }
}

/// Whether a `$ref` in `node` names `target` or something inside it.
fn mentions(node: &Value, target: &str, inside: &str) -> bool {
    let mut refs = Vec::new();
    let mut identified = false;
    collect_refs(node, false, &mut refs, &mut identified);
    refs.iter().any(|r| r == target || r.starts_with(inside))
}

/// Put `def` in place of the one subschema `{"$ref": target, …}` (its other keywords merged
/// in through `allOf` so none is lost).
fn replace_ref(node: &mut Value, target: &str, def: Value) {
    let mut slot = Some(def);
    replace_in(node, target, &mut slot);
}

fn replace_in(node: &mut Value, target: &str, slot: &mut Option<Value>) {
    if slot.is_none() {
        return;
    }
    if let Some(obj) = node.as_object_mut() {
        if obj.get("$ref").and_then(Value::as_str) == Some(target) {
            let Some(def) = slot.take() else {
                return;
            };
            obj.shift_remove("$ref");
            *node = if obj.is_empty() {
                def
            } else {
                let mut siblings = std::mem::take(obj);
                siblings.insert("allOf".to_owned(), merge_all_of(siblings.get("allOf"), def));
                Value::Object(siblings)
            };
            return;
        }
    }
    index::children_mut(node, &mut |child| replace_in(child, target, slot));
}

fn merge_all_of(existing: Option<&Value>, def: Value) -> Value {
    let mut members = existing
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    members.push(def);
    Value::Array(members)
}

/// Reference counts by target, for tests and diagnostics.
#[cfg(test)]
fn ref_counts(root: &Value) -> std::collections::HashMap<String, usize> {
    let mut refs = Vec::new();
    let mut identified = false;
    collect_refs(root, true, &mut refs, &mut identified);
    let mut counts = std::collections::HashMap::new();
    for r in refs {
        *counts.entry(r).or_insert(0) += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inlines_definitions_used_once_and_keeps_shared_ones() {
        let mut s = json!({
            "properties": {
                "a": {"$ref": "#/$defs/once"},
                "b": {"$ref": "#/$defs/twice"},
                "c": {"$ref": "#/$defs/twice", "description": "x"},
                "d": {"$ref": "#/$defs/self"}
            },
            "$defs": {
                "once": {"type": "integer", "minimum": 1},
                "twice": {"type": "string"},
                "self": {"type": "array", "items": {"$ref": "#/$defs/self"}},
                "unused": {"type": "null"}
            }
        });
        inline_single_defs(&mut s);
        assert_eq!(
            s["properties"]["a"],
            json!({"type": "integer", "minimum": 1})
        );
        assert_eq!(s["properties"]["b"], json!({"$ref": "#/$defs/twice"}));
        assert!(s["$defs"].get("once").is_none());
        assert!(s["$defs"].get("unused").is_none());
        assert!(s["$defs"].get("self").is_some());
        assert_eq!(ref_counts(&s).get("#/$defs/twice"), Some(&2));
    }

    #[test]
    fn merges_siblings_of_an_inlined_ref() {
        let mut s = json!({"properties": {"a": {"$ref": "#/definitions/n", "maximum": 3}},
                           "definitions": {"n": {"type": "integer"}}});
        inline_single_defs(&mut s);
        assert_eq!(
            s,
            json!({"properties": {"a": {"maximum": 3, "allOf": [{"type": "integer"}]}}})
        );
    }

    #[test]
    fn trims_annotations_but_not_properties_named_like_them() {
        let s = json!({"description": "d".repeat(500), "examples": [1],
                       "properties": {"description": {"type": "string", "maxLength": 9}}});
        let out = render(&s, 10);
        let v: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(
            v,
            json!({"properties": {"description": {"type": "string", "maxLength": 9}}})
        );
    }
}
