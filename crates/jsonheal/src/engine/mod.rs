//! The tolerant parser: one pass over the bytes, repairs logged as they are made.

mod bare;
mod brackets;
mod document;
mod duplicates;
mod keys;
mod out;
mod parser;
mod string_end;
mod strings;

use std::ops::Range;

use serde_json::Value;

use crate::error::{Error, ErrorKind};

/// One kind of repair. Every repair the engine makes is reported with one of these and the
/// byte span of the input it touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RepairKind {
    /// Prose before or after the JSON value was dropped.
    StrippedProse,
    /// A Markdown code fence (```` ``` ```` or `~~~`) around the value was dropped.
    StrippedFence,
    /// A reasoning block (`<think>…</think>`) was skipped.
    SkippedReasoning,
    /// A `//`, `/* */` or `#` comment was removed.
    RemovedComment,
    /// A single-quoted or backtick string became a JSON string.
    SingleQuotes,
    /// Typographic quotes used as delimiters became `"`.
    TypographicQuotes,
    /// An unquoted key was quoted.
    UnquotedKey,
    /// A bare word value became a string.
    UnquotedValue,
    /// `True`, `False`, `None` became `true`, `false`, `null`.
    PythonLiteral,
    /// `NaN`, `Infinity`, `-Infinity` became `null` (or what `NonFinite` says).
    NonFiniteNumber,
    /// `undefined` became `null`.
    Undefined,
    /// A number written in a form JSON does not allow (`+1`, `.5`, `01`, `0x1F`, `1.`) was
    /// rewritten.
    NumberFormat,
    /// A trailing comma before `}` or `]` was removed.
    TrailingComma,
    /// A missing comma between members or elements was inserted.
    MissingComma,
    /// A missing `:` between a key and its value was inserted.
    MissingColon,
    /// A missing value became `null`.
    MissingValue,
    /// A string's missing closing quote was inserted.
    MissingQuote,
    /// A quote that could not end its string was kept as content (escaped).
    InnerQuote,
    /// A raw control character inside a string was escaped.
    ControlCharacter,
    /// An invalid escape kept its backslash as content.
    InvalidEscape,
    /// A lone surrogate escape was replaced by U+FFFD.
    LoneSurrogate,
    /// Strings joined with `+` were concatenated.
    Concatenation,
    /// A `...` placeholder was dropped.
    Ellipsis,
    /// A wrapper (`callback(…)`, `ObjectId("…")`, `NumberLong(5)`) was unwrapped.
    Wrapper,
    /// A regex literal `/re/` became a string.
    RegexLiteral,
    /// A Python tuple `(1, 2)` became an array.
    TupleToArray,
    /// A missing opening `{` or `[` was inserted.
    MissingOpener,
    /// A `[` was inserted before an object member's value, already read, that more elements
    /// and a `]` follow: `{"items": {"a": 1}, {"a": 2}]}`. (A stream has shown that value as
    /// the member's by then.)
    MissingArrayOpener,
    /// A missing `}` or `]` was inserted before a later closer.
    MissingCloser,
    /// A closer with nothing open, or the wrong closer, was dropped or fixed.
    RedundantCloser,
    /// A document written with `\"` escapes outside any string was unescaped.
    EscapedJson,
    /// Several top-level values were combined (or chosen) as `Multiple` says.
    MultipleValues,
    /// A duplicate key was dropped as `DuplicateKeys` says.
    DuplicateKey,
    /// The input stopped early (cut-off output); open strings and containers were closed.
    Truncated,
    /// A byte sequence that is not UTF-8, or a character that cannot appear there, was
    /// replaced or dropped.
    InvalidCharacter,
}

