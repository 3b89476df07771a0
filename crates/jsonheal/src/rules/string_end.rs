//! Whether a quote ends its string, as judged from what follows it.

use crate::text::{is_ws, quoted_end, Quote, KEY_LIKE_LEN, LOOKAHEAD};

/// Whether a `'` that ends right before `after`, inside a string a straight `"` opened,
/// closes it (`"Build passed', "ms": 3}`): after it (spaces aside) come the closer of what
/// holds the string (an object if `object`) and then the text's end, a separator or a
/// closer; or a comma and then, in an object, a whole key (`"word":`), in an array a
/// straight `"`. Code keeps its quotes (`print('a', 'b')`, `{'a': 'b'}`). The engine and the
/// stream share it: `complete` says `b` is the whole text; otherwise `None` when `b` ends
/// too soon to tell.
pub(crate) fn apostrophe_closes(
    b: &[u8],
    after: usize,
    object: bool,
    complete: bool,
) -> Option<bool> {
    let undecided = if complete { Some(false) } else { None };
    let skip = |mut k: usize| {
        while k < b.len() && is_ws(b[k]) {
            k += 1;
        }
        k
    };
    let j = skip(after);
    let Some(&c) = b.get(j) else {
        return undecided;
    };
    match c {
        b'}' | b']' => {
            if c != if object { b'}' } else { b']' } {
                return Some(false);
            }
            closers_then_next(b, j, complete)
        }
        b',' => {
            let k = skip(j + 1);
            let Some(&n) = b.get(k) else {
                return undecided;
            };
            if n != b'"' {
                return Some(false);
            }
            if !object {
                // A whole element: a string closed on its line with no closer in it, then
                // a separator, a closer or the end. Valid JSON does not read so
                // (`["it',"]` keeps its `',`), and the stream can tell soon.
                let mut e = k + 1;
                loop {
                    if e >= k + LOOKAHEAD {
                        return Some(false);
                    }
                    match b.get(e) {
                        None => return undecided,
                        Some(b'\\') => e += 2,
                        Some(b'\n' | b']' | b'}') => return Some(false),
                        Some(b'"') => break,
                        Some(_) => e += 1,
                    }
                }
                return match b.get(skip(e + 1)) {
                    None if complete => Some(true),
                    None => None,
                    Some(&c) => Some(matches!(c, b',' | b']')),
                };
            }
            // A whole key: a word as short as keys are, its closing quote, a colon.
            let body = &b[k + 1..];
            let limit = body.len().min(KEY_LIKE_LEN + 1);
            match body[..limit]
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
            {
                None if limit == body.len() && limit <= KEY_LIKE_LEN => undecided,
                Some(e) if body[e] == b'"' && e > 0 => match b.get(skip(k + 2 + e)) {
                    None => undecided,
                    Some(&c) => Some(c == b':'),
                },
                _ => Some(false),
            }
        }
        _ => Some(false),
    }
}

/// Whether the run of closers (and layout) at `b[j..]` goes on as JSON does after a value:
/// a comma, then a quote or an opener. Code does not (`'json' } });`), and neither does the
/// text's end: `["it']` may be a string cut off there, which is reported as truncated.
/// `None` when `b` ends too soon to tell and more may come (`complete` false).
pub(crate) fn closers_then_next(b: &[u8], j: usize, complete: bool) -> Option<bool> {
    let mut k = j;
    while k < b.len() && (is_ws(b[k]) || matches!(b[k], b'}' | b']')) {
        k += 1;
    }
    match b.get(k) {
        None if complete => Some(false),
        None => None,
        Some(b',') => {
            k += 1;
            while k < b.len() && is_ws(b[k]) {
                k += 1;
            }
            match b.get(k) {
                None if complete => Some(false),
                None => None,
                Some(&c) => Some(matches!(c, b'"' | b'{' | b'[')),
            }
        }
        Some(_) => Some(false),
    }
}

/// Whether `b[i..]` is, spaces aside, a separator that goes on as after a string's end: a
/// `,` then a space or line break, or a closer then a `,`, a closer or the text's end
/// (`version:", "done"` ends a string; `"}A"` and `","` are values). The engine and the
/// stream share it: `complete` says `b` is the whole text; otherwise `None` when `b` ends
/// too soon to tell.
pub(crate) fn separator_after_quote(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let mut s = i;
    while matches!(*b.get(s)?, b' ' | b'\t' | b'\r' | b'\n') {
        s += 1;
    }
    match b[s] {
        b',' => Some(matches!(*b.get(s + 1)?, b' ' | b'\t' | b'\r' | b'\n')),
        b'}' | b']' => {
            let mut t = s + 1;
            loop {
                match b.get(t) {
                    None => return complete.then_some(true),
                    Some(b' ' | b'\t' | b'\r' | b'\n') => t += 1,
                    Some(&c) => return Some(matches!(c, b',' | b'}' | b']')),
                }
            }
        }
        _ => Some(false),
    }
}

