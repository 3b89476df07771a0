//! Quote kinds, typographic quotes, Python string prefixes, string scanning.

/// Typographic quote at `b[i..]`: its length (3) and whether it is double.
pub(crate) fn typographic_quote(b: &[u8], i: usize) -> Option<TypoQuote> {
    if b.get(i) != Some(&0xE2) {
        return None;
    }
    match (b.get(i + 1), b.get(i + 2)) {
        // `“`, and `„` which opens German and Polish quotations (`„Köln“`).
        (Some(0x80), Some(0x9C | 0x9E)) => Some(TypoQuote::DoubleOpen),
        (Some(0x80), Some(0x9D)) => Some(TypoQuote::DoubleClose),
        (Some(0x80), Some(0x98)) => Some(TypoQuote::SingleOpen),
        (Some(0x80), Some(0x99)) => Some(TypoQuote::SingleClose),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TypoQuote {
    DoubleOpen,
    DoubleClose,
    SingleOpen,
    SingleClose,
}

/// What delimits a string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Quote {
    Double,
    Single,
    Backtick,
    TypoDouble,
    TypoSingle,
}

impl Quote {
    pub(crate) fn open_len(self) -> usize {
        match self {
            Quote::TypoDouble | Quote::TypoSingle => 3,
            _ => 1,
        }
    }

    /// Length of a closing delimiter at `b[i..]`, if there is one.
    pub(crate) fn close_at(self, b: &[u8], i: usize) -> Option<usize> {
        match self {
            Quote::Double => (b.get(i) == Some(&b'"')).then_some(1),
            Quote::Single => (b.get(i) == Some(&b'\'')).then_some(1),
            Quote::Backtick => (b.get(i) == Some(&b'`')).then_some(1),
            Quote::TypoDouble => match typographic_quote(b, i) {
                Some(TypoQuote::DoubleClose | TypoQuote::DoubleOpen) => Some(3),
                _ => (b.get(i) == Some(&b'"')).then_some(1),
            },
            // `‘/var/log", …`: opened by `‘`, closed by a straight `"` (what follows decides,
            // as for any closing quote).
            Quote::TypoSingle => match typographic_quote(b, i) {
                Some(TypoQuote::SingleClose | TypoQuote::SingleOpen) => Some(3),
                _ => (b.get(i) == Some(&b'"')).then_some(1),
            },
        }
    }
}

pub(crate) fn quote_at(b: &[u8], i: usize) -> Option<Quote> {
    match b.get(i)? {
        b'"' => Some(Quote::Double),
        b'\'' => Some(Quote::Single),
        b'`' => (!b[i..].starts_with(b"```")).then_some(Quote::Backtick),
        0xE2 => match typographic_quote(b, i)? {
            TypoQuote::DoubleOpen | TypoQuote::DoubleClose => Some(Quote::TypoDouble),
            TypoQuote::SingleOpen | TypoQuote::SingleClose => Some(Quote::TypoSingle),
        },
        _ => None,
    }
}

/// Where the string that `q` opens at `k` ends (just past its closing quote), read as
/// `Parser::scan_quoted` reads it: escapes skipped, at most `max` bytes ahead, never past a
/// line break, nor at `end` or beyond. `Ok(None)`: it does not end there. `Err(())`: `end`
/// comes first, so a longer text may still tell (the stream's question; to the engine,
/// that is no end either).
pub(crate) fn quoted_end(
    b: &[u8],
    end: usize,
    k: usize,
    q: Quote,
    max: usize,
) -> Result<Option<usize>, ()> {
    let limit = (k + max).min(end);
    let mut i = k + q.open_len();
    while i < limit {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == b'\n' {
            return Ok(None);
        }
        if let Some(len) = q.close_at(b, i) {
            return Ok(Some(i + len));
        }
        i += 1;
    }
    if k + max <= end {
        Ok(None)
    } else {
        Err(())
    }
}

/// The length of a Python string prefix (`u`, `b`, `r`, `f`, `rb`, `br`, either case) right
/// before a quote at `b[i..]`, or `None`.
#[inline]
pub(crate) fn python_string_prefix(b: &[u8], i: usize) -> Option<usize> {
    let quote = |k: usize| matches!(b.get(k), Some(b'"' | b'\''));
    if !matches!(*b.get(i)? | 0x20, b'u' | b'b' | b'r' | b'f') || !(quote(i + 1) || quote(i + 2)) {
        return None;
    }
    (1..=2).find(|&n| quote(i + n) && b.get(i..i + n).is_some_and(is_python_prefix))
}

/// `u`, `b`, `r`, `f`, `rb`, `br`, `rf`, `fr` in any case: a Python string prefix, as a word.
pub(crate) fn is_python_prefix(word: &[u8]) -> bool {
    match word {
        [c] => matches!(c.to_ascii_lowercase(), b'u' | b'b' | b'r' | b'f'),
        [c, d] => matches!(
            [c.to_ascii_lowercase(), d.to_ascii_lowercase()],
            [b'r', b'b'] | [b'b', b'r'] | [b'r', b'f'] | [b'f', b'r']
        ),
        _ => false,
    }
}

/// Whether a Python string prefix (see `python_string_prefix`) makes the string raw.
pub(crate) fn is_raw_prefix(prefix: &[u8]) -> bool {
    prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'r'))
}

