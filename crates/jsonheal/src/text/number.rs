//! Number scanning and grammar, and the one table of literal spellings.

/// The JSON text of a literal word: JSON's own, Python's (`True`, `None`), other languages'
/// (`nil`, `NULL`) or JavaScript's `undefined`. The one table of these spellings.
pub(crate) fn literal_json(w: &[u8]) -> Option<&'static str> {
    Some(match w {
        b"true" | b"True" | b"TRUE" => "true",
        b"false" | b"False" | b"FALSE" => "false",
        b"null" | b"None" | b"none" | b"NULL" | b"Null" | b"nil" | b"undefined" => "null",
        _ => return None,
    })
}

/// Whether a bare word spells a number JSON cannot hold (`NaN`, `Infinity`, `-inf`, …).
pub(crate) fn non_finite_word(w: &[u8]) -> bool {
    matches!(
        w,
        b"NaN" | b"nan" | b"Infinity" | b"-Infinity" | b"+Infinity" | b"inf" | b"-inf"
    )
}

/// The JSON text of a literal word as a look-ahead reads a value: `literal_json`, and
/// `NaN` and `Infinity` as `null` (a word is read as letters only, so no sign reaches here;
/// the lowercase `nan` and `inf` stay words to a look-ahead, as they always have).
pub(crate) fn literal_word(w: &[u8]) -> Option<&'static str> {
    literal_json(w).or_else(|| matches!(w, b"NaN" | b"Infinity").then_some("null"))
}

/// The end of a number-like run at `start`: sign, digits, `.`, exponent, hex digits, `_`.
pub(crate) fn scan_number(b: &[u8], start: usize, end: usize) -> usize {
    let mut i = start;
    if i < end && matches!(b[i], b'-' | b'+') {
        i += 1;
    }
    while i < end {
        match b[i] {
            b'0'..=b'9' | b'.' | b'_' => i += 1,
            b'e' | b'E' => {
                i += 1;
                if i < end && matches!(b[i], b'-' | b'+') {
                    i += 1;
                }
            }
            b'x' | b'X'
                if i == start + 1 || (i == start + 2 && matches!(b[start], b'-' | b'+')) =>
            {
                i += 1;
                while i < end && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                return i;
            }
            _ => break,
        }
    }
    i
}

/// The end of the RFC 8259 number at `b[start..end]`, if one starts there (`0` alone for
/// `01`: what follows decides whether that is the whole token).
pub(crate) fn json_number_end(b: &[u8], start: usize, end: usize) -> Option<usize> {
    let b = b.get(..end)?;
    let digits = |mut i: usize| {
        let d = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > d).then_some(i)
    };
    let mut i = start;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i)?,
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = digits(i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(i)?;
    }
    Some(i)
}

/// A JSON number with no fraction or exponent: `-?(0|[1-9][0-9]*)`.
pub(crate) fn is_json_integer(s: &[u8]) -> bool {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) && is_json_number(s)
}

/// Strict RFC 8259 number grammar.
pub(crate) fn is_json_number(s: &[u8]) -> bool {
    let mut i = 0;
    if s.first() == Some(&b'-') {
        i += 1;
    }
    match s.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while s.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return false,
    }
    // One or more digits at `i`: the offset after them.
    let digits = |mut i: usize| {
        let d = i;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > d).then_some(i)
    };
    if s.get(i) == Some(&b'.') {
        let Some(next) = digits(i + 1) else {
            return false;
        };
        i = next;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let Some(next) = digits(i) else {
            return false;
        };
        i = next;
    }
    i == s.len()
}

/// A number JSON does not allow, rewritten: `+1` → `1`, `.5` → `0.5`, `1.` → `1`, `1e` →
/// `1`, `0x1F` → `31`, `1_000` → `1000`. None when it is not a number at all (`1.2.3`, `-`)
/// or when rewriting would lose what it says (`007`: kept by the caller as a string).
pub(crate) fn parse_number_like(s: &[u8]) -> Option<String> {
    let (neg, body) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() {
        return None;
    }
    let sign = if neg { "-" } else { "" };
    if body.len() > 2 && (body.starts_with(b"0x") || body.starts_with(b"0X")) {
        let hex = std::str::from_utf8(&body[2..]).ok()?;
        let v = u64::from_str_radix(hex, 16).ok()?;
        return Some(format!("{sign}{v}"));
    }
    let cleaned: Vec<u8> = if body.contains(&b'_') {
        // Digit separators only between digits.
        let ok = body.windows(2).all(|w| {
            !(w[0] == b'_' || w[1] == b'_') || (w[0].is_ascii_digit() || w[1].is_ascii_digit())
        }) && body.first().is_some_and(u8::is_ascii_digit)
            && body.last().is_some_and(u8::is_ascii_digit);
        if !ok {
            return None;
        }
        body.iter().copied().filter(|&c| c != b'_').collect()
    } else {
        body.to_vec()
    };
    let body = &cleaned[..];
    // Split mantissa / exponent.
    let (mant, exp) = match body.iter().position(|&c| c == b'e' || c == b'E') {
        Some(p) => (&body[..p], Some(&body[p + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mant.iter().position(|&c| c == b'.') {
        Some(p) => (&mant[..p], Some(&mant[p + 1..])),
        None => (mant, None),
    };
    if !int.iter().all(u8::is_ascii_digit) || !frac.is_none_or(|f| f.iter().all(u8::is_ascii_digit))
    {
        return None;
    }
    if int.is_empty() && frac.is_none_or(|f| f.is_empty()) {
        return None;
    }
    if int.len() > 1 && int[0] == b'0' {
        return None;
    }
    let mut out = String::from(sign);
    out.push_str(if int.is_empty() {
        "0"
    } else {
        std::str::from_utf8(int).ok()?
    });
    if let Some(f) = frac.filter(|f| !f.is_empty()) {
        out.push('.');
        out.push_str(std::str::from_utf8(f).ok()?);
    }
    if let Some(e) = exp {
        let (esign, digits) = match e.first() {
            Some(b'-') => ("-", &e[1..]),
            Some(b'+') => ("+", &e[1..]),
            _ => ("", e),
        };
        if !digits.is_empty() {
            if !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            out.push('e');
            out.push_str(esign);
            out.push_str(std::str::from_utf8(digits).ok()?);
        }
    }
    Some(out)
}
