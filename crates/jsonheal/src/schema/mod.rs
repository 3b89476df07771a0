//! Schema healing: validate a value against a JSON Schema, coerce it to the schema where the
//! intent is clear, tell a model what to fix, and [`heal`] a whole reply in one call.
//!
//! ```
//! use serde_json::json;
//! let schema = jsonheal::Schema::new(&json!({
//!     "type": "object",
//!     "required": ["age"],
//!     "properties": {"age": {"type": "integer"}}
//! }))?;
//! let healed = jsonheal::heal("Sure: ```json\n{\"age\": \"42\"}\n```", &schema, &Default::default())
//!     .expect("healable");
//! assert_eq!(healed.value, json!({"age": 42}));
//! assert_eq!(healed.coercions.len(), 1);
//! # Ok::<(), jsonheal::Error>(())
//! ```

mod coerce;
mod feedback;
mod instructions;
mod render;
mod validate;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ErrorKind};
use crate::extract::{self, CandidateSource};

pub use coerce::{coerce, CoerceOptions, Coercion, CoercionKind};
pub use feedback::{feedback, MAX_FEEDBACK_BYTES, MAX_FEEDBACK_ERRORS};
pub use instructions::instructions;
pub use validate::{Violation, MAX_VIOLATIONS};

/// A compiled JSON Schema (drafts 4 to 2020-12, `format` checked). Compile once, reuse: cloning
/// is cheap (the compiled validator is shared) and it can be shared across threads.
#[derive(Clone)]
pub struct Schema {
    inner: Arc<Compiled>,
}

struct Compiled {
    raw: Value,
    validator: jsonschema::Validator,
    /// Validators for every subschema, compiled on first need: coercion uses them to pick the
    /// `anyOf`/`oneOf` branch a value fits. Most schemas never need it.
    branches: OnceLock<Option<jsonschema::ValidatorMap>>,
    /// The JSON pointer of every subschema of `raw`, keyed by its address: coercion walks the
    /// schema by reference and needs a pointer only to ask `branches`. `raw` never moves or
    /// changes once compiled, so the addresses are stable.
    pointers: OnceLock<HashMap<usize, String>>,
}

/// How deep [`Schema::new`] walks a schema to rewrite aliases; deeper schemas are refused
/// rather than risk the stack.
const MAX_SCHEMA_DEPTH: usize = 128;

/// Values nested deeper than this are invalid without asking the validator, which recurses
/// and would overflow the stack on a hostile reply (the repair engine accepts 10 000 levels).
pub const MAX_VALUE_DEPTH: usize = 200;

impl Schema {
    /// Compile `schema`. `"bool"` is accepted as an alias of `"boolean"` in `type`. A schema
    /// that is itself invalid is `ErrorKind::InvalidSchema`, naming the bad keyword and where
    /// it is.
    pub fn new(schema: &Value) -> Result<Schema, Error> {
        let mut raw = schema.clone();
        rewrite_aliases(&mut raw, 0)?;
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&raw)
            .map_err(|e| invalid_schema(&e))?;
        Ok(Schema {
            inner: Arc::new(Compiled {
                raw,
                validator,
                branches: OnceLock::new(),
                pointers: OnceLock::new(),
            }),
        })
    }

    /// The schema as compiled (with `"bool"` rewritten to `"boolean"`).
    pub fn raw(&self) -> &Value {
        &self.inner.raw
    }

    /// Every way `value` breaks the schema (at most [`MAX_VIOLATIONS`]); empty means valid.
    pub fn validate(&self, value: &Value) -> Vec<Violation> {
        if too_deep(value) {
            return vec![validate::too_deep()];
        }
        validate::violations(&self.inner.validator, &self.inner.raw, value)
    }

    /// Whether `value` is valid (faster than `validate(..).is_empty()`).
    pub fn is_valid(&self, value: &Value) -> bool {
        !too_deep(value) && self.inner.validator.is_valid(value)
    }

    /// Whether `value` is valid against `subschema` (a reference into [`Schema::raw`]), or
    /// `None` when that subschema has no validator of its own.
    pub(crate) fn is_valid_against(&self, subschema: &Value, value: &Value) -> Option<bool> {
        let pointers = self
            .inner
            .pointers
            .get_or_init(|| pointer_index(&self.inner.raw));
        let pointer = pointers.get(&address(subschema))?;
        let map = self
            .inner
            .branches
            .get_or_init(|| {
                jsonschema::options()
                    .should_validate_formats(true)
                    .build_map(&self.inner.raw)
                    .ok()
            })
            .as_ref()?;
        let key = format!("#{pointer}");
        map.get(&key).map(|v| !too_deep(value) && v.is_valid(value))
    }
}

