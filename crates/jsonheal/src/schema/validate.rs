//! Validation errors in a form a person or a model can act on.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde::Serialize;
use serde_json::Value;

use super::render;

/// The most violations [`crate::Schema::validate`] reports; a value broken in more places
/// than this is reported by its first ones.
pub const MAX_VIOLATIONS: usize = 100;

/// One way a value breaks a schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// JSON pointer to the offending value (`""` is the root; for a missing or unexpected
    /// property, the pointer to that property).
    pub path: String,
    /// The schema keyword that failed (`type`, `required`, `minLength`, …).
    pub keyword: String,
    /// What the schema wants there (`integer`, `at least 3 characters`).
    pub expected: String,
    /// What the value holds there (`string "abc"`, `nothing`), quoted and cut.
    pub found: String,
    /// One sentence saying both.
    pub message: String,
}

impl Violation {
    /// The path for display: `/` for the root.
    pub fn display_path(&self) -> &str {
        render::display_path(&self.path)
    }

    fn new(path: String, keyword: &str, expected: String, found: String) -> Violation {
        let message = format!("expected {expected}, found {found}");
        Violation {
            path,
            keyword: keyword.to_owned(),
            expected,
            found,
            message,
        }
    }
}

/// The one violation of a value nested too deep to validate safely.
pub(crate) fn too_deep() -> Violation {
    Violation::new(
        String::new(),
        "depth",
        format!("at most {} levels of nesting", super::MAX_VALUE_DEPTH),
        "deeper nesting".to_owned(),
    )
}

pub(crate) fn violations(
    validator: &jsonschema::Validator,
    root: &Value,
    value: &Value,
) -> Vec<Violation> {
    let mut out = Vec::new();
    for error in validator.iter_errors(value) {
        convert(&error, root, value, &mut out);
        if out.len() >= MAX_VIOLATIONS {
            out.truncate(MAX_VIOLATIONS);
            break;
        }
    }
    out
}

/// The subschema holding the failed keyword (`/properties/a/minLength` → `/properties/a`).
fn parent_schema<'a>(root: &'a Value, schema_path: &str) -> Option<&'a Value> {
    let (parent, _) = schema_path.rsplit_once('/')?;
    root.pointer(parent)
}

