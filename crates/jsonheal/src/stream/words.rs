//! Bare words, numbers and literals: values in bare words, Python string prefixes, wrapper
//! calls (`ObjectId("…")`) and ellipses, and the numbers and literals that wait for what
//! ends them.

use super::lookahead::quote_ends_lost_opening;
use super::parser::{Mode, Parser, Step};
use super::tree::Kind;
use crate::text::{
    is_ident_start, is_json_integer, is_json_number, is_python_prefix, is_raw_prefix, is_ws,
    starts_with_partial, LOOKAHEAD,
};
use crate::NonFinite;

impl Parser {
    /// `...` at `pos` where the engine skips it and reads on as before (where a key should
    /// be, after a container).
    pub(super) fn dropped_ellipsis(&mut self, bytes: &[u8]) -> Step {
        match starts_with_partial(&bytes[self.pos..], b"...") {
            None => Step::Wait,
            Some(true) => {
                self.repaired = true;
                self.pos += 3;
                Step::Go
            }
            Some(false) => self.freeze(),
        }
    }

    /// `...` or `…` at `pos`, where a value should be: the engine drops it, and a member's
    /// key with it (`{"a": ...}` is `{}`); a comma after it is the one before the next item.
    pub(super) fn ellipsis(&mut self) -> Step {
        self.repaired = true;
        self.pos += 3;
        if self.mode == Mode::MemberValue {
            // The key waits for its value, unseen: drop it.
            self.pending_key = false;
            self.arena.truncate(self.key_start);
        }
        self.mode = Mode::AfterValue;
        Step::Go
    }

    /// The bare string `text[pos..token_end]` (see `bare_member_string`): the member's value,
    /// whole. What ends it (`,` or `}`) is read next.
    pub(super) fn bare_string(&mut self, text: &str, token_end: usize, resume: usize) -> Step {
        let at = self.arena.len();
        self.arena.push_str(&text[self.pos..token_end]);
        if self.attach(Kind::Str, (at, self.arena.len())).is_none() {
            return self.freeze();
        }
        // A string that is no longer read: no append may extend its event.
        self.last_append = None;
        self.repaired = true;
        self.pos = resume;
        self.mode = Mode::AfterValue;
        Step::Go
    }

