//! Object keys: quoted, bare, lost quotes, the colon, and the look-ahead that finds the
//! next key.

use super::parser::{FrameKind, Mode, Parser, StrCtx};
use super::RepairKind;
use crate::error::Error;
use crate::rules::{member_value_string_at, quote_then_separator};
use crate::text::{
    first_on_line, hex4, is_ident, is_ident_start, is_raw_prefix, is_ws, json_number_end,
    literal_word, python_string_prefix, quote_at, typographic_quote, utf8_len, Quote,
    FULL_WIDTH_COLON, IDENT_OR_SPACE, LOOKAHEAD,
};
use std::ops::Range;

#[derive(Clone, Copy)]
pub(super) enum KeyByte {
    Plain,
    /// Ends an unquoted key.
    Stop,
    /// Content a JSON string must escape.
    Escape,
    /// Ends the key when it starts a comment.
    Slash,
    /// Ends the key when it starts a typographic quote.
    Typographic,
    /// Ends the key when it starts a full-width colon (`名前：`).
    FullWidth,
}

/// How an unquoted key treats each byte.
pub(super) static KEY_BYTE: [KeyByte; 256] = {
    let mut t = [KeyByte::Plain; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = KeyByte::Escape;
        i += 1;
    }
    t[b'\\' as usize] = KeyByte::Escape;
    t[b'/' as usize] = KeyByte::Slash;
    t[0xE2] = KeyByte::Typographic;
    t[0xEF] = KeyByte::FullWidth;
    let stops = b":,{}[]\"'\n\r=";
    let mut k = 0;
    while k < stops.len() {
        t[stops[k] as usize] = KeyByte::Stop;
        k += 1;
    }
    t
};

