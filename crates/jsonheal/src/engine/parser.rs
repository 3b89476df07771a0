//! The engine: a byte cursor over the input, an explicit stack of open containers, and an
//! output buffer that receives compact JSON. Every decision looks at most a bounded distance
//! ahead (or scans a region that no later decision scans again), so time is linear in the
//! input, and nothing recurses, so depth costs heap, not stack.

use std::ops::Range;

use memchr::memmem;

use super::out::Out;
use super::{DuplicateKeys, Multiple, NonFinite, Options, Repair, RepairKind, Repaired};
use crate::error::{Error, ErrorKind};
use crate::stream::fence_value_start;

/// How far a heuristic may look ahead (bytes). Keeps every decision O(1).
const LOOKAHEAD: usize = 256;

/// `：` and `，`, which models writing CJK text put where `:` and `,` belong.
const FULL_WIDTH_COLON: &[u8] = "\u{FF1A}".as_bytes();
const FULL_WIDTH_COMMA: &[u8] = "\u{FF0C}".as_bytes();

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

fn trim_json_ws(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

/// Whether a `\uD800`–`\uDFFF` escape stands outside a high+low pair. Only called on
/// valid JSON, so every `\u` is followed by four hex digits.
fn has_lone_surrogate(b: &[u8]) -> bool {
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
fn nests_deeper_than(b: &[u8], limit: usize) -> bool {
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

/// A document whose quotes are all written `\"` (a JSON string's content pasted raw):
/// `{\"a\": \"b\"}`. Returns the offset of its first bracket.
fn escaped_document_start(input: &str) -> Option<usize> {
    let b = input.as_bytes();
    let start = memchr::memchr2(b'{', b'[', b)?;
    (!escaped_member_value(b, start) && escaped_document_at(b, start).unwrap_or(false))
        .then_some(start)
}

/// `"result": "{\"a\": 1}", "ok": true}`: the first bracket, at `b[start]`, opens a
/// member's string value holding JSON, in a document that lost its `{`; the parser reads it
/// as such, not as an escaped document.
fn escaped_member_value(b: &[u8], start: usize) -> bool {
    let before = |end: usize| b[..end].iter().rposition(|c| !c.is_ascii_whitespace());
    start >= 2
        && b[start - 1] == b'"'
        && before(start - 1).is_some_and(|colon| {
            b[colon] == b':' && before(colon).is_some_and(|key| matches!(b[key], b'"' | b'\''))
        })
}

/// What a backslash followed by `next` becomes when an escaped document is unescaped:
/// `\"` and `\\` lose their backslash, an escaped line break or tab becomes the raw byte
/// (layout between tokens, or a raw one inside a string, which the engine escapes again:
/// same value). `None`: the backslash stays, as does `next`.
pub(crate) fn unescaped_byte(next: u8) -> Option<u8> {
    match next {
        b'"' | b'\\' => Some(next),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        _ => None,
    }
}

/// Whether the text's first bracket, at `b[start]`, opens an escaped document: an escaped
/// quote after it, or layout written as escapes (`{\n  \"a\": 1}`, `{\n"a": 1}`), which no
/// JSON has there. `None`: the text ends before that is decided (the stream waits).
pub(crate) fn escaped_document_at(b: &[u8], start: usize) -> Option<bool> {
    let mut i = start + 1;
    let mut escaped_layout = false;
    loop {
        match (b.get(i)?, b.get(i + 1)) {
            (b'{' | b'[' | b' ' | b'\t' | b'\n' | b'\r', _) => i += 1,
            (b'\\', Some(b'n' | b'r' | b't')) => {
                escaped_layout = true;
                i += 2;
            }
            (b'\\', None) => return None,
            _ => break,
        }
    }
    let escaped_quote = b[i] == b'\\' && b.get(i + 1) == Some(&b'"');
    Some(escaped_quote || (escaped_layout && b[i] != b'\\'))
}

/// The valid JSON string literal around the escaped document at `start` (`Here:
/// "{\"a\": 1}"`), when only text without brackets follows it: the contract keeps a JSON
/// string a string, so that string is the answer, not the document inside it.
fn json_string_holding(input: &str, start: usize) -> Option<Range<usize>> {
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
fn string_in_prose(input: &str, range: Range<usize>) -> Repaired {
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
fn repair_escaped(input: &str, start: usize, options: &Options) -> Result<Repaired, Error> {
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

/// Where a top-level value starts.
enum Start {
    At(usize),
    /// Members with no opening `{` before them.
    MissingOpener(usize),
    /// Elements with no opening `[` before them (`1, 2, 3]`).
    MissingArrayOpener(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FrameKind {
    Object,
    Array,
    /// A Python tuple `( … )`, written as an array.
    Tuple,
    /// `ObjectId( … )`: contributes its first argument, writes nothing itself.
    Wrapper,
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    /// Members or elements written so far (decides whether a comma goes first).
    count: usize,
    /// `out.len()` before the current member or element, to drop it if it never completes.
    checkpoint: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// A value is expected (array element, member value, wrapper argument).
    Value,
    /// An object key (or `}`) is expected.
    Key,
    /// A `:` is expected after a key.
    Colon,
    /// A value just ended: `,` or a closer is expected.
    After,
}

/// JSON written inside a string with its quotes unescaped (`"{"a": "b"}"`): from the first
/// `{"` or `["` of the content on, the balance of its brackets. Scanned once, as the string's
/// candidate closing quotes come (so a string costs linear time however many there are).
struct EmbeddedJson {
    scanned: usize,
    started: bool,
    depth: i64,
}

impl EmbeddedJson {
    fn new(content_start: usize) -> EmbeddedJson {
        EmbeddedJson {
            scanned: content_start,
            started: false,
            depth: 0,
        }
    }

    /// Whether embedded JSON is open at the quote at `b[i]` (the content is `b[..i]`).
    fn open_at(&mut self, b: &[u8], i: usize) -> bool {
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

/// Where a string is, which decides what may follow its closing quote.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StrCtx {
    Key,
    Value,
    TopLevel,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StrEnd {
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

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    /// Where the current document region ends (a closing code fence, or the input's end).
    end: usize,
    /// The input as text, for copying slices of it to `out`.
    text: &'a str,
    out: Out,
    repairs: Vec<Repair>,
    /// Whether `repairs` is in input order (they are recorded almost in order).
    repairs_in_order: bool,
    /// The whole text is a sequence of scalars (`1, 2, 3`, `"a"\n"b"`): each is a value.
    top_sequence: bool,
    stack: Vec<Frame>,
    options: &'a Options,
    /// `out.len()` right after the last string value, for `"a" + "b"`.
    string_end: Option<usize>,
    /// The string being read kept a quote as content (`"He said "hi"…`).
    inner_quote_seen: bool,
    /// Where the string being read opened (its quote's offset).
    string_open: usize,
    /// The next string has a Python raw prefix (`r'C:\new'`, `r"\d+"`): its backslashes
    /// are content, as Python reads them.
    raw_next: bool,
    /// Where its content starts: past an opening quote of one byte, or of three (`“`).
    string_content: usize,
    /// Where the first part of the string being read opened: a concatenation's parts
    /// (`"a" + "b"`) make one string.
    concat_open: usize,
    /// Just past the closing quote of the last string that closed there.
    string_close: usize,
    /// The depth of the object, `out.len()` and the input offset where the value being
    /// read in its member starts: a member value that turns out to have lost its `{` or `[`
    /// gets it there (`open_object_in_member`).
    member_value_out: (usize, usize, usize),
    /// Where the key being read starts in the input (see `array_lost_opener_before`).
    key_input_start: usize,
    truncated: bool,
    /// Inside a Markdown code fence (between an opening and a closing marker).
    in_fence: bool,
    /// The deepest nesting met, so wrapping several values in an array stays in bounds.
    deepest: usize,
    /// Bytes the look-ahead of `key_in_array` may still read: bounded by the input's
    /// length, so that it stays linear however often it runs.
    bracket_scan_budget: usize,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

const fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-' || b >= 0x80
}

/// Typographic quote at `b[i..]`: its length (3) and whether it is double.
fn typographic_quote(b: &[u8], i: usize) -> Option<TypoQuote> {
    if b.get(i) != Some(&0xE2) {
        return None;
    }
    match (b.get(i + 1), b.get(i + 2)) {
        // `“`, and `„` which opens German and Polish quotations (`„Köln“`).
        (Some(0x80), Some(0x9C | 0x9E)) => Some(TypoQuote::DoubleOpen),
        (Some(0x80), Some(0x9D)) => Some(TypoQuote::DoubleClose),
        (Some(0x80), Some(0x98)) => Some(TypoQuote::SingleOpen),
        (Some(0x80), Some(0x99)) => Some(TypoQuote::SingleClose),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TypoQuote {
    DoubleOpen,
    DoubleClose,
    SingleOpen,
    SingleClose,
}

/// What delimits a string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quote {
    Double,
    Single,
    Backtick,
    TypoDouble,
    TypoSingle,
}

impl Quote {
    fn open_len(self) -> usize {
        match self {
            Quote::TypoDouble | Quote::TypoSingle => 3,
            _ => 1,
        }
    }

    /// Length of a closing delimiter at `b[i..]`, if there is one.
    fn close_at(self, b: &[u8], i: usize) -> Option<usize> {
        match self {
            Quote::Double => (b.get(i) == Some(&b'"')).then_some(1),
            Quote::Single => (b.get(i) == Some(&b'\'')).then_some(1),
            Quote::Backtick => (b.get(i) == Some(&b'`')).then_some(1),
            Quote::TypoDouble => match typographic_quote(b, i) {
                Some(TypoQuote::DoubleClose | TypoQuote::DoubleOpen) => Some(3),
                _ => (b.get(i) == Some(&b'"')).then_some(1),
            },
            // `‘/var/log", …`: opened by `‘`, closed by a straight `"` (what follows decides,
            // as for any closing quote).
            Quote::TypoSingle => match typographic_quote(b, i) {
                Some(TypoQuote::SingleClose | TypoQuote::SingleOpen) => Some(3),
                _ => (b.get(i) == Some(&b'"')).then_some(1),
            },
        }
    }
}

fn quote_at(b: &[u8], i: usize) -> Option<Quote> {
    match b.get(i)? {
        b'"' => Some(Quote::Double),
        b'\'' => Some(Quote::Single),
        b'`' => (!b[i..].starts_with(b"```")).then_some(Quote::Backtick),
        0xE2 => match typographic_quote(b, i)? {
            TypoQuote::DoubleOpen | TypoQuote::DoubleClose => Some(Quote::TypoDouble),
            TypoQuote::SingleOpen | TypoQuote::SingleClose => Some(Quote::TypoSingle),
        },
        _ => None,
    }
}

/// Where the string that `q` opens at `k` ends (just past its closing quote), read as
/// `Parser::scan_quoted` reads it: escapes skipped, at most `max` bytes ahead, never past a
/// line break, nor at `end` or beyond. `Ok(None)`: it does not end there. `Err(())`: `end`
/// comes first, so a longer text may still tell (the stream's question; to the engine,
/// that is no end either).
fn quoted_end(b: &[u8], end: usize, k: usize, q: Quote, max: usize) -> Result<Option<usize>, ()> {
    let limit = (k + max).min(end);
    let mut i = k + q.open_len();
    while i < limit {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == b'\n' {
            return Ok(None);
        }
        if let Some(len) = q.close_at(b, i) {
            return Ok(Some(i + len));
        }
        i += 1;
    }
    if k + max <= end {
        Ok(None)
    } else {
        Err(())
    }
}

/// Whether the text starting at `i` with a quote is a document that lost its `{` to the
/// engine (`"name": "Ada", "age": 36}`): a quoted key, then a `:` (see `bare_document`);
/// `None` while `b`, a prefix of the text, cannot tell. Only for a text or a fence whose
/// first token is at `i`.
pub(crate) fn lost_brace_key_at(b: &[u8], i: usize) -> Option<bool> {
    let q = quote_at(b, i)?;
    let Some(after) = quoted_end(b, b.len(), i, q, LOOKAHEAD).ok()? else {
        return Some(false);
    };
    let k = after
        + b.get(after..)?
            .iter()
            .take(LOOKAHEAD)
            .take_while(|&&c| is_ws(c))
            .count();
    if k - after >= LOOKAHEAD {
        // (Read again on every push while undecided: bounded, so the stream stays linear;
        // so much layout after a first string is no document to stream.)
        return Some(false);
    }
    Some(*b.get(k)? == b':')
}

/// Bytes that may begin something `skip_ws` must skip (a comment, a fence, an escaped
/// layout sequence, a no-break space or a byte-order mark).
static NOT_TOKEN_START: [bool; 256] = {
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

/// The end of a run of bytes that are not layout, a comma or a quote.
fn scan_bare_word(b: &[u8], start: usize) -> usize {
    b[start..]
        .iter()
        .position(|&c| is_ws(c) || c == b',' || c == b'"' || c == b'\'')
        .map_or(b.len(), |n| start + n)
}

/// Whether only closing tags and spaces run from `b[i]` to the text's end: a wrapper's
/// (`</tool_call>`, `</json>`) or a chat template's special tokens (`<|call|>`, `<|im_end|>`).
/// The document before them ends where they start.
fn closing_tags_to_end(b: &[u8], i: usize) -> bool {
    let limit = (i + LOOKAHEAD).min(b.len());
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.');
    let mut k = i;
    let mut tags = 0;
    loop {
        while k < limit && is_ws(b[k]) {
            k += 1;
        }
        if k >= b.len() {
            return tags > 0;
        }
        let close: &[u8] = if b[k..limit].starts_with(b"</") {
            b">"
        } else if b[k..limit].starts_with(b"<|") {
            b"|>"
        } else {
            return false;
        };
        let from = k + 2;
        let n = b[from..limit].iter().take_while(|&&c| name(c)).count();
        if n == 0 || !b[from + n..limit].starts_with(close) {
            return false;
        }
        k = from + n + close.len();
        tags += 1;
    }
}

/// Whether `b[i]` is the first byte on its line after the indent (and a line break comes
/// before it: the text's first line does not count).
pub(crate) fn first_on_line(b: &[u8], i: usize) -> bool {
    let indent = b[..i]
        .iter()
        .rev()
        .take(64)
        .take_while(|&&c| matches!(c, b' ' | b'\t'))
        .count();
    i > indent && matches!(b[i - indent - 1], b'\n' | b'\r')
}

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

/// Whether the `[` at `b[i]` starts a citation (`[1]`, `[12][13]`): one unsigned integer of
/// up to three digits. In prose before the first value, after words on its line, it is no
/// answer. `None` when `b`
/// ends too soon to tell and is not `complete` (a stream waits). Shared by the engine and
/// the stream.
pub(crate) fn citation_at(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let digits = b
        .get(i + 1..)
        .unwrap_or_default()
        .iter()
        .take(4)
        .take_while(|c| c.is_ascii_digit())
        .count();
    match b.get(i + 1 + digits) {
        None if !complete && digits < 4 => None,
        next => Some((1..=3).contains(&digits) && next == Some(&b']')),
    }
}

/// Whether the `[` at `b[i]` is a Markdown task box (`- [ ] write tests`): `[ ]` right
/// after a list marker. `None` when `b` ends too soon to tell and is not `complete`.
pub(crate) fn task_box_at(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let line_start = b[..i]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |n| n + 1);
    if !matches!(b[line_start..i].trim_ascii(), b"-" | b"*" | b"+") {
        return Some(false);
    }
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b' '), Some(b']')) => Some(true),
        (Some(b' '), None) | (None, _) if !complete => None,
        _ => Some(false),
    }
}

/// A chat template's control token at `b[i]` (its `[`): `[TOOL_CALLS]`, `[ARGS]`, `[INST]`,
/// `[/INST]`: capitals, digits and `_` in brackets, with more text after it (alone, `[ABC]`
/// is an array holding a word). `Some(Some(len))` when it is one, `Some(None)` when not;
/// `None` when `b` ends too soon to tell and is not `complete` (a stream waits). The engine
/// and the stream skip it as prose.
pub(crate) fn control_token(b: &[u8], i: usize, complete: bool) -> Option<Option<usize>> {
    const MAX: usize = 40;
    let undecided = if complete { Some(None) } else { None };
    let mut k = i + 1;
    if b.get(k) == Some(&b'/') {
        k += 1;
    }
    let name = k;
    match b.get(k) {
        None => return undecided,
        Some(c) if c.is_ascii_uppercase() => {}
        Some(_) => return Some(None),
    }
    loop {
        match b.get(k) {
            None => return undecided,
            Some(c) if c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_' => k += 1,
            Some(b']') => break,
            Some(_) => return Some(None),
        }
        if k - i > MAX {
            return Some(None);
        }
    }
    if k - name < 2 || !b[name].is_ascii_uppercase() {
        return Some(None);
    }
    let end = k + 1;
    let mut m = end;
    loop {
        match b.get(m) {
            None => return undecided,
            Some(b' ' | b'\t' | b'\n' | b'\r') => m += 1,
            Some(_) => return Some(Some(end - i)),
        }
    }
}

/// The length of a Python string prefix (`u`, `b`, `r`, `f`, `rb`, `br`, either case) right
/// before a quote at `b[i..]`, or `None`.
#[inline]
fn python_string_prefix(b: &[u8], i: usize) -> Option<usize> {
    let quote = |k: usize| matches!(b.get(k), Some(b'"' | b'\''));
    if !matches!(*b.get(i)? | 0x20, b'u' | b'b' | b'r' | b'f') || !(quote(i + 1) || quote(i + 2)) {
        return None;
    }
    let is_prefix = |c: u8| matches!(c.to_ascii_lowercase(), b'u' | b'b' | b'r' | b'f');
    match b.get(i..)? {
        [c, ..] if is_prefix(*c) && quote(i + 1) => Some(1),
        [c, d, ..]
            if matches!(
                [c.to_ascii_lowercase(), d.to_ascii_lowercase()],
                [b'r', b'b'] | [b'b', b'r'] | [b'r', b'f'] | [b'f', b'r']
            ) && quote(i + 2) =>
        {
            Some(2)
        }
        _ => None,
    }
}

/// Whether a Python string prefix (see `python_string_prefix`) makes the string raw.
fn is_raw_prefix(prefix: &[u8]) -> bool {
    prefix.iter().any(|c| c.eq_ignore_ascii_case(&b'r'))
}

/// The length of a Unicode space or invisible mark at the start of `b` that JSON does not
/// allow between tokens (U+2000–U+200B, U+200E and U+200F the direction marks, U+2028,
/// U+2029, U+202F, U+205F, U+2060, U+3000), or 0.
fn unicode_space_len(b: &[u8]) -> usize {
    match b {
        [0xE2, 0x80, 0x80..=0x8B | 0x8E | 0x8F | 0xA8 | 0xA9 | 0xAF, ..]
        | [0xE2, 0x81, 0x9F | 0xA0, ..]
        | [0xE3, 0x80, 0x80, ..] => 3,
        _ => 0,
    }
}

/// The length of the layout character at `b[i..]` as the engine skips it between tokens:
/// JSON's spaces, a no-break space, a byte-order mark or another Unicode space (see
/// `unicode_space_len`); 0 for anything else.
fn layout_len(b: &[u8], i: usize) -> usize {
    match b.get(i..).unwrap_or_default() {
        [b' ' | b'\t' | b'\n' | b'\r', ..] => 1,
        [0xC2, 0xA0, ..] => 2,
        [0xEF, 0xBB, 0xBF, ..] => 3,
        rest @ [0xE2 | 0xE3, ..] => unicode_space_len(rest),
        _ => 0,
    }
}

/// The end of the run of bytes at `start` that a string copies as they are (before `end`).
/// Eight bytes at a time: strings are most of a document's bytes. The lowest flagged byte
/// of a word is exact (see `string_special_mask`), so no byte loop follows a hit, and the
/// last few bytes are read as a word padded with plain bytes.
#[inline]
fn plain_run_end(b: &[u8], start: usize, end: usize) -> usize {
    let Some(hay) = b.get(start..end) else {
        return end;
    };
    let mut chunks = hay.chunks_exact(8);
    let mut at = start;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let mask = string_special_mask(u64::from_le_bytes(word));
        if mask != 0 {
            return at + (mask.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = chunks.remainder();
    if rest.is_empty() {
        return end;
    }
    let mut word = [b'a'; 8];
    word[..rest.len()].copy_from_slice(rest);
    let mask = string_special_mask(u64::from_le_bytes(word));
    if mask == 0 {
        end
    } else {
        at + (mask.trailing_zeros() / 8) as usize
    }
}

/// Whether any byte of `w` may be special in a string (a control byte, a quote, a
/// backslash, or 0xE2, which starts a typographic quote).
#[cfg(test)]
fn has_string_special(w: u64) -> bool {
    string_special_mask(w) != 0
}

/// The high bit of every byte of `w` (little-endian) that may be special in a string. The
/// lowest set bit is exact: a flag can be false only above a truly special byte (a borrow
/// from it), so `trailing_zeros() / 8` is the index of the first special byte.
#[inline]
fn string_special_mask(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let eq = |c: u8| has_zero(w ^ (ONES * u64::from(c)));
    // Bytes below 0x20 (ASCII only: `& !w` keeps bytes whose high bit is clear).
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    control | eq(b'"') | eq(b'\\') | eq(b'\'') | eq(b'`') | eq(0xE2)
}

/// `is_ident(c) || c == b' '`, as a table: the look-ahead for a bare key runs on every
/// member of a badly written object.
static IDENT_OR_SPACE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        // `.` and `@` too: `user.name` and `@type` are keys as well (`/`: see `key_follows`).
        t[c] = is_ident(c as u8) || matches!(c as u8, b' ' | b'.' | b'@');
        c += 1;
    }
    t
};

#[derive(Clone, Copy)]
enum KeyByte {
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
static KEY_BYTE: [KeyByte; 256] = {
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

/// Bytes that interrupt the fast copy loop inside a string (what `string_special_mask`
/// computes a word at a time).
#[cfg(test)]
static STRING_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'`' as usize] = true;
    t[0xE2] = true;
    t
};

impl<'a> Parser<'a> {
    fn new(input: &'a str, options: &'a Options) -> Parser<'a> {
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
    fn sort_repairs(&mut self) {
        if !self.repairs_in_order {
            self.repairs.sort_by_key(Repair::order_key);
            self.repairs_in_order = true;
        }
    }

    fn record(&mut self, kind: RepairKind, span: Range<usize>) {
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
    fn write_json_input(&mut self, range: Range<usize>) {
        match self.text.get(range.clone()) {
            Some(s) => self.out.push_json_string(s),
            None => {
                let lossy = String::from_utf8_lossy(self.src.get(range).unwrap_or_default());
                self.out.push_json_string(&lossy);
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        if self.pos < self.end {
            Some(self.src[self.pos])
        } else {
            None
        }
    }

    fn byte(&self, i: usize) -> Option<u8> {
        if i < self.end {
            Some(self.src[i])
        } else {
            None
        }
    }

    fn starts_with(&self, i: usize, s: &[u8]) -> bool {
        self.src.get(i..self.end).is_some_and(|r| r.starts_with(s))
    }

    // ---------------------------------------------------------------- top level

    /// `src[start..end]` is a prefix of valid JSON (serde_json read it to the end and only
    /// then failed). Find the last structural point (`,`, opener or closer) outside strings,
    /// copy everything before it as it is, and run the engine from there with the stack it
    /// implies. None when the prefix holds no container (a bare cut string).
    fn resume_valid_prefix(&mut self, start: usize, end: usize) -> Result<Option<String>, Error> {
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
    fn run(&mut self) -> Result<String, Error> {
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

    fn combine(&mut self, values: Vec<Range<usize>>, n: usize) -> Result<String, Error> {
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

    /// Skip prose, fences and reasoning blocks up to the next plausible value. `first` says
    /// no value was found yet (the text's own start is trusted more than the middle of prose).
    fn find_value_start(&mut self, first: bool) -> Result<Option<Start>, Error> {
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
            if (c == b'`' && b[i..].starts_with(b"```"))
                || (c == b'~' && b[i..].starts_with(b"~~~"))
            {
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
                && ((at_text_start && (c == b'[' || self.object_at_text_start(i)))
                    || self.in_fence
                    || (self.plausible_container(i)
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
    fn fenced_scalar_at(&self, i: usize) -> bool {
        let b = self.src;
        let mut end = b.len();
        let mut line = i;
        while let Some(n) = memchr::memchr(b'\n', &b[line..]) {
            let next = line + n + 1;
            let marker = b[next..]
                .iter()
                .position(|&c| c != b' ' && c != b'\t')
                .map(|k| next + k);
            if marker.is_some_and(|m| b[m..].starts_with(b"```") || b[m..].starts_with(b"~~~")) {
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

    fn flush_skipped(&mut self, from: &mut Option<usize>, to: usize) {
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
    fn reasoning_block_end(&self, i: usize) -> Option<usize> {
        const TAGS: [(&[u8], &[u8]); 4] = [
            (b"<think>", b"</think>"),
            (b"<thinking>", b"</thinking>"),
            (b"<reasoning>", b"</reasoning>"),
            (b"<reflection>", b"</reflection>"),
        ];
        let rest = &self.src[i..];
        for (open, close) in TAGS {
            if rest.len() >= open.len() && rest[..open.len()].eq_ignore_ascii_case(open) {
                let body = &rest[open.len()..];
                return Some(match super::find_ignore_ascii_case(body, close) {
                    Some(n) => i + open.len() + n + close.len(),
                    None => self.src.len(),
                });
            }
        }
        None
    }

    /// Whether a `{` or `[` met in prose opens JSON rather than being part of the prose
    /// (`{name}`, `[see below]`). Looks a bounded distance ahead.
    fn plausible_container(&self, i: usize) -> bool {
        let b = self.src;
        let limit = (i + LOOKAHEAD).min(b.len());
        let mut j = i + 1;
        while j < limit && is_ws(b[j]) {
            j += 1;
        }
        let Some(&c) = b.get(j) else {
            // `{` at the very end: a document cut right after it opened.
            return true;
        };
        let object = b[i] == b'{';
        match c {
            // `{{name}}` is a template's placeholder, not JSON.
            b'{' => !template_placeholder(b, i, limit),
            b'"' | b'[' => true,
            b'\'' => true,
            b'}' => object,
            b']' => !object,
            b'\\' => b.get(j + 1) == Some(&b'"'),
            b'/' => matches!(b.get(j + 1), Some(b'/' | b'*')),
            b'#' => self.comment_at(j),
            0xE2 => typographic_quote(b, j).is_some(),
            // `[-r]` in a usage line is an option, `[8%]` a note: numbers only.
            b'-' | b'0'..=b'9' => !object && number_element_at(&b[..limit], j, true) == Some(true),
            _ if is_ident_start(c) => {
                let mut k = j;
                // The key's word ends at a `:` or a full-width `：` (`{名前：太郎}`).
                while k < limit
                    && (is_ident(b[k]) || b[k] == b' ')
                    && !b[k..].starts_with(FULL_WIDTH_COLON)
                {
                    k += 1;
                }
                if object {
                    b.get(k) == Some(&b':') || b[k..].starts_with(FULL_WIDTH_COLON)
                } else {
                    // `[null, …]` or `[True\n…`: a literal, then a separator or a line end.
                    let mut w = j;
                    while w < limit && b[w].is_ascii_alphabetic() {
                        w += 1;
                    }
                    literal_word(&b[j..w]).is_some()
                        && b.get(w)
                            .is_none_or(|&n| is_ws(n) || matches!(n, b',' | b']'))
                }
            }
            _ => false,
        }
    }

    /// A `{` that starts the text opens an object unless it is prose in braces
    /// (`{see attached}`): that needs a `:` before the first `}`.
    fn object_at_text_start(&self, i: usize) -> bool {
        if self.plausible_container(i) {
            return true;
        }
        let b = self.src;
        let limit = (i + LOOKAHEAD).min(b.len());
        // A quote before the first `}` counts too: `{a 'b'}` lost its colon, but quoted text
        // is not prose in braces like `{see attached}`.
        match b[i + 1..limit]
            .iter()
            .find(|&&c| matches!(c, b':' | b'=' | b'}' | b'"' | b'\'' | 0xE2))
        {
            Some(&c) => c != b'}',
            None => true,
        }
    }

    /// The text's first non-space byte is not a bracket: a document with a missing opening
    /// brace (`"a": 1, "b": 2}`), or a whole text that is one scalar (`'hi'`, `True`).
    fn bare_document(&mut self, i: usize) -> Result<Option<Start>, Error> {
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
    fn scalar_sequence(&self, i: usize) -> bool {
        self.scalar_sequence_until(i, self.src.len())
    }

    /// `scalar_sequence` on `src[..end]`.
    fn scalar_sequence_until(&self, mut i: usize, end: usize) -> bool {
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

    // ---------------------------------------------------------------- the value machine

    /// Members (an `Object`) or elements (an `Array`) at `at` whose opening bracket went
    /// missing: open the container here and read on.
    fn parse_without_opener(&mut self, at: usize, kind: FrameKind) -> Result<(), Error> {
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
    fn parse_document(&mut self) -> Result<(), Error> {
        self.stack.clear();
        let mut mode = Mode::Value;
        self.machine(&mut mode)
    }

    fn machine(&mut self, mode: &mut Mode) -> Result<(), Error> {
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
    fn top_level_plus(&mut self) -> bool {
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

    fn top_kind(&self) -> Option<FrameKind> {
        self.stack.last().map(|f| f.kind)
    }

    /// Begin an element or member: comma if needed, checkpoint for a rollback.
    fn begin_item(&mut self) {
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
    fn drop_item(&mut self) {
        if let Some(f) = self.stack.last_mut() {
            self.out.truncate(f.checkpoint);
            if f.kind != FrameKind::Wrapper {
                f.count = f.count.saturating_sub(1);
            }
        }
    }

    fn open(&mut self, kind: FrameKind, text: &str) -> Result<(), Error> {
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

    fn close_top(&mut self) {
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
    fn close_all_at_end(&mut self) {
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

    fn mark_truncated(&mut self) {
        if !self.truncated {
            self.truncated = true;
            let at = self.end;
            self.record(RepairKind::Truncated, at..at);
        }
    }

    /// Skip whitespace and comments between tokens. A closing code fence ends the region.
    #[inline]
    fn skip_ws(&mut self) {
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
    fn skip_ws_peek(&mut self) -> Option<u8> {
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
    fn skip_ws_slow(&mut self) {
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
                b'`' | b'~'
                    if self.starts_with(self.pos, if c == b'`' { b"```" } else { b"~~~" }) =>
                {
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

    // ---- Value

    fn step_value(&mut self, mode: &mut Mode) -> Result<(), Error> {
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
        if c == 0xE2 && self.starts_with(self.pos, "\u{2026}".as_bytes()) {
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

    fn ellipsis(&mut self, mode: &mut Mode, len: usize) -> Result<(), Error> {
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
    fn parse_regex(&mut self) {
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
    fn several_args_call_end(&self, open: usize) -> Option<usize> {
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
    fn quoted_number_call(&self, start: usize, paren: usize) -> Option<(Range<usize>, usize)> {
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
    fn thousands_groups(&self, start: usize, end: usize) -> Option<usize> {
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
    fn parse_bare_value(&mut self, mode: &mut Mode) -> Result<bool, Error> {
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
    fn phrase_goes_on(&self, end: usize) -> bool {
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
    fn spaced_token_after(&self, end: usize) -> Option<usize> {
        let b = self.src;
        let limit = (end + LOOKAHEAD).min(self.end);
        let mut k = end;
        while k < limit && matches!(b[k], b' ' | b'\t') {
            k += 1;
        }
        (k > end && k < limit).then_some(k)
    }

    /// `12:30`, `16:9` as a member's value: a clock time or a ratio, one bare string.
    fn clock_time_at(&self, end: usize) -> bool {
        let b = self.src;
        self.top_kind() == Some(FrameKind::Object)
            && b.get(end) == Some(&b':')
            && end + 1 < self.end
            && b[end + 1].is_ascii_digit()
    }

    /// `3 * 7`, `10 - 2`: an arithmetic operator after a number on the same line makes the
    /// whole expression one bare value rather than a number and garbage.
    fn operator_follows(&self, end: usize) -> bool {
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
    fn drop_or_null(&mut self) {
        match self.top_kind() {
            Some(FrameKind::Object) => self.out.push_str("null"),
            Some(_) => self.drop_item(),
            None => {}
        }
    }

    /// Whether the byte at `i` ends a number or literal (`1/3` is one bare value; `1// x`
    /// is a number and a comment).
    fn ends_token(&self, i: usize) -> bool {
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
    fn scan_bare(&self, start: usize) -> usize {
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

    fn write_number(&mut self, start: usize, end: usize) {
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

    fn write_bare(&mut self, tok: &[u8], span: Range<usize>, at_end: bool) -> Result<(), Error> {
        let literal: Option<(&str, RepairKind)> = match tok {
            b"true" => Some(("true", RepairKind::PythonLiteral)),
            b"false" => Some(("false", RepairKind::PythonLiteral)),
            b"null" => Some(("null", RepairKind::PythonLiteral)),
            b"True" | b"TRUE" => Some(("true", RepairKind::PythonLiteral)),
            b"False" | b"FALSE" => Some(("false", RepairKind::PythonLiteral)),
            b"None" | b"none" | b"NULL" | b"Null" | b"nil" => {
                Some(("null", RepairKind::PythonLiteral))
            }
            b"undefined" => Some(("null", RepairKind::Undefined)),
            _ => None,
        };
        if let Some((text, kind)) = literal {
            if text.as_bytes() != tok {
                self.record(kind, span);
            }
            self.out.push_str(text);
            return Ok(());
        }
        if matches!(
            tok,
            b"NaN" | b"nan" | b"Infinity" | b"-Infinity" | b"+Infinity" | b"inf" | b"-inf"
        ) {
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

    // ---- Key

    fn step_key(&mut self, mode: &mut Mode) -> Result<(), Error> {
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
    fn escaped_members(&mut self) -> bool {
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
    fn escaped_object_end(&mut self, open: usize) -> Option<usize> {
        // Scans share the look-ahead budget, so that many escaped objects that never close
        // still cost linear time.
        let limit = self.end.min(open.saturating_add(self.bracket_scan_budget));
        let found = self.escaped_object_end_within(open, limit);
        let scanned = found.map_or(limit, |close| close + 1) - open;
        self.bracket_scan_budget = self.bracket_scan_budget.saturating_sub(scanned);
        found
    }

    fn escaped_object_end_within(&self, open: usize, limit: usize) -> Option<usize> {
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
    fn doubled_object_opener(&self, c: u8) -> bool {
        let b = self.src;
        c == b'{'
            && self.stack.last().is_some_and(|f| f.count == 0)
            && b[..self.pos]
                .iter()
                .rev()
                .find(|&&c| !is_ws(c))
                .is_some_and(|&c| c == b'{')
    }

    fn element_in_key_position(&self) -> bool {
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
    fn parse_unquoted_key(&mut self) -> Option<usize> {
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
    fn yaml_list_marker(&self, i: usize) -> bool {
        let b = self.src;
        matches!(self.byte(i + 1), Some(b' ' | b'\t')) && first_on_line(b, i)
    }

    /// Whether the quote at `i`, right after a bare key, is the key's closing quote: a `:`
    /// follows it.
    #[inline]
    fn key_lost_opening_quote(&self, i: usize) -> bool {
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
    fn value_lost_opening_quote(&self, start: usize) -> Option<usize> {
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
    fn write_unquoted_string(&mut self, start: usize, end: usize) {
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
    fn write_json_content(&mut self, range: Range<usize>) {
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
    fn key_right_after(&self, end: usize) -> bool {
        end < self.end
            && self.src[end] == b'"'
            && self.top_kind() == Some(FrameKind::Object)
            && self.key_follows(end)
    }

    /// For a bare key `b[start..end]` that no colon follows (the member ends after it),
    /// where its last word starts when that word is a number or a literal: then the key
    /// lost its colon (`count 2}`, `ok true,`), and that word is its value.
    #[cold]
    fn value_after_bare_key(&self, start: usize, end: usize) -> Option<usize> {
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

    // ---- Colon

    fn step_colon(&mut self, mode: &mut Mode) -> Result<(), Error> {
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

    // ---- After

    fn step_after(&mut self, mode: &mut Mode) -> Result<(), Error> {
        if self.stack.is_empty() {
            return Ok(());
        }
        let Some(c) = self.skip_ws_peek() else {
            self.close_all_at_end();
            return Ok(());
        };
        let top = self.top_kind();
        // `，`: a full-width comma (CJK text) as the separator.
        let full_width = self.starts_with(self.pos, FULL_WIDTH_COMMA);
        match c {
            _ if c == b',' || c == b';' || full_width => {
                let comma = self.pos;
                let width = if full_width {
                    FULL_WIDTH_COMMA.len()
                } else {
                    1
                };
                self.pos += width;
                if c != b',' {
                    self.record(RepairKind::MissingComma, comma..comma + width);
                }
                if top == Some(FrameKind::Wrapper) {
                    // Extra wrapper arguments (`Date(2020, 1)`): keep the first only.
                    self.skip_to_paren();
                    return Ok(());
                }
                match self.skip_ws_peek() {
                    Some(b'}' | b']' | b')') => {
                        self.record(RepairKind::TrailingComma, comma..comma + width);
                    }
                    None if self.end < self.src.len() => {
                        self.record(RepairKind::TrailingComma, comma..comma + width);
                    }
                    _ => {}
                }
                *mode = if top == Some(FrameKind::Object) {
                    Mode::Key
                } else {
                    Mode::Value
                };
            }
            b'}' | b']' | b')' => self.close_or_mismatch(c, mode)?,
            b'{' | b'[' if self.root_object_left_open_at(self.pos) => {
                // JSON Lines whose first object lost its `}`.
                self.record(RepairKind::MissingCloser, self.pos..self.pos);
                self.close_top();
            }
            b'+' => {
                let plus = self.pos;
                self.pos += 1;
                self.skip_ws();
                match quote_at(self.src, self.pos) {
                    Some(q) if self.string_end == Some(self.out.len()) => {
                        self.out.pop_ascii();
                        self.record(RepairKind::Concatenation, plus..plus + 1);
                        self.parse_string(q, StrCtx::Value, true)?;
                    }
                    _ => self.record(RepairKind::InvalidCharacter, plus..plus + 1),
                }
            }
            // Only a string that reads as a key: the stream shows a longer one as it comes.
            b':' if top == Some(FrameKind::Array)
                && self.string_end == Some(self.out.len())
                && self.closed_string_is_key_length() =>
            {
                self.key_in_array(mode);
            }
            // (Likewise: a long or multi-line string was shown as a value; found by fuzzing.)
            b':' if self.string_end == Some(self.out.len())
                && self.scalar_member_value_start().is_some()
                && self.closed_string_is_key_length() =>
            {
                self.open_object_in_member(mode);
            }
            b':' => {
                // `["a": 1]` or a doubled colon: drop it.
                self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
                self.pos += 1;
            }
            _ => {
                if self.starts_with(self.pos, b"...") {
                    let start = self.pos;
                    self.pos += 3;
                    self.record(RepairKind::Ellipsis, start..self.pos);
                    return Ok(());
                }
                // Something that starts the next item: the comma is missing.
                self.record(RepairKind::MissingComma, self.pos..self.pos);
                *mode = match top {
                    Some(FrameKind::Object) => Mode::Key,
                    Some(FrameKind::Wrapper) => {
                        self.skip_to_paren();
                        Mode::After
                    }
                    _ => Mode::Value,
                };
            }
        }
        Ok(())
    }

    /// The string element just written, with a `:` at `self.pos`, is a key. Either of the
    /// object around the array, whose `]` went missing (`{"tags": ["a", "count": 2}`), or
    /// of an object in the array that lost its `{` (`[{"a": 1}, "b": 2}]`): that object's
    /// `}` is followed by the array's `]` or by `, {`.
    fn key_in_array(&mut self, mode: &mut Mode) {
        if self.object_below_arrays() && !self.object_ends_inside_array(self.pos + 1) {
            self.close_arrays_before_key(mode);
        } else {
            self.open_object_before_key(mode);
        }
    }

    /// Which reading of a key met inside an array fits the rest of the text: a new object
    /// in the array (true), or the next member of the object around the array (false).
    /// The closers after `from` that nothing after `from` opened must close, in order,
    /// the containers each reading leaves open: the reading they match exactly wins (the
    /// other one leaves containers open at the end, or meets a wrong closer).
    fn object_ends_inside_array(&mut self, from: usize) -> bool {
        let Some(closers) = self.unmatched_closers(from) else {
            return false;
        };
        let closer = |k: FrameKind| match k {
            FrameKind::Object => b'}',
            FrameKind::Array => b']',
            FrameKind::Tuple | FrameKind::Wrapper => b')',
        };
        // A new object: it closes first, then every open container.
        let new_object: Vec<u8> = std::iter::once(b'}')
            .chain(self.stack.iter().rev().map(|f| closer(f.kind)))
            .collect();
        // The next member: the arrays close now; the containers below them remain.
        let next_member: Vec<u8> = self
            .stack
            .iter()
            .rev()
            .skip_while(|f| f.kind == FrameKind::Array)
            .map(|f| closer(f.kind))
            .collect();
        // Later elements may have lost their `{` too (`["a": 1}, "a": 2}]`): one more `}`
        // each, before the closers of what is open now.
        let extra = closers.iter().take_while(|&&c| c == b'}').count();
        let new_objects = extra >= 1
            && closers
                .get(extra - 1..)
                .is_some_and(|rest| rest == new_object.as_slice());
        new_objects && closers != next_member
    }

    /// Whether the `]` before `after`, which closes the innermost array, came too early:
    /// `,` and an element follow where what holds the array cannot take one (the text's
    /// end at the root; a key in an object), and the closers later on close the array and
    /// everything around it. In an array of arrays either `]` may be the extra one, so
    /// that is left alone.
    fn early_array_closer(&mut self, after: usize) -> bool {
        let parent = self
            .stack
            .len()
            .checked_sub(2)
            .and_then(|i| self.stack.get(i))
            .map(|f| f.kind);
        let b = self.src;
        // Most closers are followed by `]` or `}`, or sit in an array: decided cheaply.
        if after >= self.end
            || matches!(b[after], b']' | b'}')
            || !matches!(parent, None | Some(FrameKind::Object))
        {
            return false;
        }
        let comma = if b[after] == b',' {
            after
        } else {
            self.skip_layout_ahead(after)
        };
        if comma >= self.end || b[comma] != b',' {
            return false;
        }
        let mut k = comma + 1;
        while k < self.end && matches!(b[k], b' ' | b'\t' | b'\r' | b'\n') {
            k += 1;
        }
        let k = self.skip_layout_ahead(k);
        // An element must start there. Another array next (`[1, 2], [3, 4]]`) more likely
        // lost the `[` around both, unless the root's own elements are arrays
        // (`[[1, 2]], [3, 4]]`: one `]` too many, not one `[` too few).
        let array_after_arrays = self.out.last() == Some(b']') && b.get(k) == Some(&b'[');
        if k >= self.end
            || !(matches!(b[k], b'{' | b'"' | b'\'' | b'-' | b'0'..=b'9')
                || is_ident_start(b[k])
                || array_after_arrays)
        {
            return false;
        }
        // In an object, only what no key starts with (an object, a number): checking for a
        // key after every `],` would cost more than this rare fault is worth.
        let element_follows = match parent {
            None => true,
            Some(_) => matches!(b[k], b'{' | b'0'..=b'9') || array_after_arrays,
        };
        if !element_follows
            || self
                .stack
                .iter()
                .any(|f| !matches!(f.kind, FrameKind::Object | FrameKind::Array))
        {
            return false;
        }
        let closer = |k: FrameKind| if k == FrameKind::Object { b'}' } else { b']' };
        let open: Vec<u8> = self.stack.iter().rev().map(|f| closer(f.kind)).collect();
        self.unmatched_closers(after)
            .is_some_and(|closers| closers == open)
    }

    /// A `}` or `]` that the innermost container does not take (`c`, followed by
    /// `b[after..]`): which reading makes the closers that come later close exactly the
    /// containers left open. Dropped as a doubled closer (all stay open), or taken as a typo
    /// for the innermost container's closer (that one closes). `None` when neither fits,
    /// or the look-ahead cannot tell: the older rules decide then.
    fn wrong_closer_reading(&mut self, c: u8, after: usize) -> Option<WrongCloser> {
        if !matches!(c, b'}' | b']')
            || self
                .stack
                .iter()
                .any(|f| !matches!(f.kind, FrameKind::Object | FrameKind::Array))
        {
            return None;
        }
        let closers = self.unmatched_closers(after)?;
        let closer = |k: FrameKind| if k == FrameKind::Object { b'}' } else { b']' };
        let open: Vec<u8> = self.stack.iter().rev().map(|f| closer(f.kind)).collect();
        // A text cut short has no closers left to tell the readings apart.
        if closers.is_empty() {
            return None;
        }
        if closers == open {
            Some(WrongCloser::Extra)
        } else if open.get(1..) == Some(closers.as_slice()) {
            Some(WrongCloser::Typo)
        } else {
            None
        }
    }

    /// The closers from `from` to the end of the input that nothing after `from` opened,
    /// in order; `None` when the look-ahead budget is spent or a string is cut there.
    fn unmatched_closers(&mut self, from: usize) -> Option<Vec<u8>> {
        let b = self.src;
        let len = self.end.saturating_sub(from);
        self.bracket_scan_budget = self.bracket_scan_budget.checked_sub(len)?;
        let mut open = 0usize;
        let mut closers = Vec::new();
        let mut i = from;
        while i < self.end {
            match b[i] {
                b'"' | b'\'' => {
                    let q = if b[i] == b'"' {
                        Quote::Double
                    } else {
                        Quote::Single
                    };
                    i = self.scan_quoted(i, q, self.end - i)?;
                    continue;
                }
                b'{' | b'[' | b'(' => open += 1,
                c @ (b'}' | b']' | b')') => {
                    if open == 0 {
                        closers.push(c);
                    } else {
                        open -= 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Some(closers)
    }

    /// The string element just written is the first key of an object in the array that
    /// lost its `{`: open the object before it and go on with the member's value.
    fn open_object_before_key(&mut self, mode: &mut Mode) {
        let Some(array) = self.stack.last() else {
            return;
        };
        if self.stack.len() >= self.options.max_depth {
            // No room for the object: drop the colon, as before.
            self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
            self.pos += 1;
            return;
        }
        let key_start = array.checkpoint + usize::from(array.count > 1);
        self.insert_opener(
            key_start,
            FrameKind::Object,
            RepairKind::MissingOpener,
            self.pos,
        );
        self.out.push(b':');
        self.pos += 1;
        *mode = Mode::Value;
    }

    /// Put back a lost `{` or `[` at `out[at]`, before the one item written since, and open
    /// its frame; the repair is reported at input offset `input_at`.
    fn insert_opener(&mut self, at: usize, kind: FrameKind, repair: RepairKind, input_at: usize) {
        self.out.insert_ascii(
            at,
            if kind == FrameKind::Object {
                b'{'
            } else {
                b'['
            },
        );
        self.record(repair, input_at..input_at);
        self.stack.push(Frame {
            kind,
            count: 1,
            checkpoint: at + 1,
        });
        self.deepest = self.deepest.max(self.stack.len());
        self.string_end = None;
    }

    /// The string value just written, with a `:` at `self.pos`, is the first key of an
    /// object that lost its `{`: `{"user": "name": "Ana", "age": 3}}` reads as
    /// `{"user": {"name": "Ana", "age": 3}}`.
    fn open_object_in_member(&mut self, mode: &mut Mode) {
        if self.stack.len() >= self.options.max_depth {
            // No room for the object: drop the colon, as before.
            self.record(RepairKind::InvalidCharacter, self.pos..self.pos + 1);
            self.pos += 1;
            return;
        }
        let Some(key_start) = self.scalar_member_value_start() else {
            return;
        };
        let value = self.member_value_out.2;
        self.insert_opener(
            key_start,
            FrameKind::Object,
            RepairKind::MissingOpener,
            value,
        );
        self.out.push(b':');
        self.pos += 1;
        *mode = Mode::Value;
    }

    /// Where in `out` the value just written starts, when it is a scalar or a string read as
    /// the value of the innermost object's last member (right after its `:`).
    fn scalar_member_value_start(&self) -> Option<usize> {
        let f = self.stack.last().filter(|f| f.kind == FrameKind::Object)?;
        let (depth, at, _) = self.member_value_out;
        if depth != self.stack.len() {
            // A value inside a container that has closed since.
            return None;
        }
        let written = self.out.slice(f.checkpoint..self.out.len()).as_bytes();
        let value = written.get(at.checked_sub(f.checkpoint)?..)?;
        let colon = at
            .checked_sub(1)
            .and_then(|c| self.out.slice(c..at).bytes().next());
        (colon == Some(b':') && !value.is_empty() && !matches!(value[0], b'{' | b'[')).then_some(at)
    }

    /// Whether the innermost object's last member value (a scalar) is the first element of
    /// an array that lost its `[`: what starts at `key_input_start` (read as the next key)
    /// is more elements and a `]` (`{"tags": "a", "b"], "n": 1}` reads as
    /// `{"tags": ["a", "b"], "n": 1}`). If so, the item `begun` for that key is dropped, the
    /// `[` goes in before the value, and reading goes on at the second element. Only met
    /// where a key is not followed by `:`.
    fn array_lost_opener_before(&mut self, begun: bool, mode: &mut Mode) -> bool {
        let Some(f) = self.stack.last() else {
            return false;
        };
        let item_out = if begun { f.checkpoint } else { self.out.len() };
        let (depth, at, value_input) = self.member_value_out;
        if f.kind != FrameKind::Object
            || depth != self.stack.len()
            || self.stack.len() >= self.options.max_depth
            || at == 0
            || at >= item_out
            || item_out > self.out.len()
        {
            return false;
        }
        // The value right after its member's colon, one whole scalar.
        let value = self.out.slice(at..item_out);
        if self.out.slice(at - 1..at) != ":"
            || value.starts_with(['{', '['])
            || serde_json::from_str::<serde::de::IgnoredAny>(value).is_err()
        {
            return false;
        }
        let key_start = self.key_input_start;
        let Some(after) = self.elements_then_array_closer(key_start) else {
            return false;
        };
        if !self.array_in_member_fits(after) {
            return false;
        }
        if begun {
            self.drop_item();
        }
        self.insert_opener(
            at,
            FrameKind::Array,
            RepairKind::MissingArrayOpener,
            value_input,
        );
        self.pos = key_start;
        *mode = Mode::Value;
        true
    }

    /// Whether the `{` or `[` at `i`, first on its line after a member of the root object,
    /// starts the next top-level value (the root lost its `}`): JSON Lines, or a second
    /// answer after the first.
    fn root_object_left_open_at(&self, i: usize) -> bool {
        self.stack.len() == 1
            && self.top_kind() == Some(FrameKind::Object)
            && first_on_line(self.src, i)
            && self.plausible_container(i)
    }

    /// `{"items": {"a": 1}, {"a": 2}], "n": 2}`: where the innermost object wants a key, a
    /// `{` or `[` follows its last member's value, itself a container, and the first closer
    /// after it that nothing after it opened is a `]`. That value is the first element of an
    /// array that lost its `[`: it gets it, and reading goes on at the next element.
    fn container_array_lost_opener(&mut self, mode: &mut Mode) -> bool {
        let Some(f) = self.stack.last() else {
            return false;
        };
        if f.kind != FrameKind::Object || f.count == 0 || self.stack.len() >= self.options.max_depth
        {
            return false;
        }
        // The member as written: `,"key":value`.
        let member = self.out.slice(f.checkpoint..self.out.len()).as_bytes();
        let mut i = usize::from(member.first() == Some(&b','));
        if member.get(i) != Some(&b'"') {
            return false;
        }
        i += 1;
        loop {
            match member.get(i) {
                None => return false,
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(_) => i += 1,
            }
        }
        if member.get(i + 1) != Some(&b':') || !matches!(member.get(i + 2), Some(b'{' | b'[')) {
            return false;
        }
        let at = f.checkpoint + i + 2;
        // In an array, the closers must be exactly that `]` and those of what is open
        // (`[{"a": {…}, {…}]` is an object that lost its `}` instead). (This look-ahead has
        // a budget; the check of the value after it runs once per opener put back.)
        let below = self.stack.len().checked_sub(2).map(|i| self.stack[i].kind);
        let in_array = matches!(below, Some(FrameKind::Array | FrameKind::Tuple));
        let open = self.open_closers();
        let fits = self.unmatched_closers(self.pos).is_some_and(|closers| {
            closers.first() == Some(&b']') && (!in_array || closers[1..] == open[..])
        });
        let value = self.out.slice(at..self.out.len());
        if !fits || serde_json::from_str::<serde::de::IgnoredAny>(value).is_err() {
            return false;
        }
        self.insert_opener(
            at,
            FrameKind::Array,
            RepairKind::MissingArrayOpener,
            self.pos,
        );
        *mode = Mode::Value;
        true
    }

    /// Whether the `]` that ends at `after` closes an array in the innermost object's last
    /// member, rather than the array the object is in (`[{"a": 1, 2]`: the object lost its
    /// `}`, see `element_in_key_position`). In an array, the closers that follow must be
    /// exactly those of what is open.
    fn array_in_member_fits(&mut self, after: usize) -> bool {
        let below = self.stack.len().checked_sub(2).map(|i| self.stack[i].kind);
        if !matches!(below, Some(FrameKind::Array | FrameKind::Tuple)) {
            return true;
        }
        let open = self.open_closers();
        self.unmatched_closers(after)
            .is_some_and(|closers| closers == open)
    }

    /// The closers of the open containers, innermost first.
    fn open_closers(&self) -> Vec<u8> {
        self.stack
            .iter()
            .rev()
            .map(|f| match f.kind {
                FrameKind::Object => b'}',
                FrameKind::Array => b']',
                FrameKind::Tuple | FrameKind::Wrapper => b')',
            })
            .collect()
    }

    /// From `k` (past a comma after an object member's value): one or more scalar elements
    /// (quoted strings on one line, numbers, literals) separated by commas, then a `]`: the
    /// member's value may be an array that lost its `[`. Returns the offset past the `]`.
    /// Looks at most `LOOKAHEAD` bytes.
    fn elements_then_array_closer(&self, k: usize) -> Option<usize> {
        elements_then_array_closer_at(&self.src[..self.end], k)
            .ok()
            .flatten()
    }

    /// The string element just written is the next key of the object around the array
    /// (`{"tags": ["a", "b", "count": 2}`): take it out, close the arrays, and go on with
    /// it as a member.
    fn close_arrays_before_key(&mut self, mode: &mut Mode) {
        let Some(array) = self.stack.last_mut() else {
            return;
        };
        // The element starts after the comma written before it, if any.
        let key_start = array.checkpoint + usize::from(array.count > 1);
        let key = self.out.slice(key_start..self.out.len()).to_owned();
        self.out.truncate(array.checkpoint);
        array.count = array.count.saturating_sub(1);
        self.record(RepairKind::MissingCloser, self.pos..self.pos);
        while self.top_kind() == Some(FrameKind::Array) {
            self.close_top();
        }
        self.begin_item();
        self.out.push_str(&key);
        self.out.push(b':');
        self.pos += 1;
        self.string_end = None;
        *mode = Mode::Value;
    }

    /// Where the colon is when a bare key starts at `k`: one word, spaces, `:` and a value
    /// (not `//`: `http://…` is a URL).
    fn bare_key_colon(&self, k: usize) -> Option<usize> {
        let b = self.src;
        let (_, m) = self.word_and_spaces(k)?;
        if m >= self.end || b[m] != b':' || b.get(m + 1) == Some(&b'/') {
            return None;
        }
        let v = self.skip_layout_ahead(m + 1);
        (self.value_starts_at(v) || self.bare_member_value_at(v)).then_some(m)
    }

    /// The bare word at `self.pos` is the next key of the object around the array: close
    /// the arrays and go on with the member's value after `colon`.
    fn close_arrays_before_bare_key(&mut self, colon: usize, mode: &mut Mode) {
        let b = self.src;
        let start = self.pos;
        let mut end = colon;
        while end > start && is_ws(b[end - 1]) {
            end -= 1;
        }
        self.record(RepairKind::MissingCloser, start..start);
        while self.top_kind() == Some(FrameKind::Array) {
            self.close_top();
        }
        self.begin_item();
        self.record(RepairKind::UnquotedKey, start..end);
        self.out.push(b'"');
        self.out.push_input(self.text, start..end);
        self.out.push(b'"');
        self.out.push(b':');
        self.pos = colon + 1;
        *mode = Mode::Value;
    }

    /// Skip the rest of a wrapper's argument list up to its `)`.
    fn skip_to_paren(&mut self) {
        let start = self.pos;
        let mut i = self.pos;
        let mut in_str: Option<u8> = None;
        while i < self.end {
            let c = self.src[i];
            match in_str {
                Some(q) => {
                    if c == b'\\' {
                        i += 1;
                    } else if c == q {
                        in_str = None;
                    }
                }
                None => match c {
                    b'"' | b'\'' => in_str = Some(c),
                    b')' | b'}' | b']' => break,
                    _ => {}
                },
            }
            i += 1;
        }
        self.pos = i.min(self.end);
        self.record(RepairKind::Wrapper, start..self.pos);
    }

    /// A closer in After (or Value/Key) position: close the top frame if it matches; close
    /// frames that were left open if a lower one matches; drop it if nothing matches.
    fn close_or_mismatch(&mut self, c: u8, mode: &mut Mode) -> Result<(), Error> {
        let wanted = |k: FrameKind| match k {
            FrameKind::Object => c == b'}',
            FrameKind::Array => c == b']',
            FrameKind::Tuple | FrameKind::Wrapper => c == b')',
        };
        let Some(top) = self.top_kind() else {
            return Ok(());
        };
        let after = self.pos + 1;
        if wanted(top) {
            // A few doubled closers may come first (`{"b": {"c": 1}}}, "d": 2}`).
            let mut next = after;
            while next < (after + 16).min(self.end) && self.src[next] == b'}' {
                next += 1;
            }
            if self.stack.len() == 1
                && top == FrameKind::Object
                && self.continues_after(next, FrameKind::Object)
            {
                // `{"a": 1}, "b": 2}`: members follow, so this `}` came too early.
                self.record(RepairKind::RedundantCloser, self.pos..after);
                self.pos = after;
                *mode = Mode::After;
                return Ok(());
            }
            if top == FrameKind::Array && self.early_array_closer(after) {
                // `[{"a": 1}], {"b": 2}]`, `{"rows": [1], {"b": 2}], "n": 3}`: elements
                // follow, and a `]` later on closes the array.
                self.record(RepairKind::RedundantCloser, self.pos..after);
                self.pos = after;
                *mode = Mode::After;
                return Ok(());
            }
            self.pos = after;
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        if let Some(reading) = self.wrong_closer_reading(c, after) {
            match reading {
                WrongCloser::Extra => {
                    // `{"a": [{"b": 1}}, {"c": 2}]}`: a doubled closer inside.
                    self.record(RepairKind::RedundantCloser, self.pos..after);
                    self.pos = after;
                }
                WrongCloser::Typo => {
                    // `{"a": [{"b": {"c": 1]}, {"d": 2}]}`: `]` typed for `}`.
                    self.record(RepairKind::RedundantCloser, self.pos..after);
                    self.pos = after;
                    self.close_top();
                    *mode = Mode::After;
                }
            }
            return Ok(());
        }
        let parent = self
            .stack
            .len()
            .checked_sub(2)
            .and_then(|i| self.stack.get(i))
            .map(|f| f.kind);
        if parent.is_some_and(|p| wanted(p) && self.continues_after(after, p)) {
            // `{"a": [1, 2}, "b": 3}`: the parent goes on after this closer, so it is the
            // wrong closer for the inner container, not the parent's own.
            self.record(RepairKind::RedundantCloser, self.pos..after);
            self.pos = after;
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        if self.stack.iter().any(|f| wanted(f.kind)) {
            self.record(RepairKind::MissingCloser, self.pos..self.pos);
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        if matches!(c, b'}' | b']') && parent.is_some_and(|p| self.continues_after(after, p)) {
            // `{"h": {"a": 1], "b": 2}`: nothing open takes this closer, and the parent goes
            // on after it: it is the wrong closer for the inner container.
            self.record(RepairKind::RedundantCloser, self.pos..after);
            self.pos = after;
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        if top == FrameKind::Array && c == b')' {
            // `[1, 2)`: a wrong closer for the array.
            self.record(RepairKind::RedundantCloser, self.pos..self.pos + 1);
            self.pos += 1;
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        if self.stack.len() == 1 && matches!(c, b'}' | b']') && !self.continues_after(after, top) {
            // `{"a": [1, 2}` handled above; here `{"a": 1]`: the wrong closer ends it.
            self.record(RepairKind::RedundantCloser, self.pos..self.pos + 1);
            self.pos += 1;
            self.close_top();
            *mode = Mode::After;
            return Ok(());
        }
        self.record(RepairKind::RedundantCloser, self.pos..self.pos + 1);
        self.pos += 1;
        Ok(())
    }

    // ---------------------------------------------------------------- strings

    /// Parse a string opened by `q` at `self.pos` and write it as a JSON string (without the
    /// opening quote when `continued`, for concatenation). Returns false when the input
    /// ended inside it.
    fn parse_string(&mut self, q: Quote, ctx: StrCtx, continued: bool) -> Result<bool, Error> {
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
    fn close_string_at(&mut self, cut: usize) {
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
    fn double_quote_closes(&self, after: usize, ctx: StrCtx) -> bool {
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
    fn close_key_at_colon(
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
            || key.len() > crate::stream::KEY_LIKE_LEN
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
    fn colon_follows(&self, after: usize) -> bool {
        let m = self.skip_layout_ahead(after);
        m < self.end
            && (self.src[m] == b':' || self.src[m] == b'=' || self.starts_with(m, FULL_WIDTH_COLON))
    }

    /// Whether a `quote` later on the line from `from` is followed by a `:`: the key's own
    /// closing quote (`"':": null` is the key `':`).
    #[cold]
    fn key_closer_later(&self, from: usize, quote: u8) -> bool {
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

    fn parse_escape(&mut self, q: Quote, windows_path: bool, raw: bool) -> Result<(), Error> {
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
    fn hex_digits(&self, i: usize, want: usize) -> Option<usize> {
        for k in 0..want {
            match self.byte(i + k) {
                None => return None,
                Some(c) if c.is_ascii_hexdigit() => {}
                Some(_) => return Some(k),
            }
        }
        Some(want)
    }

    fn parse_unicode_escape(&mut self) {
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

    /// Decide whether the quote just before `after` closes the string, from what follows.
    fn string_end_kind(&self, q: Quote, after: usize, ctx: StrCtx) -> StrEnd {
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
                    b'`' | b'~'
                        if self.in_fence
                            && (self.starts_with(j, b"```") || self.starts_with(j, b"~~~")) =>
                    {
                        StrEnd::Close
                    }
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

    fn value_string_end(&self, q: Quote, after: usize, j: usize, c: u8) -> StrEnd {
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
                    || self.starts_with(k, "\u{2026}".as_bytes())
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
    fn closers_before_next_key(&self, quote: usize) -> Option<usize> {
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
    fn element_after_line_break(&self, quote: usize) -> bool {
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
    fn key_without_closing_quote_at(&self, k: usize) -> bool {
        let b = self.src;
        let (open, other) = match quote_at(b, k) {
            Some(Quote::Double) => (b'"', b'\''),
            Some(Quote::Single) => (b'\'', b'"'),
            _ => return false,
        };
        let word = b[k + 1..self.end.min(k + 2 + crate::stream::KEY_LIKE_LEN)]
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
            && word <= crate::stream::KEY_LIKE_LEN
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
    /// elements back while they are this short (`stream::KEY_LIKE_LEN`).
    fn key_in_open_array(&self, after: usize) -> bool {
        self.top_kind() == Some(FrameKind::Array) && self.key_like_string_before(after)
    }

    /// Whether the string that closed last (all of a concatenation) is as short as a key
    /// and on one line (`stream::KEY_LIKE_LEN`).
    fn closed_string_is_key_length(&self) -> bool {
        let content = self
            .src
            .get(self.concat_open + 1..self.string_close.saturating_sub(1))
            .unwrap_or_default();
        content.len() <= crate::stream::KEY_LIKE_LEN && !content.contains(&b'\n')
    }

    /// Whether the string that ends just before `after` reads as a key: it is short and on
    /// one line, and a `:` and a value follow it. The stream holds strings back while they
    /// are this short (`stream::KEY_LIKE_LEN`).
    fn key_like_string_before(&self, after: usize) -> bool {
        let b = self.src;
        // All of a concatenation (`"a" + "b":`) counts, as the stream has shown it.
        let content = b
            .get(self.concat_open + 1..after.saturating_sub(1))
            .unwrap_or_default();
        if self.inner_quote_seen
            || content.len() > crate::stream::KEY_LIKE_LEN
            || content.contains(&b'\n')
        {
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
    fn object_below_arrays(&self) -> bool {
        let mut frames = self.stack.iter().rev();
        frames.next().is_some_and(|f| f.kind == FrameKind::Array)
            && frames
                .find(|f| f.kind != FrameKind::Array)
                .is_some_and(|f| f.kind == FrameKind::Object)
    }

    /// See `words_after_closers`.
    fn closers_are_content(&self, j: usize) -> bool {
        let open = self.stack.iter().rev().map(|f| match f.kind {
            FrameKind::Object => b'}',
            FrameKind::Array => b']',
            FrameKind::Tuple | FrameKind::Wrapper => b')',
        });
        words_after_closers(&self.src[..self.end], j, open, true) == Some(true)
    }

    /// After a wrong closer at `k - 1`: neither a separator, a closer, a comment nor the end
    /// comes next, and a quote follows later on the line.
    fn content_goes_on(&self, k: usize) -> bool {
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
    fn separator_follows(&self, after: usize) -> bool {
        let j = self.skip_layout_ahead(after);
        j < self.end && self.src[j] == b','
    }

    /// Whether a `”` just before `after` closes a straight-quoted value: a closer follows, or
    /// a comma and then a key. (The stream freezes on any closer or comma there.)
    fn typographic_close_at(&self, after: usize, strict: bool) -> bool {
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
    fn typographic_closes(&self, i: usize, ctx: StrCtx) -> bool {
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
    fn closing_quote_after_closers(&self, j: usize) -> bool {
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
    fn string_goes_on_after_root_closers(&self, j: usize) -> bool {
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
    fn word_and_spaces(&self, k: usize) -> Option<(usize, usize)> {
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
    fn bare_element_at(&self, k: usize) -> bool {
        self.word_and_spaces(k)
            .is_some_and(|(_, m)| m < self.end && matches!(self.src[m], b',' | b']'))
    }

    /// Whether words that are no value (`then left"`) start at `k` (after spaces) and run on
    /// the same line to a quote that ends a string: a separator, a closer or the end follows.
    fn prose_then_quote_at(&self, mut k: usize) -> bool {
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
    fn sentence_then_quote_at(&self, k: usize) -> bool {
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
    fn paren_after_closers(&self, j: usize) -> bool {
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
    fn scalar_element_follows(&self, k: usize) -> bool {
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
    fn invalid_escape_ahead(&self, from: usize) -> bool {
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
    fn comment_at(&self, k: usize) -> bool {
        match self.byte(k) {
            Some(b'/') => matches!(self.byte(k + 1), Some(b'/' | b'*')),
            Some(b'#') => self.byte(k + 1).is_none_or(|n| is_ws(n) || n == b'#'),
            _ => false,
        }
    }

    /// The string being read lost its closing quote before the separator ending at `i`:
    /// take its trailing layout (line breaks too: `"Ada,\n  "age": 3`) and one comma before
    /// that back out of the content, with the repairs of the control characters among them.
    fn trim_separator_before(&mut self, i: usize) {
        let b = self.src;
        // Each byte's length as written into the string: a raw control character escaped.
        let written = |c: u8| {
            if matches!(c, b'\n' | b'\r' | b'\t') {
                2
            } else {
                1
            }
        };
        let mut k = i;
        while k > self.string_content && matches!(b[k - 1], b' ' | b'\t' | b'\n' | b'\r') {
            k -= 1;
        }
        if k > self.string_content && b[k - 1] == b',' {
            k -= 1;
        }
        let n: usize = b[k..i].iter().map(|&c| written(c)).sum();
        let expected = b[k..i].iter().flat_map(|&c| match c {
            b'\n' => *b"\\n",
            b'\r' => *b"\\r",
            b'\t' => *b"\\t",
            c => [c, 0],
        });
        let len = self.out.len();
        let tail = self.out.slice(len.saturating_sub(n)..len).as_bytes();
        if len < n || !tail.iter().copied().eq(expected.filter(|&c| c != 0)) {
            // Not written as read (never expected): trim spaces and a comma only.
            while matches!(self.out.last(), Some(b' ' | b'\t')) {
                self.out.pop_ascii();
            }
            if self.out.last() == Some(b',') {
                self.out.pop_ascii();
            }
            return;
        }
        self.out.truncate(len - n);
        let control = |r: &Repair| r.kind() == RepairKind::ControlCharacter && r.span().start >= k;
        while self.repairs.last().is_some_and(control) {
            self.repairs.pop();
        }
    }

    /// Whether the bytes before `i` (spaces aside) end with a comma or a line break.
    fn after_separator(&self, i: usize) -> bool {
        let b = self.src;
        let mut k = i;
        while k > 0 && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k > 0 && matches!(b[k - 1], b',' | b'\n')
    }

    /// Whether a key (`"k":`, `'k':`, `k:`) starts at `k`. A quoted key may have lost its
    /// colon when a value follows it after a space (`"age" 36`, `"name" "Ada"`).
    fn key_follows(&self, k: usize) -> bool {
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
    fn quoted_value_ends_member(&self, m: usize) -> bool {
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
    fn equals_for_colon(&self, k: usize, m: usize) -> bool {
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
    fn key_without_colon_at(&self, k: usize) -> bool {
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
    fn bare_member_value_at(&self, m: usize) -> bool {
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
    fn bare_key_at_value(&self, start: usize) -> bool {
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

    fn value_starts_at(&self, m: usize) -> bool {
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
    fn cut_key_at_end(&self, k: usize) -> bool {
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

    /// Where the closers end a string's content `b[from..end]`: its last bytes are layout
    /// and exactly the closers of the open containers, innermost first (`value]}` in
    /// `{"key": ["value]}`). None when they are not.
    fn closers_at_string_end(&self, from: usize, end: usize) -> Option<usize> {
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
    fn string_may_end_at(&self, m: usize) -> bool {
        m >= self.end
            || matches!(self.src[m], b',' | b'}' | b']')
            || (self.top_kind() == Some(FrameKind::Object) && self.key_follows(m))
    }

    /// Whether a container of `kind` plausibly goes on at `i`: a comma, then a key (object) or
    /// a value (array). Tells an early or wrong closer from a container's real end.
    fn continues_after(&self, i: usize, kind: FrameKind) -> bool {
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
    fn skip_layout_ahead(&self, mut i: usize) -> usize {
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
    fn skip_layout_ahead_slow(&self, mut i: usize, limit: usize) -> usize {
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
    fn scan_quoted(&self, k: usize, q: Quote, max: usize) -> Option<usize> {
        quoted_end(self.src, self.end, k, q, max).ok().flatten()
    }
}

/// How a closer of the wrong kind is read (see `Parser::wrong_closer_reading`).
enum WrongCloser {
    /// A doubled closer: dropped.
    Extra,
    /// A typo for the innermost container's closer.
    Typo,
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

/// Whether a `'` that ends right before `after`, inside a string a straight `"` opened,
/// closes it (`"Build passed', "ms": 3}`): after it (spaces aside) come the closer of what
/// holds the string (an object if `object`) and then the text's end, a separator or a
/// closer; or a comma and then, in an object, a whole key (`"word":`), in an array a
/// straight `"`. Code keeps its quotes (`print('a', 'b')`, `{'a': 'b'}`). The engine and the
/// stream share it: `complete` says `b` is the whole text; otherwise `None` when `b` ends
/// too soon to tell.
pub(crate) fn apostrophe_closes(
    b: &[u8],
    after: usize,
    object: bool,
    complete: bool,
) -> Option<bool> {
    let undecided = if complete { Some(false) } else { None };
    let skip = |mut k: usize| {
        while k < b.len() && is_ws(b[k]) {
            k += 1;
        }
        k
    };
    let j = skip(after);
    let Some(&c) = b.get(j) else {
        return undecided;
    };
    match c {
        b'}' | b']' => {
            if c != if object { b'}' } else { b']' } {
                return Some(false);
            }
            closers_then_next(b, j, complete)
        }
        b',' => {
            let k = skip(j + 1);
            let Some(&n) = b.get(k) else {
                return undecided;
            };
            if n != b'"' {
                return Some(false);
            }
            if !object {
                // A whole element: a string closed on its line with no closer in it, then
                // a separator, a closer or the end. Valid JSON does not read so
                // (`["it',"]` keeps its `',`), and the stream can tell soon.
                let mut e = k + 1;
                loop {
                    if e >= k + LOOKAHEAD {
                        return Some(false);
                    }
                    match b.get(e) {
                        None => return undecided,
                        Some(b'\\') => e += 2,
                        Some(b'\n' | b']' | b'}') => return Some(false),
                        Some(b'"') => break,
                        Some(_) => e += 1,
                    }
                }
                return match b.get(skip(e + 1)) {
                    None if complete => Some(true),
                    None => None,
                    Some(&c) => Some(matches!(c, b',' | b']')),
                };
            }
            // A whole key: a word as short as keys are, its closing quote, a colon.
            let body = &b[k + 1..];
            let limit = body.len().min(crate::stream::KEY_LIKE_LEN + 1);
            match body[..limit]
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
            {
                None if limit == body.len() && limit <= crate::stream::KEY_LIKE_LEN => undecided,
                Some(e) if body[e] == b'"' && e > 0 => match b.get(skip(k + 2 + e)) {
                    None => undecided,
                    Some(&c) => Some(c == b':'),
                },
                _ => Some(false),
            }
        }
        _ => Some(false),
    }
}

/// Whether the run of closers (and layout) at `b[j..]` goes on as JSON does after a value:
/// a comma, then a quote or an opener. Code does not (`'json' } });`), and neither does the
/// text's end: `["it']` may be a string cut off there, which is reported as truncated.
/// `None` when `b` ends too soon to tell and more may come (`complete` false).
pub(crate) fn closers_then_next(b: &[u8], j: usize, complete: bool) -> Option<bool> {
    let mut k = j;
    while k < b.len() && (is_ws(b[k]) || matches!(b[k], b'}' | b']')) {
        k += 1;
    }
    match b.get(k) {
        None if complete => Some(false),
        None => None,
        Some(b',') => {
            k += 1;
            while k < b.len() && is_ws(b[k]) {
                k += 1;
            }
            match b.get(k) {
                None if complete => Some(false),
                None => None,
                Some(&c) => Some(matches!(c, b'"' | b'{' | b'[')),
            }
        }
        Some(_) => Some(false),
    }
}

/// Whether `b[i..]` is, spaces aside, a separator that goes on as after a string's end: a
/// `,` then a space or line break, or a closer then a `,`, a closer or the text's end
/// (`version:", "done"` ends a string; `"}A"` and `","` are values). The engine and the
/// stream share it: `complete` says `b` is the whole text; otherwise `None` when `b` ends
/// too soon to tell.
pub(crate) fn separator_after_quote(b: &[u8], i: usize, complete: bool) -> Option<bool> {
    let mut s = i;
    while matches!(*b.get(s)?, b' ' | b'\t' | b'\r' | b'\n') {
        s += 1;
    }
    match b[s] {
        b',' => Some(matches!(*b.get(s + 1)?, b' ' | b'\t' | b'\r' | b'\n')),
        b'}' | b']' => {
            let mut t = s + 1;
            loop {
                match b.get(t) {
                    None => return complete.then_some(true),
                    Some(b' ' | b'\t' | b'\r' | b'\n') => t += 1,
                    Some(&c) => return Some(matches!(c, b',' | b'}' | b']')),
                }
            }
        }
        _ => Some(false),
    }
}

/// Whether the double-quoted string that opens at `b[v]` closes on its line and, spaces
/// aside, a `,`, a `}` or the text's end follows it: a whole member value (`b: ", "}`).
/// The engine and the stream share it: `complete` says `b` is the whole text; otherwise
/// `None` while `b` ends too soon to tell.
pub(crate) fn member_value_string_at(b: &[u8], v: usize, complete: bool) -> Option<bool> {
    let after = match quoted_end(b, b.len(), v, Quote::Double, LOOKAHEAD) {
        Ok(Some(after)) => after,
        Ok(None) => return Some(false),
        Err(()) => return complete.then_some(false),
    };
    let limit = after + LOOKAHEAD;
    let mut n = after;
    while n < limit && b.get(n).copied().is_some_and(is_ws) {
        n += 1;
    }
    match b.get(n) {
        _ if n >= limit => Some(false),
        None => complete.then_some(true),
        Some(&c) => Some(matches!(c, b',' | b'}')),
    }
}

fn quote_then_separator(b: &[u8], i: usize) -> bool {
    separator_after_quote(b, i, true) == Some(true)
}

/// Whether a double quote on the line from `b[k]` can end a string: spaces aside, a `,`
/// `}` `]` or the text's end follows it (with `to_end`, only spaces and closers up to the
/// text's end). `complete`: `b` is the whole text; otherwise `None` while the line goes on
/// past `b` (a stream waits for more).
pub(crate) fn string_end_on_line(b: &[u8], k: usize, to_end: bool, complete: bool) -> Option<bool> {
    string_end_ahead(b, k, to_end, false, complete)
}

/// `string_end_on_line`, past line breaks too when `lines`.
fn string_end_ahead(b: &[u8], k: usize, to_end: bool, lines: bool, complete: bool) -> Option<bool> {
    let limit = k + LOOKAHEAD;
    let mut i = k;
    while i < limit {
        let Some(&c) = b.get(i) else {
            return complete.then_some(false);
        };
        match c {
            b'\\' => i += 1,
            b'\n' if !lines => return Some(false),
            b'"' => {
                let mut m = i + 1;
                loop {
                    match b.get(m) {
                        None => return if complete { Some(true) } else { None },
                        Some(b' ' | b'\t' | b'\r' | b'\n') => m += 1,
                        Some(b'}' | b']') if to_end => m += 1,
                        Some(b',' | b'}' | b']') if !to_end => return Some(true),
                        Some(_) => break,
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(false)
}

/// `if [[ -f "$f" ]]; then`, `"a "b" } c"`: after a string's quote at `b[j]` come closers,
/// then a word. The closers are string content when a quote later on the line (or further
/// on, for closers the open containers do not take) can end the string. `open` lists the closers the open containers take,
/// innermost first: when the closers close them all, the quote must end the text too, for
/// prose after a document quotes words as well. `None`: more text is needed to tell.
pub(crate) fn words_after_closers(
    b: &[u8],
    j: usize,
    mut open: impl Iterator<Item = u8>,
    complete: bool,
) -> Option<bool> {
    let mut k = j;
    let mut closes_all = true;
    let mut depth_left = true;
    loop {
        match b.get(k) {
            None => return complete.then_some(false),
            Some(b' ' | b'\t') => {}
            Some(&c @ (b'}' | b']')) => match open.next() {
                Some(want) if want == c => {}
                Some(_) => closes_all = false,
                None => depth_left = false,
            },
            Some(_) => break,
        }
        k += 1;
    }
    let word = b[k].is_ascii_alphanumeric()
        || b[k] >= 0x80
        || matches!(
            b[k],
            b'$' | b'-' | b'_' | b'.' | b';' | b'&' | b'|' | b'!' | b'<' | b'>' | b'='
        );
    if !word || k == j {
        return Some(false);
    }
    let root = closes_all && (!depth_left || open.next().is_none());
    // Closers of the wrong kind cannot be the document's: the string's end may be some
    // lines on (`if [[ -f "$f" ]]; then` in a script written with raw line breaks).
    string_end_ahead(b, k, root, !closes_all, complete)
}

/// What may follow a template's `{{` before its name (see `template_placeholder`).
pub(crate) const TEMPLATE_SIGILS: &[u8] = b"#/^>!&";

/// Whether `b[i..]` (before `limit`) is a template placeholder, `{{name}}` or `{{ name }}`:
/// two braces, a word (after a Mustache sigil, maybe), two braces. `None`-free: the text's
/// end makes it no placeholder.
pub(crate) fn template_placeholder(b: &[u8], i: usize, limit: usize) -> bool {
    let Some(inner) = b.get(i..limit.min(b.len())) else {
        return false;
    };
    let Some(rest) = inner.strip_prefix(b"{{") else {
        return false;
    };
    // Mustache's sections and partials: `{{#items}}`, `{{/items}}`, `{{^empty}}`, `{{> row}}`.
    let rest = match rest.split_first() {
        Some((c, name)) if TEMPLATE_SIGILS.contains(c) => name,
        _ => rest,
    };
    let word = rest
        .iter()
        .position(|&c| !(is_ident(c) || matches!(c, b' ' | b'.')))
        .unwrap_or(rest.len());
    word > 0 && rest[word..].starts_with(b"}}")
}

/// Where the comment that starts at `b[i]` ends (`//` to the line's end, `/*` past its
/// `*/`, or the text's end), if one starts there.
pub(crate) fn comment_end(b: &[u8], i: usize) -> Option<usize> {
    let line_end = |from: usize| memchr::memchr(b'\n', &b[from..]).map_or(b.len(), |n| from + n);
    match (b.get(i)?, b.get(i + 1)) {
        (b'/', Some(b'/')) => Some(line_end(i)),
        (b'/', Some(b'*')) => {
            Some(memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |n| i + 2 + n + 2))
        }
        // (Not `#`: in prose it starts a Markdown heading more often than a comment.)
        _ => None,
    }
}

/// The JSON text of a literal word, JSON's own or Python's or JavaScript's.
/// Whether `s` holds `quote` with no backslash escaping it (`\\"` is an escape).
fn has_unescaped(s: &[u8], quote: u8) -> bool {
    let mut k = 0;
    while let Some(n) = s
        .get(k..)
        .and_then(|rest| memchr::memchr2(quote, b'\\', rest))
    {
        if s[k + n] == quote {
            return true;
        }
        k += n + 2;
    }
    false
}

/// Whether the byte at `i` is escaped: an odd number of backslashes right before it.
pub(crate) fn escaped_at(b: &[u8], i: usize) -> bool {
    b[..i].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1
}

pub(crate) fn literal_word(w: &[u8]) -> Option<&'static str> {
    Some(match w {
        b"true" | b"True" | b"TRUE" => "true",
        b"false" | b"False" | b"FALSE" => "false",
        b"null" | b"None" | b"none" | b"NULL" | b"Null" | b"nil" | b"undefined" => "null",
        b"NaN" | b"Infinity" => "null",
        _ => return None,
    })
}

/// The length of the `\uXXXX` escape at `b[i]` (12 for a surrogate pair), or None when it
/// is cut short or a lone surrogate.
fn unicode_escape_len(b: &[u8], i: usize) -> Option<usize> {
    let unit = |at: usize| {
        b.get(at..at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .map(hex4)
    };
    match unit(i + 2)? {
        0xD800..=0xDBFF => {
            (b.get(i + 6..i + 8) == Some(b"\\u")).then_some(())?;
            (0xDC00..=0xDFFF).contains(&unit(i + 8)?).then_some(12)
        }
        0xDC00..=0xDFFF => None,
        _ => Some(6),
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

fn hex4(h: &[u8]) -> u32 {
    h.iter().fold(0, |acc, &c| {
        acc * 16
            + match c {
                b'0'..=b'9' => (c - b'0') as u32,
                b'a'..=b'f' => (c - b'a' + 10) as u32,
                b'A'..=b'F' => (c - b'A' + 10) as u32,
                _ => 0,
            }
    })
}

/// The end of a number-like run at `start`: sign, digits, `.`, exponent, hex digits, `_`.
fn scan_number(b: &[u8], start: usize, end: usize) -> usize {
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

/// Strict RFC 8259 number grammar.
fn is_json_number(s: &[u8]) -> bool {
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
fn parse_number_like(s: &[u8]) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time answer `plain_run_end` must match.
    fn plain_run_end_naive(b: &[u8], start: usize, end: usize) -> usize {
        (start..end)
            .find(|&i| STRING_SPECIAL[b[i] as usize])
            .unwrap_or(end)
    }

    #[test]
    fn word_check_finds_every_special_byte_at_every_position() {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut w = *b"abcdefgh";
                w[at] = byte;
                assert_eq!(
                    has_string_special(u64::from_le_bytes(w)),
                    STRING_SPECIAL[byte as usize],
                    "byte {byte:#04x} at {at}"
                );
            }
        }
    }

    #[test]
    fn json_number_end_agrees_with_the_grammar() {
        // Every string over a small alphabet up to length 5: a whole number by one is a
        // whole number by the other.
        let alphabet = b"-+.eE0120";
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..5 {
            let longer: Vec<Vec<u8>> = words
                .iter()
                .filter(|w| w.len() == words.last().map_or(0, Vec::len))
                .flat_map(|w| {
                    alphabet.iter().map(move |&c| {
                        let mut w = w.clone();
                        w.push(c);
                        w
                    })
                })
                .collect();
            words.extend(longer);
        }
        for w in &words {
            assert_eq!(
                json_number_end(w, 0, w.len()) == Some(w.len()),
                is_json_number(w),
                "{:?}",
                String::from_utf8_lossy(w)
            );
        }
    }

    #[test]
    fn plain_run_end_matches_the_byte_loop() {
        // Random bytes weighted towards the ones near the special values, every offset.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let alphabet = b"a \x1f\x20\"'`\\\xe2\xe1\xe3\x80\x7f!#_z\x00\x21\x5b\x5d";
        for len in 0..40 {
            for _ in 0..50 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        alphabet[(state % alphabet.len() as u64) as usize]
                    })
                    .collect();
                for start in 0..=len {
                    for end in start..=len {
                        assert_eq!(
                            plain_run_end(&b, start, end),
                            plain_run_end_naive(&b, start, end),
                            "{b:?} {start}..{end}"
                        );
                    }
                }
            }
        }
    }
}
