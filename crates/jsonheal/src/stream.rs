//! Streaming repair: feed text as it arrives, read a stable partial value at any moment.
//!
//! [`Repairer`] keeps a resumable parser (tokenizer state, a stack of open containers and a
//! partial value tree) across [`Repairer::push`] calls, so every byte is looked at once and the
//! total work over a stream is linear in its length whatever the chunk size. Nothing is
//! re-parsed from the start.
//!
//! Partial values are **stable**: a snapshot never shows what the final value contradicts.
//! Strings only grow; a member appears once its key is complete and its value has begun; a
//! number or literal appears once a `,`, `}` or `]` shows it can no longer change (`tru` and a
//! trailing `12` show nothing yet); a container appears when it opens, and one that arrives
//! whole, as strict JSON, within a push appears whole, in one event. The repairs that are
//! certain while streaming are applied at once: single-quoted, backtick and typographic
//! (`“name”`, `‘name’`) strings, unquoted keys and keys that lost their opening quote (`model": 1`), lost
//! colons (`"name" "run"`, `=`, `=>`, `：`, and bare keys' `host = "x"`), members with no value (`"a": ,` is null),
//! `//` `/* */` `#` comments, Python literals and string prefixes (`u'name'`; a raw string,
//! `r'\d'`, is left to `finish`), trailing commas, invalid escapes, ellipses
//! (`[1, 2, ...]`), string concatenation (`"a" + "b"`), apostrophes in single-quoted words
//! (`'don't'`), a document that lost its `{` (`"name": "Ada", …}`), and prose, code fences
//! and reasoning blocks (`<think>`…) before the value. A member's value or an element in
//! bare words (`"status": success,`, `[red, green]`, a bare path `C:\Users\me`) appears
//! whole once what ends it and the rest of its line show the engine reads it as a string;
//! so do bare version numbers, dates and addresses (`1.2.3`, `2024-01-15`,
//! `192.168.1.10`) and `nan`, `+Infinity`, once a separator ends them and their line has
//! ended, and every other literal spelling the engine knows (`TRUE`, `NULL`, `nil`). So do, as the engine reads them: a document whose
//! quotes are all escaped (`{\"name\": \"Ada\"}`, unescaped once from its first bracket
//! on); a string value that lost its closing quote before the next key (`"role": "designer,
//! "skills": []`); keys that lost their closing quote to their colon (`{"tool: "bash"}`),
//! that the other quote closes (`"action': "Write"`), or, bare, their colon (`{name "Ada"}`,
//! `tags [1]`, `count 2}`); wrapper calls (`ObjectId("…")` is its argument,
//! `NumberLong("42")` the number, `Timestamp(1, 2)` its text), once their `)` is in; and a
//! key in an array with no object around it (`["name": "Alice", …}]`), the first key of an
//! object that lost its `{`.
//!
//! Where the one-shot engine decides by looking ahead, the stream waits for the same bytes
//! and judges them by the same rules: whether a closing quote ends its string (what follows
//! it: `,` then a key, a closer, a comment), whether a bracket in prose opens JSON, whether
//! a string is a Windows path (`C:\new` keeps its backslashes). So a string value appears a
//! few bytes after its quote, and a string's trailing spaces (and a trailing `,` before
//! them) are withheld until what follows shows they are content. A short string (up to 64 bytes, on one line) appears once
//! what follows its closing quote shows it is a value: until then it may be a key whose
//! array lost its `]` or whose object lost its `{` (`{"user": "name": "Ana"}`), or, as a
//! member's value, the first element of an array that lost its `[` (`{"tags": "a", "b"]}`);
//! a number or literal member value waits for the next key for the same reason. Longer
//! strings appear as they arrive. A comma lost before an object's next member (after a
//! number, literal or container, `"hp": 33 "mp": 7`, or at the end of a string's line,
//! `"name": "Bob"\n "age": 25`), between an array's container elements (`{…}\n{…}`) or
//! between its numbers and literals (`[1 2 3]`) is inserted, as the engine does. On anything else it cannot settle alone (an inner quote
//! that a comma, a line break or a possible key surrounds, any other missing comma, a wrong
//! closer, a call whose argument is no plain number or string, a duplicate key, a quote
//! before an escaped document (the whole text may be one JSON string), a key in an array
//! inside an object (the closers to the text's end decide), a fence that may hold one
//! scalar…) the stream *freezes*: the snapshot keeps what it had, and
//! [`Repairer::finish`] decides.
//!
//! ```
//! use jsonheal::stream::{OpRef, Repairer, Shown};
//!
//! let mut r = Repairer::new();
//! r.push("Sure: {'city': 'Par");
//! // A short string waits for its closing quote and what follows it.
//! assert_eq!(r.snapshot(), Some(serde_json::json!({})));
//! r.push("is', pop: 21");
//! // `21` could still grow: withheld.
//! assert_eq!(r.snapshot(), Some(serde_json::json!({"city": "Paris"})));
//! r.events(); // drain
//! r.push("00000}");
//! let events: Vec<_> = r.events().collect();
//! assert_eq!(events[0].path, "/pop");
//! assert_eq!(events[0].op, OpRef::Set(Shown::Number("2100000")));
//! assert_eq!(events[0].to_event().op, jsonheal::stream::Op::Set(serde_json::json!(2100000)));
//! # Ok::<(), jsonheal::Error>(())
//! ```
//!
//! Cost: the total is linear in the text, whatever the chunk size. An object or array that
//! a push brings whole, as strict JSON, is measured by a validator-speed scan and kept as
//! its text (one node, one [`Shown::Json`] event) instead of a node and an event per value:
//! in chunks of a kilobyte or more, pushing valid JSON and reading all its events costs
//! 1.5–3× a one-shot [`crate::repair`] of the whole text (which, for valid input, only
//! validates it; one long string, which the stream also decodes, is the dearest). Scans
//! that fail (a container cut by the chunk's end, or one the repair
//! rules must read) spend at most two bytes per byte pushed. Each push also has a fixed
//! cost (decoding, the parser's dispatch, an append event) of a few hundred instructions,
//! so a stream in very small pieces (16 bytes) costs 1.2–3× more: the most for dense small
//! values, where nothing arrives whole. See `benches/stream.rs`. A
//! [`Repairer::snapshot`] is proportional to the value's size: build one when
//! [`Repairer::revision`] moved, or follow [`Repairer::events`].
//!
//! Limits, where a later part of the text changes what came before (no stream can foresee
//! these): only an object or array root is streamed (a bare top-level scalar appears at
//! `finish`); after the root closes, the rest is left to `finish`, so a second top-level
//! value (combined into an array by [`crate::Multiple::Array`]) or a later fenced value
//! (the engine prefers a fenced answer to one in prose) makes a final value that earlier
//! snapshots did not show; a member's value followed by more elements and a `]`
//! (`"items": {…}, {…}]`, [`crate::RepairKind::MissingArrayOpener`]) becomes an array after
//! the stream showed it as the value; a text that starts with a bare key and its colon and
//! ends with a stray `}` (`Result: [1, 2]}`) is an object that lost its `{` to the engine,
//! after the stream showed the array (when more members come before the `[`, as in
//! `name: "Ada", tags: ["x"]}`, the stream waits for a `{` that rules this out, or for
//! `finish`); a document that lost its `{` whose first bracket comes later, in a string
//! that is no member's value and holds an escaped document (`"a": "x" "{\"b\": 1}"`), is
//! that string to the engine (a JSON string holding a document is kept a string), after the
//! stream showed the object; and with [`crate::DuplicateKeys::Keep`] or `Last` a repeated
//! key replaces a value already shown (the stream freezes there). Containers nested deeper
//! than 512 levels (or `Options::max_depth`) freeze the stream.
//!
use std::collections::HashSet;

use serde_json::{Map, Number, Value};

use crate::{repair_with, Error, NonFinite, Options, Repaired};

mod whole;

/// A string element of an array may turn out to be a key while it is at most this long and
/// on one line, when a `:` follows it: of the object around the array, whose `]` went
/// missing (`{"tags": ["a", "count": 2}`), or of an object in the array that lost its `{`
/// (`[{"a": 1}, "b": 2}]`). The stream holds such an element back until it is longer or
/// its closing quote is followed by something else.
pub(crate) const KEY_LIKE_LEN: usize = 64;

/// A container that opens this close to the text's end is rarely whole yet: a scan for its
/// end is not tried (at 16-byte chunks, failed scans would cost 5% more).
const WHOLE_MIN_SCAN: usize = 32;

/// Nesting deeper than this freezes the stream: it bounds the recursion of
/// [`Repairer::snapshot`] and of dropping the value it returns.
const STREAM_DEPTH_LIMIT: usize = 512;

/// One change to the partial value, addressed by a JSON pointer (RFC 6901; `""` is the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Where the change happened: `/items/3/name`.
    pub path: String,
    /// What happened there.
    pub op: Op,
}

/// What an [`Event`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// A value appeared at the path: a new member or element (the index is the array's new
    /// last one), an empty container that just opened, a whole container that arrived
    /// complete, a string that just started (`""`), or a scalar that is now final.
    Set(Value),
    /// The string at the path grew by this text.
    Append(String),
}

/// An [`Event`] as [`Repairer::events`] hands it out: borrowed from the repairer, so
/// following a stream allocates nothing per change. [`EventRef::to_event`] makes it owned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRef<'a> {
    /// Where the change happened: `/items/3/name`.
    pub path: &'a str,
    /// What happened there.
    pub op: OpRef<'a>,
}

/// What an [`EventRef`] did (see [`Op`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpRef<'a> {
    /// A value appeared at the path.
    Set(Shown<'a>),
    /// The string at the path grew by this text.
    Append(&'a str),
}

/// A value as it appears: containers empty (or whole, as their JSON text, when they
/// arrived complete), strings as far as they have come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown<'a> {
    Null,
    Bool(bool),
    /// JSON number text, final (`12`, `-0.5e3`).
    Number(&'a str),
    String(&'a str),
    /// `[]`
    Array,
    /// `{}`
    Object,
    /// A whole object or array that arrived complete since the last read, as its JSON text
    /// (valid JSON, as in the input: `{"id": 7, "tags": ["a"]}`).
    Json(&'a str),
}

impl Shown<'_> {
    /// As a `serde_json::Value` (numbers exact, as in the final value).
    pub fn to_value(self) -> Value {
        match self {
            Shown::Null => Value::Null,
            Shown::Bool(b) => Value::Bool(b),
            Shown::Number(text) => number(text),
            Shown::String(s) => Value::String(s.to_owned()),
            Shown::Array => Value::Array(Vec::new()),
            Shown::Object => Value::Object(Map::new()),
            Shown::Json(text) => json_value(text),
        }
    }
}

impl EventRef<'_> {
    /// The owned [`Event`].
    pub fn to_event(self) -> Event {
        Event {
            path: self.path.to_owned(),
            op: match self.op {
                OpRef::Set(shown) => Op::Set(shown.to_value()),
                OpRef::Append(s) => Op::Append(s.to_owned()),
            },
        }
    }
}

/// The changes since the last [`Repairer::events`] call, in order.
#[derive(Debug, Clone)]
pub struct Events<'a> {
    log: &'a EventLog,
    /// The parser's arena, where the events' texts are.
    arena: &'a str,
    /// The text pushed, where a whole container's JSON text is.
    source: &'a str,
    /// The path of the string being read, which an append to it names.
    current_path: &'a str,
    next: usize,
}

impl<'a> Iterator for Events<'a> {
    type Item = EventRef<'a>;

    fn next(&mut self) -> Option<EventRef<'a>> {
        let entry = self.log.entries.get(self.next)?;
        self.next += 1;
        Some(
            self.log
                .event(entry, self.arena, self.source, self.current_path),
        )
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.log.entries.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Events<'_> {}

/// The events since the last drain: their paths back to back in one buffer, their texts
/// ranges of the parser's arena (which only grows), so recording one costs a copy of the
/// path, not allocations.
#[derive(Debug, Default)]
struct EventLog {
    buf: String,
    entries: Vec<Entry>,
    /// The entry whose path is `CURRENT_PATH`, if any: an append to the string being read.
    current: Option<usize>,
    /// `events()` handed the entries out; the next change starts a new log.
    drained: bool,
}

/// `Entry::path` of an append whose path is the parser's `current_path`.
const CURRENT_PATH: (usize, usize) = (usize::MAX, usize::MAX);

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// `buf[path.0..path.1]`
    path: (usize, usize),
    /// `Some(kind)` for a Set, `None` for an Append.
    set: Option<Kind>,
    /// The string or number text: `arena[text.0..text.1]`; a whole container's JSON text:
    /// `Repairer::text[text.0..text.1]`.
    text: (usize, usize),
}

impl EventLog {
    /// Start over if the entries were handed out.
    fn fresh(&mut self) {
        if self.drained {
            self.drained = false;
            self.buf.clear();
            self.entries.clear();
            self.current = None;
        }
    }

    /// Copy `current_path` into the entry that names it, before it changes.
    fn settle_current(&mut self, current_path: &str) {
        if let Some(entry) = self.current.take().and_then(|i| self.entries.get_mut(i)) {
            let start = self.buf.len();
            self.buf.push_str(current_path);
            entry.path = (start, self.buf.len());
        }
    }

    fn event<'a>(
        &'a self,
        entry: &Entry,
        arena: &'a str,
        source: &'a str,
        current_path: &'a str,
    ) -> EventRef<'a> {
        let text = |r: (usize, usize)| arena.get(r.0..r.1).unwrap_or_default();
        let op = match entry.set {
            None => OpRef::Append(text(entry.text)),
            Some(kind) => OpRef::Set(match kind {
                Kind::Null => Shown::Null,
                Kind::Bool(b) => Shown::Bool(b),
                Kind::Num => Shown::Number(text(entry.text)),
                Kind::Str => Shown::String(text(entry.text)),
                Kind::Arr => Shown::Array,
                Kind::Obj => Shown::Object,
                Kind::Json => {
                    Shown::Json(source.get(entry.text.0..entry.text.1).unwrap_or_default())
                }
            }),
        };
        let path = if entry.path == CURRENT_PATH {
            current_path
        } else {
            self.buf.get(entry.path.0..entry.path.1).unwrap_or_default()
        };
        EventRef { path, op }
    }
}

/// An incremental repairer for JSON that arrives in pieces.
///
/// Memory is linear in the text pushed (the whole text is kept so that `finish` can run the
/// one-shot engine on it).
#[derive(Debug)]
pub struct Repairer {
    options: Options,
    /// Every char pushed so far (invalid UTF-8 replaced by U+FFFD).
    text: String,
    /// The start of a multi-byte UTF-8 character split by `push_bytes` (at most 3 bytes).
    utf8_tail: Vec<u8>,
    /// The text as the engine reads an escaped document (`{\"a\": 1}`), once its first
    /// bracket showed it is one: the parser reads this instead of `text`.
    unescaped: Option<Unescaped>,
    parser: Parser,
}

/// `Repairer::text` with one level of escapes undone from the first bracket on
/// (`crate::repair::unescaped_byte`), kept up with the text as it grows.
#[derive(Debug)]
struct Unescaped {
    /// How far the text has been read: short of its end at a backslash that the next byte
    /// decides.
    read: usize,
    text: String,
}

impl Unescaped {
    fn extend(&mut self, source: &str) {
        let b = source.as_bytes();
        let mut i = self.read;
        while let Some(k) = memchr::memchr(b'\\', &b[i..]) {
            let at = i + k;
            // `i` and `at` are at ASCII bytes or right after them: char boundaries.
            self.text.push_str(&source[i..at]);
            let Some(&next) = b.get(at + 1) else {
                self.read = at;
                return;
            };
            match crate::repair::unescaped_byte(next) {
                Some(c) => {
                    self.text.push(char::from(c));
                    i = at + 2;
                }
                None => {
                    self.text.push('\\');
                    i = at + 1;
                }
            }
        }
        self.text.push_str(&source[i..]);
        self.read = b.len();
    }
}

impl Default for Repairer {
    fn default() -> Repairer {
        Repairer::new()
    }
}

impl Repairer {
    /// A repairer with the default [`Options`].
    pub fn new() -> Repairer {
        Repairer::with_options(Options::default())
    }

    /// A repairer whose `finish` uses `options` (and whose snapshots follow its
    /// `non_finite` and `max_depth`). With `options.strict` nothing is repaired, so the
    /// snapshot stays `None` and `finish` alone decides.
    pub fn with_options(options: Options) -> Repairer {
        let parser = Parser::new(&options);
        Repairer {
            options,
            text: String::new(),
            utf8_tail: Vec::new(),
            unescaped: None,
            parser,
        }
    }

    /// Stop recording [`Event`]s (for callers that only read snapshots): saves the work and
    /// the memory of events nobody drains.
    pub fn without_events(mut self) -> Repairer {
        self.parser.track_events = false;
        self.parser.log = EventLog::default();
        self
    }

    /// Feed the next piece of text.
    pub fn push(&mut self, chunk: &str) {
        self.flush_utf8_tail();
        self.text.push_str(chunk);
        self.advance();
    }

    /// Feed the next piece of raw bytes. A multi-byte character split between two pieces is
    /// joined; bytes that are not UTF-8 become U+FFFD, as `String::from_utf8_lossy` does.
    pub fn push_bytes(&mut self, chunk: &[u8]) {
        // A split character is rare (once per push at most): joining the old tail with the
        // chunk costs one copy of the chunk, so the total stays linear.
        let joined;
        let bytes = if self.utf8_tail.is_empty() {
            chunk
        } else {
            joined = [std::mem::take(&mut self.utf8_tail).as_slice(), chunk].concat();
            joined.as_slice()
        };
        self.decode(bytes);
        self.advance();
    }

    /// Let the parser read what the last push brought.
    #[inline]
    fn advance(&mut self) {
        let source = match &mut self.unescaped {
            Some(unescaped) => {
                unescaped.extend(&self.text);
                &unescaped.text
            }
            None => &self.text,
        };
        self.parser.run(source);
        if self.parser.unescape_from.is_some() {
            self.start_unescaping();
        }
    }

    /// The parser met an escaped document's first bracket and read no further: the
    /// unescaped text is the same up to there, and it reads on in that text.
    #[cold]
    fn start_unescaping(&mut self) {
        let Some(start) = self.parser.unescape_from.take() else {
            return;
        };
        let mut unescaped = Unescaped {
            read: start,
            text: self.text.get(..start).unwrap_or_default().to_owned(),
        };
        unescaped.extend(&self.text);
        self.parser.seen = start;
        self.parser.run(&unescaped.text);
        self.unescaped = Some(unescaped);
    }

    /// The text the parser reads: the text pushed, or its unescaped form.
    fn source(&self) -> &str {
        self.unescaped.as_ref().map_or(&self.text, |u| &u.text)
    }

    /// The current best value: `None` until an object or array has opened. Building it costs
    /// time proportional to the value's size; to follow a long stream cheaply, use
    /// [`Repairer::events`] instead.
    pub fn snapshot(&self) -> Option<Value> {
        self.parser.snapshot(self.source())
    }

