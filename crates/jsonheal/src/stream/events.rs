//! The event log: the changes a push made to the partial value ([`Event`], [`EventRef`],
//! [`Op`], [`OpRef`], [`Shown`]), handed out by [`Events`], and the JSON pointers that
//! address them.

use super::parser::Parser;
use super::tree::{json_value, number, Kind, Node};
// Only for the docs' links to `Repairer::events`.
#[cfg(doc)]
use super::Repairer;
use serde_json::{Map, Value};

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
    pub(super) log: &'a EventLog,
    /// The parser's arena, where the events' texts are.
    pub(super) arena: &'a str,
    /// The text pushed, where a whole container's JSON text is.
    pub(super) source: &'a str,
    /// The path of the string being read, which an append to it names.
    pub(super) current_path: &'a str,
    pub(super) next: usize,
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
pub(super) struct EventLog {
    pub(super) buf: String,
    pub(super) entries: Vec<Entry>,
    /// The entry whose path is `CURRENT_PATH`, if any: an append to the string being read.
    pub(super) current: Option<usize>,
    /// `events()` handed the entries out; the next change starts a new log.
    pub(super) drained: bool,
}

/// `Entry::path` of an append whose path is the parser's `current_path`.
const CURRENT_PATH: (usize, usize) = (usize::MAX, usize::MAX);

#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    /// `buf[path.0..path.1]`
    pub(super) path: (usize, usize),
    /// `Some(kind)` for a Set, `None` for an Append.
    pub(super) set: Option<Kind>,
    /// The string or number text: `arena[text.0..text.1]`; a whole container's JSON text:
    /// `Repairer::text[text.0..text.1]`.
    pub(super) text: (usize, usize),
}

impl EventLog {
    /// Start over if the entries were handed out.
    pub(super) fn fresh(&mut self) {
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

impl Parser {
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

    /// The string value being read grew: `arena[from..]` is new content (the string being
    /// read is the arena's last text, so it grows in place).
    pub(super) fn grew(&mut self, from: usize) {
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
}

/// Append `/segment` to a JSON pointer, escaped per RFC 6901 (`~` → `~0`, `/` → `~1`).
#[inline]
pub(super) fn push_segment(path: &mut String, segment: &str) {
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
pub(super) fn push_index(path: &mut String, index: usize) {
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