/// Parse JSON text and compile it (a convenience for files and requests).
impl std::str::FromStr for Schema {
    type Err = Error;

    fn from_str(text: &str) -> Result<Schema, Error> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::new(ErrorKind::InvalidSchema(format!(
                "the schema is not JSON: {e}"
            )))
        })?;
        Schema::new(&value)
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("raw", &self.inner.raw)
            .finish_non_exhaustive()
    }
}

fn address(v: &Value) -> usize {
    v as *const Value as usize
}

/// Every node of `raw` by address, with its JSON pointer (an iterative walk).
fn pointer_index(raw: &Value) -> HashMap<usize, String> {
    let mut index = HashMap::new();
    let mut stack = vec![(raw, String::new())];
    while let Some((node, pointer)) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (k, child) in map {
                    stack.push((child, render::child(&pointer, k)));
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    stack.push((child, format!("{pointer}/{i}")));
                }
            }
            _ => continue,
        }
        index.insert(address(node), pointer);
    }
    index
}

/// Whether `value` nests deeper than [`MAX_VALUE_DEPTH`] (an iterative walk).
fn too_deep(value: &Value) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((node, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match node {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth >= MAX_VALUE_DEPTH {
            return true;
        }
        stack.extend(
            children
                .filter(|c| c.is_array() || c.is_object())
                .map(|c| (c, depth + 1)),
        );
    }
    false
}

/// Keywords whose values are data, not schemas: never rewrite inside them.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "default", "examples", "example"];

fn rewrite_aliases(node: &mut Value, depth: usize) -> Result<(), Error> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(Error::new(ErrorKind::InvalidSchema(format!(
            "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
        ))));
    }
    match node {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if key == "type" {
                    match child {
                        Value::String(t) if t == "bool" => *t = "boolean".to_owned(),
                        Value::Array(ts) => {
                            for t in ts.iter_mut() {
                                if t.as_str() == Some("bool") {
                                    *t = Value::String("boolean".to_owned());
                                }
                            }
                        }
                        _ => {}
                    }
                } else if !DATA_KEYWORDS.contains(&key.as_str()) {
                    rewrite_aliases(child, depth + 1)?;
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite_aliases(item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Name the keyword a compile error is about: the last segment of where in the schema the
/// problem is (`/properties/a/type` → `type`), else the kind of failure (`$ref`).
fn invalid_schema(e: &jsonschema::ValidationError<'_>) -> Error {
    let location = e.instance_path().as_str().to_owned();
    let keyword = location
        .rsplit('/')
        .next()
        .filter(|k| !k.is_empty() && k.parse::<usize>().is_err())
        .map(|k| k.replace("~1", "/").replace("~0", "~"))
        .or_else(|| {
            // An index (`/required/0`): the keyword is the segment before it.
            location
                .rsplit('/')
                .nth(1)
                .filter(|k| !k.is_empty())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| e.kind().keyword().to_owned());
    let at = if location.is_empty() {
        "the root".to_owned()
    } else {
        location
    };
    let detail = render::cut_chars(&e.to_string(), 200);
    Error::new(ErrorKind::InvalidSchema(format!(
        "bad `{keyword}` at {at}: {detail}"
    )))
}

/// How [`heal`] works.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HealOptions {
    /// Which coercions may shape the value to the schema.
    pub coerce: CoerceOptions,
    /// Accept a reply that was cut off and completed (default `false`: a truncated answer is
    /// refused with [`HealErrorKind::Truncated`]).
    pub allow_truncated: bool,
}

/// One repair of the syntax, in a form fit for logs and JSON output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepairNote {
    /// The repair kind's stable name (`trailing_comma`).
    pub kind: &'static str,
    /// Byte offsets `[start, end)` of the reply the repair touched.
    pub start: usize,
    /// End offset (exclusive); equal to `start` for an insertion.
    pub end: usize,
}

impl From<&crate::Repair> for RepairNote {
    fn from(r: &crate::Repair) -> RepairNote {
        RepairNote {
            kind: r.kind().name(),
            start: r.span().start,
            end: r.span().end,
        }
    }
}

/// A healed reply: a value valid against the schema and how it was obtained.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Healed {
    /// The value, valid against the schema.
    pub value: Value,
    /// Which part of the reply it came from.
    pub candidate: CandidateSource,
    /// Syntax repairs made to that part (offsets into the whole reply).
    pub repairs: Vec<RepairNote>,
    /// Coercions made to fit the schema.
    pub coercions: Vec<Coercion>,
}

/// Why a reply could not be healed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HealErrorKind {
    /// The reply holds no JSON at all.
    NoJson,
    /// The only JSON in the reply was cut off (and truncation is not allowed).
    Truncated,
    /// JSON was found but no candidate validates, even after coercion.
    Invalid,
}

