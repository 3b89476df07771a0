//! Containers: what follows a value, lost openers and closers, wrong closers.

use super::parser::{Frame, FrameKind, Mode, Parser, StrCtx};
use super::{Repair, RepairKind};
use crate::error::Error;
use crate::rules::{elements_then_array_closer_at, plausible_container};
use crate::text::{first_on_line, is_ident_start, is_ws, quote_at, Quote, FULL_WIDTH_COMMA};

/// How a closer of the wrong kind is read (see `Parser::wrong_closer_reading`).
pub(super) enum WrongCloser {
    /// A doubled closer: dropped.
    Extra,
    /// A typo for the innermost container's closer.
    Typo,
}

impl Parser<'_> {
    pub(super) fn step_after(&mut self, mode: &mut Mode) -> Result<(), Error> {
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
    pub(super) fn key_in_array(&mut self, mode: &mut Mode) {
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
    pub(super) fn object_ends_inside_array(&mut self, from: usize) -> bool {
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
    pub(super) fn early_array_closer(&mut self, after: usize) -> bool {
        let parent = self.parent_kind();
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
    pub(super) fn wrong_closer_reading(&mut self, c: u8, after: usize) -> Option<WrongCloser> {
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
    pub(super) fn unmatched_closers(&mut self, from: usize) -> Option<Vec<u8>> {
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
    pub(super) fn open_object_before_key(&mut self, mode: &mut Mode) {
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
    pub(super) fn insert_opener(
        &mut self,
        at: usize,
        kind: FrameKind,
        repair: RepairKind,
        input_at: usize,
    ) {
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
    pub(super) fn open_object_in_member(&mut self, mode: &mut Mode) {
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
    pub(super) fn scalar_member_value_start(&self) -> Option<usize> {
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
    pub(super) fn array_lost_opener_before(&mut self, begun: bool, mode: &mut Mode) -> bool {
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
    pub(super) fn root_object_left_open_at(&self, i: usize) -> bool {
        self.stack.len() == 1
            && self.top_kind() == Some(FrameKind::Object)
            && first_on_line(self.src, i)
            && plausible_container(self.src, i, true) == Some(true)
    }

    /// `{"items": {"a": 1}, {"a": 2}], "n": 2}`: where the innermost object wants a key, a
    /// `{` or `[` follows its last member's value, itself a container, and the first closer
    /// after it that nothing after it opened is a `]`. That value is the first element of an
    /// array that lost its `[`: it gets it, and reading goes on at the next element.
    pub(super) fn container_array_lost_opener(&mut self, mode: &mut Mode) -> bool {
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
    pub(super) fn array_in_member_fits(&mut self, after: usize) -> bool {
        let below = self.stack.len().checked_sub(2).map(|i| self.stack[i].kind);
        if !matches!(below, Some(FrameKind::Array | FrameKind::Tuple)) {
            return true;
        }
        let open = self.open_closers();
        self.unmatched_closers(after)
            .is_some_and(|closers| closers == open)
    }

    /// The closers of the open containers, innermost first.
    pub(super) fn open_closers(&self) -> Vec<u8> {
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
    pub(super) fn elements_then_array_closer(&self, k: usize) -> Option<usize> {
        elements_then_array_closer_at(&self.src[..self.end], k)
            .ok()
            .flatten()
    }

    /// The string element just written is the next key of the object around the array
    /// (`{"tags": ["a", "b", "count": 2}`): take it out, close the arrays, and go on with
    /// it as a member.
    pub(super) fn close_arrays_before_key(&mut self, mode: &mut Mode) {
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
    pub(super) fn bare_key_colon(&self, k: usize) -> Option<usize> {
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
    pub(super) fn close_arrays_before_bare_key(&mut self, colon: usize, mode: &mut Mode) {
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
    pub(super) fn skip_to_paren(&mut self) {
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
    pub(super) fn close_or_mismatch(&mut self, c: u8, mode: &mut Mode) -> Result<(), Error> {
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
        let parent = self.parent_kind();
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

    /// The string being read lost its closing quote before the separator ending at `i`:
    /// take its trailing layout (line breaks too: `"Ada,\n  "age": 3`) and one comma before
    /// that back out of the content, with the repairs of the control characters among them.
    pub(super) fn trim_separator_before(&mut self, i: usize) {
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
    pub(super) fn after_separator(&self, i: usize) -> bool {
        let b = self.src;
        let mut k = i;
        while k > 0 && matches!(b[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k > 0 && matches!(b[k - 1], b',' | b'\n')
    }
}
