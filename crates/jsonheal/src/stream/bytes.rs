//! The stream's quote marks and the scans for the next stop in a string (the byte facts it
//! shares with the engine are in `crate::text`).

use crate::text::starts_with_partial;

/// `Mode::Str`'s quote for a string a typographic double quote opened (`“name”`): it
/// closes at `”`, `“` or a straight `"` (the engine's rule), subject to what follows.
pub(super) const TYPO: u8 = 0xE2;

/// `Mode::Str`'s quote for a string a typographic single quote opened (`‘name’`): it
/// closes at `’`, `‘` or a straight `"`, as `TYPO` does at its own. (The last byte of `‘`:
/// no quote byte of its own, and never searched for in the text; scans look for 0xE2.)
pub(super) const TYPO_SINGLE: u8 = 0x98;

/// Which typographic quote `b` starts with, as the engine reads one that opens or closes a
/// string: `TYPO` for `“` or `”`, `TYPO_SINGLE` for `‘` or `’`, `Some(None)` for any
/// other text; `None` when more text is needed to tell.
pub(super) fn typo_quote_at(b: &[u8]) -> Option<Option<u8>> {
    match (b.first(), b.get(1), b.get(2)) {
        (Some(0xE2), Some(0x80), Some(0x9C | 0x9D)) => Some(Some(TYPO)),
        (Some(0xE2), Some(0x80), Some(0x98 | 0x99)) => Some(Some(TYPO_SINGLE)),
        (Some(0xE2), None, _) | (Some(0xE2), Some(0x80), None) => None,
        _ => Some(None),
    }
}

pub(super) fn is_typographic(quote: u8) -> bool {
    quote == TYPO || quote == TYPO_SINGLE
}

/// The length of the opening quote of a `Mode::Str` string.
pub(super) fn quote_len(quote: u8) -> usize {
    if is_typographic(quote) {
        3
    } else {
        1
    }
}

/// Whether a string quote starts `b` (`"`, `'`, a backtick that is not a fence, a
/// typographic quote); `None` when more text is needed to tell.
pub(super) fn quote_at(b: &[u8]) -> Option<bool> {
    match b.first() {
        Some(b'"' | b'\'') => Some(true),
        Some(b'`') => starts_with_partial(b, b"```").map(|fence| !fence),
        Some(0xE2) => match (b.get(1), b.get(2)) {
            (Some(0x80), Some(0x98 | 0x99 | 0x9C | 0x9D | 0x9E)) => Some(true),
            (None, _) | (Some(0x80), None) => None,
            _ => Some(false),
        },
        _ => Some(false),
    }
}

/// The first `quote` or `\\` in `rest`, or `third` too. The first bytes are
/// tested eight at a time in a word (the next stop is often close: an escape, the end of a
/// short key or of a small push); memchr, whose setup costs more than that, takes the rest.
#[inline]
pub(super) fn string_stop(rest: &[u8], quote: u8, third: Option<u8>) -> Option<usize> {
    const NEAR: usize = 64;
    let (typographic, third) = (third.is_some(), third.unwrap_or(quote));
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `w` equal to `c`. Only bytes above the first match can
    // be flagged wrongly, so the lowest flag is exact.
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut i = 0;
    while i < NEAR {
        let Some(word) = rest.get(i..i + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()) else {
            // Fewer than eight bytes left.
            let tail = rest.get(i..).unwrap_or_default();
            return tail
                .iter()
                .position(|&c| c == quote || c == b'\\' || (typographic && c == third))
                .map(|k| i + k);
        };
        let w = u64::from_le_bytes(word);
        let mut found = matches(w, quote) | matches(w, b'\\');
        if typographic {
            found |= matches(w, third);
        }
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    string_stop_far(rest.get(NEAR..)?, quote, typographic.then_some(third)).map(|k| k + NEAR)
}

/// `string_stop` for a straight-quoted value (`"`, `\`, `'` or the 0xE2 of a typographic
/// quote), inlined into `Parser::plain_value_run`'s loop; with `CONTROL`, a byte below 0x20
/// too (for `whole`, which takes strict JSON only).
#[inline(always)]
pub(super) fn plain_stop<const CONTROL: bool>(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte equal to `c` (below `c` for `below`); only bytes above the
    // lowest flag can be flagged wrongly, so the lowest is exact.
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let below = |w: u64, c: u8| w.wrapping_sub(ONES * u64::from(c)) & !w & HIGHS;
    let found = |w: u64| {
        let mut found = matches(w, b'"') | matches(w, b'\\') | matches(w, 0xE2) | matches(w, b'\'');
        if CONTROL {
            found |= below(w, 0x20);
        }
        found
    };
    let mut words = rest.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let w = found(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if w != 0 {
            return Some(at + (w.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = words.remainder().len();
    if tail == 0 {
        return None;
    }
    if let Some(last) = rest.last_chunk::<8>() {
        // The last eight bytes, the first `8 - tail` of them read above with no stop: their
        // flags are shifted out. No stop among them means no borrow out of them either, so
        // the lowest flag left is exact.
        let w = found(u64::from_le_bytes(*last)) >> (8 * (8 - tail));
        return (w != 0).then(|| at + (w.trailing_zeros() / 8) as usize);
    }
    words
        .remainder()
        .iter()
        .position(|&c| matches!(c, b'"' | b'\\' | 0xE2 | b'\'') || (CONTROL && c < 0x20))
        .map(|k| at + k)
}

/// The third byte a string's scan stops at, where the engine may close it with another
/// quote: a `”` in a straight-quoted value, a `'` in a straight-quoted key, a `"` in a
/// single-quoted string.
pub(super) fn third_stop(quote: u8, key: bool) -> Option<u8> {
    match (quote, key) {
        (b'"', false) => Some(0xE2),
        (b'"', true) => Some(b'\''),
        (b'\'', _) | (TYPO | TYPO_SINGLE, _) => Some(b'"'),
        _ => None,
    }
}

/// `string_stop` past its first words, out of line so that the common short scan stays
/// small.
#[inline(never)]
fn string_stop_far(far: &[u8], quote: u8, third: Option<u8>) -> Option<usize> {
    match third {
        Some(third) => memchr::memchr3(quote, b'\\', third, far),
        None => memchr::memchr2(quote, b'\\', far),
    }
}
