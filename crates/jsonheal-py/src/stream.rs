//! `StreamRepairer`: repair a token stream as it arrives.

use jsonheal::stream::{OpRef, Repairer, Shown};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

use crate::convert::{json_to_py, value_to_py};
use crate::errors::to_pyerr;
use crate::native::{detach_if_long, options, Repaired};
use crate::text::Input;

/// A streaming repairer: `push` text as it arrives, read `snapshot()` or `events()` at any
/// moment, `finish()` for the final `Repaired`.
#[pyclass(name = "StreamRepairer", module = "jsonheal")]
pub(crate) struct StreamRepairer {
    /// `None` once finished.
    inner: Option<Repairer>,
}

impl StreamRepairer {
    fn inner(&mut self) -> PyResult<&mut Repairer> {
        self.inner
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("the stream is finished"))
    }
}

/// A shown value as Python: strings and literals directly, numbers and whole containers
/// through jiter (their text is valid JSON).
fn shown_to_py<'py>(py: Python<'py>, shown: Shown<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match shown {
        Shown::Null => py.None().into_bound(py),
        Shown::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
        Shown::String(s) => PyString::new(py, s).into_any(),
        Shown::Array => PyList::empty(py).into_any(),
        Shown::Object => pyo3::types::PyDict::new(py).into_any(),
        Shown::Number(text) | Shown::Json(text) => json_to_py(py, text)?,
    })
}

#[pymethods]
impl StreamRepairer {
    #[new]
    #[pyo3(signature = (*, multiple="array", duplicate_keys="keep", non_finite="null", max_depth=127, events=true))]
    fn new(
        multiple: &str,
        duplicate_keys: &str,
        non_finite: &str,
        max_depth: usize,
        events: bool,
    ) -> PyResult<StreamRepairer> {
        let options = options(false, multiple, duplicate_keys, non_finite, max_depth)?;
        let repairer = Repairer::with_options(options);
        Ok(StreamRepairer {
            inner: Some(if events {
                repairer
            } else {
                repairer.without_events()
            }),
        })
    }

    /// Feed the next piece of the stream (str or bytes; a character split between two byte
    /// pieces is joined).
    fn push(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        let inner = self.inner()?;
        if let Ok(s) = chunk.cast::<PyString>() {
            match s.to_str() {
                Ok(text) => detach_if_long(py, text.len(), || inner.push(text)),
                // Lone surrogates: as bytes, where they become U+FFFD.
                Err(_) => {
                    let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
                    let b = b.cast::<PyBytes>()?.as_bytes();
                    inner.push_bytes(b);
                }
            }
        } else if let Ok(b) = chunk.cast::<PyBytes>() {
            let bytes = b.as_bytes();
            detach_if_long(py, bytes.len(), || inner.push_bytes(bytes));
        } else if let Ok(b) = chunk.cast::<PyByteArray>() {
            inner.push_bytes(&b.to_vec());
        } else {
            return Err(PyTypeError::new_err(format!(
                "expected str or bytes, got {}",
                chunk.get_type().name()?
            )));
        }
        Ok(())
    }

    /// The current best value, or None until an object or array has opened. Values only
    /// grow: nothing shown is contradicted by the final value, except in the cases the
    /// documentation lists.
    fn snapshot(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.inner()?.snapshot() {
            Some(v) => Ok(value_to_py(py, &v)?.unbind()),
            None => Ok(py.None()),
        }
    }

    /// The changes since the last call: a list of `(path, op, value)` tuples, `path` a JSON
    /// pointer ('' is the root), `op` 'set' (a value appeared at the path) or 'append' (the
    /// string at the path grew by `value`).
    fn events<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in self.inner()?.events() {
            let (op, value) = match e.op {
                OpRef::Set(shown) => ("set", shown_to_py(py, shown)?),
                OpRef::Append(s) => ("append", PyString::new(py, s).into_any()),
            };
            let path = PyString::new(py, e.path).into_any();
            let op = PyString::new(py, op).into_any();
            out.append(PyTuple::new(py, [path, op, value])?)?;
        }
        Ok(out)
    }

    /// A counter that moves whenever the partial value changes.
    #[getter]
    fn revision(&mut self) -> PyResult<u64> {
        Ok(self.inner()?.revision())
    }

    /// Whether the stream met something only `finish` can decide: the snapshot will not
    /// change any more.
    #[getter]
    fn frozen(&mut self) -> PyResult<bool> {
        Ok(self.inner()?.is_frozen())
    }

    /// Everything pushed so far.
    #[getter]
    fn text(&mut self) -> PyResult<String> {
        Ok(self.inner()?.text().to_owned())
    }

    /// The final result, exactly what `repair` returns for the whole text. The repairer
    /// cannot be used after this.
    fn finish(&mut self, py: Python<'_>) -> PyResult<Repaired> {
        let repairer = self
            .inner
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the stream is finished"))?;
        let text = repairer.text().to_owned();
        let input = Input {
            text: text.into(),
            decoded: Vec::new(),
        };
        let len = input.text.len();
        let result = detach_if_long(py, len, || repairer.finish());
        match result {
            Ok(r) => Ok(Repaired::new(&input, r)),
            Err(e) => Err(to_pyerr(py, &e, &input.text)),
        }
    }
}
