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

mod cache;
mod coerce;
mod compact;
mod feedback;
mod index;
mod instructions;
mod patterns;
mod render;
mod validate;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ErrorKind};
use crate::extract::{self, CandidateSource};

pub use cache::SchemaCache;
pub use coerce::{coerce, CoerceOptions, Coercion, CoercionKind};
pub use feedback::{feedback, MAX_FEEDBACK_BYTES, MAX_FEEDBACK_ERRORS};
pub use instructions::{instructions, instructions_with, InstructionOptions};
pub use validate::{Violation, MAX_VIOLATIONS};

/// A compiled JSON Schema (drafts 4 to 2020-12, `format` checked, patterns read as
/// ECMA-262). Compile once, reuse: cloning is cheap (everything compiled is shared, including
/// the subschema validators coercion compiles on first need) and it can be shared across
/// threads.
#[derive(Clone)]
pub struct Schema {
    inner: Arc<Compiled>,
}

/// A validator compiled for one subschema, or `None` when it cannot have one of its own.
type Lazy = Option<Arc<jsonschema::Validator>>;

struct Compiled {
    raw: Value,
    validator: jsonschema::Validator,
    /// Pointers, base URIs, `$id`s and anchors of `raw`'s subschemas, built on the first
    /// `$ref` or subschema check. `raw` never moves or changes once compiled, so the
    /// addresses it is keyed by are stable.
    index: OnceLock<index::Index>,
    /// `raw` as a resource a subschema validator's `$ref` can reach.
    registry: OnceLock<Option<(String, jsonschema::Registry<'static>)>>,
    /// Validators for the subschemas coercion asked about (`anyOf` branches, `if`), by
    /// address, each compiled on first need: compiling them all up front costs hundreds of
    /// milliseconds on a large schema, and most coercions visit a handful.
    subschemas: RwLock<HashMap<usize, Lazy>>,
    /// `patternProperties` matchers by pattern, compiled on first need.
    patterns: RwLock<HashMap<String, Lazy>>,
    /// The last instructions written, with the options they were written for.
    instructions: Mutex<Option<(InstructionOptions, Arc<str>)>>,
}

/// How deep [`Schema::new`] walks a schema to rewrite aliases; deeper schemas are refused
/// rather than risk the stack.
const MAX_SCHEMA_DEPTH: usize = 128;

/// Values nested deeper than this are invalid without asking the validator, which recurses
/// and would overflow the stack on a hostile reply (the repair engine accepts 10 000 levels).
pub const MAX_VALUE_DEPTH: usize = 200;

/// Where a subschema validator's `$ref` reaches the root when the root has no `$id`
/// (the root's own base URI stays the validator's default, so relative `$id`s resolve alike).
const PROBE_BASE: &str = "json-schema:///jsonheal-probe.json";

impl Schema {
    /// Compile `schema`. `"bool"` is accepted as an alias of `"boolean"` in `type`; patterns
    /// are read as ECMA-262 (`\<` is a literal `<`, `[^]` any character, …). A schema that is
    /// itself invalid is `ErrorKind::InvalidSchema`, naming the bad keyword and where it is
    /// (for a pattern: the pattern and why it is not a regular expression, first).
    pub fn new(schema: &Value) -> Result<Schema, Error> {
        let mut raw = schema.clone();
        rewrite_aliases(&mut raw, 0)?;
        patterns::translate(&mut raw);
        patterns::check_all(&raw).map_err(|m| Error::new(ErrorKind::InvalidSchema(m)))?;
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&raw)
            .map_err(|e| invalid_schema(&e))?;
        Ok(Schema {
            inner: Arc::new(Compiled {
                raw,
                validator,
                index: OnceLock::new(),
                registry: OnceLock::new(),
                subschemas: RwLock::new(HashMap::new()),
                patterns: RwLock::new(HashMap::new()),
                instructions: Mutex::new(None),
            }),
        })
    }

    /// The schema as compiled (with `"bool"` rewritten to `"boolean"` and patterns in the
    /// ECMA-262 spelling the engine reads the same way).
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

    /// Whether `other` is this very compiled schema (a clone of it), not merely an equal one.
    pub fn same_as(&self, other: &Schema) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// How many subschema validators coercion has compiled so far (they are compiled one
    /// by one, on first need).
    pub fn compiled_subschemas(&self) -> usize {
        read(&self.inner.subschemas)
            .values()
            .filter(|v| v.is_some())
            .count()
    }

    fn index(&self) -> &index::Index {
        self.inner
            .index
            .get_or_init(|| index::Index::new(&self.inner.raw))
    }

    /// The subschema `reference` names, seen from `from` (a subschema holding the `$ref`):
    /// a JSON pointer, an `$id` or an `$anchor`, resolved as the validator resolves it.
    pub(crate) fn resolve_ref(&self, from: &Value, reference: &str) -> Option<&Value> {
        self.index().resolve(&self.inner.raw, from, reference)
    }

