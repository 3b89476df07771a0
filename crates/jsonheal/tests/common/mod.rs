//! What the stream tests (and the stream fuzz target, which includes this file) share: the
//! consistency checker, the documented limits of the stream, and the feeder that checks every
//! snapshot; `both` runs a table case through the engine and the stream.

pub mod both;

use jsonheal::stream::{Event, Op, Repairer};
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

/// Whether snapshot `s` says nothing the later value `f` contradicts (see [`consistency`]).
#[allow(dead_code)]
pub fn consistent(s: &Value, f: &Value) -> bool {
    consistency(s, f).is_ok()
}

/// Whether `snapshot` says nothing that `fin` contradicts: every string is a prefix of the
/// final one, every scalar equals the final one, every key is present (in the same order),
/// every array is no longer than the final one. The error names the first contradiction.
pub fn consistency(snapshot: &Value, fin: &Value) -> Result<(), String> {
    fn walk(s: &Value, f: &Value, at: &str) -> Result<(), String> {
        match (s, f) {
            (Value::String(a), Value::String(b)) if b.starts_with(a.as_str()) => Ok(()),
            (Value::Array(a), Value::Array(b)) if a.len() <= b.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    walk(x, y, &format!("{at}/{i}"))?;
                }
                Ok(())
            }
            (Value::Object(a), Value::Object(b)) => {
                let mut last = None;
                for (k, x) in a {
                    let Some(idx) = b.keys().position(|x| x == k) else {
                        return Err(format!("{at}: key {k:?} is not in the final value"));
                    };
                    if last.is_some_and(|l| idx < l) {
                        return Err(format!("{at}: key {k:?} is out of order"));
                    }
                    last = Some(idx);
                    walk(x, &b[k], &format!("{at}/{k}"))?;
                }
                Ok(())
            }
            (a, b) if a == b => Ok(()),
            (a, b) => Err(format!("{at}: snapshot has {a}, final has {b}")),
        }
    }
    walk(snapshot, fin, "")
}

/// Apply events to a value the way a UI would patch its copy.
#[allow(dead_code)]
pub fn apply(doc: &mut Option<Value>, event: &Event) -> Result<(), String> {
    if event.path.is_empty() {
        match &event.op {
            Op::Set(v) => *doc = Some(v.clone()),
            Op::Append(s) => match doc {
                Some(Value::String(t)) => t.push_str(s),
                _ => return Err("append to a root that is not a string".into()),
            },
        }
        return Ok(());
    }
    let root = doc.as_mut().ok_or("event before the root")?;
    match &event.op {
        Op::Append(s) => match root.pointer_mut(&event.path) {
            Some(Value::String(t)) => t.push_str(s),
            _ => return Err(format!("append to {} which is not a string", event.path)),
        },
        Op::Set(v) => {
            let (parent, last) = event.path.rsplit_once('/').ok_or("bad pointer")?;
            let key = last.replace("~1", "/").replace("~0", "~");
            match root.pointer_mut(parent) {
                Some(Value::Object(m)) => {
                    if m.insert(key, v.clone()).is_some() {
                        return Err(format!("{} set twice", event.path));
                    }
                }
                Some(Value::Array(a)) if key == a.len().to_string() => a.push(v.clone()),
                _ => return Err(format!("no place for {}", event.path)),
            }
        }
    }
    Ok(())
}

/// Feed `text` to `r` in the pieces that end at `cuts` (byte offsets, so a UTF-8 character
/// may split; the text's end is the last cut) and check after each push: the events drained
/// so far rebuild the snapshot exactly, the snapshot never goes back on the previous one, it
/// changes only with `revision()`, and it is consistent with `fin` when that is known. The
/// error names the text, the byte reached and what went wrong.
#[allow(dead_code)]
pub fn feed(
    r: &mut Repairer,
    name: &str,
    text: &str,
    cuts: &[usize],
    fin: Option<&Value>,
) -> Result<(), String> {
    feed_checking(r, name, text, cuts, fin, true)
}

/// [`feed`], or for large corpora (`every_push` false) checking only after the pushes that
/// moved `revision()`: a snapshot per push would make them several times slower.
#[allow(dead_code)]
pub fn feed_checking(
    r: &mut Repairer,
    name: &str,
    text: &str,
    cuts: &[usize],
    fin: Option<&Value>,
    every_push: bool,
) -> Result<(), String> {
    let mut patched: Option<Value> = None;
    let mut previous: Option<Value> = None;
    let mut revision = r.revision();
    let bytes = text.as_bytes();
    let mut start = 0;
    for &end in cuts.iter().chain(std::iter::once(&bytes.len())) {
        let end = end.clamp(start, bytes.len());
        r.push_bytes(&bytes[start..end]);
        start = end;
        if !every_push && r.revision() == revision {
            continue;
        }
        let at = |m: String| format!("{name}: after {end} bytes ({:?}): {m}", prefix(text, end));
        let snap = r.snapshot();
        for e in r.events() {
            apply(&mut patched, &e.to_event()).map_err(at)?;
        }
        if patched != snap {
            return Err(at(format!(
                "the events rebuild {patched:?}, the snapshot is {snap:?}"
            )));
        }
        if r.revision() == revision && snap != previous {
            return Err(at("the snapshot changed, the revision did not".into()));
        }
        revision = r.revision();
        if let (Some(s), Some(f)) = (&snap, fin) {
            consistency(s, f).map_err(at)?;
        }
        if let Some(p) = &previous {
            let Some(s) = &snap else {
                return Err(at("the snapshot went back to none".into()));
            };
            consistency(p, s).map_err(|m| at(format!("the snapshot went backwards: {m}")))?;
        }
        previous = snap;
    }
    Ok(())
}

/// The longest prefix of `text` no longer than `end` bytes that ends on a char boundary.
fn prefix(text: &str, end: usize) -> &str {
    let mut i = end.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    &text[..i]
}