impl RepairKind {
    /// A short lowercase name, stable for logs and JSON output (`trailing_comma`).
    pub fn name(self) -> &'static str {
        use RepairKind::*;
        match self {
            StrippedProse => "stripped_prose",
            StrippedFence => "stripped_fence",
            SkippedReasoning => "skipped_reasoning",
            RemovedComment => "removed_comment",
            SingleQuotes => "single_quotes",
            TypographicQuotes => "typographic_quotes",
            UnquotedKey => "unquoted_key",
            UnquotedValue => "unquoted_value",
            PythonLiteral => "python_literal",
            NonFiniteNumber => "non_finite_number",
            Undefined => "undefined",
            NumberFormat => "number_format",
            TrailingComma => "trailing_comma",
            MissingComma => "missing_comma",
            MissingColon => "missing_colon",
            MissingValue => "missing_value",
            MissingQuote => "missing_quote",
            InnerQuote => "inner_quote",
            ControlCharacter => "control_character",
            InvalidEscape => "invalid_escape",
            LoneSurrogate => "lone_surrogate",
            Concatenation => "concatenation",
            Ellipsis => "ellipsis",
            Wrapper => "wrapper",
            RegexLiteral => "regex_literal",
            TupleToArray => "tuple_to_array",
            MissingOpener => "missing_opener",
            MissingArrayOpener => "missing_array_opener",
            MissingCloser => "missing_closer",
            RedundantCloser => "redundant_closer",
            EscapedJson => "escaped_json",
            MultipleValues => "multiple_values",
            DuplicateKey => "duplicate_key",
            Truncated => "truncated",
            InvalidCharacter => "invalid_character",
        }
    }

    /// What the repair did, in a few words (`removed a trailing comma`).
    pub fn describe(self) -> &'static str {
        use RepairKind::*;
        match self {
            StrippedProse => "dropped text around the JSON value",
            StrippedFence => "dropped a code fence",
            SkippedReasoning => "skipped a reasoning block",
            RemovedComment => "removed a comment",
            SingleQuotes => "turned a single-quoted or backtick string into a JSON string",
            TypographicQuotes => "replaced typographic quotes with `\"`",
            UnquotedKey => "quoted a bare key",
            UnquotedValue => "quoted a bare value",
            PythonLiteral => "turned a Python literal into JSON",
            NonFiniteNumber => "replaced a non-finite number",
            Undefined => "replaced `undefined` with null",
            NumberFormat => "rewrote a number JSON does not allow",
            TrailingComma => "removed a trailing comma",
            MissingComma => "inserted a missing comma",
            MissingColon => "inserted a missing `:`",
            MissingValue => "inserted null for a missing value",
            MissingQuote => "inserted a missing closing quote",
            InnerQuote => "kept a quote inside a string as content",
            ControlCharacter => "escaped a control character in a string",
            InvalidEscape => "kept the backslash of an invalid escape",
            LoneSurrogate => "replaced a lone surrogate",
            Concatenation => "joined concatenated strings",
            Ellipsis => "dropped an ellipsis",
            Wrapper => "unwrapped a function-call wrapper",
            RegexLiteral => "turned a regex literal into a string",
            TupleToArray => "turned a tuple into an array",
            MissingOpener => "inserted a missing opening bracket",
            MissingArrayOpener => "inserted a missing `[` before a member's value",
            MissingCloser => "inserted a missing closing bracket",
            RedundantCloser => "dropped a closing bracket with nothing to close",
            EscapedJson => "unescaped an escaped JSON document",
            MultipleValues => "combined several top-level values",
            DuplicateKey => "dropped a duplicate key",
            Truncated => "completed a truncated document",
            InvalidCharacter => "replaced an invalid character",
        }
    }

    /// Every kind, in the order of the docs: for bindings and tools that list or look up the
    /// kinds by [`name`](RepairKind::name).
    pub const ALL: [RepairKind; 35] = [
        RepairKind::StrippedProse,
        RepairKind::StrippedFence,
        RepairKind::SkippedReasoning,
        RepairKind::RemovedComment,
        RepairKind::SingleQuotes,
        RepairKind::TypographicQuotes,
        RepairKind::UnquotedKey,
        RepairKind::UnquotedValue,
        RepairKind::PythonLiteral,
        RepairKind::NonFiniteNumber,
        RepairKind::Undefined,
        RepairKind::NumberFormat,
        RepairKind::TrailingComma,
        RepairKind::MissingComma,
        RepairKind::MissingColon,
        RepairKind::MissingValue,
        RepairKind::MissingQuote,
        RepairKind::InnerQuote,
        RepairKind::ControlCharacter,
        RepairKind::InvalidEscape,
        RepairKind::LoneSurrogate,
        RepairKind::Concatenation,
        RepairKind::Ellipsis,
        RepairKind::Wrapper,
        RepairKind::RegexLiteral,
        RepairKind::TupleToArray,
        RepairKind::MissingOpener,
        RepairKind::MissingArrayOpener,
        RepairKind::MissingCloser,
        RepairKind::RedundantCloser,
        RepairKind::EscapedJson,
        RepairKind::MultipleValues,
        RepairKind::DuplicateKey,
        RepairKind::Truncated,
        RepairKind::InvalidCharacter,
    ];

    /// The kind with this [`name`](RepairKind::name) (`trailing_comma`).
    pub fn from_name(name: &str) -> Option<RepairKind> {
        RepairKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl std::fmt::Display for RepairKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One repair: what was done and which bytes of the input it touched (an empty span is an
/// insertion point).
///
/// Twelve bytes: a badly written 20 MB document can need a million repairs, and the log must
/// not outweigh the text (the engine's peak memory stays under three times its input). Spans
/// are kept as `u32`; offsets past 4 GiB are reported as `u32::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Repair {
    kind: RepairKind,
    start: u32,
    end: u32,
}

impl Repair {
    /// A repair of `kind` over the input bytes `span`.
    pub fn new(kind: RepairKind, span: Range<usize>) -> Repair {
        Repair {
            kind,
            start: u32::try_from(span.start).unwrap_or(u32::MAX),
            end: u32::try_from(span.end).unwrap_or(u32::MAX),
        }
    }

    /// What was done.
    pub fn kind(&self) -> RepairKind {
        self.kind
    }

    /// The bytes of the input it touched; empty for an insertion.
    pub fn span(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Input order: by start, then end.
    pub(crate) fn order_key(&self) -> u64 {
        (u64::from(self.start) << 32) | u64::from(self.end)
    }

    /// The same repair with its span moved `by` bytes later (the repaired text was a slice
    /// starting at `by` of a larger input).
    pub fn shifted(self, by: usize) -> Repair {
        let span = self.span();
        Repair::new(self.kind, span.start + by..span.end + by)
    }
}

/// What to do with several top-level values (`{"a":1}\n{"a":2}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Multiple {
    /// Wrap them in an array (the default).
    #[default]
    Array,
    /// Keep the first.
    First,
    /// Keep the last.
    Last,
    /// Refuse: `ErrorKind::MultipleValues`.
    Error,
}

/// What to do with a key that appears twice in one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicateKeys {
    /// Keep both in the text; the parsed value keeps the last (the default, as in most
    /// parsers; valid input stays byte-identical).
    #[default]
    Keep,
    /// Keep the first occurrence only.
    First,
    /// Keep the last occurrence only.
    Last,
    /// Refuse: `ErrorKind::DuplicateKey`.
    Error,
}

