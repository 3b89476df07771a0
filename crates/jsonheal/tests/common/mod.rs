//! What the stream tests (and the stream fuzz target, which includes this file) share.

use serde_json::Value;

/// Whether snapshot `s` says nothing the later value `f` contradicts: strings are prefixes,
/// scalars equal, keys present in the same order, arrays no longer.
pub fn consistent(s: &Value, f: &Value) -> bool {
    match (s, f) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| consistent(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            let mut last = 0;
            a.iter().all(|(k, x)| {
                let Some(idx) = b.keys().position(|y| y == k) else {
                    return false;
                };
                let ordered = idx >= last;
                last = idx;
                ordered && consistent(x, &b[k])
            })
        }
        (a, b) => a == b,
    }
}
