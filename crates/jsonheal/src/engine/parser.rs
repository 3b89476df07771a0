//! The engine: a byte cursor over the input, an explicit stack of open containers, and an
//! output buffer that receives compact JSON. Every decision looks at most a bounded distance
//! ahead (or scans a region that no later decision scans again), so time is linear in the
//! input, and nothing recurses, so depth costs heap, not stack.
//!
//! This file holds the parser's state, its entry and its dispatch; its other methods live
//! in sibling modules by concern.

use super::document::{
    escaped_document_start, json_string_holding, repair_escaped, string_in_prose,
};
use super::out::Out;
use super::{DuplicateKeys, Multiple, Options, Repair, RepairKind, Repaired};
use crate::error::{Error, ErrorKind};
use crate::text::{
    closing_tags_to_end, fence_marker, hex4, is_ws, layout_len, quote_at, quoted_end,
    unicode_escape_len, unicode_space_len, Quote, LOOKAHEAD,
};
use memchr::memmem;
use std::ops::Range;

pub(super) fn repair(input: &str, options: &Options) -> Result<Repaired, Error> {
    let trimmed = trim_json_ws(input);
    if trimmed.is_empty() {
        return Err(Error::no_json());
    }
    let mut parser = Parser::new(input, options);
    match serde_json::from_str::<serde::de::IgnoredAny>(trimmed) {
        Ok(_)
            if options.duplicate_keys == DuplicateKeys::Keep
                && !has_lone_surrogate(trimmed.as_bytes())
                && !nests_deeper_than(trimmed.as_bytes(), options.max_depth) =>
        {
            return Ok(Repaired {
                text: trimmed.to_owned(),
                // Room for one repair per 32 bytes: badly written text needs about that many,
                // and growing a large log by copying costs more than reserving it.
                repairs: Vec::with_capacity(input.len() / 32),
            });
        }
        // A valid document cut short (the usual way LLM output breaks): keep the valid prefix
        // as it is and let the engine finish only its tail.
        Err(e) if e.classify() == serde_json::error::Category::Eof => {
            let start = trimmed.as_ptr() as usize - input.as_ptr() as usize;
            if let Some(text) = parser.resume_valid_prefix(start, start + trimmed.len())? {
                let repaired = Repaired {
                    text,
                    repairs: parser.repairs,
                };
                return super::duplicates::apply(repaired, input, options);
            }
        }
        _ => {}
    }
    if let Some(start) = escaped_document_start(input) {
        if let Some(string) = json_string_holding(input, start) {
            return Ok(string_in_prose(input, string));
        }
        return repair_escaped(input, start, options);
    }
    let text = parser.run()?;
    let repaired = Repaired {
        text,
        repairs: parser.repairs,
    };
    super::duplicates::apply(repaired, input, options)
}

