//! What Python hands over (`str`, `bytes`, `bytearray`) made into the UTF-8 text the engine
//! reads, and byte offsets in that text turned into the character offsets Python indexes by.

use std::borrow::Cow;

use jsonheal::{Repair, RepairKind};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// An input as text, and the repairs its decoding made (bytes that are not UTF-8, lone
/// surrogates in a `str`), with spans in that text.
pub(crate) struct Input<'a> {
    pub text: Cow<'a, str>,
    pub decoded: Vec<Repair>,
}

impl Input<'_> {
    /// Whether decoding replaced anything: then the text is not what the caller wrote.
    pub fn was_decoded(&self) -> bool {
        !self.decoded.is_empty()
    }

    /// The engine's repairs merged with the decoding's, in input order.
    pub fn merge(&self, mut repairs: Vec<Repair>) -> Vec<Repair> {
        if self.decoded.is_empty() {
            return repairs;
        }
        repairs.extend_from_slice(&self.decoded);
        // Stable: at one offset, the decoding's repair follows the engine's.
        repairs.sort_by_key(|r| (r.span().start, r.span().end));
        repairs
    }
}

/// Read `obj` as text. A `str` holding lone surrogates (which UTF-8 cannot carry) and bytes
/// that are not UTF-8 are decoded with each bad sequence replaced by U+FFFD and reported as
/// a repair, never dropped silently.
pub(crate) fn read<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Input<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        if let Ok(text) = s.to_str() {
            return Ok(Input {
                text: Cow::Borrowed(text),
                decoded: Vec::new(),
            });
        }
        // Only lone surrogates make `to_str` fail; `surrogatepass` spells each as the three
        // bytes `decode_lossy` recognises.
        let bytes = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
        let bytes = bytes.cast::<PyBytes>()?;
        return Ok(decode_lossy(bytes.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(from_bytes(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        let owned = b.to_vec();
        let input = from_bytes(&owned);
        return Ok(Input {
            text: Cow::Owned(input.text.into_owned()),
            decoded: input.decoded,
        });
    }
    Err(PyTypeError::new_err(format!(
        "expected str or bytes, got {}",
        obj.get_type().name()?
    )))
}

fn from_bytes(bytes: &[u8]) -> Input<'_> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Input {
            text: Cow::Borrowed(text),
            decoded: Vec::new(),
        },
        Err(_) => decode_lossy(bytes),
    }
}

/// UTF-8 with every invalid sequence replaced by one U+FFFD, as `String::from_utf8_lossy`
/// does, except that an encoded surrogate (`ED A0..BF 80..BF`, what Python's `surrogatepass`
/// writes) is one character, not three.
fn decode_lossy(bytes: &[u8]) -> Input<'static> {
    let mut text = String::with_capacity(bytes.len() + 8);
    let mut decoded = Vec::new();
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let surrogate = matches!(after, [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..]);
                let (kind, len) = if surrogate {
                    (RepairKind::LoneSurrogate, 3)
                } else {
                    let len = e.error_len().unwrap_or(after.len());
                    (RepairKind::InvalidCharacter, len)
                };
                let at = text.len();
                text.push(char::REPLACEMENT_CHARACTER);
                decoded.push(Repair::new(kind, at..text.len()));
                rest = after.get(len..).unwrap_or_default();
            }
        }
    }
    Input {
        text: Cow::Owned(text),
        decoded,
    }
}

/// Byte offsets of one text mapped to character offsets: one pass over the text for all
/// the offsets asked, whatever their order.
pub(crate) struct CharOffsets {
    /// `(byte, char)` pairs sorted by byte; empty when the text is ASCII (bytes are chars).
    table: Vec<(usize, usize)>,
    ascii: bool,
}

impl CharOffsets {
    pub fn new(text: &str, offsets: impl Iterator<Item = usize>) -> CharOffsets {
        if text.is_ascii() {
            return CharOffsets {
                table: Vec::new(),
                ascii: true,
            };
        }
        let mut bytes: Vec<usize> = offsets.map(|o| o.min(text.len())).collect();
        bytes.sort_unstable();
        bytes.dedup();
        let mut table = Vec::with_capacity(bytes.len());
        let (mut at, mut chars) = (0, 0);
        for b in bytes {
            chars += count_chars(text.as_bytes().get(at..b).unwrap_or_default());
            at = b;
            table.push((b, chars));
        }
        CharOffsets {
            table,
            ascii: false,
        }
    }

    /// The character offset of byte offset `byte` (one of those given to `new`).
    pub fn get(&self, byte: usize) -> usize {
        if self.ascii {
            return byte;
        }
        match self.table.binary_search_by_key(&byte, |&(b, _)| b) {
            Ok(i) => self.table[i].1,
            // Past the text's end (clamped in `new`): the last entry.
            Err(i) => self.table.get(i.wrapping_sub(1)).map_or(0, |&(_, c)| c),
        }
    }
}

/// Characters in a slice of UTF-8: bytes that do not continue a character.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// `text` from `chars` characters before byte `at` to `chars` after it: a short context for
/// a log line, on character boundaries.
pub(crate) fn context(text: &str, at: usize, chars: usize) -> &str {
    let mut start = at.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let at = start;
    for _ in 0..chars {
        match text[..start].chars().next_back() {
            Some(c) => start -= c.len_utf8(),
            None => break,
        }
    }
    let mut end = at;
    for c in text[at..].chars().take(chars) {
        end += c.len_utf8();
    }
    &text[start..end]
}
