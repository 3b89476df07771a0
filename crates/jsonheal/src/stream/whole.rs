//! The stream's lane for a container that has arrived whole.
//!
//! When an object or array opens and the text already holds all of it as strict JSON, the
//! general parser would make a node and an event for each value inside it, only to show
//! the complete container by the end of the push anyway. This scan finds such a container
//! at the speed of a validator; the stream then keeps it as one node holding its JSON text
//! and reports it in one event. The scan accepts only what the general parser would read
//! exactly as serde_json does: anything its repair rules look at twice (a `'` or a
//! typographic quote in a string, an escaped or non-ASCII key, a duplicate key, a lone
//! surrogate) sends the container down the general path, which decides as before.
//!
//! serde_json validates as fast, but it cannot say where a value ends without allocating
//! for every number (`arbitrary_precision`) and it does not see duplicate keys, so the scan
//! is its own.

use crate::text::{json_number_end, skip_ws, unicode_escape_len};

/// An object with more members than this is left to the general path (which keeps hashes
/// of wide objects' keys): the scan compares each key with its siblings.
const MAX_SCANNED_KEYS: usize = 32;

/// Reused between scans so that a scan allocates nothing.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// Byte ranges of the keys of the objects open in the scan, innermost last.
    keys: Vec<(usize, usize)>,
    /// The open containers: whether an object, and where its keys start in `keys`.
    open: Vec<(bool, usize)>,
}

/// A container the scan measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Whole {
    /// Its length in bytes.
    pub(super) len: usize,
    /// When its last value is a string and only closers (and spaces or tabs between them)
    /// follow that string to the container's end: where those closers start. Past the
    /// container, a quote or words may make them the string's content (the engine's
    /// `words_after_closers`), which the caller decides as the general path does.
    pub(super) closers_after_string: Option<usize>,
}

/// Where the scan is.
#[derive(Clone, Copy)]
enum At {
    Value,
    Key,
    After,
}

/// The length of the strict JSON container that `b` starts with (at its `{` or `[`), if
/// `b` holds all of it and nothing in it needs the stream's repair rules, with containers
/// nested at most `max_depth` deep. Otherwise `Err` with how far the scan got (its cost).
pub(super) fn container_len(b: &[u8], max_depth: usize, s: &mut Scratch) -> Result<Whole, usize> {
    s.keys.clear();
    s.open.clear();
    // Just past the closing quote of the last string value.
    let mut string_end = usize::MAX;
    let mut i = 0;
    let mut at = At::Value;
    loop {
        i = skip_ws(b, i);
        let Some(&c) = b.get(i) else {
            return Err(i);
        };
        match at {
            At::Value => {
                match c {
                    b'{' | b'[' => {
                        if s.open.len() >= max_depth {
                            return Err(i);
                        }
                        s.open.push((c == b'{', s.keys.len()));
                        i = skip_ws(b, i + 1);
                        match (c, b.get(i)) {
                            (b'{', Some(b'}')) | (b'[', Some(b']')) => {
                                s.open.pop();
                                i += 1;
                                if s.open.is_empty() {
                                    return Ok(whole(b, i, string_end));
                                }
                            }
                            (b'{', _) => {
                                at = At::Key;
                                continue;
                            }
                            _ => continue,
                        }
                    }
                    b'"' => {
                        i = string_value_end(b, i + 1).ok_or(i)?;
                        string_end = i;
                    }
                    b'-' | b'0'..=b'9' => i = json_number_end(b, i, b.len()).ok_or(i)?,
                    b't' if b.get(i..i + 4) == Some(b"true") => i += 4,
                    b'f' if b.get(i..i + 5) == Some(b"false") => i += 5,
                    b'n' if b.get(i..i + 4) == Some(b"null") => i += 4,
                    _ => return Err(i),
                }
                at = At::After;
            }
            At::Key => {
                if c != b'"' {
                    return Err(i);
                }
                let end = key_end(b, i + 1).ok_or(i)?;
                let key = (i + 1, end - 1);
                let first = s.open.last().map_or(0, |&(_, first)| first);
                let siblings = s.keys.get(first..).unwrap_or_default();
                if siblings.len() >= MAX_SCANNED_KEYS
                    || siblings
                        .iter()
                        .any(|&(a, z)| b.get(a..z) == b.get(key.0..key.1))
                {
                    return Err(i);
                }
                s.keys.push(key);
                i = skip_ws(b, end);
                if b.get(i) != Some(&b':') {
                    return Err(i);
                }
                i += 1;
                at = At::Value;
            }
            At::After => {
                let Some(&(object, first)) = s.open.last() else {
                    return Ok(whole(b, i, string_end));
                };
                match c {
                    b',' => {
                        i += 1;
                        at = if object { At::Key } else { At::Value };
                    }
                    b'}' if object => {
                        s.open.pop();
                        s.keys.truncate(first);
                        i += 1;
                    }
                    b']' if !object => {
                        s.open.pop();
                        i += 1;
                    }
                    _ => return Err(i),
                }
                if s.open.is_empty() {
                    return Ok(whole(b, i, string_end));
                }
            }
        }
    }
}

/// The container `b[..len]`, whose last string value ends at `string_end`.
fn whole(b: &[u8], len: usize, string_end: usize) -> Whole {
    let closers = b.get(string_end..len).and_then(|tail| {
        let at = string_end
            + tail
                .iter()
                .position(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))?;
        let run = b.get(at..len)?;
        run.iter()
            .all(|&c| matches!(c, b'}' | b']' | b' ' | b'\t'))
            .then_some(at)
    });
    Whole {
        len,
        closers_after_string: closers,
    }
}

