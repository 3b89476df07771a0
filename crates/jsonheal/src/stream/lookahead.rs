//! The stream's look-ahead helpers: free functions of the bytes that have arrived and a
//! position, answering `Some(..)` once the text decides and `None` while it cannot tell (the
//! stream then waits). Each re-implements a look-ahead judgement of the one-shot engine
//! (`crate::engine`, its `Parser` methods unless noted); a later step replaces each with one
//! shared `rules::` function. Stream helper → the engine rule it mirrors:
//!
//! - `call_arg_at` → `Parser::bare_document` (a text that is one call: `callback({`)
//! - `bare_key_at` → `Parser::bare_document` (a document that lost its `{`: `name: …`)
//! - `fenced_scalar_start` → `Parser::fenced_scalar_at`
//! - `key_closer_later` → `Parser::key_closer_later`
//! - `double_quote_closes_value` → `Parser::double_quote_closes` (with `skip_layout_ahead`)
//! - `word_after_quoted` → `Parser::key_follows` (a quoted word with a word right after
//!   its closing quote is no key)
//! - `elements_then_array_closer` → `Parser::elements_then_array_closer`, through the shared
//!   `repair::elements_then_array_closer_at`
//! - `value_starts_at` → `Parser::value_starts_at`
//! - `typographic_may_close` → `Parser::typographic_close_at` / `typographic_closes`
//! - `quote_after_closers` → `Parser::closing_quote_after_closers`
//! - `windows_path` → `Parser::parse_string`'s Windows-path test and
//!   `Parser::invalid_escape_ahead`
//! - `ellipsis_then_colon` → no function of its own: the engine's reading of an ellipsis
//!   and a colon after an array's string element (`Parser::step_after` drops the ellipsis)
//! - `key_follows` → `Parser::key_follows`
//! - `lost_opening_quote_ends` → `Parser::value_lost_opening_quote` (what must follow the
//!   quote)
//! - `key_without_colon_at` → `Parser::key_without_colon_at`
//! - `key_end_follows` → `Parser::key_follows` (after a quoted key: a colon or a lost one)
//! - `words_to_a_quote` → `Parser::key_follows` (the words it does not take for a key)
//! - `bare_member_string` → `Parser::parse_bare_value` / `write_bare`, with
//!   `Parser::bare_key_at_value` and `Parser::value_lost_opening_quote`
//! - `quote_ends_lost_opening` → `Parser::value_lost_opening_quote` (the look for the quote)
//! - `comma_then_member` → `Parser::value_string_end`'s comma case; after a number, the
//!   engine's key reading and `Parser::thousands_groups`
//! - `key_without_closing_quote_at` → `Parser::key_without_closing_quote_at`
//!
//! The byte facts (look-ahead budget, character classes, Python prefixes, number grammar,
//! escapes, reasoning tags, placeholders, `fence_value_start`) come from `crate::text`, and
//! `plausible_container` / `object_at_text_start` from `crate::rules`, as for the engine.
//! Still the stream's own: in `bytes`, its `u8` quote marks (`TYPO`, `TYPO_SINGLE`,
//! `typo_quote_at`, `quote_at`, which the engine writes as `text::Quote`); in `strings`,
//! `cuttable` (`Parser::parse_string`'s cut after a raw line break); in `words`,
//! `is_numeric_bare_string` and `classify` (`Parser::parse_bare_value`, `literal_word`).

use super::bytes::{quote_at, string_stop, typo_quote_at};
use crate::text::{
    is_ident, is_ident_start, is_python_prefix, is_ws, starts_with_partial, ELLIPSIS,
    FULL_WIDTH_COLON, KEY_LIKE_LEN, LOOKAHEAD,
};

