//! The incremental parser: its state (`Parser`, `Mode`, the stack of open `Frame`s) and the
//! dispatch between tokens (`run`, `step`, `token`, `separator`). The rules for each kind of
//! token are `impl Parser` blocks in the sibling modules: `document` (prose, fences,
//! reasoning blocks, comments), `strings`, `keys` (keys and colons), `words` (bare words,
//! numbers, literals, calls), `containers` (openers, closers, whole containers).

use super::bytes::{string_stop, typo_quote_at};
use super::events::EventLog;
use super::lookahead::{
    bare_member_string, comma_then_member, key_follows, windows_path, After, BareEnd,
};
use super::strings::PlainRun;
use super::tree::{Kind, Node};
use super::words::is_word_byte;
#[cfg(test)]
use super::WHOLE_MIN_SCAN;
use super::{whole, STREAM_DEPTH_LIMIT};
use crate::text::{fence_value_start, is_ws, starts_with_partial, ELLIPSIS, FULL_WIDTH_COLON};
use crate::{NonFinite, Options};
use std::collections::HashSet;

/// Where the parser is. The modes between tokens come first, so that telling them apart
/// from the rest (`is_structural`) is one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// In an object, expecting a key or `}`.
    Key,
    /// After a quoted key, expecting `:`.
    Colon,
    /// After `:`, expecting the member's value.
    MemberValue,
    /// In an array, expecting an element or `]`.
    Element,
    /// After a value inside a container: expecting `,` or the closer. A number or literal
    /// waiting for that confirmation is in `Parser::pending`.
    AfterValue,
    /// Before the value: skipping prose and fences up to the first `{` or `[`.
    Prose,
    /// Inside a reasoning block before the value, up to this closing tag.
    Think(&'static [u8]),
    /// On a code fence's line (```` ```json ````) before the value: skipped to its end.
    FenceLine,
    /// Inside a string opened by `quote`; `key` if it is an object key.
    /// `windows`: the content starts like `C:\x`, so every backslash but `\"` and `\\`
    /// is a path separator (the engine's rule).
    Str { quote: u8, key: bool, windows: bool },
    /// Inside an unquoted key (it ends at `:`).
    KeyWord,
    /// Inside a bare value: a number or a literal (it ends at any other character).
    ValueWord,
    /// The root value closed; the rest is for `finish`.
    Done,
    /// Something uncertain was met; the rest is for `finish`.
    Frozen,
}

