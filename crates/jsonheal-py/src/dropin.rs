//! The drop-in API of `json_repair`: `repair_json` and `loads` with its parameter names,
//! defaults and return shapes (`load` and `from_file` wrap `loads` in Python). As in
//! json_repair, valid JSON is read as `json.loads` reads it first, and hopeless input gives
//! `""`.

use jsonheal::schema::HealErrorKind;
use jsonheal::{ErrorKind, HealOptions, Options};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::convert::{json_to_py, try_loads, value_to_py};
use crate::errors::{heal_error, to_pyerr};
use crate::heal::schema_from_py;
use crate::native::{from_notes, py_repairs, repair_input, run};
use crate::text::{self, Input};

/// Characters of input shown on each side of a repair in a log entry, as json_repair does.
const CONTEXT_CHARS: usize = 10;

/// What one drop-in call found.
struct Loaded<'py> {
    value: Bound<'py, PyAny>,
    log: Bound<'py, PyList>,
    /// A value was found (json_repair's `""` result means none was).
    found: bool,
}

impl<'py> Loaded<'py> {
    fn found(value: Bound<'py, PyAny>, log: Option<Bound<'py, PyList>>) -> Loaded<'py> {
        let log = log.unwrap_or_else(|| PyList::empty(value.py()));
        Loaded {
            value,
            log,
            found: true,
        }
    }

    /// json_repair's answer for text that holds no JSON: `""`.
    fn none(py: Python<'py>) -> Loaded<'py> {
        Loaded {
            value: PyString::new(py, "").into_any(),
            log: PyList::empty(py),
            found: false,
        }
    }
}

/// json_repair's log entries (`text`, `context`) with jsonheal's `kind` and `span` added.
fn log_entries<'py>(
    py: Python<'py>,
    input: &Input<'_>,
    repairs: &[jsonheal::Repair],
) -> PyResult<Bound<'py, PyList>> {
    let log = PyList::empty(py);
    for (r, py_r) in repairs.iter().zip(py_repairs(&input.text, repairs)) {
        let context = text::context(&input.text, r.span().start, CONTEXT_CHARS);
        log.append(py_r.context_dict(py, context)?)?;
    }
    Ok(log)
}

fn check_modes(strict: bool, schema: Option<&Bound<'_, PyAny>>, mode: &str) -> PyResult<()> {
    match mode {
        "standard" => {}
        "salvage" if schema.is_none() => {
            return Err(PyValueError::new_err(
                "schema_repair_mode='salvage' requires schema.",
            ))
        }
        "salvage" => {
            return Err(PyValueError::new_err(
                "schema_repair_mode='salvage' is not supported by jsonheal; use 'standard'",
            ))
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "schema_repair_mode must be 'standard' or 'salvage', got '{other}'"
            )))
        }
    }
    if strict && schema.is_some() {
        return Err(PyValueError::new_err(
            "schema and strict cannot be used together.",
        ));
    }
    Ok(())
}

fn load<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    skip_json_loads: bool,
    logging: bool,
    strict: bool,
    schema: Option<&Bound<'py, PyAny>>,
) -> PyResult<Loaded<'py>> {
    let input = text::read(obj)?;
    if let Some(schema) = schema {
        return heal(py, &input, schema, logging);
    }
    if !skip_json_loads && !input.was_decoded() {
        if let Some(value) = try_loads(py, &input.text) {
            return Ok(Loaded::found(value, None));
        }
    }
    let options = if strict {
        Options::strict()
    } else {
        Options::default()
    };
    match repair_input(py, &input, &options) {
        Ok(repaired) => {
            let value = json_to_py(py, &repaired.text)?;
            let log = logging
                .then(|| log_entries(py, &input, &input.merge(repaired.repairs)))
                .transpose()?;
            Ok(Loaded::found(value, log))
        }
        Err(e) if *e.kind() == ErrorKind::NoJson => Ok(Loaded::none(py)),
        Err(e) => Err(to_pyerr(py, &e, &input.text)),
    }
}