    /// Whether `value` is valid against `subschema` (a reference into [`Schema::raw`]), or
    /// `None` when that subschema has no validator of its own.
    pub(crate) fn is_valid_against(&self, subschema: &Value, value: &Value) -> Option<bool> {
        // A bare `{"$ref": …}` (the usual `anyOf` branch) shares its target's validator.
        let mut subschema = subschema;
        for _ in 0..16 {
            let only_ref = subschema
                .as_object()
                .filter(|o| o.len() == 1)
                .and_then(|o| o.get("$ref"))
                .and_then(Value::as_str);
            match only_ref.and_then(|r| self.resolve_ref(subschema, r)) {
                Some(target) => subschema = target,
                None => break,
            }
        }
        if std::ptr::eq(subschema, &self.inner.raw) {
            return Some(self.is_valid(value));
        }
        if let Value::Bool(b) = subschema {
            return Some(*b);
        }
        let key = index::address(subschema);
        let hit = read(&self.inner.subschemas).get(&key).cloned();
        let validator = match hit {
            Some(v) => v,
            None => {
                let v = self.compile_subschema(subschema).map(Arc::new);
                write(&self.inner.subschemas).insert(key, v.clone());
                v
            }
        }?;
        Some(!too_deep(value) && validator.is_valid(value))
    }

    /// A validator for one subschema: a `$ref` to it, through a registry holding the root, so
    /// that only what it uses is compiled.
    fn compile_subschema(&self, subschema: &Value) -> Option<jsonschema::Validator> {
        let pointer = self.index().pointer(subschema)?;
        let (root, registry) = self
            .inner
            .registry
            .get_or_init(|| {
                let root = self.index().root_uri();
                let registry = jsonschema::Registry::new()
                    .add(&root, self.inner.raw.clone())
                    .ok()?
                    .prepare()
                    .ok()?;
                Some((root, registry))
            })
            .as_ref()?;
        let probe =
            serde_json::json!({"$ref": format!("{root}#{}", index::pointer_fragment(pointer))});
        jsonschema::options()
            .with_draft(self.inner.validator.draft())
            .with_base_uri(PROBE_BASE)
            .should_validate_formats(true)
            .with_registry(registry)
            .build(&probe)
            .ok()
    }

    /// Whether `key` matches `pattern` (a `patternProperties` key of [`Schema::raw`]), or
    /// `None` when the pattern cannot be compiled.
    pub(crate) fn key_matches(&self, pattern: &str, key: &str) -> Option<bool> {
        let hit = read(&self.inner.patterns).get(pattern).cloned();
        let matcher = match hit {
            Some(m) => m,
            None => {
                let m = jsonschema::options()
                    .build(&serde_json::json!({ "pattern": pattern }))
                    .ok()
                    .map(Arc::new);
                write(&self.inner.patterns).insert(pattern.to_owned(), m.clone());
                m
            }
        }?;
        Some(matcher.is_valid(&Value::String(key.to_owned())))
    }

    /// The instructions for `opts`, written once and kept (a server asks for the same ones
    /// on every request).
    pub(crate) fn memo_instructions(
        &self,
        opts: &InstructionOptions,
        write: impl FnOnce() -> String,
    ) -> Arc<str> {
        let mut memo = self
            .inner
            .instructions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((o, text)) = memo.as_ref() {
            if o == opts {
                return Arc::clone(text);
            }
        }
        let text: Arc<str> = Arc::from(write());
        *memo = Some((opts.clone(), Arc::clone(&text)));
        text
    }
}

/// A lock that a panicking thread left poisoned still holds a consistent map: entries are
/// inserted whole.
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
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

fn rewrite_aliases(node: &mut Value, depth: usize) -> Result<(), Error> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(Error::new(ErrorKind::InvalidSchema(format!(
            "the schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
        ))));
    }
    match node.get_mut("type") {
        Some(Value::String(t)) if t == "bool" => *t = "boolean".to_owned(),
        Some(Value::Array(ts)) => {
            for t in ts.iter_mut() {
                if t.as_str() == Some("bool") {
                    *t = Value::String("boolean".to_owned());
                }
            }
        }
        _ => {}
    }
    let mut result = Ok(());
    index::children_mut(node, &mut |child| {
        if result.is_ok() {
            result = rewrite_aliases(child, depth + 1);
        }
    });
    result
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
    // The crate's message starts with the offending part of the schema, which may be most
    // of it: show that part short, so the reason comes within the first line.
    let message = e.to_string();
    let shown = e.instance().to_string();
    let message = match message.strip_prefix(shown.as_str()) {
        Some(reason) if shown.chars().count() > render::MAX_VALUE_CHARS => {
            format!("{}{reason}", render::value(e.instance()))
        }
        _ => message,
    };
    let detail = render::cut_chars(&message, 200);
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

impl HealErrorKind {
    /// The stable snake_case name (`no_json`, `truncated`, `invalid`), as serialized: for
    /// logs, metrics and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            HealErrorKind::NoJson => "no_json",
            HealErrorKind::Truncated => "truncated",
            HealErrorKind::Invalid => "invalid",
        }
    }
}

impl fmt::Display for HealErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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
