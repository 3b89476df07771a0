//! Document-level judgements: what at a position starts (or is not) the answer.

use super::number_element_at;
use crate::text::{
    is_ident, is_ident_start, is_ws, literal_word, quote_at, quoted_end, starts_with_partial,
    template_placeholder, typographic_quote, FULL_WIDTH_COLON, LOOKAHEAD,
};

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

/// Whether the `{` or `[` at `b[i]`, met in prose, opens JSON rather than being part of the
/// prose (`{name}`, `[see below]`): what follows it within the look-ahead must look like
/// JSON. `None`: the text ends before that is decided (only when not `complete`).
pub(crate) fn plausible_container(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    // The byte at `k`, `Some(None)` at the text's end when it is complete.
    let get = |k: usize| match b.get(k) {
        Some(&c) => Some(Some(c)),
        None if complete => Some(None),
        None => None,
    };
    let partial =
        |k: usize, want: &[u8]| match starts_with_partial(b.get(k..).unwrap_or_default(), want) {
            None if complete => Some(false),
            told => told,
        };
    let limit = i + LOOKAHEAD;
    let mut j = i + 1;
    while j < limit && b.get(j).is_some_and(|&c| is_ws(c)) {
        j += 1;
    }
    let Some(c) = get(j)? else {
        // `{` at the very end: a document cut right after it opened.
        return Some(true);
    };
    let object = b[i] == b'{';
    Some(match c {
        // `{{name}}` is a template's placeholder, not JSON.
        b'{' => !template_placeholder(b, i, limit, complete)?,
        b'"' | b'[' | b'\'' => true,
        b'}' => object,
        b']' => !object,
        b'\\' => get(j + 1)? == Some(b'"'),
        b'/' => matches!(get(j + 1)?, Some(b'/' | b'*')),
        // A `#` comment: `#` then layout, the end, or more `#`.
        b'#' => get(j + 1)?.is_none_or(|n| is_ws(n) || n == b'#'),
        0xE2 => match typographic_quote(b, j) {
            Some(_) => true,
            // `“` cut after its first byte or two.
            None if !complete && b.len() < j + 3 && b[j + 1..].iter().all(|&c| c == 0x80) => {
                return None
            }
            None => false,
        },
        // `[-r]` in a usage line is an option, `[8%]` a note: numbers only.
        b'-' | b'0'..=b'9' => !object && number_element_at(&b[..b.len().min(limit)], j, complete)?,
        _ if is_ident_start(c) => {
            let mut k = j;
            // The key's word ends at a `:` or a full-width `：` (`{名前：太郎}`).
            while k < limit {
                match get(k)? {
                    Some(c) if is_ident(c) || c == b' ' => {}
                    _ => break,
                }
                if b[k] == 0xEF && partial(k, FULL_WIDTH_COLON)? {
                    break;
                }
                k += 1;
            }
            if object {
                get(k)? == Some(b':') || partial(k, FULL_WIDTH_COLON)?
            } else {
                // `[null, …]` or `[True\n…`: a literal, then a separator or a line end.
                let mut w = j;
                while w < limit && get(w)?.is_some_and(|c| c.is_ascii_alphabetic()) {
                    w += 1;
                }
                literal_word(&b[j..w]).is_some()
                    && get(w)?.is_none_or(|n| is_ws(n) || matches!(n, b',' | b']'))
            }
        }
        _ => false,
    })
}

/// Whether a `{` that starts the text at `b[i]` opens an object: unless it is prose in
/// braces (`{see attached}`), which has no `:`, `=` or quote before its first `}` (a quote
/// counts: `{a 'b'}` lost its colon). `None`: the text ends before that is decided (only
/// when not `complete`).
pub(crate) fn object_at_text_start(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    if plausible_container(b, i, complete)? {
        return Some(true);
    }
    for k in i + 1..i + LOOKAHEAD {
        match b.get(k) {
            Some(b':' | b'=' | b'"' | b'\'' | 0xE2) => return Some(true),
            Some(b'}') => return Some(false),
            Some(_) => {}
            None if complete => break,
            None => return None,
        }
    }
    Some(true)
}
