//! Short, safe renderings of values and paths for messages that go back to a model.

use serde_json::Value;

/// Longest rendering of one value in a message, in characters.
pub(crate) const MAX_VALUE_CHARS: usize = 60;

/// `text` cut to at most `max` characters, with `…` marking the cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// A string as a JSON string literal, cut first so an escape is never split.
pub(crate) fn quote(text: &str) -> String {
    let cut = cut_chars(text, MAX_VALUE_CHARS);
    serde_json::to_string(&cut).unwrap_or_else(|_| "\"?\"".to_owned())
}

/// A value in a few characters: scalars as JSON (cut), containers by size.
pub(crate) fn value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => cut_chars(&n.to_string(), MAX_VALUE_CHARS),
        Value::String(s) => quote(s),
        Value::Array(_) | Value::Object(_) if fits(v) => v.to_string(),
        Value::Array(items) => match items.len() {
            0 => "[]".to_owned(),
            1 => "an array of 1 item".to_owned(),
            n => format!("an array of {n} items"),
        },
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().take(4).map(|k| quote(k)).collect();
            let more = if map.len() > 4 { ", …" } else { "" };
            format!("an object with keys {}{more}", keys.join(", "))
        }
    }
}

/// Whether a container's compact JSON is short enough to show as it is.
fn fits(v: &Value) -> bool {
    // Counting in the serializer would stop early; containers this small are cheap anyway.
    let limit = MAX_VALUE_CHARS;
    let mut budget = limit;
    let mut stack = vec![v];
    while let Some(node) = stack.pop() {
        let cost = match node {
            Value::Array(items) => {
                stack.extend(items.iter());
                2 + items.len()
            }
            Value::Object(map) => {
                for (k, child) in map {
                    if k.len() + 3 > budget {
                        return false;
                    }
                    budget -= k.len() + 3;
                    stack.push(child);
                }
                2 + map.len()
            }
            Value::String(s) => s.len() + 2,
            Value::Number(n) => n.to_string().len(),
            Value::Bool(_) | Value::Null => 5,
        };
        if cost > budget {
            return false;
        }
        budget -= cost;
    }
    v.to_string().chars().count() <= limit
}

/// The JSON type name of a value (`integer` for a number without fraction or exponent).
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if is_integer(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value with its type, for "found …" (`string "42"`, `an object with keys "a"`).
pub(crate) fn found(v: &Value) -> String {
    match v {
        Value::Null | Value::Array(_) | Value::Object(_) => value(v),
        _ => format!("{} {}", type_name(v), value(v)),
    }
}

/// Whether a number is an integer in the JSON Schema sense (`1.0` counts, `1.5` does not).
pub(crate) fn is_integer(n: &serde_json::Number) -> bool {
    if n.is_i64() || n.is_u64() {
        return true;
    }
    let text = n.to_string();
    if !text.contains(['.', 'e', 'E']) {
        // Beyond 64 bits but written as an integer.
        return true;
    }
    n.as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Escape one JSON pointer segment (`~` → `~0`, `/` → `~1`).
pub(crate) fn escape_segment(segment: &str) -> String {
    if segment.contains(['~', '/']) {
        segment.replace('~', "~0").replace('/', "~1")
    } else {
        segment.to_owned()
    }
}

/// Append one escaped JSON pointer segment to `path` (without the `/`).
pub(crate) fn push_segment(path: &mut String, segment: &str) {
    if segment.contains(['~', '/']) {
        path.push_str(&escape_segment(segment));
    } else {
        path.push_str(segment);
    }
}

/// A JSON pointer with `/`-joined segments appended.
pub(crate) fn child(path: &str, segment: &str) -> String {
    let mut out = String::with_capacity(path.len() + segment.len() + 1);
    out.push_str(path);
    out.push('/');
    out.push_str(&escape_segment(segment));
    out
}

/// A JSON pointer for display: the root is `/`, not the empty string.
pub(crate) fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "/"
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cuts_on_char_boundaries() {
        assert_eq!(cut_chars("héllo", 2), "hé…");
        assert_eq!(cut_chars("hé", 2), "hé");
        let long = "\"".repeat(100);
        let q = quote(&long);
        assert!(q.ends_with("…\""), "{q}");
        assert!(serde_json::from_str::<String>(&q).is_ok());
    }

    #[test]
    fn renders_values_by_kind() {
        assert_eq!(found(&json!("42")), r#"string "42""#);
        assert_eq!(found(&json!(3.5)), "number 3.5");
        assert_eq!(found(&json!(3)), "integer 3");
        assert_eq!(found(&json!([1, 2])), "[1,2]");
        assert_eq!(found(&json!(vec![1234567; 20])), "an array of 20 items");
        assert_eq!(
            found(&json!({"alpha":"x".repeat(60),"b":2,"c":3,"d":4,"e":5})),
            r#"an object with keys "alpha", "b", "c", "d", …"#
        );
        assert_eq!(found(&json!({"a": [1, null]})), r#"{"a":[1,null]}"#);
        assert_eq!(child("/a", "x/y~"), "/a/x~1y~0");
    }

    #[test]
    fn integers_in_the_schema_sense() {
        for (text, want) in [("1", true), ("1.0", true), ("1.5", false), ("1e3", true)] {
            let n: serde_json::Number = serde_json::from_str(text).expect("number");
            assert_eq!(is_integer(&n), want, "{text}");
        }
        let big: serde_json::Number =
            serde_json::from_str("123456789012345678901234567890").expect("number");
        assert!(is_integer(&big));
    }
}
