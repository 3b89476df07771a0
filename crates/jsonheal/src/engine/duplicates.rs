//! Duplicate keys, when `DuplicateKeys` asks for more than keeping them: a second pass over
//! the repaired text that drops the members a policy does not keep.
//!
//! The pass works on the text, not on a `serde_json::Value`: it finds each object's repeated
//! keys, cuts the members that lose, and copies every other lexeme as written. So numbers
//! keep their text (`1e2`, integers past 2^64) and strings their escapes whether or not
//! serde_json's `arbitrary_precision` is on, and no depth limit applies: the pass keeps its
//! own stack.

use std::collections::HashMap;
use std::ops::Range;

use super::{DuplicateKeys, Options, Repair, RepairKind, Repaired};
use crate::error::{Error, ErrorKind};

pub(super) fn apply(repaired: Repaired, input: &str, options: &Options) -> Result<Repaired, Error> {
    let policy = options.duplicate_keys;
    if policy == DuplicateKeys::Keep {
        return Ok(repaired);
    }
    let Found { dups, cuts } = find(&repaired.text, policy)?;
    if dups.is_empty() {
        return Ok(repaired);
    }
    if policy == DuplicateKeys::Error {
        let first = dups.into_iter().next().unwrap_or_default();
        return Err(Error::new(ErrorKind::DuplicateKey(first)));
    }
    let text = crate::format::compact(&without(&repaired.text, cuts));
    let mut repairs = repaired.repairs;
    // The pass reads the repaired text, not the input: the span is the whole input.
    repairs.extend(
        dups.iter()
            .map(|_| Repair::new(RepairKind::DuplicateKey, 0..input.len())),
    );
    Ok(Repaired { text, repairs })
}

/// The repeated keys, in the order their second occurrences end (a repeat inside a member's
/// value comes before the member's own), and the byte ranges of the members that lose.
struct Found {
    dups: Vec<String>,
    cuts: Vec<Range<usize>>,
}

/// A member seen in an open object.
#[derive(Clone, Copy)]
struct Member {
    /// Where its key's quote is.
    start: usize,
    /// Where the next member begins (after the comma that follows it and the layout after
    /// that); `None` until that comma is read.
    next: Option<usize>,
}

/// An open container of the pass.
enum Frame {
    Array,
    Object {
        /// Each key kept so far (decoded) and the member that holds it.
        seen: HashMap<String, Member>,
        /// The key read and not yet followed by its value: decoded, and where it starts.
        key: Option<(String, usize)>,
        /// The comma before the member being read.
        comma: Option<usize>,
        /// The key of the member completed last, whose `next` the next comma sets.
        last: Option<String>,
    },
}

fn find(text: &str, policy: DuplicateKeys) -> Result<Found, Error> {
    let b = text.as_bytes();
    let mut found = Found {
        dups: Vec::new(),
        cuts: Vec::new(),
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b':' => i += 1,
            b'{' => {
                stack.push(Frame::Object {
                    seen: HashMap::new(),
                    key: None,
                    comma: None,
                    last: None,
                });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Array);
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
                value_ended(&mut stack, i, policy, &mut found);
            }
            b',' => {
                let after = skip_layout(b, i + 1);
                if let Some(Frame::Object {
                    seen, comma, last, ..
                }) = stack.last_mut()
                {
                    *comma = Some(i);
                    if let Some(member) = last.take().and_then(|k| seen.get_mut(&k)) {
                        member.next = Some(after);
                    }
                }
                i = after;
            }
            b'"' => {
                let end = crate::format::string_end(b, i);
                match stack.last_mut() {
                    Some(Frame::Object {
                        key: key @ None, ..
                    }) => {
                        *key = Some((decoded(text, i..end)?, i));
                    }
                    _ => value_ended(&mut stack, end, policy, &mut found),
                }
                i = end;
            }
            _ => {
                let end = crate::format::lexeme_end(b, i).max(i + 1);
                value_ended(&mut stack, end, policy, &mut found);
                i = end;
            }
        }
    }
    Ok(found)
}

