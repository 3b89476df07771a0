//! Values without quotes: numbers, literals, bare words, regexes, wrappers, ellipses.

use super::parser::{FrameKind, Mode, Parser, StrCtx};
use super::{NonFinite, RepairKind};
use crate::error::{Error, ErrorKind};
use crate::text::{
    closing_tags_to_end, is_ident_start, is_json_number, is_raw_prefix, is_ws, json_number_end,
    literal_json, literal_word, non_finite_word, parse_number_like, python_string_prefix, quote_at,
    scan_number, utf8_len, ELLIPSIS, LOOKAHEAD,
};
use std::ops::Range;

impl Parser<'_> {
    pub(super) fn step_value(&mut self, mode: &mut Mode) -> Result<(), Error> {
        let mut next = self.skip_ws_peek();
        let top = self.top_kind();
        if next == Some(b'-') && top == Some(FrameKind::Array) && self.yaml_list_marker(self.pos) {
            // `[\n  - red\n  - blue\n]`: YAML's list markers, one per line.
            self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
            self.pos += 1;
            next = self.skip_ws_peek();
        }
        if top == Some(FrameKind::Object) {
            self.member_value_out = (self.stack.len(), self.out.len(), self.pos);
        }
        let Some(c) = next else {
            // The value never started.
            if top == Some(FrameKind::Object) {
                self.drop_item();
            }
            self.close_all_at_end();
            *mode = Mode::After;
            return Ok(());
        };
        let in_member = top == Some(FrameKind::Object);
        match c {
            // `"a":: 1`: a doubled colon.
            b':' if in_member && self.out.last() == Some(b':') => {
                self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
                self.pos += 1;
                return Ok(());
            }
            b',' | b'}' | b']' | b')' | b';' if in_member => {
                self.out.push_str("null");
                self.record(RepairKind::MissingValue, self.pos..self.pos);
                *mode = Mode::After;
                return Ok(());
            }
            b']' | b')' | b'}' if top.is_some() => {
                // An array closing (right after `[` or a trailing comma) or a mismatch:
                // the After step decides.
                *mode = Mode::After;
                if top == Some(FrameKind::Wrapper) && c == b')' {
                    return Ok(());
                }
                return self.close_or_mismatch(c, mode);
            }
            b',' if top.is_some() => {
                // `[1,,2]` or `[,1]`: a hole; drop the extra comma.
                self.record(RepairKind::TrailingComma, self.pos..self.pos + 1);
                self.pos += 1;
                return Ok(());
            }
            _ => {}
        }
        if c == b'.' && self.starts_with(self.pos, b"...") {
            return self.ellipsis(mode, 3);
        }
        if c == 0xE2 && self.starts_with(self.pos, ELLIPSIS) {
            return self.ellipsis(mode, 3);
        }
        // (A typographic quote is ident-start too, but opens a string: `[“a:”]`.)
        if top == Some(FrameKind::Array)
            && is_ident_start(c)
            && quote_at(self.src, self.pos).is_none()
            && self.object_below_arrays()
        {
            match self.bare_key_colon(self.pos) {
                // `{files: ["a.py", message: "fix"}`: the array lost its `]`.
                Some(colon) if !self.object_ends_inside_array(colon + 1) => {
                    self.close_arrays_before_bare_key(colon, mode);
                    return Ok(());
                }
                _ => {}
            }
        }
        if !in_member {
            self.begin_item();
        }
        *mode = Mode::After;
        self.string_end = None;
        if let Some(q) = quote_at(self.src, self.pos) {
            let ctx = if self.stack.is_empty() {
                StrCtx::TopLevel
            } else {
                StrCtx::Value
            };
            return self.parse_string(q, ctx, false).map(|_| ());
        }
        match c {
            b'{' => {
                self.pos += 1;
                self.open(FrameKind::Object, "{")?;
                *mode = Mode::Key;
            }
            b'[' => {
                self.pos += 1;
                self.open(FrameKind::Array, "[")?;
                *mode = Mode::Value;
            }
            b'(' => {
                self.record(RepairKind::TupleToArray, self.pos..self.pos + 1);
                self.pos += 1;
                self.open(FrameKind::Tuple, "[")?;
                *mode = Mode::Value;
            }
            b'/' => self.parse_regex(),
            _ => {
                if self.parse_bare_value(mode)? {
                    // A wrapper frame was opened.
                    *mode = Mode::Value;
                }
            }
        }
        Ok(())
    }

    pub(super) fn ellipsis(&mut self, mode: &mut Mode, len: usize) -> Result<(), Error> {
        let start = self.pos;
        self.pos += len;
        self.record(RepairKind::Ellipsis, start..self.pos);
        if self.top_kind() == Some(FrameKind::Object) {
            // `{"a": ...}`: drop the member.
            self.drop_item();
        }
        *mode = Mode::After;
        // Skip a comma after it, so `[1, ..., 2]` has no hole.
        if self.skip_ws_peek() == Some(b',') {
            self.pos += 1;
            *mode = if self.top_kind() == Some(FrameKind::Object) {
                Mode::Key
            } else {
                Mode::Value
            };
        }
        Ok(())
    }

    /// `/ab+c/i` → `"/ab+c/i"`.
    pub(super) fn parse_regex(&mut self) {
        let start = self.pos;
        let mut i = self.pos + 1;
        while i < self.end && self.src[i] != b'/' && self.src[i] != b'\n' {
            if self.src[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        let mut j = (i + 1).min(self.end);
        while j < self.end && self.src[j].is_ascii_alphabetic() {
            j += 1;
        }
        // A regex ends in flags, then a delimiter; `/usr/local/bin` is a path, and so is
        // `/tmp` with no closing slash on its line.
        let closed = i < self.end && self.src[i] == b'/';
        let flags = self.src.get(i + 1..j).unwrap_or_default();
        let delimited = j >= self.end
            || is_ws(self.src[j])
            || matches!(self.src[j], b',' | b'}' | b']' | b')' | b';');
        if !(closed && flags.iter().all(|c| b"dgimsuvy".contains(c)) && delimited) {
            let end = self.scan_bare(start);
            let mut tok_end = end;
            while tok_end > start && is_ws(self.src[tok_end - 1]) {
                tok_end -= 1;
            }
            self.pos = end;
            self.record(RepairKind::UnquotedValue, start..tok_end);
            self.write_json_input(start..tok_end);
            return;
        }
        self.pos = j;
        self.record(RepairKind::RegexLiteral, start..j);
        self.write_json_input(start..j);
    }

    /// Just past the `)` that closes the call whose `(` is at `open`, when a comma separates
    /// arguments at its own level; `None` for one argument, or no `)` within reach.
    pub(super) fn several_args_call_end(&self, open: usize) -> Option<usize> {
        let b = self.src;
        let limit = (open + 4 * LOOKAHEAD).min(self.end);
        let (mut depth, mut commas, mut i) = (0usize, 0usize, open + 1);
        while i < limit {
            match b[i] {
                b'"' | b'\'' | b'`' => {
                    let q = b[i];
                    i += 1;
                    while i < limit && b[i] != q {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth > 0 => depth -= 1,
                b')' => return (commas > 0).then_some(i + 1),
                b']' | b'}' => return None,
                b',' if depth == 0 => commas += 1,
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// `NumberLong("42")` and the other numeric wrappers of MongoDB's shell, named at
    /// `b[start..paren]`, with a quoted JSON number as their argument: the number's range
    /// and where the call ends.
    pub(super) fn quoted_number_call(
        &self,
        start: usize,
        paren: usize,
    ) -> Option<(Range<usize>, usize)> {
        let b = self.src;
        let numeric = matches!(
            &b[start..paren],
            b"NumberLong" | b"NumberInt" | b"NumberDecimal" | b"NumberDouble" | b"Decimal128"
        );
        let quote = *b.get(paren + 1)?;
        if !numeric || !matches!(quote, b'"' | b'\'') {
            return None;
        }
        let from = paren + 2;
        let end = json_number_end(b, from, self.end)?;
        (b.get(end) == Some(&quote) && b.get(end + 1) == Some(&b')'))
            .then_some((from..end, end + 2))
    }

    /// Where the digit groups of `1,234,567` end, when the integer at `start..end` is a
    /// member's value (in an array, `[1,234]` is two numbers) of one to three digits and each
    /// `,` is followed by exactly three digits and then by the object's end or the next
    /// member: in an object a bare number after a comma is no key (no `:` follows it).
    pub(super) fn thousands_groups(&self, start: usize, end: usize) -> Option<usize> {
        let b = self.src;
        if self.stack.last().map(|f| f.kind) != Some(FrameKind::Object) {
            return None;
        }
        let digits = &b[start + usize::from(b[start] == b'-')..end];
        if !(1..=3).contains(&digits.len())
            || digits[0] == b'0'
            || !digits.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let mut k = end;
        let word_byte = |i: usize| {
            i < self.end && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'.' | b'_'))
        };
        while k + 4 <= self.end
            && b[k] == b','
            && b[k + 1..k + 4].iter().all(u8::is_ascii_digit)
            && !word_byte(k + 4)
        {
            k += 4;
        }
        if k == end {
            return None;
        }
        let m = self.skip_layout_ahead(k);
        (m >= self.end || matches!(b[m], b'}' | b',')).then_some(k)
    }

    /// A value that does not start with a quote or bracket: a number, a literal, a wrapper
    /// call, or a bare word. Returns true when it opened a wrapper frame.
    pub(super) fn parse_bare_value(&mut self, mode: &mut Mode) -> Result<bool, Error> {
        let b = self.src;
        let start = self.pos;
        // `new Date("2024-01-01")`: JavaScript's `new` before a wrapper call.
        if b[start..self.end].starts_with(b"new ") {
            let k = start
                + 3
                + b[start + 3..self.end]
                    .iter()
                    .take_while(|&&c| c == b' ')
                    .count();
            let name_end = k + b[k..self.end]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                .count();
            if k < self.end && b[k].is_ascii_uppercase() && self.byte(name_end) == Some(b'(') {
                // A call with several arguments stays a whole expression, `new` and all.
                if let Some(end) = self.several_args_call_end(name_end) {
                    self.pos = end;
                    self.write_json_input(start..end);
                    self.record(RepairKind::UnquotedValue, start..end);
                    return Ok(false);
                }
                self.record(RepairKind::Wrapper, start..k);
                self.pos = k;
                return self.parse_bare_value(mode);
            }
        }
        // Wrapper call: `ObjectId("x")`, `NumberLong(5)`, `ISODate(…)`.
        if is_ident_start(b[start]) {
            let mut k = start;
            while k < self.end
                && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] == b'$' || b[k] == b'.')
            {
                k += 1;
            }
            if k > start && self.byte(k) == Some(b'(') {
                // `max(a, b)`, `datetime.date(2024, 5, 1)` inside a document: a call with
                // several arguments is an expression, kept whole as a string (keeping its
                // first argument alone would lose the rest).
                if !self.stack.is_empty() {
                    if let Some(end) = self.several_args_call_end(k) {
                        self.pos = end;
                        self.write_json_input(start..end);
                        self.record(RepairKind::UnquotedValue, start..end);
                        return Ok(false);
                    }
                }
                if let Some((number, end)) = self.quoted_number_call(start, k) {
                    // `NumberLong("42")`: Mongo writes 64-bit numbers quoted; the number
                    // is meant.
                    self.record(RepairKind::Wrapper, start..end);
                    self.out.push_input(self.text, number);
                    self.pos = end;
                    return Ok(false);
                }
                self.pos = k + 1;
                self.record(RepairKind::Wrapper, start..k + 1);
                self.open(FrameKind::Wrapper, "")?;
                *mode = Mode::Value;
                return Ok(true);
            }
        }
        // A literal word ends at its last letter: `[false null]` is two values.
        if b[start].is_ascii_alphabetic() {
            let mut k = start;
            while k < self.end && b[k].is_ascii_alphabetic() {
                k += 1;
            }
            // Followed by a separator or closer inside a container (the common case), or by
            // a space that starts no phrase (`True story`).
            let ends = |k: usize| {
                (matches!(b[k], b',' | b'}' | b']') && !self.stack.is_empty())
                    || (is_ws(b[k]) && !self.phrase_goes_on(k))
                    || (b[k] == b'<' && closing_tags_to_end(b, k))
            };
            if k < self.end && literal_word(&b[start..k]).is_some() && ends(k) {
                self.pos = k;
                self.write_bare(&b[start..k], start..k, false)?;
                return Ok(false);
            }
        }
        // `- 5`: a minus sign parted from its number by spaces.
        if b[start] == b'-' {
            let k = start
                + 1
                + b[start + 1..self.end]
                    .iter()
                    .take_while(|&&c| matches!(c, b' ' | b'\t'))
                    .count();
            if k > start + 1 && self.byte(k).is_some_and(|c| c.is_ascii_digit()) {
                if let Some(end) = json_number_end(b, k, self.end) {
                    if self.ends_token(end)
                        && !self.operator_follows(end)
                        && !self.phrase_goes_on(end)
                    {
                        self.record(RepairKind::NumberFormat, start..k);
                        self.out.push(b'-');
                        self.out.push_input(self.text, k..end);
                        self.pos = end;
                        return Ok(false);
                    }
                }
            }
        }
        // Number: a JSON number followed by a delimiter. Valid number text first, in one
        // pass (where it ends, `scan_number` would end too: both stop at a delimiter).
        if matches!(b[start], b'-' | b'0'..=b'9') {
            if let Some(end) = json_number_end(b, start, self.end) {
                // A separator or closer right after the number is the common case: no
                // operator can follow, the token ends.
                let plain_end = matches!(b.get(end), Some(b',' | b'}' | b']')) && end < self.end;
                if plain_end && b[end] == b',' {
                    if let Some(groups_end) = self.thousands_groups(start, end) {
                        // `"population": 921,402}`: digit groups, not a member `402`.
                        self.record(RepairKind::NumberFormat, start..groups_end);
                        self.out.push_input(self.text, start..end);
                        let mut comma = end;
                        while comma < groups_end {
                            self.out.push_input(self.text, comma + 1..comma + 4);
                            comma += 4;
                        }
                        self.pos = groups_end;
                        return Ok(false);
                    }
                }
                if !plain_end && end < self.end && b[end] == b'"' && !self.stack.is_empty() {
                    let m = self.skip_layout_ahead(end + 1);
                    if m >= self.end || matches!(b[m], b',' | b'}' | b']') {
                        // `{"a": 5", "b": 1}`: a stray quote after a number.
                        self.record(RepairKind::InvalidCharacter, end..end + 1);
                        self.out.push_input(self.text, start..end);
                        self.pos = end + 1;
                        return Ok(false);
                    }
                }
                let key_next = !plain_end && self.key_right_after(end);
                if plain_end
                    || key_next
                    || (self.ends_token(end)
                        && !self.operator_follows(end)
                        && !self.phrase_goes_on(end)
                        && !self.clock_time_at(end))
                {
                    self.pos = end;
                    self.out.push_input(self.text, start..end);
                    return Ok(false);
                }
            }
        }
        if matches!(b[start], b'-' | b'+' | b'.' | b'0'..=b'9') {
            let end = scan_number(b, start, self.end);
            if end > start
                && self.ends_token(end)
                && !self.operator_follows(end)
                && !self.phrase_goes_on(end)
                && !self.clock_time_at(end)
            {
                self.pos = end;
                self.write_number(start, end);
                return Ok(false);
            }
        }
        // (After the literals and numbers: no word before a `:` is one.)
        if self.bare_key_at_value(start) {
            // `"f": open: true, price: 2}`, `[name: "Ana", phone: "1"}]`: a key where a value
            // belongs, so the object it starts lost its `{`.
            self.record(RepairKind::MissingOpener, start..start);
            self.open(FrameKind::Object, "{")?;
            *mode = Mode::Key;
            return Ok(false);
        }
        // (After the literals and numbers, which end at a separator: `x"` is the rare case.)
        if let Some(quote) = self.value_lost_opening_quote(start) {
            self.record(RepairKind::UnquotedValue, start..quote + 1);
            self.write_unquoted_string(start, quote);
            self.pos = quote + 1;
            return Ok(false);
        }
        if let Some(len) = python_string_prefix(b, start) {
            // `u'text'`, `r'\d+'`, `b"raw"`: a Python string prefix; the string is meant.
            self.record(RepairKind::UnquotedValue, start..start + len);
            self.pos = start + len;
            if let Some(q) = quote_at(b, self.pos) {
                self.raw_next = is_raw_prefix(&b[start..start + len]);
                let ctx = if self.stack.is_empty() {
                    StrCtx::TopLevel
                } else {
                    StrCtx::Value
                };
                return self.parse_string(q, ctx, false).map(|_| false);
            }
        }
        // A bare token up to the next delimiter of this context.
        let end = self.scan_bare(start);
        let mut tok_end = end;
        while tok_end > start && is_ws(b[tok_end - 1]) {
            tok_end -= 1;
        }
        self.pos = end;
        let tok = &b[start..tok_end];
        if tok.is_empty() {
            // A stray byte that cannot start anything: skip it.
            self.pos = start + utf8_len(b[start]);
            self.record(RepairKind::InvalidCharacter, start..self.pos);
            self.drop_or_null();
            return Ok(false);
        }
        let at_end = end >= self.end && self.end == self.src.len();
        self.write_bare(tok, start..tok_end, at_end)?;
        Ok(false)
    }

    /// `3 apples`, `True story`, `null pointer exception`: after a number or literal, on the
    /// same line, words that are no key (no `:` before the next separator) and no literal make
    /// the whole run one bare string value. `[1 2]`, `[true false]` and `{"a": 1 b: 2}` stay
    /// separate values.
    pub(super) fn phrase_goes_on(&self, end: usize) -> bool {
        let b = self.src;
        let limit = (end + LOOKAHEAD).min(self.end);
        let Some(k) = self.spaced_token_after(end) else {
            return false;
        };
        if !b[k].is_ascii_alphabetic() {
            return false;
        }
        let mut w = k;
        while w < limit && b[w].is_ascii_alphabetic() {
            w += 1;
        }
        if literal_word(&b[k..w]).is_some() {
            return false;
        }
        let in_tuple = matches!(self.top_kind(), Some(FrameKind::Tuple | FrameKind::Wrapper));
        for &c in &b[w..limit] {
            match c {
                b':' | b'=' | b'"' | b'\'' | b'{' | b'[' => return false,
                b',' | b'}' | b']' | b'\n' | b'\r' => return true,
                b')' if in_tuple => return true,
                _ => {}
            }
        }
        // Cut off by the end of the input: the words may be a key that was being written.
        false
    }

    /// Where the next token starts on the same line after the token ending at `end`, when
    /// spaces or tabs part them (within the look-ahead).
    pub(super) fn spaced_token_after(&self, end: usize) -> Option<usize> {
        let b = self.src;
        let limit = (end + LOOKAHEAD).min(self.end);
        let mut k = end;
        while k < limit && matches!(b[k], b' ' | b'\t') {
            k += 1;
        }
        (k > end && k < limit).then_some(k)
    }

    /// `12:30`, `16:9` as a member's value: a clock time or a ratio, one bare string.
    pub(super) fn clock_time_at(&self, end: usize) -> bool {
        let b = self.src;
        self.top_kind() == Some(FrameKind::Object)
            && b.get(end) == Some(&b':')
            && end + 1 < self.end
            && b[end + 1].is_ascii_digit()
    }

    /// `3 * 7`, `10 - 2`: an arithmetic operator after a number on the same line makes the
    /// whole expression one bare value rather than a number and garbage.
    pub(super) fn operator_follows(&self, end: usize) -> bool {
        let b = self.src;
        let Some(k) = self.spaced_token_after(end) else {
            return false;
        };
        match b[k] {
            // `1 -2` is two numbers with a comma missing; `1 - 2` is an expression.
            b'+' | b'-' => b.get(k + 1) == Some(&b' '),
            b'*' | b'%' | b'^' | b'=' | b'<' | b'>' | b'&' | b'|' | b'x' => {
                // An operator, then a space or a digit: an expression.
                matches!(b.get(k + 1), Some(b' ' | b'0'..=b'9' | b'('))
            }
            b'/' => !self.comment_at(k),
            _ => false,
        }
    }

    /// After an unusable byte where a value was due: drop the element, or null the member.
    pub(super) fn drop_or_null(&mut self) {
        match self.top_kind() {
            Some(FrameKind::Object) => self.out.push_str("null"),
            Some(_) => self.drop_item(),
            None => {}
        }
    }

    /// Whether the byte at `i` ends a number or literal (`1/3` is one bare value; `1// x`
    /// is a number and a comment).
    pub(super) fn ends_token(&self, i: usize) -> bool {
        match self.byte(i) {
            None => true,
            Some(b'/') => self.comment_at(i),
            Some(b'<') => closing_tags_to_end(self.src, i),
            Some(c) => {
                is_ws(c)
                    || matches!(c, b',' | b'}' | b']' | b')' | b'#' | b';')
                    || (c == b':' && self.top_kind() == Some(FrameKind::Object))
            }
        }
    }

    /// End of a bare token: the context's separators, a line end, a quote, or a comment
    /// that follows whitespace (so `http://x` stays whole).
    pub(super) fn scan_bare(&self, start: usize) -> usize {
        let b = self.src;
        let in_tuple = matches!(self.top_kind(), Some(FrameKind::Tuple | FrameKind::Wrapper));
        let mut i = start;
        while i < self.end {
            let c = b[i];
            match c {
                b',' | b'}' | b']' | b'\n' | b'\r' | b'"' => break,
                b')' if in_tuple => break,
                b'/' | b'#' if i > start && is_ws(b[i - 1]) => {
                    if c == b'#' || matches!(b.get(i + 1), Some(b'/' | b'*')) {
                        break;
                    }
                    i += 1;
                }
                b'`' if self.starts_with(i, b"```") => break,
                _ => i += 1,
            }
        }
        i
    }

    pub(super) fn write_number(&mut self, start: usize, end: usize) {
        let lexeme = &self.src[start..end];
        if is_json_number(lexeme) {
            self.out.push_input(self.text, start..end);
            return;
        }
        let truncated = end >= self.src.len();
        match parse_number_like(lexeme) {
            Some(fixed) => {
                if truncated && lexeme.len() > fixed.len() {
                    self.mark_truncated();
                } else {
                    self.record(RepairKind::NumberFormat, start..end);
                }
                self.out.push_str(&fixed);
            }
            None if truncated => {
                // `-` or `+` cut off before any digit.
                self.mark_truncated();
                self.drop_item();
            }
            None => {
                self.record(RepairKind::UnquotedValue, start..end);
                self.write_json_input(start..end);
            }
        }
    }

    pub(super) fn write_bare(
        &mut self,
        tok: &[u8],
        span: Range<usize>,
        at_end: bool,
    ) -> Result<(), Error> {
        if let Some(text) = literal_json(tok) {
            if text.as_bytes() != tok {
                let kind = if tok == b"undefined" {
                    RepairKind::Undefined
                } else {
                    RepairKind::PythonLiteral
                };
                self.record(kind, span);
            }
            self.out.push_str(text);
            return Ok(());
        }
        if non_finite_word(tok) {
            let start = span.start;
            self.record(RepairKind::NonFiniteNumber, span);
            match self.options.non_finite {
                NonFinite::Null => self.out.push_str("null"),
                NonFinite::String => self.write_json_input(start..start + tok.len()),
                NonFinite::Error => {
                    return Err(Error::at(
                        ErrorKind::NonFinite,
                        std::str::from_utf8(self.src).unwrap_or(""),
                        start,
                    ))
                }
            }
            return Ok(());
        }
        if at_end {
            // A literal cut short: complete it; never the string "tru".
            for (full, text) in [
                (&b"true"[..], "true"),
                (b"false", "false"),
                (b"null", "null"),
                (b"True", "true"),
                (b"False", "false"),
                (b"None", "null"),
                (b"undefined", "null"),
            ] {
                if full.starts_with(tok) {
                    self.mark_truncated();
                    self.out.push_str(text);
                    return Ok(());
                }
            }
            // `Infin`, `-Inf`: a non-finite number cut short, written as the policy says.
            let non_finite = [&b"Infinity"[..], b"-Infinity"]
                .into_iter()
                .find(|full| tok.len() >= 3 && full.starts_with(tok));
            if let Some(full) = non_finite {
                self.mark_truncated();
                self.record(RepairKind::NonFiniteNumber, span.clone());
                match self.options.non_finite {
                    NonFinite::Null => self.out.push_str("null"),
                    NonFinite::String => self.out.push_json_string(&String::from_utf8_lossy(full)),
                    NonFinite::Error => {
                        return Err(Error::at(
                            ErrorKind::NonFinite,
                            std::str::from_utf8(self.src).unwrap_or(""),
                            span.start,
                        ))
                    }
                }
                return Ok(());
            }
        }
        self.write_json_input(span.clone());
        self.record(RepairKind::UnquotedValue, span);
        Ok(())
    }
}
