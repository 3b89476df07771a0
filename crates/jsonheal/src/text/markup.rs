//! Markup around and inside JSON: comments, template placeholders, closing tags.

use super::bytes::{is_ident, is_ws, LOOKAHEAD};

/// Whether only closing tags and spaces run from `b[i]` to the text's end: a wrapper's
/// (`</tool_call>`, `</json>`) or a chat template's special tokens (`<|call|>`, `<|im_end|>`).
/// The document before them ends where they start.
pub(crate) fn closing_tags_to_end(b: &[u8], i: usize) -> bool {
    let limit = (i + LOOKAHEAD).min(b.len());
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.');
    let mut k = i;
    let mut tags = 0;
    loop {
        while k < limit && is_ws(b[k]) {
            k += 1;
        }
        if k >= b.len() {
            return tags > 0;
        }
        let close: &[u8] = if b[k..limit].starts_with(b"</") {
            b">"
        } else if b[k..limit].starts_with(b"<|") {
            b"|>"
        } else {
            return false;
        };
        let from = k + 2;
        let n = b[from..limit].iter().take_while(|&&c| name(c)).count();
        if n == 0 || !b[from + n..limit].starts_with(close) {
            return false;
        }
        k = from + n + close.len();
        tags += 1;
    }
}

/// What may follow a template's `{{` before its name (see `template_placeholder`).
pub(crate) const TEMPLATE_SIGILS: &[u8] = b"#/^>!&";

/// Whether `b[i..]` (before `limit`) is a template placeholder, `{{name}}` or `{{ name }}`:
/// two braces, a word (after a Mustache sigil, maybe), two braces. With `complete`, the
/// text's end makes it no placeholder; without, `None` while the text ends (before `limit`)
/// inside what may still be one (the stream then waits).
pub(crate) fn template_placeholder(
    b: &[u8],
    i: usize,
    limit: usize,
    complete: bool,
) -> Option<bool> {
    let Some(window) = b.get(i..limit.min(b.len())) else {
        return Some(false);
    };
    let decided = placeholder_in(window);
    let cut = !complete && window.len() < limit - i && window.starts_with(b"{{");
    if !cut {
        return Some(decided);
    }
    // A `}}` seen, or a byte that ends the word: decided.
    let name_from = match window.get(2) {
        Some(c) if TEMPLATE_SIGILS.contains(c) => 3,
        _ => 2,
    };
    let open = window[name_from.min(window.len())..]
        .iter()
        .all(|&c| is_ident(c) || matches!(c, b' ' | b'.'));
    let cut_closer = !decided && window.ends_with(b"}");
    (!(open || cut_closer)).then_some(decided)
}

/// `template_placeholder` on the text it may look at.
fn placeholder_in(inner: &[u8]) -> bool {
    let Some(rest) = inner.strip_prefix(b"{{") else {
        return false;
    };
    // Mustache's sections and partials: `{{#items}}`, `{{/items}}`, `{{^empty}}`, `{{> row}}`.
    let rest = match rest.split_first() {
        Some((c, name)) if TEMPLATE_SIGILS.contains(c) => name,
        _ => rest,
    };
    let word = rest
        .iter()
        .position(|&c| !(is_ident(c) || matches!(c, b' ' | b'.')))
        .unwrap_or(rest.len());
    word > 0 && rest[word..].starts_with(b"}}")
}

/// Where the comment that starts at `b[i]` ends (`//` to the line's end, `/*` past its
/// `*/`, or the text's end), if one starts there.
pub(crate) fn comment_end(b: &[u8], i: usize) -> Option<usize> {
    let line_end = |from: usize| memchr::memchr(b'\n', &b[from..]).map_or(b.len(), |n| from + n);
    match (b.get(i)?, b.get(i + 1)) {
        (b'/', Some(b'/')) => Some(line_end(i)),
        (b'/', Some(b'*')) => {
            Some(memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |n| i + 2 + n + 2))
        }
        // (Not `#`: in prose it starts a Markdown heading more often than a comment.)
        _ => None,
    }
}

/// Markdown's code-fence markers (a fence is three or more of one of these bytes).
pub(crate) const FENCE_MARKERS: [&[u8]; 2] = [b"```", b"~~~"];

/// The code-fence marker that starts `b`, if one does.
pub(crate) fn fence_marker(b: &[u8]) -> Option<&'static [u8]> {
    FENCE_MARKERS.into_iter().find(|m| b.starts_with(m))
}

/// Where a value starts on an opening fence's line (`rest` starts at the marker): past the
/// marker, a language tag and spaces, at a `{` or `[` (```` ```json {"a": 1}``` ````).
/// `Some(None)`: not on this line; `None`: more text is needed to tell (the stream's question;
/// the engine passes the whole line).
pub(crate) fn fence_value_start(rest: &[u8]) -> Option<Option<usize>> {
    let marker = *rest.first()?;
    let mut k = 0;
    while rest.get(k) == Some(&marker) {
        k += 1;
    }
    while rest
        .get(k)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-'))
    {
        k += 1;
    }
    while matches!(rest.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    let c = *rest.get(k)?;
    Some(matches!(c, b'{' | b'[').then_some(k))
}

/// The reasoning blocks models write before their answer, as (opener, closer), matched with
/// ASCII case ignored. The one list: the engine skips these blocks and `extract` starts the
/// answer after the last one.
pub(crate) const REASONING_TAGS: [(&[u8], &[u8]); 4] = [
    (b"<think>", b"</think>"),
    (b"<thinking>", b"</thinking>"),
    (b"<reasoning>", b"</reasoning>"),
    (b"<reflection>", b"</reflection>"),
];

/// The tag of `REASONING_TAGS` whose opener starts `b` (ASCII case ignored): `Some(None)`
/// for none; `None` when `b` ends inside a tag's opener and `complete` is false (the
/// stream then waits for more text).
pub(crate) fn reasoning_opener(
    b: &[u8],
    complete: bool,
) -> Option<Option<(&'static [u8], &'static [u8])>> {
    let mut undecided = false;
    for (open, close) in REASONING_TAGS {
        match b.get(..open.len()) {
            Some(s) if s.eq_ignore_ascii_case(open) => return Some(Some((open, close))),
            Some(_) => {}
            None => undecided |= !complete && open[..b.len()].eq_ignore_ascii_case(b),
        }
    }
    (!undecided).then_some(None)
}

/// The tag of `REASONING_TAGS` whose closer starts `b` (ASCII case ignored).
pub(crate) fn reasoning_closer(b: &[u8]) -> Option<&'static [u8]> {
    REASONING_TAGS
        .into_iter()
        .map(|(_, close)| close)
        .find(|close| {
            b.get(..close.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(close))
        })
}
