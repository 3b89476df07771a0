//! Escapes: `\uXXXX`, single-letter escapes.

use super::bytes::starts_with_partial;

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

/// An escape sequence inside a string.
pub(crate) enum Escape {
    /// Not enough text yet to tell.
    Wait,
    /// Decodes to this character and is this many bytes long; whether JSON allows it (a
    /// lone surrogate or `\'` sends the engine down its repair path).
    Char(char, usize, bool),
    /// An invalid escape (`\U` in `C:\Users`): the backslash is content.
    KeepBackslash,
}

/// Decode the escape at the start of `b` (which starts with `\\`) as the one-shot engine
/// does in any kind of string (the stream's decoder; the engine copies escapes as written).
#[inline]
pub(crate) fn escape(b: &[u8]) -> Escape {
    let Some(&c) = b.get(1) else {
        return Escape::Wait;
    };
    let ch = match c {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'\'' => return Escape::Char('\'', 2, false),
        b'u' => return unicode_escape(b),
        // `C:\Users`: an invalid escape keeps its backslash; what follows is read as usual.
        _ => return Escape::KeepBackslash,
    };
    Escape::Char(ch, 2, true)
}

/// The four hex digits at `b[from..]` as a number: `Some(None)` when one is no hex digit,
/// `None` when the text ends first (more text is needed).
fn hex_unit(b: &[u8], from: usize) -> Option<Option<u32>> {
    for k in 0..4 {
        if !b.get(from + k)?.is_ascii_hexdigit() {
            return Some(None);
        }
    }
    Some(Some(hex4(&b[from..from + 4])))
}

/// `\uXXXX`, a surrogate pair `\uD83D\uDE00`, or a lone surrogate (U+FFFD).
fn unicode_escape(b: &[u8]) -> Escape {
    let unit = match hex_unit(b, 2) {
        None => return Escape::Wait,
        Some(None) => return Escape::KeepBackslash,
        Some(Some(v)) => v,
    };
    match unit {
        0xD800..=0xDBFF => {
            match starts_with_partial(b.get(6..).unwrap_or_default(), b"\\u") {
                None => return Escape::Wait,
                Some(false) => return Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
                Some(true) => {}
            }
            match hex_unit(b, 8) {
                None => Escape::Wait,
                Some(Some(lo @ 0xDC00..=0xDFFF)) => {
                    let cp = 0x10000 + ((unit - 0xD800) << 10) + (lo - 0xDC00);
                    let ch = char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER);
                    Escape::Char(ch, 12, true)
                }
                // The next escape is read on its own.
                Some(_) => Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
            }
        }
        0xDC00..=0xDFFF => Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
        _ => Escape::Char(
            char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER),
            6,
            true,
        ),
    }
}