/// A reply that could not be healed: why, the validation errors of the best candidate, and
/// the message to send back to the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HealError {
    /// No JSON, cut off, or invalid.
    pub kind: HealErrorKind,
    /// For `Invalid`: what is wrong with the reader's pick among the candidates.
    pub violations: Vec<Violation>,
    /// The message a model can act on (see [`feedback`]).
    pub feedback: String,
    /// The candidate the violations are about (for `Invalid`), for logs.
    pub rejected: Option<Box<Rejected>>,
}

/// The candidate a [`HealError`] is about: its value after coercion and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rejected {
    /// The candidate's value after coercion.
    pub value: Value,
    /// Which part of the reply it came from.
    pub candidate: CandidateSource,
}

impl fmt::Display for HealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            HealErrorKind::NoJson => f.write_str("no JSON found"),
            HealErrorKind::Truncated => f.write_str("the JSON in the reply was cut off"),
            HealErrorKind::Invalid => {
                let n = self.violations.len();
                write!(f, "{n} schema violation{}", if n == 1 { "" } else { "s" })?;
                if let Some(first) = self.violations.first() {
                    write!(f, ", first: {}: {}", first.display_path(), first.message)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for HealError {}

impl HealError {
    fn new(
        kind: HealErrorKind,
        violations: Vec<Violation>,
        rejected: Option<Rejected>,
    ) -> HealError {
        let feedback = feedback(kind, &violations);
        HealError {
            kind,
            violations,
            feedback,
            rejected: rejected.map(Box::new),
        }
    }
}

/// Heal an LLM reply against `schema`: extract the candidate values (see [`extract`]), coerce
/// each to the schema, and return the first that validates, in the extraction's order of
/// preference. Truncated candidates are refused unless `opts.allow_truncated`.
///
/// When the reader's pick (the first candidate) was cut off, the reply is refused as
/// truncated even if another candidate would validate: that one is not the answer. On other
/// failures the error carries the violations of the first complete candidate (after
/// coercion) and the feedback message for the model.
pub fn heal(text: &str, schema: &Schema, opts: &HealOptions) -> Result<Healed, HealError> {
    let mut candidates = extract::Candidates::new(text);
    let Some(first) = candidates.next() else {
        // Cut off while still reasoning: the answer never started, which is truncation.
        let kind = if extract::cut_while_reasoning(text) {
            HealErrorKind::Truncated
        } else {
            HealErrorKind::NoJson
        };
        return Err(HealError::new(kind, Vec::new(), None));
    };
    // The reader's pick is the first candidate; when it was cut off, the cut is what the
    // model must fix, even if some other part of the reply was complete.
    if first.truncated && !opts.allow_truncated {
        // Whatever else validates (an example shown before the answer) is not the answer.
        return Err(HealError::new(HealErrorKind::Truncated, Vec::new(), None));
    }
    let mut first_failure: Option<(Value, CandidateSource)> = None;
    for candidate in std::iter::once(first).chain(candidates) {
        if candidate.truncated && !opts.allow_truncated {
            continue;
        }
        let mut value = candidate.value;
        let mut coercions = Vec::new();
        let mut valid = schema.is_valid(&value);
        if !valid {
            coercions = coerce::coerce_invalid(&mut value, schema, &opts.coerce);
            valid = !coercions.is_empty() && schema.is_valid(&value);
        }
        if valid {
            return Ok(Healed {
                value,
                candidate: candidate.source,
                repairs: candidate.repairs.iter().map(RepairNote::from).collect(),
                coercions,
            });
        }
        if first_failure.is_none() {
            first_failure = Some((value, candidate.source));
        }
    }
    Err(match first_failure {
        Some((value, candidate)) => HealError::new(
            HealErrorKind::Invalid,
            schema.validate(&value),
            Some(Rejected { value, candidate }),
        ),
        // Only cut-off candidates, none of them the reader's pick.
        None => HealError::new(HealErrorKind::Truncated, Vec::new(), None),
    })
}