/// A value ending at `end` completes the member of the object around it, if any: keep it,
/// or cut it or the earlier member with its key, as the policy says.
fn value_ended(stack: &mut [Frame], end: usize, policy: DuplicateKeys, found: &mut Found) {
    let Some(Frame::Object {
        seen,
        key,
        comma,
        last,
    }) = stack.last_mut()
    else {
        return;
    };
    let Some((name, start)) = key.take() else {
        return;
    };
    let member = Member { start, next: None };
    match seen.get(&name).copied() {
        None => {
            seen.insert(name.clone(), member);
            *last = Some(name);
        }
        Some(earlier) => {
            found.dups.push(name.clone());
            match policy {
                // A later member has a comma before it: cut from there to its value's end.
                DuplicateKeys::First => {
                    found.cuts.push(comma.unwrap_or(start)..end);
                }
                // An earlier member has a comma after it: cut it up to the next member.
                _ => {
                    found
                        .cuts
                        .push(earlier.start..earlier.next.unwrap_or(start));
                    seen.insert(name.clone(), member);
                    *last = Some(name);
                }
            }
        }
    }
}

/// The text of a key: its quotes' contents, decoded when it holds an escape.
fn decoded(text: &str, quoted: Range<usize>) -> Result<String, Error> {
    let raw = text.get(quoted).unwrap_or_default();
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains('\\') {
        return Ok(inner.to_owned());
    }
    serde_json::from_str(raw).map_err(|e| {
        Error::new(ErrorKind::Internal(format!(
            "re-reading a key of the repaired text: {e}"
        )))
    })
}

fn skip_layout(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// `text` without the byte ranges `cuts` (which may nest: a cut member can hold cut
/// members of its own).
fn without(text: &str, mut cuts: Vec<Range<usize>>) -> String {
    cuts.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for cut in cuts {
        if cut.end <= at {
            continue;
        }
        // Cuts begin at ASCII bytes (a quote or a comma) and end after one: char boundaries.
        out.push_str(text.get(at..cut.start.max(at)).unwrap_or_default());
        at = cut.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dedup(text: &str, policy: DuplicateKeys) -> (String, Vec<String>) {
        let found = find(text, policy).expect("valid JSON");
        (
            crate::format::compact(&without(text, found.cuts)),
            found.dups,
        )
    }

    #[test]
    fn first_and_last_keep_their_member_where_serde_json_would() {
        let text = r#"{"a": 1, "b": 2, "a": 3}"#;
        assert_eq!(dedup(text, DuplicateKeys::First).0, r#"{"a":1,"b":2}"#);
        assert_eq!(dedup(text, DuplicateKeys::Last).0, r#"{"b":2,"a":3}"#);
        let runs = r#"{"a":1,"a":2,"a":3,"b":[{"c":1,"c":{"c":2,"c":3}}]}"#;
        assert_eq!(
            dedup(runs, DuplicateKeys::First),
            (
                r#"{"a":1,"b":[{"c":1}]}"#.to_owned(),
                vec!["a".into(), "a".into(), "c".into(), "c".into()]
            )
        );
        assert_eq!(
            dedup(runs, DuplicateKeys::Last).0,
            r#"{"a":3,"b":[{"c":{"c":3}}]}"#
        );
    }

    #[test]
    fn numbers_and_escapes_stay_as_written() {
        let text = r#"{"n": 1e2, "\u0061": "caf\u00e9", "a": 123456789012345678901234567890}"#;
        let (first, dups) = dedup(text, DuplicateKeys::First);
        assert_eq!(first, r#"{"n":1e2,"\u0061":"caf\u00e9"}"#);
        assert_eq!(dups, vec!["a".to_owned()]);
        assert_eq!(
            dedup(text, DuplicateKeys::Last).0,
            r#"{"n":1e2,"a":123456789012345678901234567890}"#
        );
    }

    #[test]
    fn a_repeat_inside_a_value_is_counted_before_its_member() {
        let text = r#"{"a": {"b": 1, "b": 2}, "a": 3}"#;
        assert_eq!(dedup(text, DuplicateKeys::Last).1, vec!["b", "a"]);
    }

    #[test]
    fn deep_documents_need_no_recursion() {
        let depth = 100_000;
        let text = format!(
            "{}{{\"k\":1,\"k\":2}}{}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let (first, dups) = dedup(&text, DuplicateKeys::First);
        assert_eq!(dups, vec!["k"]);
        assert!(first.contains(r#"{"k":1}"#));
    }
}
