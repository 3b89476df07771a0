//! Escapes: `\uXXXX`, single-letter escapes.

/// What a backslash followed by `next` becomes when an escaped document is unescaped:
/// `\"` and `\\` lose their backslash, an escaped line break or tab becomes the raw byte
/// (layout between tokens, or a raw one inside a string, which the engine escapes again:
/// same value). `None`: the backslash stays, as does `next`.
pub(crate) fn unescaped_byte(next: u8) -> Option<u8> {
    match next {
        b'"' | b'\\' => Some(next),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        _ => None,
    }
}

/// The length of the `\uXXXX` escape at `b[i]` (12 for a surrogate pair), or None when it
/// is cut short or a lone surrogate.
pub(crate) fn unicode_escape_len(b: &[u8], i: usize) -> Option<usize> {
    let unit = |at: usize| {
        b.get(at..at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .map(hex4)
    };
    match unit(i + 2)? {
        0xD800..=0xDBFF => {
            (b.get(i + 6..i + 8) == Some(b"\\u")).then_some(())?;
            (0xDC00..=0xDFFF).contains(&unit(i + 8)?).then_some(12)
        }
        0xDC00..=0xDFFF => None,
        _ => Some(6),
    }
}

pub(crate) fn hex4(h: &[u8]) -> u32 {
    h.iter().fold(0, |acc, &c| {
        acc * 16
            + match c {
                b'0'..=b'9' => (c - b'0') as u32,
                b'a'..=b'f' => (c - b'a' + 10) as u32,
                b'A'..=b'F' => (c - b'A' + 10) as u32,
                _ => 0,
            }
    })
}
