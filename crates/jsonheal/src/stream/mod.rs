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

use crate::{repair_with, Error, Options, Repaired};
use serde_json::Value;

mod bytes;
mod containers;
mod document;
mod events;
mod keys;
mod lookahead;
mod parser;
mod strings;
mod tree;
mod whole;
mod words;

use events::EventLog;
pub use events::{Event, EventRef, Events, Op, OpRef, Shown};
use parser::{Mode, Parser};

/// A container that opens this close to the text's end is rarely whole yet: a scan for its
/// end is not tried (at 16-byte chunks, failed scans would cost 5% more).
const WHOLE_MIN_SCAN: usize = 32;

/// Nesting deeper than this freezes the stream: it bounds the recursion of
/// [`Repairer::snapshot`] and of dropping the value it returns.
const STREAM_DEPTH_LIMIT: usize = 512;

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
/// (`crate::text::unescaped_byte`), kept up with the text as it grows.
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
            match crate::text::unescaped_byte(next) {
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

#[cfg(test)]
mod tests;
