//! The one place that calls the library's healing layers (`schema`, `args`, `tool_input`).
//!
//! The gateway only needs a handful of operations: compile a schema, write the instructions
//! for it, heal a reply against it, normalise tool-call arguments and encode/decode a stored
//! tool input. Keeping them behind this module means a change in the library's signatures is
//! absorbed here and nowhere else.

use serde_json::{Map, Value};

/// A JSON Schema compiled once per request and reused for every attempt.
pub struct CompiledSchema {
    raw: Value,
    validator: jsonschema::Validator,
}

impl CompiledSchema {
    /// Compile `schema`; the error says why it is not a valid JSON Schema.
    pub fn compile(schema: &Value) -> Result<CompiledSchema, String> {
        if !(schema.is_object() || schema.is_boolean()) {
            return Err("a JSON Schema must be an object or a boolean".to_owned());
        }
        let validator = jsonschema::validator_for(schema).map_err(|e| e.to_string())?;
        Ok(CompiledSchema {
            raw: schema.clone(),
            validator,
        })
    }

    /// The schema as the client sent it.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// The system message that asks a model to answer in this schema's shape.
    pub fn instructions(&self) -> String {
        let schema = serde_json::to_string_pretty(&self.raw).unwrap_or_else(|_| "{}".to_owned());
        format!(
            "Respond with a single JSON value that conforms to the JSON Schema below. \
             Output only the JSON: no prose, no Markdown code fence, no comments.\n\n\
             JSON Schema:\n{schema}"
        )
    }

    /// Schema violations of `value`, each as `at <path>: <message>`; empty when valid.
    pub fn violations(&self, value: &Value) -> Vec<String> {
        self.validator
            .iter_errors(value)
            .take(20)
            .map(|e| {
                let path = e.instance_path().to_string();
                let path = if path.is_empty() {
                    "/".to_owned()
                } else {
                    path
                };
                format!("at {path}: {e}")
            })
            .collect()
    }
}

/// Why a healing attempt did not give a valid answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The reply held no JSON value.
    NoJson,
    /// The reply was cut off (by `max_tokens` or a broken stream).
    Truncated,
    /// The reply's JSON does not satisfy the schema.
    Invalid,
}

impl FailureKind {
    /// A stable lowercase name for logs and metrics.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::NoJson => "no_json",
            FailureKind::Truncated => "truncated",
            FailureKind::Invalid => "invalid",
        }
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
    /// Where the answer was found in the reply (serialised for the `jsonheal` body object).
    pub candidate: Value,
    /// Names of the repairs made (`trailing_comma`, …).
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

/// Heal `text` against `schema`: extract, repair, validate.
pub fn heal(text: &str, schema: &CompiledSchema) -> Result<HealSuccess, HealFailure> {
    let repaired = match jsonheal::repair(text) {
        Ok(r) => r,
        Err(e) => {
            return Err(HealFailure {
                kind: FailureKind::NoJson,
                feedback: format!(
                    "Your previous answer did not contain a JSON value ({e}). Answer with only \
                     a JSON value that conforms to the schema."
                ),
            })
        }
    };
    if repaired.is_truncated() {
        return Err(HealFailure {
            kind: FailureKind::Truncated,
            feedback: truncated_feedback(),
        });
    }
    let value = repaired.value().map_err(|e| HealFailure {
        kind: FailureKind::NoJson,
        feedback: format!("Your previous answer could not be read as JSON ({e})."),
    })?;
    let violations = schema.violations(&value);
    if !violations.is_empty() {
        return Err(HealFailure {
            kind: FailureKind::Invalid,
            feedback: format!(
                "Your previous answer does not conform to the JSON Schema:\n- {}\nAnswer again \
                 with only the corrected JSON value.",
                violations.join("\n- ")
            ),
        });
    }
    let candidate = if repaired
        .repairs
        .iter()
        .any(|r| r.kind == jsonheal::RepairKind::StrippedFence)
    {
        "fence"
    } else if repaired
        .repairs
        .iter()
        .any(|r| r.kind == jsonheal::RepairKind::StrippedProse)
    {
        "prose"
    } else {
        "whole"
    };
    Ok(HealSuccess {
        value,
        candidate: Value::String(candidate.to_owned()),
        repairs: repaired
            .repairs
            .iter()
            .map(|r| r.kind.name().to_owned())
            .collect(),
        coercions: Vec::new(),
    })
}

/// Tool-call arguments normalised into an object.
#[derive(Debug, Clone)]
pub struct NormalizedArgs {
    pub value: Map<String, Value>,
    /// How the raw text became an object (`json`, `repaired`, …).
    pub strategy: String,
    /// Whether the text had to be changed.
    pub repaired: bool,
}

/// Normalise a tool call's raw `arguments` into a JSON object.
pub fn normalize_args(
    _tool: &str,
    raw: &str,
    _parameters: Option<&Value>,
) -> Result<NormalizedArgs, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() || trimmed == "null" {
        return Ok(NormalizedArgs {
            value: Map::new(),
            strategy: "empty".to_owned(),
            repaired: !trimmed.is_empty(),
        });
    }
    if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(trimmed) {
        return Ok(NormalizedArgs {
            value: map,
            strategy: "json".to_owned(),
            repaired: false,
        });
    }
    let repaired = jsonheal::repair(trimmed).map_err(|e| e.to_string())?;
    match repaired.value().map_err(|e| e.to_string())? {
        Value::Object(map) => Ok(NormalizedArgs {
            value: map,
            strategy: "repaired".to_owned(),
            repaired: true,
        }),
        Value::String(inner) => match serde_json::from_str::<Value>(&inner) {
            Ok(Value::Object(map)) => Ok(NormalizedArgs {
                value: map,
                strategy: "double_encoded".to_owned(),
                repaired: true,
            }),
            _ => Err("arguments are a string, not an object".to_owned()),
        },
        other => Err(format!("arguments are {}, not an object", kind_of(&other))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Encode a tool input for storage (strict: anything but an object becomes `{}`).
pub fn encode_input(value: &Value) -> String {
    match value {
        Value::Object(_) => serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned()),
        _ => "{}".to_owned(),
    }
}

/// Decode a stored tool input (tolerant: anything unreadable becomes `{}`).
pub fn decode_input(stored: Option<&str>) -> Map<String, Value> {
    match stored.map(serde_json::from_str::<Value>) {
        Some(Ok(Value::Object(map))) => map,
        _ => Map::new(),
    }
}