impl Mode {
    /// Between tokens: `Key` to `AfterValue`.
    fn is_structural(self) -> bool {
        matches!(
            self,
            Mode::Key | Mode::Colon | Mode::MemberValue | Mode::Element | Mode::AfterValue
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Comment {
    /// `//` or `#`, up to the end of the line.
    Line,
    /// `/* … */`.
    Block,
}

/// An open container.
#[derive(Debug)]
pub(super) struct Frame {
    pub(super) node: usize,
    /// Its last child (`NONE` while it has none), whose key names the string being read.
    pub(super) last: u32,
    /// How many children.
    pub(super) len: usize,
    pub(super) object: bool,
    /// One bit per key seen (`key_mix`): a key whose bit is clear is no duplicate.
    pub(super) key_bits: u64,
    /// Hashes of the keys of a wide object (small ones are scanned): a duplicate key
    /// freezes the stream (the one-shot engine's policy decides which value wins).
    pub(super) key_hashes: Option<HashSet<u64>>,
    /// Length of `Parser::ptr` before this container's own segment was added.
    pub(super) ptr_len: usize,
    /// Its `{` was doubled (`{{"a": 1}}`) and the second one dropped: a `}` right after
    /// its own may be the extra one or its parent's.
    pub(super) doubled: bool,
}

pub(super) enum Step {
    /// Progress was made (or the mode changed): go on.
    Go,
    /// The bytes at `pos` cannot be decided until more text arrives.
    Wait,
}

#[derive(Debug)]
pub(super) struct Parser {
    /// Off in the test that holds `plain_value_run` to the general path's results.
    #[cfg(test)]
    pub(super) plain_fast: bool,
    /// Off in the test that holds `whole` to the general path's results.
    #[cfg(test)]
    pub(super) whole_fast: bool,
    /// `WHOLE_MIN_SCAN`, which that test lowers so that short texts take the lane too.
    #[cfg(test)]
    pub(super) whole_min_scan: usize,
    /// How many bytes scans for whole containers may still spend in vain: two per byte
    /// pushed, so that failed scans (a container cut by the text's end, or one that needs
    /// the repair rules) cost at most twice the text, however deep the nesting.
    pub(super) whole_budget: usize,
    /// The text's length at the last `run`.
    pub(super) seen: usize,
    pub(super) whole_scratch: whole::Scratch,
    /// Where each whole container's JSON is in the text pushed (see `Kind::Json`).
    pub(super) whole_spans: Vec<(usize, usize)>,
    pub(super) pos: usize,
    pub(super) mode: Mode,
    pub(super) comment: Option<Comment>,
    pub(super) stack: Vec<Frame>,
    pub(super) nodes: Vec<Node>,
    /// The text of all nodes, back to back (see `Node`). Only the string being read grows
    /// in place: nothing else is written while it is open. A key and a bare value are read
    /// straight into its end, where their node will find them.
    pub(super) arena: String,
    /// JSON pointer of the innermost open container.
    pub(super) ptr: String,
    /// Where in the arena the key being read starts; it runs to the arena's end, complete
    /// and waiting for its value once `pending_key` is set.
    pub(super) key_start: usize,
    /// Where the quoted key being read (or read last) starts in the text, past its quote.
    pub(super) key_open: usize,
    pub(super) pending_key: bool,
    /// A number or literal waiting for `,` `}` or `]` (its text is the arena's end, from
    /// `word_start`).
    pub(super) pending: Option<Kind>,
    /// Where in the arena the bare word being read starts.
    pub(super) word_start: usize,
    /// The string value being read: its node and, once an event needed it, its pointer.
    pub(super) current: usize,
    pub(super) current_path: String,
    pub(super) current_path_known: bool,
    /// Whether the single-quoted string being read holds a `"` (only the first may close
    /// it, as the engine reads it).
    pub(super) double_quote_seen: bool,
    /// The end of the string value's content that the engine could still cut off.
    pub(super) held: String,
    /// The string value being read (or last read) holds a quote of its own kind taken as
    /// content (`'don't'`), which turns some of the engine's rules off (its
    /// `inner_quote_seen`).
    pub(super) inner_quote: bool,
    /// The quote that opened the string value being read (or last read); 0 for a Windows
    /// path.
    pub(super) value_quote: u8,
    /// Just past the closing quote of the string value that ended last, until what follows
    /// it confirms that the quote closes the string.
    pub(super) string_end: Option<usize>,
    /// Only whitespace, reasoning blocks and fence lines so far: a bracket here opens the
    /// value without the plausibility check prose needs.
    pub(super) text_start: bool,
    /// Between an opening and a closing fence line, where the engine trusts any bracket.
    pub(super) in_fence: bool,
    /// Right after an opening fence's line (spaces aside), where the engine reads a
    /// document that lost its `{` as at the text's start.
    pub(super) fence_start: bool,
    /// Before the value, only spaces since the last line break (or a comment's end).
    pub(super) prose_line_start: bool,
    /// The text (or a fence) starts with a bare key and its colon (`name: "Ada", …`), and no
    /// `{` has come yet: the engine reads such a text as an object that lost its `{` when no
    /// `{` comes at all and its last byte is `}`. So a `[` after more members opens nothing
    /// until a `{` rules that out; right after the colon it opens the value as usual
    /// (`Result: [1, 2]`: prose and an answer, unless the text ends with a stray `}`).
    /// `(colon, k)`: where the colon is, and that the text before `k` holds no `{`.
    pub(super) bare_key_start: Option<(usize, usize)>,
    /// The text starts with a call (`callback({…});`, `NumberLong(5)`) whose argument starts
    /// at this offset: the engine takes that argument as the value when the text ends with
    /// `)`, so no other bracket may open the value.
    pub(super) call_arg: Option<usize>,
    /// Something that is not JSON was met (prose, a comment, a single quote…), so the text
    /// is certainly not valid JSON and the engine reads it by its repair rules. Until then
    /// it may be valid, which the engine returns as serde_json reads it.
    pub(super) repaired: bool,
    pub(super) log: EventLog,
    pub(super) track_events: bool,
    /// The string node whose text the last event carries (`Set` or `Append`), so that the
    /// next growth extends that event.
    pub(super) last_append: Option<usize>,
    pub(super) revision: u64,
    pub(super) depth_limit: usize,
    pub(super) non_finite: NonFinite,
    /// The engine unescapes the whole text when its first bracket opens an escaped document
    /// (`{\"a\": 1}`): until that is ruled out, nothing after the bracket is read. `None`
    /// once ruled out; otherwise where the search for the first bracket goes on.
    pub(super) escape_check: Option<usize>,
    /// The first bracket, here, opens an escaped document: the `Repairer` unescapes the
    /// text from here on, as the engine does, and runs this parser on that text instead.
    pub(super) unescape_from: Option<usize>,
    /// A container whose `{` was doubled closed last (see `Frame::doubled`).
    pub(super) doubled_closed: bool,
    /// A short string element of an array, not shown yet: it may be a key (see
    /// `KEY_LIKE_LEN`). Where its opening quote is in the text, and
    /// where its content starts in the arena.
    pub(super) deferred: Option<(usize, usize)>,
}

impl Parser {
    pub(super) fn new(options: &Options) -> Parser {
        Parser {
            #[cfg(test)]
            plain_fast: true,
            #[cfg(test)]
            whole_fast: true,
            #[cfg(test)]
            whole_min_scan: WHOLE_MIN_SCAN,
            whole_budget: 0,
            seen: 0,
            whole_scratch: whole::Scratch::default(),
            whole_spans: Vec::new(),
            pos: 0,
            // Strict mode repairs nothing, so nothing partial can be promised.
            mode: if options.strict {
                Mode::Frozen
            } else {
                Mode::Prose
            },
            comment: None,
            stack: Vec::new(),
            nodes: Vec::new(),
            arena: String::new(),
            ptr: String::new(),
            key_start: 0,
            key_open: 0,
            pending_key: false,
            pending: None,
            word_start: 0,
            current: 0,
            current_path: String::new(),
            current_path_known: false,
            double_quote_seen: false,
            held: String::new(),
            inner_quote: false,
            value_quote: 0,
            string_end: None,
            text_start: true,
            in_fence: false,
            fence_start: false,
            prose_line_start: true,
            bare_key_start: None,
            call_arg: None,
            repaired: false,
            log: EventLog::default(),
            track_events: true,
            last_append: None,
            revision: 0,
            escape_check: Some(0),
            unescape_from: None,
            doubled_closed: false,
            deferred: None,
            depth_limit: options.max_depth.min(STREAM_DEPTH_LIMIT),
            non_finite: options.non_finite,
        }
    }

    #[inline(always)]
    pub(super) fn run(&mut self, text: &str) {
        let new = text.len().saturating_sub(self.seen);
        self.seen = text.len();
        self.whole_budget = self.whole_budget.saturating_add(2 * new);
        // Node offsets and ids are `u32`; the arena and the node count never outgrow the text.
        if text.len() > u32::MAX as usize && self.mode != Mode::Frozen {
            self.freeze();
        }
        if self.in_plain_value() {
            // The common push of a long stream: more of a string value (a tool call's
            // code). Straight to its loop, as `step` would go. (`plain_start` may show the
            // held-back end: that is growth too.)
            let from = self.arena.len();
            if self.plain_start(text) {
                let run = self.plain_value_run(text);
                self.grew(from);
                if !matches!(run, PlainRun::Stop) {
                    return;
                }
            }
        }
        if let Some(from) = self.escape_check {
            let b = text.as_bytes();
            match memchr::memchr2(b'{', b'[', &b[from..]) {
                // No bracket yet: the parser cannot open a value before one.
                None => self.escape_check = Some(b.len()),
                Some(k) => match crate::rules::escaped_document_at(b, from + k) {
                    None => {
                        // Undecided: read up to the bracket. An empty container is shown
                        // either way: unescaping keeps the bracket and what precedes it.
                        self.escape_check = Some(from + k);
                        return self.run_to(text, from + k + 1);
                    }
                    Some(true) => {
                        self.escape_check = None;
                        // A quote before the bracket: the bracket may be inside a JSON
                        // string the whole text is, or a member's string value (the engine
                        // reads neither as an escaped document), which the text's end
                        // decides.
                        if memchr::memchr(b'"', &b[..from + k]).is_some() {
                            self.freeze();
                        } else {
                            // The engine unescapes the text from the bracket on and repairs
                            // that: so does the `Repairer`, and this parser reads on there.
                            self.unescape_from = Some(from + k);
                            self.repaired = true;
                            return;
                        }
                    }
                    Some(false) => self.escape_check = None,
                },
            }
        }
        self.run_to(text, text.len());
    }

    /// Read `text[..end]`; the prose before the value may look further, at all of `text`.
    fn run_to(&mut self, text: &str, end: usize) {
        let full = text.as_bytes();
        let text = &text[..end];
        while self.pos < text.len() {
            if let Step::Wait = self.step(text, full) {
                break;
            }
        }
    }

    fn step(&mut self, text: &str, full: &[u8]) -> Step {
        if let Some(comment) = self.comment {
            return self.in_comment(text.as_bytes(), comment);
        }
        match self.mode {
            Mode::Prose => self.prose(text.as_bytes(), full),
            Mode::Think(close) => self.think(text.as_bytes(), close),
            Mode::FenceLine => {
                let rest = &text.as_bytes()[self.pos..];
                if self.in_fence {
                    // An opening fence: a value may start on its own line (the engine's
                    // `fence_value_start`).
                    match fence_value_start(rest) {
                        None => return Step::Wait,
                        Some(Some(at)) => {
                            self.pos += at;
                            self.mode = Mode::Prose;
                            return Step::Go;
                        }
                        Some(None) => {}
                    }
                }
                match memchr::memchr(b'\n', rest) {
                    Some(i) => {
                        self.pos += i + 1;
                        self.mode = Mode::Prose;
                        self.fence_start = self.in_fence;
                    }
                    None => self.pos = text.len(),
                }
                Step::Go
            }
            Mode::Str {
                quote,
                key,
                windows,
            } => self.string(text, quote, key, windows),
            Mode::KeyWord => self.key_word(text),
            Mode::ValueWord => self.value_word(text),
            Mode::Done | Mode::Frozen => {
                self.pos = text.len();
                Step::Go
            }
            Mode::Key | Mode::Colon | Mode::MemberValue | Mode::Element | Mode::AfterValue => {
                self.structural(text)
            }
        }
    }

    /// How many members or elements the innermost container has.
    fn open_len(&self) -> usize {
        self.stack.last().map_or(0, |f| f.len)
    }

    pub(super) fn freeze(&mut self) -> Step {
        self.mode = Mode::Frozen;
        self.deferred = None;
        self.pending = None;
        self.pending_key = false;
        self.comment = None;
        self.held.clear();
        self.string_end = None;
        Step::Go
    }

    // ----- between tokens ---------------------------------------------------------------

    /// Between tokens: read tokens until one leaves the structure (a comment, a string or a
    /// word cut by the end of the text, the end of the value). Strings and words met here are
    /// read by direct calls, so the common path skips `step`'s dispatch.
    fn structural(&mut self, text: &str) -> Step {
        loop {
            if let Step::Wait = self.token(text) {
                return Step::Wait;
            }
            if !self.mode.is_structural() || self.comment.is_some() || self.pos >= text.len() {
                return Step::Go;
            }
        }
    }

    fn token(&mut self, text: &str) -> Step {
        let bytes = text.as_bytes();
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(self.pos) {
            self.pos += 1;
        }
        let Some(&b) = bytes.get(self.pos) else {
            return Step::Go;
        };
        if let Some(after) = self.string_end {
            return self.after_string(bytes, after);
        }
        match b {
            b'/' => {
                return match bytes.get(self.pos + 1) {
                    None => Step::Wait,
                    Some(b'/') => {
                        self.pos += 2;
                        self.comment = Some(Comment::Line);
                        self.repaired = true;
                        Step::Go
                    }
                    Some(b'*') => {
                        self.pos += 2;
                        self.comment = Some(Comment::Block);
                        self.repaired = true;
                        Step::Go
                    }
                    // A regex literal or a stray slash: the engine's call.
                    Some(_) => self.freeze(),
                };
            }
            b'#' => {
                // `# note` and `## note` are comments; `#abc` is a token to the engine.
                return match bytes.get(self.pos + 1) {
                    None => Step::Wait,
                    Some(b' ' | b'\t' | b'\n' | b'\r' | b'#' | b'!') => {
                        self.pos += 1;
                        self.comment = Some(Comment::Line);
                        self.repaired = true;
                        Step::Go
                    }
                    Some(_) => self.freeze(),
                };
            }
            b'`' => match starts_with_partial(&bytes[self.pos..], b"```") {
                // A closing code fence ends the document here; the engine closes it.
                Some(true) => return self.freeze(),
                None => return Step::Wait,
                Some(false) => {}
            },
            _ => {}
        }
        match self.mode {
            Mode::Key => match b {
                b'"' => {
                    // The common key: closed within the text, no escape in it (so no
                    // Windows path either), and `:` right after it.
                    let body = &bytes[self.pos + 1..];
                    match string_stop(body, b'"', Some(b'\'')) {
                        Some(i) if body[i] == b'"' => {
                            self.key_start = self.arena.len();
                            self.key_open = self.pos + 1;
                            self.arena.push_str(&text[self.pos + 1..self.pos + 1 + i]);
                            self.pos += i + 2;
                            if !self.complete_key() {
                                return self.freeze();
                            }
                            if bytes.get(self.pos) == Some(&b':') {
                                self.pos += 1;
                                self.mode = Mode::MemberValue;
                            } else {
                                self.mode = Mode::Colon;
                            }
                            Step::Go
                        }
                        _ => self.quoted_key(text, b),
                    }
                }
                b'\'' | b'`' => self.quoted_key(text, b),
                0xE2 => match typo_quote_at(&bytes[self.pos..]) {
                    None => Step::Wait,
                    Some(Some(quote)) => self.quoted_key(text, quote),
                    Some(None) => self.freeze(),
                },
                // `{"a": 1,, "b": 2}`, `{, "a": 1}`: the engine drops a comma where a key
                // should be.
                b',' => {
                    self.repaired = true;
                    self.pos += 1;
                    Step::Go
                }
                // `{"a": 1, ...}`: an ellipsis where a key should be, dropped.
                b'.' => self.dropped_ellipsis(bytes),
                // `{{"a": 1}}`: a doubled opener, dropped (the engine's
                // `doubled_object_opener`); its extra `}` is for `separator` to judge.
                b'{' if self.open_len() == 0
                    && bytes[..self.pos].iter().rev().find(|&&c| !is_ws(c)) == Some(&b'{') =>
                {
                    if let Some(frame) = self.stack.last_mut() {
                        frame.doubled = true;
                    }
                    self.repaired = true;
                    self.pos += 1;
                    Step::Go
                }
                b'}' => {
                    // After a member, `Key` is reached through a comma: a trailing one.
                    self.repaired |= self.open_len() > 0;
                    self.close()
                }
                _ if text[self.pos..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
                {
                    self.key_start = self.arena.len();
                    self.repaired = true;
                    self.mode = Mode::KeyWord;
                    Step::Go
                }
                _ => self.freeze(),
            },
            Mode::Colon => match b {
                b':' => {
                    self.pos += 1;
                    self.mode = Mode::MemberValue;
                    Step::Go
                }
                // `{"tool: "bash", …}`: the key's closing quote went before its value, and
                // a word right after it makes it content to the engine, which ends the key
                // at its colon instead (`close_key_at_colon`).
                _ if (b.is_ascii_alphabetic() || b == b'_') && self.key_holds_its_colon(bytes) => {
                    Step::Go
                }
                // No colon after a key that holds one: the engine may end the key there
                // (`{" 2: 1, "…`, a key that lost its closing quote): its call.
                _ if self
                    .arena
                    .as_bytes()
                    .get(self.key_start..)
                    .is_some_and(|key| key.contains(&b':')) =>
                {
                    self.freeze()
                }
                // `{"a" = 1}`, `{"a" => 1}`: the engine reads `=` and `=>` as the colon.
                b'=' => match bytes.get(self.pos + 1) {
                    None => Step::Wait,
                    Some(&next) => {
                        self.pos += if next == b'>' { 2 } else { 1 };
                        self.repaired = true;
                        self.mode = Mode::MemberValue;
                        Step::Go
                    }
                },
                // `{"a"：1}`: a full-width colon.
                0xEF => match starts_with_partial(&bytes[self.pos..], FULL_WIDTH_COLON) {
                    None => Step::Wait,
                    Some(true) => {
                        self.pos += FULL_WIDTH_COLON.len();
                        self.repaired = true;
                        self.mode = Mode::MemberValue;
                        Step::Go
                    }
                    Some(false) => self.freeze(),
                },
                // `{"a" }`: a key with no value is null.
                b'}' => self.empty_member_value(),
                // The key may be an element of an array that lost its `[`
                // (`{"tags": "a", "b"]}`): the engine's call.
                b',' | b']' => self.freeze(),
                // `{"a"1 "b": 2}`: a word right after the quote may make the quote content
                // (the engine's call).
                _ if (b.is_ascii_alphanumeric() || b == b'_')
                    && !matches!(
                        bytes.get(self.pos.wrapping_sub(1)),
                        Some(b' ' | b'\t' | b'\n' | b'\r' | b'/')
                    ) =>
                {
                    self.freeze()
                }
                // `{"a" 1}`, `{"name" "run"}`: the colon went missing; what follows is the
                // value, read as after a colon.
                _ => {
                    self.repaired = true;
                    self.mode = Mode::MemberValue;
                    Step::Go
                }
            },
            Mode::MemberValue | Mode::Element => match b {
                // `[1, 2, ...]`, `"rest": …`: an ellipsis where a value should be.
                b'.' | 0xE2 => {
                    let dots: &[u8] = if b == b'.' { b"..." } else { ELLIPSIS };
                    match starts_with_partial(&bytes[self.pos..], dots) {
                        None => Step::Wait,
                        Some(true) => self.ellipsis(),
                        Some(false) if b == 0xE2 => self.typographic_value(text),
                        Some(false) => self.freeze(),
                    }
                }
                b'"' | b'\'' | b'`' => match windows_path(&bytes[self.pos + 1..]) {
                    None => Step::Wait,
                    Some(windows) => {
                        self.repaired |= b != b'"' || windows;
                        match self.open_string(b, windows) {
                            Step::Go if self.mode != Mode::Frozen => {
                                self.string(text, b, false, windows)
                            }
                            step => step,
                        }
                    }
                },
                b'{' | b'[' => match self.whole(text) {
                    Some(step) => step,
                    None => self.open(b == b'{'),
                },
                b']' if self.mode == Mode::Element => {
                    self.repaired |= self.open_len() > 0;
                    self.close()
                }
                b',' | b'}' if self.mode == Mode::MemberValue => self.empty_member_value(),
                // `[1,,2]`, `[,1]`: a hole in an array; the engine drops the extra comma.
                b',' => {
                    self.repaired = true;
                    self.pos += 1;
                    Step::Go
                }
                // `"model":: "x"`: a doubled colon.
                b':' if self.mode == Mode::MemberValue => {
                    self.repaired = true;
                    self.pos += 1;
                    Step::Go
                }
                // `"status": success,`, `"answer": Paris}`, `[red, green]`: a bare string
                // as a member's value or an element.
                _ if b.is_ascii_alphabetic() => {
                    match bare_member_string(bytes, self.pos, self.mode == Mode::Element) {
                        None => Step::Wait,
                        Some(Some(BareEnd::Token(token_end))) => {
                            self.bare_string(text, token_end, token_end)
                        }
                        Some(Some(BareEnd::Quote(quote))) => {
                            self.bare_string(text, quote, quote + 1)
                        }
                        Some(None) => {
                            self.word_start = self.arena.len();
                            self.mode = Mode::ValueWord;
                            self.value_word(text)
                        }
                    }
                }
                _ if is_word_byte(b) => {
                    self.word_start = self.arena.len();
                    self.mode = Mode::ValueWord;
                    self.value_word(text)
                }
                _ => self.freeze(),
            },
            Mode::AfterValue => self.separator(bytes, b),
            _ => self.freeze(),
        }
    }

    /// After a value, at `b`: a comma or the container's closer confirms a waiting number
    /// or literal and moves on; anything else (a missing comma, a wrong closer, `+`
    /// concatenation, an inner quote that did not end its string) is the engine's call.
    pub(super) fn separator(&mut self, bytes: &[u8], b: u8) -> Step {
        let object = self.stack.last().is_some_and(|f| f.object);
        // `{"a": {{"b": 1}}, "c": 2}`: the engine may drop a doubled opener's extra closer
        // or close the parent with it; which, the closers up to the text's end tell.
        if std::mem::take(&mut self.doubled_closed) && b == b'}' {
            return self.freeze();
        }
        match b {
            b',' => {
                if object && self.pending.is_some() {
                    // `{"n": 1, 2, 3]`: the member's value may be an array that lost its
                    // `[` (the engine's rule); only a next member confirms the number.
                    match comma_then_member(bytes, self.pos + 1, After::Number) {
                        None => return Step::Wait,
                        Some(false) => return self.freeze(),
                        Some(true) => {}
                    }
                }
                if !self.commit_pending() {
                    return Step::Go;
                }
                self.pos += 1;
                self.mode = if object { Mode::Key } else { Mode::Element };
                Step::Go
            }
            b'}' if object => {
                if !self.commit_pending() {
                    return Step::Go;
                }
                self.close()
            }
            b']' if !object => {
                if !self.commit_pending() {
                    return Step::Go;
                }
                self.close()
            }
            // `"hp": 33\n  "inventory": […]`: a member's number, literal or container, then
            // the next member with its comma lost: the engine inserts the comma, as soon as
            // the quoted key and its colon show it is one.
            b'"' if object => match key_follows(bytes, self.pos) {
                None => Step::Wait,
                Some(false) => self.freeze(),
                Some(true) => {
                    if !self.commit_pending() {
                        return Step::Go;
                    }
                    self.repaired = true;
                    self.mode = Mode::Key;
                    Step::Go
                }
            },
            // `[1 2 3]`, `[true false]`, `[0.5\n-1]`: an element's number or literal, then
            // layout and a number or literal: the comma went missing. The engine ends the
            // first there (no phrase starts, no operator follows), inserts the comma and
            // reads on.
            c if !object
                && matches!(self.pending, Some(Kind::Num | Kind::Bool(_) | Kind::Null))
                && bytes
                    .get(self.pos.wrapping_sub(1))
                    .copied()
                    .is_some_and(is_ws)
                && (c.is_ascii_alphanumeric() || c == b'-') =>
            {
                if c == b'-' {
                    match bytes.get(self.pos + 1) {
                        None => return Step::Wait,
                        Some(d) if d.is_ascii_digit() => {}
                        // `1 - 2` is an expression to the engine, `1 -x` its call too.
                        Some(_) => return self.freeze(),
                    }
                } else if c.is_ascii_alphabetic() {
                    // A word starts a phrase (`[10 items]` is one string) unless it is a
                    // literal. (Measured within a few bytes: the engine looks only so far.)
                    let gap = bytes[..self.pos]
                        .iter()
                        .rev()
                        .take(16)
                        .take_while(|&&c| is_ws(c))
                        .count();
                    let run = bytes[self.pos..]
                        .iter()
                        .take(16)
                        .take_while(|c| c.is_ascii_alphabetic())
                        .count();
                    if gap >= 16 || run >= 16 {
                        return self.freeze();
                    }
                    if self.pos + run == bytes.len() {
                        return Step::Wait;
                    }
                    let word = &bytes[self.pos..self.pos + run];
                    if crate::text::literal_word(word).is_none() {
                        return self.freeze();
                    }
                }
                if !self.commit_pending() {
                    return Step::Go;
                }
                self.repaired = true;
                self.mode = Mode::Element;
                Step::Go
            }
            // `[{"a": 1} ... {"b": 2}]`: an ellipsis after a container, dropped. (After a
            // number or literal the engine's reading of the word's end decides.)
            b'.' if self.pending.is_none() => self.dropped_ellipsis(bytes),
            // `[{"id": 1}\n {"id": 2}]`: a container element, then the next one with the
            // comma lost between them: the engine inserts it.
            b'{' | b'[' if !object && self.pending.is_none() && self.last_is_container() => {
                self.repaired = true;
                self.mode = Mode::Element;
                Step::Go
            }
            _ => self.freeze(),
        }
    }
}
