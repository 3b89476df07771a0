//! What the stream tests (and the stream fuzz target, which includes this file) share.

use jsonheal::{DuplicateKeys, Options, RepairKind};
use serde_json::Value;

/// The final value every snapshot of a stream of `text` must agree with, or `None` where a
/// documented limit of the stream applies (see the module docs of `jsonheal::stream`):
/// several top-level values, a `[` lost before a member's value, a repeated key (the
/// engine keeps the last value where the stream froze on the first), a fence (one after
/// the streamed root may hold the answer the engine prefers), and a bare key first with a
/// stray `}` last (`Result: [1, 2]}`: an object that lost its `{`, after the stream showed
/// the array), and a JSON string holding an escaped document as the answer (`"a": "x"
/// "{\"b\": 1}"`: after the stream showed a document that lost its `{`).
#[allow(dead_code)]
pub fn final_within_limits(text: &str) -> Option<Value> {
    let r = jsonheal::repair(text).ok()?;
    let strict_keys = Options {
        duplicate_keys: DuplicateKeys::Error,
        ..Options::default()
    };
    let kinds = || r.repairs.iter().map(|x| x.kind());
    let limit = kinds().any(|k| {
        matches!(
            k,
            RepairKind::MultipleValues | RepairKind::MissingArrayOpener
        )
    }) || jsonheal::repair_with(text, &strict_keys).is_err()
        || text.contains("```")
        || text.contains("~~~")
        || (text
            .trim_start()
            .starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$' || !c.is_ascii())
            && kinds().any(|k| k == RepairKind::MissingOpener))
        || (matches!(r.value(), Ok(Value::String(_)))
            && kinds().any(|k| k == RepairKind::StrippedProse)
            && text.contains("\\\"")
            && (text.contains("\"{") || text.contains("\"[")));
    if limit {
        return None;
    }
    r.value().ok()
}

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