    /// `ObjectId("507f…")`, `NumberLong(5)`, `ISODate("2024-01-15")`, `Timestamp(1, 2)` as
    /// a value, its name the arena's end and its `(` at `paren`. The engine
    /// (`parse_bare_value`) reads a call with several arguments as its text, a string;
    /// `NumberLong("42")` and the other numeric wrappers as the number; any other call as
    /// its one argument (a `Wrapper` frame). Mirrored for a plain argument: a number, or a
    /// string with no quote, escape or control character in it. Read once the `)` is in;
    /// the value then waits as a number does (`pending`), since elements and a `]` after it
    /// would make it an array's first element.
    fn wrapper_call(&mut self, b: &[u8], paren: usize) -> Step {
        let name_len = self.arena.len() - self.word_start;
        let Some(start) = paren.checked_sub(name_len) else {
            return self.freeze();
        };
        let name = &b[start..paren];
        if name.is_empty()
            || !is_ident_start(name[0])
            || !name
                .iter()
                .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
            || self.stack.len() >= self.depth_limit
        {
            return self.freeze();
        }
        // The engine's `several_args_call_end`.
        let limit = paren + 4 * LOOKAHEAD;
        let (mut depth, mut commas, mut i) = (0usize, 0usize, paren + 1);
        let end = loop {
            if i >= limit {
                return self.freeze();
            }
            let Some(&c) = b.get(i) else {
                self.pos = paren;
                return Step::Wait;
            };
            match c {
                q @ (b'"' | b'\'' | b'`') => {
                    i += 1;
                    loop {
                        if i >= limit {
                            return self.freeze();
                        }
                        match b.get(i) {
                            None => {
                                self.pos = paren;
                                return Step::Wait;
                            }
                            Some(&c) if c == q => break,
                            Some(b'\\') => i += 2,
                            Some(_) => i += 1,
                        }
                    }
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth > 0 => depth -= 1,
                b')' => break Some(i + 1),
                b']' | b'}' => break None,
                b',' if depth == 0 => commas += 1,
                _ => {}
            }
            i += 1;
        };
        let (kind, value, end) = match end {
            // `Timestamp(1, 2)`: its text, as a string.
            Some(end) if commas > 0 => (Kind::Str, start..end, end),
            Some(end) => {
                let numeric = matches!(
                    name,
                    b"NumberLong"
                        | b"NumberInt"
                        | b"NumberDecimal"
                        | b"NumberDouble"
                        | b"Decimal128"
                );
                match plain_call_argument(b, paren + 1, end - 1) {
                    Some((Kind::Str, arg))
                        if numeric
                            && crate::text::json_number_end(b, arg.start, arg.end)
                                == Some(arg.end)
                            && arg.start == paren + 2
                            && arg.end + 2 == end =>
                    {
                        (Kind::Num, arg, end)
                    }
                    Some((kind, arg)) => (kind, arg, end),
                    None => return self.freeze(),
                }
            }
            None => return self.freeze(),
        };
        let Some(value) = std::str::from_utf8(&b[value]).ok() else {
            return self.freeze();
        };
        self.arena.truncate(self.word_start);
        self.arena.push_str(value);
        self.pending = Some(kind);
        self.repaired = true;
        self.pos = end;
        self.mode = Mode::AfterValue;
        Step::Go
    }

    pub(super) fn value_word(&mut self, text: &str) -> Step {
        let bytes = text.as_bytes();
        let start = self.pos;
        let end = bytes[start..]
            .iter()
            .position(|&b| !is_word_byte(b))
            .map_or(bytes.len(), |i| start + i);
        // Word bytes are ASCII, so `end` is a char boundary.
        let piece = &text[start..end];
        self.pos = end;
        let Some(&next) = bytes.get(end) else {
            // The word may still grow (`tru` → `true`, `12` → `123`): kept in the arena.
            self.arena.push_str(piece);
            return Step::Go;
        };
        if next == b'(' {
            // The name may have begun in an earlier piece: the arena's end holds that part.
            self.arena.push_str(piece);
            return self.wrapper_call(bytes, end);
        }
        let whole = self.arena.len() == self.word_start;
        if matches!(next, b'\'' | b'"') {
            return self.prefixed_value(bytes, piece, whole);
        }
        if !matches!(next, b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']') {
            // `true#x`, `1/2`: the engine reads a longer token.
            return self.freeze();
        }
        // A word read whole in this piece is classified where it is; one begun in an earlier
        // piece is the arena's end.
        if !whole {
            self.arena.push_str(piece);
        }
        let word = if whole {
            piece
        } else {
            self.arena.get(self.word_start..).unwrap_or_default()
        };
        let token_ends = matches!(next, b',' | b'}' | b']' | b'\n' | b'\r');
        let classified = classify(word, self.non_finite);
        if classified.is_none()
            && token_ends
            && word
                .strip_suffix('.')
                .is_some_and(|w| is_json_integer(w.as_bytes()))
        {
            // `12.`: an integer with a trailing dot, which the engine drops (`1.5.` and
            // `1e3.` are strings to it).
            if whole {
                self.arena.push_str(&piece[..piece.len() - 1]);
            } else {
                self.arena.pop();
            }
            self.repaired = true;
            self.pending = Some(Kind::Num);
            self.mode = Mode::AfterValue;
            return if matches!(next, b',' | b'}' | b']') {
                self.separator(bytes, next)
            } else {
                Step::Go
            };
        }
        // `1.2.3`, `2024-01-15`, `192.168.1.10`, `007` right before a separator or a line
        // break, where the engine's bare token ends: a bare string to the engine.
        let numeric_string = classified.is_none() && token_ends && is_numeric_bare_string(word);
        // It, and a non-finite word the engine has no literal for, the engine reads only
        // after its look for a value that lost its opening quote (`[1-, x"]` is one string
        // to it): no such quote may come later on the line.
        if numeric_string
            || (token_ends && matches!(word, "nan" | "inf" | "-inf" | "+Infinity" | "-Infinity"))
        {
            match quote_ends_lost_opening(bytes, end, (end - word.len().min(end)) + LOOKAHEAD) {
                None => {
                    if whole {
                        self.arena.push_str(piece);
                    }
                    return Step::Wait;
                }
                Some(true) => return self.freeze(),
                Some(false) => {}
            }
        }
        let Some((kind, json)) = classified.or(numeric_string.then_some((Kind::Str, false))) else {
            return self.freeze();
        };
        self.repaired |= !json;
        if whole && matches!(kind, Kind::Num | Kind::Str) {
            // Its node shows the text.
            self.arena.push_str(piece);
        }
        self.pending = Some(kind);
        self.mode = Mode::AfterValue;
        if next == b',' || next == b'}' || next == b']' {
            // What `token` would do next, without going round.
            self.separator(bytes, next)
        } else {
            Step::Go
        }
    }

    /// `u'Ada'`, `b"x"`: a word right before a quote, at `pos`, in a value. A Python
    /// string prefix is dropped and the string read as any other (the engine's
    /// `python_string_prefix`), unless the engine takes the quote for the closing one of a
    /// value that lost its opening quote (`value_lost_opening_quote`): it looks for the
    /// first `"` on the line, and the stream reads on only when there is none, or a space
    /// comes before it.
    fn prefixed_value(&mut self, bytes: &[u8], piece: &str, whole: bool) -> Step {
        if !whole {
            self.arena.push_str(piece);
        }
        let word = self
            .arena
            .as_bytes()
            .get(self.word_start..)
            .unwrap_or_default();
        let word = if whole { piece.as_bytes() } else { word };
        if !is_python_prefix(word) || is_raw_prefix(word) {
            return self.freeze();
        }
        let start = self.pos - word.len().min(self.pos);
        let limit = start + LOOKAHEAD;
        let mut k = start;
        let no_quote = loop {
            if k >= limit {
                break true;
            }
            match bytes.get(k) {
                None => {
                    // Undecided: the word waits in the arena, as any word does.
                    if whole {
                        self.arena.push_str(piece);
                    }
                    return Step::Wait;
                }
                Some(b'\n' | b'\r') => break true,
                Some(b'\\') => k += 2,
                Some(b'"') => break is_ws(bytes[k - 1]),
                Some(_) => k += 1,
            }
        };
        if !no_quote {
            return self.freeze();
        }
        self.arena.truncate(self.word_start);
        self.repaired = true;
        let object = self.stack.last().is_some_and(|f| f.object);
        self.mode = if object {
            Mode::MemberValue
        } else {
            Mode::Element
        };
        Step::Go
    }

    /// Show the number or literal waiting for confirmation; false if that froze the stream.
    pub(super) fn commit_pending(&mut self) -> bool {
        if let Some(kind) = self.pending.take() {
            // The word is the arena's end; a literal's node shows no text.
            let end = if matches!(kind, Kind::Num | Kind::Str) {
                self.arena.len()
            } else {
                self.word_start
            };
            if self.attach(kind, (self.word_start, end)).is_none() {
                self.freeze();
                return false;
            }
        }
        true
    }
}

/// The one argument of a call, `b[from..close]` (`close` at its `)`), when it is plain: a
/// JSON number, or a string in straight quotes with no quote, backslash, control character
/// or typographic quote in it, spaces around either. Its kind and the range of its number
/// text or string content.
fn plain_call_argument(
    b: &[u8],
    from: usize,
    close: usize,
) -> Option<(Kind, std::ops::Range<usize>)> {
    let inner = b.get(from..close)?;
    let lead = inner
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    let trail = inner[lead..]
        .iter()
        .rev()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    let (a, z) = (from + lead, close - trail);
    let arg = b.get(a..z)?;
    match arg.first()? {
        &q @ (b'"' | b'\'') => {
            let content = arg.get(1..arg.len().checked_sub(1)?)?;
            (arg.len() >= 2
                && arg[arg.len() - 1] == q
                && !content
                    .iter()
                    .any(|&c| c < 0x20 || matches!(c, b'"' | b'\'' | b'\\' | 0xE2)))
            .then_some((Kind::Str, a + 1..z - 1))
        }
        _ => (crate::text::json_number_end(b, a, z) == Some(z)).then_some((Kind::Num, a..z)),
    }
}

/// Bytes of a bare number or literal (`-12.5e3`, `true`, `None`).
pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_' | b'$')
}