impl Parser<'_> {
    pub(super) fn step_key(&mut self, mode: &mut Mode) -> Result<(), Error> {
        let Some(c) = self.skip_ws_peek() else {
            self.close_all_at_end();
            *mode = Mode::After;
            return Ok(());
        };
        // `{"arguments": {\"q\": \"cats\"}}`: an object written escaped inside a document.
        if c == b'\\' && self.byte(self.pos + 1) == Some(b'"') && self.escaped_members() {
            return Ok(());
        }
        match c {
            b'}' => {
                self.pos += 1;
                self.close_top();
                *mode = Mode::After;
                return Ok(());
            }
            b',' | b';' => {
                self.record(RepairKind::TrailingComma, self.pos..self.pos + 1);
                self.pos += 1;
                return Ok(());
            }
            b']' | b')' => {
                *mode = Mode::After;
                return self.close_or_mismatch(c, mode);
            }
            b'{' | b'[' => {
                if self.container_array_lost_opener(mode) {
                    return Ok(());
                }
                let below = self.stack.len().checked_sub(2).map(|i| self.stack[i].kind);
                if matches!(below, Some(FrameKind::Array | FrameKind::Tuple))
                    && !self.doubled_object_opener(c)
                {
                    // `[{"a": 1, {"b": 2}]`: the object was never closed.
                    self.record(RepairKind::MissingCloser, self.pos..self.pos);
                    self.close_top();
                    *mode = Mode::Value;
                    return Ok(());
                }
                self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
                self.pos += 1;
                return Ok(());
            }
            b':' => {
                // A value with no key: skip the colon; the value becomes garbage to skip.
                self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
                self.pos += 1;
                return Ok(());
            }
            _ => {}
        }
        if c == b'.' && self.starts_with(self.pos, b"...") {
            let start = self.pos;
            self.pos += 3;
            self.record(RepairKind::Ellipsis, start..self.pos);
            return Ok(());
        }
        self.key_input_start = self.pos;
        if self.element_in_key_position() {
            if self.array_lost_opener_before(false, mode) {
                // `[{"v": 2, 3]}]`: the member's value lost its `[`.
                return Ok(());
            }
            // `[{"a": 1, 2]`: a number or literal and the array's next separator; no key.
            self.record(RepairKind::MissingCloser, self.pos..self.pos);
            self.close_top();
            *mode = Mode::Value;
            return Ok(());
        }
        self.begin_item();
        let mut quote = quote_at(self.src, self.pos);
        if quote.is_none() {
            match self.parse_unquoted_key() {
                None => {
                    *mode = Mode::Colon;
                    return Ok(());
                }
                Some(len) => {
                    // `{u'name': 1}`: a Python string prefix before a key.
                    self.record(RepairKind::UnquotedKey, self.pos..self.pos + len);
                    let raw = is_raw_prefix(&self.src[self.pos..self.pos + len]);
                    self.pos += len;
                    quote = quote_at(self.src, self.pos);
                    self.raw_next = raw && quote.is_some();
                }
            }
        }
        if let Some(q) = quote {
            let complete = self.parse_string(q, StrCtx::Key, false)?;
            if !complete {
                // The key was cut: no key is invented.
                self.drop_item();
                self.close_all_at_end();
                *mode = Mode::After;
                return Ok(());
            }
        }
        *mode = Mode::Colon;
        Ok(())
    }

    /// Whether a number or literal, then a `,` or `]`, stands where an object in an array
    /// wants a key: the object lost its `}` before the array's next element.
    /// At the first key of an object that holds nothing yet: when its text is escaped JSON
    /// (`{\"q\": \"cats\"}` as a member's value), its members, unescaped once and repaired on
    /// their own, are written into it; `pos` goes to its `}`. False (nothing done) when the
    /// object's end cannot be found or its text is no object once unescaped.
    #[cold]
    pub(super) fn escaped_members(&mut self) -> bool {
        let b = self.src;
        let Some(frame) = self.stack.last() else {
            return false;
        };
        if frame.kind != FrameKind::Object || frame.count != 0 || self.out.len() != frame.checkpoint
        {
            return false;
        }
        let Some(open) = b[..self.pos]
            .iter()
            .rposition(|&c| !is_ws(c))
            .filter(|&o| b[o] == b'{')
        else {
            return false;
        };
        let Some(close) = self.escaped_object_end(open) else {
            return false;
        };
        let mut text = Vec::with_capacity(close + 1 - open);
        let mut k = open;
        while k <= close {
            if b[k] == b'\\' && matches!(b.get(k + 1), Some(b'"' | b'\\')) {
                text.push(b[k + 1]);
                k += 2;
            } else {
                text.push(b[k]);
                k += 1;
            }
        }
        // Only ASCII bytes were removed: still UTF-8.
        let Ok(text) = String::from_utf8(text) else {
            return false;
        };
        let Ok(inner) = crate::repair_with(&text, self.options) else {
            return false;
        };
        let Some(body) = inner
            .text
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
        else {
            return false;
        };
        self.out.push_str(body);
        if let Some(frame) = self.stack.last_mut() {
            frame.count = usize::from(!body.is_empty());
        }
        self.record(RepairKind::EscapedJson, open..close + 1);
        self.pos = close;
        true
    }

    /// Where the escaped object opened at `open` closes: its brackets counted outside its
    /// escaped strings (`\"…\"`, in which `\\\"` is an escaped quote). `None` at a raw quote
    /// (no escaped object) or when it does not close.
    pub(super) fn escaped_object_end(&mut self, open: usize) -> Option<usize> {
        // Scans share the look-ahead budget, so that many escaped objects that never close
        // still cost linear time.
        let limit = self.end.min(open.saturating_add(self.bracket_scan_budget));
        let found = self.escaped_object_end_within(open, limit);
        let scanned = found.map_or(limit, |close| close + 1) - open;
        self.bracket_scan_budget = self.bracket_scan_budget.saturating_sub(scanned);
        found
    }

    pub(super) fn escaped_object_end_within(&self, open: usize, limit: usize) -> Option<usize> {
        let b = &self.src[..limit];
        let (mut depth, mut in_string, mut k) = (0usize, false, open);
        while k < b.len() {
            match b[k] {
                b'\\' if b.get(k + 1) == Some(&b'\\') => {
                    k += 2;
                    // `\\\"`: the escaped form of an escaped quote, content.
                    if b[k..].starts_with(b"\\\"") {
                        k += 2;
                    }
                    continue;
                }
                b'\\' if b.get(k + 1) == Some(&b'"') => {
                    in_string = !in_string;
                    k += 2;
                    continue;
                }
                b'\\' => {
                    k += 2;
                    continue;
                }
                b'"' => return None,
                b'{' | b'[' if !in_string => depth += 1,
                b'}' | b']' if !in_string => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return (b[k] == b'}').then_some(k);
                    }
                }
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// `[{{"a": 1}, …]`: a `{` right after the opener of an object that has no member yet is
    /// the same opener typed twice (dropped), not an element of the array around it.
    pub(super) fn doubled_object_opener(&self, c: u8) -> bool {
        let b = self.src;
        c == b'{'
            && self.stack.last().is_some_and(|f| f.count == 0)
            && b[..self.pos]
                .iter()
                .rev()
                .find(|&&c| !is_ws(c))
                .is_some_and(|&c| c == b'{')
    }

    pub(super) fn element_in_key_position(&self) -> bool {
        let below = self.stack.len().checked_sub(2).map(|i| self.stack[i].kind);
        if below != Some(FrameKind::Array) {
            return false;
        }
        let b = self.src;
        let k = self.pos;
        let end = json_number_end(b, k, self.end).or_else(|| {
            let word = b[k..self.end]
                .iter()
                .position(|&c| !c.is_ascii_alphabetic())
                .map_or(self.end, |n| k + n);
            literal_word(&b[k..word]).map(|_| word)
        });
        end.is_some_and(|m| {
            let m = self.skip_layout_ahead(m);
            m < self.end && matches!(b[m], b',' | b']')
        })
    }

    /// Read a bare key at `pos`; or, when it is a Python string prefix before a quote
    /// (`u'name'`), read nothing and say how long the prefix is.
    pub(super) fn parse_unquoted_key(&mut self) -> Option<usize> {
        let b = self.src;
        let start = self.pos;
        let mut i = start;
        // Whether the key holds a byte a JSON string must escape (a tab, a backslash).
        let mut escape = false;
        while i < self.end {
            // Plain bytes in one run; the rest one by one.
            i += b[i..self.end]
                .iter()
                .position(|&c| !matches!(KEY_BYTE[c as usize], KeyByte::Plain))
                .unwrap_or(self.end - i);
            if i >= self.end {
                break;
            }
            match KEY_BYTE[b[i] as usize] {
                KeyByte::Plain => {}
                KeyByte::Stop => break,
                KeyByte::Escape => escape = true,
                KeyByte::Slash => {
                    if matches!(self.byte(i + 1), Some(b'/' | b'*')) {
                        // A comment before the colon: `b /* why */: 1`.
                        break;
                    }
                }
                KeyByte::Typographic => {
                    if i > start && typographic_quote(b, i).is_some() {
                        // `{a “b”}`: a quoted value after a key that lost its colon.
                        break;
                    }
                }
                KeyByte::FullWidth => {
                    if self.starts_with(i, FULL_WIDTH_COLON) {
                        break;
                    }
                }
            }
            i += 1;
        }
        let mut end = i;
        while end > start && is_ws(b[end - 1]) {
            end -= 1;
        }
        let quote_here = matches!(b.get(i), Some(b'"' | b'\'')) && end == i && end > start;
        let lost_quote = quote_here && self.key_lost_opening_quote(i);
        if quote_here && !lost_quote {
            if let Some(len) = python_string_prefix(b, start).filter(|&n| start + n == i) {
                return Some(len);
            }
        }
        if lost_quote {
            // `{a": 1}`: the key's closing quote is there, its opening one is not.
            i += 1;
        } else if end == start {
            // Not even a key: a stray byte.
            i = start + utf8_len(b[start]);
            end = i;
        } else if let Some(value) = match b.get(i).filter(|_| i < self.end) {
            Some(b':') => None,
            Some(b',' | b'}' | b'\n' | b'\r') | None => self.value_after_bare_key(start, end),
            Some(_) => None,
        } {
            // `count 2}`: the key lost its colon; its last word is the value.
            end = value;
            while end > start && is_ws(b[end - 1]) {
                end -= 1;
            }
            i = value;
        }
        self.pos = i;
        self.record(RepairKind::UnquotedKey, start..end);
        if escape {
            self.write_json_input(start..end);
        } else {
            self.out.push(b'"');
            self.out.push_input(self.text, start..end);
            self.out.push(b'"');
        }
        None
    }

    /// Whether the `-` at `i` is a YAML list marker: first on its line (after its indent),
    /// then a space.
    pub(super) fn yaml_list_marker(&self, i: usize) -> bool {
        let b = self.src;
        matches!(self.byte(i + 1), Some(b' ' | b'\t')) && first_on_line(b, i)
    }

    /// Whether the quote at `i`, right after a bare key, is the key's closing quote: a `:`
    /// follows it.
    #[inline]
    pub(super) fn key_lost_opening_quote(&self, i: usize) -> bool {
        let b = self.src;
        i < self.end && matches!(b[i], b'"' | b'\'') && {
            let m = self.skip_layout_ahead(i + 1);
            m < self.end && b[m] == b':'
        }
    }

    /// `{"a": x", "b": 1}`, `{"host": 0.0.0.0", …}`, `{"body": Off-by-one: see [#12]"}`: a
    /// string value that lost its opening quote. The text at `start` runs on its line to its
    /// first unescaped `"`, right after a non-space, that a separator, a closer or the text's
    /// end follows. When that text holds structure (a separator, a bracket, a quote of the
    /// other kind, an escape) or does not start as a word, what follows the quote must show
    /// it ends the value: the closer of what holds it, or a comma and then the next key (in
    /// an object) or a value (in an array). Returns that quote's offset.
    #[cold]
    pub(super) fn value_lost_opening_quote(&self, start: usize) -> Option<usize> {
        let b = self.src;
        let limit = (start + LOOKAHEAD).min(self.end);
        let mut structure = !is_ident_start(b[start]);
        let mut k = start;
        while k < limit {
            match b[k] {
                b'"' => break,
                b'\n' | b'\r' => return None,
                b'\\' => {
                    structure = true;
                    k += 2;
                    continue;
                }
                b'\'' | b',' | b':' | b'{' | b'[' | b'}' | b']' => structure = true,
                _ => {}
            }
            k += 1;
        }
        if k >= limit || b[k] != b'"' || k == start || is_ws(b[k - 1]) {
            return None;
        }
        if structure && self.stack.is_empty() {
            return None;
        }
        let m = self.skip_layout_ahead(k + 1);
        if m >= self.end {
            return Some(k);
        }
        let ends = match b[m] {
            b',' if structure => {
                let n = self.skip_layout_ahead(m + 1);
                n >= self.end
                    || match self.top_kind() {
                        Some(FrameKind::Object) => self.key_follows(n),
                        Some(FrameKind::Array) => self.value_starts_at(n),
                        _ => false,
                    }
            }
            b'}' if structure => self.top_kind() == Some(FrameKind::Object),
            b']' if structure => self.top_kind() == Some(FrameKind::Array),
            b',' | b'}' | b']' => true,
            _ => false,
        };
        ends.then_some(k)
    }

    /// Write `input[start..end]`, the text of a string that lost its opening quote, as a
    /// JSON string: its escapes as written where JSON knows them (`\"`, `\n`, `\u00e9`),
    /// the backslash kept as content elsewhere (`C:\Users`).
    #[cold]
    pub(super) fn write_unquoted_string(&mut self, start: usize, end: usize) {
        let b = self.src;
        if !b[start..end].contains(&b'\\') {
            self.write_json_input(start..end);
            return;
        }
        self.out.push(b'"');
        let mut run = start;
        let mut k = start;
        while k < end {
            if b[k] != b'\\' {
                k += 1;
                continue;
            }
            self.write_json_content(run..k);
            let valid = match b.get(k + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => 2,
                Some(b'u') => match b.get(k + 2..k + 6) {
                    Some(h) if h.iter().all(u8::is_ascii_hexdigit) => {
                        // A surrogate is kept as text: alone it is no character.
                        if (0xD800..0xE000).contains(&hex4(h)) {
                            0
                        } else {
                            6
                        }
                    }
                    _ => 0,
                },
                _ => 0,
            };
            if valid > 0 && k + valid <= end {
                self.out.push_input(self.text, k..k + valid);
                k += valid;
            } else {
                self.out.push_str("\\\\");
                k += 1;
            }
            run = k;
        }
        self.write_json_content(run..end);
        self.out.push(b'"');
    }

    /// Write `input[range]` as the inside of a JSON string (no quotes around it).
    pub(super) fn write_json_content(&mut self, range: Range<usize>) {
        match self.text.get(range.clone()) {
            Some(s) => self.out.push_json_content(s),
            None => {
                let lossy = String::from_utf8_lossy(self.src.get(range).unwrap_or_default());
                self.out.push_json_content(&lossy);
            }
        }
    }

    /// `{"id":42"name":"x"}`: the next key right after a number at `end` (its comma lost).
    #[cold]
    pub(super) fn key_right_after(&self, end: usize) -> bool {
        end < self.end
            && self.src[end] == b'"'
            && self.top_kind() == Some(FrameKind::Object)
            && self.key_follows(end)
    }

    /// For a bare key `b[start..end]` that no colon follows (the member ends after it),
    /// where its last word starts when that word is a number or a literal: then the key
    /// lost its colon (`count 2}`, `ok true,`), and that word is its value.
    #[cold]
    pub(super) fn value_after_bare_key(&self, start: usize, end: usize) -> Option<usize> {
        let b = self.src;
        let space = b[start..end].iter().rposition(|&c| is_ws(c))?;
        let word = start + space + 1;
        let plain = |c: &u8| is_ident(*c);
        if !b[start..start + space]
            .iter()
            .all(|c| plain(c) || is_ws(*c))
        {
            return None;
        }
        let is_value =
            json_number_end(b, word, end) == Some(end) || literal_word(&b[word..end]).is_some();
        is_value.then_some(word)
    }

    pub(super) fn step_colon(&mut self, mode: &mut Mode) -> Result<(), Error> {
        match self.skip_ws_peek() {
            None => {
                // A key with no value, at the end: drop it.
                self.drop_item();
                self.close_all_at_end();
                *mode = Mode::After;
            }
            Some(b':') => {
                self.out.push(b':');
                self.pos += 1;
                *mode = Mode::Value;
            }
            Some(b'=') => {
                // `=`, or Perl's and PHP's `=>`.
                let width = if self.byte(self.pos + 1) == Some(b'>') {
                    2
                } else {
                    1
                };
                self.record(RepairKind::MissingColon, self.pos..self.pos + width);
                self.out.push(b':');
                self.pos += width;
                *mode = Mode::Value;
            }
            // `：`: a full-width colon (CJK text).
            Some(_) if self.starts_with(self.pos, FULL_WIDTH_COLON) => {
                let width = FULL_WIDTH_COLON.len();
                self.record(RepairKind::MissingColon, self.pos..self.pos + width);
                self.out.push(b':');
                self.pos += width;
                *mode = Mode::Value;
            }
            Some(b',' | b']')
                // The "key" just written is an element after all (`{"tags": "a", "b"]}`).
                if self.array_lost_opener_before(true, mode) => {}
            Some(b',' | b'}' | b']') => {
                self.record(RepairKind::MissingValue, self.pos..self.pos);
                self.out.push_str(":null");
                *mode = Mode::After;
            }
            Some(_) => {
                self.record(RepairKind::MissingColon, self.pos..self.pos);
                self.out.push(b':');
                *mode = Mode::Value;
            }
        }
        Ok(())
    }

    /// Whether a key (`"k":`, `'k':`, `k:`) starts at `k`. A quoted key may have lost its
    /// colon when a value follows it after a space (`"age" 36`, `"name" "Ada"`).
    pub(super) fn key_follows(&self, k: usize) -> bool {
        let b = self.src;
        if let Some(q) = quote_at(b, k) {
            return match self.scan_quoted(k, q, LOOKAHEAD) {
                Some(after) => {
                    let m = self.skip_layout_ahead(after);
                    // A key that lost its colon has its value on its own line (code has
                    // quoted words on lines of their own: `\t"fmt"\n\t"net/http"`).
                    m < self.end
                        && (b[m] == b':'
                            || self.starts_with(m, FULL_WIDTH_COLON)
                            // `"c"{"d": 1}`, `"units""metric"`: a key that lost its colon
                            // before a container or a string (compact JSON).
                            || (m == after && matches!(b[m], b'{' | b'['))
                            || (m == after && b[m] == b'"' && self.quoted_value_ends_member(m))
                            // `"b" = 1`, `"b" => 1`: a colon written as in TOML or Perl.
                            || (b[m] == b'=' && m > after && self.byte(m + 1) != Some(b'='))
                            || (m > after
                                && !b[after..m].contains(&b'\n')
                                && (self.value_starts_at(m) || self.bare_member_value_at(m))))
                }
                None => false,
            };
        }
        // (`-2: "y"`: a negative number as a key.)
        let negative =
            self.byte(k) == Some(b'-') && self.byte(k + 1).is_some_and(|c| c.is_ascii_digit());
        if k < self.end
            && (is_ident_start(b[k]) || b[k].is_ascii_digit() || b[k] == b'@' || negative)
        {
            let limit = (k + 64).min(self.end);
            let mut m = k;
            loop {
                m = b.get(m..limit).map_or(limit, |run| {
                    m + run
                        .iter()
                        .position(|&c| !IDENT_OR_SPACE[c as usize])
                        .unwrap_or(run.len())
                });
                // `dest/path`, but not a comment after the key.
                if m + 1 < limit && b[m] == b'/' && !matches!(b[m + 1], b'/' | b'*') {
                    m += 1;
                } else {
                    break;
                }
            }
            if m > k && m < self.end && matches!(b[m], b'"' | b'\'') {
                // `"x", b": 2}`: a key that lost its opening quote.
                if self.key_lost_opening_quote(m) {
                    return true;
                }
                // `u'name': …`: a key with a Python string prefix.
                if python_string_prefix(b, k) == Some(m - k) {
                    return self.key_follows(m);
                }
            }
            let run_end = m;
            // `年齢：30`: a full-width colon ends the key (its bytes count as a word's).
            let full_width_colon = || {
                b[k..run_end]
                    .iter()
                    .position(|&c| c == 0xEF)
                    .is_some_and(|p| p > 0 && b[k + p..run_end].starts_with(FULL_WIDTH_COLON))
            };
            let m = self.skip_layout_ahead(m);
            // `… the "updated" version:", "done": 1}`: a quote right after the colon that
            // a separator follows ends the string these words are in; they are no key.
            // (`b: "}A"}`: that quote opens a value whose content starts with a closer;
            // `b: ", "}`: it opens a whole value, the string `, `.)
            let quote_ends_string = || {
                let v = self.skip_layout_ahead(m + 1);
                v < self.end
                    && b[v] == b'"'
                    && quote_then_separator(&b[..self.end], v + 1)
                    && member_value_string_at(&b[..self.end], v, true) != Some(true)
            };
            return (m < self.end
                && b[m] == b':'
                && b.get(m + 1) != Some(&b'/')
                && !quote_ends_string())
                || self.equals_for_colon(k, m)
                || full_width_colon()
                || self.key_without_colon_at(k);
        }
        false
    }

    /// Whether the string at `m` (its opening quote) closes on its line and a comma, a closer
    /// or the text's end follows it: a whole member value.
    #[cold]
    pub(super) fn quoted_value_ends_member(&self, m: usize) -> bool {
        let b = self.src;
        self.scan_quoted(m, Quote::Double, LOOKAHEAD)
            .is_some_and(|after| {
                !b[m..after].contains(&b'\n') && {
                    let n = self.skip_layout_ahead(after);
                    n >= self.end || matches!(b[n], b',' | b'}')
                }
            })
    }

    /// Whether the `=` at `m` stands for the colon after the bare key at `k`: Perl's `=>`,
    /// or TOML's `key = value` with the key first on its line. (In a string, `id="main"`
    /// is HTML and `SET a = "x", b = 2` is SQL: no keys.)
    pub(super) fn equals_for_colon(&self, k: usize, m: usize) -> bool {
        let b = self.src;
        if m >= self.end || m <= k + 1 || b[m] != b'=' || !is_ws(b[m - 1]) {
            return false;
        }
        if self.byte(m + 1) == Some(b'>') {
            return true;
        }
        let word = b[k..m].iter().take_while(|&&c| !is_ws(c)).count();
        self.byte(m + 1) != Some(b'=')
            && b[k + word..m].iter().all(|&c| is_ws(c))
            && first_on_line(b, k)
    }

    /// Whether a bare key that lost its colon starts at `k`: one word, spaces, then a value
    /// that ends the member (`age 31,`, `status "open"}`, `mode strict}`).
    pub(super) fn key_without_colon_at(&self, k: usize) -> bool {
        let b = self.src;
        let Some((word_end, m)) = self.word_and_spaces(k) else {
            return false;
        };
        if m == word_end || m >= self.end {
            return false;
        }
        if let Some(q) = quote_at(b, m) {
            return self.scan_quoted(m, q, LOOKAHEAD).is_some_and(|after| {
                let e = self.skip_layout_ahead(after);
                e >= self.end || matches!(b[e], b',' | b'}')
            });
        }
        self.bare_member_value_at(m)
    }

    /// Whether a number, a literal or a single bare word starts at `m` and ends the member:
    /// only spaces, then `,` `}` or a line break, follow it.
    pub(super) fn bare_member_value_at(&self, m: usize) -> bool {
        let b = self.src;
        let limit = (m + 64).min(self.end);
        let mut e = m;
        match b.get(m) {
            Some(b'-' | b'0'..=b'9') => match json_number_end(b, m, self.end) {
                Some(end) => e = end,
                None => return false,
            },
            Some(&c) if is_ident_start(c) => {
                while e < limit && is_ident(b[e]) {
                    e += 1;
                }
            }
            _ => return false,
        }
        while e < self.end && matches!(b[e], b' ' | b'\t' | b'\r') {
            e += 1;
        }
        e >= self.end || matches!(b[e], b',' | b'}' | b'\n')
    }

    /// Whether a value that is plainly one starts at `m`: a quote, a bracket, or a whole
    /// number or literal that ends at a separator.
    /// Whether a bare key stands at `start`, where a member's value or an element belongs:
    /// a word, `:` and a space, then a value (a quote, a number, a literal, a bracket). A
    /// word and a colon with no space (`localhost:8080`) or with prose after it (`Note: see
    /// below`) stay a bare value.
    pub(super) fn bare_key_at_value(&self, start: usize) -> bool {
        let b = &self.src[..self.end];
        if self.stack.is_empty()
            || self.stack.len() >= self.options.max_depth
            || !b[start].is_ascii_alphabetic()
        {
            return false;
        }
        let word = b[start..]
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
            .map_or(b.len(), |n| start + n);
        if b.get(word) != Some(&b':') || !matches!(b.get(word + 1), Some(b' ' | b'\t')) {
            return false;
        }
        let mut m = word + 2;
        while m < b.len() && matches!(b[m], b' ' | b'\t') {
            m += 1;
        }
        self.value_starts_at(m)
    }

    pub(super) fn value_starts_at(&self, m: usize) -> bool {
        let b = self.src;
        let ends = |e: usize| e >= self.end || matches!(b[e], b',' | b'}' | b']') || is_ws(b[e]);
        match b.get(m) {
            None => false,
            Some(b'{' | b'[') => true,
            Some(b'-' | b'0'..=b'9') => json_number_end(b, m, self.end).is_some_and(ends),
            Some(c) if c.is_ascii_alphabetic() => {
                let mut e = m;
                while e < self.end && b[e].is_ascii_alphabetic() {
                    e += 1;
                }
                literal_word(&b[m..e]).is_some() && ends(e)
            }
            Some(_) => quote_at(b, m).is_some(),
        }
    }

    /// Whether `b[k..]` up to the end of the input is the start of a key cut off there
    /// (`, na`, `, 'b'`, `, "`): a truncated member, not more string content.
    pub(super) fn cut_key_at_end(&self, k: usize) -> bool {
        let b = self.src;
        if self.end != b.len() || k >= self.end {
            return false;
        }
        let rest = &b[k..self.end];
        if let Some(q) = quote_at(b, k) {
            // A key holds no structure: `"}` at the end closes the string before it.
            let key_like = |s: &[u8]| {
                !s.iter()
                    .any(|&c| matches!(c, b'}' | b']' | b',' | b':' | b'\n'))
            };
            return match self.scan_quoted(k, q, LOOKAHEAD) {
                None => rest.len() <= LOOKAHEAD && key_like(&rest[q.open_len().min(rest.len())..]),
                Some(after) => {
                    key_like(&b[k + q.open_len()..after])
                        && b[after..self.end].iter().all(|&c| is_ws(c))
                }
            };
        }
        rest.len() <= 64 && rest.iter().all(|&c| IDENT_OR_SPACE[c as usize])
    }
}