/// The schema-guided path: jsonheal's `heal` (extract, repair, coerce, validate).
fn heal<'py>(
    py: Python<'py>,
    input: &Input<'_>,
    schema: &Bound<'py, PyAny>,
    logging: bool,
) -> PyResult<Loaded<'py>> {
    let schema = schema_from_py(schema)?;
    let result = run(py, &input.text, |t| {
        jsonheal::heal(t, &schema, &HealOptions::default())
    });
    match result {
        Ok(healed) => {
            let value = value_to_py(py, &healed.value)?;
            if !logging {
                return Ok(Loaded::found(value, None));
            }
            let log = log_entries(py, input, &input.merge(from_notes(&healed.repairs)))?;
            for c in &healed.coercions {
                let d = PyDict::new(py);
                let text = match &c.from {
                    Some(from) => format!("coerced {from} to {} to fit the schema", c.to),
                    None => format!("added {} to fit the schema", c.to),
                };
                d.set_item("text", text)?;
                d.set_item("context", &c.path)?;
                d.set_item("kind", c.kind.name())?;
                d.set_item("span", py.None())?;
                log.append(d)?;
            }
            Ok(Loaded::found(value, Some(log)))
        }
        Err(e) if e.kind == HealErrorKind::NoJson => Ok(Loaded::none(py)),
        Err(e) => Err(heal_error(py, &e)),
    }
}

fn dumps<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    DUMPS.import(py, "json", "dumps")?.call((value,), kwargs)
}

/// Repair a JSON string, json_repair's way. See the stub for the parameters.
#[pyfunction]
#[pyo3(signature = (
    json_str=None, return_objects=false, skip_json_loads=false, logging=false, json_fd=None,
    chunk_length=0, stream_stable=false, strict=false, schema=None,
    schema_repair_mode="standard", **json_dumps_args
))]
// The parameters are json_repair's, one for one.
#[allow(clippy::too_many_arguments)]
pub(crate) fn repair_json<'py>(
    py: Python<'py>,
    json_str: Option<&Bound<'py, PyAny>>,
    return_objects: bool,
    skip_json_loads: bool,
    logging: bool,
    json_fd: Option<&Bound<'py, PyAny>>,
    chunk_length: i64,
    stream_stable: bool,
    strict: bool,
    schema: Option<&Bound<'py, PyAny>>,
    schema_repair_mode: &str,
    json_dumps_args: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    // Accepted for json_repair's signature: the whole text is read at once, and a prefix's
    // repair is a pure function of the prefix.
    let _ = (chunk_length, stream_stable);
    check_modes(strict, schema, schema_repair_mode)?;
    let text = match (json_fd, json_str) {
        (Some(fd), _) => fd.call_method0("read")?,
        (None, Some(s)) => s.clone(),
        (None, None) => PyString::new(py, "").into_any(),
    };
    let loaded = load(py, &text, skip_json_loads, logging, strict, schema)?;
    if logging {
        return Ok(PyTuple::new(py, [loaded.value, loaded.log.into_any()])?.into_any());
    }
    if return_objects || !loaded.found {
        return Ok(loaded.value);
    }
    dumps(py, &loaded.value, json_dumps_args)
}

/// Like `json.loads`, repairing the text first when it is not valid JSON.
#[pyfunction]
#[pyo3(signature = (
    json_str, skip_json_loads=false, logging=false, stream_stable=false, strict=false,
    schema=None, schema_repair_mode="standard"
))]
// The parameters are json_repair's, one for one.
#[allow(clippy::too_many_arguments)]
pub(crate) fn loads<'py>(
    py: Python<'py>,
    json_str: &Bound<'py, PyAny>,
    skip_json_loads: bool,
    logging: bool,
    stream_stable: bool,
    strict: bool,
    schema: Option<&Bound<'py, PyAny>>,
    schema_repair_mode: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let _ = stream_stable;
    check_modes(strict, schema, schema_repair_mode)?;
    let loaded = load(py, json_str, skip_json_loads, logging, strict, schema)?;
    if logging {
        return Ok(PyTuple::new(py, [loaded.value, loaded.log.into_any()])?.into_any());
    }
    Ok(loaded.value)
}