    /// The changes since the last call (or since the start), in order. Consecutive growths of
    /// one string are merged into one [`OpRef::Append`], or into the string's own
    /// [`OpRef::Set`] when it appeared since the last call. The events borrow the repairer's
    /// own buffer (no allocation per event); [`EventRef::to_event`] makes one owned.
    pub fn events(&mut self) -> Events<'_> {
        let source = self.unescaped.as_ref().map_or(&self.text, |u| &u.text);
        let parser = &mut self.parser;
        parser.last_append = None;
        // Entries handed out twice would be changes reported twice.
        parser.log.fresh();
        parser.log.drained = true;
        Events {
            log: &parser.log,
            arena: &parser.arena,
            source,
            current_path: &parser.current_path,
            next: 0,
        }
    }

    /// A counter that moves whenever the partial value changes: compare two readings to know
    /// whether a new snapshot is worth building.
    pub fn revision(&self) -> u64 {
        self.parser.revision
    }

    /// Whether the parser met something it leaves to [`Repairer::finish`]: the snapshot will
    /// not change any more.
    pub fn is_frozen(&self) -> bool {
        self.parser.mode == Mode::Frozen
    }

    /// Everything pushed so far, as text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The final result: exactly `repair_with(whole text, options)`. A character left
    /// incomplete by `push_bytes` becomes U+FFFD.
    pub fn finish(mut self) -> Result<Repaired, Error> {
        self.flush_utf8_tail();
        repair_with(&self.text, &self.options)
    }

    fn flush_utf8_tail(&mut self) {
        if !self.utf8_tail.is_empty() {
            self.utf8_tail.clear();
            self.text.push(char::REPLACEMENT_CHARACTER);
        }
    }

    /// Decode `bytes` into the text; an incomplete character at the very end becomes the
    /// tail, every invalid sequence one U+FFFD (the rule of `String::from_utf8_lossy`).
    fn decode(&mut self, mut bytes: &[u8]) {
        loop {
            match std::str::from_utf8(bytes) {
                Ok(s) => {
                    self.text.push_str(s);
                    return;
                }
                Err(e) => {
                    let (good, rest) = bytes.split_at(e.valid_up_to());
                    // `good` is valid UTF-8 by construction; lossy never replaces here.
                    self.text.push_str(&String::from_utf8_lossy(good));
                    match e.error_len() {
                        Some(bad) => {
                            self.text.push(char::REPLACEMENT_CHARACTER);
                            bytes = rest.get(bad..).unwrap_or_default();
                        }
                        None => {
                            self.utf8_tail.extend_from_slice(rest);
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// Where the parser is. The modes between tokens come first, so that telling them apart
/// from the rest (`is_structural`) is one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
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
    /// Inside a reasoning block before the value (`REASONING_TAGS[i]`).
    Think(usize),
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
enum Comment {
    /// `//` or `#`, up to the end of the line.
    Line,
    /// `/* … */`.
    Block,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Bool(bool),
    /// Its JSON text is the node's `text`.
    Num,
    /// Its content is the node's `text`.
    Str,
    Arr,
    Obj,
    /// A container that arrived whole: its JSON text is the part of the text pushed that
    /// `Parser::whole_spans[end]` names (`text` is where its key ends, as usual).
    Json,
}

/// `Mode::Str`'s quote for a string a typographic double quote opened (`“name”`): it
/// closes at `”`, `“` or a straight `"` (the engine's rule), subject to what follows.
const TYPO: u8 = 0xE2;

/// `Mode::Str`'s quote for a string a typographic single quote opened (`‘name’`): it
/// closes at `’`, `‘` or a straight `"`, as `TYPO` does at its own. (The last byte of `‘`:
/// no quote byte of its own, and never searched for in the text; scans look for 0xE2.)
const TYPO_SINGLE: u8 = 0x98;

/// Which typographic quote `b` starts with, as the engine reads one that opens or closes a
/// string: `TYPO` for `“` or `”`, `TYPO_SINGLE` for `‘` or `’`, `Some(None)` for any
/// other text; `None` when more text is needed to tell.
fn typo_quote_at(b: &[u8]) -> Option<Option<u8>> {
    match (b.first(), b.get(1), b.get(2)) {
        (Some(0xE2), Some(0x80), Some(0x9C | 0x9D)) => Some(Some(TYPO)),
        (Some(0xE2), Some(0x80), Some(0x98 | 0x99)) => Some(Some(TYPO_SINGLE)),
        (Some(0xE2), None, _) | (Some(0xE2), Some(0x80), None) => None,
        _ => Some(None),
    }
}

fn is_typographic(quote: u8) -> bool {
    quote == TYPO || quote == TYPO_SINGLE
}

/// The length of the opening quote of a `Mode::Str` string.
fn quote_len(quote: u8) -> usize {
    if is_typographic(quote) {
        3
    } else {
        1
    }
}

/// `：`, which the engine reads as a colon after a key.
const FULL_WIDTH_COLON: &[u8] = "\u{FF1A}".as_bytes();
const ELLIPSIS: &[u8] = "\u{2026}".as_bytes();

/// No node (an end of a sibling list).
const NONE: u32 = u32::MAX;

/// One node of the partial value tree, 12 bytes. Text (member key, then string content or
/// number text) lives in the parser's shared `arena`. Nodes are made in document order, so a
/// container's descendants are the nodes right after it, up to its `end`. So building the
/// tree allocates next to nothing per value, and appending to a string is O(1) at any depth.
/// Offsets are `u32`: `Parser::run` freezes a stream past 4 GiB.
#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    /// An object member's key is `arena[text - key_len..text]` (empty elsewhere): a key is
    /// read into the arena right before its value's text. A longer key freezes the stream.
    key_len: u16,
    /// String content or number text: `arena[text..end]`.
    text: u32,
    /// For a string or a number, the end of its text. For a container, the id past its
    /// last descendant, `NONE` while it is open (every later node is one then). For a
    /// whole container (`Kind::Json`), the index of its span in `Parser::whole_spans`.
    end: u32,
}

impl Node {
    fn key_range(&self) -> std::ops::Range<usize> {
        self.text as usize - usize::from(self.key_len)..self.text as usize
    }

    fn text_range(&self) -> std::ops::Range<usize> {
        self.text as usize..self.end as usize
    }
}

/// The ids of the children of container `id`, in order: each child's next sibling is the
/// node past its subtree.
fn children(nodes: &[Node], id: usize) -> impl Iterator<Item = (usize, &Node)> {
    let subtree_end = |at: usize, node: &Node| match node.kind {
        Kind::Arr | Kind::Obj if node.end != NONE => node.end as usize,
        Kind::Arr | Kind::Obj => nodes.len(),
        _ => at + 1,
    };
    let end = nodes.get(id).map_or(0, |node| subtree_end(id, node));
    let mut at = id + 1;
    std::iter::from_fn(move || {
        if at >= end {
            return None;
        }
        let node = nodes.get(at)?;
        let this = at;
        at = subtree_end(at, node).max(at + 1);
        Some((this, node))
    })
}

/// An open container.
#[derive(Debug)]
struct Frame {
    node: usize,
    /// Its last child (`NONE` while it has none), whose key names the string being read.
    last: u32,
    /// How many children.
    len: usize,
    object: bool,
    /// One bit per key seen (`key_mix`): a key whose bit is clear is no duplicate.
    key_bits: u64,
    /// Hashes of the keys of a wide object (small ones are scanned): a duplicate key
    /// freezes the stream (the one-shot engine's policy decides which value wins).
    key_hashes: Option<HashSet<u64>>,
    /// Length of `Parser::ptr` before this container's own segment was added.
    ptr_len: usize,
    /// Its `{` was doubled (`{{"a": 1}}`) and the second one dropped: a `}` right after
    /// its own may be the extra one or its parent's.
    doubled: bool,
}

enum Step {
    /// Progress was made (or the mode changed): go on.
    Go,
    /// The bytes at `pos` cannot be decided until more text arrives.
    Wait,
}

/// How `Parser::plain_value_run` stopped.
enum PlainRun {
    /// At the text's end.
    End,
    /// At an escape the text's end cuts: the next push completes it.
    Wait,
    /// At a quote, for `string_run`.
    Stop,
}

/// An escape sequence inside a string.
enum Escape {
    /// Not enough text yet to tell.
    Wait,
    /// Decodes to this character and is this many bytes long; whether JSON allows it (a
    /// lone surrogate or `\'` sends the engine down its repair path).
    Char(char, usize, bool),
    /// An invalid escape (`\U` in `C:\Users`): the backslash is content.
    KeepBackslash,
}

#[derive(Debug)]
struct Parser {
    /// Off in the test that holds `plain_value_run` to the general path's results.
    #[cfg(test)]
    plain_fast: bool,
    /// Off in the test that holds `whole` to the general path's results.
    #[cfg(test)]
    whole_fast: bool,
    /// `WHOLE_MIN_SCAN`, which that test lowers so that short texts take the lane too.
    #[cfg(test)]
    whole_min_scan: usize,
    /// How many bytes scans for whole containers may still spend in vain: two per byte
    /// pushed, so that failed scans (a container cut by the text's end, or one that needs
    /// the repair rules) cost at most twice the text, however deep the nesting.
    whole_budget: usize,
    /// The text's length at the last `run`.
    seen: usize,
    whole_scratch: whole::Scratch,
    /// Where each whole container's JSON is in the text pushed (see `Kind::Json`).
    whole_spans: Vec<(usize, usize)>,
    pos: usize,
    mode: Mode,
    comment: Option<Comment>,
    stack: Vec<Frame>,
    nodes: Vec<Node>,
    /// The text of all nodes, back to back (see `Node`). Only the string being read grows
    /// in place: nothing else is written while it is open. A key and a bare value are read
    /// straight into its end, where their node will find them.
    arena: String,
    /// JSON pointer of the innermost open container.
    ptr: String,
    /// Where in the arena the key being read starts; it runs to the arena's end, complete
    /// and waiting for its value once `pending_key` is set.
    key_start: usize,
    /// Where the quoted key being read (or read last) starts in the text, past its quote.
    key_open: usize,
    pending_key: bool,
    /// A number or literal waiting for `,` `}` or `]` (its text is the arena's end, from
    /// `word_start`).
    pending: Option<Kind>,
    /// Where in the arena the bare word being read starts.
    word_start: usize,
    /// The string value being read: its node and, once an event needed it, its pointer.
    current: usize,
    current_path: String,
    current_path_known: bool,
    /// Whether the single-quoted string being read holds a `"` (only the first may close
    /// it, as the engine reads it).
    double_quote_seen: bool,
    /// The end of the string value's content that the engine could still cut off.
    held: String,
    /// The string value being read (or last read) holds a quote of its own kind taken as
    /// content (`'don't'`), which turns some of the engine's rules off (its
    /// `inner_quote_seen`).
    inner_quote: bool,
    /// The quote that opened the string value being read (or last read); 0 for a Windows
    /// path.
    value_quote: u8,
    /// Just past the closing quote of the string value that ended last, until what follows
    /// it confirms that the quote closes the string.
    string_end: Option<usize>,
    /// Only whitespace, reasoning blocks and fence lines so far: a bracket here opens the
    /// value without the plausibility check prose needs.
    text_start: bool,
    /// Between an opening and a closing fence line, where the engine trusts any bracket.
    in_fence: bool,
    /// Right after an opening fence's line (spaces aside), where the engine reads a
    /// document that lost its `{` as at the text's start.
    fence_start: bool,
    /// Before the value, only spaces since the last line break (or a comment's end).
    prose_line_start: bool,
    /// The text (or a fence) starts with a bare key and its colon (`name: "Ada", …`), and no
    /// `{` has come yet: the engine reads such a text as an object that lost its `{` when no
    /// `{` comes at all and its last byte is `}`. So a `[` after more members opens nothing
    /// until a `{` rules that out; right after the colon it opens the value as usual
    /// (`Result: [1, 2]`: prose and an answer, unless the text ends with a stray `}`).
    /// `(colon, k)`: where the colon is, and that the text before `k` holds no `{`.
    bare_key_start: Option<(usize, usize)>,
    /// The text starts with a call (`callback({…});`, `NumberLong(5)`) whose argument starts
    /// at this offset: the engine takes that argument as the value when the text ends with
    /// `)`, so no other bracket may open the value.
    call_arg: Option<usize>,
    /// Something that is not JSON was met (prose, a comment, a single quote…), so the text
    /// is certainly not valid JSON and the engine reads it by its repair rules. Until then
    /// it may be valid, which the engine returns as serde_json reads it.
    repaired: bool,
    log: EventLog,
    track_events: bool,
    /// The string node whose text the last event carries (`Set` or `Append`), so that the
    /// next growth extends that event.
    last_append: Option<usize>,
    revision: u64,
    depth_limit: usize,
    non_finite: NonFinite,
    /// The engine unescapes the whole text when its first bracket opens an escaped document
    /// (`{\"a\": 1}`): until that is ruled out, nothing after the bracket is read. `None`
    /// once ruled out; otherwise where the search for the first bracket goes on.
    escape_check: Option<usize>,
    /// The first bracket, here, opens an escaped document: the `Repairer` unescapes the
    /// text from here on, as the engine does, and runs this parser on that text instead.
    unescape_from: Option<usize>,
    /// A container whose `{` was doubled closed last (see `Frame::doubled`).
    doubled_closed: bool,
    /// A short string element of an array, not shown yet: it may be a key (see
    /// `KEY_LIKE_LEN`). Where its opening quote is in the text, and
    /// where its content starts in the arena.
    deferred: Option<(usize, usize)>,
}

impl Parser {
    fn new(options: &Options) -> Parser {
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
    fn run(&mut self, text: &str) {
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
                Some(k) => match crate::repair::escaped_document_at(b, from + k) {
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
            Mode::Think(tag) => self.think(text.as_bytes(), tag),
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

    fn freeze(&mut self) -> Step {
        self.mode = Mode::Frozen;
        self.deferred = None;
        self.pending = None;
        self.pending_key = false;
        self.comment = None;
        self.held.clear();
        self.string_end = None;
        Step::Go
    }

    // ----- before the value -------------------------------------------------------------

    /// Skip to the value the way the one-shot engine finds it: reasoning blocks and fence
    /// lines are skipped; a bracket opens the value at the text's start, or later in prose
    /// when what follows it looks like JSON.
    /// `full` is all the text so far, where `bytes` may stop at a bracket while the engine's
    /// escaped-document check is undecided: a control token is told by what follows its `[`.
    fn prose(&mut self, bytes: &[u8], full: &[u8]) -> Step {
        while let Some(&c) = bytes.get(self.pos) {
            let rest = &bytes[self.pos..];
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {
                    self.prose_line_start |= c == b'\n';
                    self.pos += 1;
                    continue;
                }
                // As the engine: a comment at a line's start is skipped whole, JSON and all.
                b'/' if self.prose_line_start => match bytes.get(self.pos + 1) {
                    None => return Step::Wait,
                    Some(&n @ (b'/' | b'*')) => {
                        self.pos += 2;
                        self.comment = Some(if n == b'/' {
                            Comment::Line
                        } else {
                            Comment::Block
                        });
                        self.text_start = false;
                        self.fence_start = false;
                        self.repaired = true;
                        return Step::Go;
                    }
                    Some(_) => {}
                },
                b'<' => match reasoning_tag(rest) {
                    None => return Step::Wait,
                    Some(Some(tag)) => {
                        self.pos += REASONING_TAGS[tag].0.len();
                        self.mode = Mode::Think(tag);
                        self.repaired = true;
                        return Step::Go;
                    }
                    Some(None) => {}
                },
                b'`' | b'~' => {
                    let fence: &[u8] = if c == b'`' { b"```" } else { b"~~~" };
                    match starts_with_partial(rest, fence) {
                        None => return Step::Wait,
                        Some(true) => {
                            self.mode = Mode::FenceLine;
                            self.in_fence = !self.in_fence;
                            self.repaired = true;
                            return Step::Go;
                        }
                        // A backtick string first: see quotes below.
                        Some(false) if c == b'`' && self.text_start => return self.freeze(),
                        Some(false) => {}
                    }
                }
                // A chat template's control token (`[TOOL_CALLS] [{…}]`): skipped as the
                // engine skips it, and no prose either.
                b'[' if !self.in_fence
                    && crate::repair::control_token(full, self.pos, false) != Some(None) =>
                {
                    match crate::repair::control_token(full, self.pos, false) {
                        Some(Some(len)) => {
                            self.pos += len;
                            self.repaired = true;
                            self.prose_line_start = false;
                            continue;
                        }
                        _ => return Step::Wait,
                    }
                }
                b'{' | b'[' => {
                    if let Some((colon, scanned)) = self.bare_key_start {
                        let first_value = bytes[colon + 1..self.pos].iter().all(|&b| is_space(b));
                        // A `{` anywhere rules the lost `{` out: the text is prose after all.
                        let from = scanned.max(self.pos);
                        // (A fenced value is the answer whatever comes after the fence.)
                        if first_value
                            || self.in_fence
                            || c == b'{'
                            || memchr::memchr(b'{', &full[from..]).is_some()
                        {
                            self.bare_key_start = None;
                        } else {
                            self.bare_key_start = Some((colon, full.len()));
                            return Step::Wait;
                        }
                    }
                    if let Some(arg) = self.call_arg {
                        if self.pos != arg {
                            // Another bracket than the call's argument: the engine's choice
                            // depends on how the text ends.
                            return self.freeze();
                        }
                    }
                    let open = if self.in_fence || (self.text_start && c == b'[') {
                        Some(true)
                    } else if self.text_start {
                        object_at_text_start(bytes, self.pos)
                    } else if c == b'[' && !crate::repair::first_on_line(bytes, self.pos) {
                        // As the engine: `see [1].` is a citation and `- [ ] task` a task
                        // box, not the value.
                        match (
                            crate::repair::citation_at(bytes, self.pos, false),
                            crate::repair::task_box_at(bytes, self.pos, false),
                        ) {
                            (None, _) | (_, None) => None,
                            (Some(true), _) | (_, Some(true)) => Some(false),
                            (Some(false), Some(false)) => plausible_container(bytes, self.pos),
                        }
                    } else {
                        plausible_container(bytes, self.pos)
                    };
                    match open {
                        None => return Step::Wait,
                        Some(true) => return self.open(c == b'{'),
                        // The call's argument is the value if the text ends with `)`.
                        Some(false) if self.call_arg.is_some() => return self.freeze(),
                        Some(false) => {}
                    }
                }
                _ => {
                    if self.text_start || self.fence_start {
                        // A quote first (in the text or in a fence): a document that lost
                        // its `{` (`"a": 1}`) when a key and its colon follow, which the
                        // engine reads as an object from here; else a bare string, which it
                        // reads by rules that look at the text's end.
                        match quote_at(rest) {
                            None => return Step::Wait,
                            Some(true) => {
                                return match crate::repair::lost_brace_key_at(bytes, self.pos) {
                                    None => Step::Wait,
                                    Some(true) => {
                                        self.repaired = true;
                                        self.text_start = false;
                                        self.fence_start = false;
                                        self.open_container(true, 0)
                                    }
                                    Some(false) => self.freeze(),
                                };
                            }
                            Some(false) => {}
                        }
                        // A fence that may hold one scalar (```` ```json\n42 ````): the
                        // engine takes it when the fence holds nothing else.
                        if self.fence_start {
                            match fenced_scalar_start(rest) {
                                None => return Step::Wait,
                                Some(true) => return self.freeze(),
                                Some(false) => {}
                            }
                        }
                        match bare_key_at(rest) {
                            None => return Step::Wait,
                            Some(Some(colon)) => {
                                self.bare_key_start = Some((self.pos + colon, self.pos));
                            }
                            Some(None) => {}
                        }
                        if self.text_start {
                            match call_arg_at(rest) {
                                None => return Step::Wait,
                                Some(Some(arg)) => self.call_arg = Some(self.pos + arg),
                                Some(None) => {}
                            }
                        }
                    }
                }
            }
            self.text_start = false;
            self.fence_start = false;
            self.prose_line_start = false;
            self.repaired = true;
            self.pos += 1;
        }
        Step::Go
    }

    fn think(&mut self, bytes: &[u8], tag: usize) -> Step {
        let close = REASONING_TAGS[tag].1;
        let rest = &bytes[self.pos..];
        match crate::repair::find_ignore_ascii_case(rest, close) {
            Some(i) => {
                self.pos += i + close.len();
                self.mode = Mode::Prose;
                Step::Go
            }
            None => {
                // Keep what may be the start of the closing tag for the next push.
                let keep = (close.len() - 1).min(rest.len());
                self.pos = bytes.len() - keep;
                Step::Wait
            }
        }
    }

    fn in_comment(&mut self, bytes: &[u8], comment: Comment) -> Step {
        let rest = &bytes[self.pos..];
        match comment {
            Comment::Line => match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    self.pos += i + 1;
                    self.comment = None;
                }
                None => self.pos = bytes.len(),
            },
            Comment::Block => match memchr::memmem::find(rest, b"*/") {
                Some(i) => {
                    self.pos += i + 2;
                    self.comment = None;
                }
                None => {
                    // Keep a final `*` for the next push: it may be the start of `*/`.
                    let keep = usize::from(rest.last() == Some(&b'*'));
                    self.pos = bytes.len() - keep;
                    if keep == 1 {
                        return Step::Wait;
                    }
                }
            },
        }
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
                    && bytes[..self.pos].iter().rev().find(|&&c| !is_space(c)) == Some(&b'{') =>
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
    fn separator(&mut self, bytes: &[u8], b: u8) -> Step {
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
                    .is_some_and(is_space)
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
                        .take_while(|&&c| is_space(c))
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
                    if crate::repair::literal_word(word).is_none() {
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

    /// `{"a": }`, `{"a": , "b": 1}`, `{"a" }`: a member with no value is null to the
    /// engine. It waits, as a literal does, for what follows to show that it is no first
    /// element of an array that lost its `[` (`{"a": , 1, 2]}` is `{"a": [null, 1, 2]}`).
    fn empty_member_value(&mut self) -> Step {
        self.repaired = true;
        self.word_start = self.arena.len();
        self.pending = Some(Kind::Null);
        self.mode = Mode::AfterValue;
        Step::Go
    }

    /// A value that starts with 0xE2 (no `…`): a string in typographic quotes.
    fn typographic_value(&mut self, text: &str) -> Step {
        let bytes = text.as_bytes();
        match typo_quote_at(&bytes[self.pos..]) {
            None => Step::Wait,
            Some(None) => self.freeze(),
            // A Windows path in typographic quotes is left to the engine.
            Some(Some(quote)) => match windows_path(&bytes[self.pos + 3..]) {
                None => Step::Wait,
                Some(true) => self.freeze(),
                Some(false) => {
                    self.repaired = true;
                    match self.open_string(quote, false) {
                        Step::Go if self.mode != Mode::Frozen => {
                            self.string(text, quote, false, false)
                        }
                        step => step,
                    }
                }
            },
        }
    }

    /// `...` at `pos` where the engine skips it and reads on as before (where a key should
    /// be, after a container).
    fn dropped_ellipsis(&mut self, bytes: &[u8]) -> Step {
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
    fn ellipsis(&mut self) -> Step {
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

    /// Whether the innermost container's last child is an object or an array.
    fn last_is_container(&self) -> bool {
        self.stack
            .last()
            .and_then(|f| self.nodes.get(f.last as usize))
            .is_some_and(|n| matches!(n.kind, Kind::Arr | Kind::Obj | Kind::Json))
    }

    /// A quoted key at `pos` (its opening quote), read as a string.
    fn quoted_key(&mut self, text: &str, quote: u8) -> Step {
        let Some(windows) = windows_path(&text.as_bytes()[self.pos + quote_len(quote)..]) else {
            return Step::Wait;
        };
        if windows && is_typographic(quote) {
            return self.freeze();
        }
        self.key_start = self.arena.len();
        self.pos += quote_len(quote);
        self.key_open = self.pos;
        self.double_quote_seen = false;
        // A Windows path holds an escape JSON does not know: not JSON either.
        self.repaired |= quote != b'"' || windows;
        self.mode = Mode::Str {
            quote,
            key: true,
            windows,
        };
        self.string(text, quote, true, windows)
    }

    /// What follows a string value's closing quote decides whether it closes the string
    /// (the one-shot engine's rule): `}` or `]`; in an array `,`; in an object `,` followed
    /// by a key, a closer or a comment; a comment after whitespace. Anything else may make
    /// the quote content (`"He said "hi""`) or is a repair the stream leaves to `finish`.
    /// `self.pos` is at the first non-space byte after the quote.
    fn after_string(&mut self, bytes: &[u8], after: usize) -> Step {
        let object = self.stack.last().is_some_and(|f| f.object);
        // An array's next element follows with its comma lost.
        let mut lost_comma = false;
        let closes = match bytes[self.pos] {
            // Unless a quote right after the closers ends the string (the engine's rule).
            // Either way the withheld end is content: show it while that is undecided.
            // A wrong closer after a held-back string: the engine drops it and may read
            // the string as a key after all (`{"a": "b"]: 1}` is `{"a": {"b": 1}}`).
            b'}' | b']' if self.deferred.is_some() && (bytes[self.pos] == b'}') != object => {
                return self.freeze();
            }
            b'}' | b']' => {
                // A held-back string is no key and no first element of an array: its
                // quote closes it, or it is content, and then the string holds an inner
                // quote, which no key and no such element does (the engine's rule).
                self.show_deferred();
                let from = self.arena.len();
                self.release_held();
                self.grew(from);
                match quote_after_closers(bytes, self.pos) {
                    Some(false) => {
                        // `"x "y" ]] z"`: closers, then words, then a quote that may end
                        // the string make the closers content (the engine's rule).
                        let open = self
                            .stack
                            .iter()
                            .rev()
                            .map(|f| if f.object { b'}' } else { b']' });
                        crate::repair::words_after_closers(bytes, self.pos, open, false)
                            .map(|content| !content)
                    }
                    later => later.map(|later| !later),
                }
            }
            // A comment after a held-back string that the quote closes: whether the string
            // is a key (`["a" // c` then `: 1]`) is for what follows the comment to tell, so
            // the comment is skipped with the decision still open.
            b'/' if self.deferred.is_some() => {
                let (closes, comment) = match bytes.get(self.pos + 1) {
                    None => (None, Comment::Block),
                    Some(b'*') => (Some(self.pos > after), Comment::Block),
                    Some(b'/') if self.pos > after => (
                        crate::repair::string_end_on_line(bytes, self.pos, false, false)
                            .map(|content| !content),
                        Comment::Line,
                    ),
                    Some(_) => (Some(false), Comment::Block),
                };
                if closes == Some(true) {
                    self.pos += 2;
                    self.comment = Some(comment);
                    self.repaired = true;
                    return Step::Go;
                }
                closes
            }
            b'/' => match bytes.get(self.pos + 1) {
                None => None,
                // A comment after spaces ends the string; a line comment not if a quote
                // later on its line may (the engine's rule).
                Some(b'*') => Some(self.pos > after),
                Some(b'/') if self.pos > after => {
                    crate::repair::string_end_on_line(bytes, self.pos, false, false)
                        .map(|content| !content)
                }
                Some(_) => Some(false),
            },
            // `["p", ...: "q"]`: the engine reads an ellipsis and a colon after a string
            // element as that string's colon (a key, so the array lost its `]`).
            b',' if !object && self.deferred.is_some() => {
                ellipsis_then_colon(bytes, self.pos + 1).map(|colon| !colon)
            }
            b',' if !object => Some(true),
            // `"name": "Bob"\n  "age": 25`, `"name": "search" "arguments": {…}`: the next
            // member's key and colon: the comma was lost, and the quote closes the string
            // (the engine's rule; the stream froze at any inner quote before).
            // (A held-back string is then no key and no first element of a lost array.)
            // (After an inner quote, the engine may read words and a quote as the sentence
            // going on: its call.)
            b'"' if object && self.inner_quote && self.pos > after => Some(false),
            // `"Nike Air Max 90 "Infrared"", "price": 140}`: a quote right before another,
            // where the string that one opens is followed by a word: no key follows
            // either quote (the engine's `key_follows`), so the first is content and the
            // second closes the string or not, as any quote does.
            b'"' if object
                && self.pos == after
                && self.value_quote == b'"'
                && !matches!(bytes[after - 2], b'{' | b'[')
                && !matches!(
                    bytes[..after - 1]
                        .iter()
                        .rev()
                        .find(|&&c| c != b' ' && c != b'\t'),
                    Some(b',' | b'\n')
                ) =>
            {
                match word_after_quoted(bytes, self.pos) {
                    None => None,
                    Some(true) => return self.inner_double_quote(after),
                    Some(false) => key_follows(bytes, self.pos),
                }
            }
            b'"' if object => key_follows(bytes, self.pos),
            // `["a" "b"]`: layout, then the next element's quote: the comma was lost.
            b'"' if self.pos > after => {
                lost_comma = true;
                Some(true)
            }
            b',' => comma_then_member(bytes, self.pos + 1, After::String),
            // `"hello " + "world"`: a concatenation, joined into one string by the engine.
            b'+' => {
                let mut k = self.pos + 1;
                while bytes.get(k).copied().is_some_and(is_space) && k < self.pos + LOOKAHEAD {
                    k += 1;
                }
                match bytes.get(k) {
                    None => None,
                    // (Only the first `"` may close a single-quoted string: a part after
                    // one is left to the engine.)
                    Some(&q @ (b'"' | b'\'')) if !self.double_quote_seen && !self.inner_quote => {
                        return self.concatenation(bytes, k, q);
                    }
                    Some(_) => Some(false),
                }
            }
            // `"The "Best" movie"`, `"say "no".`: a quote that a word follows is content
            // to the engine (`value_string_end`) unless a key follows it (in an object, after
            // layout) or a comma or line break comes before it, where it may open the next
            // member or element.
            c if (c.is_ascii_alphanumeric() || b".!?-_@$%&*~^|".contains(&c))
                && self.value_quote == b'"'
                && (object || self.pos == after) =>
            {
                let key = if object && self.pos > after {
                    words_to_a_quote(bytes, self.pos).map(|words| !words)
                } else {
                    Some(false)
                };
                let quote = after - 1;
                let mut k = quote;
                while matches!(bytes[k - 1], b' ' | b'\t') {
                    k -= 1;
                }
                // A quote right after `{` or `[` starts JSON inside the string to the engine
                // (its `EmbeddedJson`), whose quotes before `, "key"` it keeps as content
                // later on: not mirrored, so the stream does not read one as content.
                let embedded = matches!(bytes[quote - 1], b'{' | b'[');
                match key {
                    None => None,
                    Some(false) if !embedded && !matches!(bytes[k - 1], b',' | b'\n') => {
                        return self.inner_double_quote(after);
                    }
                    Some(false) if object && !embedded && self.pos == after => {
                        return self.lost_closing_quote(bytes, quote);
                    }
                    Some(_) => Some(false),
                }
            }
            // `"arguments": "path": "a.rs"}}`: a member's short string value, then a colon
            // and a value: the string is the first key of an object that lost its `{` (the
            // engine's `key_like_string_before` and `open_object_in_member`). Only for
            // straight quotes, whose content the engine and `deferred` measure alike, and
            // no quote inside, which may have been an inner one to the engine.
            // `["name": "Alice", …}]`: in an array with no object around it, such a string
            // element is the first key of an object in the array that lost its `{` (the
            // engine's `key_in_array`; with an object around, the closers to the text's end
            // decide).
            b':' if (object || !self.stack.iter().any(|f| f.object))
                && self.deferred.is_some_and(|(open, start)| {
                    matches!(bytes.get(open), Some(b'"' | b'\'' | b'`'))
                        && !self.arena.as_bytes()[start..]
                            .iter()
                            .any(|&c| matches!(c, b'"' | b'\''))
                        && !self.held.contains(['"', '\''])
                }) =>
            {
                let mut m = self.pos + 1;
                while bytes.get(m).copied().is_some_and(is_space) && m < self.pos + LOOKAHEAD {
                    m += 1;
                }
                match value_starts_at(bytes, m) {
                    None => None,
                    Some(true) => return self.member_value_is_a_key(),
                    // The engine may read the quote as content (`"b":: 1`, `"b": }`).
                    Some(false) => Some(false),
                }
            }
            _ => Some(false),
        };
        match closes {
            None => Step::Wait,
            Some(false) => self.freeze(),
            Some(true) => {
                // A held-back string is a value after all: no `:` follows it, and nothing
                // after it makes it the first element of an array that lost its `[`.
                self.show_deferred();
                self.string_end = None;
                let from = self.arena.len();
                self.release_held();
                self.grew(from);
                if lost_comma {
                    self.repaired = true;
                    self.mode = Mode::Element;
                }
                Step::Go
            }
        }
    }

    /// `"role": "designer, "skills": []`: a quote after a separator (a comma or a line
    /// break, then spaces) opens the next key, so the string value lost its closing quote
    /// before the separator. The engine (`StrEnd::Unterminated`) ends the string there,
    /// without the layout and the one comma before the quote, and reads the key. Left to
    /// `finish` where it reads the quote otherwise: after an inner quote, in JSON inside the
    /// string (an opener in it), or after closers (the open containers may end there).
    fn lost_closing_quote(&mut self, bytes: &[u8], quote: usize) -> Step {
        let start = match self.deferred {
            Some((_, start)) => start,
            None => self.nodes.get(self.current).map_or(0, |n| n.text as usize),
        };
        let content = self.arena.as_bytes().get(start..).unwrap_or_default();
        if self.inner_quote
            || content
                .iter()
                .chain(self.held.as_bytes())
                .any(|&c| c == b'{' || c == b'[')
        {
            return self.freeze();
        }
        let mut k = quote;
        while matches!(bytes[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        if bytes[k - 1] == b',' {
            let mut c = k - 1;
            while matches!(bytes[c - 1], b' ' | b'\t') {
                c -= 1;
            }
            if matches!(bytes[c - 1], b'}' | b']') {
                return self.freeze();
            }
        }
        match key_follows(bytes, quote) {
            None => return Step::Wait,
            Some(false) => return self.freeze(),
            Some(true) => {}
        }
        // What the engine trims (`trim_separator_before`): raw layout, then one comma. The
        // string's raw end is held back, so that is at most what `held` holds.
        let mut t = quote;
        while matches!(bytes[t - 1], b' ' | b'\t' | b'\n' | b'\r') {
            t -= 1;
        }
        if bytes[t - 1] == b',' {
            t -= 1;
        }
        let Some(keep) = self.held.len().checked_sub(quote - t) else {
            return self.freeze();
        };
        self.show_deferred();
        if self.mode == Mode::Frozen {
            return Step::Go;
        }
        self.string_end = None;
        let from = self.arena.len();
        let held = std::mem::take(&mut self.held);
        self.arena.push_str(held.get(..keep).unwrap_or_default());
        self.held = held;
        self.held.clear();
        self.grew(from);
        self.repaired = true;
        self.pos = quote;
        self.mode = Mode::Key;
        Step::Go
    }

    /// The quote before `after` did not close the string value: it is content, and the
    /// string goes on from `after`.
    fn inner_double_quote(&mut self, after: usize) -> Step {
        let from = self.arena.len();
        self.release_held();
        self.arena.push('"');
        self.grew(from);
        self.string_end = None;
        self.inner_quote = true;
        self.repaired = true;
        self.pos = after;
        self.mode = Mode::Str {
            quote: b'"',
            key: false,
            windows: false,
        };
        Step::Go
    }

    /// The string value that closed last goes on with the part `q` opens at `k`, after a
    /// `+`: its content grows in place, as one string.
    fn concatenation(&mut self, bytes: &[u8], k: usize, q: u8) -> Step {
        match windows_path(&bytes[k + 1..]) {
            None => return Step::Wait,
            Some(true) => return self.freeze(),
            Some(false) => {}
        }
        // (From the closing quote on: `"a"\n + "b"` has its line break before the `+`;
        // found by fuzzing.)
        let from = self.string_end.unwrap_or(self.pos).min(self.pos);
        if self.deferred.is_some() && bytes[from..k].contains(&b'\n') {
            // The engine's key-length check spans all parts and what lies between them:
            // a line break there makes the string a value.
            self.show_deferred();
        }
        let from = self.arena.len();
        self.release_held();
        self.grew(from);
        self.string_end = None;
        self.repaired = true;
        self.value_quote = q;
        self.pos = k + 1;
        self.mode = Mode::Str {
            quote: q,
            key: false,
            windows: false,
        };
        Step::Go
    }

    /// The bare string `text[pos..token_end]` (see `bare_member_string`): the member's value,
    /// whole. What ends it (`,` or `}`) is read next.
    fn bare_string(&mut self, text: &str, token_end: usize, resume: usize) -> Step {
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

    /// The held-back string value of a member, a `:` at `pos`: the string is the first key
    /// of an object that lost its `{`, the member's value. Its content is the arena's end,
    /// right where the new object's key belongs.
    fn member_value_is_a_key(&mut self) -> Step {
        let Some((open, start)) = self.deferred.take() else {
            return self.freeze();
        };
        self.key_open = open + 1;
        if self.stack.len() >= self.depth_limit {
            // The engine drops the colon then.
            return self.freeze();
        }
        self.release_held();
        self.string_end = None;
        if !self.push_container(true, start) {
            return self.freeze();
        }
        self.key_start = start;
        if !self.complete_key() {
            return self.freeze();
        }
        self.repaired = true;
        self.pos += 1;
        self.mode = Mode::MemberValue;
        Step::Go
    }

    // ----- tokens -----------------------------------------------------------------------

    /// Read a string up to its closing quote or the end of the text. Content and escapes go
    /// into the arena in one run, and the node and the events learn of the growth once.
    fn string(&mut self, text: &str, quote: u8, key: bool, windows: bool) -> Step {
        let from = self.arena.len();
        let read_from = self.pos;
        let deferred = self.deferred.is_some();
        let plain = quote == b'"' && !key && !windows && self.plain_allowed();
        let step = match plain && self.plain_start(text) {
            true => match self.plain_value_run(text) {
                PlainRun::Wait => Step::Wait,
                PlainRun::End => Step::Go,
                PlainRun::Stop => self.string_run(text, quote, key, windows),
            },
            false => self.string_run(text, quote, key, windows),
        };
        if !key && deferred {
            // (A freeze inside the run dropped the held-back element: nothing to show.)
            if let Some((open, _)) = self.deferred {
                // Raw content so far (the closing quote, if read, aside), as the engine
                // measures it.
                let end = self.pos - usize::from(self.string_end.is_some());
                // Only this run's part can hold a new line break: earlier runs were checked.
                let new = text.as_bytes().get(read_from.min(end)..end);
                if end.saturating_sub(open + 1) > KEY_LIKE_LEN
                    || new.is_some_and(|b| b.contains(&b'\n'))
                {
                    self.show_deferred();
                }
            }
        } else if !key {
            self.grew(from);
        }
        step
    }

    /// The bulk of a string value (a tool call's code, say): plain content and escapes, read
    /// in a tight loop, exactly as `string_run` reads them. It stops at anything else (the
    /// closing quote, a typographic quote) for `string_run`. Only for a straight-quoted value
    /// that is no Windows path, from a point where nothing is held back (`plain_start`).
    fn plain_value_run(&mut self, text: &str) -> PlainRun {
        let bytes = text.as_bytes();
        loop {
            let rest = &bytes[self.pos..];
            let Some(i) = plain_stop::<false>(rest) else {
                let tail = &text[self.pos..];
                if rest.last().is_some_and(|&b| !cuttable(b)) {
                    // Nothing the engine could cut: all of it is content now.
                    self.arena.push_str(tail);
                } else {
                    self.content(tail, false);
                }
                self.pos = bytes.len();
                return PlainRun::End;
            };
            if rest[i] != b'\\' {
                return PlainRun::Stop;
            }
            // `"`, `\` and 0xE2 start characters: `pos + i` is a char boundary.
            let end = self.pos + i;
            // The escapes of code and prose, decoded here; `escape` has the rest.
            let common = match rest.get(i + 1) {
                Some(b'n') => Some('\n'),
                Some(b'"') => Some('"'),
                Some(b'\\') => Some('\\'),
                Some(b't') => Some('\t'),
                _ => None,
            };
            if let Some(c) = common {
                self.arena.push_str(&text[self.pos..end]);
                self.arena.push(c);
                self.pos = end + 2;
                continue;
            }
            if !self.take_escape(text, end, escape(&rest[i..]), false) {
                return PlainRun::Wait;
            }
        }
    }

    /// The escape at `end`, decoded as `escape`, and the content before it, which is content
    /// whatever the escape turns out to be: straight into the arena, past the hold-back of
    /// `content`. False when the text's end cuts the escape (`pos` stays at it).
    fn take_escape(&mut self, text: &str, end: usize, escape: Escape, key: bool) -> bool {
        match escape {
            Escape::Wait => {
                self.content(&text[self.pos..end], key);
                self.pos = end;
                return false;
            }
            Escape::Char(c, len, json) => {
                self.repaired |= !json;
                self.release_held();
                self.arena.push_str(&text[self.pos..end]);
                self.arena.push(c);
                self.pos = end + len;
            }
            Escape::KeepBackslash => {
                self.repaired = true;
                self.release_held();
                self.arena.push_str(&text[self.pos..=end]);
                self.pos = end + 1;
            }
        }
        true
    }

    /// Inside a straight-quoted string value that `plain_value_run` may read on from `pos`
    /// (see `string`) once `plain_start` agrees, with nothing else pending: no comment, no
    /// string element held back as a possible key, no escaped-document check.
    #[inline]
    fn in_plain_value(&self) -> bool {
        matches!(
            self.mode,
            Mode::Str {
                quote: b'"',
                key: false,
                windows: false
            }
        ) && self.comment.is_none()
            && self.deferred.is_none()
            && self.escape_check.is_none()
            && self.plain_allowed()
    }

    #[cfg(test)]
    fn plain_allowed(&self) -> bool {
        self.plain_fast
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn plain_allowed(&self) -> bool {
        true
    }

    /// Whether `plain_value_run` may read on from `pos`: nothing is held back, or what comes
    /// next is plain content, which shows the held-back end is content (as `content` and
    /// `string_run` would decide).
    fn plain_start(&mut self, text: &str) -> bool {
        if self.held.is_empty() {
            return true;
        }
        // `content` and `string_run` show the held-back end once plain content or a whole
        // escape follows the run of bytes the engine could cut with it.
        let rest = &text.as_bytes()[self.pos..];
        let Some(k) = rest.iter().position(|&b| !cuttable(b)) else {
            return false;
        };
        let shows = match rest[k] {
            b'"' | 0xE2 | b'\'' => false,
            b'\\' => !matches!(escape(&rest[k..]), Escape::Wait),
            _ => true,
        };
        if shows {
            self.release_held();
        }
        shows
    }

    fn string_run(&mut self, text: &str, quote: u8, key: bool, windows: bool) -> Step {
        let bytes = text.as_bytes();
        // The engine may close a string with another quote (`third_stop`): look at those too.
        let third = third_stop(quote, key);
        loop {
            let rest = &bytes[self.pos..];
            // (Both typographic quotes start with 0xE2.)
            let stop = if quote == TYPO_SINGLE { TYPO } else { quote };
            let mut found = string_stop(rest, stop, third);
            if quote == b'"' && !key && !self.inner_quote {
                // A `'` may close a value too (`apostrophe_closes`, unless an inner quote
                // came before): looked for only up to the next stop, so the scans stay
                // linear.
                let upto = found.unwrap_or(rest.len());
                // (Stops are mostly near: a loop beats memchr's setup there.)
                let apostrophe = if upto <= 32 {
                    rest[..upto].iter().position(|&c| c == b'\'')
                } else {
                    memchr::memchr(b'\'', &rest[..upto])
                };
                if apostrophe.is_some() {
                    found = apostrophe;
                }
            }
            let Some(i) = found else {
                self.content(&text[self.pos..], key);
                self.pos = bytes.len();
                return Step::Go;
            };
            // `quote`, `\` and 0xE2 start characters, so `pos + i` is a char boundary.
            let end = self.pos + i;
            if rest[i] == b'\\' && !windows {
                if !self.take_escape(text, end, escape(&bytes[end..]), key) {
                    return Step::Wait;
                }
                continue;
            }
            let other_quote = match (quote, key) {
                (b'"', true) => Some(b'\''),
                (b'\'', _) => Some(b'"'),
                _ => None,
            };
            if Some(rest[i]) == other_quote {
                // The engine closes a string at its first quote of the other kind that a `:`
                // follows in a key (`"a': 1`, `'id": 1`, unless the key's own quote comes
                // later on the line: `"':": 1`), or, in a single-quoted value, its
                // container's closer or a comma and the next member (`'x", "b": 1`); so
                // does the stream, where it mirrors what the engine looks at.
                self.content(&text[self.pos..end], key);
                self.pos = end;
                let first = !std::mem::replace(&mut self.double_quote_seen, true);
                let next = bytes[end + 1..].iter().position(|&c| !is_space(c));
                let colon = next.is_some_and(|k| bytes[end + 1 + k] == b':');
                let may_close = next.map(|k| {
                    let c = bytes[end + 1 + k];
                    first && (c == b':' || (quote == b'\'' && matches!(c, b',' | b'}' | b']')))
                });
                // A key closes at the colon only; the rest `may_close` sees in a key (a
                // closer after `'k"`) freezes as before.
                let key_colon = key && colon;
                let object = self.stack.last().is_some_and(|f| f.object);
                let closes = match may_close {
                    _ if !key && first => match double_quote_closes_value(bytes, end + 1, object) {
                        None => None,
                        Some(None) => return self.freeze(),
                        Some(Some(closes)) => Some(closes),
                    },
                    None if first => None,
                    None => Some(false),
                    // (The engine looks for the colon as far as `LOOKAHEAD`.)
                    Some(true) if key_colon && next.is_some_and(|k| k >= LOOKAHEAD) => Some(false),
                    Some(true) if key_colon => {
                        key_closer_later(bytes, end + 1, quote).map(|later| !later)
                    }
                    decided => decided,
                };
                match closes {
                    None => {
                        self.double_quote_seen = false;
                        return Step::Wait;
                    }
                    Some(true) if key_colon || !key => {
                        self.repaired = true;
                        self.pos = end + 1;
                        return self.close_quote(key);
                    }
                    Some(true) => return self.freeze(),
                    Some(false) => {
                        self.release_held();
                        self.arena.push(char::from(rest[i]));
                        self.pos = end + 1;
                        continue;
                    }
                }
            }
            if rest[i] == b'\'' && quote == b'"' && !key && !self.inner_quote {
                self.content(&text[self.pos..end], key);
                self.pos = end;
                let object = self.stack.last().is_some_and(|f| f.object);
                match crate::repair::apostrophe_closes(bytes, end + 1, object, false) {
                    None => return Step::Wait,
                    // `"array', "items": …`: opened by `"`, closed by `'` (the engine's rule);
                    // what follows is judged as after any closing quote.
                    Some(true) => {
                        self.repaired = true;
                        self.pos = end + 1;
                        return self.close_quote(false);
                    }
                    Some(false) => {
                        self.release_held();
                        self.arena.push('\'');
                        self.pos = end + 1;
                        continue;
                    }
                }
            }
            if is_typographic(quote) && (rest[i] == b'"' || rest[i] == 0xE2) {
                // Either quote of the string's own kind, or a straight `"`, may close it.
                let Some(close) = (match typo_quote_at(&rest[i..]) {
                    None => None,
                    Some(Some(kind)) if kind == quote => Some(Some(3)),
                    Some(_) => Some((rest[i] == b'"').then_some(1)),
                }) else {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    return Step::Wait;
                };
                match close {
                    Some(len) => {
                        self.content(&text[self.pos..end], key);
                        self.pos = end + len;
                        return self.close_quote(key);
                    }
                    None => {
                        // Another character starting with 0xE2: content, and nothing the
                        // engine may cut.
                        self.release_held();
                        self.arena.push_str(&text[self.pos..end + 3]);
                        self.pos = end + 3;
                        continue;
                    }
                }
            }
            if rest[i] == 0xE2 {
                let Some(tail) = rest.get(i..i + 3) else {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    return Step::Wait;
                };
                // (`’` too, which the engine also reads as a closer before a separator.)
                if tail == "\u{201D}".as_bytes() || tail == "\u{2019}".as_bytes() {
                    self.content(&text[self.pos..end], key);
                    self.pos = end;
                    match typographic_may_close(bytes, end + 3) {
                        None => return Step::Wait,
                        Some(true) => return self.freeze(),
                        Some(false) => {}
                    }
                }
                // Any other character starting with 0xE2 is three bytes long, and no byte the
                // engine may cut: the content up to it is certain.
                self.release_held();
                self.arena.push_str(&text[self.pos..end + 3]);
                self.pos = end + 3;
                continue;
            }
            if rest[i] == b'\'' && quote == b'\'' && !key {
                // `'don't'`: a `'` right before a letter or digit is content to the engine
                // (its `value_string_end`), an inner quote.
                match bytes.get(end + 1) {
                    None => {
                        self.content(&text[self.pos..end], key);
                        self.pos = end;
                        return Step::Wait;
                    }
                    Some(c) if c.is_ascii_alphanumeric() => {
                        self.content(&text[self.pos..end], key);
                        self.release_held();
                        self.arena.push('\'');
                        self.pos = end + 1;
                        self.inner_quote = true;
                        continue;
                    }
                    Some(_) => {}
                }
            }
            self.content(&text[self.pos..end], key);
            self.pos = end;
            if rest[i] == quote {
                self.pos += 1;
                return self.close_quote(key);
            }
            let escape = if windows {
                match bytes.get(self.pos + 1) {
                    None => Escape::Wait,
                    // `"C:\dir\"}`: the engine ends the path at a quote that a separator, a
                    // closer or the end follows; left to it.
                    Some(b'"') => match bytes[self.pos + 2..].iter().find(|&&c| !is_space(c)) {
                        None => Escape::Wait,
                        Some(b',' | b'}' | b']') => return self.freeze(),
                        Some(_) => escape(&bytes[self.pos..]),
                    },
                    Some(b'\\') => escape(&bytes[self.pos..]),
                    Some(_) => Escape::KeepBackslash,
                }
            } else {
                escape(&bytes[self.pos..])
            };
            match escape {
                Escape::Wait => return Step::Wait,
                Escape::Char(c, len, json) => {
                    self.repaired |= !json;
                    self.release_held();
                    self.arena.push(c);
                    self.pos += len;
                }
                Escape::KeepBackslash => {
                    self.repaired = true;
                    self.release_held();
                    self.arena.push('\\');
                    self.pos += 1;
                }
            }
        }
    }

    /// `{"tool: "bash"`, at the word after the key's closing quote: the engine's
    /// `close_key_at_colon` ends the key at its colon when it is a plain word (no escape,
    /// quote or control character, ASCII here), a space follows the colon and only spaces
    /// the quote, or a container opens there. If so, the key is cut there and read on from
    /// its colon.
    fn key_holds_its_colon(&mut self, bytes: &[u8]) -> bool {
        let quote = self.pos - 1;
        let Some(raw) = bytes.get(self.key_open..quote) else {
            return false;
        };
        if bytes.get(self.key_open.wrapping_sub(1)) != Some(&b'"')
            || bytes[quote] != b'"'
            || self.arena.as_bytes().get(self.key_start..) != Some(raw)
        {
            return false;
        }
        let Some(colon) = memchr::memchr(b':', raw) else {
            return false;
        };
        let key = &raw[..colon];
        let plain = !key.is_empty()
            && key.len() <= KEY_LIKE_LEN
            && key
                .iter()
                .all(|&c| c.is_ascii() && c >= 0x20 && !matches!(c, b'\\' | b'"' | b'\''));
        // Only spaces up to the quote, or a container that opens after them (`"skills:
        // ["go"]`, which the engine reads on as the value).
        let between = raw[colon + 1..].trim_ascii();
        if !plain
            || !matches!(raw.get(colon + 1), Some(b' ' | b'\t'))
            || !(between.is_empty() || matches!(between[0], b'{' | b'['))
        {
            return false;
        }
        self.arena.truncate(self.key_start + colon);
        self.pos = self.key_open + colon;
        self.repaired = true;
        if !self.complete_key() {
            self.freeze();
        }
        true
    }

    /// A closing quote was read (`pos` is past it).
    fn close_quote(&mut self, key: bool) -> Step {
        if key {
            // A key's quote closes it (`Colon` reads what follows, a lost colon too).
            if !self.complete_key() {
                return self.freeze();
            }
            self.mode = Mode::Colon;
        } else {
            // Only a candidate: `after_string` looks at what follows.
            self.string_end = Some(self.pos);
            self.mode = Mode::AfterValue;
        }
        Step::Go
    }

    /// Raw string content (no quote, no backslash). The end of a value's content waits in
    /// `held` while the engine could still cut the string there: from a raw line break
    /// followed only by spaces, closers and commas (at the end of the input, `"bar\n}` ends
    /// the string at its line break), trailing layout (`["x ]` ends it before the space),
    /// a trailing `,` and layout (`{"a": "x, "b": 1}` ends the string before them), and a run
    /// of closers and commas (see `held_from`).
    ///
    /// The content goes to the arena only; the caller reports the growth (`grew`).
    fn content(&mut self, s: &str, key: bool) {
        if key || s.is_empty() {
            self.arena.push_str(s);
            return;
        }
        if !self.held.is_empty() {
            // Held text only ever grows by bytes the engine could cut with it.
            let extends = s.bytes().all(cuttable);
            if extends {
                self.held.push_str(s);
                return;
            }
            self.release_held();
        }
        let keep = held_from(s);
        match s.split_at_checked(keep) {
            Some((shown, "")) => self.arena.push_str(shown),
            Some((shown, held)) => {
                self.arena.push_str(shown);
                self.held.push_str(held);
            }
            None => self.arena.push_str(s),
        }
    }

    /// The withheld end is content after all (into the arena; see `content`).
    fn release_held(&mut self) {
        if !self.held.is_empty() {
            self.arena.push_str(&self.held);
            self.held.clear();
        }
    }

    fn key_word(&mut self, text: &str) -> Step {
        for (i, c) in text[self.pos..].char_indices() {
            match c {
                ':' => {
                    self.pos += i + 1;
                    if !self.end_bare_key() {
                        return self.freeze();
                    }
                    self.mode = Mode::MemberValue;
                    return Step::Go;
                }
                c if c.is_alphanumeric() || matches!(c, '_' | '$' | '-' | '.' | ' ' | '\t') => {
                    self.arena.push(c);
                }
                // `{count 2}`: a key that lost its colon, its last word a number or literal,
                // which is the value (the engine's `value_after_bare_key`).
                ',' | '}' | '\n' | '\r' => {
                    let at = self.pos + i;
                    return match self.bare_key_value(at) {
                        Some(word) => {
                            self.pos = word;
                            self.mode = Mode::MemberValue;
                            Step::Go
                        }
                        None => {
                            self.pos = at;
                            self.freeze()
                        }
                    };
                }
                // `{name "Ada"}`, `{tags [1]}`: a bracket, or a quote after a space, ends
                // the key, which lost its colon: it opens the value (the engine's
                // `parse_unquoted_key`, then `step_colon`). `{host = "x"}`, `{a => 1}`: `=`
                // ends the key too, and `Colon` reads it (or `=>`) as the colon.
                '"' | '\'' | '[' | '{' | '='
                    if (c != '"' && c != '\'') || self.arena.ends_with([' ', '\t']) =>
                {
                    self.pos += i;
                    if !self.end_bare_key() {
                        return self.freeze();
                    }
                    self.repaired = true;
                    self.mode = Mode::Colon;
                    return Step::Go;
                }
                // `{model": 1}`: a key that lost its opening quote ends at the closing one,
                // when its colon follows (the engine's rule; not after a space: `{a ": 1}`).
                // `{u'name': 1}`: otherwise a Python string prefix before a quoted key.
                '"' | '\'' if !self.arena.ends_with([' ', '\t']) => {
                    let after = self.pos + i + 1;
                    let rest = text.as_bytes().get(after..).unwrap_or_default();
                    let Some(k) = rest.iter().position(|&c| c != b' ' && c != b'\t') else {
                        self.pos += i;
                        return Step::Wait;
                    };
                    if rest[k] != b':' || c == '\'' {
                        self.pos += i;
                        // (A comment may hide the colon: the engine skips it.)
                        if matches!(rest[k], b':' | b'/' | b'#' | b'\n' | b'\r') {
                            return self.freeze();
                        }
                        return self.prefixed_key(text, c as u8);
                    }
                    self.pos = after + k + 1;
                    if !self.complete_key() {
                        return self.freeze();
                    }
                    self.mode = Mode::MemberValue;
                    return Step::Go;
                }
                _ => {
                    self.pos += i;
                    return self.freeze();
                }
            }
        }
        self.pos = text.len();
        Step::Go
    }

    /// The bare key read into the arena ends here: its trailing layout is dropped and it
    /// is recorded as complete; false for an empty key or a duplicate.
    fn end_bare_key(&mut self) -> bool {
        let key = self.arena.get(self.key_start..).unwrap_or_default();
        let trimmed = key.trim_end().len();
        self.arena.truncate(self.key_start + trimmed);
        trimmed > 0 && self.complete_key()
    }

    /// At the quote (`pos`) right after the bare word read into the arena as a key, which no
    /// colon follows: when the word is a Python string prefix (`u'name'`), the quoted key
    /// starts here, as the engine reads it; anything else is the engine's call.
    fn prefixed_key(&mut self, text: &str, quote: u8) -> Step {
        let word = self
            .arena
            .as_bytes()
            .get(self.key_start..)
            .unwrap_or_default();
        // A raw string's backslashes are content (`r'\d'`): left to the engine.
        if !is_python_prefix(word) || is_raw_prefix(word) {
            return self.freeze();
        }
        // (`quoted_key` may wait for bytes that tell a Windows path: the prefix stays in
        // the arena until it can read on.)
        if windows_path(text.as_bytes().get(self.pos + 1..).unwrap_or_default()).is_none() {
            return Step::Wait;
        }
        self.arena.truncate(self.key_start);
        self.quoted_key(text, quote)
    }

    /// The bare key read into the arena ends at `at` (a `,`, `}` or line break) with no
    /// colon: when its last word is a number or literal after plain words, the engine
    /// (`value_after_bare_key`) makes those words the key and that word its value. Cuts the
    /// key and returns where the word starts in the text; `None` otherwise.
    fn bare_key_value(&mut self, at: usize) -> Option<usize> {
        let key = self.arena.as_bytes().get(self.key_start..)?;
        let end = key.trim_ascii_end().len();
        let space = key[..end].iter().rposition(|&c| c == b' ' || c == b'\t')?;
        let word = &key[space + 1..end];
        let name = key[..space].trim_ascii_end().len();
        let is_value = crate::repair::json_number_end(word, 0, word.len()) == Some(word.len())
            || crate::repair::literal_word(word).is_some();
        if !is_value
            || name == 0
            || !key[..space]
                .iter()
                .all(|&c| is_ident(c) || c == b' ' || c == b'\t')
        {
            return None;
        }
        // The key's bytes are the text's, up to `at`.
        let word_at = at - (key.len() - (space + 1));
        self.arena.truncate(self.key_start + name);
        if !self.complete_key() {
            return None;
        }
        self.repaired = true;
        Some(word_at)
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
                            && crate::repair::json_number_end(b, arg.start, arg.end)
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

    fn value_word(&mut self, text: &str) -> Step {
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
        if classified.is_none() && token_ends && word.strip_suffix('.').is_some_and(is_json_integer)
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
                Some(b'"') => break is_space(bytes[k - 1]),
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

    // ----- the tree ---------------------------------------------------------------------

    /// Record the key just read as complete (it waits in `key` for its value); false for a
    /// duplicate in the innermost object.
    fn complete_key(&mut self) -> bool {
        /// Objects up to this wide are scanned for a duplicate; wider ones keep hashes.
        const SCAN: usize = 16;
        let Some(frame) = self.stack.last_mut().filter(|f| f.object) else {
            return false;
        };
        let (nodes, arena) = (&self.nodes, &self.arena);
        let key = arena.get(self.key_start..).unwrap_or_default();
        // `"status”: "ok"`: the engine closes the key at a typographic quote before a colon;
        // the stream read on past it.
        if !key.is_ascii() && typographic_before_colon(key) {
            return false;
        }
        let container = frame.node;
        let keys =
            || children(nodes, container).filter_map(|(_, node)| arena.get(node.key_range()));
        // One bit per key of a cheap hash: a key whose bit is clear is new, which is most keys,
        // so most are told apart without a look at their siblings.
        let bit = 1u64 << key_mix(key);
        let seen = frame.key_bits & bit != 0;
        frame.key_bits |= bit;
        if frame.len < SCAN {
            // Lengths first: most sibling keys differ in length, and comparing those costs
            // no look at the text.
            if seen
                && children(nodes, container).any(|(_, node)| {
                    usize::from(node.key_len) == key.len()
                        && arena.as_bytes().get(node.key_range()) == Some(key.as_bytes())
                })
            {
                return false;
            }
        } else {
            let hashes = frame
                .key_hashes
                .get_or_insert_with(|| keys().map(fnv1a).collect());
            // A hash seen before is confirmed by a scan: collisions are rare.
            if !hashes.insert(fnv1a(key)) && keys().any(|k| k == key) {
                return false;
            }
        }
        self.pending_key = true;
        true
    }

    /// Put a new node of `kind` with `text` into the innermost container (or make it the
    /// root) and record the event. Returns its id, or `None` when there is no place for it
    /// (which the modes rule out).
    fn attach(&mut self, kind: Kind, text: (usize, usize)) -> Option<usize> {
        let id = self.nodes.len();
        let mut key = text.0;
        // (`object`, index of the new child) in the innermost container.
        let place = match self.stack.last_mut() {
            None if self.nodes.is_empty() => None,
            None => return None,
            Some(frame) => {
                if frame.object {
                    if !std::mem::take(&mut self.pending_key) {
                        return None;
                    }
                    // The key was read into the arena right before the value's text.
                    key = self.key_start;
                }
                frame.last = id as u32;
                frame.len += 1;
                Some((frame.object, frame.len - 1))
            }
        };
        let key_len = u16::try_from(text.0.checked_sub(key)?).ok()?;
        let container = matches!(kind, Kind::Arr | Kind::Obj);
        self.nodes.push(Node {
            kind,
            key_len,
            text: text.0 as u32,
            end: if container { NONE } else { text.1 as u32 },
        });
        self.revision += 1;
        if self.track_events {
            self.log.fresh();
            let buf = &mut self.log.buf;
            let path_start = buf.len();
            match place {
                None => {}
                Some((true, _)) => {
                    let segment = self.arena.get(key..text.0).unwrap_or_default();
                    buf.reserve(self.ptr.len() + 1 + segment.len());
                    buf.push_str(&self.ptr);
                    push_segment(buf, segment);
                }
                Some((false, index)) => {
                    buf.reserve(self.ptr.len() + 21);
                    buf.push_str(&self.ptr);
                    push_index(buf, index);
                }
            }
            self.log.entries.push(Entry {
                path: (path_start, buf.len()),
                set: Some(kind),
                text,
            });
            self.last_append = (kind == Kind::Str).then_some(id);
        }
        Some(id)
    }

    /// Append the pointer segment of the innermost container's last child (the node just
    /// attached, or the string being read) to `path`; nothing for the root.
    fn push_last_segment(&self, path: &mut String) {
        let Some(frame) = self.stack.last() else {
            return;
        };
        if frame.object {
            let key = self
                .nodes
                .get(frame.last as usize)
                .map_or(0..0, Node::key_range);
            push_segment(path, self.arena.get(key).unwrap_or_default());
        } else {
            push_index(path, frame.len.saturating_sub(1));
        }
    }

    /// Node `id` as it is when it appears (containers are empty then).
    fn shown(&self, id: usize, source: &str) -> Value {
        let Some(node) = self.nodes.get(id) else {
            return Value::Null;
        };
        let text = self.arena.get(node.text_range()).unwrap_or_default();
        match node.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            // Deserialized exactly as within a whole document, so the number equals the one
            // in the final value; the text is valid JSON number grammar, so this succeeds.
            Kind::Num => number(text),
            Kind::Str => Value::String(text.to_owned()),
            Kind::Arr => Value::Array(Vec::new()),
            Kind::Obj => Value::Object(Map::new()),
            Kind::Json => {
                let span = self.whole_spans.get(node.end as usize);
                json_value(
                    span.and_then(|&(a, z)| source.get(a..z))
                        .unwrap_or_default(),
                )
            }
        }
    }

    /// At a `{` or `[` that opens a value: when the text holds all of it as strict JSON
    /// (see `whole`), take it as one node and one event; `None` leaves it to `open`.
    fn whole(&mut self, text: &str) -> Option<Step> {
        #[cfg(test)]
        if !self.whole_fast {
            return None;
        }
        if self.whole_budget == 0 || self.stack.len() >= self.depth_limit {
            return None;
        }
        let rest = text.as_bytes().get(self.pos..)?;
        #[cfg(not(test))]
        let min_scan = WHOLE_MIN_SCAN;
        #[cfg(test)]
        let min_scan = self.whole_min_scan;
        if rest.len() < min_scan {
            return None;
        }
        let rest = rest.get(..rest.len().min(self.whole_budget))?;
        let max_depth = self.depth_limit - self.stack.len();
        let found = match whole::container_len(rest, max_depth, &mut self.whole_scratch) {
            Ok(found) => found,
            Err(spent) => {
                self.whole_budget -= spent.min(self.whole_budget);
                return None;
            }
        };
        let len = found.len;
        if let Some(at) = found.closers_after_string {
            if self.closers_end_string(text.as_bytes(), self.pos + at, self.pos + len) != Some(true)
            {
                self.whole_budget -= len.min(self.whole_budget);
                return None;
            }
        }
        // The JSON stays in the text pushed: no copy. The node's `end` names its span.
        let span = (self.pos, self.pos + len);
        let at = self.arena.len();
        if self
            .attach(Kind::Json, (at, self.whole_spans.len()))
            .is_none()
        {
            return Some(self.freeze());
        }
        self.whole_spans.push(span);
        if self.track_events {
            if let Some(entry) = self.log.entries.last_mut() {
                entry.text = span;
            }
        }
        self.pos += len;
        self.mode = Mode::AfterValue;
        Some(Step::Go)
    }

    /// Whether the closers at `b[at..end]` (the end of a whole container), right after its
    /// last string, are closers to the engine, as `after_string` decides it for a string
    /// followed by closers; `None` while the text cannot tell.
    fn closers_end_string(&self, b: &[u8], at: usize, end: usize) -> Option<bool> {
        match quote_after_closers(b, at) {
            Some(false) => {
                let inside = b.get(at..end).unwrap_or_default();
                let open = inside
                    .iter()
                    .copied()
                    .filter(|&c| c != b' ' && c != b'\t')
                    .chain(
                        self.stack
                            .iter()
                            .rev()
                            .map(|f| if f.object { b'}' } else { b']' }),
                    );
                crate::repair::words_after_closers(b, at, open, false).map(|content| !content)
            }
            later => later.map(|later| !later),
        }
    }

    fn open(&mut self, object: bool) -> Step {
        self.open_container(object, 1)
    }

    /// Open an object or array whose opener is `opener_len` bytes at `pos` (none for a
    /// document that lost its `{`).
    fn open_container(&mut self, object: bool, opener_len: usize) -> Step {
        if self.stack.len() >= self.depth_limit {
            return self.freeze();
        }
        if !self.push_container(object, self.arena.len()) {
            return self.freeze();
        }
        self.pos += opener_len;
        self.mode = if object { Mode::Key } else { Mode::Element };
        Step::Go
    }

    /// Attach a new object or array whose key (if any) ends at `at` in the arena and make
    /// it the innermost container; false when there is no place for it.
    fn push_container(&mut self, object: bool, at: usize) -> bool {
        let kind = if object { Kind::Obj } else { Kind::Arr };
        let ptr_len = self.ptr.len();
        let Some(id) = self.attach(kind, (at, at)) else {
            return false;
        };
        if self.track_events {
            // The container's own event path is its pointer: `ptr` + its segment.
            let path = self.log.entries.last().map_or((0, 0), |e| e.path);
            let segment = self.log.buf.get(path.0 + ptr_len..path.1);
            self.ptr.push_str(segment.unwrap_or_default());
        }
        self.stack.push(Frame {
            node: id,
            last: NONE,
            len: 0,
            object,
            key_bits: 0,
            key_hashes: None,
            ptr_len,
            doubled: false,
        });
        true
    }

    fn close(&mut self) -> Step {
        self.pos += 1;
        if let Some(frame) = self.stack.pop() {
            self.ptr.truncate(frame.ptr_len);
            let end = self.nodes.len() as u32;
            if let Some(node) = self.nodes.get_mut(frame.node) {
                node.end = end;
            }
            self.doubled_closed = frame.doubled;
        }
        self.mode = if self.stack.is_empty() {
            Mode::Done
        } else {
            Mode::AfterValue
        };
        Step::Go
    }

    fn open_string(&mut self, quote: u8, windows: bool) -> Step {
        let at = self.arena.len();
        if !self.stack.is_empty() {
            // A short string may turn out to be a key (see `KEY_LIKE_LEN`).
            // (Where the content starts, less one: as after a straight quote.)
            self.deferred = Some((self.pos + quote_len(quote) - 1, at));
        } else {
            let Some(id) = self.attach(Kind::Str, (at, at)) else {
                return self.freeze();
            };
            self.current = id;
            self.current_path_known = false;
        }
        self.double_quote_seen = false;
        self.inner_quote = false;
        self.value_quote = if windows { 0 } else { quote };
        self.held.clear();
        self.pos += quote_len(quote);
        self.mode = Mode::Str {
            quote,
            key: false,
            windows,
        };
        Step::Go
    }

    /// The held-back string element is a string after all: show it, with its content so far.
    fn show_deferred(&mut self) {
        let Some((_, start)) = self.deferred.take() else {
            return;
        };
        match self.attach(Kind::Str, (start, self.arena.len())) {
            Some(id) => {
                self.current = id;
                self.current_path_known = false;
            }
            None => {
                self.freeze();
            }
        }
    }

    /// Show the number or literal waiting for confirmation; false if that froze the stream.
    fn commit_pending(&mut self) -> bool {
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

    /// The string value being read grew: `arena[from..]` is new content (the string being
    /// read is the arena's last text, so it grows in place).
    fn grew(&mut self, from: usize) {
        if self.arena.len() == from || self.deferred.is_some() {
            return;
        }
        if let Some(node) = self.nodes.get_mut(self.current) {
            node.end = self.arena.len() as u32;
        }
        self.revision += 1;
        if !self.track_events {
            return;
        }
        self.log.fresh();
        if self.last_append == Some(self.current) {
            // The string's own `Set` or `Append` is the last event, its text the end of the
            // buffer: extend it.
            if let Some(entry) = self.log.entries.last_mut() {
                entry.text.1 = self.arena.len();
                return;
            }
        }
        // The string's pointer, built the first time it grows after its `Set` was drained.
        if !self.current_path_known {
            // An event of the string before may still name its path by `current_path`.
            self.log.settle_current(&self.current_path);
            let mut p = std::mem::take(&mut self.current_path);
            p.clear();
            p.push_str(&self.ptr);
            self.push_last_segment(&mut p);
            self.current_path = p;
            self.current_path_known = true;
        }
        // The path stays in `current_path` (no copy) until that changes.
        self.log.settle_current(&self.current_path);
        self.log.current = Some(self.log.entries.len());
        self.log.entries.push(Entry {
            path: CURRENT_PATH,
            set: None,
            text: (from, self.arena.len()),
        });
        self.last_append = Some(self.current);
    }

    fn snapshot(&self, source: &str) -> Option<Value> {
        if self.nodes.is_empty() {
            return None;
        }
        Some(self.build(0, source))
    }

    /// Depth is bounded by `STREAM_DEPTH_LIMIT`, so the recursion is too.
    fn build(&self, id: usize, source: &str) -> Value {
        let Some(node) = self.nodes.get(id) else {
            return Value::Null;
        };
        let children = || children(&self.nodes, id);
        match node.kind {
            Kind::Arr => Value::Array(children().map(|(i, _)| self.build(i, source)).collect()),
            Kind::Obj => Value::Object(
                children()
                    .map(|(i, child)| {
                        let key = self.arena.get(child.key_range());
                        (key.unwrap_or_default().to_owned(), self.build(i, source))
                    })
                    .collect(),
            ),
            _ => self.shown(id, source),
        }
    }
}

/// Where a value starts on an opening fence's line (`rest` starts at the marker): past the
/// marker, a language tag and spaces, at a `{` or `[` (```` ```json {"a": 1}``` ````).
/// `Some(None)`: not on this line; `None`: more text is needed to tell. The one-shot engine
/// uses it too, on the whole line.
pub(crate) fn fence_value_start(rest: &[u8]) -> Option<Option<usize>> {
    let marker = *rest.first()?;
    let mut k = 0;
    while rest.get(k) == Some(&marker) {
        k += 1;
    }
    while rest
        .get(k)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-'))
    {
        k += 1;
    }
    while matches!(rest.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    let c = *rest.get(k)?;
    Some(matches!(c, b'{' | b'[').then_some(k))
}

/// Reasoning blocks the engine skips before the value: opening tag (any case), closing tag.
const REASONING_TAGS: [(&[u8], &[u8]); 4] = [
    (b"<think>", b"</think>"),
    (b"<thinking>", b"</thinking>"),
    (b"<reasoning>", b"</reasoning>"),
    (b"<reflection>", b"</reflection>"),
];

/// Which reasoning tag opens at the start of `b`: `Some(Some(i))`, `Some(None)` for none,
/// `None` when more text is needed to tell.
fn reasoning_tag(b: &[u8]) -> Option<Option<usize>> {
    let mut undecided = false;
    for (i, (open, _)) in REASONING_TAGS.iter().enumerate() {
        let n = open.len().min(b.len());
        if b[..n].eq_ignore_ascii_case(&open[..n]) {
            if n == open.len() {
                return Some(Some(i));
            }
            undecided = true;
        }
    }
    (!undecided).then_some(None)
}

/// How far the engine looks ahead (bytes) to judge a bracket in prose or a key.
const LOOKAHEAD: usize = 256;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

/// `u`, `b`, `r`, `f`, `rb`, `br`, `rf`, `fr` in any case: a Python string prefix (the
/// engine's `python_string_prefix`).
fn is_python_prefix(word: &[u8]) -> bool {
    match word {
        [c] => matches!(c.to_ascii_lowercase(), b'u' | b'b' | b'r' | b'f'),
        [c, d] => matches!(
            [c.to_ascii_lowercase(), d.to_ascii_lowercase()],
            [b'r', b'b'] | [b'b', b'r'] | [b'r', b'f'] | [b'f', b'r']
        ),
        _ => false,
    }
}

/// A prefix with `r` makes a raw string (the engine's `is_raw_prefix`).
fn is_raw_prefix(word: &[u8]) -> bool {
    word.iter().any(|c| c.eq_ignore_ascii_case(&b'r'))
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-' || b >= 0x80
}

/// Where the argument starts when `b` starts with a call whose argument looks like JSON
/// (`callback_1({`, `NumberLong(5`), as the engine's `bare_document` judges a text that is
/// one call; `None` while the text cannot tell.
fn call_arg_at(b: &[u8]) -> Option<Option<usize>> {
    if !is_ident_start(*b.first()?) {
        return Some(None);
    }
    let word = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')))?;
    if word == 0 || b[word] != b'(' {
        return Some(None);
    }
    let arg = word + 1 + b[word + 1..].iter().position(|&c| !is_space(c))?;
    let rest = &b[arg..];
    let json = match rest[0] {
        b'{' | b'[' | b'-' | b'0'..=b'9' => true,
        _ => match quote_at(rest)? {
            true => true,
            false => {
                let literal = |w: &[u8]| starts_with_partial(rest, w);
                match (literal(b"true"), literal(b"false"), literal(b"null")) {
                    (Some(true), _, _) | (_, Some(true), _) | (_, _, Some(true)) => true,
                    (None, _, _) | (_, None, _) | (_, _, None) => return None,
                    _ => false,
                }
            }
        },
    };
    Some(json.then_some(arg))
}

/// Where the colon is when `b` starts with a bare key and its colon (`name:`, `user name:`,
/// not `http:/`), as the engine's `bare_document` judges the start of a document that lost
/// its `{`; `None` while the text cannot tell.
fn bare_key_at(b: &[u8]) -> Option<Option<usize>> {
    if !is_ident_start(*b.first()?) {
        return Some(None);
    }
    let run = b
        .iter()
        .take(64)
        .position(|&c| !(is_ident(c) || matches!(c, b' ' | b'.' | b'@')));
    match run {
        Some(n) if b[n] == b':' => b.get(n + 1).map(|&c| (c != b'/').then_some(n)),
        Some(_) => Some(None),
        None if b.len() >= 64 => Some(None),
        None => None,
    }
}

/// Whether a JSON scalar or a Python literal starts `b` (a digit, `-`, a whole `null`,
/// `true`, `None`…); `None` when more text is needed to tell.
fn fenced_scalar_start(b: &[u8]) -> Option<bool> {
    if matches!(b.first()?, b'0'..=b'9' | b'-') {
        return Some(true);
    }
    for word in [&b"null"[..], b"true", b"false", b"True", b"False", b"None"] {
        if starts_with_partial(b, word)? {
            return b.get(word.len()).map(|&c| !is_ident(c));
        }
    }
    Some(false)
}

/// Whether a string quote starts `b` (`"`, `'`, a backtick that is not a fence, a
/// typographic quote); `None` when more text is needed to tell.
fn quote_at(b: &[u8]) -> Option<bool> {
    match b.first() {
        Some(b'"' | b'\'') => Some(true),
        Some(b'`') => starts_with_partial(b, b"```").map(|fence| !fence),
        Some(0xE2) => match (b.get(1), b.get(2)) {
            (Some(0x80), Some(0x98 | 0x99 | 0x9C | 0x9D | 0x9E)) => Some(true),
            (None, _) | (Some(0x80), None) => None,
            _ => Some(false),
        },
        _ => Some(false),
    }
}

/// The first `quote` or `\\` in `rest`, or `third` too. The first bytes are
/// tested eight at a time in a word (the next stop is often close: an escape, the end of a
/// short key or of a small push); memchr, whose setup costs more than that, takes the rest.
#[inline]
fn string_stop(rest: &[u8], quote: u8, third: Option<u8>) -> Option<usize> {
    const NEAR: usize = 64;
    let (typographic, third) = (third.is_some(), third.unwrap_or(quote));
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `w` equal to `c`. Only bytes above the first match can
    // be flagged wrongly, so the lowest flag is exact.
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut i = 0;
    while i < NEAR {
        let Some(word) = rest.get(i..i + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()) else {
            // Fewer than eight bytes left.
            let tail = rest.get(i..).unwrap_or_default();
            return tail
                .iter()
                .position(|&c| c == quote || c == b'\\' || (typographic && c == third))
                .map(|k| i + k);
        };
        let w = u64::from_le_bytes(word);
        let mut found = matches(w, quote) | matches(w, b'\\');
        if typographic {
            found |= matches(w, third);
        }
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    string_stop_far(rest.get(NEAR..)?, quote, typographic.then_some(third)).map(|k| k + NEAR)
}

/// `string_stop` for a straight-quoted value (`"`, `\`, `'` or the 0xE2 of a typographic
/// quote), inlined into `Parser::plain_value_run`'s loop; with `CONTROL`, a byte below 0x20
/// too (for `whole`, which takes strict JSON only).
#[inline(always)]
fn plain_stop<const CONTROL: bool>(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte equal to `c` (below `c` for `below`); only bytes above the
    // lowest flag can be flagged wrongly, so the lowest is exact.
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let below = |w: u64, c: u8| w.wrapping_sub(ONES * u64::from(c)) & !w & HIGHS;
    let found = |w: u64| {
        let mut found = matches(w, b'"') | matches(w, b'\\') | matches(w, 0xE2) | matches(w, b'\'');
        if CONTROL {
            found |= below(w, 0x20);
        }
        found
    };
    let mut words = rest.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let w = found(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if w != 0 {
            return Some(at + (w.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = words.remainder().len();
    if tail == 0 {
        return None;
    }
    if let Some(last) = rest.last_chunk::<8>() {
        // The last eight bytes, the first `8 - tail` of them read above with no stop: their
        // flags are shifted out. No stop among them means no borrow out of them either, so
        // the lowest flag left is exact.
        let w = found(u64::from_le_bytes(*last)) >> (8 * (8 - tail));
        return (w != 0).then(|| at + (w.trailing_zeros() / 8) as usize);
    }
    words
        .remainder()
        .iter()
        .position(|&c| matches!(c, b'"' | b'\\' | 0xE2 | b'\'') || (CONTROL && c < 0x20))
        .map(|k| at + k)
}

/// As the engine's `key_closer_later`: whether a `quote` later on the line from `from` is
/// followed by a `:` (the key's own closing quote); `None` while the text cannot tell.
fn key_closer_later(b: &[u8], from: usize, quote: u8) -> Option<bool> {
    let rest = b.get(from..).unwrap_or_default();
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    let within = &line[..line.len().min(LOOKAHEAD)];
    match memchr::memchr_iter(quote, within).find(|&n| !crate::repair::escaped_at(b, from + n)) {
        Some(n) => rest[n + 1..]
            .iter()
            .find(|&&c| !is_space(c))
            .map(|&c| c == b':'),
        // No such quote before the line ends (or the look-ahead's limit): known only once
        // the line is complete.
        None if within.len() == line.len() && line.len() == rest.len() => None,
        None => Some(false),
    }
}

/// The engine's `double_quote_closes` for a single-quoted value at its first `"`, whose
/// next byte is `b[after]` (`'x", "b": 1`, `'x"}`): `Some(Some(closes))`; `Some(None)`
/// where the engine looks at more than the stream mirrors (a comment, a Unicode space, a
/// key of a kind `key_follows` does not read); `None` while the text cannot tell.
fn double_quote_closes_value(b: &[u8], after: usize, object: bool) -> Option<Option<bool>> {
    // The engine's `skip_layout_ahead`, for plain layout.
    let layout = |from: usize| -> Option<Option<usize>> {
        let mut i = from;
        loop {
            match *b.get(i)? {
                c if is_space(c) => i += 1,
                b'/' | 0x80.. => return Some(None),
                _ if i - from >= LOOKAHEAD => return Some(None),
                _ => return Some(Some(i)),
            }
        }
    };
    let Some(k) = layout(after)? else {
        return Some(None);
    };
    Some(match b[k] {
        b',' => {
            let Some(m) = layout(k + 1)? else {
                return Some(None);
            };
            if object {
                match key_follows(b, m)? {
                    true => Some(true),
                    // (The stream's `key_follows` reads fewer keys than the engine's.)
                    false => None,
                }
            } else {
                match b[m] {
                    b'"' | b'\'' => Some(true),
                    b'`' | 0xE2 => None,
                    _ => Some(false),
                }
            }
        }
        c @ (b'}' | b']') => {
            if c != if object { b'}' } else { b']' } {
                Some(false)
            } else {
                // The text's end would do too; while streaming, more may come.
                let Some(m) = layout(k + 1)? else {
                    return Some(None);
                };
                Some(matches!(b[m], b',' | b'}' | b']'))
            }
        }
        _ => Some(false),
    })
}

/// The third byte a string's scan stops at, where the engine may close it with another
/// quote: a `”` in a straight-quoted value, a `'` in a straight-quoted key, a `"` in a
/// single-quoted string.
fn third_stop(quote: u8, key: bool) -> Option<u8> {
    match (quote, key) {
        (b'"', false) => Some(0xE2),
        (b'"', true) => Some(b'\''),
        (b'\'', _) | (TYPO | TYPO_SINGLE, _) => Some(b'"'),
        _ => None,
    }
}

/// `string_stop` past its first words, out of line so that the common short scan stays
/// small.
#[inline(never)]
fn string_stop_far(far: &[u8], quote: u8, third: Option<u8>) -> Option<usize> {
    match third {
        Some(third) => memchr::memchr3(quote, b'\\', third, far),
        None => memchr::memchr2(quote, b'\\', far),
    }
}

/// The engine's `template_placeholder` on `b[i..]`, or `None` while the text so far cannot
/// tell (it ends inside what may be a placeholder).
fn template_placeholder_at(b: &[u8], i: usize) -> Option<bool> {
    let limit = i + LOOKAHEAD;
    let decided = crate::repair::template_placeholder(b, i, limit);
    // A `}}` seen, or a byte that ends the word, or the look-ahead's end: decided.
    let window = &b[i..b.len().min(limit)];
    // (A Mustache sigil may come first: `{{#items}}`.)
    let name_from = if window
        .get(2)
        .is_some_and(|c| crate::repair::TEMPLATE_SIGILS.contains(c))
    {
        3
    } else {
        2
    };
    let open = window.len() < limit - i
        && window.starts_with(b"{{")
        && window[name_from.min(window.len())..]
            .iter()
            .all(|&c| is_ident(c) || matches!(c, b' ' | b'.'));
    let cut_closer =
        window.len() < limit - i && window.starts_with(b"{{") && !decided && window.ends_with(b"}");
    if open || cut_closer {
        None
    } else {
        Some(decided)
    }
}

/// As the engine: a `{` that starts the text opens an object unless it is prose in braces
/// (`{see attached}`), which has no `:` or quote before its first `}`. `None`: more text is
/// needed.
fn object_at_text_start(b: &[u8], i: usize) -> Option<bool> {
    if plausible_container(b, i)? {
        return Some(true);
    }
    // As in the engine: a quote before the first `}` counts (`{a 'b'}` lost its colon).
    for k in i + 1..i + LOOKAHEAD {
        match *b.get(k)? {
            b':' | b'=' | b'"' | b'\'' | 0xE2 => return Some(true),
            b'}' => return Some(false),
            _ => {}
        }
    }
    Some(true)
}

/// Whether the `{` or `[` at `b[i]`, met in prose, opens JSON (the engine's judgement, over
/// the same bounded lookahead): `None` when more text is needed.
fn plausible_container(b: &[u8], i: usize) -> Option<bool> {
    let limit = i + LOOKAHEAD;
    let mut j = i + 1;
    while j < limit && b.get(j).is_some_and(|&c| is_space(c)) {
        j += 1;
    }
    let c = *b.get(j)?;
    let object = b[i] == b'{';
    Some(match c {
        // As the engine: `{{name}}` is a template's placeholder, not JSON.
        b'{' => !template_placeholder_at(b, i)?,
        b'"' | b'[' | b'\'' => true,
        b'}' => object,
        b']' => !object,
        b'\\' => *b.get(j + 1)? == b'"',
        b'/' => matches!(*b.get(j + 1)?, b'/' | b'*'),
        b'#' => matches!(*b.get(j + 1)?, b' ' | b'\t' | b'\n' | b'\r' | b'#'),
        0xE2 => quote_at(&b[j..])?,
        // As the engine: `[-r]` in a usage line is an option, `[8%]` a note.
        b'-' | b'0'..=b'9' => {
            !object && crate::repair::number_element_at(&b[..b.len().min(limit)], j, false)?
        }
        _ if is_ident_start(c) => {
            let mut k = j;
            // As the engine: the key's word ends at a `:` or a full-width `：`.
            let mut full_width_colon = false;
            while k < limit && (is_ident(*b.get(k)?) || b[k] == b' ') {
                if b[k] == 0xEF && starts_with_partial(&b[k..], FULL_WIDTH_COLON)? {
                    full_width_colon = true;
                    break;
                }
                k += 1;
            }
            if object {
                full_width_colon || *b.get(k)? == b':'
            } else {
                // As the engine: a literal word, then a separator or a space.
                let mut w = j;
                while w < limit && b.get(w)?.is_ascii_alphabetic() {
                    w += 1;
                }
                let literal = matches!(
                    &b[j..w],
                    b"true"
                        | b"True"
                        | b"TRUE"
                        | b"false"
                        | b"False"
                        | b"FALSE"
                        | b"null"
                        | b"None"
                        | b"none"
                        | b"NULL"
                        | b"Null"
                        | b"nil"
                        | b"undefined"
                        | b"NaN"
                        | b"Infinity"
                );
                let next = *b.get(w)?;
                literal && (is_space(next) || matches!(next, b',' | b']'))
            }
        }
        _ => false,
    })
}

/// Whether a key (`"k":`, `'k':`, `k:`) starts at `b[k]`, as the engine judges it after a
/// string value and a comma; `None` when more text is needed. Unsure cases say no: the
/// caller then freezes, which is always safe.
fn key_follows(b: &[u8], k: usize) -> Option<bool> {
    let first = *b.get(k)?;
    if first == 0xE2 {
        // `“key”:`, `‘key’:` (closed by either quote of its kind or by `"`, as the engine
        // reads it).
        let Some(kind) = typo_quote_at(&b[k..])? else {
            return Some(false);
        };
        let limit = k + LOOKAHEAD;
        let mut i = k + 3;
        let after = loop {
            if i >= limit {
                return Some(false);
            }
            match *b.get(i)? {
                b'\\' => i += 2,
                b'\n' => return Some(false),
                b'"' => break i + 1,
                0xE2 if typo_quote_at(&b[i..])? == Some(kind) => break i + 3,
                _ => i += 1,
            }
        };
        return key_end_follows(b, after);
    }
    if first == b'"' || first == b'\'' || first == b'`' {
        if first == b'`' && !quote_at(&b[k..])? {
            return Some(false);
        }
        let limit = k + LOOKAHEAD;
        let mut i = k + 1;
        let after = loop {
            if i >= limit {
                return Some(false);
            }
            // The next quote, backslash or line break before the limit.
            let window = b.get(i..b.len().min(limit)).unwrap_or_default();
            let Some(j) = string_stop(window, first, Some(b'\n')) else {
                // None in the text so far: more may come, unless the limit is reached.
                return if b.len() >= limit { Some(false) } else { None };
            };
            let at = i + j;
            match b[at] {
                b'\\' => i = at + 2,
                b'\n' => return Some(false),
                _ => break at + 1,
            }
        };
        return key_end_follows(b, after);
    }
    if is_ident_start(first) || first.is_ascii_digit() {
        let limit = k + 64;
        let mut m = k;
        while m < limit && (is_ident(*b.get(m)?) || b[m] == b' ') {
            m += 1;
        }
        // `"x", b": 2}`: a key that lost its opening quote (the engine's
        // `key_lost_opening_quote`; it skips comments there too, which here say no).
        if m > k && matches!(b.get(m), Some(b'"' | b'\'')) {
            let mut j = m + 1;
            while is_space(*b.get(j)?) && j < k + LOOKAHEAD {
                j += 1;
            }
            if b[j] == b':' {
                return Some(true);
            }
            // `u'name': …`: a key with a Python string prefix.
            if is_python_prefix(&b[k..m]) {
                return key_follows(b, m);
            }
        }
        if *b.get(m)? == b'=' && m > k + 1 && b[m - 1] == b' ' {
            // `host = "x"` first on its line, `port => 1`: `=` for the colon (the
            // engine's `equals_for_colon`).
            let next = *b.get(m + 1)?;
            let one_word = b[k..m]
                .iter()
                .position(|&c| c == b' ')
                .is_none_or(|w| b[k + w..m].iter().all(|&c| c == b' '));
            if next == b'>' || (next != b'=' && one_word && crate::repair::first_on_line(b, k)) {
                return Some(true);
            }
        }
        if *b.get(m)? != b':' {
            return key_without_colon_at(b, k);
        }
        if *b.get(m + 1)? == b'/' {
            return Some(false);
        }
        // As the engine: no key when the quote after the colon ends a string (`version:",
        // "done"`) rather than opening a value (`b: "}A"`).
        let mut v = m + 1;
        while is_space(*b.get(v)?) {
            v += 1;
        }
        if b[v] != b'"' {
            return Some(true);
        }
        return match crate::repair::separator_after_quote(b, v + 1, false)? {
            false => Some(true),
            // `b: ", "}`: unless the quote opens a whole value.
            true => crate::repair::member_value_string_at(b, v, false),
        };
    }
    Some(false)
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
        _ => (crate::repair::json_number_end(b, a, z) == Some(z)).then_some((Kind::Num, a..z)),
    }
}

/// Whether the string a quote at `b[k]` opens closes on its line and a letter or digit
/// comes right after its closing quote; `None` while the text cannot tell.
fn word_after_quoted(b: &[u8], k: usize) -> Option<bool> {
    let mut i = k + 1;
    loop {
        if i >= k + LOOKAHEAD {
            return Some(false);
        }
        match *b.get(i)? {
            b'\\' => i += 2,
            b'\n' => return Some(false),
            b'"' => return Some(b.get(i + 1)?.is_ascii_alphanumeric()),
            _ => i += 1,
        }
    }
}

/// Where a member's value in bare words ends (`bare_member_string`).
enum BareEnd {
    /// At this offset, where a `,` or `}` (after layout) follows.
    Token(usize),
    /// At this quote, which closes a value that lost its opening one.
    Quote(usize),
}

/// After the quote that ends a member's value which lost its opening quote, at `b[k]`:
/// layout, then the object's `}`, or a comma and what confirms the value (as after a
/// number: no elements and `]`, which would make it an array's first element). `None`
/// while the text cannot tell.
fn lost_opening_quote_ends(b: &[u8], k: usize) -> Option<bool> {
    let mut m = k;
    while is_space(*b.get(m)?) {
        m += 1;
        if m - k >= LOOKAHEAD {
            return Some(false);
        }
    }
    match b[m] {
        b'}' => Some(true),
        b',' => comma_then_member(b, m + 1, After::Number),
        // (A comment: the engine looks past it; a `]`: a wrong closer.)
        _ => Some(false),
    }
}

/// The engine's `elements_then_array_closer` at `b[k]`: quoted strings on one line, numbers
/// or literals, separated by commas, then a `]`, within the look-ahead. `None` while the
/// text cannot tell.
fn elements_then_array_closer(b: &[u8], k: usize) -> Option<bool> {
    crate::repair::elements_then_array_closer_at(b, k)
        .ok()
        .map(|end| end.is_some())
}

/// The engine's `key_without_colon_at`: one bare word at `b[k]`, spaces, then a value
/// that ends the member, a quoted string closed on its line or a number, literal or word,
/// then `,` or `}` (or a line break after a bare one): a key that lost its colon
/// (`"name": "Ann", age 31, …`). `None` while the text cannot tell.
fn key_without_colon_at(b: &[u8], k: usize) -> Option<bool> {
    if !is_ident_start(b[k]) {
        return Some(false);
    }
    let mut m = k;
    while m < k + 64 && is_ident(*b.get(m)?) {
        m += 1;
    }
    let word_end = m;
    while matches!(*b.get(m)?, b' ' | b'\t') {
        m += 1;
        if m - word_end >= LOOKAHEAD {
            return Some(false);
        }
    }
    if m == word_end {
        return Some(false);
    }
    let ends_member = |mut e: usize, line_break: bool| -> Option<bool> {
        loop {
            match *b.get(e)? {
                b' ' | b'\t' | b'\r' => e += 1,
                b'\n' if !line_break => e += 1,
                b'\n' => return Some(true),
                b',' | b'}' => return Some(true),
                _ => return Some(false),
            }
            if e - m >= LOOKAHEAD {
                return Some(false);
            }
        }
    };
    match b[m] {
        q @ (b'"' | b'\'') => {
            let mut i = m + 1;
            loop {
                if i >= m + LOOKAHEAD {
                    return Some(false);
                }
                match *b.get(i)? {
                    b'\\' => i += 2,
                    b'\n' => return Some(false),
                    c if c == q => break,
                    _ => i += 1,
                }
            }
            // (A comment after it: the engine looks past it; left to it.)
            ends_member(i + 1, false)
        }
        b'-' | b'0'..=b'9' => {
            let mut e = m + 1;
            while matches!(*b.get(e)?, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                e += 1;
            }
            if crate::repair::json_number_end(b, m, e) != Some(e) {
                return Some(false);
            }
            ends_member(e, true)
        }
        c if is_ident_start(c) => {
            let mut e = m;
            while e < m + 64 && is_ident(*b.get(e)?) {
                e += 1;
            }
            ends_member(e, true)
        }
        _ => Some(false),
    }
}

/// After a quoted key's closing quote at `after`: whether what follows makes it a key to
/// the engine's `key_follows`: a colon, or a colon it reads as lost (`"c"{…}`, `"b" = 1`,
/// `"b" 1` on the same line). No where the engine looks past what the stream mirrors (a
/// comment, a string right after the quote, a bare word); `None` while the text cannot tell.
fn key_end_follows(b: &[u8], after: usize) -> Option<bool> {
    let mut m = after;
    while is_space(*b.get(m)?) {
        m += 1;
        if m - after >= LOOKAHEAD {
            return Some(false);
        }
    }
    Some(match b[m] {
        b':' => true,
        0xEF => starts_with_partial(&b[m..], FULL_WIDTH_COLON)?,
        b'{' | b'[' if m == after => true,
        b'=' if m > after => *b.get(m + 1)? != b'=',
        _ if m > after && !b[after..m].contains(&b'\n') => return value_starts_at(b, m),
        _ => false,
    })
}

/// The engine's `value_starts_at`: a container, a number or literal that ends there, or a
/// quote (here `"` and `'` only; no for the rest); `None` while the text cannot tell.
fn value_starts_at(b: &[u8], m: usize) -> Option<bool> {
    let ends = |e: usize| {
        b.get(e)
            .map(|&c| matches!(c, b',' | b'}' | b']') || is_space(c))
    };
    Some(match *b.get(m)? {
        b'{' | b'[' | b'"' | b'\'' => true,
        b'-' | b'0'..=b'9' => {
            let mut e = m;
            while matches!(*b.get(e)?, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                e += 1;
            }
            crate::repair::json_number_end(b, m, e) == Some(e) && ends(e)?
        }
        c if c.is_ascii_alphabetic() => {
            let mut e = m;
            while b.get(e)?.is_ascii_alphabetic() {
                e += 1;
            }
            crate::repair::literal_word(&b[m..e]).is_some() && ends(e)?
        }
        _ => false,
    })
}

/// After a quote and layout inside an object, at `j` (an ASCII letter or digit): whether
/// what follows is plainly more words of the string, which the engine's `key_follows` does
/// not take for a key: words up to the next `"` on the line, with no byte that could make
/// them a key (`:`, `=`, `,`, brackets, quotes, `/`, a full-width colon), more than one
/// short word and not ending in a space (`to "Bob", …` is a key that lost its colon to it),
/// and no `:` after that quote (a key that lost its opening quote). Conservative: `false`
/// is "maybe a key". `None` while the text cannot tell.
fn words_to_a_quote(b: &[u8], j: usize) -> Option<bool> {
    let limit = j + 64;
    let mut q = j;
    loop {
        if q >= limit {
            return Some(false);
        }
        match *b.get(q)? {
            b'"' => break,
            c if c.is_ascii_alphanumeric() || b" \t.!?-_@$#%&*+;~^|".contains(&c) => q += 1,
            _ => return Some(false),
        }
    }
    if q - j <= 2 || matches!(b[q - 1], b' ' | b'\t') {
        return Some(false);
    }
    let mut m = q + 1;
    while is_space(*b.get(m)?) {
        m += 1;
    }
    Some(b[m] != b':')
}

/// A member's value at `start` (an ASCII letter) that the engine writes as a bare string
/// (`parse_bare_value`, `write_bare`): words of letters, digits and most ASCII punctuation
/// (not quotes, brackets, parentheses, `\`, `<`), with spaces or tabs between them, ending
/// at a `,` that a member follows or at `}`; no `word: value` (a key). The first
/// word is no literal (`true story` is the engine's phrase rule), the whole is no literal
/// or non-finite number, and no quote later on the line may make it a string that lost
/// its opening quote (`value_lost_opening_quote`). `Some(Some(end))`: such a string, its
/// spaces trimmed, ends at `end`; `Some(None)`: something else; `None` while the text
/// cannot tell. `element`: an array's element (`[red, green]`), which ends at a `,` or
/// `]` and holds no `:` (a key, of the object around the array or of one in it that lost
/// its `{`, to the engine) and no quote (the engine's call).
fn bare_member_string(b: &[u8], start: usize, element: bool) -> Option<Option<BareEnd>> {
    let limit = start + LOOKAHEAD;
    let mut e = start;
    while b.get(e)?.is_ascii_alphabetic() {
        e += 1;
    }
    if crate::repair::literal_word(&b[start..e]).is_some() {
        return Some(None);
    }
    // `word: value` is a key where a value belongs (the engine's `bare_key_at_value`).
    let mut word = start;
    while b.get(word)?.is_ascii_alphanumeric() || b[word] == b'_' {
        word += 1;
    }
    if b[word] == b':' && matches!(*b.get(word + 1)?, b' ' | b'\t') {
        return Some(None);
    }
    let (closer, other_closer) = if element { (b']', b'}') } else { (b'}', b']') };
    loop {
        if e >= limit {
            return Some(None);
        }
        match *b.get(e)? {
            b':' | b'"' if element => return Some(None),
            // `[\n  red,\n  green\n]`, `"name": Ada\n}`: the engine's bare token ends at a
            // line break; the value's then, when a `,` or the closer comes next (in an
            // object, a `,` that a member follows).
            b'\n' | b'\r' => {
                let mut n = e;
                while n < limit && is_space(*b.get(n)?) {
                    n += 1;
                }
                if n >= limit {
                    return Some(None);
                }
                let ends = match b[n] {
                    c if c == closer => true,
                    b',' => element || comma_then_member(b, n + 1, After::Word)?,
                    _ => false,
                };
                if !ends {
                    return Some(None);
                }
                break;
            }
            c if c == other_closer => return Some(None),
            c if c == b',' || c == closer => break,
            c if c.is_ascii_alphanumeric() || b"_.- \t:?=&%@+~!*;$^|".contains(&c) => e += 1,
            // After a space, `//`, `/*` and `#` may start a comment; elsewhere they are
            // content (`https://x.org/#top`).
            b'/' | b'#' if !is_space(b[e - 1]) => e += 1,
            // `C:\Users\me`: a bare path's backslashes are content to the engine (one
            // before a quote is left to it).
            b'\\' if *b.get(e + 1)? != b'"' => e += 1,
            // `"sentiment": negative", "score": …`: a value that lost its opening quote
            // (the engine's `value_lost_opening_quote`), when its words hold no structure
            // (no `:` here, which the others cannot be) and the quote follows a word:
            // then a separator or closer after the quote ends it.
            b'"' if !is_space(b[e - 1]) && !b[start..e].contains(&b':') => {
                return lost_opening_quote_ends(b, e + 1)
                    .map(|ends| ends.then_some(BareEnd::Quote(e)));
            }
            _ => return Some(None),
        }
    }
    let mut token_end = e;
    while matches!(b[token_end - 1], b' ' | b'\t') {
        token_end -= 1;
    }
    if matches!(&b[start..token_end], b"nan" | b"inf") {
        return Some(None);
    }
    if quote_ends_lost_opening(b, e, limit)? {
        return Some(None);
    }
    if !element && b[e] == b',' && !comma_then_member(b, e + 1, After::Word)? {
        return Some(None);
    }
    Some(Some(BareEnd::Token(token_end)))
}

/// The engine's look for a quote that ends a value which lost its opening one
/// (`value_lost_opening_quote`), from `b[k]`: the first `"` on the line, escapes skipped,
/// before `limit`. One right after spaces opens something else. Whether there is such a
/// quote; `None` while the line goes on past the text.
fn quote_ends_lost_opening(b: &[u8], mut k: usize, limit: usize) -> Option<bool> {
    loop {
        if k >= limit {
            return Some(false);
        }
        match *b.get(k)? {
            b'\n' | b'\r' => return Some(false),
            b'"' if k > 0 && is_space(b[k - 1]) => return Some(false),
            b'"' => return Some(true),
            b'\\' => k += 2,
            _ => k += 1,
        }
    }
}

/// The `Number` of valid JSON number text, as serde_json reads it within a document.
/// The value of JSON text that `whole::container_len` accepted, as in the final value.
fn json_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn number(text: &str) -> Value {
    // A plain integer is the same number (and text) either way; far cheaper this way.
    if !text.contains(['.', 'e', 'E']) && text != "-0" {
        if let Ok(n) = text.parse::<u64>() {
            return Value::Number(n.into());
        }
        if let Ok(n) = text.parse::<i64>() {
            return Value::Number(n.into());
        }
    }
    // The text is valid number grammar, so deserializing succeeds.
    serde_json::from_str::<Number>(text).map_or(Value::Null, Value::Number)
}

/// Bytes the engine may cut from the end of a string after a raw line break.
fn cuttable(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'}' | b']' | b',')
}

/// Where the withheld end of raw content `s` starts (see `Parser::content`). Every rule
/// holds back part of the run of cuttable bytes at the very end, so one backward pass over
/// that run decides them all:
/// - from the first line break after which only cuttable bytes follow;
/// - from the trailing layout and a `,` before it (`"Ada,\n  "age": 3` in an object,
///   `"two,\n  "three"` in an array);
/// - from the trailing layout (should a closer end the text after it: `["value ]`);
/// - from the trailing run of layout, closers and commas, when it holds a closer (the closers
///   may end the text, or come before the next key of an object around: `"y], "b": 1`).
fn held_from(s: &str) -> usize {
    let b = s.as_bytes();
    let mut keep = b.len();
    let mut first_line_break = None;
    // Where the trailing layout starts, and the whole trailing run.
    let (mut layout, mut closers) = (b.len(), b.len());
    let (mut in_layout, mut closer_seen) = (true, false);
    for (i, &c) in b.iter().enumerate().rev() {
        if !cuttable(c) {
            break;
        }
        // The run's first line break: the engine ends a string that never closes there
        // when only layout, closers and commas follow (`"x\n,\n]`).
        if c == b'\n' {
            first_line_break = Some(i);
        }
        in_layout &= matches!(c, b' ' | b'\t' | b'\r' | b'\n');
        if in_layout {
            layout = i;
        }
        closers = i;
        closer_seen |= matches!(c, b'}' | b']');
    }
    if let Some(line_break) = first_line_break {
        keep = line_break;
    }
    if layout > 0 && b[layout - 1] == b',' {
        keep = keep.min(layout - 1);
    }
    if closer_seen {
        keep = keep.min(closers);
    }
    keep.min(layout)
}

/// After a comma in an object, at `b[k..]`: whether the next member (or the object's end,
/// or a comment) comes, as the engine reads it after a member's value; `None` while the
/// text so far cannot tell. After a number or literal (`read_key`) the engine reads the
/// next key as keys are read (`"id": 1, "action': …`, `age 3, tags [1]`), unless elements
/// and a `]` follow.
fn comma_then_member(b: &[u8], mut k: usize, after: After) -> Option<bool> {
    // `"amount": 1,000`: digits right after the comma may be thousands (`thousands_groups`).
    let read_key = after == After::Number && !b.get(k)?.is_ascii_digit();
    // (More commas are holes the engine drops: `"a": 1,, "b": 2`; so are ellipses where a
    // key should be: `"a": 1, ..., "b": 2`.)
    let limit = k + LOOKAHEAD;
    loop {
        if k >= limit {
            // Re-read on every push while undecided: bounded, so the stream stays linear
            // (a freeze leaves the rare rest to the engine).
            return Some(false);
        }
        match b.get(k) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b',') => k += 1,
            Some(b'.') if starts_with_partial(&b[k..], b"...")? => k += 3,
            _ => break,
        }
    }
    match b.get(k)? {
        b'}' => Some(true),
        // A wrong closer, which the engine drops: what follows it decides (`"y",]: 1` makes
        // the string a key; found by fuzzing).
        b']' => Some(false),
        // A comment; no key starts with `/`.
        b'/' => b.get(k + 1).map(|n| matches!(n, b'/' | b'*')),
        b'#' => b
            .get(k + 1)
            .map(|n| matches!(n, b' ' | b'\t' | b'\n' | b'\r' | b'#')),
        // The engine makes the value an array that lost its `[` only when elements and a
        // `]` follow (`array_lost_opener_before`); whatever else follows, it reads as keys.
        _ if read_key => elements_then_array_closer(b, k).map(|elements| !elements),
        // After a string value the engine also takes a key that lost its closing quote
        // (`value_string_end`).
        // (The second look only when the first does not settle it: most keys are plain.)
        _ if after == After::String => match key_follows(b, k) {
            Some(true) => Some(true),
            first => match (first, key_without_closing_quote_at(b, k)) {
                (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
        },
        _ => key_follows(b, k),
    }
}

/// What a comma follows, for `comma_then_member`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// A member's number or literal.
    Number,
    /// A member's string value, its closing quote read.
    String,
    /// A member's value in bare words.
    Word,
}

/// The engine's `key_without_closing_quote_at`, for straight quotes: a key at `b[k]` that
/// lost its closing quote (`"skills: []`) or that the other straight quote closes (`"msg':
/// "x"`), its colon after it. `None` while the text cannot tell.
fn key_without_closing_quote_at(b: &[u8], k: usize) -> Option<bool> {
    let (open, other) = match b[k] {
        b'"' => (b'"', b'\''),
        b'\'' => (b'\'', b'"'),
        _ => return Some(false),
    };
    let mut colon = k + 1;
    while colon < k + 2 + KEY_LIKE_LEN
        && (b.get(colon)?.is_ascii_alphanumeric() || matches!(b[colon], b'_' | b'-' | b'.' | b'$'))
    {
        colon += 1;
    }
    let word = colon - (k + 1);
    if word == 0 || word > KEY_LIKE_LEN {
        return Some(false);
    }
    let c = *b.get(colon)?;
    if c == other {
        // (The engine skips comments here too: not mirrored.)
        let mut m = colon + 1;
        while is_space(*b.get(m)?) {
            m += 1;
            if m - colon > LOOKAHEAD {
                return Some(false);
            }
        }
        if b[m] != b':' {
            return Some(false);
        }
        // The engine may still read the quote as content when no value follows the colon
        // (`"a": "x", "q':\n}`): only a value on the same line is taken as sure.
        let mut v = m + 1;
        while matches!(*b.get(v)?, b' ' | b'\t') {
            v += 1;
            if v - m > LOOKAHEAD {
                return Some(false);
            }
        }
        return value_starts_at(b, v);
    }
    // (Closed by a typographic quote: not mirrored.)
    if c != b':' || open != b'"' {
        return Some(false);
    }
    match *b.get(colon + 1)? {
        b' ' | b'\t' => {
            // As above: a value on the same line.
            let mut v = colon + 1;
            while matches!(*b.get(v)?, b' ' | b'\t') {
                v += 1;
                if v - colon > LOOKAHEAD {
                    return Some(false);
                }
            }
            value_starts_at(b, v)
        }
        _ if b[k + 1].is_ascii_alphabetic() || b[k + 1] == b'_' => value_starts_at(b, colon + 1),
        _ => Some(false),
    }
}

/// Whether `key` holds a `”` or `’` followed (spaces aside) by a `:`.
fn typographic_before_colon(key: &str) -> bool {
    key.match_indices(['\u{201D}', '\u{2019}']).any(|(i, q)| {
        key[i + q.len()..]
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with(':')
    })
}

/// Whether the engine may end a straight-quoted value at a `”` or `’` followed by `b[after..]`: a
/// closer or a comma comes next (the engine then also wants a key; the stream freezes on
/// either). `None`: more text is needed.
fn typographic_may_close(b: &[u8], after: usize) -> Option<bool> {
    let mut j = after;
    while is_space(*b.get(j)?) {
        j += 1;
    }
    Some(matches!(b[j], b'}' | b']' | b',' | b'/'))
}

/// As the engine: the closers at `b[j]` are string content when right after them (and `;`
/// `)` spaces, within 16 bytes) comes a quote followed by a separator or closer. `None`:
/// more text is needed to tell.
fn quote_after_closers(b: &[u8], j: usize) -> Option<bool> {
    let mut k = j;
    while k < j + 16 {
        match *b.get(k)? {
            b'}' | b']' | b')' | b';' | b' ' | b'\t' => k += 1,
            b'"' => {
                let mut m = k + 1;
                while is_space(*b.get(m)?) {
                    m += 1;
                }
                return Some(matches!(b[m], b',' | b'}' | b']'));
            }
            _ => return Some(false),
        }
    }
    Some(false)
}

/// Whether string content starting at `b[0]` is a Windows path (`C:\Users`); `None` when
/// more text is needed to tell.
fn windows_path(b: &[u8]) -> Option<bool> {
    let first = *b.first()?;
    if !first.is_ascii_alphabetic() {
        return Some(false);
    }
    if *b.get(1)? != b':' || *b.get(2)? != b'\\' {
        return Some(false);
    }
    if matches!(*b.get(3)?, b'\\' | b'"') {
        return Some(false);
    }
    // As the engine: a path only if an escape JSON does not know (`\d`) shows up before the
    // next quote or line end, within 260 bytes.
    let mut i = 0;
    while i + 1 < 260 {
        match *b.get(i)? {
            b'"' | b'\'' | b'`' | b'\n' => return Some(false),
            b'\\' => {
                if !matches!(
                    *b.get(i + 1)?,
                    b'"' | b'\'' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u'
                ) {
                    return Some(true);
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    Some(false)
}

/// Whether `have` starts with `want`: `Some(true)`/`Some(false)` when it can tell, `None`
/// when `have` is a proper prefix of `want` (more text is needed).
fn starts_with_partial(have: &[u8], want: &[u8]) -> Option<bool> {
    if have.len() >= want.len() {
        Some(&have[..want.len()] == want)
    } else if want.starts_with(have) {
        None
    } else {
        Some(false)
    }
}

/// Whether layout, an ellipsis (`...`, `…`), layout and a colon start at `b[k]`; `None`
/// while the text cannot tell.
fn ellipsis_then_colon(b: &[u8], k: usize) -> Option<bool> {
    let skip = |mut m: usize| -> Option<usize> {
        while is_space(*b.get(m)?) {
            m += 1;
            if m - k >= LOOKAHEAD {
                return Some(usize::MAX);
            }
        }
        Some(m)
    };
    let m = skip(k)?;
    let Some(rest) = b.get(m..) else {
        return Some(false);
    };
    let len = if starts_with_partial(rest, b"...")? {
        3
    } else if starts_with_partial(rest, ELLIPSIS)? {
        ELLIPSIS.len()
    } else {
        return Some(false);
    };
    let m = skip(m + len)?;
    Some(b.get(m) == Some(&b':'))
}

/// Bytes of a bare number or literal (`-12.5e3`, `true`, `None`).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_' | b'$')
}

/// The value of a complete bare word, or `None` when it is not one the stream may decide
/// alone (a bare string value, a number JSON does not allow).
/// The text of a `Num` or `Str` is the word itself.
fn classify(word: &str, non_finite: NonFinite) -> Option<(Kind, bool)> {
    Some(match word {
        _ if is_json_number(word) => (Kind::Num, true),
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
        && !is_json_number(word)
        && !word.strip_suffix('.').is_some_and(is_json_integer)
}

/// A JSON number with no fraction or exponent: `-?(0|[1-9][0-9]*)`.
fn is_json_integer(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s).as_bytes();
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) && is_json_number(s)
}

/// RFC 8259 `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Decode the escape at the start of `b` (which starts with `\\`) as the one-shot engine
/// does in any kind of string.
#[inline]
fn escape(b: &[u8]) -> Escape {
    let Some(&c) = b.get(1) else {
        return Escape::Wait;
    };
    let ch = match c {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'\'' => return Escape::Char('\'', 2, false),
        b'u' => return unicode_escape(b),
        // `C:\Users`: an invalid escape keeps its backslash; what follows is read as usual.
        _ => return Escape::KeepBackslash,
    };
    Escape::Char(ch, 2, true)
}

enum Hex {
    Wait,
    Value(u32),
    Invalid,
}

/// `n` hex digits at `b[from..]`.
fn hex(b: &[u8], from: usize, n: usize) -> Hex {
    let mut v = 0u32;
    for k in 0..n {
        let Some(&h) = b.get(from + k) else {
            return Hex::Wait;
        };
        match char::from(h).to_digit(16) {
            Some(d) => v = v * 16 + d,
            None => return Hex::Invalid,
        }
    }
    Hex::Value(v)
}

/// `\uXXXX`, a surrogate pair `\uD83D\uDE00`, or a lone surrogate (U+FFFD).
fn unicode_escape(b: &[u8]) -> Escape {
    let unit = match hex(b, 2, 4) {
        Hex::Wait => return Escape::Wait,
        Hex::Invalid => return Escape::KeepBackslash,
        Hex::Value(v) => v,
    };
    match unit {
        0xD800..=0xDBFF => {
            match starts_with_partial(b.get(6..).unwrap_or_default(), b"\\u") {
                None => return Escape::Wait,
                Some(false) => return Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
                Some(true) => {}
            }
            match hex(b, 8, 4) {
                Hex::Wait => Escape::Wait,
                Hex::Value(lo @ 0xDC00..=0xDFFF) => {
                    let cp = 0x10000 + ((unit - 0xD800) << 10) + (lo - 0xDC00);
                    let ch = char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER);
                    Escape::Char(ch, 12, true)
                }
                // The next escape is read on its own.
                Hex::Value(_) | Hex::Invalid => Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
            }
        }
        0xDC00..=0xDFFF => Escape::Char(char::REPLACEMENT_CHARACTER, 6, false),
        _ => Escape::Char(
            char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER),
            6,
            true,
        ),
    }
}

/// Append `/segment` to a JSON pointer, escaped per RFC 6901 (`~` → `~0`, `/` → `~1`).
#[inline]
fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    // Keys are short: a plain loop beats a call to memchr2.
    if segment.bytes().any(|b| b == b'~' || b == b'/') {
        for c in segment.chars() {
            match c {
                '~' => path.push_str("~0"),
                '/' => path.push_str("~1"),
                c => path.push(c),
            }
        }
    } else {
        path.push_str(segment);
    }
}

/// Append `/index` to a JSON pointer.
#[inline]
fn push_index(path: &mut String, index: usize) {
    path.push('/');
    if index < 10 {
        path.push(char::from(b'0' + index as u8));
        return;
    }
    // Digits into a buffer, last first: cheaper than `write!` on every array element.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = index;
    while n > 0 {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // ASCII digits, so this never fails.
    path.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// FNV-1a: a fast hash for the duplicate-key check (collisions are confirmed by a scan).
/// Six bits from a key's length and its first two and last two bytes (see
/// `Frame::key_bits`), mixed so that the keys of one object rarely share a bit.
fn key_mix(key: &str) -> u32 {
    let b = key.as_bytes();
    let at = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
    let n = b.len();
    let h = n as u64
        | at(0) << 8
        | at(1) << 16
        | at(n.wrapping_sub(1)) << 24
        | at(n.wrapping_sub(2)) << 32;
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as u32
}

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Pieces of string content that exercise every stop of `plain_value_run`: escapes
    /// (also cut by a chunk's end), bytes the engine may cut, quotes of all kinds.
    const STRING_PIECES: &[&str] = &[
        "a",
        "fn x",
        " ",
        "  ",
        ",",
        "}",
        "]",
        "\n",
        "\\",
        "\\\\",
        "\\\"",
        "\\t",
        "\\/",
        "\\r",
        "\\b",
        "\\u00e9",
        "\\ud83d\\ude00",
        "\\'",
        "\\x",
        "\"",
        "”",
        "“",
        "–",
        "é",
        "😀",
        "'",
        ":",
        "\", \"",
        "\"}",
        "\t",
    ];

    const STRING_HOMES: &[(&str, &str)] = &[
        ("{\"path\": \"a.rs\", \"content\": \"", "\", \"n\": 1}"),
        ("{\"content\": \"", "\"}"),
        ("[\"", "\", 2]"),
        ("\"", "\""),
        ("{'a': \"", "\"}"),
        ("Sure:\n```json\n{\"a\": [\"", "\"]}\n```"),
        ("{\"content\": \"", ""),
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

        /// The fast path for string values changes nothing a caller sees: after every push
        /// the events, the snapshot and whether the stream froze are those of the general
        /// path.
        #[test]
        fn plain_value_run_agrees_with_the_general_path(
            home in 0..STRING_HOMES.len(),
            pieces in prop::collection::vec(0..STRING_PIECES.len(), 0..40),
            sizes in prop::collection::vec(1usize..20, 1..12),
        ) {
            let (open, close) = STRING_HOMES[home];
            let body: String = pieces.iter().map(|&i| STRING_PIECES[i]).collect();
            let text = format!("{open}{body}{close}");
            let mut fast = Repairer::new();
            let mut general = Repairer::new();
            general.parser.plain_fast = false;
            let bytes = text.as_bytes();
            let (mut at, mut k) = (0, 0);
            while at < bytes.len() {
                let end = (at + sizes[k % sizes.len()]).min(bytes.len());
                k += 1;
                fast.push_bytes(&bytes[at..end]);
                general.push_bytes(&bytes[at..end]);
                at = end;
                let a: Vec<Event> = fast.events().map(EventRef::to_event).collect();
                let b: Vec<Event> = general.events().map(EventRef::to_event).collect();
                prop_assert_eq!(a, b, "events after {} bytes of {:?}", at, text);
                prop_assert_eq!(fast.snapshot(), general.snapshot());
                prop_assert_eq!(fast.is_frozen(), general.is_frozen());
            }
        }
    }

    /// Feed `text` in `piece`-byte pieces to a repairer with the lane for whole containers
    /// (taken however short the text) and to one without; the first push after which they
    /// differ.
    fn whole_lane_disagrees(text: &str, piece: usize) -> Option<String> {
        whole_lane_compared(text, piece).err()
    }

    /// As `whole_lane_disagrees`; `Ok` with how many whole containers the lane took.
    fn whole_lane_compared(text: &str, piece: usize) -> Result<usize, String> {
        let mut fast = Repairer::new();
        fast.parser.whole_min_scan = 0;
        let mut general = Repairer::new();
        general.parser.whole_fast = false;
        for chunk in text.as_bytes().chunks(piece) {
            fast.push_bytes(chunk);
            general.push_bytes(chunk);
            let (a, b) = (fast.snapshot(), general.snapshot());
            if a != b || fast.is_frozen() != general.is_frozen() {
                return Err(format!(
                    "after {} bytes: {a:?} (frozen: {}) vs {b:?} (frozen: {})",
                    fast.text().len(),
                    fast.is_frozen(),
                    general.is_frozen()
                ));
            }
        }
        Ok(fast.parser.whole_spans.len())
    }

    /// The lane for whole containers changes no snapshot: after every push (in pieces
    /// large enough for it to be taken) the snapshot, and whether the stream froze, are
    /// the general path's, for every input of the corpora.
    #[test]
    fn whole_containers_agree_with_the_general_path() {
        let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("the corpora")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        let (mut cases, mut taken, mut failures) = (0, 0, Vec::new());
        for file in &files {
            let corpus = std::fs::read_to_string(file).expect("a corpus");
            for line in corpus.lines().filter(|l| !l.trim().is_empty()) {
                let case: Value = serde_json::from_str(line).expect("a corpus line");
                let Some(input) = case.get("input").and_then(Value::as_str) else {
                    continue;
                };
                cases += 1;
                for piece in [usize::MAX, 333, 97, 40] {
                    match whole_lane_compared(input, piece) {
                        Ok(n) => taken += usize::from(n > 0 && piece == usize::MAX),
                        Err(why) => {
                            failures.push(format!("{input:?} in {piece} B pieces: {why}"));
                            break;
                        }
                    }
                }
            }
        }
        assert!(cases > 5000, "{cases} cases");
        // The lane is exercised (most inputs freeze before their first strict container,
        // or have none).
        assert!(
            taken * 10 > cases,
            "the lane took containers in {taken} of {cases}"
        );
        assert!(
            failures.is_empty(),
            "{} of {cases}:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    /// Values, strict and not, for the documents of `whole_lane_agrees_on_built_documents`.
    const LEAVES: &[&str] = &[
        "1",
        "-2.5e3",
        "0",
        "01",
        "true",
        "null",
        "True",
        "None",
        "\"x\"",
        "\"\"",
        "\"it's\"",
        "'y'",
        "\"say “hi”\"",
        "\"a\\nb\\u00e9\"",
        "\"\\ud800\"",
        "\"C:\\new\\x\"",
        "\"x\"]\"",
        "\"p\" ]]\"",
        "word",
        "\"tab\tin\"",
        "[]",
        "{}",
        // A whole container, then what makes its closers string content to the engine.
        "[\"q\"]\"",
        "{\"k\": \"v\"} }\"",
        "[\"w\"]] more words\"",
        "[[\"z\"]]",
        // Strict strings whose quotes the engine may read as closing ones.
        "\"a”}\"",
        "\"b’]\"",
        "\"c”, \"",
        "\"d', \"",
        "\"e']\"",
    ];

    /// Between two values of a container: strict separators, and the faults around them.
    const SEPARATORS: &[&str] = &[", ", ",", ",\n  ", " , ", ", ", " ", ",,", "\n", ", // c\n"];

    /// A document from the choices: nested arrays and objects of `LEAVES`.
    fn built(choices: &[usize], at: &mut usize, depth: usize) -> String {
        fn pick(choices: &[usize], at: &mut usize, n: usize) -> usize {
            let c = choices.get(*at).copied().unwrap_or(0);
            *at += 1;
            c % n
        }
        let kind = if depth > 3 { 2 } else { pick(choices, at, 3) };
        let len = pick(choices, at, 4);
        let sep = SEPARATORS[pick(choices, at, SEPARATORS.len())];
        let keys = [
            "\"a\"",
            "\"b\"",
            "c",
            "\"a\"",
            "\"d\"",
            "'e'",
            "\"f'\"",
            "\"g”\"",
            // Strict keys holding what may close a key before a colon, to the engine.
            "\"h': z\"",
            "\"i”: z\"",
        ];
        match kind {
            0 | 1 => {
                let object = kind == 0;
                let mut out = String::from(if object { "{" } else { "[" });
                for k in 0..len {
                    if k > 0 {
                        out.push_str(sep);
                    }
                    if object {
                        out.push_str(keys[pick(choices, at, keys.len())]);
                        out.push_str(": ");
                    }
                    out.push_str(&built(choices, at, depth + 1));
                }
                out.push_str(if object { "}" } else { "]" });
                out
            }
            _ => LEAVES[pick(choices, at, LEAVES.len())].to_owned(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// The lane for whole containers agrees with the general path on built documents,
        /// strict in parts and faulty in others, whole or in pieces of any size.
        #[test]
        fn whole_lane_agrees_on_built_documents(
            choices in prop::collection::vec(0usize..1000, 1..120),
            prefix in prop::sample::select(vec!["", "Sure: ", "```json\n", "{\"wrap\": "]),
            piece in prop::sample::select(vec![usize::MAX, 500, 64, 33]),
        ) {
            let mut at = 0;
            let mut text = String::from(prefix);
            // The root holds two built values (a root is read by the general path).
            text.push_str(if choices[0] % 2 == 0 { "[" } else { "{\"k\": [" });
            text.push_str(&built(&choices, &mut at, 0));
            text.push_str(", ");
            text.push_str(&built(&choices, &mut at, 0));
            text.push_str(if choices[0] % 2 == 0 { "]" } else { "]}" });
            prop_assert_eq!(whole_lane_disagrees(&text, piece), None, "{:?}", text);
        }
    }

    fn fed_bytewise(text: &str) -> Repairer {
        let mut r = Repairer::new();
        for b in text.as_bytes() {
            r.push_bytes(std::slice::from_ref(b));
        }
        r
    }

    /// `plain_stop` reads words and an overlapping last word; every length, stop byte,
    /// position and second stop must give what a byte-by-byte search gives.
    #[test]
    fn plain_stop_finds_the_first_stop_at_every_position() {
        fn naive(b: &[u8], control: bool) -> Option<usize> {
            b.iter()
                .position(|&c| matches!(c, b'"' | b'\\' | 0xE2 | b'\'') || (control && c < 0x20))
        }
        let stops = [b'"', b'\\', 0xE2, b'\'', b'\n', 0x00, 0x1F];
        // Bytes next to the stops in value, which a careless word trick would flag.
        let fillers = [
            b'a',
            b' ',
            b'!',
            b'#',
            b'&',
            b'(',
            0xE1,
            0xE3,
            0x21,
            b']',
            b'\\' + 1,
        ];
        for len in 0..=40 {
            for &fill in &fillers {
                let mut b = vec![fill; len];
                assert_eq!(plain_stop::<false>(&b), naive(&b, false), "{b:?}");
                assert_eq!(plain_stop::<true>(&b), naive(&b, true), "{b:?}");
                for at in 0..len {
                    for &stop in &stops {
                        b[at] = stop;
                        for later in [at + 1, at + 7, at + 8, len.saturating_sub(1)] {
                            let mut c = b.clone();
                            if let Some(x) = c.get_mut(later) {
                                *x = stops[later % stops.len()];
                            }
                            assert_eq!(plain_stop::<false>(&c), naive(&c, false), "{c:?}");
                            assert_eq!(plain_stop::<true>(&c), naive(&c, true), "{c:?}");
                        }
                        b[at] = fill;
                    }
                }
            }
        }
    }

    #[test]
    fn json_numbers() {
        for ok in [
            "0",
            "-0",
            "12",
            "1.5",
            "1e5",
            "1E+5",
            "-1.25e-3",
            "123456789012345678901",
        ] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x1F", "1.2.3", "--1",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    /// The rules of `held_from` one by one, as first written.
    fn held_from_reference(s: &str) -> usize {
        let b = s.as_bytes();
        let mut keep = s.len();
        // Every rule below holds back a run of cuttable bytes at the very end.
        if b.last().is_none_or(|&c| !cuttable(c)) {
            return keep;
        }
        let run = b.len() - b.iter().rev().take_while(|&&c| cuttable(c)).count();
        if let Some(nl) = memchr::memchr(b'\n', &b[run..]) {
            keep = run + nl;
        }
        // A comma before trailing layout: the separator, should the string have lost its
        // closing quote before it (`"x,\n  "b": 1`).
        let body = s.trim_end_matches([' ', '\t', '\r', '\n']);
        keep = keep.min(body.strip_suffix(',').unwrap_or(body).len());
        // Layout at the end: should the text end with a closer after it, the engine ends the
        // string before both (`["value ]`).
        let layout = b
            .iter()
            .rev()
            .take_while(|&&c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
            .count();
        keep = keep.min(b.len() - layout);
        // Closers (with layout and commas) at the end: if the text ends there, they close what
        // is open (`{"key": ["value]}`); if a key follows, they close containers before it
        // (`"y], "b": 1`); either way the engine ends the string before them.
        let run = b.iter().rev().take_while(|&&c| cuttable(c)).count();
        if b[b.len() - run..].iter().any(|&c| matches!(c, b'}' | b']')) {
            keep = keep.min(b.len() - run);
        }
        keep
    }

    proptest::proptest! {
        /// The one-pass hold-back agrees with the rules applied one by one.
        #[test]
        fn held_from_agrees_with_its_rules(
            s in proptest::collection::vec(proptest::sample::select(
                vec!["a", " ", ",", "\n", "}", "]", "\t", "\r", "é"]), 0..12),
        ) {
            let s = s.concat();
            proptest::prop_assert_eq!(held_from(&s), held_from_reference(&s));
        }
    }

    proptest::proptest! {
        /// The word-at-a-time scan finds what a byte-by-byte one does, at every length and
        /// offset (the stops placed near word edges and past the scanned words).
        #[test]
        fn string_stop_finds_the_first_stop(
            filler in proptest::collection::vec(proptest::prop_oneof![
                40 => proptest::sample::select(vec![b'a', b' ', 0x80, 0xE3, 0xFF]),
                1 => proptest::sample::select(vec![b'\'', b'"', b'\\', b'`', 0xE2]),
            ], 0..200),
            quote in proptest::sample::select(vec![b'"', b'\'', b'`']),
            third in proptest::option::of(proptest::sample::select(vec![b'"', b'\'', 0xE2])),
        ) {
            let naive = filler
                .iter()
                .position(|&c| c == quote || c == b'\\' || Some(c) == third);
            proptest::prop_assert_eq!(string_stop(&filler, quote, third), naive);
        }
    }

    #[test]
    fn bytes_split_inside_chars_are_joined() {
        let text = "{\"a\": \"é😀 \\u00e9 \\ud83d\\ude00\"}";
        let r = fed_bytewise(text);
        assert_eq!(r.text(), text);
        assert_eq!(r.snapshot(), Some(json!({"a": "é😀 é 😀"})));
    }

    #[test]
    fn invalid_utf8_becomes_replacement_like_lossy() {
        let bytes: &[u8] = b"{\"a\": \"x\xE2\x82y\xFF\xF0\x9F\x98\"}";
        let lossy = String::from_utf8_lossy(bytes).into_owned();
        for size in 1..=bytes.len() {
            let mut r = Repairer::new();
            for chunk in bytes.chunks(size) {
                r.push_bytes(chunk);
            }
            assert_eq!(r.text(), lossy, "chunk size {size}");
        }
        // An incomplete character at the very end is replaced at finish.
        let mut r = Repairer::new();
        r.push_bytes(b"[1, \xF0\x9F");
        assert_eq!(r.text(), "[1, ");
        r.push("]");
        assert_eq!(r.text(), "[1, \u{FFFD}]");
    }

    #[test]
    fn pointer_segments_are_escaped() {
        let mut r = Repairer::new();
        r.push(r#"{"a/b": {"~": [true, "#);
        let paths: Vec<String> = r.events().map(|e| e.path.to_owned()).collect();
        assert_eq!(paths, ["", "/a~1b", "/a~1b/~0", "/a~1b/~0/0"]);
    }
}