/// The value of a complete bare word, or `None` when it is not one the stream may decide
/// alone (a bare string value, a number JSON does not allow).
/// The text of a `Num` or `Str` is the word itself.
fn classify(word: &str, non_finite: NonFinite) -> Option<(Kind, bool)> {
    Some(match word {
        _ if is_json_number(word.as_bytes()) => (Kind::Num, true),
        "true" => (Kind::Bool(true), true),
        "false" => (Kind::Bool(false), true),
        "null" => (Kind::Null, true),
        "True" | "TRUE" => (Kind::Bool(true), false),
        "False" | "FALSE" => (Kind::Bool(false), false),
        "None" | "none" | "NULL" | "Null" | "nil" | "undefined" => (Kind::Null, false),
        "NaN" | "nan" | "Infinity" | "-Infinity" | "+Infinity" | "inf" | "-inf" => match non_finite
        {
            NonFinite::Null => (Kind::Null, false),
            NonFinite::String => (Kind::Str, false),
            NonFinite::Error => return None,
        },
        _ => return None,
    })
}

/// A word of digits, dots and dashes that starts like a number but is none, nor an integer
/// with a trailing dot (`1.` is 1 to the engine): `1.2.3`, `2024-01-15`, `007`, `10-20`. The
/// engine reads it as a bare string when a separator ends it.
fn is_numeric_bare_string(word: &str) -> bool {
    let b = word.as_bytes();
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    digits.first().is_some_and(u8::is_ascii_digit)
        && digits
            .iter()
            .all(|&c| c.is_ascii_digit() || c == b'.' || c == b'-')
        && !is_json_number(word.as_bytes())
        && !word
            .strip_suffix('.')
            .is_some_and(|w| is_json_integer(w.as_bytes()))
}
