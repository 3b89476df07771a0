//! Document-level judgements: what at a position starts (or is not) the answer.

use crate::text::{is_ws, quote_at, quoted_end, LOOKAHEAD};

/// Whether the text's first bracket, at `b[start]`, opens an escaped document: an escaped
/// quote after it, or layout written as escapes (`{\n  \"a\": 1}`, `{\n"a": 1}`), which no
/// JSON has there. `None`: the text ends before that is decided (the stream waits).
pub(crate) fn escaped_document_at(b: &[u8], start: usize) -> Option<bool> {
    let mut i = start + 1;
    let mut escaped_layout = false;
    loop {
        match (b.get(i)?, b.get(i + 1)) {
            (b'{' | b'[' | b' ' | b'\t' | b'\n' | b'\r', _) => i += 1,
            (b'\\', Some(b'n' | b'r' | b't')) => {
                escaped_layout = true;
                i += 2;
            }
            (b'\\', None) => return None,
            _ => break,
        }
    }
    let escaped_quote = b[i] == b'\\' && b.get(i + 1) == Some(&b'"');
    Some(escaped_quote || (escaped_layout && b[i] != b'\\'))
}

/// Whether the text starting at `i` with a quote is a document that lost its `{` to the
/// engine (`"name": "Ada", "age": 36}`): a quoted key, then a `:` (see `bare_document`);
/// `None` while `b`, a prefix of the text, cannot tell. Only for a text or a fence whose
/// first token is at `i`.
pub(crate) fn lost_brace_key_at(b: &[u8], i: usize) -> Option<bool> {
    let q = quote_at(b, i)?;
    let Some(after) = quoted_end(b, b.len(), i, q, LOOKAHEAD).ok()? else {
        return Some(false);
    };
    let k = after
        + b.get(after..)?
            .iter()
            .take(LOOKAHEAD)
            .take_while(|&&c| is_ws(c))
            .count();
    if k - after >= LOOKAHEAD {
        // (Read again on every push while undecided: bounded, so the stream stays linear;
        // so much layout after a first string is no document to stream.)
        return Some(false);
    }
    Some(*b.get(k)? == b':')
}

/// Whether the `[` at `b[i]` starts a citation (`[1]`, `[12][13]`): one unsigned integer of
/// up to three digits. In prose before the first value, after words on its line, it is no
/// answer. `None` when `b`
/// ends too soon to tell and is not `complete` (a stream waits). Shared by the engine and
/// the stream.
pub(crate) fn citation_at(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let digits = b
        .get(i + 1..)
        .unwrap_or_default()
        .iter()
        .take(4)
        .take_while(|c| c.is_ascii_digit())
        .count();
    match b.get(i + 1 + digits) {
        None if !complete && digits < 4 => None,
        next => Some((1..=3).contains(&digits) && next == Some(&b']')),
    }
}

/// Whether the `[` at `b[i]` is a Markdown task box (`- [ ] write tests`): `[ ]` right
/// after a list marker. `None` when `b` ends too soon to tell and is not `complete`.
pub(crate) fn task_box_at(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let line_start = b[..i]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |n| n + 1);
    if !matches!(b[line_start..i].trim_ascii(), b"-" | b"*" | b"+") {
        return Some(false);
    }
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b' '), Some(b']')) => Some(true),
        (Some(b' '), None) | (None, _) if !complete => None,
        _ => Some(false),
    }
}

/// A chat template's control token at `b[i]` (its `[`): `[TOOL_CALLS]`, `[ARGS]`, `[INST]`,
/// `[/INST]`: capitals, digits and `_` in brackets, with more text after it (alone, `[ABC]`
/// is an array holding a word). `Some(Some(len))` when it is one, `Some(None)` when not;
/// `None` when `b` ends too soon to tell and is not `complete` (a stream waits). The engine
/// and the stream skip it as prose.
pub(crate) fn control_token(b: &[u8], i: usize, complete: bool) -> Option<Option<usize>> {
    const MAX: usize = 40;
    let undecided = if complete { Some(None) } else { None };
    let mut k = i + 1;
    if b.get(k) == Some(&b'/') {
        k += 1;
    }
    let name = k;
    match b.get(k) {
        None => return undecided,
        Some(c) if c.is_ascii_uppercase() => {}
        Some(_) => return Some(None),
    }
    loop {
        match b.get(k) {
            None => return undecided,
            Some(c) if c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_' => k += 1,
            Some(b']') => break,
            Some(_) => return Some(None),
        }
        if k - i > MAX {
            return Some(None);
        }
    }
    if k - name < 2 || !b[name].is_ascii_uppercase() {
        return Some(None);
    }
    let end = k + 1;
    let mut m = end;
    loop {
        match b.get(m) {
            None => return undecided,
            Some(b' ' | b'\t' | b'\n' | b'\r') => m += 1,
            Some(_) => return Some(Some(end - i)),
        }
    }
}