/// What `NaN`, `Infinity` and `-Infinity` become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NonFinite {
    /// `null` (the default).
    #[default]
    Null,
    /// The strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
    String,
    /// Refuse: `ErrorKind::NonFinite`.
    Error,
}

/// How the engine repairs. `Options::default()` repairs everything it can;
/// `Options::strict()` repairs nothing and reports the first fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub multiple: Multiple,
    pub duplicate_keys: DuplicateKeys,
    pub non_finite: NonFinite,
    /// Containers nested deeper than this are an error (`ErrorKind::TooDeep`). The engine
    /// never recurses, so any depth is safe for it; the default, 127, is the deepest
    /// document `serde_json` will still read back as a `Value`. The limit applies to
    /// documents that need repair: a valid document is returned as it is whatever its depth
    /// (then `Repaired::value` fails past serde_json's own limit).
    pub max_depth: usize,
    /// No repair allowed: anything but valid JSON is an error with its line and column.
    pub strict: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            multiple: Multiple::Array,
            duplicate_keys: DuplicateKeys::Keep,
            non_finite: NonFinite::Null,
            max_depth: 127,
            strict: false,
        }
    }
}

impl Options {
    /// Repair nothing: valid JSON passes, anything else is an error naming line and column.
    pub fn strict() -> Options {
        Options {
            strict: true,
            ..Options::default()
        }
    }
}

/// A repaired document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    /// The repaired JSON text. For valid input, the input itself (trimmed of surrounding
    /// whitespace); otherwise compact JSON that keeps every lexeme it could (number text,
    /// string escapes).
    pub text: String,
    /// Every repair made, in input order.
    pub repairs: Vec<Repair>,
}