fn convert(
    error: &jsonschema::ValidationError<'_>,
    root: &Value,
    instance_root: &Value,
    out: &mut Vec<Violation>,
) {
    let path = error.instance_path().as_str().to_owned();
    let schema_path = error.schema_path().as_str();
    let instance: &Value = error.instance();
    let keyword = error.kind().keyword();
    let found = render::found(instance);
    let v = match error.kind() {
        ValidationErrorKind::Type { kind } => {
            let names: Vec<&str> = match kind {
                TypeKind::Single(t) => vec![t.as_str()],
                TypeKind::Multiple(set) => set.iter().map(|t| t.as_str()).collect(),
            };
            Violation::new(path, keyword, names.join(" or "), found)
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let shape = parent_schema(root, schema_path)
                .and_then(|s| s.get("properties"))
                .and_then(|p| p.get(name))
                .map(|s| describe_schema(s, root, 0));
            let expected = match shape {
                Some(shape) => format!("required property {} ({shape})", render::quote(name)),
                None => format!("required property {}", render::quote(name)),
            };
            let mut v = Violation::new(
                render::child(&path, name),
                keyword,
                expected,
                "nothing".to_owned(),
            );
            v.message = format!("missing {}", v.expected);
            v
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed: Vec<String> = parent_schema(root, schema_path)
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().take(12).map(|k| render::quote(k)).collect())
                .unwrap_or_default();
            for name in unexpected {
                let expected = if allowed.is_empty() {
                    "no other properties".to_owned()
                } else {
                    format!("only the properties {}", allowed.join(", "))
                };
                let mut v = Violation::new(
                    render::child(&path, name),
                    keyword,
                    expected,
                    format!("property {}", render::quote(name)),
                );
                v.message = format!("property {} is not allowed", render::quote(name));
                if !allowed.is_empty() {
                    v.message
                        .push_str(&format!(" (allowed: {})", allowed.join(", ")));
                }
                out.push(v);
            }
            return;
        }
        ValidationErrorKind::MinLength { limit } => {
            let n = instance.as_str().map_or(0, |s| s.chars().count());
            Violation::new(
                path,
                keyword,
                format!("at least {}", characters(*limit as usize)),
                format!("{}: {}", characters(n), render::value(instance)),
            )
        }
        ValidationErrorKind::MaxLength { limit } => {
            let n = instance.as_str().map_or(0, |s| s.chars().count());
            Violation::new(
                path,
                keyword,
                format!("at most {}", characters(*limit as usize)),
                format!("{}: {}", characters(n), render::value(instance)),
            )
        }
        ValidationErrorKind::Pattern { pattern } => Violation::new(
            path,
            keyword,
            format!("a string matching the pattern {}", render::quote(pattern)),
            found,
        ),
        ValidationErrorKind::Format { format } => {
            Violation::new(path, keyword, format!("a valid {format}"), found)
        }
        ValidationErrorKind::Enum { options } => {
            Violation::new(path, keyword, one_of(options), found)
        }
        ValidationErrorKind::Constant { expected_value } => Violation::new(
            path,
            keyword,
            format!("exactly {}", render::value(expected_value)),
            found,
        ),
        ValidationErrorKind::Minimum { limit } => {
            Violation::new(path, keyword, format!("a number >= {limit}"), found)
        }
        ValidationErrorKind::Maximum { limit } => {
            Violation::new(path, keyword, format!("a number <= {limit}"), found)
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            Violation::new(path, keyword, format!("a number > {limit}"), found)
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            Violation::new(path, keyword, format!("a number < {limit}"), found)
        }
        ValidationErrorKind::MultipleOf { multiple_of } => {
            Violation::new(path, keyword, format!("a multiple of {multiple_of}"), found)
        }
        ValidationErrorKind::MinItems { limit } => {
            Violation::new(path, keyword, format!("at least {limit} items"), found)
        }
        ValidationErrorKind::MaxItems { limit } => {
            Violation::new(path, keyword, format!("at most {limit} items"), found)
        }
        ValidationErrorKind::UniqueItems => Violation::new(
            path,
            keyword,
            "items that are all different".to_owned(),
            format!("duplicates in {}", render::value(instance)),
        ),
        ValidationErrorKind::MinProperties { limit } => {
            Violation::new(path, keyword, format!("at least {limit} properties"), found)
        }
        ValidationErrorKind::MaxProperties { limit } => {
            Violation::new(path, keyword, format!("at most {limit} properties"), found)
        }
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            let branches = root
                .pointer(schema_path)
                .and_then(Value::as_array)
                .map(|bs| {
                    bs.iter()
                        .take(6)
                        .map(|b| describe_schema(b, root, 0))
                        .collect::<Vec<_>>()
                        .join(" | ")
                });
            let expected = match branches {
                Some(b) => format!("one of: {b}"),
                None => format!("a value matching one alternative of `{keyword}`"),
            };
            Violation::new(path, keyword, expected, found)
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => Violation::new(
            path,
            keyword,
            "a value matching exactly one alternative of `oneOf`".to_owned(),
            format!("{found}, which matches several"),
        ),
        ValidationErrorKind::FalseSchema if schema_path.ends_with("/additionalProperties") => {
            // `additionalProperties: false` with no `properties` beside it comes back as one
            // error at the object; name every property that is not allowed.
            let declared = parent_schema(root, schema_path).and_then(|s| s.get("properties"));
            let patterns = parent_schema(root, schema_path)
                .is_some_and(|s| s.get("patternProperties").is_some());
            // With `patternProperties` the allowed names are patterns: do not guess.
            let object = instance_root
                .pointer(&path)
                .and_then(Value::as_object)
                .filter(|_| !patterns);
            let Some(object) = object else {
                out.push(Violation::new(
                    path,
                    keyword,
                    "no value here".to_owned(),
                    found,
                ));
                return;
            };
            for name in object.keys() {
                if declared.is_some_and(|d| d.get(name).is_some()) {
                    continue;
                }
                let quoted = render::quote(name);
                let mut v = Violation::new(
                    render::child(&path, name),
                    "additionalProperties",
                    "no other properties".to_owned(),
                    format!("property {quoted}"),
                );
                v.message = format!("property {quoted} is not allowed");
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            return;
        }
        ValidationErrorKind::FalseSchema => {
            Violation::new(path, keyword, "no value here".to_owned(), found)
        }
        _ => {
            let mut v = Violation::new(path, keyword, format!("`{keyword}` to hold"), found);
            v.message = render::cut_chars(&error.to_string(), 200);
            v
        }
    };
    out.push(v);
}