/// The end of the run of bytes at `start` that a string copies as they are (before `end`).
/// Eight bytes at a time: strings are most of a document's bytes. The lowest flagged byte
/// of a word is exact (see `string_special_mask`), so no byte loop follows a hit, and the
/// last few bytes are read as a word padded with plain bytes.
#[inline]
pub(crate) fn plain_run_end(b: &[u8], start: usize, end: usize) -> usize {
    let Some(hay) = b.get(start..end) else {
        return end;
    };
    let mut chunks = hay.chunks_exact(8);
    let mut at = start;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let mask = string_special_mask(u64::from_le_bytes(word));
        if mask != 0 {
            return at + (mask.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = chunks.remainder();
    if rest.is_empty() {
        return end;
    }
    let mut word = [b'a'; 8];
    word[..rest.len()].copy_from_slice(rest);
    let mask = string_special_mask(u64::from_le_bytes(word));
    if mask == 0 {
        end
    } else {
        at + (mask.trailing_zeros() / 8) as usize
    }
}

/// Whether any byte of `w` may be special in a string (a control byte, a quote, a
/// backslash, or 0xE2, which starts a typographic quote).
#[cfg(test)]
pub(crate) fn has_string_special(w: u64) -> bool {
    string_special_mask(w) != 0
}

/// The high bit of every byte of `w` (little-endian) that may be special in a string. The
/// lowest set bit is exact: a flag can be false only above a truly special byte (a borrow
/// from it), so `trailing_zeros() / 8` is the index of the first special byte.
#[inline]
pub(crate) fn string_special_mask(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let eq = |c: u8| has_zero(w ^ (ONES * u64::from(c)));
    // Bytes below 0x20 (ASCII only: `& !w` keeps bytes whose high bit is clear).
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    control | eq(b'"') | eq(b'\\') | eq(b'\'') | eq(b'`') | eq(0xE2)
}

/// Bytes that interrupt the fast copy loop inside a string (what `string_special_mask`
/// computes a word at a time).
#[cfg(test)]
pub(crate) static STRING_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'`' as usize] = true;
    t[0xE2] = true;
    t
};

/// Whether `s` holds `quote` with no backslash escaping it (`\\"` is an escape).
pub(crate) fn has_unescaped(s: &[u8], quote: u8) -> bool {
    let mut k = 0;
    while let Some(n) = s
        .get(k..)
        .and_then(|rest| memchr::memchr2(quote, b'\\', rest))
    {
        if s[k + n] == quote {
            return true;
        }
        k += n + 2;
    }
    false
}

/// Whether the byte at `i` is escaped: an odd number of backslashes right before it.
pub(crate) fn escaped_at(b: &[u8], i: usize) -> bool {
    b[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}
