//! Any bytes through `jsonheal::stream::Repairer`, cut into pieces whose sizes the first byte
//! picks (so UTF-8 characters, escapes and literals split anywhere): no panic; after every
//! push the drained events rebuild the snapshot exactly and the snapshot never goes back on
//! an earlier one; `finish` equals one-shot `repair` of the whole text; and, outside the
//! documented limits (several top-level values, a later fenced value, a `[` lost before a
//! member's value, duplicate keys, a bare key first and a stray `}` last), every snapshot is
//! consistent with the final value.

#![no_main]

use jsonheal::stream::{Op, Repairer};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[path = "../../crates/jsonheal/tests/common/mod.rs"]
mod common;

use common::{consistent, final_within_limits};

/// Apply one event the way a UI patches its copy; `false` when it has no place.
fn apply(doc: &mut Option<Value>, path: &str, op: Op) -> bool {
    if path.is_empty() {
        return match (op, doc.as_mut()) {
            (Op::Set(v), _) => {
                *doc = Some(v);
                true
            }
            (Op::Append(s), Some(Value::String(t))) => {
                t.push_str(&s);
                true
            }
            _ => false,
        };
    }
    let Some(root) = doc.as_mut() else {
        return false;
    };
    match op {
        Op::Append(s) => match root.pointer_mut(path) {
            Some(Value::String(t)) => {
                t.push_str(&s);
                true
            }
            _ => false,
        },
        Op::Set(v) => {
            let Some((parent, last)) = path.rsplit_once('/') else {
                return false;
            };
            let key = last.replace("~1", "/").replace("~0", "~");
            match root.pointer_mut(parent) {
                Some(Value::Object(m)) => m.insert(key, v).is_none(),
                Some(Value::Array(a)) if key == a.len().to_string() => {
                    a.push(v);
                    true
                }
                _ => false,
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    // Piece sizes 1..=16, varied by position; or up to 256 (`pick` odd), so that whole
    // containers arrive in one piece.
    let largest = if pick % 2 == 1 { 256 } else { 16 };
    let size = |k: usize| 1 + (usize::from(pick) + k * 7) % largest;
    let text = String::from_utf8_lossy(bytes).into_owned();
    let result = jsonheal::repair(&text);
    let fin = final_within_limits(&text);

    let mut r = Repairer::new();
    let mut patched: Option<Value> = None;
    let mut previous: Option<Value> = None;
    let (mut at, mut k) = (0, 0);
    while at < bytes.len() {
        let end = (at + size(k)).min(bytes.len());
        k += 1;
        r.push_bytes(&bytes[at..end]);
        at = end;
        let snap = r.snapshot();
        for e in r.events() {
            let e = e.to_event();
            assert!(
                apply(&mut patched, &e.path, e.op),
                "event with no place at {at}: {text:?}"
            );
        }
        assert_eq!(
            patched, snap,
            "events disagree with the snapshot at {at}: {text:?}"
        );
        if let Some(p) = &previous {
            let s = snap.as_ref().expect("a snapshot never goes back to None");
            assert!(
                consistent(p, s),
                "snapshot went backwards at {at}: {text:?}\n{p}\n{s}"
            );
        }
        if let (Some(s), Some(f)) = (&snap, &fin) {
            assert!(
                consistent(s, f),
                "snapshot contradicts the final value at {at}: {text:?}\n{s}\n{f}"
            );
        }
        previous = snap;
    }
    assert_eq!(r.finish(), result, "finish differs from repair: {text:?}");
});
