//! The one error type of the library.

use std::fmt;

/// What went wrong, without the position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text holds no JSON value at all (prose, an empty string, an empty fence).
    NoJson,
    /// Strict mode: the input is not valid JSON; the message says what was expected.
    Syntax(String),
    /// The document nests deeper than `Options::max_depth`.
    TooDeep,
    /// A duplicate key met with `DuplicateKeys::Error`.
    DuplicateKey(String),
    /// A non-finite number met with `NonFinite::Error`.
    NonFinite,
    /// Several top-level values met with `Multiple::Error`.
    MultipleValues,
    /// Tool-call arguments that cannot become a JSON object.
    NotAnObject(String),
    /// A JSON Schema that is itself invalid.
    InvalidSchema(String),
    /// An invariant of the library was broken; always a bug worth reporting.
    Internal(String),
}

/// A position in the input: byte offset and 1-based line and column (column counts chars).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The line and column of byte `offset` in `input`.
    pub fn of(input: &str, offset: usize) -> Position {
        let offset = offset.min(input.len());
        let before = input.as_bytes().get(..offset).unwrap_or_default();
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        Position {
            offset,
            line,
            column,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct ErrorImpl {
    kind: ErrorKind,
    position: Option<Position>,
}

/// An error from jsonheal: a kind and, where it applies, a position in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(Box<ErrorImpl>);

impl Error {
    pub fn new(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            position: None,
        }))
    }

    pub fn at(kind: ErrorKind, input: &str, offset: usize) -> Error {
        Error(Box::new(ErrorImpl {
            kind,
            position: Some(Position::of(input, offset)),
        }))
    }

    pub fn no_json() -> Error {
        Error::new(ErrorKind::NoJson)
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    pub fn position(&self) -> Option<Position> {
        self.0.position
    }

    pub fn line(&self) -> Option<usize> {
        self.0.position.map(|p| p.line)
    }

    pub fn column(&self) -> Option<usize> {
        self.0.position.map(|p| p.column)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoJson => f.write_str("no JSON found"),
            ErrorKind::Syntax(msg) => f.write_str(msg),
            ErrorKind::TooDeep => f.write_str("nesting too deep"),
            ErrorKind::DuplicateKey(k) => write!(f, "duplicate key {k:?}"),
            ErrorKind::NonFinite => f.write_str("non-finite number"),
            ErrorKind::MultipleValues => f.write_str("more than one top-level value"),
            ErrorKind::NotAnObject(why) => write!(f, "arguments are not an object: {why}"),
            ErrorKind::InvalidSchema(why) => write!(f, "invalid schema: {why}"),
            ErrorKind::Internal(why) => write!(f, "internal error (a bug in jsonheal): {why}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.position {
            Some(p) => write!(f, "{} at line {} column {}", self.0.kind, p.line, p.column),
            None => write!(f, "{}", self.0.kind),
        }
    }
}

impl std::error::Error for Error {}