/// Past the closing quote of a key whose content starts at `b[i]`: plain ASCII without
/// `\` or `'` (which the general path weighs as possible closing quotes or escapes).
fn key_end(b: &[u8], i: usize) -> Option<usize> {
    let rest = b.get(i..)?;
    let n = memchr::memchr(b'"', rest)?;
    let key = &rest[..n];
    key.iter()
        .all(|&c| (0x20..0x7F).contains(&c) && c != b'\\' && c != b'\'')
        .then_some(i + n + 1)
}

/// Past the closing quote of a string value whose content starts at `b[i]`, if the string
/// is strict JSON and holds no `'` and no typographic quote.
fn string_value_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i += super::bytes::plain_stop::<true>(b.get(i..)?)?;
        match b[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += escape_len(b.get(i..)?)?,
            // Any of U+2018–U+201F (`‘’‚‛“”„‟`) may close a string to the engine.
            0xE2 if b.get(i + 1) == Some(&0x80)
                && b.get(i + 2).is_some_and(|c| (0x98..=0x9F).contains(c)) =>
            {
                return None
            }
            0xE2 => i += 1,
            // A `'` or a raw control character.
            _ => return None,
        }
    }
}

/// The length of the strict escape at the start of `b` (at its `\`): a surrogate only as
/// half of a pair.
fn escape_len(b: &[u8]) -> Option<usize> {
    match *b.get(1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(2),
        b'u' => unicode_escape_len(b, 0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(text: &str) -> Result<usize, usize> {
        container_len(text.as_bytes(), 512, &mut Scratch::default()).map(|w| w.len)
    }

    #[test]
    fn whole_strict_containers_are_measured() {
        for (text, whole) in [
            ("{}", "{}"),
            ("[] , 1", "[]"),
            ("{\"a\": 1}, \"b\": 2}", "{\"a\": 1}"),
            (
                "[1, -2.5e3, true, false, null, \"x\", [], {}]]",
                "[1, -2.5e3, true, false, null, \"x\", [], {}]",
            ),
            (
                "{ \"a\" : [ {\"b\": \"c\\n\\u00e9\\ud83d\\ude00 – é\"} ] }\n",
                "{ \"a\" : [ {\"b\": \"c\\n\\u00e9\\ud83d\\ude00 – é\"} ] }",
            ),
            ("[[1], [2, [3]]]x", "[[1], [2, [3]]]"),
            (
                "{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}",
                "{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}",
            ),
        ] {
            let whole = whole.len();
            assert_eq!(len(text), Ok(whole), "{text}");
            assert!(serde_json::from_str::<serde_json::Value>(&text[..whole]).is_ok());
        }
    }

    #[test]
    fn what_needs_the_general_path_is_refused() {
        for text in [
            // Cut short: the rest has not arrived.
            "{\"a\": 1",
            "[\"ab",
            "[1, 2",
            "[tru",
            // Not strict JSON.
            "{'a': 1}",
            "{a: 1}",
            "[1, 2,]",
            "{\"a\": 1,}",
            "[01]",
            "[1.]",
            "[NaN]",
            "[truex]",
            "{\"a\" 1}",
            "[1 2]",
            "[\"a\tb\"]",
            "[\"a\nb\"]",
            "[\"\\x\"]",
            "[\"\\ud800\"]",
            "[\"\\ude00\"]",
            "[\"\\ud83d\\u0041\"]",
            "[1}",
            "{\"a\": 1]",
            // Read twice by the general path.
            "{\"a\": 1, \"a\": 2}",
            "[\"it's\"]",
            "[\"say “hi”\"]",
            "[\"‘a’\"]",
            "{\"it's\": 1}",
            "{\"caf\u{e9}\": 1}",
            "{\"a\\u0062\": 1}",
        ] {
            assert!(len(text).is_err(), "{text}");
        }
    }

    #[test]
    fn depth_and_width_have_limits() {
        let deep = "[".repeat(5) + &"]".repeat(5);
        let whole = container_len(deep.as_bytes(), 5, &mut Scratch::default());
        assert_eq!(whole.map(|w| w.len), Ok(10));
        assert!(container_len(deep.as_bytes(), 4, &mut Scratch::default()).is_err());
        let members = |n: usize| {
            let body: Vec<String> = (0..n).map(|k| format!("\"k{k}\": {k}")).collect();
            format!("{{{}}}", body.join(", "))
        };
        assert!(len(&members(MAX_SCANNED_KEYS)).is_ok());
        assert!(len(&members(MAX_SCANNED_KEYS + 1)).is_err());
    }

    #[test]
    fn closers_right_after_a_last_string_are_found() {
        for (text, at) in [
            ("[\"a\"]", Some(4)),
            ("{\"a\": [\"x\" ] }]", Some(11)),
            ("{\"a\": [\"x\"\n] }", Some(11)),
            ("{\"a\": [\"x\"],\"b\": 1}", None),
            ("{\"a\": [\"x\"]\n}", None),
            ("[\"x\", 1]", None),
            ("[1]", None),
            ("[{\"a\": \"b\"}, []]", None),
        ] {
            let whole = container_len(text.as_bytes(), 512, &mut Scratch::default());
            assert_eq!(whole.map(|w| w.closers_after_string), Ok(at), "{text}");
        }
    }

    #[test]
    fn a_failed_scan_reports_its_cost() {
        assert_eq!(len("[1, 2, "), Err(7));
        assert_eq!(len("{\"a\": 'x'}"), Err(6));
    }
}
