//! The native API: `repair`, `extract` and the objects they return.

use jsonheal::extract::CandidateSource;
use jsonheal::{DuplicateKeys, Multiple, NonFinite, Options, RepairKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;

use crate::convert::{json_to_py, value_to_py};
use crate::errors::to_pyerr;
use crate::text::{self, CharOffsets, Input};

/// Inputs shorter than this are repaired holding the GIL: releasing and taking it back
/// costs more than their whole repair (the small-payload case), while a long repair leaves
/// other Python threads free to run.
const DETACH_BYTES: usize = 32 * 1024;

/// Run `work`, without the GIL when its input is `len` bytes long or more.
pub(crate) fn detach_if_long<T: Send>(
    py: Python<'_>,
    len: usize,
    work: impl FnOnce() -> T + Send,
) -> T {
    if len < DETACH_BYTES {
        work()
    } else {
        py.detach(work)
    }
}

/// Run `work` on `input`, without the GIL when the input is long.
pub(crate) fn run<T: Send>(py: Python<'_>, input: &str, work: impl FnOnce(&str) -> T + Send) -> T {
    detach_if_long(py, input.len(), || work(input))
}

/// One repair, as Python sees it.
#[pyclass(name = "Repair", module = "jsonheal", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyRepair {
    /// The kind's stable snake_case name (`trailing_comma`).
    #[pyo3(get)]
    kind: &'static str,
    /// Character offset in the input where the repaired text starts.
    #[pyo3(get)]
    start: usize,
    /// Character offset where it ends (exclusive; equal to `start` for an insertion).
    #[pyo3(get)]
    end: usize,
    /// What was done, in a few words.
    #[pyo3(get)]
    message: &'static str,
}

#[pymethods]
impl PyRepair {
    /// `(start, end)`: the characters of the input the repair touched.
    #[getter]
    fn span(&self) -> (usize, usize) {
        (self.start, self.end)
    }

    fn __repr__(&self) -> String {
        format!(
            "Repair(kind={:?}, start={}, end={}, message={:?})",
            self.kind, self.start, self.end, self.message
        )
    }
}

impl PyRepair {
    pub(crate) fn context_dict<'py>(
        &self,
        py: Python<'py>,
        context: &str,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        d.set_item("text", self.message)?;
        d.set_item("context", context)?;
        d.set_item("kind", self.kind)?;
        d.set_item("span", self.span())?;
        Ok(d)
    }
}

/// Repairs with byte spans into `text` as Python objects with character spans.
pub(crate) fn py_repairs(text: &str, repairs: &[jsonheal::Repair]) -> Vec<PyRepair> {
    if repairs.is_empty() {
        return Vec::new();
    }
    let chars = CharOffsets::new(
        text,
        repairs.iter().flat_map(|r| [r.span().start, r.span().end]),
    );
    repairs
        .iter()
        .map(|r| PyRepair {
            kind: r.kind().name(),
            start: chars.get(r.span().start),
            end: chars.get(r.span().end),
            message: r.kind().describe(),
        })
        .collect()
}

/// Repairs reported by name and byte span (a heal's notes) as the library's repairs.
pub(crate) fn from_notes(notes: &[jsonheal::schema::RepairNote]) -> Vec<jsonheal::Repair> {
    notes
        .iter()
        .filter_map(|n| {
            RepairKind::from_name(n.kind).map(|k| jsonheal::Repair::new(k, n.start..n.end))
        })
        .collect()
}

/// The engine's options from the keyword arguments Python passes.
pub(crate) fn options(
    strict: bool,
    multiple: &str,
    duplicate_keys: &str,
    non_finite: &str,
    max_depth: usize,
) -> PyResult<Options> {
    fn pick<T: Copy>(what: &str, given: &str, choices: &[(&str, T)]) -> PyResult<T> {
        choices
            .iter()
            .find(|(name, _)| *name == given)
            .map(|&(_, v)| v)
            .ok_or_else(|| {
                let names: Vec<String> = choices.iter().map(|(n, _)| format!("'{n}'")).collect();
                PyValueError::new_err(format!(
                    "{what} must be one of {}, got '{given}'",
                    names.join(", ")
                ))
            })
    }
    Ok(Options {
        multiple: pick(
            "multiple",
            multiple,
            &[
                ("array", Multiple::Array),
                ("first", Multiple::First),
                ("last", Multiple::Last),
                ("error", Multiple::Error),
            ],
        )?,
        duplicate_keys: pick(
            "duplicate_keys",
            duplicate_keys,
            &[
                ("keep", DuplicateKeys::Keep),
                ("first", DuplicateKeys::First),
                ("last", DuplicateKeys::Last),
                ("error", DuplicateKeys::Error),
            ],
        )?,
        non_finite: pick(
            "non_finite",
            non_finite,
            &[
                ("null", NonFinite::Null),
                ("string", NonFinite::String),
                ("error", NonFinite::Error),
            ],
        )?,
        max_depth,
        strict,
    })
}

/// A repaired document: `text` (valid JSON; for valid input, the input itself), `value`
/// (built on first access), `repairs` and `truncated`.
#[pyclass(name = "Repaired", module = "jsonheal", frozen)]
pub(crate) struct Repaired {
    text: String,
    repairs: Vec<PyRepair>,
    truncated: bool,
    value: PyOnceLock<Py<PyAny>>,
}