/// Where the argument starts when `b` starts with a call whose argument looks like JSON
/// (`callback_1({`, `NumberLong(5`), as the engine's `bare_document` judges a text that is
/// one call; `None` while the text cannot tell.
pub(super) fn call_arg_at(b: &[u8]) -> Option<Option<usize>> {
    if !is_ident_start(*b.first()?) {
        return Some(None);
    }
    let word = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')))?;
    if word == 0 || b[word] != b'(' {
        return Some(None);
    }
    let arg = word + 1 + b[word + 1..].iter().position(|&c| !is_ws(c))?;
    let rest = &b[arg..];
    let json = match rest[0] {
        b'{' | b'[' | b'-' | b'0'..=b'9' => true,
        _ => match quote_at(rest)? {
            true => true,
            false => {
                let literal = |w: &[u8]| starts_with_partial(rest, w);
                match (literal(b"true"), literal(b"false"), literal(b"null")) {
                    (Some(true), _, _) | (_, Some(true), _) | (_, _, Some(true)) => true,
                    (None, _, _) | (_, None, _) | (_, _, None) => return None,
                    _ => false,
                }
            }
        },
    };
    Some(json.then_some(arg))
}

/// Where the colon is when `b` starts with a bare key and its colon (`name:`, `user name:`,
/// not `http:/`), as the engine's `bare_document` judges the start of a document that lost
/// its `{`; `None` while the text cannot tell.
pub(super) fn bare_key_at(b: &[u8]) -> Option<Option<usize>> {
    if !is_ident_start(*b.first()?) {
        return Some(None);
    }
    let run = b
        .iter()
        .take(64)
        .position(|&c| !(is_ident(c) || matches!(c, b' ' | b'.' | b'@')));
    match run {
        Some(n) if b[n] == b':' => b.get(n + 1).map(|&c| (c != b'/').then_some(n)),
        Some(_) => Some(None),
        None if b.len() >= 64 => Some(None),
        None => None,
    }
}

/// Whether a JSON scalar or a Python literal starts `b` (a digit, `-`, a whole `null`,
/// `true`, `None`…); `None` when more text is needed to tell.
pub(super) fn fenced_scalar_start(b: &[u8]) -> Option<bool> {
    if matches!(b.first()?, b'0'..=b'9' | b'-') {
        return Some(true);
    }
    for word in [&b"null"[..], b"true", b"false", b"True", b"False", b"None"] {
        if starts_with_partial(b, word)? {
            return b.get(word.len()).map(|&c| !is_ident(c));
        }
    }
    Some(false)
}

/// As the engine's `key_closer_later`: whether a `quote` later on the line from `from` is
/// followed by a `:` (the key's own closing quote); `None` while the text cannot tell.
pub(super) fn key_closer_later(b: &[u8], from: usize, quote: u8) -> Option<bool> {
    let rest = b.get(from..).unwrap_or_default();
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    let within = &line[..line.len().min(LOOKAHEAD)];
    match memchr::memchr_iter(quote, within).find(|&n| !crate::text::escaped_at(b, from + n)) {
        Some(n) => rest[n + 1..]
            .iter()
            .find(|&&c| !is_ws(c))
            .map(|&c| c == b':'),
        // No such quote before the line ends (or the look-ahead's limit): known only once
        // the line is complete.
        None if within.len() == line.len() && line.len() == rest.len() => None,
        None => Some(false),
    }
}

/// The engine's `double_quote_closes` for a single-quoted value at its first `"`, whose
/// next byte is `b[after]` (`'x", "b": 1`, `'x"}`): `Some(Some(closes))`; `Some(None)`
/// where the engine looks at more than the stream mirrors (a comment, a Unicode space, a
/// key of a kind `key_follows` does not read); `None` while the text cannot tell.
pub(super) fn double_quote_closes_value(
    b: &[u8],
    after: usize,
    object: bool,
) -> Option<Option<bool>> {
    // The engine's `skip_layout_ahead`, for plain layout.
    let layout = |from: usize| -> Option<Option<usize>> {
        let mut i = from;
        loop {
            match *b.get(i)? {
                c if is_ws(c) => i += 1,
                b'/' | 0x80.. => return Some(None),
                _ if i - from >= LOOKAHEAD => return Some(None),
                _ => return Some(Some(i)),
            }
        }
    };
    let Some(k) = layout(after)? else {
        return Some(None);
    };
    Some(match b[k] {
        b',' => {
            let Some(m) = layout(k + 1)? else {
                return Some(None);
            };
            if object {
                match key_follows(b, m)? {
                    true => Some(true),
                    // (The stream's `key_follows` reads fewer keys than the engine's.)
                    false => None,
                }
            } else {
                match b[m] {
                    b'"' | b'\'' => Some(true),
                    b'`' | 0xE2 => None,
                    _ => Some(false),
                }
            }
        }
        c @ (b'}' | b']') => {
            if c != if object { b'}' } else { b']' } {
                Some(false)
            } else {
                // The text's end would do too; while streaming, more may come.
                let Some(m) = layout(k + 1)? else {
                    return Some(None);
                };
                Some(matches!(b[m], b',' | b'}' | b']'))
            }
        }
        _ => Some(false),
    })
}

