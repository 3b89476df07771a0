//! The document level: where a value starts amid prose, fences and reasoning blocks,
//! documents that lost their first opener, several top-level values, escaped documents.

use super::parser::{trim_json_ws, Parser, Start};
use super::{Options, Repair, RepairKind, Repaired};
use crate::error::{Error, ErrorKind};
use crate::rules::{
    citation_at, control_token, escaped_document_at, object_at_text_start, plausible_container,
    task_box_at,
};
use crate::text::{
    comment_end, fence_marker, fence_value_start, find_ignore_ascii_case, first_on_line,
    is_ident_start, is_ws, parse_number_like, quote_at, reasoning_opener, scan_bare_word,
    unescaped_byte, IDENT_OR_SPACE, LOOKAHEAD,
};
use std::ops::Range;

/// A document whose quotes are all written `\"` (a JSON string's content pasted raw):
/// `{\"a\": \"b\"}`. Returns the offset of its first bracket.
pub(super) fn escaped_document_start(input: &str) -> Option<usize> {
    let b = input.as_bytes();
    let start = memchr::memchr2(b'{', b'[', b)?;
    (!escaped_member_value(b, start) && escaped_document_at(b, start).unwrap_or(false))
        .then_some(start)
}

/// `"result": "{\"a\": 1}", "ok": true}`: the first bracket, at `b[start]`, opens a
/// member's string value holding JSON, in a document that lost its `{`; the parser reads it
/// as such, not as an escaped document.
pub(super) fn escaped_member_value(b: &[u8], start: usize) -> bool {
    let before = |end: usize| b[..end].iter().rposition(|c| !c.is_ascii_whitespace());
    start >= 2
        && b[start - 1] == b'"'
        && before(start - 1).is_some_and(|colon| {
            b[colon] == b':' && before(colon).is_some_and(|key| matches!(b[key], b'"' | b'\''))
        })
}

/// The valid JSON string literal around the escaped document at `start` (`Here:
/// "{\"a\": 1}"`), when only text without brackets follows it: the contract keeps a JSON
/// string a string, so that string is the answer, not the document inside it.
pub(super) fn json_string_holding(input: &str, start: usize) -> Option<Range<usize>> {
    let b = input.as_bytes();
    let open = start.checked_sub(1).filter(|&o| b[o] == b'"')?;
    let mut i = start;
    let close = loop {
        let n = memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[i + n] == b'"' {
            break i + n;
        }
        i += n + 2;
    };
    let literal = input.get(open..close + 1)?;
    let rest = b.get(close + 1..)?;
    (serde_json::from_str::<String>(literal).is_ok() && memchr::memchr2(b'{', b'[', rest).is_none())
        .then_some(open..close + 1)
}

/// The string literal at `range` as the whole result; the text around it is prose.
pub(super) fn string_in_prose(input: &str, range: Range<usize>) -> Repaired {
    let mut repairs = Vec::new();
    let b = input.as_bytes();
    if b[..range.start].iter().any(|c| !c.is_ascii_whitespace()) {
        repairs.push(Repair::new(RepairKind::StrippedProse, 0..range.start));
    }
    if b[range.end..].iter().any(|c| !c.is_ascii_whitespace()) {
        repairs.push(Repair::new(RepairKind::StrippedProse, range.end..b.len()));
    }
    Repaired {
        text: input.get(range).unwrap_or_default().to_owned(),
        repairs,
    }
}

/// Unescape one level (`\"` → `"`, `\\` → `\`), repair the result, and map every span back
/// to the input.
pub(super) fn repair_escaped(
    input: &str,
    start: usize,
    options: &Options,
) -> Result<Repaired, Error> {
    let b = input.as_bytes();
    let mut text = Vec::with_capacity(input.len());
    let mut map = Vec::with_capacity(input.len() + 1);
    text.extend_from_slice(&b[..start]);
    map.extend(0..start);
    let mut i = start;
    while i < b.len() {
        let unescaped = (b[i] == b'\\')
            .then(|| b.get(i + 1).copied().and_then(unescaped_byte))
            .flatten();
        if let Some(c) = unescaped {
            text.push(c);
            map.push(i);
            i += 2;
        } else {
            text.push(b[i]);
            map.push(i);
            i += 1;
        }
    }
    map.push(b.len());
    // Only ASCII bytes were removed, so the text is still UTF-8.
    let text = String::from_utf8(text)
        .map_err(|e| Error::new(ErrorKind::Internal(format!("unescape broke UTF-8: {e}"))))?;
    let mut parser = Parser::new(&text, options);
    let out = parser.run()?;
    let at = |p: usize| map.get(p).copied().unwrap_or(b.len());
    let mut repairs = vec![Repair::new(RepairKind::EscapedJson, start..b.len())];
    repairs.extend(
        parser
            .repairs
            .into_iter()
            .map(|r| Repair::new(r.kind(), at(r.span().start)..at(r.span().end))),
    );
    let repaired = Repaired { text: out, repairs };
    super::duplicates::apply(repaired, input, options)
}

