//! Strings: their content, escapes, and the quotes and keys at their edges.

use super::parser::{FrameKind, Parser, StrCtx, StrEnd};
use super::RepairKind;
use crate::error::Error;
use crate::rules::apostrophe_closes;
use crate::text::{
    escaped_at, has_unescaped, hex4, is_ws, plain_run_end, quote_at, utf8_len, Quote,
    FULL_WIDTH_COLON, KEY_LIKE_LEN, LOOKAHEAD,
};

/// JSON written inside a string with its quotes unescaped (`"{"a": "b"}"`): from the first
/// `{"` or `["` of the content on, the balance of its brackets. Scanned once, as the string's
/// candidate closing quotes come (so a string costs linear time however many there are).
pub(super) struct EmbeddedJson {
    pub(super) scanned: usize,
    pub(super) started: bool,
    pub(super) depth: i64,
}

impl EmbeddedJson {
    pub(super) fn new(content_start: usize) -> EmbeddedJson {
        EmbeddedJson {
            scanned: content_start,
            started: false,
            depth: 0,
        }
    }

    /// Whether embedded JSON is open at the quote at `b[i]` (the content is `b[..i]`).
    pub(super) fn open_at(&mut self, b: &[u8], i: usize) -> bool {
        if !self.started {
            // Most strings hold no bracket at all: find the first one at SIMD speed.
            match b
                .get(self.scanned..i)
                .and_then(|s| memchr::memchr2(b'{', b'[', s))
            {
                Some(n) => self.scanned += n,
                None => {
                    self.scanned = i.max(self.scanned);
                    return false;
                }
            }
        }
        while self.scanned < i {
            let c = b[self.scanned];
            match c {
                // The quote after the bracket is an inner one, not the candidate itself.
                b'{' | b'['
                    if !self.started && self.scanned + 1 < i && b[self.scanned + 1] == b'"' =>
                {
                    self.started = true;
                    self.depth = 1;
                }
                b'{' | b'[' if !self.started => {}
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' if self.started => self.depth -= 1,
                _ => {}
            }
            self.scanned += 1;
        }
        self.started && self.depth > 0
    }
}

