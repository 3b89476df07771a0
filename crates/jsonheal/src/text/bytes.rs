//! Byte classes, the look-ahead budget and other position facts.

/// How far a heuristic may look ahead (bytes). Keeps every decision O(1).
pub(crate) const LOOKAHEAD: usize = 256;

/// `：` and `，`, which models writing CJK text put where `:` and `,` belong.
pub(crate) const FULL_WIDTH_COLON: &[u8] = "\u{FF1A}".as_bytes();

pub(crate) const FULL_WIDTH_COMMA: &[u8] = "\u{FF0C}".as_bytes();

/// `…`, which models write for elements left out (`[1, 2, …]`).
pub(crate) const ELLIPSIS: &[u8] = "\u{2026}".as_bytes();

pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first position at or after `i` that is not JSON whitespace.
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|&c| is_ws(c)) {
        i += 1;
    }
    i
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

pub(crate) const fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-' || b >= 0x80
}

/// The end of a run of bytes that are not layout, a comma or a quote.
pub(crate) fn scan_bare_word(b: &[u8], start: usize) -> usize {
    b[start..]
        .iter()
        .position(|&c| is_ws(c) || c == b',' || c == b'"' || c == b'\'')
        .map_or(b.len(), |n| start + n)
}

/// Whether `b[i]` is the first byte on its line after the indent (and a line break comes
/// before it: the text's first line does not count).
pub(crate) fn first_on_line(b: &[u8], i: usize) -> bool {
    let indent = b[..i]
        .iter()
        .rev()
        .take(64)
        .take_while(|&&c| matches!(c, b' ' | b'\t'))
        .count();
    i > indent && matches!(b[i - indent - 1], b'\n' | b'\r')
}

/// The length of a Unicode space or invisible mark at the start of `b` that JSON does not
/// allow between tokens (U+2000–U+200B, U+200E and U+200F the direction marks, U+2028,
/// U+2029, U+202F, U+205F, U+2060, U+3000), or 0.
pub(crate) fn unicode_space_len(b: &[u8]) -> usize {
    match b {
        [0xE2, 0x80, 0x80..=0x8B | 0x8E | 0x8F | 0xA8 | 0xA9 | 0xAF, ..]
        | [0xE2, 0x81, 0x9F | 0xA0, ..]
        | [0xE3, 0x80, 0x80, ..] => 3,
        _ => 0,
    }
}

/// The length of the layout character at `b[i..]` as the engine skips it between tokens:
/// JSON's spaces, a no-break space, a byte-order mark or another Unicode space (see
/// `unicode_space_len`); 0 for anything else.
pub(crate) fn layout_len(b: &[u8], i: usize) -> usize {
    match b.get(i..).unwrap_or_default() {
        [b' ' | b'\t' | b'\n' | b'\r', ..] => 1,
        [0xC2, 0xA0, ..] => 2,
        [0xEF, 0xBB, 0xBF, ..] => 3,
        rest @ [0xE2 | 0xE3, ..] => unicode_space_len(rest),
        _ => 0,
    }
}

/// `is_ident(c) || c == b' '`, as a table: the look-ahead for a bare key runs on every
/// member of a badly written object.
pub(crate) static IDENT_OR_SPACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        // `.` and `@` too: `user.name` and `@type` are keys as well (`/`: see `key_follows`).
        t[c] = is_ident(c as u8) || matches!(c as u8, b' ' | b'.' | b'@');
        c += 1;
    }
    t
};

pub(crate) fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// A string element of an array may turn out to be a key while it is at most this long and
/// on one line, when a `:` follows it: of the object around the array, whose `]` went
/// missing (`{"tags": ["a", "count": 2}`), or of an object in the array that lost its `{`
/// (`[{"a": 1}, "b": 2}]`). The stream holds such an element back until it is longer or
/// its closing quote is followed by something else.
pub(crate) const KEY_LIKE_LEN: usize = 64;

/// The first occurrence of `needle` in `hay`, ASCII case ignored (`</THINK>` closes
/// `<think>`). `needle` starts with a byte that has no case (`<`). Linear in `hay`.
pub(crate) fn find_ignore_ascii_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    memchr::memchr_iter(first, hay).find(|&i| {
        hay.get(i..i + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}

/// Whether `have` starts with `want`: `Some(true)`/`Some(false)` when it can tell, `None`
/// when `have` is a proper prefix of `want` (more text is needed).
pub(crate) fn starts_with_partial(have: &[u8], want: &[u8]) -> Option<bool> {
    if have.len() >= want.len() {
        Some(&have[..want.len()] == want)
    } else if want.starts_with(have) {
        None
    } else {
        Some(false)
    }
}
