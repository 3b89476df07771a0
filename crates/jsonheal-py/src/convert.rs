//! Python values from JSON, built in Rust: JSON text through jiter's Python builder (dicts
//! in key order, ints of any size), `serde_json` values through pythonize. No JSON text is
//! handed to Python's `json` module on the way.

use jiter::{FloatMode, PartialMode, PythonParse, StringCacheMode};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::errors::internal;

/// How valid JSON text becomes Python: keys cached (they repeat), floats as `float`,
/// `NaN` and `Infinity` refused unless `inf_nan` (JSON has neither; Python's `json.loads`
/// accepts both, which the json_repair drop-in mirrors).
fn parser(inf_nan: bool) -> PythonParse {
    PythonParse {
        allow_inf_nan: inf_nan,
        cache_mode: StringCacheMode::Keys,
        partial_mode: PartialMode::Off,
        catch_duplicate_keys: false,
        float_mode: FloatMode::Float,
    }
}

/// `text`, which the caller knows to be valid JSON (the engine's output, a stream's whole
/// container), as a Python value. A document nested deeper than Python values are built
/// (200 levels) is an error, not a crash.
pub(crate) fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    parser(false)
        .python_parse(py, text.as_bytes())
        .map_err(|e| {
            internal(format!(
                "the repaired JSON cannot become a Python value: {}",
                e.description(text.as_bytes())
            ))
        })
}

/// `text` as a Python value if it is valid JSON as `json.loads` reads it (`NaN` and
/// `Infinity` included); `None` if it is not.
pub(crate) fn try_loads<'py>(py: Python<'py>, text: &str) -> Option<Bound<'py, PyAny>> {
    parser(true).python_parse(py, text.as_bytes()).ok()
}

/// A `serde_json` value (numbers exact: an integer of any size stays an `int`) as Python.
pub(crate) fn value_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| internal(format!("cannot build a value: {e}")))
}

/// Any serialisable record (a coercion, a violation) as Python dicts and lists.
pub(crate) fn to_py<'py, T: serde::Serialize>(
    py: Python<'py>,
    record: &T,
) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, record).map_err(|e| internal(format!("cannot build a value: {e}")))
}

/// A Python value (a schema, a tool's parameters) as a `serde_json` value: dicts, lists,
/// str, int of any size, float, bool, None.
pub(crate) fn py_to_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    pythonize::depythonize(obj).map_err(|e| PyTypeError::new_err(format!("{what}: {e}")))
}
