//! Schema healing (`heal`, `Schema`, `Healed`) and tool-call arguments (`args.normalize`).

use jsonheal::args::{ArgsOptions, ToolMap};
use jsonheal::schema::CoerceOptions;
use jsonheal::HealOptions;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::convert::{py_to_value, to_py, value_to_py};
use crate::errors::{heal_error, to_pyerr};
use crate::native::{from_notes, py_repairs, run, source_name, PyRepair};
use crate::text;

/// A compiled JSON Schema, to heal many replies against without compiling it each time.
#[pyclass(name = "Schema", module = "jsonheal", frozen)]
#[derive(Clone)]
pub(crate) struct PySchema {
    inner: jsonheal::Schema,
}

#[pymethods]
impl PySchema {
    /// Compile `schema`: a dict (or bool) JSON Schema, its JSON text, or a pydantic model
    /// class (its `model_json_schema()`).
    #[new]
    fn new(schema: &Bound<'_, PyAny>) -> PyResult<PySchema> {
        schema_from_py(schema).map(|inner| PySchema { inner })
    }

    /// Whether `value` (a Python value) satisfies the schema.
    fn is_valid(&self, value: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_valid(&py_to_value(value, "value")?))
    }

    fn __repr__(&self) -> String {
        let mut raw = self.inner.raw().to_string();
        if raw.len() > 80 {
            let cut = (0..=77)
                .rev()
                .find(|&i| raw.is_char_boundary(i))
                .unwrap_or(0);
            raw.truncate(cut);
            raw.push('…');
        }
        format!("Schema({raw})")
    }
}

/// A schema from what Python passes: a `Schema`, a pydantic model class, JSON text, or a
/// dict / bool.
pub(crate) fn schema_from_py(obj: &Bound<'_, PyAny>) -> PyResult<jsonheal::Schema> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PySchema>() {
        return Ok(s.get().inner.clone());
    }
    let raw = if obj.hasattr("model_json_schema")? {
        py_to_value(&obj.call_method0("model_json_schema")?, "schema")?
    } else if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        serde_json::from_str(&text)
            .map_err(|e| PyTypeError::new_err(format!("schema: not JSON text ({e})")))?
    } else {
        py_to_value(obj, "schema")?
    };
    jsonheal::Schema::new(&raw).map_err(|e| to_pyerr(py, &e, ""))
}

/// A healed reply: `value` satisfies the schema.
#[pyclass(name = "Healed", module = "jsonheal", frozen)]
pub(crate) struct Healed {
    /// The value, valid against the schema.
    #[pyo3(get)]
    value: Py<PyAny>,
    /// Which part of the reply it came from: 'whole', 'fence', 'span' or 'repaired'.
    #[pyo3(get)]
    candidate: &'static str,
    /// For a fenced block, its index among the reply's fences; else None.
    #[pyo3(get)]
    fence: Option<usize>,
    repairs: Vec<PyRepair>,
    /// Coercions made to fit the schema: dicts with path, kind, from (absent for an added
    /// property) and to.
    #[pyo3(get)]
    coercions: Py<PyList>,
}

#[pymethods]
impl Healed {
    /// Syntax repairs made to that part of the reply (offsets into the whole reply).
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.repairs.iter().cloned())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Healed(value={}, candidate={:?}, repairs={}, coercions={})",
            self.value.bind(py).repr()?,
            self.candidate,
            self.repairs.len(),
            self.coercions.bind(py).len()
        ))
    }
}

/// Heal an LLM reply against a JSON Schema: extract, repair, coerce, validate.
#[pyfunction]
#[pyo3(signature = (text, schema, *, allow_truncated=false, coerce=true))]
pub(crate) fn heal(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    schema: &Bound<'_, PyAny>,
    allow_truncated: bool,
    coerce: bool,
) -> PyResult<Healed> {
    let schema = schema_from_py(schema)?;
    let input = text::read(text)?;
    let opts = HealOptions {
        coerce: if coerce {
            CoerceOptions::default()
        } else {
            CoerceOptions::none()
        },
        allow_truncated,
    };
    let healed = run(py, &input.text, |t| jsonheal::heal(t, &schema, &opts))
        .map_err(|e| heal_error(py, &e))?;
    let coercions = PyList::empty(py);
    for c in &healed.coercions {
        coercions.append(to_py(py, c)?)?;
    }
    let (candidate, fence) = source_name(healed.candidate);
    let repairs = py_repairs(&input.text, &input.merge(from_notes(&healed.repairs)));
    Ok(Healed {
        value: value_to_py(py, &healed.value)?.unbind(),
        candidate,
        fence,
        repairs,
        coercions: coercions.unbind(),
    })
}

/// Tool-call arguments normalised into an object.
#[pyclass(name = "Normalized", module = "jsonheal.args", frozen)]
pub(crate) struct Normalized {
    /// The arguments, always a dict.
    #[pyo3(get)]
    value: Py<PyDict>,
    /// Which recovery produced it ('valid', 'single_quotes', 'plain_wrap', 'cli_args', …).
    #[pyo3(get)]
    strategy: &'static str,
    repairs: Vec<PyRepair>,
    /// How many string values had typographic quotes folded.
    #[pyo3(get)]
    quotes_folded: usize,
    /// Whether the arguments were cut off and completed.
    #[pyo3(get)]
    truncated: bool,
}

#[pymethods]
impl Normalized {
    /// The engine's repairs (offsets into the raw arguments).
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.repairs.iter().cloned())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Normalized(value={}, strategy={:?}, repairs={})",
            self.value.bind(py).repr()?,
            self.strategy,
            self.repairs.len()
        ))
    }
}

/// Normalise the arguments a model sent for a tool call into an object.
#[pyfunction]
#[pyo3(name = "normalize", signature = (arguments, tool=None, schema=None, tool_map=None))]
pub(crate) fn normalize(
    py: Python<'_>,
    arguments: &Bound<'_, PyAny>,
    tool: Option<&str>,
    schema: Option<&Bound<'_, PyAny>>,
    tool_map: Option<&Bound<'_, PyDict>>,
) -> PyResult<Normalized> {
    let mut map = ToolMap::builtin();
    if let Some(extra) = tool_map {
        for (k, v) in extra.iter() {
            map.insert(
                k.extract::<String>()
                    .map_err(|_| PyTypeError::new_err("tool_map keys must be str"))?,
                v.extract::<String>()
                    .map_err(|_| PyTypeError::new_err("tool_map values must be str"))?,
            );
        }
    }
    let parameters = schema.map(|s| py_to_value(s, "schema")).transpose()?;
    let opts = ArgsOptions {
        map,
        parameters,
        ..ArgsOptions::default()
    };
    let input = text::read(arguments)?;
    let tool = tool.unwrap_or("");
    let out = run(py, &input.text, |t| {
        jsonheal::args::normalize(tool, t, &opts)
    })
    .map_err(|e| to_pyerr(py, &e, &input.text))?;
    let truncated = out.is_truncated();
    let value = to_py(py, &out.value)?
        .cast_into::<PyDict>()
        .map_err(|_| crate::errors::internal("arguments did not become a dict".into()))?;
    Ok(Normalized {
        value: value.unbind(),
        strategy: out.strategy.name(),
        repairs: py_repairs(&input.text, &input.merge(out.repairs)),
        quotes_folded: out.quotes_folded,
        truncated,
    })
}
