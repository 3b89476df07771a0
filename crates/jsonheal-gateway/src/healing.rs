//! The one place that calls the library's healing layers (`schema`, `args`, `tool_input`).
//!
//! The gateway only needs a handful of operations: compile a schema, write the instructions
//! for it, heal a reply against it, normalise tool-call arguments and encode/decode a stored
//! tool input. Keeping them behind this module means a change in the library's signatures is
//! absorbed here and nowhere else.

use std::sync::{Arc, OnceLock};

use jsonheal::args::{Strategy, ToolMap};
use jsonheal::extract::CandidateSource;
use jsonheal::quotes::QuoteMode;
use jsonheal::schema::{HealOptions, InstructionOptions, Schema};
use serde_json::{Map, Value};

/// Why a healing attempt did not give a valid answer: the library's kinds, with their stable
/// names (`no_json`, `truncated`, `invalid`) for logs and metrics.
pub use jsonheal::schema::HealErrorKind as FailureKind;

/// A JSON Schema compiled once and shared by every request that sends it (through
/// [`SchemaCache`]), with the instruction budget the gateway was configured with.
pub struct CompiledSchema {
    schema: Schema,
    instructions: InstructionOptions,
}

impl CompiledSchema {
    /// Compile `schema` on its own (no cache); the error says why it is not a valid JSON
    /// Schema.
    pub fn compile(schema: &Value) -> Result<CompiledSchema, String> {
        check_shape(schema)?;
        Schema::new(schema)
            .map(|schema| CompiledSchema {
                schema,
                instructions: InstructionOptions::default(),
            })
            .map_err(|e| e.to_string())
    }

    /// The schema as compiled.
    pub fn raw(&self) -> &Value {
        self.schema.raw()
    }

    /// The system message that asks a model to answer in this schema's shape, within the
    /// configured budget (written once per schema and kept with it).
    pub fn instructions(&self) -> String {
        jsonheal::schema::instructions_with(&self.schema, &self.instructions)
    }

    /// Shape `value` to the schema with the same safe coercions schema healing makes
    /// (`"true"` → `true` for a boolean, `"3"` → `3` for an integer, …); returns them, as
    /// the library reports them.
    pub fn coerce(&self, value: &mut Value) -> Vec<Value> {
        let opts = HealOptions::default().coerce;
        jsonheal::schema::coerce(value, &self.schema, &opts)
            .iter()
            .filter_map(|c| serde_json::to_value(c).ok())
            .collect()
    }

    /// Schema violations of `value`, each as `at <path>: <message>`; empty when valid.
    pub fn violations(&self, value: &Value) -> Vec<String> {
        if self.schema.is_valid(value) {
            return Vec::new();
        }
        self.schema
            .validate(value)
            .iter()
            .map(|v| format!("at {}: {}", v.display_path(), v.message))
            .collect()
    }
}

fn check_shape(schema: &Value) -> Result<(), String> {
    if schema.is_object() || schema.is_boolean() {
        Ok(())
    } else {
        Err("a JSON Schema must be an object or a boolean".to_owned())
    }
}

/// Compiled schemas by their JSON text, in the library's cache: clients send the same schema
/// with every request, and a cached schema keeps what healing compiled for it (subschema
/// validators, instructions) across requests.
#[derive(Default)]
pub struct SchemaCache {
    schemas: jsonheal::schema::SchemaCache,
    instructions: InstructionOptions,
}

impl SchemaCache {
    /// A cache whose schemas write their instructions within `budget_tokens`.
    pub fn with_instruction_budget(budget_tokens: usize) -> SchemaCache {
        SchemaCache {
            schemas: jsonheal::schema::SchemaCache::default(),
            instructions: InstructionOptions { budget_tokens },
        }
    }

    /// The compiled `schema`, compiling it on first sight.
    pub fn get_or_compile(&self, schema: &Value) -> Result<Arc<CompiledSchema>, String> {
        check_shape(schema)?;
        let schema = self.schemas.get(schema).map_err(|e| e.to_string())?;
        Ok(Arc::new(CompiledSchema {
            schema,
            instructions: self.instructions.clone(),
        }))
    }
}