impl Parser<'_> {
    /// Parse a string opened by `q` at `self.pos` and write it as a JSON string (without the
    /// opening quote when `continued`, for concatenation). Returns false when the input
    /// ended inside it.
    pub(super) fn parse_string(
        &mut self,
        q: Quote,
        ctx: StrCtx,
        continued: bool,
    ) -> Result<bool, Error> {
        let b = self.src;
        let open = self.pos;
        match q {
            Quote::Double => {}
            Quote::Single | Quote::Backtick => {
                self.record(RepairKind::SingleQuotes, open..open + 1);
            }
            Quote::TypoDouble | Quote::TypoSingle => {
                self.record(RepairKind::TypographicQuotes, open..open + 3);
            }
        }
        self.pos += q.open_len();
        // Where the string's text starts in `out`, and how many repairs there were then
        // (see `key_lost_closing_quote`).
        let out_open = (!continued).then(|| self.out.len() + 1);
        let repairs_at_open = self.repairs.len();
        if !continued {
            self.out.push(b'"');
        }
        self.string_open = open;
        self.string_content = self.pos;
        if !continued {
            // A concatenation's parts are one string: an inner quote in any part counts.
            self.inner_quote_seen = false;
            self.concat_open = open;
        }
        // `"C:\new\data"`: in a Windows path every backslash is a separator, even where it
        // would make a valid escape.
        let p = self.pos;
        let mut embedded = EmbeddedJson::new(self.pos);
        // Whether the string holds a raw line break.
        let mut raw_line_break = false;
        let raw = std::mem::take(&mut self.raw_next);
        let windows_path = self.byte(p).is_some_and(|c| c.is_ascii_alphabetic())
            && self.byte(p + 1) == Some(b':')
            && self.byte(p + 2) == Some(b'\\')
            && self.byte(p + 3).is_some_and(|c| c != b'\\' && c != b'"')
            && self.invalid_escape_ahead(p);
        loop {
            // Fast path: copy plain bytes.
            let run_start = self.pos;
            let i = plain_run_end(b, run_start, self.end);
            self.out.push_input(self.text, run_start..i);
            self.pos = i;
            if i >= self.end
                && ctx == StrCtx::Key
                && self.close_key_at_colon(i, out_open, repairs_at_open)
            {
                return Ok(true);
            }
            if i >= self.end {
                // The input ended inside the string. If only closers follow its last line
                // break (`"bar\n}`), the quote went missing at that line's end.
                // (From the first line break of that trailing run: `"x\n  ]\n}`.)
                if raw_line_break && ctx != StrCtx::Key {
                    let mut run = self.end;
                    while run > p && (is_ws(b[run - 1]) || matches!(b[run - 1], b'}' | b']' | b','))
                    {
                        run -= 1;
                    }
                    let nl = memchr::memchr(b'\n', &b[run..self.end]).map(|n| run + n);
                    if let Some(nl) = nl.filter(|&nl| {
                        b[nl + 1..self.end]
                            .iter()
                            .any(|&c| matches!(c, b'}' | b']'))
                    }) {
                        self.close_string_at(nl);
                        return Ok(true);
                    }
                }
                if ctx != StrCtx::Key {
                    if let Some(cut) = self.closers_at_string_end(p, self.end) {
                        // `{"key": ["value]}`: the text ends with exactly the closers of
                        // what is open, so the quote went missing before them.
                        self.close_string_at(cut);
                        return Ok(true);
                    }
                }
                if self.end < self.src.len() {
                    // A closing fence cut it: close it here.
                    self.record(RepairKind::MissingQuote, i..i);
                } else {
                    self.mark_truncated();
                }
                self.out.push(b'"');
                self.string_end = Some(self.out.len());
                return Ok(false);
            }
            let c = b[i];
            if let Some(len) = q.close_at(b, i) {
                let mut end_kind = self.string_end_kind(q, i + len, ctx);
                // `"{"location": "Boston, MA", "unit": "f"}"`: JSON inside the string, its
                // quotes unescaped. While its brackets are open, a quote before `, "key"`
                // belongs to it.
                // (For `Unterminated`, the quote opens `"key"` after `, ` inside it.)
                if end_kind != StrEnd::Inner
                    && q == Quote::Double
                    && ctx == StrCtx::Value
                    && embedded.open_at(b, i)
                    && (matches!(
                        end_kind,
                        StrEnd::Unterminated | StrEnd::UnterminatedBeforeClosers(_)
                    ) || self.separator_follows(i + len))
                {
                    end_kind = StrEnd::Inner;
                }
                if ctx == StrCtx::Key
                    && (end_kind == StrEnd::Inner
                        || (end_kind == StrEnd::Close && !self.colon_follows(i + len)))
                    && self.close_key_at_colon(i, out_open, repairs_at_open)
                {
                    return Ok(true);
                }
                match end_kind {
                    StrEnd::Close => {
                        self.pos = i + len;
                        self.string_close = self.pos;
                        self.out.push(b'"');
                        self.string_end = Some(self.out.len());
                        return Ok(true);
                    }
                    StrEnd::Unterminated => {
                        self.trim_separator_before(i);
                        self.record(RepairKind::MissingQuote, i..i);
                        self.out.push(b'"');
                        self.string_end = Some(self.out.len());
                        return Ok(true);
                    }
                    StrEnd::UnterminatedBeforeClosers(k) => {
                        // The closers, the comma and the spaces were copied as content:
                        // take them back and read them again as structure.
                        let written = i - k;
                        if self.out.len() >= written
                            && self
                                .out
                                .slice(self.out.len() - written..self.out.len())
                                .as_bytes()
                                == &b[k..i]
                        {
                            self.out.truncate(self.out.len() - written);
                            self.record(RepairKind::MissingQuote, k..k);
                            self.out.push(b'"');
                            self.string_end = Some(self.out.len());
                            self.pos = k;
                            return Ok(true);
                        }
                        // Not copied as written (never expected): the quote is content.
                        self.inner_quote_seen = true;
                        self.record(RepairKind::InnerQuote, i..i + len);
                        self.out.push_str("\\\"");
                        self.pos = i + len;
                        continue;
                    }
                    StrEnd::Inner => {
                        self.inner_quote_seen = true;
                        self.record(RepairKind::InnerQuote, i..i + len);
                        if len == 1 && c == b'"' {
                            self.out.push_str("\\\"");
                        } else {
                            self.out.push_input(self.text, i..i + len);
                        }
                        self.pos = i + len;
                        continue;
                    }
                }
            }
            match c {
                b'\\' => self.parse_escape(q, windows_path, raw)?,
                // `{"a": 'x", "b": 1}`: opened by `'`, closed by `"`.
                b'"' if q == Quote::Single
                    && !has_unescaped(&b[self.string_content..i], b'"')
                    && self.double_quote_closes(i + 1, ctx) =>
                {
                    self.record(RepairKind::SingleQuotes, i..i + 1);
                    self.pos = i + 1;
                    self.out.push(b'"');
                    self.string_end = Some(self.out.len());
                    return Ok(true);
                }
                b'"' => {
                    // A double quote inside a single-quoted string.
                    self.out.push_str("\\\"");
                    self.pos += 1;
                }
                // `"x”, "b": …`: a straight quote opened it, a typographic one closes it.
                // `"fr’, "n": 1`, `"status”: "ok"`: the same for `’`, and for a key.
                0xE2 if q == Quote::Double && self.typographic_closes(i, ctx) => {
                    self.record(RepairKind::TypographicQuotes, i..i + 3);
                    self.pos = i + 3;
                    self.out.push(b'"');
                    self.string_end = Some(self.out.len());
                    return Ok(true);
                }
                // `{"a': 1}`: opened by `"`, closed by `'` before the key's colon.
                b'\''
                    if q == Quote::Double
                        && ctx == StrCtx::Key
                        && !b[self.string_content..i].contains(&b'\'')
                        && {
                            let k = self.skip_layout_ahead(i + 1);
                            k < self.end && b[k] == b':'
                        }
                        && !self.key_closer_later(i + 1, b'"') =>
                {
                    self.record(RepairKind::SingleQuotes, i..i + 1);
                    self.pos = i + 1;
                    self.out.push(b'"');
                    self.string_end = Some(self.out.len());
                    return Ok(true);
                }
                // `"Build passed', "ms": 3}`: opened by `"`, closed by `'`.
                b'\''
                    if q == Quote::Double
                        && ctx == StrCtx::Value
                        && !self.inner_quote_seen
                        && matches!(
                            self.top_kind(),
                            Some(FrameKind::Object | FrameKind::Array)
                        )
                        && apostrophe_closes(
                            &b[..self.end],
                            i + 1,
                            self.top_kind() == Some(FrameKind::Object),
                            true,
                        ) == Some(true) =>
                {
                    self.record(RepairKind::SingleQuotes, i..i + 1);
                    self.pos = i + 1;
                    self.out.push(b'"');
                    self.string_end = Some(self.out.len());
                    return Ok(true);
                }
                b'\'' | b'`' | 0xE2 => {
                    let len = if c == 0xE2 {
                        utf8_len(c).min(self.end - i)
                    } else {
                        1
                    };
                    self.out.push_input(self.text, i..i + len);
                    self.pos = i + len;
                }
                _ => {
                    // A raw control character.
                    self.record(RepairKind::ControlCharacter, i..i + 1);
                    match c {
                        b'\n' => {
                            raw_line_break = true;
                            self.out.push_str("\\n");
                        }
                        b'\r' => self.out.push_str("\\r"),
                        b'\t' => self.out.push_str("\\t"),
                        _ => {
                            let hex = b"0123456789abcdef";
                            self.out.push_str("\\u00");
                            self.out.push(hex[(c >> 4) as usize]);
                            self.out.push(hex[(c & 15) as usize]);
                        }
                    }
                    self.pos += 1;
                }
            }
        }
    }

    /// The string's text from `cut` to the input's end was copied as content, its layout
    /// escaped: take it back and close the string at `cut`, where its quote went missing.
    /// The line breaks in it are layout again, no longer reported as escaped.
    pub(super) fn close_string_at(&mut self, cut: usize) {
        let written: usize = self.src[cut..self.end]
            .iter()
            .map(|&c| {
                if matches!(c, b'\n' | b'\r' | b'\t') {
                    2
                } else {
                    1
                }
            })
            .sum();
        self.out.truncate(self.out.len().saturating_sub(written));
        self.repairs
            .retain(|r| r.kind() != RepairKind::ControlCharacter || r.span().start < cut);
        self.record(RepairKind::MissingQuote, cut..cut);
        self.out.push(b'"');
        self.pos = cut;
        self.string_end = Some(self.out.len());
    }

    /// Whether a `"` right before `after`, the first in a single-quoted string, closes it: a
    /// `:` follows a key; the closer of what holds it, or a comma and the next key or
    /// element, follows a value. (Later ones are JSON or code inside the string:
    /// `'{"a":"b","c":1}'`.)
    #[cold]
    pub(super) fn double_quote_closes(&self, after: usize, ctx: StrCtx) -> bool {
        let b = self.src;
        let k = self.skip_layout_ahead(after);
        if k >= self.end {
            return false;
        }
        match (ctx, b[k]) {
            (StrCtx::Key, c) => c == b':' && !self.key_closer_later(after, b'\''),
            // The closer of what holds the string, ending the text or followed by a
            // separator (`'x"}`; code like `CMD ["a", "b"]'` has another closer there).
            (StrCtx::Value, c @ (b'}' | b']')) => {
                let closer = match self.top_kind() {
                    Some(FrameKind::Object) => b'}',
                    Some(FrameKind::Array) => b']',
                    _ => return false,
                };
                let m = self.skip_layout_ahead(k + 1);
                c == closer && (m >= self.end || matches!(b[m], b',' | b'}' | b']'))
            }
            (StrCtx::Value, b',') => {
                let m = self.skip_layout_ahead(k + 1);
                m < self.end
                    && if self.top_kind() == Some(FrameKind::Object) {
                        self.key_follows(m)
                    } else {
                        quote_at(b, m).is_some()
                    }
            }
            _ => false,
        }
    }

    /// `{"a: 1, "b": 2}`, `{"a": 1, "b: 2}`: a key that lost its closing quote before its
    /// colon. Met at a quote inside the key (`i`) that would not close it, or at the end of
    /// the input: when the key so far is a plain word, then `: ` and a value that runs to a
    /// `, ` before that quote (or the quote opens the value, or the input ends after it),
    /// the key ends at the colon. `out` goes back to the colon (the string's text starts at
    /// `out_open` there; only if nothing was repaired inside it).
    #[cold]
    pub(super) fn close_key_at_colon(
        &mut self,
        i: usize,
        out_open: Option<usize>,
        repairs_at_open: usize,
    ) -> bool {
        let b = self.src;
        let start = self.string_content;
        let Some(content) = b.get(start..i) else {
            return false;
        };
        let Some(colon) = memchr::memchr(b':', content).map(|n| start + n) else {
            return false;
        };
        // The key's text must have been copied as written; what was repaired after its
        // colon (a raw line break in `"id: 1,\n`) is read again as structure.
        let Some(out_open) = out_open.filter(|_| {
            self.repairs[repairs_at_open.min(self.repairs.len())..]
                .iter()
                .all(|r| r.span().start > colon)
        }) else {
            return false;
        };
        let key = &b[start..colon];
        if key.is_empty()
            || key.len() > KEY_LIKE_LEN
            || key
                .iter()
                .any(|&c| c < 0x20 || matches!(c, b'\\' | b'"' | b'\''))
        {
            return false;
        }
        // `"key: value`, or compact JSON (`"units:"metric"`, `"days:[1]`, `"n:0}`): a word
        // as keys are spelled, then a value right after the colon.
        let spaced = matches!(b.get(colon + 1), Some(b' ' | b'\t'));
        let compact = || {
            (key[0].is_ascii_alphabetic() || key[0] == b'_')
                && key
                    .iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$'))
                && self.value_starts_at(colon + 1)
        };
        if !spaced && !compact() {
            return false;
        }
        let value = self.skip_layout_ahead(colon + 1);
        let between = b[colon + 1..i].trim_ascii();
        let fits = if i >= self.end {
            !between.is_empty() && (self.value_starts_at(value) || self.bare_member_value_at(value))
        } else {
            between.is_empty()
                || (between.ends_with(b",")
                    && (self.value_starts_at(value) || self.bare_member_value_at(value)))
                // `"skills: []}`, `"metrics: {"loss": 1}`: a container value, read as usual.
                || (value < i && matches!(b[value], b'{' | b'['))
        };
        if !fits {
            return false;
        }
        self.out.truncate(out_open + (colon - start));
        self.repairs.truncate(repairs_at_open);
        self.out.push(b'"');
        self.record(RepairKind::MissingQuote, colon..colon);
        self.pos = colon;
        self.string_end = Some(self.out.len());
        true
    }

    /// Whether a key's colon (or what the engine reads as one) follows its closing quote,
    /// which ends right before `after`.
    pub(super) fn colon_follows(&self, after: usize) -> bool {
        let m = self.skip_layout_ahead(after);
        m < self.end
            && (self.src[m] == b':' || self.src[m] == b'=' || self.starts_with(m, FULL_WIDTH_COLON))
    }

    /// Whether a `quote` later on the line from `from` is followed by a `:`: the key's own
    /// closing quote (`"':": null` is the key `':`).
    #[cold]
    pub(super) fn key_closer_later(&self, from: usize, quote: u8) -> bool {
        let b = &self.src[..self.end];
        let line_end = memchr::memchr(b'\n', &b[from..]).map_or(b.len(), |n| from + n);
        let limit = line_end.min(from + LOOKAHEAD);
        // The first quote not escaped (`"':\"": 1` holds an escaped one first).
        memchr::memchr_iter(quote, &b[from..limit])
            .find(|&n| !escaped_at(b, from + n))
            .is_some_and(|n| {
                let k = self.skip_layout_ahead(from + n + 1);
                k < self.end && b[k] == b':'
            })
    }

    pub(super) fn parse_escape(
        &mut self,
        q: Quote,
        windows_path: bool,
        raw: bool,
    ) -> Result<(), Error> {
        let i = self.pos;
        let Some(n) = self.byte(i + 1) else {
            // A dangling backslash at the end: dropped.
            self.pos = self.end;
            return Ok(());
        };
        if raw {
            // A raw string's backslash is content; it still keeps a quote or a backslash
            // right after it from ending the string or escaping what follows (`r'\''`).
            self.record(RepairKind::InvalidEscape, i..i + 1);
            self.out.push_str("\\\\");
            self.pos = i + 1;
            let kept = match n {
                b'\\' => Some("\\\\"),
                b'"' => Some("\\\""),
                b'\'' if q == Quote::Single => Some("'"),
                _ => None,
            };
            if let Some(kept) = kept {
                self.out.push_str(kept);
                self.pos = i + 2;
            }
            return Ok(());
        }
        // `"C:\dir\"}`: no path holds a quote, so a quote that a separator, a closer or
        // the end follows ends the string, and the backslash before it is the path's.
        let path_end = windows_path && n == b'"' && q == Quote::Double && {
            let rest = self.src.get(i + 2..self.end).unwrap_or_default();
            rest.iter()
                .find(|&&c| !is_ws(c))
                .is_none_or(|c| matches!(c, b',' | b'}' | b']'))
        };
        if path_end || (windows_path && !matches!(n, b'"' | b'\\')) {
            self.record(RepairKind::InvalidEscape, i..i + 1);
            self.out.push_str("\\\\");
            self.pos = i + 1;
            return Ok(());
        }
        match n {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.out.push_input(self.text, i..i + 2);
                self.pos = i + 2;
            }
            b'\'' => {
                if q != Quote::Single {
                    self.record(RepairKind::InvalidEscape, i..i + 2);
                }
                self.out.push(b'\'');
                self.pos = i + 2;
            }
            b'u' => self.parse_unicode_escape(),
            _ => {
                // Invalid escape: the backslash is content.
                self.record(RepairKind::InvalidEscape, i..i + 1);
                self.out.push_str("\\\\");
                self.pos = i + 1;
            }
        }
        Ok(())
    }

    /// Number of hex digits at `i` (up to `want`), None if the input ends first.
    pub(super) fn hex_digits(&self, i: usize, want: usize) -> Option<usize> {
        for k in 0..want {
            match self.byte(i + k) {
                None => return None,
                Some(c) if c.is_ascii_hexdigit() => {}
                Some(_) => return Some(k),
            }
        }
        Some(want)
    }

    pub(super) fn parse_unicode_escape(&mut self) {
        let b = self.src;
        let i = self.pos;
        match self.hex_digits(i + 2, 4) {
            None => {
                // `\u12` cut off at the end: dropped.
                self.pos = self.end;
            }
            Some(4) => {
                let unit = hex4(&b[i + 2..i + 6]);
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate needs a low one right after.
                    let low = (self.byte(i + 6) == Some(b'\\') && self.byte(i + 7) == Some(b'u'))
                        .then(|| self.hex_digits(i + 8, 4));
                    match low {
                        Some(Some(4)) if (0xDC00..0xE000).contains(&hex4(&b[i + 8..i + 12])) => {
                            self.out.push_input(self.text, i..i + 12);
                            self.pos = i + 12;
                        }
                        Some(None) => {
                            // The pair was cut off at the end: drop the half.
                            self.pos = self.end;
                        }
                        // Cut after the high half, or after the next escape's backslash.
                        _ if (i + 6 >= self.end
                            || (i + 7 == self.end && self.byte(i + 6) == Some(b'\\')))
                            && self.end == self.src.len() =>
                        {
                            self.pos = self.end;
                        }
                        _ => {
                            self.record(RepairKind::LoneSurrogate, i..i + 6);
                            self.out.push_str("\\ufffd");
                            self.pos = i + 6;
                        }
                    }
                } else if (0xDC00..0xE000).contains(&unit) {
                    self.record(RepairKind::LoneSurrogate, i..i + 6);
                    self.out.push_str("\\ufffd");
                    self.pos = i + 6;
                } else {
                    self.out.push_input(self.text, i..i + 6);
                    self.pos = i + 6;
                }
            }
            Some(_) => {
                self.record(RepairKind::InvalidEscape, i..i + 2);
                self.out.push_str("\\\\");
                self.pos = i + 1;
            }
        }
    }
}