fn characters(n: usize) -> String {
    if n == 1 {
        "1 character".to_owned()
    } else {
        format!("{n} characters")
    }
}

/// `one of "a", "b", 3` (cut after 10 options).
fn one_of(options: &Value) -> String {
    match options.as_array() {
        Some(items) => {
            let mut parts: Vec<String> = items.iter().take(10).map(render::value).collect();
            if items.len() > 10 {
                parts.push("…".to_owned());
            }
            format!("one of {}", parts.join(", "))
        }
        None => format!("one of {}", render::value(options)),
    }
}

/// A schema in a few words (`string`, `integer`, `"a" | "b"`, `object`, `Pet`).
pub(crate) fn describe_schema(schema: &Value, root: &Value, depth: usize) -> String {
    let Some(obj) = schema.as_object() else {
        return match schema {
            Value::Bool(true) => "anything".to_owned(),
            Value::Bool(false) => "nothing".to_owned(),
            _ => "a value".to_owned(),
        };
    };
    if let Some(c) = obj.get("const") {
        return render::value(c);
    }
    if let Some(Value::Array(options)) = obj.get("enum") {
        let parts: Vec<String> = options.iter().take(6).map(render::value).collect();
        let more = if options.len() > 6 { " | …" } else { "" };
        return format!("{}{more}", parts.join(" | "));
    }
    match obj.get("type") {
        Some(Value::String(t)) => {
            if t == "array" {
                if let Some(items) = obj.get("items").filter(|i| i.is_object()) {
                    if depth < 2 {
                        return format!("array of {}", describe_schema(items, root, depth + 1));
                    }
                }
            }
            if let Some(f) = obj.get("format").and_then(Value::as_str) {
                return format!("{t} ({f})");
            }
            return t.clone();
        }
        Some(Value::Array(ts)) => {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            return names.join(" or ");
        }
        _ => {}
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r);
        if depth < 2 {
            if let Some(target) = r.strip_prefix('#').and_then(|p| root.pointer(p)) {
                let inner = describe_schema(target, root, depth + 1);
                if inner != "a value" {
                    return if name.is_empty() || name == inner {
                        inner
                    } else {
                        format!("{name} ({inner})")
                    };
                }
            }
        }
        return if name.is_empty() {
            "a value".to_owned()
        } else {
            name.to_owned()
        };
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = obj.get(key) {
            if depth < 2 {
                let parts: Vec<String> = bs
                    .iter()
                    .take(6)
                    .map(|b| describe_schema(b, root, depth + 1))
                    .collect();
                return parts.join(" | ");
            }
        }
    }
    if obj.contains_key("properties") {
        return "object".to_owned();
    }
    if obj.contains_key("items") {
        return "array".to_owned();
    }
    "a value".to_owned()
}