/// A failed attempt: what kind of failure, and the feedback to send back to the model.
#[derive(Debug, Clone)]
pub struct HealFailure {
    pub kind: FailureKind,
    pub feedback: String,
}

/// A healed answer: the valid value and how it was obtained.
#[derive(Debug, Clone)]
pub struct HealSuccess {
    /// The schema-valid value.
    pub value: Value,
    /// Where the answer was found in the reply: `whole`, `fence`, `span` or `repaired`.
    pub candidate: &'static str,
    /// Names of the repairs made (`trailing_comma`, …), each once, in order of first use.
    pub repairs: Vec<String>,
    /// Coercions made to satisfy the schema (as the library reports them).
    pub coercions: Vec<Value>,
}

/// The feedback for a reply that `finish_reason: "length"` cut off.
pub fn truncated_feedback() -> String {
    "Your previous answer was cut off because it reached the token limit, so it is not a \
     complete JSON value. Answer again with the complete JSON value, shorter if needed, and \
     nothing else."
        .to_owned()
}

/// Heal `text` against `schema`: extract, repair, coerce, validate. A cut-off reply is
/// refused.
pub fn heal(text: &str, schema: &CompiledSchema) -> Result<HealSuccess, HealFailure> {
    match jsonheal::heal(text, &schema.schema, &HealOptions::default()) {
        Ok(healed) => Ok(HealSuccess {
            candidate: candidate_name(healed.candidate),
            repairs: distinct(healed.repairs.iter().map(|r| r.kind)),
            coercions: healed
                .coercions
                .iter()
                .filter_map(|c| serde_json::to_value(c).ok())
                .collect(),
            value: healed.value,
        }),
        Err(e) => Err(HealFailure {
            kind: e.kind,
            feedback: e.feedback,
        }),
    }
}

/// The report name of where an answer was found (a fence's index is left out: the name is
/// one of four fixed strings).
fn candidate_name(c: CandidateSource) -> &'static str {
    match c {
        CandidateSource::Whole => "whole",
        CandidateSource::Fence(_) => "fence",
        CandidateSource::Span => "span",
        CandidateSource::Repaired => "repaired",
    }
}

/// Each name once, in order of first appearance.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.iter().any(|o| o == n) {
            out.push(n.to_owned());
        }
    }
    out
}

/// Tool-call arguments normalised into an object.
#[derive(Debug, Clone)]
pub struct NormalizedArgs {
    pub value: Map<String, Value>,
    /// How the raw text became an object (`valid`, `single_quotes`, `cli_args`, …).
    pub strategy: String,
    /// Whether the text was cut short and completed.
    pub truncated: bool,
}

fn tool_map() -> &'static ToolMap {
    static MAP: OnceLock<ToolMap> = OnceLock::new();
    MAP.get_or_init(ToolMap::builtin)
}

/// Normalise a tool call's raw `arguments` into a JSON object, using the tool's
/// `parameters` schema to find its primary field.
pub fn normalize_args(
    tool: &str,
    raw: &str,
    parameters: Option<&Value>,
) -> Result<NormalizedArgs, String> {
    let n = jsonheal::args::normalize_with(tool, raw, tool_map(), parameters, QuoteMode::Code)
        .map_err(|e| e.to_string())?;
    Ok(NormalizedArgs {
        truncated: n.truncated,
        strategy: n.strategy.name().to_owned(),
        value: n.value,
    })
}

/// The strategy name of arguments that were valid JSON as sent.
pub fn valid_strategy() -> &'static str {
    Strategy::Valid.name()
}

/// Encode a tool input for storage (strict: anything but an object becomes `{}`).
pub fn encode_input(value: &Value) -> String {
    jsonheal::tool_input::encode(value)
}

/// Decode a stored tool input (tolerant: anything unreadable becomes `{}`).
pub fn decode_input(stored: Option<&str>) -> Map<String, Value> {
    jsonheal::tool_input::decode(stored)
}