/// Whether the string a quote at `b[k]` opens closes on its line and a letter or digit
/// comes right after its closing quote; `None` while the text cannot tell.
pub(super) fn word_after_quoted(b: &[u8], k: usize) -> Option<bool> {
    let mut i = k + 1;
    loop {
        if i >= k + LOOKAHEAD {
            return Some(false);
        }
        match *b.get(i)? {
            b'\\' => i += 2,
            b'\n' => return Some(false),
            b'"' => return Some(b.get(i + 1)?.is_ascii_alphanumeric()),
            _ => i += 1,
        }
    }
}

/// The engine's `elements_then_array_closer` at `b[k]`: quoted strings on one line, numbers
/// or literals, separated by commas, then a `]`, within the look-ahead. `None` while the
/// text cannot tell.
fn elements_then_array_closer(b: &[u8], k: usize) -> Option<bool> {
    crate::rules::elements_then_array_closer_at(b, k)
        .ok()
        .map(|end| end.is_some())
}

/// The engine's `value_starts_at`: a container, a number or literal that ends there, or a
/// quote (here `"` and `'` only; no for the rest); `None` while the text cannot tell.
pub(super) fn value_starts_at(b: &[u8], m: usize) -> Option<bool> {
    let ends = |e: usize| {
        b.get(e)
            .map(|&c| matches!(c, b',' | b'}' | b']') || is_ws(c))
    };
    Some(match *b.get(m)? {
        b'{' | b'[' | b'"' | b'\'' => true,
        b'-' | b'0'..=b'9' => {
            let mut e = m;
            while matches!(*b.get(e)?, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                e += 1;
            }
            crate::text::json_number_end(b, m, e) == Some(e) && ends(e)?
        }
        c if c.is_ascii_alphabetic() => {
            let mut e = m;
            while b.get(e)?.is_ascii_alphabetic() {
                e += 1;
            }
            crate::text::literal_word(&b[m..e]).is_some() && ends(e)?
        }
        _ => false,
    })
}

/// Whether the engine may end a straight-quoted value at a `”` or `’` followed by `b[after..]`: a
/// closer or a comma comes next (the engine then also wants a key; the stream freezes on
/// either). `None`: more text is needed.
pub(super) fn typographic_may_close(b: &[u8], after: usize) -> Option<bool> {
    let mut j = after;
    while is_ws(*b.get(j)?) {
        j += 1;
    }
    Some(matches!(b[j], b'}' | b']' | b',' | b'/'))
}

/// As the engine: the closers at `b[j]` are string content when right after them (and `;`
/// `)` spaces, within 16 bytes) comes a quote followed by a separator or closer. `None`:
/// more text is needed to tell.
pub(super) fn quote_after_closers(b: &[u8], j: usize) -> Option<bool> {
    let mut k = j;
    while k < j + 16 {
        match *b.get(k)? {
            b'}' | b']' | b')' | b';' | b' ' | b'\t' => k += 1,
            b'"' => {
                let mut m = k + 1;
                while is_ws(*b.get(m)?) {
                    m += 1;
                }
                return Some(matches!(b[m], b',' | b'}' | b']'));
            }
            _ => return Some(false),
        }
    }
    Some(false)
}