impl Parser<'_> {
    /// Skip prose, fences and reasoning blocks up to the next plausible value. `first` says
    /// no value was found yet (the text's own start is trusted more than the middle of prose).
    pub(super) fn find_value_start(&mut self, first: bool) -> Result<Option<Start>, Error> {
        let b = self.src;
        let mut i = self.pos;
        let mut skipped_from: Option<usize> = None;
        let mut at_text_start = first;
        // Right after an opening fence's line: the fenced text may be a document that lost
        // its `{` (`"a": 1, …}`), as at the text's start.
        let mut at_fence_start = false;
        if self.top_sequence && !first {
            // The next scalar of the sequence; a comma with none after it was trailing.
            while i < b.len() && (is_ws(b[i]) || b[i] == b',') {
                if b[i] == b',' && b[i + 1..].iter().all(|&c| is_ws(c)) {
                    self.record(RepairKind::TrailingComma, i..i + 1);
                }
                i += 1;
            }
            return Ok((i < b.len()).then_some(Start::At(i)));
        }
        // Only spaces since the last line break: a comment starting here is a whole comment
        // (`// {"old": 1}`), not a URL's `//` in prose.
        let mut line_start = true;
        while i < b.len() {
            let c = b[i];
            if is_ws(c) {
                line_start |= c == b'\n';
                i += 1;
                continue;
            }
            if line_start {
                if let Some(end) = comment_end(b, i) {
                    // Whatever a comment holds, JSON included, is no value.
                    if skipped_from.is_none() {
                        skipped_from = Some(i);
                    }
                    at_text_start = false;
                    at_fence_start = false;
                    i = end;
                    continue;
                }
            }
            line_start = false;
            if c == b'<' {
                if let Some(after) = self.reasoning_block_end(i) {
                    self.flush_skipped(&mut skipped_from, i);
                    self.record(RepairKind::SkippedReasoning, i..after);
                    i = after;
                    continue;
                }
            }
            if matches!(c, b'`' | b'~') && fence_marker(&b[i..]).is_some() {
                self.flush_skipped(&mut skipped_from, i);
                let line_end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n + 1);
                // A fence on one line (```` ```json {"a": 1}``` ````): the value starts
                // after the marker and its language tag.
                let to = if self.in_fence {
                    // A closing marker: what follows on its line is prose (or another fence).
                    b[i..line_end]
                        .iter()
                        .position(|&m| m != c)
                        .map_or(line_end, |n| i + n)
                } else {
                    fence_value_start(&b[i..line_end])
                        .flatten()
                        .map_or(line_end, |n| i + n)
                };
                self.record(RepairKind::StrippedFence, i..to);
                self.in_fence = !self.in_fence;
                at_fence_start = self.in_fence && to == line_end;
                i = to;
                continue;
            }
            // `[TOOL_CALLS] [{…}]`, `[INST]`: a chat template's control token, not an array.
            if c == b'[' {
                if let Some(Some(len)) = control_token(b, i, true) {
                    if skipped_from.is_none() {
                        skipped_from = Some(i);
                    }
                    i += len;
                    continue;
                }
            }
            // Inside a code fence a bracket is trusted: the fence says code follows.
            if (c == b'{' || c == b'[')
                && ((at_text_start
                    && (c == b'[' || object_at_text_start(b, i, true) == Some(true)))
                    || self.in_fence
                    || (plausible_container(b, i, true) == Some(true)
                        && !(first
                            && c == b'['
                            && !first_on_line(b, i)
                            && (citation_at(b, i, true) == Some(true)
                                || task_box_at(b, i, true) == Some(true)))))
            {
                self.flush_skipped(&mut skipped_from, i);
                return Ok(Some(Start::At(i)));
            }
            if (c == b'}' || c == b']') && !first && skipped_from.is_none() {
                // A closer right after a value, with nothing open: a redundant closer.
                self.record(RepairKind::RedundantCloser, i..i + 1);
                i += 1;
                continue;
            }
            // ```` ```json\n42\n``` ````: a fence that holds one scalar, whole.
            if at_fence_start && self.fenced_scalar_at(i) {
                self.flush_skipped(&mut skipped_from, i);
                return Ok(Some(Start::At(i)));
            }
            if at_text_start || at_fence_start {
                if let Some(found) = self.bare_document(i)? {
                    self.flush_skipped(&mut skipped_from, i);
                    return Ok(Some(found));
                }
            }
            // JSON Lines: a line right after a value that starts with a quoted key lost its
            // `{` (`{"id": 1}\n"id": 2}`).
            if !first && skipped_from.is_none() && b[self.pos..i].contains(&b'\n') {
                if let Some(q) = quote_at(b, i) {
                    if let Some(after) = self.scan_quoted(i, q, LOOKAHEAD) {
                        let k = self.skip_layout_ahead(after);
                        // And a `}` later on that nothing after it opened.
                        if k < b.len()
                            && b[k] == b':'
                            && self
                                .unmatched_closers(i)
                                .is_some_and(|closers| closers.first() == Some(&b'}'))
                        {
                            self.record(RepairKind::MissingOpener, i..i);
                            return Ok(Some(Start::MissingOpener(i)));
                        }
                    }
                }
            }
            at_text_start = false;
            at_fence_start = false;
            if skipped_from.is_none() {
                skipped_from = Some(i);
            }
            i += 1;
        }
        self.flush_skipped(&mut skipped_from, b.len());
        Ok(None)
    }

    /// Whether the fenced text from `i` (right after the opening fence's line) to the
    /// closing fence, or the text's end, is one JSON scalar (`42`, `"yes"`, `null`) or a
    /// Python literal (`True`, `None`).
    #[cold]
    pub(super) fn fenced_scalar_at(&self, i: usize) -> bool {
        let b = self.src;
        let mut end = b.len();
        let mut line = i;
        while let Some(n) = memchr::memchr(b'\n', &b[line..]) {
            let next = line + n + 1;
            let marker = b[next..]
                .iter()
                .position(|&c| c != b' ' && c != b'\t')
                .map(|k| next + k);
            if marker.is_some_and(|m| fence_marker(&b[m..]).is_some()) {
                end = next;
                break;
            }
            line = next;
        }
        let content = trim_json_ws(std::str::from_utf8(&b[i..end]).unwrap_or(""));
        !content.starts_with(['{', '['])
            && (matches!(content, "True" | "False" | "None")
                || serde_json::from_str::<serde::de::IgnoredAny>(content).is_ok())
    }

    pub(super) fn flush_skipped(&mut self, from: &mut Option<usize>, to: usize) {
        if let Some(start) = from.take() {
            let mut end = to;
            while end > start && is_ws(self.src[end - 1]) {
                end -= 1;
            }
            self.record(RepairKind::StrippedProse, start..end);
        }
    }

    /// `<think>…</think>` (and `<thinking>`, `<reasoning>`, `<reflection>`): the offset just
    /// past the block, or the input's end when it never closes.
    pub(super) fn reasoning_block_end(&self, i: usize) -> Option<usize> {
        let (open, close) = reasoning_opener(&self.src[i..], true)??;
        let body = &self.src[i + open.len()..];
        Some(match find_ignore_ascii_case(body, close) {
            Some(n) => i + open.len() + n + close.len(),
            None => self.src.len(),
        })
    }

    /// The text's first non-space byte is not a bracket: a document with a missing opening
    /// brace (`"a": 1, "b": 2}`), or a whole text that is one scalar (`'hi'`, `True`).
    pub(super) fn bare_document(&mut self, i: usize) -> Result<Option<Start>, Error> {
        let b = self.src;
        let last = trim_json_ws(std::str::from_utf8(b).unwrap_or(""))
            .bytes()
            .last();
        // `1, 2, 3]`, `"a", "b"]`: scalars, then the array's closer alone.
        if last == Some(b']') && !b.contains(&b'[') {
            let close = b.iter().rposition(|&c| c == b']').unwrap_or(b.len());
            if self.scalar_sequence_until(i, close) {
                self.record(RepairKind::MissingOpener, i..i);
                return Ok(Some(Start::MissingArrayOpener(i)));
            }
        }
        // `name: "Ada", age: 36}`: a bare key first, the object's closer last.
        if last == Some(b'}') && !b.contains(&b'{') && is_ident_start(b[i]) {
            let run = b[i..]
                .iter()
                .take(64)
                .position(|&c| !IDENT_OR_SPACE[c as usize])
                .map_or(i, |n| i + n);
            if b.get(run) == Some(&b':') && b.get(run + 1) != Some(&b'/') {
                self.record(RepairKind::MissingOpener, i..i);
                return Ok(Some(Start::MissingOpener(i)));
            }
        }
        if let Some(q) = quote_at(b, i) {
            if let Some(after) = self.scan_quoted(i, q, LOOKAHEAD) {
                let mut k = after;
                while k < b.len() && is_ws(b[k]) {
                    k += 1;
                }
                if b.get(k) == Some(&b':') {
                    // Missing `{`: the caller opens the object here.
                    self.record(RepairKind::MissingOpener, i..i);
                    return Ok(Some(Start::MissingOpener(i)));
                }
                if k == b.len() {
                    return Ok(Some(Start::At(i)));
                }
            }
            if self.scalar_sequence(i) {
                self.top_sequence = true;
                return Ok(Some(Start::At(i)));
            }
            // A string making up the whole text (`"He said "hi" to me"`, `"a" + "b"`), or one
            // that never closes (a cut-off answer).
            let rest = trim_json_ws(std::str::from_utf8(&b[i..]).unwrap_or(""));
            let closes_at_end = rest.len() > q.open_len()
                && q.close_at(rest.as_bytes(), rest.len() - 1).is_some()
                || (rest.len() >= q.open_len() + 3
                    && q.close_at(rest.as_bytes(), rest.len() - 3) == Some(3));
            let never_closes = (i + q.open_len()..b.len()).all(|k| q.close_at(b, k).is_none());
            // Quotes alone (a run of `"`) say nothing.
            let says_something = rest
                .bytes()
                .any(|c| !is_ws(c) && quote_at(&[c], 0).is_none() && c != 0xE2);
            if (closes_at_end || never_closes) && says_something {
                return Ok(Some(Start::At(i)));
            }
            return Ok(None);
        }
        if self.scalar_sequence(i) {
            self.top_sequence = true;
            return Ok(Some(Start::At(i)));
        }
        // A call making up the whole text: `NumberLong(5)`, `callback_1("x");`.
        let word = b[i..]
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')))
            .unwrap_or(b.len() - i);
        let rest = trim_json_ws(std::str::from_utf8(&b[i..]).unwrap_or(""));
        let rest = rest.strip_suffix(';').map_or(rest, str::trim_end);
        let mut arg = i + word + 1;
        while arg < b.len() && is_ws(b[arg]) {
            arg += 1;
        }
        // Its argument must look like JSON (`print(hello)` is code, not a value).
        let json_arg = quote_at(b, arg).is_some()
            || matches!(b.get(arg), Some(b'{' | b'[' | b'-' | b'0'..=b'9'))
            || [&b"true"[..], b"false", b"null"]
                .iter()
                .any(|w| b[arg.min(b.len())..].starts_with(w));
        if word > 0
            && is_ident_start(b[i])
            && b.get(i + word) == Some(&b'(')
            && json_arg
            && rest.ends_with(')')
        {
            return Ok(Some(Start::At(i)));
        }
        // A lone scalar word or number making up the whole text.
        let rest = trim_json_ws(std::str::from_utf8(&b[i..]).unwrap_or(""));
        if !rest.is_empty() && rest.len() <= 32 && !rest.bytes().any(is_ws) {
            let lower = rest.to_ascii_lowercase();
            if matches!(
                lower.as_str(),
                "true" | "false" | "none" | "null" | "nan" | "infinity" | "-infinity" | "undefined"
            ) || parse_number_like(rest.as_bytes()).is_some()
            {
                return Ok(Some(Start::At(i)));
            }
        }
        Ok(None)
    }

    /// Whether the text from `i` to its end is scalars separated by commas or layout, at
    /// least two of them or one with a trailing comma (`1, 2, 3`, `4,`, `"a"\n"b"`).
    pub(super) fn scalar_sequence(&self, i: usize) -> bool {
        self.scalar_sequence_until(i, self.src.len())
    }

    /// `scalar_sequence` on `src[..end]`.
    pub(super) fn scalar_sequence_until(&self, mut i: usize, end: usize) -> bool {
        let b = self.src.get(..end).unwrap_or(self.src);
        let mut values = 0;
        let mut comma = false;
        loop {
            while i < b.len() && is_ws(b[i]) {
                i += 1;
            }
            if i >= b.len() {
                return values >= 2 || (values == 1 && comma);
            }
            if values > 0 && b[i] == b',' && !comma {
                comma = true;
                i += 1;
                continue;
            }
            let end = if let Some(q) = quote_at(b, i) {
                match self.scan_quoted(i, q, LOOKAHEAD) {
                    Some(end) => end,
                    None => return false,
                }
            } else {
                let end = scan_bare_word(b, i);
                let word = &b[i..end];
                let literal = word.eq_ignore_ascii_case(b"true")
                    || word.eq_ignore_ascii_case(b"false")
                    || word.eq_ignore_ascii_case(b"null")
                    || word.eq_ignore_ascii_case(b"none");
                if end == i || !(literal || parse_number_like(word).is_some()) {
                    return false;
                }
                end
            };
            // Values are apart: a comma or layout between them.
            if values > 0 && !comma && !is_ws(b[i - 1]) {
                return false;
            }
            values += 1;
            comma = false;
            i = end;
        }
    }
}