/// Whether the double-quoted string that opens at `b[v]` closes on its line and, spaces
/// aside, a `,`, a `}` or the text's end follows it: a whole member value (`b: ", "}`).
/// The engine and the stream share it: `complete` says `b` is the whole text; otherwise
/// `None` while `b` ends too soon to tell.
pub(crate) fn member_value_string_at(b: &[u8], v: usize, complete: bool) -> Option<bool> {
    let after = match quoted_end(b, b.len(), v, Quote::Double, LOOKAHEAD) {
        Ok(Some(after)) => after,
        Ok(None) => return Some(false),
        Err(()) => return complete.then_some(false),
    };
    let limit = after + LOOKAHEAD;
    let mut n = after;
    while n < limit && b.get(n).copied().is_some_and(is_ws) {
        n += 1;
    }
    match b.get(n) {
        _ if n >= limit => Some(false),
        None => complete.then_some(true),
        Some(&c) => Some(matches!(c, b',' | b'}')),
    }
}

pub(crate) fn quote_then_separator(b: &[u8], i: usize) -> bool {
    separator_after_quote(b, i, true) == Some(true)
}

/// Whether a double quote on the line from `b[k]` can end a string: spaces aside, a `,`
/// `}` `]` or the text's end follows it (with `to_end`, only spaces and closers up to the
/// text's end). `complete`: `b` is the whole text; otherwise `None` while the line goes on
/// past `b` (a stream waits for more).
pub(crate) fn string_end_on_line(b: &[u8], k: usize, to_end: bool, complete: bool) -> Option<bool> {
    string_end_ahead(b, k, to_end, false, complete)
}

/// `string_end_on_line`, past line breaks too when `lines`.
pub(crate) fn string_end_ahead(
    b: &[u8],
    k: usize,
    to_end: bool,
    lines: bool,
    complete: bool,
) -> Option<bool> {
    let limit = k + LOOKAHEAD;
    let mut i = k;
    while i < limit {
        let Some(&c) = b.get(i) else {
            return complete.then_some(false);
        };
        match c {
            b'\\' => i += 1,
            b'\n' if !lines => return Some(false),
            b'"' => {
                let mut m = i + 1;
                loop {
                    match b.get(m) {
                        None => return if complete { Some(true) } else { None },
                        Some(b' ' | b'\t' | b'\r' | b'\n') => m += 1,
                        Some(b'}' | b']') if to_end => m += 1,
                        Some(b',' | b'}' | b']') if !to_end => return Some(true),
                        Some(_) => break,
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(false)
}

/// `if [[ -f "$f" ]]; then`, `"a "b" } c"`: after a string's quote at `b[j]` come closers,
/// then a word. The closers are string content when a quote later on the line (or further
/// on, for closers the open containers do not take) can end the string. `open` lists the closers the open containers take,
/// innermost first: when the closers close them all, the quote must end the text too, for
/// prose after a document quotes words as well. `None`: more text is needed to tell.
pub(crate) fn words_after_closers(
    b: &[u8],
    j: usize,
    mut open: impl Iterator<Item = u8>,
    complete: bool,
) -> Option<bool> {
    let mut k = j;
    let mut closes_all = true;
    let mut depth_left = true;
    loop {
        match b.get(k) {
            None => return complete.then_some(false),
            Some(b' ' | b'\t') => {}
            Some(&c @ (b'}' | b']')) => match open.next() {
                Some(want) if want == c => {}
                Some(_) => closes_all = false,
                None => depth_left = false,
            },
            Some(_) => break,
        }
        k += 1;
    }
    let word = b[k].is_ascii_alphanumeric()
        || b[k] >= 0x80
        || matches!(
            b[k],
            b'$' | b'-' | b'_' | b'.' | b';' | b'&' | b'|' | b'!' | b'<' | b'>' | b'='
        );
    if !word || k == j {
        return Some(false);
    }
    let root = closes_all && (!depth_left || open.next().is_none());
    // Closers of the wrong kind cannot be the document's: the string's end may be some
    // lines on (`if [[ -f "$f" ]]; then` in a script written with raw line breaks).
    string_end_ahead(b, k, root, !closes_all, complete)
}
