//! Containers: opening and closing objects and arrays, and the lane for one that arrived
//! whole (see `whole`).

use super::lookahead::quote_after_closers;
use super::parser::{Frame, Mode, Parser, Step};
use super::tree::{Kind, NONE};
use super::whole;
#[cfg(not(test))]
use super::WHOLE_MIN_SCAN;

impl Parser {
    /// Whether the innermost container's last child is an object or an array.
    pub(super) fn last_is_container(&self) -> bool {
        self.stack
            .last()
            .and_then(|f| self.nodes.get(f.last as usize))
            .is_some_and(|n| matches!(n.kind, Kind::Arr | Kind::Obj | Kind::Json))
    }

    /// At a `{` or `[` that opens a value: when the text holds all of it as strict JSON
    /// (see `whole`), take it as one node and one event; `None` leaves it to `open`.
    pub(super) fn whole(&mut self, text: &str) -> Option<Step> {
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
                crate::rules::words_after_closers(b, at, open, false).map(|content| !content)
            }
            later => later.map(|later| !later),
        }
    }

    pub(super) fn open(&mut self, object: bool) -> Step {
        self.open_container(object, 1)
    }

    /// Open an object or array whose opener is `opener_len` bytes at `pos` (none for a
    /// document that lost its `{`).
    pub(super) fn open_container(&mut self, object: bool, opener_len: usize) -> Step {
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
    pub(super) fn push_container(&mut self, object: bool, at: usize) -> bool {
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

    pub(super) fn close(&mut self) -> Step {
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
}

/// FNV-1a: a fast hash for the duplicate-key check (collisions are confirmed by a scan).
/// Six bits from a key's length and its first two and last two bytes (see
/// `Frame::key_bits`), mixed so that the keys of one object rarely share a bit.
pub(super) fn key_mix(key: &str) -> u32 {
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

pub(super) fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
