//! Array judgements: elements, lost openers and closers.

use crate::text::{is_ws, json_number_end, literal_word, LOOKAHEAD};

/// Whether a number starts an array's first element at `b[j]`: digits (with a sign, a point
/// or an exponent), then `,`, `]`, a space or the end. `[1, 2]` and `[1 2]` are arrays; in
/// prose `[8%]`, `[0u8; 32]` and `[-r]` are not. `complete`: `b` is the whole text;
/// otherwise `None` when it ends too soon to tell (a stream waits). Shared by the engine
/// and the stream.
pub(crate) fn number_element_at(b: &[u8], j: usize, complete: bool) -> Option<bool> {
    let at_end = if complete { Some(true) } else { None };
    let mut k = j + usize::from(b.get(j) == Some(&b'-'));
    let digits = k;
    while b.get(k).is_some_and(|c| c.is_ascii_digit()) {
        k += 1;
    }
    if k == digits {
        return if k < b.len() { Some(false) } else { at_end };
    }
    while b
        .get(k)
        .is_some_and(|&c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        k += 1;
    }
    match b.get(k) {
        None => at_end,
        Some(&c) => Some(is_ws(c) || matches!(c, b',' | b']')),
    }
}

/// `Parser::elements_then_array_closer` on `b`, a prefix of the text: where the `]` after
/// the elements at `b[k]` ends; `Ok(None)` when none is there within the look-ahead;
/// `Err(())` when `b` ends before that is decided (the stream waits on it).
pub(crate) fn elements_then_array_closer_at(b: &[u8], k: usize) -> Result<Option<usize>, ()> {
    let limit = k + LOOKAHEAD;
    let skip_ws = |mut i: usize| {
        while i < limit && i < b.len() && is_ws(b[i]) {
            i += 1;
        }
        i
    };
    // Where `b` ends before the look-ahead does, the rest of the text decides.
    let at = |i: usize| match b.get(i) {
        _ if i >= limit => Ok(None),
        None => Err(()),
        Some(&c) => Ok(Some(c)),
    };
    let mut i = skip_ws(k);
    loop {
        let Some(first) = at(i)? else {
            return Ok(None);
        };
        let end = match first {
            q @ (b'"' | b'\'') => {
                let mut j = i + 1;
                loop {
                    match at(j)? {
                        None | Some(b'\n') => return Ok(None),
                        Some(b'\\') => j += 2,
                        Some(c) if c == q => break j + 1,
                        Some(_) => j += 1,
                    }
                }
            }
            _ => {
                // A number or a literal word, read to its end (which `b` may not hold yet).
                let mut e = i;
                while at(e)?.is_some_and(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c)) {
                    e += 1;
                }
                match json_number_end(b, i, e) {
                    Some(n) => n,
                    None => {
                        let word = b[i..e]
                            .iter()
                            .position(|c| !c.is_ascii_alphabetic())
                            .map_or(e, |n| i + n);
                        if literal_word(&b[i..word]).is_none() {
                            return Ok(None);
                        }
                        word
                    }
                }
            }
        };
        i = skip_ws(end);
        match at(i)? {
            Some(b']') => return Ok(Some(i + 1)),
            Some(b',') => i = skip_ws(i + 1),
            _ => return Ok(None),
        }
    }
}