impl Repaired {
    pub(crate) fn new(input: &Input<'_>, repaired: jsonheal::Repaired) -> Repaired {
        let truncated = repaired.is_truncated();
        let repairs = py_repairs(&input.text, &input.merge(repaired.repairs));
        Repaired {
            text: repaired.text,
            repairs,
            truncated,
            value: PyOnceLock::new(),
        }
    }
}

#[pymethods]
impl Repaired {
    /// The repaired JSON text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The document as a Python value (built once, on first access).
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.value
            .get_or_try_init(py, || json_to_py(py, &self.text).map(Bound::unbind))
            .map(|v| v.clone_ref(py))
    }

    /// Every repair made, in input order; empty for valid JSON.
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.repairs.iter().cloned())
    }

    /// Whether the input was cut off and completed.
    #[getter]
    fn truncated(&self) -> bool {
        self.truncated
    }

    fn __repr__(&self) -> String {
        let mut shown: String = self.text.chars().take(60).collect();
        if shown.len() < self.text.len() {
            shown.push('…');
        }
        format!(
            "Repaired(text={shown:?}, repairs={}, truncated={})",
            self.repairs.len(),
            if self.truncated { "True" } else { "False" }
        )
    }
}

/// Repair `text` (str or bytes) into valid JSON.
#[pyfunction]
#[pyo3(signature = (text, *, strict=false, multiple="array", duplicate_keys="keep", non_finite="null", max_depth=127))]
pub(crate) fn repair(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    strict: bool,
    multiple: &str,
    duplicate_keys: &str,
    non_finite: &str,
    max_depth: usize,
) -> PyResult<Repaired> {
    let options = options(strict, multiple, duplicate_keys, non_finite, max_depth)?;
    let input = text::read(text)?;
    match repair_input(py, &input, &options) {
        Ok(repaired) => Ok(Repaired::new(&input, repaired)),
        Err(e) => Err(to_pyerr(py, &e, &input.text)),
    }
}

/// The engine's repair of `input`. In strict mode nothing is repaired, so neither is text
/// that had to be decoded with replacements.
pub(crate) fn repair_input(
    py: Python<'_>,
    input: &Input<'_>,
    options: &Options,
) -> Result<jsonheal::Repaired, jsonheal::Error> {
    if let (true, Some(first)) = (options.strict, input.decoded.first()) {
        return Err(jsonheal::Error::at(
            jsonheal::ErrorKind::Syntax(
                "invalid character (not UTF-8, or a lone surrogate)".into(),
            ),
            &input.text,
            first.span().start,
        ));
    }
    run(py, &input.text, |t| jsonheal::repair_with(t, options))
}

/// The answer `extract` picked out of a reply.
#[pyclass(name = "Extracted", module = "jsonheal", frozen)]
pub(crate) struct Extracted {
    /// The value.
    #[pyo3(get)]
    value: Py<PyAny>,
    /// Where it came from: 'whole', 'fence', 'span' or 'repaired'.
    #[pyo3(get)]
    source: &'static str,
    /// For a fenced block, its index among the reply's fences (0 is the first); else None.
    #[pyo3(get)]
    fence: Option<usize>,
    /// Character offsets `(start, end)` of the part of the reply the value was read from.
    #[pyo3(get)]
    span: (usize, usize),
    repairs: Vec<PyRepair>,
    /// Whether the value was cut off and completed.
    #[pyo3(get)]
    truncated: bool,
}

#[pymethods]
impl Extracted {
    /// The repairs made to that part, offsets into the whole reply.
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.repairs.iter().cloned())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Extracted(value={}, source={:?}, span={:?}, repairs={})",
            self.value.bind(py).repr()?,
            self.source,
            self.span,
            self.repairs.len()
        ))
    }
}

/// A candidate's source as a name and, for a fence, its index.
pub(crate) fn source_name(source: CandidateSource) -> (&'static str, Option<usize>) {
    match source {
        CandidateSource::Whole => ("whole", None),
        CandidateSource::Fence(i) => ("fence", Some(i)),
        CandidateSource::Span => ("span", None),
        CandidateSource::Repaired => ("repaired", None),
    }
}

/// Pick the answer out of an LLM reply: a fenced block, the JSON in the prose, or the
/// whole reply repaired.
#[pyfunction]
pub(crate) fn extract(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Extracted> {
    let input = text::read(text)?;
    let found = run(py, &input.text, jsonheal::extract::extract)
        .map_err(|e| to_pyerr(py, &e, &input.text))?;
    let truncated = found.is_truncated();
    let chars = CharOffsets::new(&input.text, [found.span.start, found.span.end].into_iter());
    let (source, fence) = source_name(found.source);
    Ok(Extracted {
        value: value_to_py(py, &found.value)?.unbind(),
        source,
        fence,
        span: (chars.get(found.span.start), chars.get(found.span.end)),
        repairs: py_repairs(&input.text, &input.merge(found.repairs)),
        truncated,
    })
}

/// Valid JSON text indented, numbers and strings as written (for `python -m jsonheal`).
#[pyfunction]
pub(crate) fn _pretty(text: &str) -> String {
    jsonheal::format::pretty(text)
}

/// Valid JSON text minified, numbers and strings as written (for `python -m jsonheal`).
#[pyfunction]
pub(crate) fn _compact(text: &str) -> String {
    jsonheal::format::compact(text)
}