impl Repaired {
    /// The repaired document as a `serde_json::Value`, key order kept.
    ///
    /// Numbers are exact with the crate feature `exact-numbers` (serde_json's
    /// `arbitrary_precision`); without it they are what serde_json makes of them: integers
    /// within 64 bits exact, others `f64`, and a number beyond `f64`'s range (`1e400`) fails.
    /// [`Repaired::text`] keeps every number as written either way.
    ///
    /// Fails for a document nested deeper than serde_json reads (128 levels), and, with
    /// `exact-numbers`, an object whose only key is serde_json's private
    /// `$serde_json::private::Number` reads back as that number.
    pub fn value(&self) -> Result<Value, Error> {
        serde_json::from_str(&self.text).map_err(|e| {
            Error::new(ErrorKind::Internal(format!(
                "repaired text is not JSON ({e})"
            )))
        })
    }

    /// Whether any repair was made.
    pub fn was_repaired(&self) -> bool {
        !self.repairs.is_empty()
    }

    /// Whether the input was cut short and completed. Callers that need a whole answer
    /// (the gateway) refuse these.
    pub fn is_truncated(&self) -> bool {
        self.repairs
            .iter()
            .any(|r| r.kind() == RepairKind::Truncated)
    }
}

/// Repair `input` with the default options.
pub fn repair(input: &str) -> Result<Repaired, Error> {
    repair_with(input, &Options::default())
}

/// Repair `input` with `options`.
pub fn repair_with(input: &str, options: &Options) -> Result<Repaired, Error> {
    if options.strict {
        return strict(input);
    }
    parser::repair(input, options)
}

/// Strict mode: serde_json decides, and its message (with line and column) is the error.
fn strict(input: &str) -> Result<Repaired, Error> {
    let trimmed = input.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r'));
    if trimmed.is_empty() {
        return Err(Error::no_json());
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(trimmed) {
        Ok(_) => Ok(Repaired {
            text: trimmed.to_owned(),
            repairs: Vec::new(),
        }),
        Err(e) => {
            let msg = e.to_string();
            // serde_json already says "… at line L column C"; keep its wording, move the
            // position into ours so callers can read it.
            let text = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(head, _)| head)
                .to_owned();
            let offset = offset_of(input, trimmed, e.line(), e.column());
            Err(Error::at(ErrorKind::Syntax(text), input, offset))
        }
    }
}

fn offset_of(input: &str, trimmed: &str, line: usize, column: usize) -> usize {
    let base = trimmed.as_ptr() as usize - input.as_ptr() as usize;
    let mut offset = 0;
    for (i, l) in trimmed.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            // serde_json counts the column in bytes; `Position` recounts it in characters.
            let mut col = column.saturating_sub(1).min(l.len());
            while !l.is_char_boundary(col) {
                col -= 1;
            }
            return base + offset + col;
        }
        offset += l.len();
    }
    base + trimmed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repair_stays_twelve_bytes() {
        // The log of a badly written document holds ~1 entry per 15 input bytes; at 24 bytes
        // an entry the engine's peak memory passed 3x its input.
        assert!(std::mem::size_of::<Repair>() <= 12);
    }

    #[test]
    fn every_kind_is_listed_once_and_found_by_its_name() {
        let mut names: Vec<&str> = RepairKind::ALL.iter().map(|k| k.name()).collect();
        for k in RepairKind::ALL {
            assert_eq!(RepairKind::from_name(k.name()), Some(k));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RepairKind::ALL.len());
        assert_eq!(RepairKind::from_name("no_such_kind"), None);
    }

    #[test]
    fn spans_round_trip_and_saturate_past_u32() {
        let r = Repair::new(RepairKind::TrailingComma, 5..6);
        assert_eq!((r.kind(), r.span()), (RepairKind::TrailingComma, 5..6));
        assert_eq!(r.shifted(10).span(), 15..16);
        let far = usize::try_from(u64::from(u32::MAX) + 7).unwrap_or(usize::MAX);
        let clamped = Repair::new(RepairKind::Truncated, far..far).span();
        assert_eq!(clamped, u32::MAX as usize..u32::MAX as usize);
    }
}
