//! The package's exceptions: `JSONHealError` (a `ValueError`, so code that catches
//! `json.JSONDecodeError`'s base keeps working) with the kind and position of the fault, and
//! `HealError`, which adds what a model needs to be asked again.

use jsonheal::{Error, ErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{to_py, value_to_py};
use crate::text::CharOffsets;

create_exception!(
    jsonheal,
    JSONHealError,
    PyValueError,
    "The text could not be repaired (or, with strict=True, is not valid JSON).\n\n\
     Attributes: kind (a stable snake_case name such as 'no_json', 'syntax', 'too_deep'), \
     line and column (1-based, or None), offset (a character offset into the input, or None)."
);

create_exception!(
    jsonheal,
    HealError,
    JSONHealError,
    "No value in the reply satisfies the schema.\n\n\
     Attributes: kind ('no_json', 'truncated' or 'invalid'), feedback (a message to send back \
     to the model), violations (a list of dicts: path, keyword, expected, found, message), \
     rejected (the best candidate's value after coercion, or None)."
);

/// The stable name of an error kind, for `JSONHealError.kind`.
fn kind_name(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::NoJson => "no_json",
        ErrorKind::Syntax(_) => "syntax",
        ErrorKind::TooDeep => "too_deep",
        ErrorKind::DuplicateKey(_) => "duplicate_key",
        ErrorKind::NonFinite => "non_finite",
        ErrorKind::MultipleValues => "multiple_values",
        ErrorKind::NotAnObject(_) => "not_an_object",
        ErrorKind::InvalidSchema(_) => "invalid_schema",
        ErrorKind::Internal(_) => "internal",
        _ => "other",
    }
}

/// A library error about `input` as a `JSONHealError`, its offset in characters.
pub(crate) fn to_pyerr(py: Python<'_>, err: &Error, input: &str) -> PyErr {
    let e = JSONHealError::new_err(err.to_string());
    let position = err.position();
    let offset = position.map(|p| CharOffsets::new(input, std::iter::once(p.offset)).get(p.offset));
    let set = || -> PyResult<()> {
        let v = e.value(py);
        v.setattr("kind", kind_name(err.kind()))?;
        v.setattr("line", position.map(|p| p.line))?;
        v.setattr("column", position.map(|p| p.column))?;
        v.setattr("offset", offset)
    };
    match set() {
        Ok(()) => e,
        Err(other) => other,
    }
}

/// A `JSONHealError` of kind `internal`: a value the engine produced could not be built,
/// which is a bug worth reporting (or a document deeper than Python values are built).
pub(crate) fn internal(message: String) -> PyErr {
    let e = JSONHealError::new_err(message);
    Python::attach(|py| {
        let v = e.value(py);
        let _ = v.setattr("kind", "internal");
        let _ = v.setattr("line", py.None());
        let _ = v.setattr("column", py.None());
        let _ = v.setattr("offset", py.None());
    });
    e
}

/// A heal failure as a `HealError`.
pub(crate) fn heal_error(py: Python<'_>, err: &jsonheal::HealError) -> PyErr {
    let e = HealError::new_err(err.to_string());
    let set = || -> PyResult<()> {
        let v = e.value(py);
        let kind = to_py(py, &err.kind)?;
        v.setattr("kind", kind)?;
        v.setattr("feedback", &err.feedback)?;
        v.setattr("line", py.None())?;
        v.setattr("column", py.None())?;
        v.setattr("offset", py.None())?;
        let violations = PyList::empty(py);
        for violation in &err.violations {
            violations.append(to_py(py, violation)?)?;
        }
        v.setattr("violations", violations)?;
        let rejected = match &err.rejected {
            Some(r) => value_to_py(py, &r.value)?,
            None => py.None().into_bound(py),
        };
        v.setattr("rejected", rejected)
    };
    match set() {
        Ok(()) => e,
        Err(other) => other,
    }
}
