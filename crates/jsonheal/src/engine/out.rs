//! The repaired text as it is written.
//!
//! A `String` from the first byte: the engine only ever writes ASCII it chose itself and
//! slices of the (UTF-8) input cut at ASCII delimiters, so the result needs no final UTF-8
//! check. That check was a tenth of the time spent on a badly written document.

use std::ops::Range;

pub(super) struct Out(String);

impl Out {
    pub(super) fn with_capacity(n: usize) -> Out {
        Out(String::with_capacity(n))
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn take(&mut self) -> String {
        std::mem::take(&mut self.0)
    }

    /// An ASCII byte the engine chose (a bracket, a quote, a hex digit).
    #[inline]
    pub(super) fn push(&mut self, c: u8) {
        debug_assert!(c.is_ascii(), "the engine writes ASCII bytes only");
        self.0.push(char::from(c));
    }

    #[inline]
    pub(super) fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }

    /// `input[range]` as it is. The engine cuts the input at ASCII bytes only, so the range
    /// is on character boundaries; were it not, the bytes are written lossily rather than
    /// panicking.
    #[inline]
    pub(super) fn push_input(&mut self, input: &str, range: Range<usize>) {
        match input.get(range.clone()) {
            Some(s) => self.push_str(s),
            None => self.push_lossy(input, range),
        }
    }

    #[cold]
    fn push_lossy(&mut self, input: &str, range: Range<usize>) {
        debug_assert!(false, "input cut inside a character at {range:?}");
        if let Some(bytes) = input.as_bytes().get(range) {
            self.0.push_str(&String::from_utf8_lossy(bytes));
        }
    }

    /// An ASCII byte the engine chose, at an earlier `len()` (a checkpoint).
    pub(super) fn insert_ascii(&mut self, at: usize, c: u8) {
        debug_assert!(c.is_ascii(), "the engine writes ASCII bytes only");
        if self.0.is_char_boundary(at) {
            self.0.insert(at, char::from(c));
        }
    }

    /// Back to an earlier `len()` (a checkpoint, always taken between characters).
    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        if self.0.is_char_boundary(len) {
            self.0.truncate(len);
        } else {
            debug_assert!(false, "checkpoint {len} inside a character");
        }
    }

    /// Remove the last byte, when it is ASCII (the engine only takes back what it wrote).
    pub(super) fn pop_ascii(&mut self) {
        if self.last().is_some_and(|c| c.is_ascii()) {
            self.0.pop();
        }
    }

    pub(super) fn last(&self) -> Option<u8> {
        self.0.as_bytes().last().copied()
    }

    /// `out[range]`; empty if the range is not on character boundaries
    /// (never: ranges are `len()`s taken between values).
    pub(super) fn slice(&self, range: Range<usize>) -> &str {
        self.0.get(range).unwrap_or_default()
    }

    /// Write `s` as a JSON string.
    pub(super) fn push_json_string(&mut self, s: &str) {
        self.push(b'"');
        self.push_json_content(s);
        self.push(b'"');
    }

    /// Write `s` as the inside of a JSON string: quotes, backslashes and control
    /// characters escaped.
    pub(super) fn push_json_content(&mut self, s: &str) {
        let bytes = s.as_bytes();
        if !bytes.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\') {
            // The common case (a bare key or word): nothing to escape.
            self.push_str(s);
            return;
        }
        let mut run = 0;
        for (i, &c) in bytes.iter().enumerate() {
            let escaped = match c {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0..=0x1F => "",
                _ => continue,
            };
            self.push_input(s, run..i);
            run = i + 1;
            if escaped.is_empty() {
                let hex = b"0123456789abcdef";
                self.push_str("\\u00");
                self.push(hex[usize::from(c >> 4)]);
                self.push(hex[usize::from(c & 15)]);
            } else {
                self.push_str(escaped);
            }
        }
        self.push_input(s, run..bytes.len());
    }
}
