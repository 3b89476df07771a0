//! The partial value tree (`Node`s in document order, their text in the parser's arena)
//! and the snapshots built from it.

use super::events::{push_index, push_segment, Entry};
use super::parser::Parser;
use serde_json::{Map, Number, Value};

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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

/// No node (an end of a sibling list).
pub(super) const NONE: u32 = u32::MAX;

/// One node of the partial value tree, 12 bytes. Text (member key, then string content or
/// number text) lives in the parser's shared `arena`. Nodes are made in document order, so a
/// container's descendants are the nodes right after it, up to its `end`. So building the
/// tree allocates next to nothing per value, and appending to a string is O(1) at any depth.
/// Offsets are `u32`: `Parser::run` freezes a stream past 4 GiB.
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) kind: Kind,
    /// An object member's key is `arena[text - key_len..text]` (empty elsewhere): a key is
    /// read into the arena right before its value's text. A longer key freezes the stream.
    pub(super) key_len: u16,
    /// String content or number text: `arena[text..end]`.
    pub(super) text: u32,
    /// For a string or a number, the end of its text. For a container, the id past its
    /// last descendant, `NONE` while it is open (every later node is one then). For a
    /// whole container (`Kind::Json`), the index of its span in `Parser::whole_spans`.
    pub(super) end: u32,
}

impl Node {
    pub(super) fn key_range(&self) -> std::ops::Range<usize> {
        self.text as usize - usize::from(self.key_len)..self.text as usize
    }

    fn text_range(&self) -> std::ops::Range<usize> {
        self.text as usize..self.end as usize
    }
}

/// The ids of the children of container `id`, in order: each child's next sibling is the
/// node past its subtree.
pub(super) fn children(nodes: &[Node], id: usize) -> impl Iterator<Item = (usize, &Node)> {
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

impl Parser {
    // ----- the tree ---------------------------------------------------------------------

    /// Put a new node of `kind` with `text` into the innermost container (or make it the
    /// root) and record the event. Returns its id, or `None` when there is no place for it
    /// (which the modes rule out).
    pub(super) fn attach(&mut self, kind: Kind, text: (usize, usize)) -> Option<usize> {
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

    pub(super) fn snapshot(&self, source: &str) -> Option<Value> {
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

/// The `Number` of valid JSON number text, as serde_json reads it within a document.
/// The value of JSON text that `whole::container_len` accepted, as in the final value.
pub(super) fn json_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

pub(super) fn number(text: &str) -> Value {
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