/// Whether string content starting at `b[0]` is a Windows path (`C:\Users`); `None` when
/// more text is needed to tell.
pub(super) fn windows_path(b: &[u8]) -> Option<bool> {
    let first = *b.first()?;
    if !first.is_ascii_alphabetic() {
        return Some(false);
    }
    if *b.get(1)? != b':' || *b.get(2)? != b'\\' {
        return Some(false);
    }
    if matches!(*b.get(3)?, b'\\' | b'"') {
        return Some(false);
    }
    // As the engine: a path only if an escape JSON does not know (`\d`) shows up before the
    // next quote or line end, within 260 bytes.
    let mut i = 0;
    while i + 1 < 260 {
        match *b.get(i)? {
            b'"' | b'\'' | b'`' | b'\n' => return Some(false),
            b'\\' => {
                if !matches!(
                    *b.get(i + 1)?,
                    b'"' | b'\'' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u'
                ) {
                    return Some(true);
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    Some(false)
}

/// Whether layout, an ellipsis (`...`, `…`), layout and a colon start at `b[k]`; `None`
/// while the text cannot tell.
pub(super) fn ellipsis_then_colon(b: &[u8], k: usize) -> Option<bool> {
    let skip = |mut m: usize| -> Option<usize> {
        while is_ws(*b.get(m)?) {
            m += 1;
            if m - k >= LOOKAHEAD {
                return Some(usize::MAX);
            }
        }
        Some(m)
    };
    let m = skip(k)?;
    let Some(rest) = b.get(m..) else {
        return Some(false);
    };
    let len = if starts_with_partial(rest, b"...")? {
        3
    } else if starts_with_partial(rest, ELLIPSIS)? {
        ELLIPSIS.len()
    } else {
        return Some(false);
    };
    let m = skip(m + len)?;
    Some(b.get(m) == Some(&b':'))
}

/// Whether a key (`"k":`, `'k':`, `k:`) starts at `b[k]`, as the engine judges it after a
/// string value and a comma; `None` when more text is needed. Unsure cases say no: the
/// caller then freezes, which is always safe.
pub(super) fn key_follows(b: &[u8], k: usize) -> Option<bool> {
    let first = *b.get(k)?;
    if first == 0xE2 {
        // `“key”:`, `‘key’:` (closed by either quote of its kind or by `"`, as the engine
        // reads it).
        let Some(kind) = typo_quote_at(&b[k..])? else {
            return Some(false);
        };
        let limit = k + LOOKAHEAD;
        let mut i = k + 3;
        let after = loop {
            if i >= limit {
                return Some(false);
            }
            match *b.get(i)? {
                b'\\' => i += 2,
                b'\n' => return Some(false),
                b'"' => break i + 1,
                0xE2 if typo_quote_at(&b[i..])? == Some(kind) => break i + 3,
                _ => i += 1,
            }
        };
        return key_end_follows(b, after);
    }
    if first == b'"' || first == b'\'' || first == b'`' {
        if first == b'`' && !quote_at(&b[k..])? {
            return Some(false);
        }
        let limit = k + LOOKAHEAD;
        let mut i = k + 1;
        let after = loop {
            if i >= limit {
                return Some(false);
            }
            // The next quote, backslash or line break before the limit.
            let window = b.get(i..b.len().min(limit)).unwrap_or_default();
            let Some(j) = string_stop(window, first, Some(b'\n')) else {
                // None in the text so far: more may come, unless the limit is reached.
                return if b.len() >= limit { Some(false) } else { None };
            };
            let at = i + j;
            match b[at] {
                b'\\' => i = at + 2,
                b'\n' => return Some(false),
                _ => break at + 1,
            }
        };
        return key_end_follows(b, after);
    }
    if is_ident_start(first) || first.is_ascii_digit() {
        let limit = k + 64;
        let mut m = k;
        while m < limit && (is_ident(*b.get(m)?) || b[m] == b' ') {
            m += 1;
        }
        // `"x", b": 2}`: a key that lost its opening quote (the engine's
        // `key_lost_opening_quote`; it skips comments there too, which here say no).
        if m > k && matches!(b.get(m), Some(b'"' | b'\'')) {
            let mut j = m + 1;
            while is_ws(*b.get(j)?) && j < k + LOOKAHEAD {
                j += 1;
            }
            if b[j] == b':' {
                return Some(true);
            }
            // `u'name': …`: a key with a Python string prefix.
            if is_python_prefix(&b[k..m]) {
                return key_follows(b, m);
            }
        }
        if *b.get(m)? == b'=' && m > k + 1 && b[m - 1] == b' ' {
            // `host = "x"` first on its line, `port => 1`: `=` for the colon (the
            // engine's `equals_for_colon`).
            let next = *b.get(m + 1)?;
            let one_word = b[k..m]
                .iter()
                .position(|&c| c == b' ')
                .is_none_or(|w| b[k + w..m].iter().all(|&c| c == b' '));
            if next == b'>' || (next != b'=' && one_word && crate::text::first_on_line(b, k)) {
                return Some(true);
            }
        }
        if *b.get(m)? != b':' {
            return key_without_colon_at(b, k);
        }
        if *b.get(m + 1)? == b'/' {
            return Some(false);
        }
        // As the engine: no key when the quote after the colon ends a string (`version:",
        // "done"`) rather than opening a value (`b: "}A"`).
        let mut v = m + 1;
        while is_ws(*b.get(v)?) {
            v += 1;
        }
        if b[v] != b'"' {
            return Some(true);
        }
        return match crate::rules::separator_after_quote(b, v + 1, false)? {
            false => Some(true),
            // `b: ", "}`: unless the quote opens a whole value.
            true => crate::rules::member_value_string_at(b, v, false),
        };
    }
    Some(false)
}

/// Where a member's value in bare words ends (`bare_member_string`).
pub(super) enum BareEnd {
    /// At this offset, where a `,` or `}` (after layout) follows.
    Token(usize),
    /// At this quote, which closes a value that lost its opening one.
    Quote(usize),
}

/// After the quote that ends a member's value which lost its opening quote, at `b[k]`:
/// layout, then the object's `}`, or a comma and what confirms the value (as after a
/// number: no elements and `]`, which would make it an array's first element). `None`
/// while the text cannot tell.
fn lost_opening_quote_ends(b: &[u8], k: usize) -> Option<bool> {
    let mut m = k;
    while is_ws(*b.get(m)?) {
        m += 1;
        if m - k >= LOOKAHEAD {
            return Some(false);
        }
    }
    match b[m] {
        b'}' => Some(true),
        b',' => comma_then_member(b, m + 1, After::Number),
        // (A comment: the engine looks past it; a `]`: a wrong closer.)
        _ => Some(false),
    }
}

/// The engine's `key_without_colon_at`: one bare word at `b[k]`, spaces, then a value
/// that ends the member, a quoted string closed on its line or a number, literal or word,
/// then `,` or `}` (or a line break after a bare one): a key that lost its colon
/// (`"name": "Ann", age 31, …`). `None` while the text cannot tell.
fn key_without_colon_at(b: &[u8], k: usize) -> Option<bool> {
    if !is_ident_start(b[k]) {
        return Some(false);
    }
    let mut m = k;
    while m < k + 64 && is_ident(*b.get(m)?) {
        m += 1;
    }
    let word_end = m;
    while matches!(*b.get(m)?, b' ' | b'\t') {
        m += 1;
        if m - word_end >= LOOKAHEAD {
            return Some(false);
        }
    }
    if m == word_end {
        return Some(false);
    }
    let ends_member = |mut e: usize, line_break: bool| -> Option<bool> {
        loop {
            match *b.get(e)? {
                b' ' | b'\t' | b'\r' => e += 1,
                b'\n' if !line_break => e += 1,
                b'\n' => return Some(true),
                b',' | b'}' => return Some(true),
                _ => return Some(false),
            }
            if e - m >= LOOKAHEAD {
                return Some(false);
            }
        }
    };
    match b[m] {
        q @ (b'"' | b'\'') => {
            let mut i = m + 1;
            loop {
                if i >= m + LOOKAHEAD {
                    return Some(false);
                }
                match *b.get(i)? {
                    b'\\' => i += 2,
                    b'\n' => return Some(false),
                    c if c == q => break,
                    _ => i += 1,
                }
            }
            // (A comment after it: the engine looks past it; left to it.)
            ends_member(i + 1, false)
        }
        b'-' | b'0'..=b'9' => {
            let mut e = m + 1;
            while matches!(*b.get(e)?, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                e += 1;
            }
            if crate::text::json_number_end(b, m, e) != Some(e) {
                return Some(false);
            }
            ends_member(e, true)
        }
        c if is_ident_start(c) => {
            let mut e = m;
            while e < m + 64 && is_ident(*b.get(e)?) {
                e += 1;
            }
            ends_member(e, true)
        }
        _ => Some(false),
    }
}

/// After a quoted key's closing quote at `after`: whether what follows makes it a key to
/// the engine's `key_follows`: a colon, or a colon it reads as lost (`"c"{…}`, `"b" = 1`,
/// `"b" 1` on the same line). No where the engine looks past what the stream mirrors (a
/// comment, a string right after the quote, a bare word); `None` while the text cannot tell.
fn key_end_follows(b: &[u8], after: usize) -> Option<bool> {
    let mut m = after;
    while is_ws(*b.get(m)?) {
        m += 1;
        if m - after >= LOOKAHEAD {
            return Some(false);
        }
    }
    Some(match b[m] {
        b':' => true,
        0xEF => starts_with_partial(&b[m..], FULL_WIDTH_COLON)?,
        b'{' | b'[' if m == after => true,
        b'=' if m > after => *b.get(m + 1)? != b'=',
        _ if m > after && !b[after..m].contains(&b'\n') => return value_starts_at(b, m),
        _ => false,
    })
}

/// After a quote and layout inside an object, at `j` (an ASCII letter or digit): whether
/// what follows is plainly more words of the string, which the engine's `key_follows` does
/// not take for a key: words up to the next `"` on the line, with no byte that could make
/// them a key (`:`, `=`, `,`, brackets, quotes, `/`, a full-width colon), more than one
/// short word and not ending in a space (`to "Bob", …` is a key that lost its colon to it),
/// and no `:` after that quote (a key that lost its opening quote). Conservative: `false`
/// is "maybe a key". `None` while the text cannot tell.
pub(super) fn words_to_a_quote(b: &[u8], j: usize) -> Option<bool> {
    let limit = j + 64;
    let mut q = j;
    loop {
        if q >= limit {
            return Some(false);
        }
        match *b.get(q)? {
            b'"' => break,
            c if c.is_ascii_alphanumeric() || b" \t.!?-_@$#%&*+;~^|".contains(&c) => q += 1,
            _ => return Some(false),
        }
    }
    if q - j <= 2 || matches!(b[q - 1], b' ' | b'\t') {
        return Some(false);
    }
    let mut m = q + 1;
    while is_ws(*b.get(m)?) {
        m += 1;
    }
    Some(b[m] != b':')
}

/// A member's value at `start` (an ASCII letter) that the engine writes as a bare string
/// (`parse_bare_value`, `write_bare`): words of letters, digits and most ASCII punctuation
/// (not quotes, brackets, parentheses, `\`, `<`), with spaces or tabs between them, ending
/// at a `,` that a member follows or at `}`; no `word: value` (a key). The first
/// word is no literal (`true story` is the engine's phrase rule), the whole is no literal
/// or non-finite number, and no quote later on the line may make it a string that lost
/// its opening quote (`value_lost_opening_quote`). `Some(Some(end))`: such a string, its
/// spaces trimmed, ends at `end`; `Some(None)`: something else; `None` while the text
/// cannot tell. `element`: an array's element (`[red, green]`), which ends at a `,` or
/// `]` and holds no `:` (a key, of the object around the array or of one in it that lost
/// its `{`, to the engine) and no quote (the engine's call).
pub(super) fn bare_member_string(b: &[u8], start: usize, element: bool) -> Option<Option<BareEnd>> {
    let limit = start + LOOKAHEAD;
    let mut e = start;
    while b.get(e)?.is_ascii_alphabetic() {
        e += 1;
    }
    if crate::text::literal_word(&b[start..e]).is_some() {
        return Some(None);
    }
    // `word: value` is a key where a value belongs (the engine's `bare_key_at_value`).
    let mut word = start;
    while b.get(word)?.is_ascii_alphanumeric() || b[word] == b'_' {
        word += 1;
    }
    if b[word] == b':' && matches!(*b.get(word + 1)?, b' ' | b'\t') {
        return Some(None);
    }
    let (closer, other_closer) = if element { (b']', b'}') } else { (b'}', b']') };
    loop {
        if e >= limit {
            return Some(None);
        }
        match *b.get(e)? {
            b':' | b'"' if element => return Some(None),
            // `[\n  red,\n  green\n]`, `"name": Ada\n}`: the engine's bare token ends at a
            // line break; the value's then, when a `,` or the closer comes next (in an
            // object, a `,` that a member follows).
            b'\n' | b'\r' => {
                let mut n = e;
                while n < limit && is_ws(*b.get(n)?) {
                    n += 1;
                }
                if n >= limit {
                    return Some(None);
                }
                let ends = match b[n] {
                    c if c == closer => true,
                    b',' => element || comma_then_member(b, n + 1, After::Word)?,
                    _ => false,
                };
                if !ends {
                    return Some(None);
                }
                break;
            }
            c if c == other_closer => return Some(None),
            c if c == b',' || c == closer => break,
            c if c.is_ascii_alphanumeric() || b"_.- \t:?=&%@+~!*;$^|".contains(&c) => e += 1,
            // After a space, `//`, `/*` and `#` may start a comment; elsewhere they are
            // content (`https://x.org/#top`).
            b'/' | b'#' if !is_ws(b[e - 1]) => e += 1,
            // `C:\Users\me`: a bare path's backslashes are content to the engine (one
            // before a quote is left to it).
            b'\\' if *b.get(e + 1)? != b'"' => e += 1,
            // `"sentiment": negative", "score": …`: a value that lost its opening quote
            // (the engine's `value_lost_opening_quote`), when its words hold no structure
            // (no `:` here, which the others cannot be) and the quote follows a word:
            // then a separator or closer after the quote ends it.
            b'"' if !is_ws(b[e - 1]) && !b[start..e].contains(&b':') => {
                return lost_opening_quote_ends(b, e + 1)
                    .map(|ends| ends.then_some(BareEnd::Quote(e)));
            }
            _ => return Some(None),
        }
    }
    let mut token_end = e;
    while matches!(b[token_end - 1], b' ' | b'\t') {
        token_end -= 1;
    }
    if matches!(&b[start..token_end], b"nan" | b"inf") {
        return Some(None);
    }
    if quote_ends_lost_opening(b, e, limit)? {
        return Some(None);
    }
    if !element && b[e] == b',' && !comma_then_member(b, e + 1, After::Word)? {
        return Some(None);
    }
    Some(Some(BareEnd::Token(token_end)))
}

/// The engine's look for a quote that ends a value which lost its opening one
/// (`value_lost_opening_quote`), from `b[k]`: the first `"` on the line, escapes skipped,
/// before `limit`. One right after spaces opens something else. Whether there is such a
/// quote; `None` while the line goes on past the text.
pub(super) fn quote_ends_lost_opening(b: &[u8], mut k: usize, limit: usize) -> Option<bool> {
    loop {
        if k >= limit {
            return Some(false);
        }
        match *b.get(k)? {
            b'\n' | b'\r' => return Some(false),
            b'"' if k > 0 && is_ws(b[k - 1]) => return Some(false),
            b'"' => return Some(true),
            b'\\' => k += 2,
            _ => k += 1,
        }
    }
}

/// After a comma in an object, at `b[k..]`: whether the next member (or the object's end,
/// or a comment) comes, as the engine reads it after a member's value; `None` while the
/// text so far cannot tell. After a number or literal (`read_key`) the engine reads the
/// next key as keys are read (`"id": 1, "action': …`, `age 3, tags [1]`), unless elements
/// and a `]` follow.
pub(super) fn comma_then_member(b: &[u8], mut k: usize, after: After) -> Option<bool> {
    // `"amount": 1,000`: digits right after the comma may be thousands (`thousands_groups`).
    let read_key = after == After::Number && !b.get(k)?.is_ascii_digit();
    // (More commas are holes the engine drops: `"a": 1,, "b": 2`; so are ellipses where a
    // key should be: `"a": 1, ..., "b": 2`.)
    let limit = k + LOOKAHEAD;
    loop {
        if k >= limit {
            // Re-read on every push while undecided: bounded, so the stream stays linear
            // (a freeze leaves the rare rest to the engine).
            return Some(false);
        }
        match b.get(k) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b',') => k += 1,
            Some(b'.') if starts_with_partial(&b[k..], b"...")? => k += 3,
            _ => break,
        }
    }
    match b.get(k)? {
        b'}' => Some(true),
        // A wrong closer, which the engine drops: what follows it decides (`"y",]: 1` makes
        // the string a key; found by fuzzing).
        b']' => Some(false),
        // A comment; no key starts with `/`.
        b'/' => b.get(k + 1).map(|n| matches!(n, b'/' | b'*')),
        b'#' => b
            .get(k + 1)
            .map(|n| matches!(n, b' ' | b'\t' | b'\n' | b'\r' | b'#')),
        // The engine makes the value an array that lost its `[` only when elements and a
        // `]` follow (`array_lost_opener_before`); whatever else follows, it reads as keys.
        _ if read_key => elements_then_array_closer(b, k).map(|elements| !elements),
        // After a string value the engine also takes a key that lost its closing quote
        // (`value_string_end`).
        // (The second look only when the first does not settle it: most keys are plain.)
        _ if after == After::String => match key_follows(b, k) {
            Some(true) => Some(true),
            first => match (first, key_without_closing_quote_at(b, k)) {
                (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        },
        _ => key_follows(b, k),
    }
}

/// What a comma follows, for `comma_then_member`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum After {
    /// A member's number or literal.
    Number,
    /// A member's string value, its closing quote read.
    String,
    /// A member's value in bare words.
    Word,
}

/// The engine's `key_without_closing_quote_at`, for straight quotes: a key at `b[k]` that
/// lost its closing quote (`"skills: []`) or that the other straight quote closes (`"msg':
/// "x"`), its colon after it. `None` while the text cannot tell.
fn key_without_closing_quote_at(b: &[u8], k: usize) -> Option<bool> {
    let (open, other) = match b[k] {
        b'"' => (b'"', b'\''),
        b'\'' => (b'\'', b'"'),
        _ => return Some(false),
    };
    let mut colon = k + 1;
    while colon < k + 2 + KEY_LIKE_LEN
        && (b.get(colon)?.is_ascii_alphanumeric() || matches!(b[colon], b'_' | b'-' | b'.' | b'$'))
    {
        colon += 1;
    }
    let word = colon - (k + 1);
    if word == 0 || word > KEY_LIKE_LEN {
        return Some(false);
    }
    let c = *b.get(colon)?;
    if c == other {
        // (The engine skips comments here too: not mirrored.)
        let mut m = colon + 1;
        while is_ws(*b.get(m)?) {
            m += 1;
            if m - colon > LOOKAHEAD {
                return Some(false);
            }
        }
        if b[m] != b':' {
            return Some(false);
        }
        // The engine may still read the quote as content when no value follows the colon
        // (`"a": "x", "q':\n}`): only a value on the same line is taken as sure.
        let mut v = m + 1;
        while matches!(*b.get(v)?, b' ' | b'\t') {
            v += 1;
            if v - m > LOOKAHEAD {
                return Some(false);
            }
        }
        return value_starts_at(b, v);
    }
    // (Closed by a typographic quote: not mirrored.)
    if c != b':' || open != b'"' {
        return Some(false);
    }
    match *b.get(colon + 1)? {
        b' ' | b'\t' => {
            // As above: a value on the same line.
            let mut v = colon + 1;
            while matches!(*b.get(v)?, b' ' | b'\t') {
                v += 1;
                if v - colon > LOOKAHEAD {
                    return Some(false);
                }
            }
            value_starts_at(b, v)
        }
        _ if b[k + 1].is_ascii_alphabetic() || b[k + 1] == b'_' => value_starts_at(b, colon + 1),
        _ => Some(false),
    }
}