pub(super) fn trim_json_ws(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

/// Whether a `\uD800`–`\uDFFF` escape stands outside a high+low pair. Only called on
/// valid JSON, so every `\u` is followed by four hex digits.
pub(super) fn has_lone_surrogate(b: &[u8]) -> bool {
    let mut skip_to = 0;
    for i in memmem::find_iter(b, b"\\u") {
        if i < skip_to {
            continue;
        }
        // `\\u` is an escaped backslash followed by a plain `u`.
        let backslashes = b[..=i].iter().rev().take_while(|&&c| c == b'\\').count();
        if backslashes % 2 == 0 {
            continue;
        }
        let Some(unit) = b.get(i + 2..i + 6).map(hex4) else {
            continue;
        };
        if (0xD800..0xDC00).contains(&unit) {
            let low = (b.get(i + 6..i + 8) == Some(b"\\u"))
                .then(|| b.get(i + 8..i + 12).map(hex4))
                .flatten();
            match low {
                Some(l) if (0xDC00..0xE000).contains(&l) => skip_to = i + 12,
                _ => return true,
            }
        } else if (0xDC00..0xE000).contains(&unit) {
            return true;
        }
    }
    false
}

/// Whether containers nest deeper than `limit` (string-aware). Only run for a limit below
/// serde_json's own, which the validity check already enforces.
pub(super) fn nests_deeper_than(b: &[u8], limit: usize) -> bool {
    if limit >= 127 {
        return false;
    }
    let (mut depth, mut in_string, mut i) = (0usize, false, 0);
    while i < b.len() {
        match (in_string, b[i]) {
            (true, b'\\') => i += 1,
            (_, b'"') => in_string = !in_string,
            (false, b'{' | b'[') => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            (false, b'}' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    false
}

/// Where a top-level value starts.
pub(super) enum Start {
    At(usize),
    /// Members with no opening `{` before them.
    MissingOpener(usize),
    /// Elements with no opening `[` before them (`1, 2, 3]`).
    MissingArrayOpener(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum FrameKind {
    Object,
    Array,
    /// A Python tuple `( … )`, written as an array.
    Tuple,
    /// `ObjectId( … )`: contributes its first argument, writes nothing itself.
    Wrapper,
}

#[derive(Debug)]
pub(super) struct Frame {
    pub(super) kind: FrameKind,
    /// Members or elements written so far (decides whether a comma goes first).
    pub(super) count: usize,
    /// `out.len()` before the current member or element, to drop it if it never completes.
    pub(super) checkpoint: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mode {
    /// A value is expected (array element, member value, wrapper argument).
    Value,
    /// An object key (or `}`) is expected.
    Key,
    /// A `:` is expected after a key.
    Colon,
    /// A value just ended: `,` or a closer is expected.
    After,
}

/// Where a string is, which decides what may follow its closing quote.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum StrCtx {
    Key,
    Value,
    TopLevel,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum StrEnd {
    /// The quote ends the string.
    Close,
    /// The quote is content.
    Inner,
    /// The quote opens the next key: the string lost its closing quote before it.
    Unterminated,
    /// The quote opens the next key of an object around the string's containers: the
    /// string lost its closing quote before the closers at this offset (`"y], "b": 1`).
    UnterminatedBeforeClosers(usize),
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a [u8],
    pub(super) pos: usize,
    /// Where the current document region ends (a closing code fence, or the input's end).
    pub(super) end: usize,
    /// The input as text, for copying slices of it to `out`.
    pub(super) text: &'a str,
    pub(super) out: Out,
    pub(super) repairs: Vec<Repair>,
    /// Whether `repairs` is in input order (they are recorded almost in order).
    pub(super) repairs_in_order: bool,
    /// The whole text is a sequence of scalars (`1, 2, 3`, `"a"\n"b"`): each is a value.
    pub(super) top_sequence: bool,
    pub(super) stack: Vec<Frame>,
    pub(super) options: &'a Options,
    /// `out.len()` right after the last string value, for `"a" + "b"`.
    pub(super) string_end: Option<usize>,
    /// The string being read kept a quote as content (`"He said "hi"…`).
    pub(super) inner_quote_seen: bool,
    /// Where the string being read opened (its quote's offset).
    pub(super) string_open: usize,
    /// The next string has a Python raw prefix (`r'C:\new'`, `r"\d+"`): its backslashes
    /// are content, as Python reads them.
    pub(super) raw_next: bool,
    /// Where its content starts: past an opening quote of one byte, or of three (`“`).
    pub(super) string_content: usize,
    /// Where the first part of the string being read opened: a concatenation's parts
    /// (`"a" + "b"`) make one string.
    pub(super) concat_open: usize,
    /// Just past the closing quote of the last string that closed there.
    pub(super) string_close: usize,
    /// The depth of the object, `out.len()` and the input offset where the value being
    /// read in its member starts: a member value that turns out to have lost its `{` or `[`
    /// gets it there (`open_object_in_member`).
    pub(super) member_value_out: (usize, usize, usize),
    /// Where the key being read starts in the input (see `array_lost_opener_before`).
    pub(super) key_input_start: usize,
    pub(super) truncated: bool,
    /// Inside a Markdown code fence (between an opening and a closing marker).
    pub(super) in_fence: bool,
    /// The deepest nesting met, so wrapping several values in an array stays in bounds.
    pub(super) deepest: usize,
    /// Bytes the look-ahead of `key_in_array` may still read: bounded by the input's
    /// length, so that it stays linear however often it runs.
    pub(super) bracket_scan_budget: usize,
}

/// Bytes that may begin something `skip_ws` must skip (a comment, a fence, an escaped
/// layout sequence, a no-break space or a byte-order mark).
pub(super) static NOT_TOKEN_START: [bool; 256] = {
    let mut t = [false; 256];
    t[b'/' as usize] = true;
    t[b'#' as usize] = true;
    t[b'`' as usize] = true;
    t[b'~' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xC2] = true;
    t[0xE2] = true;
    t[0xE3] = true;
    t[0xEF] = true;
    t[b'<' as usize] = true;
    t
};

impl<'a> Parser<'a> {
    pub(super) fn new(input: &'a str, options: &'a Options) -> Parser<'a> {
        Parser {
            src: input.as_bytes(),
            pos: 0,
            end: input.len(),
            text: input,
            out: Out::with_capacity(input.len() + 16),
            // Room for one repair per 8 bytes, more than badly written text needs (one per
            // 15): growing a large log means copying it, while reserved pages that are
            // never written cost no memory.
            repairs: Vec::with_capacity(input.len() / 8),
            repairs_in_order: true,
            top_sequence: false,
            stack: Vec::new(),
            options,
            string_end: None,
            inner_quote_seen: false,
            string_open: 0,
            raw_next: false,
            string_content: 0,
            concat_open: 0,
            string_close: 0,
            member_value_out: (0, 0, 0),
            key_input_start: 0,
            truncated: false,
            in_fence: false,
            deepest: 0,
            bracket_scan_budget: input.len() + 4096,
        }
    }

    /// Repairs in input order. They are recorded almost in order, so check before sorting.
    pub(super) fn sort_repairs(&mut self) {
        if !self.repairs_in_order {
            self.repairs.sort_by_key(Repair::order_key);
            self.repairs_in_order = true;
        }
    }

    pub(super) fn record(&mut self, kind: RepairKind, span: Range<usize>) {
        let repair = Repair::new(kind, span);
        // Checked as they come (the last one is in cache), not in a pass over the log.
        if self
            .repairs
            .last()
            .is_some_and(|last| last.order_key() > repair.order_key())
        {
            self.repairs_in_order = false;
        }
        self.repairs.push(repair);
    }

    /// Write `input[range]` as a JSON string.
    pub(super) fn write_json_input(&mut self, range: Range<usize>) {
        match self.text.get(range.clone()) {
            Some(s) => self.out.push_json_string(s),
            None => {
                let lossy = String::from_utf8_lossy(self.src.get(range).unwrap_or_default());
                self.out.push_json_string(&lossy);
            }
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        if self.pos < self.end {
            Some(self.src[self.pos])
        } else {
            None
        }
    }

    pub(super) fn byte(&self, i: usize) -> Option<u8> {
        if i < self.end {
            Some(self.src[i])
        } else {
            None
        }
    }

    pub(super) fn starts_with(&self, i: usize, s: &[u8]) -> bool {
        self.src.get(i..self.end).is_some_and(|r| r.starts_with(s))
    }

    /// Whether a code-fence marker starts at `i` (before the region's end).
    pub(super) fn fence_at(&self, i: usize) -> bool {
        self.src
            .get(i..self.end)
            .is_some_and(|r| fence_marker(r).is_some())
    }

    /// `src[start..end]` is a prefix of valid JSON (serde_json read it to the end and only
    /// then failed). Find the last structural point (`,`, opener or closer) outside strings,
    /// copy everything before it as it is, and run the engine from there with the stack it
    /// implies. None when the prefix holds no container (a bare cut string).
    pub(super) fn resume_valid_prefix(
        &mut self,
        start: usize,
        end: usize,
    ) -> Result<Option<String>, Error> {
        let b = self.src;
        let mut stack: Vec<u8> = Vec::new();
        let mut safe = None;
        let mut i = start;
        while i < end {
            match b[i] {
                b'"' => {
                    i += 1;
                    loop {
                        match memchr::memchr2(b'"', b'\\', &b[i..end]) {
                            Some(n) if b[i + n] == b'\\' => {
                                let e = i + n;
                                if b.get(e + 1) == Some(&b'u') {
                                    // serde_json reports EOF for a `\u` cut before its four
                                    // digits, and lets lone surrogates through: the engine
                                    // decides those. A whole pair is fine.
                                    match unicode_escape_len(&b[..end], e) {
                                        Some(len) => {
                                            i = e + len;
                                            continue;
                                        }
                                        None => return Ok(None),
                                    }
                                }
                                i = (e + 2).min(end);
                            }
                            Some(n) => {
                                i += n;
                                break;
                            }
                            None => {
                                i = end;
                                break;
                            }
                        }
                    }
                }
                c @ (b'{' | b'[') => {
                    stack.push(c);
                    safe = Some((i + 1, true));
                }
                b'}' | b']' => {
                    stack.pop();
                    safe = Some((i + 1, false));
                }
                b',' => safe = Some((i, false)),
                _ => {}
            }
            i += 1;
        }
        let Some((at, opened)) = safe else {
            return Ok(None);
        };
        if stack.is_empty() || stack.len() > self.options.max_depth {
            return Ok(None);
        }
        self.out.push_input(self.text, start..at);
        let last = stack.len() - 1;
        for (depth, &c) in stack.iter().enumerate() {
            self.stack.push(Frame {
                kind: if c == b'{' {
                    FrameKind::Object
                } else {
                    FrameKind::Array
                },
                count: usize::from(!(opened && depth == last)),
                checkpoint: self.out.len(),
            });
        }
        self.pos = at;
        let mut mode = match (opened, stack[last]) {
            (true, b'{') => Mode::Key,
            (true, _) => Mode::Value,
            (false, _) => Mode::After,
        };
        self.machine(&mut mode)?;
        self.sort_repairs();
        Ok(Some(self.out.take()))
    }

    /// Find and repair every top-level value; combine them as `Options::multiple` says.
    pub(super) fn run(&mut self) -> Result<String, Error> {
        let mut values: Vec<Range<usize>> = Vec::new();
        // Whether each value sat inside a code fence: a fenced answer wins over prose.
        let mut fenced: Vec<bool> = Vec::new();
        let mut spans: Vec<Range<usize>> = Vec::new();
        let mut first = true;
        while let Some(start) = self.find_value_start(first)? {
            first = false;
            let begin = self.out.len();
            let in_fence = self.in_fence;
            let input_start = match start {
                Start::At(i) | Start::MissingOpener(i) | Start::MissingArrayOpener(i) => i,
            };
            match start {
                Start::At(i) => {
                    self.pos = i;
                    self.parse_document()?;
                }
                Start::MissingOpener(i) => self.parse_without_opener(i, FrameKind::Object)?,
                Start::MissingArrayOpener(i) => self.parse_without_opener(i, FrameKind::Array)?,
            }
            if self.out.len() > begin {
                values.push(begin..self.out.len());
                fenced.push(in_fence);
                spans.push(input_start..self.pos);
            }
            // A closing fence cut the region short: resume after it.
            self.end = self.src.len();
        }
        if fenced.contains(&true) && fenced.contains(&false) {
            for (span, _) in spans.iter().zip(&fenced).filter(|(_, f)| !**f) {
                self.record(RepairKind::StrippedProse, span.clone());
            }
            let mut keep = fenced.iter();
            values.retain(|_| keep.next() == Some(&true));
        }
        let out = match values.len() {
            0 => return Err(Error::no_json()),
            1 => {
                let r = values[0].clone();
                if r.start == 0 && r.end == self.out.len() {
                    self.out.take()
                } else {
                    self.out.slice(r).to_owned()
                }
            }
            n => self.combine(values, n)?,
        };
        self.sort_repairs();
        Ok(out)
    }

    pub(super) fn combine(&mut self, values: Vec<Range<usize>>, n: usize) -> Result<String, Error> {
        let span = 0..self.src.len();
        match self.options.multiple {
            Multiple::Error => Err(Error::new(ErrorKind::MultipleValues)),
            Multiple::First => {
                self.record(RepairKind::MultipleValues, span);
                Ok(self.out.slice(values[0].clone()).to_owned())
            }
            Multiple::Last => {
                self.record(RepairKind::MultipleValues, span);
                Ok(self.out.slice(values[n - 1].clone()).to_owned())
            }
            Multiple::Array => {
                if self.deepest >= self.options.max_depth {
                    // The wrapping array would nest one level past the limit.
                    return Err(Error::new(ErrorKind::TooDeep));
                }
                self.record(RepairKind::MultipleValues, span);
                let mut out = String::with_capacity(self.out.len() + n + 2);
                out.push('[');
                for (i, r) in values.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(self.out.slice(r));
                }
                out.push(']');
                Ok(out)
            }
        }
    }

    /// Members (an `Object`) or elements (an `Array`) at `at` whose opening bracket went
    /// missing: open the container here and read on.
    pub(super) fn parse_without_opener(&mut self, at: usize, kind: FrameKind) -> Result<(), Error> {
        self.pos = at;
        self.stack.clear();
        let (text, mut mode) = match kind {
            FrameKind::Object => ("{", Mode::Key),
            _ => ("[", Mode::Value),
        };
        self.open(kind, text)?;
        self.machine(&mut mode)
    }

    /// Parse one top-level value starting at `self.pos`, to the end of its outermost container.
    pub(super) fn parse_document(&mut self) -> Result<(), Error> {
        self.stack.clear();
        let mut mode = Mode::Value;
        self.machine(&mut mode)
    }

    pub(super) fn machine(&mut self, mode: &mut Mode) -> Result<(), Error> {
        loop {
            match *mode {
                Mode::Value => self.step_value(mode)?,
                Mode::Key => self.step_key(mode)?,
                Mode::Colon => self.step_colon(mode)?,
                Mode::After => self.step_after(mode)?,
            }
            if *mode == Mode::After && self.stack.is_empty() && !self.top_level_plus() {
                return Ok(());
            }
        }
    }

    /// A top-level string just ended and `+ "…"` follows: join it (`"a" + "b"`).
    pub(super) fn top_level_plus(&mut self) -> bool {
        if self.string_end != Some(self.out.len()) {
            return false;
        }
        let b = self.src;
        // Comments may sit between the parts (`"a" + /* c */ "b"`).
        let plus = self.skip_layout_ahead(self.pos);
        if plus >= self.end || b[plus] != b'+' {
            return false;
        }
        let k = self.skip_layout_ahead(plus + 1);
        let Some(q) = quote_at(b, k).filter(|_| k < self.end) else {
            return false;
        };
        // The look-ahead stops inside a comment it cannot see the end of; reading the layout
        // for real must land on the same quote, or there is no next part.
        let (pos, end, repairs) = (self.pos, self.end, self.repairs.len());
        self.skip_ws();
        let at_plus = self.pos == plus;
        self.pos = plus + 1;
        self.skip_ws();
        if !at_plus || self.pos != k || self.end != end {
            (self.pos, self.end) = (pos, end);
            self.repairs.truncate(repairs);
            return false;
        }
        self.out.pop_ascii();
        self.record(RepairKind::Concatenation, plus..plus + 1);
        // Errors cannot happen in a string outside any container; treat one as the end.
        self.parse_string(q, StrCtx::TopLevel, true).is_ok()
    }

    pub(super) fn top_kind(&self) -> Option<FrameKind> {
        self.stack.last().map(|f| f.kind)
    }

    /// The kind of the container around the innermost one.
    pub(super) fn parent_kind(&self) -> Option<FrameKind> {
        self.stack
            .len()
            .checked_sub(2)
            .and_then(|i| self.stack.get(i))
            .map(|f| f.kind)
    }

    /// Begin an element or member: comma if needed, checkpoint for a rollback.
    pub(super) fn begin_item(&mut self) {
        if let Some(f) = self.stack.last_mut() {
            f.checkpoint = self.out.len();
            if f.kind != FrameKind::Wrapper {
                if f.count > 0 {
                    self.out.push(b',');
                }
                f.count += 1;
            }
        }
    }

    /// Drop the element or member begun last (its key was cut, or its value never came).
    pub(super) fn drop_item(&mut self) {
        if let Some(f) = self.stack.last_mut() {
            self.out.truncate(f.checkpoint);
            if f.kind != FrameKind::Wrapper {
                f.count = f.count.saturating_sub(1);
            }
        }
    }

    pub(super) fn open(&mut self, kind: FrameKind, text: &str) -> Result<(), Error> {
        if self.stack.len() >= self.options.max_depth {
            return Err(Error::at(
                ErrorKind::TooDeep,
                std::str::from_utf8(self.src).unwrap_or(""),
                self.pos,
            ));
        }
        self.out.push_str(text);
        self.deepest = self.deepest.max(self.stack.len() + 1);
        self.stack.push(Frame {
            kind,
            count: 0,
            checkpoint: self.out.len(),
        });
        Ok(())
    }

    pub(super) fn close_top(&mut self) {
        if let Some(f) = self.stack.pop() {
            match f.kind {
                FrameKind::Object => self.out.push(b'}'),
                FrameKind::Array | FrameKind::Tuple => self.out.push(b']'),
                FrameKind::Wrapper => {
                    if f.count == 0 && self.out.len() == f.checkpoint {
                        // `Foo()`: nothing inside.
                        self.out.push_str("null");
                    }
                }
            }
        }
    }

    /// The input (or region) ended with containers open: close them all.
    pub(super) fn close_all_at_end(&mut self) {
        let at = self.pos;
        if !self.stack.is_empty() {
            let kind = if self.end < self.src.len() {
                RepairKind::MissingCloser
            } else {
                RepairKind::Truncated
            };
            if kind == RepairKind::Truncated {
                self.mark_truncated();
            } else {
                self.record(kind, at..at);
            }
        }
        while !self.stack.is_empty() {
            self.close_top();
        }
    }

    pub(super) fn mark_truncated(&mut self) {
        if !self.truncated {
            self.truncated = true;
            let at = self.end;
            self.record(RepairKind::Truncated, at..at);
        }
    }

    /// Skip whitespace and comments between tokens. A closing code fence ends the region.
    #[inline]
    pub(super) fn skip_ws(&mut self) {
        let b = self.src;
        let mut i = self.pos;
        while i < self.end && is_ws(b[i]) {
            i += 1;
        }
        self.pos = i;
        if i < self.end && NOT_TOKEN_START[b[i] as usize] {
            self.skip_ws_slow();
        }
    }

    /// `skip_ws`, then the byte there (one bounds check fewer on every token).
    #[inline]
    pub(super) fn skip_ws_peek(&mut self) -> Option<u8> {
        let b = self.src;
        let mut i = self.pos;
        while i < self.end {
            let c = b[i];
            if !is_ws(c) {
                self.pos = i;
                if NOT_TOKEN_START[c as usize] {
                    self.skip_ws_slow();
                    return self.peek();
                }
                return Some(c);
            }
            i += 1;
        }
        self.pos = i;
        None
    }

    /// Comments, fences and odd spaces: the rare part of `skip_ws`.
    #[cold]
    pub(super) fn skip_ws_slow(&mut self) {
        while self.pos < self.end {
            let c = self.src[self.pos];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if self.byte(self.pos + 1) == Some(b'/') => {
                    let start = self.pos;
                    self.pos = memchr::memchr(b'\n', &self.src[self.pos..self.end])
                        .map_or(self.end, |n| self.pos + n);
                    self.record(RepairKind::RemovedComment, start..self.pos);
                }
                b'/' if self.byte(self.pos + 1) == Some(b'*') => {
                    let start = self.pos;
                    self.pos = memmem::find(&self.src[self.pos + 2..self.end], b"*/")
                        .map_or(self.end, |n| self.pos + 2 + n + 2);
                    self.record(RepairKind::RemovedComment, start..self.pos);
                }
                b'#' if self
                    .byte(self.pos + 1)
                    .is_none_or(|n| is_ws(n) || n == b'#' || n == b'!') =>
                {
                    let start = self.pos;
                    self.pos = memchr::memchr(b'\n', &self.src[self.pos..self.end])
                        .map_or(self.end, |n| self.pos + n);
                    self.record(RepairKind::RemovedComment, start..self.pos);
                }
                b'`' | b'~' if self.fence_at(self.pos) => {
                    // A closing fence: the document ends here.
                    self.end = self.pos;
                }
                // `{"a": "x"</tool_call>`, `…<|call|>`: a wrapper's closing tag at the text's
                // end ends the document.
                b'<' if closing_tags_to_end(self.src, self.pos) => self.end = self.pos,
                // Escaped layout left over from an escaped document (`{\n\"a\"…`).
                b'\\' if matches!(self.byte(self.pos + 1), Some(b'n' | b'r' | b't')) => {
                    self.pos += 2
                }
                0xC2 if self.byte(self.pos + 1) == Some(0xA0) => {
                    self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 2);
                    self.pos += 2;
                }
                0xEF if self.starts_with(self.pos, b"\xEF\xBB\xBF") => {
                    self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 3);
                    self.pos += 3;
                }
                0xE2 | 0xE3 if unicode_space_len(&self.src[self.pos..self.end]) > 0 => {
                    let len = unicode_space_len(&self.src[self.pos..self.end]);
                    self.record(RepairKind::InvalidCharacter, self.pos..self.pos + len);
                    self.pos += len;
                }
                _ => return,
            }
        }
    }

    /// Whether a container of `kind` plausibly goes on at `i`: a comma, then a key (object) or
    /// a value (array). Tells an early or wrong closer from a container's real end.
    pub(super) fn continues_after(&self, i: usize, kind: FrameKind) -> bool {
        let b = self.src;
        let i = self.skip_layout_ahead(i);
        if b.get(i) != Some(&b',') || i >= self.end {
            return false;
        }
        let k = self.skip_layout_ahead(i + 1);
        if k >= self.end {
            return false;
        }
        match kind {
            FrameKind::Object => self.key_follows(k),
            FrameKind::Array | FrameKind::Tuple => !matches!(b[k], b'}' | b']' | b')' | b','),
            FrameKind::Wrapper => false,
        }
    }

    /// `i` moved past whitespace and `//` or `/* */` comments (a key, a comment, then its
    /// colon: `"b" /* why */: 1`), looking at most `LOOKAHEAD` bytes ahead.
    #[inline]
    pub(super) fn skip_layout_ahead(&self, mut i: usize) -> usize {
        let b = self.src;
        let limit = (i + LOOKAHEAD).min(self.end);
        // The common case: spaces, then a token.
        while i < limit && is_ws(b[i]) {
            i += 1;
        }
        if i >= limit || (b[i] != b'/' && b[i] < 0x80) {
            return i;
        }
        self.skip_layout_ahead_slow(i, limit)
    }

    /// `skip_layout_ahead` past comments and Unicode spaces.
    #[cold]
    pub(super) fn skip_layout_ahead_slow(&self, mut i: usize, limit: usize) -> usize {
        let b = self.src;
        while i < limit {
            match b[i] {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                0x80.. => match layout_len(&b[..limit], i) {
                    0 => break,
                    n => i += n,
                },
                b'/' if self.byte(i + 1) == Some(b'*') => {
                    match b.get(i + 2..limit).and_then(|r| memmem::find(r, b"*/")) {
                        Some(n) => i += 2 + n + 2,
                        None => return limit,
                    }
                }
                b'/' if self.byte(i + 1) == Some(b'/') => {
                    match b.get(i..limit).and_then(|r| memchr::memchr(b'\n', r)) {
                        Some(n) => i += n + 1,
                        None => return limit,
                    }
                }
                _ => break,
            }
        }
        i
    }

    /// The offset just past a quoted run starting at `k` (escapes honoured), if it closes
    /// within `max` bytes.
    pub(super) fn scan_quoted(&self, k: usize, q: Quote, max: usize) -> Option<usize> {
        quoted_end(self.src, self.end, k, q, max).ok().flatten()
    }
}
