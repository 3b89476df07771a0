//! Whether a quote ends its string: the look-ahead after a candidate closing quote.

use super::parser::{FrameKind, Parser, StrCtx, StrEnd};
use crate::rules::{closers_then_next, string_end_on_line, words_after_closers};
use crate::text::{
    closing_tags_to_end, is_ident, is_ident_start, is_json_number, is_ws, json_number_end,
    layout_len, literal_word, quote_at, scan_number, typographic_quote, Quote, TypoQuote, ELLIPSIS,
    FULL_WIDTH_COMMA, KEY_LIKE_LEN, LOOKAHEAD,
};

impl Parser<'_> {
    /// Decide whether the quote just before `after` closes the string, from what follows.
    pub(super) fn string_end_kind(&self, q: Quote, after: usize, ctx: StrCtx) -> StrEnd {
        let b = self.src;
        let limit = self.end;
        let mut j = after;
        while j < limit && is_ws(b[j]) {
            j += 1;
        }
        // A no-break or other Unicode space counts as layout too (rare: a loop of its own).
        while j < limit && b[j] >= 0x80 {
            match layout_len(&b[..limit], j) {
                0 => break,
                n => {
                    j += n;
                    while j < limit && is_ws(b[j]) {
                        j += 1;
                    }
                }
            }
        }
        let Some(&c) = b.get(j).filter(|_| j < limit) else {
            return StrEnd::Close;
        };
        match ctx {
            StrCtx::TopLevel => {
                let next_quote = |k: usize| quote_at(b, self.skip_layout_ahead(k)).is_some();
                let plus = self.skip_layout_ahead(after);
                match c {
                    // `"a" + "b"`: joined after the string closes.
                    _ if plus < limit && b[plus] == b'+' && next_quote(plus + 1) => StrEnd::Close,
                    // The next scalar of a sequence (`"a", "b"`, `"a"\n"b"`).
                    b',' if self.top_sequence => StrEnd::Close,
                    // A fenced string, its fence closing right after it.
                    b'`' | b'~' if self.in_fence && self.fence_at(j) => StrEnd::Close,
                    _ if self.top_sequence && j > after && quote_at(b, j).is_some() => {
                        StrEnd::Close
                    }
                    _ => StrEnd::Inner,
                }
            }
            StrCtx::Key => {
                // Keys end at their first quote unless a word continues right after it; a
                // number that ends the member is the value of a key that lost its colon
                // (`{"a"2}`).
                let value_follows = || {
                    json_number_end(b, j, limit).is_some_and(|m| {
                        let m = self.skip_layout_ahead(m);
                        m >= limit || matches!(b[m], b',' | b'}')
                    })
                };
                // `{"the "best" one": 1}`: words after the quote run to the key's real end.
                let words_then_key_end = || {
                    let line = &b[j..(j + LOOKAHEAD).min(limit)];
                    line.iter()
                        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b' ' | b'_')))
                        .is_some_and(|n| {
                            line[n] == b'"' && {
                                let m = self.skip_layout_ahead(j + n + 1);
                                m < limit && b[m] == b':'
                            }
                        })
                };
                let word_goes_on = j == after
                    && (c.is_ascii_alphanumeric() || c == b'_')
                    && q != Quote::Single
                    && !value_follows();
                if word_goes_on
                    || (q == Quote::Double
                        && j > after
                        && c.is_ascii_alphabetic()
                        && words_then_key_end())
                {
                    StrEnd::Inner
                } else {
                    StrEnd::Close
                }
            }
            StrCtx::Value => self.value_string_end(q, after, j, c),
        }
    }

    pub(super) fn value_string_end(&self, q: Quote, after: usize, j: usize, c: u8) -> StrEnd {
        let b = self.src;
        let top = self.top_kind();
        let in_object = top == Some(FrameKind::Object);
        match c {
            // `{"content": "{"key": "value"}", "path": …}`: code or JSON inside the string
            // ends in closers right before the real closing quote.
            // `return "ok"; }"`: code that ends in `;` and closers right before the real
            // closing quote.
            b'}' | b']' | b';' if self.closing_quote_after_closers(j) => return StrEnd::Inner,
            // `"Type "}" to close"`: closers that would end the document, then a quote and
            // more of the string.
            b'}' | b']' if self.string_goes_on_after_root_closers(j) => return StrEnd::Inner,
            // `params={"base": "EUR"})`: a `)` right after closers is code, unless a call
            // or tuple is open.
            b'}' | b']' if self.paren_after_closers(j) => return StrEnd::Inner,
            // `"a[href="x"] { color: red; }"` in an object: a `]` that cannot close the
            // object, then more than a separator, is content.
            b']' if in_object && self.content_goes_on(j + 1) => return StrEnd::Inner,
            b'}' if top == Some(FrameKind::Array) && self.content_goes_on(j + 1) => {
                return StrEnd::Inner
            }
            // `"b"，"c": 1`: a full-width comma, then a key or the next element.
            0xEF if self.starts_with(j, FULL_WIDTH_COMMA) => {
                let k = self.skip_layout_ahead(j + FULL_WIDTH_COMMA.len());
                let next = if matches!(b.get(k).filter(|_| k < self.end), Some(b'}' | b']')) {
                    // A trailing one.
                    true
                } else if in_object {
                    self.key_follows(k)
                } else {
                    quote_at(b, k).is_some()
                };
                return if next { StrEnd::Close } else { StrEnd::Inner };
            }
            b'}' | b']' if self.closers_are_content(j) => return StrEnd::Inner,
            // `{"id": 1, "label": "bug"\n{"id": 2}`: the root object lost its `}`, and the
            // next line starts the next top-level value (see `step_after`).
            b'{' | b'[' if self.root_object_left_open_at(j) => return StrEnd::Close,
            b'}' | b']' => return StrEnd::Close,
            b')' if matches!(top, Some(FrameKind::Tuple | FrameKind::Wrapper)) => {
                return StrEnd::Close
            }
            b':' if top.is_none() => return StrEnd::Close,
            // `{"tags": ["a", "b", "count": 2}`: a key, so the array lost its `]` (see
            // `close_arrays_before_key`).
            b':' if self.key_in_open_array(after) => return StrEnd::Close,
            // `{"user": "name": "Ana"}`: a key, so the member's value lost its `{` (see
            // `open_object_in_member`).
            b':' if in_object && self.key_like_string_before(after) => return StrEnd::Close,
            b'<' if closing_tags_to_end(b, j) => return StrEnd::Close,
            b'+' => {
                // Comments may sit between the parts (`"x" + /* c */ "y"`).
                let k = self.skip_layout_ahead(j + 1);
                // The next part of the concatenation, or the input cut right after the `+`.
                if quote_at(b, k).is_some() || (k >= self.end && self.end == b.len()) {
                    return StrEnd::Close;
                }
            }
            // `"say "hi" # note", "d": 1}`: a quote later on the line ends the string, so
            // the line comment is content.
            b'/' | b'#'
                if j > after
                    && self.comment_at(j)
                    && self.byte(j + 1) != Some(b'*')
                    && string_end_on_line(&b[..self.end], j, false, true) == Some(true) =>
            {
                return StrEnd::Inner
            }
            b'/' | b'#' if j > after && self.comment_at(j) => return StrEnd::Close,
            // A comment right after the quote (`"a"/* x */]`) when what follows it goes on
            // as JSON would after a string.
            b'/' if self.comment_at(j) && {
                let m = self.skip_layout_ahead(j);
                // Something must follow the comment: `"a "//x" b"` at the end is content.
                m < self.end && self.string_may_end_at(m)
            } =>
            {
                return StrEnd::Close
            }
            // The closing fence of a fenced document, or one that ends the text (its opening
            // fence was in the prompt); elsewhere a fence is string content (a README
            // inside a string).
            b'`' if self.starts_with(j, b"```")
                && (self.in_fence || b[j..self.end].iter().all(|&c| c == b'`' || is_ws(c))) =>
            {
                return StrEnd::Close
            }
            b',' | b';' => {
                if !in_object {
                    // `["She said "no", then left", "x"]`: prose up to a quote is the rest
                    // of the string, not the next element.
                    if c == b',' && self.prose_then_quote_at(j + 1) {
                        return StrEnd::Inner;
                    }
                    return StrEnd::Close;
                }
                let mut k = j + 1;
                while k < self.end {
                    match b[k] {
                        b' ' | b'\t' | b'\n' | b'\r' | b',' => k += 1,
                        0x80.. => match layout_len(&b[..self.end], k) {
                            0 => break,
                            n => k += n,
                        },
                        _ => break,
                    }
                }
                if k >= self.end
                    || matches!(b[k], b'}' | b']' | b'{')
                    || self.comment_at(k)
                    || self.key_follows(k)
                    // `"role": "x", "skills: []`: the next key lost its closing quote.
                    || self.key_without_closing_quote_at(k)
                    // `"a": "x", ... "z": 1`: an ellipsis stands for left-out members.
                    || self.starts_with(k, b"...")
                    || self.starts_with(k, ELLIPSIS)
                    || self.cut_key_at_end(k)
                    // `"tags": "a", "b"]`: the member's value lost its `[`.
                    || (c == b','
                        && !self.inner_quote_seen
                        && self.elements_then_array_closer(k).is_some())
                {
                    return StrEnd::Close;
                }
                return StrEnd::Inner;
            }
            _ => {}
        }
        if in_object {
            // Missing comma before the next key: `"a": "x"\n "b": 1`, `"x""b": 1`. After an
            // inner quote, words running to the string's real end are the sentence going
            // on: `"The word "x" means y, so z."`.
            if (j > after || quote_at(b, j).is_some())
                && self.key_follows(j)
                && !(self.inner_quote_seen && j > after && self.sentence_then_quote_at(j))
            {
                return StrEnd::Close;
            }
        } else if j > after
            && (quote_at(b, j).is_some()
                || matches!(c, b'{' | b'[')
                || self.scalar_element_follows(j)
                // After an inner quote the word more likely ends the sentence: `["He said
                // "hi" twice]`.
                || (!self.inner_quote_seen && self.bare_element_at(j)))
        {
            // Missing comma between elements: `["x" "y"]`, `["x" 1]`, `["x"\n null]`,
            // `["x" y]`.
            return StrEnd::Close;
        }
        let quote = after - 1;
        // `{"a": ["x", "y], "b": 2}`: this quote opens a key of the object around the
        // string's containers, so the string lost its closing quote before their closers.
        if q == Quote::Double {
            if let Some(k) = self.closers_before_next_key(quote) {
                return StrEnd::UnterminatedBeforeClosers(k);
            }
        }
        // `["one",\n  "two,\n  "three"\n]`: this quote, first on its line, opens the next
        // element, so the string lost its closing quote at the end of the line before.
        if top == Some(FrameKind::Array)
            && q == Quote::Double
            && self.element_after_line_break(quote)
        {
            return StrEnd::Unterminated;
        }
        // `{"a": "x, "b": 2}`: this quote opens the next key, so the string lost its closing
        // quote before the separator that precedes it.
        if in_object && q == Quote::Double && self.key_follows(quote) && self.after_separator(quote)
        {
            return StrEnd::Unterminated;
        }
        StrEnd::Inner
    }

    /// Where the closers start in `…y], "b":` when the quote at `quote` opens a key (its
    /// colon right after it) and, before it, a comma and a run of closers end the open
    /// containers up to an object: the string being read lost its closing quote before
    /// them. Not when the string holds an opener of its own (`"if (x) { y }, "k": 1`: code,
    /// whose closers are content).
    pub(super) fn closers_before_next_key(&self, quote: usize) -> Option<usize> {
        let b = self.src;
        let mut k = quote;
        while k > self.string_open && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        if k <= self.string_open || b[k - 1] != b',' {
            return None;
        }
        k -= 1;
        let comma = k;
        while k > self.string_open && matches!(b[k - 1], b'}' | b']' | b' ' | b'\t') {
            k -= 1;
        }
        let closers = &b[k..comma];
        if !closers.iter().any(|&c| c != b' ' && c != b'\t')
            || b[self.string_content..k]
                .iter()
                .any(|&c| matches!(c, b'{' | b'['))
        {
            return None;
        }
        // Each closer ends the innermost container left, and an object remains for the key.
        let mut open = self.stack.iter().rev();
        for &c in closers.iter().filter(|&&c| c != b' ' && c != b'\t') {
            let want = if c == b'}' {
                FrameKind::Object
            } else {
                FrameKind::Array
            };
            if open.next().map(|f| f.kind) != Some(want) {
                return None;
            }
        }
        if open.next().map(|f| f.kind) != Some(FrameKind::Object) {
            return None;
        }
        let after_key = self.scan_quoted(quote, Quote::Double, LOOKAHEAD)?;
        let m = self.skip_layout_ahead(after_key);
        (m < self.end && b[m] == b':').then_some(k)
    }

    /// Whether the quote at `quote` starts its line (spaces aside) and opens a whole element
    /// on it (`"three",` or `"three"` before `]` or the next line), while the string being
    /// read began on the line before: that string lost its closing quote at the line's end
    /// (a comma there is the separator).
    pub(super) fn element_after_line_break(&self, quote: usize) -> bool {
        let b = self.src;
        let content = self.string_content;
        let mut k = quote;
        while k > content && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        if k <= content || b[k - 1] != b'\n' {
            return false;
        }
        k -= 1;
        if k > content && b[k - 1] == b'\r' {
            k -= 1;
        }
        // One line of content before the break (more may be a multi-line text).
        if b[content..k].contains(&b'\n') {
            return false;
        }
        let Some(after) = self.scan_quoted(quote, Quote::Double, LOOKAHEAD) else {
            return false;
        };
        let m = self.skip_layout_ahead(after);
        m >= self.end
            || matches!(b[m], b',' | b']')
            || (b[after..m].contains(&b'\n') && quote_at(b, m) == Some(Quote::Double))
    }

    /// Whether a key that lost its closing quote, or has the other one, starts at `k`: a
    /// quote, a word as short as a key, then `: ` (`"skills: []`, as `close_key_at_colon`
    /// reads such a key) or the other straight quote and `:` (`'role": null`,
    /// `"args': {`, as `parse_string` reads those), then a value.
    pub(super) fn key_without_closing_quote_at(&self, k: usize) -> bool {
        let b = self.src;
        let (open, other) = match quote_at(b, k) {
            Some(Quote::Double) => (b'"', b'\''),
            Some(Quote::Single) => (b'\'', b'"'),
            _ => return false,
        };
        let word = b[k + 1..self.end.min(k + 2 + KEY_LIKE_LEN)]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$'))
            .count();
        let mut colon = k + 1 + word;
        // Closed by the other straight quote, or by a typographic one (`"status”: 1`).
        let typographic = open == b'"'
            && matches!(
                typographic_quote(b, colon),
                Some(TypoQuote::DoubleClose | TypoQuote::SingleClose)
            );
        let closed_by_other = b.get(colon) == Some(&other) || typographic;
        if closed_by_other {
            colon = self.skip_layout_ahead(colon + if typographic { 3 } else { 1 });
        }
        word > 0
            && word <= KEY_LIKE_LEN
            && b.get(colon) == Some(&b':')
            && (closed_by_other
                || (open == b'"' && matches!(b.get(colon + 1), Some(b' ' | b'\t')))
                // Compact JSON: `,"units:"metric"`, `,"days:[1, 2]`.
                || (open == b'"'
                    && (b[k + 1].is_ascii_alphabetic() || b[k + 1] == b'_')
                    && self.value_starts_at(colon + 1)))
            && {
                let m = self.skip_layout_ahead(colon + 1);
                m < self.end && (self.value_starts_at(m) || self.bare_member_value_at(m))
            }
    }

    /// Whether the string element that ends just before `after` is a key after all: it is
    /// short and on one line, and a value follows its colon. Either the array lost its `]`
    /// or the object the key opens lost its `{` (see `key_in_array`). The stream holds such
    /// elements back while they are this short (`KEY_LIKE_LEN`).
    pub(super) fn key_in_open_array(&self, after: usize) -> bool {
        self.top_kind() == Some(FrameKind::Array) && self.key_like_string_before(after)
    }

    /// Whether the string that closed last (all of a concatenation) is as short as a key
    /// and on one line (`KEY_LIKE_LEN`).
    pub(super) fn closed_string_is_key_length(&self) -> bool {
        let content = self
            .src
            .get(self.concat_open + 1..self.string_close.saturating_sub(1))
            .unwrap_or_default();
        content.len() <= KEY_LIKE_LEN && !content.contains(&b'\n')
    }

    /// Whether the string that ends just before `after` reads as a key: it is short and on
    /// one line, and a `:` and a value follow it. The stream holds strings back while they
    /// are this short (`KEY_LIKE_LEN`).
    pub(super) fn key_like_string_before(&self, after: usize) -> bool {
        let b = self.src;
        // All of a concatenation (`"a" + "b":`) counts, as the stream has shown it.
        let content = b
            .get(self.concat_open + 1..after.saturating_sub(1))
            .unwrap_or_default();
        if self.inner_quote_seen || content.len() > KEY_LIKE_LEN || content.contains(&b'\n') {
            return false;
        }
        let colon = self.skip_layout_ahead(after);
        colon < self.end && b[colon] == b':' && {
            let m = self.skip_layout_ahead(colon + 1);
            self.value_starts_at(m) || self.bare_member_value_at(m)
        }
    }

    /// Whether the innermost frame is an array and, below it and any arrays around it, an
    /// object is open.
    pub(super) fn object_below_arrays(&self) -> bool {
        let mut frames = self.stack.iter().rev();
        frames.next().is_some_and(|f| f.kind == FrameKind::Array)
            && frames
                .find(|f| f.kind != FrameKind::Array)
                .is_some_and(|f| f.kind == FrameKind::Object)
    }

    /// See `words_after_closers`.
    pub(super) fn closers_are_content(&self, j: usize) -> bool {
        let open = self.stack.iter().rev().map(|f| match f.kind {
            FrameKind::Object => b'}',
            FrameKind::Array => b']',
            FrameKind::Tuple | FrameKind::Wrapper => b')',
        });
        words_after_closers(&self.src[..self.end], j, open, true) == Some(true)
    }

    /// After a wrong closer at `k - 1`: neither a separator, a closer, a comment nor the end
    /// comes next, and a quote follows later on the line.
    pub(super) fn content_goes_on(&self, k: usize) -> bool {
        let b = self.src;
        let j = self.skip_layout_ahead(k);
        if j >= self.end || matches!(b[j], b',' | b'}' | b']') || self.comment_at(j) {
            return false;
        }
        let line_end = b[j..self.end]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(self.end, |n| j + n);
        b[j..line_end.min(j + LOOKAHEAD)].contains(&b'"')
    }

    /// Whether a `,` comes next after the quote that ends before `after`.
    pub(super) fn separator_follows(&self, after: usize) -> bool {
        let j = self.skip_layout_ahead(after);
        j < self.end && self.src[j] == b','
    }

    /// Whether a `”` just before `after` closes a straight-quoted value: a closer follows, or
    /// a comma and then a key. (The stream freezes on any closer or comma there.)
    pub(super) fn typographic_close_at(&self, after: usize, strict: bool) -> bool {
        let b = self.src;
        let j = self.skip_layout_ahead(after);
        let top = self.top_kind();
        match b.get(j).filter(|_| j < self.end) {
            // (`’` is an apostrophe too: only the closer of what holds the string, and then
            // the end or a separator.)
            Some(&c @ (b'}' | b']')) if strict => {
                let want = match top {
                    Some(FrameKind::Object) => b'}',
                    Some(FrameKind::Array) => b']',
                    _ => return false,
                };
                c == want && closers_then_next(&b[..self.end], j, true) == Some(true)
            }
            Some(b'}' | b']') => true,
            Some(b',') => {
                let k = self.skip_layout_ahead(j + 1);
                k < self.end
                    && match top {
                        Some(FrameKind::Array) => quote_at(b, k) == Some(Quote::Double),
                        _ => self.key_follows(k),
                    }
            }
            _ => false,
        }
    }

    /// Whether the typographic quote at `i`, inside a string a straight `"` opened, closes
    /// it: a `”` before the end of the value (see `typographic_close_at`), a `’` likewise
    /// but only before its container's closer, a comma and the next key, or a comma and the
    /// next straight-quoted element; in a key, either before the key's colon.
    pub(super) fn typographic_closes(&self, i: usize, ctx: StrCtx) -> bool {
        let b = self.src;
        match (ctx, typographic_quote(b, i)) {
            (StrCtx::Value, Some(TypoQuote::DoubleClose)) => {
                self.typographic_close_at(i + 3, false)
            }
            (StrCtx::Value, Some(TypoQuote::SingleClose)) => {
                !self.inner_quote_seen && self.typographic_close_at(i + 3, true)
            }
            (StrCtx::Key, Some(TypoQuote::DoubleClose | TypoQuote::SingleClose)) => {
                let k = self.skip_layout_ahead(i + 3);
                k < self.end && b[k] == b':' && !self.key_closer_later(i + 3, b'"')
            }
            _ => false,
        }
    }

    /// Whether the closers at `j` are content: right after them (and `;` `)` spaces) comes a
    /// quote that is followed by a separator or closer, so that quote ends the string.
    pub(super) fn closing_quote_after_closers(&self, j: usize) -> bool {
        let b = self.src;
        let limit = (j + 16).min(self.end);
        let mut k = j;
        while k < limit && matches!(b[k], b'}' | b']' | b')' | b';' | b' ' | b'\t') {
            k += 1;
        }
        if k >= limit || b[k] != b'"' {
            return false;
        }
        let mut m = k + 1;
        while m < self.end && is_ws(b[m]) {
            m += 1;
        }
        m < self.end && matches!(b[m], b',' | b'}' | b']')
    }

    /// Whether the closers at `j` would close every open container, and right after them
    /// comes a quote, then more text on the line up to a quote and a separator: the
    /// document does not end there, so the closers are string content.
    pub(super) fn string_goes_on_after_root_closers(&self, j: usize) -> bool {
        let b = self.src;
        let limit = (j + LOOKAHEAD).min(self.end);
        // Closers for every open container (mostly one is there, and more is open).
        let k = j + self.stack.len();
        if k >= limit || !b[j..k].iter().all(|&c| matches!(c, b'}' | b']')) {
            return false;
        }
        let k = k + b[k..limit]
            .iter()
            .take_while(|&&c| matches!(c, b'}' | b']'))
            .count();
        if k >= limit || b[k] != b'"' {
            return false;
        }
        let line_end = b[k + 1..limit]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(limit, |n| k + 1 + n);
        b[k + 1..line_end].iter().enumerate().any(|(n, &c)| {
            c == b'"' && n > 0 && {
                let m = self.skip_layout_ahead(k + 2 + n);
                m < self.end && matches!(b[m], b',' | b'}' | b']')
            }
        })
    }

    /// A bare word at `k` (64 bytes at most) and the spaces after it: where the word ends
    /// and where the next token starts; `None` when no word starts at `k`.
    pub(super) fn word_and_spaces(&self, k: usize) -> Option<(usize, usize)> {
        let b = self.src;
        if k >= self.end || !is_ident_start(b[k]) {
            return None;
        }
        let limit = (k + 64).min(self.end);
        let mut m = k;
        while m < limit && is_ident(b[m]) {
            m += 1;
        }
        let word_end = m;
        while m < self.end && matches!(b[m], b' ' | b'\t') {
            m += 1;
        }
        Some((word_end, m))
    }

    /// Whether one bare word starts at `k` and ends the element: spaces, then `,` or `]`.
    pub(super) fn bare_element_at(&self, k: usize) -> bool {
        self.word_and_spaces(k)
            .is_some_and(|(_, m)| m < self.end && matches!(self.src[m], b',' | b']'))
    }

    /// Whether words that are no value (`then left"`) start at `k` (after spaces) and run on
    /// the same line to a quote that ends a string: a separator, a closer or the end follows.
    pub(super) fn prose_then_quote_at(&self, mut k: usize) -> bool {
        let b = self.src;
        while k < self.end && matches!(b[k], b' ' | b'\t') {
            k += 1;
        }
        if k >= self.end || !b[k].is_ascii_alphabetic() || self.scalar_element_follows(k) {
            return false;
        }
        let limit = (k + LOOKAHEAD).min(self.end);
        let mut m = k;
        while m < limit && !matches!(b[m], b'"' | b',' | b']' | b'}' | b'[' | b'{' | b'\n') {
            m += 1;
        }
        if m >= limit || b[m] != b'"' || !b[k..m].contains(&b' ') {
            return false;
        }
        let e = self.skip_layout_ahead(m + 1);
        e >= self.end || matches!(b[e], b',' | b']' | b'}')
    }

    /// Whether words (with spaces and punctuation, no `:` and no bracket) run from `k` on its
    /// line to a `"` that ends the member: the object's `}`, the text's end, or a comma and
    /// the next key follow it.
    #[cold]
    pub(super) fn sentence_then_quote_at(&self, k: usize) -> bool {
        let b = self.src;
        if k >= self.end || !b[k].is_ascii_alphabetic() {
            return false;
        }
        let limit = (k + LOOKAHEAD).min(self.end);
        let Some(m) = b[k..limit]
            .iter()
            .position(|&c| matches!(c, b'"' | b':' | b'{' | b'[' | b'}' | b']' | b'\n'))
            .map(|n| k + n)
        else {
            return false;
        };
        if b[m] != b'"' || !b[k..m].contains(&b' ') {
            return false;
        }
        let e = self.skip_layout_ahead(m + 1);
        e >= self.end
            || b[e] == b'}'
            || (b[e] == b',' && {
                let n = self.skip_layout_ahead(e + 1);
                n < self.end && quote_at(b, n).is_some() && self.key_follows(n)
            })
    }

    /// Whether the closers at `j` are followed right away by `)` inside the document (they
    /// do not close it all, as `callback({…})` does) while no call or tuple is open: JSON
    /// has no `)` there, code does.
    pub(super) fn paren_after_closers(&self, j: usize) -> bool {
        let b = self.src;
        let closers = b[j..self.end]
            .iter()
            .take_while(|&&c| matches!(c, b'}' | b']'))
            .count();
        let k = j + closers;
        closers < self.stack.len()
            && k < self.end
            && b[k] == b')'
            && !self
                .stack
                .iter()
                .any(|f| matches!(f.kind, FrameKind::Tuple | FrameKind::Wrapper))
    }

    /// Whether a whole number or literal starts at `k` and ends at an element boundary
    /// (`1,`, `null]`, `true` then a line break): a sign that the element before it ended.
    pub(super) fn scalar_element_follows(&self, k: usize) -> bool {
        let b = self.src;
        let limit = (k + 64).min(self.end);
        let mut m = k;
        match b.get(k) {
            Some(b'-' | b'0'..=b'9') => m = scan_number(b, k, limit),
            Some(c) if c.is_ascii_alphabetic() => {
                while m < limit && b[m].is_ascii_alphabetic() {
                    m += 1;
                }
                if literal_word(&b[k..m]).is_none() {
                    return false;
                }
            }
            _ => return false,
        }
        if m == k || !is_json_number(&b[k..m]) && b[k].is_ascii_digit() {
            return false;
        }
        let spaces_limit = (m + LOOKAHEAD).min(self.end);
        while m < spaces_limit && matches!(b[m], b' ' | b'\t') {
            m += 1;
        }
        // Anything but a word may follow (`"x" 1 2`); a word means prose (`"x" 2 times`).
        if m >= self.end || !b[m].is_ascii_alphabetic() {
            return true;
        }
        let mut w = m;
        while w < (m + 16).min(self.end) && b[w].is_ascii_alphabetic() {
            w += 1;
        }
        literal_word(&b[m..w]).is_some()
    }

    /// Whether an escape JSON does not know (`\d`, `\U`) appears before the next quote or
    /// line end, within a path's length: the sign of a Windows path written raw.
    pub(super) fn invalid_escape_ahead(&self, from: usize) -> bool {
        let b = self.src;
        let limit = (from + 260).min(self.end);
        let mut i = from;
        while i + 1 < limit {
            match b[i] {
                b'"' | b'\'' | b'`' | b'\n' => return false,
                b'\\' => {
                    if !matches!(
                        b[i + 1],
                        b'"' | b'\'' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u'
                    ) {
                        return true;
                    }
                    i += 2;
                }
                _ => i += 1,
            }
        }
        false
    }

    /// Whether a comment (`//`, `/*`, `# `) starts at `k`.
    pub(super) fn comment_at(&self, k: usize) -> bool {
        match self.byte(k) {
            Some(b'/') => matches!(self.byte(k + 1), Some(b'/' | b'*')),
            Some(b'#') => self.byte(k + 1).is_none_or(|n| is_ws(n) || n == b'#'),
            _ => false,
        }
    }

    /// Where the closers end a string's content `b[from..end]`: its last bytes are layout
    /// and exactly the closers of the open containers, innermost first (`value]}` in
    /// `{"key": ["value]}`). None when they are not.
    pub(super) fn closers_at_string_end(&self, from: usize, end: usize) -> Option<usize> {
        let b = self.src;
        let mut k = end;
        // Read backwards, the last byte closes the outermost container.
        let mut frames = self.stack.iter();
        let mut closers = 0;
        while k > from {
            let c = b[k - 1];
            if is_ws(c) {
                k -= 1;
                continue;
            }
            let wanted = match frames.next().map(|f| f.kind) {
                Some(FrameKind::Object) => b'}',
                Some(FrameKind::Array) => b']',
                _ => break,
            };
            if c != wanted {
                // Not a closer of what is open (or more closers than that): content.
                return None;
            }
            closers += 1;
            k -= 1;
        }
        if closers == 0 || closers != self.stack.len() {
            return None;
        }
        // More closers than open containers: content, not a forgotten quote.
        if k > from && matches!(b[k - 1], b'}' | b']') {
            return None;
        }
        Some(k)
    }

    /// Whether what is at `m` can follow a string value: the end, a closer, a comma, or (in
    /// an object) the next key.
    pub(super) fn string_may_end_at(&self, m: usize) -> bool {
        m >= self.end
            || matches!(self.src[m], b',' | b'}' | b']')
            || (self.top_kind() == Some(FrameKind::Object) && self.key_follows(m))
    }
}
